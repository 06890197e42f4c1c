/* rt.h: what the runtime's files share, and nothing that leaves the library.
 *
 * Internal names start with rt_ and have hidden visibility (the library is
 * compiled with -fvisibility=hidden); RT_EXPORT marks the few functions of
 * gpucc_rt.h that are the library's interface. */
#ifndef GPUCC_RT_INTERNAL_H
#define GPUCC_RT_INTERNAL_H

#include <stddef.h>

#include "backend.h"
#include "gpucc_rt.h"
#include "kernel_limits.h"

#define RT_EXPORT __attribute__((visibility("default")))

/* ---- error.c: reporting ---- */

/* Reports a runtime error (printf format, no prefix, no newline): to the
 * handler installed with gpuccSetErrorHandler, or to stderr followed by
 * exit(1). Returns only when a handler returned. Never call it while holding
 * a runtime lock: exit() runs the destructors that unload modules. */
void rt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes "<fn>: <call> failed: <NAME> (<string>)[ <context>][: <detail>]"
 * for a backend failure into buf. context may be NULL. */
void rt_format_failure(char *buf, size_t len, const char *fn,
                       const struct rt_backend *b, const struct rt_err *e,
                       const char *context);
/* rt_format_failure + rt_error. */
void rt_error_failure(const char *fn, const struct rt_backend *b,
                      const struct rt_err *e, const char *context);
/* A message that must not stop the program (printed to stderr). */
void rt_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- log.c: GPUCC_LOG tracing ---- */

int rt_log_enabled(void);
/* Prints "gpucc: log: <message>" to stderr when GPUCC_LOG is set. */
void rt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- strbuf helpers (log.c) ---- */

/* Appends to a NUL-terminated buffer of len bytes, truncating. */
void rt_appendf(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- init.c: choosing and starting the backend ---- */

/* Starts the runtime on first use (once per process, thread-safe) and returns
 * the backend in use. When none could start, reports the "no GPU found" error
 * on behalf of fn and returns NULL. */
const struct rt_backend *rt_backend_get(const char *fn);

/* The streams mgpuStreamCreate made and mgpuStreamDestroy has not ended
 * (stream_set.c): event functions handed one treat it as a stream. */
void rt_stream_set_add(void *stream);
void rt_stream_set_remove(void *stream);
int rt_stream_set_has(void *handle);
/* The backend in use if the runtime has started, else NULL; never starts it. */
const struct rt_backend *rt_backend_peek(void);
/* Why the backends tried before the one in use found no device ("CUDA:
 * libcuda.so.1 not found; HIP: ..."), or "" when the first one worked or the
 * backend was forced. Valid once rt_backend_get returned non-NULL. */
const char *rt_backends_passed_over(void);
/* The device in use; valid once rt_backend_get returned non-NULL. */
const struct rt_device *rt_device(void);

/* ---- module.c ---- */

/* What mgpuModuleGetFunction returns: made at the first lookup of a kernel
 * name in a module and kept until the module is unloaded (MLIR's lowering
 * looks the kernel up before every launch), so a launch finds its limits
 * without a lookup. Immutable once made. */
struct rt_function {
  void *handle;              /* the backend's function */
  size_t nlimits;
  struct rt_limits *limits;  /* one per target that must accept a launch */
  struct rt_function *next;  /* the module's one made before */
  const char *symbol;        /* the kernel's name in the objects, which the
                                program looks it up by (mangled where the
                                program's could not be carried: symname.h);
                                stored after name */
  char name[];               /* the kernel's name as the program spells it,
                                for messages */
};

/* ---- loaded_targets.c ---- */

/* Writes the distinct targets carried by every loaded module, for messages
 * ("sm_80 sm_90 gfx90a"); empty when there are none. (The walk over the
 * loaded modules itself is registry.h's.) */
void rt_modules_describe_targets(char *buf, size_t len);

/* ---- dynlib.c: loading a driver library ---- */

/* dlopen()s the library named by the environment variable env_override if it
 * is set, else the first of names[] (NULL-terminated) that loads. Returns the
 * handle, or NULL with a short reason in why ("libcuda.so.1 not found"). */
void *rt_dlopen_first(const char *env_override, const char *const names[],
                      char *why, size_t whylen);

#endif
