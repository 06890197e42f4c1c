/* kernel_fault.h: a kernel that failed on a GPU, named as the host backend
 * names one (fault_text.h).
 *
 * A GPU driver reports a fault inside a kernel (an illegal address, a trap,
 * a failed assert) as a sticky error code returned by whatever call comes
 * next: a synchronization, a copy, another launch. The code does not say
 * which kernel; the runtime remembers, per stream, the last kernel launched
 * on it (and per event, the stream's last kernel when the event was
 * recorded), and names that one, or the last kernel launched anywhere when
 * the failing call has no stream of its own. The CUDA and HIP backends call
 * these; each keeps its own struct rt_kernel_id per function. */
#ifndef GPUCC_RT_KERNEL_FAULT_H
#define GPUCC_RT_KERNEL_FAULT_H

#include "fault_text.h"

/* A kernel as fault reports name it; owned by the backend, which calls
 * rt_fault_forget_kernel before freeing it. */
struct rt_kernel_id {
  const char *name;
  const char *module; /* NULL until the backend is told (function_module) */
};

/* What the CUDA and HIP backends hand out as modules and functions: the
 * driver's handle, wrapped so that a launch knows its kernel's name without
 * a lookup. module.c serializes rt_gpu_function_new per module (its lock)
 * and calls nothing of a module once it is unloaded. */
struct rt_gpu_function {
  void *handle;              /* the driver's function */
  struct rt_kernel_id id;
  struct rt_gpu_function *next;
  char *module;              /* owned copy behind id.module */
  char *shown;               /* the program's spelling of a mangled name,
                                behind id.name once told; else NULL */
  char name[];               /* as the object spells it: behind id.name
                                until then */
};
struct rt_gpu_module {
  void *handle; /* the driver's module */
  struct rt_gpu_function *functions;
};

/* A wrapper for a module just loaded; NULL when out of memory. */
struct rt_gpu_module *rt_gpu_module_new(void *handle);
/* Frees m and its functions (after rt_fault_forget_kernel on each). */
void rt_gpu_module_free(struct rt_gpu_module *m);
/* A wrapper for the function `handle` named `name` of m, added to m; NULL
 * when out of memory. */
struct rt_gpu_function *rt_gpu_function_new(struct rt_gpu_module *m, void *handle,
                                            const char *name);
/* The backends' function_module: the kernel's and gpu.module's names as the
 * program spells them, for reports (out of memory leaves them as they were). */
void rt_gpu_function_module(void *function, const char *kernel, const char *module);

/* Launched k on stream (NULL: the default stream). Lock-free; a few loads
 * and a store. */
void rt_fault_note_launch(void *stream, const struct rt_kernel_id *k);
/* event now stands for the work queued on stream so far. */
void rt_fault_note_record(void *event, void *stream);
/* A stream or event handle that ends (its address may come back). */
void rt_fault_forget(void *handle);
/* k is about to be freed: no report may name it. */
void rt_fault_forget_kernel(const struct rt_kernel_id *k);

/* When kind >= 0 and a kernel is known for handle (a stream, an event, or
 * NULL: the default stream; failing that, the last kernel launched
 * anywhere), reports "gpucc: kernel 'k' (module m): <what>" (error.c's
 * rt_error_fault: stdout flushed, exit 1, unless a handler returns) and
 * returns 1: the call that saw the error returns as if it had succeeded.
 * Returns 0 (nothing reported) otherwise: the caller reports the driver's
 * error as usual. */
int rt_fault_report(void *handle, int kind);

/* error.c: reports a whole fault line (starting "gpucc: ") to the error
 * handler (without that prefix), or flushes stdout, prints it on stderr
 * and exits with status 1. */
void rt_error_fault(const char *line);

#endif
