/* backend.h: what the runtime needs from a GPU vendor's driver.
 *
 * One struct rt_backend per driver (backend_cuda.c, backend_hip.c, and the
 * CPU's, backend_host.c); adding a backend is adding its file and a line in
 * rt_backends (backend_list.c). A row holds the driver's operations and,
 * in `select`, everything the shared code asks of its vendor when it picks
 * an object, explains a choice or limits a launch (select.h): no other file
 * of the runtime names a vendor. The mgpu* functions do the argument
 * checking, lazy initialization and error reporting once, in common code; a
 * backend only translates each operation into driver calls.
 *
 * Contract for every operation:
 *  - it is called only after probe() succeeded, from any thread; the backend
 *    makes its device/context current itself;
 *  - it returns 0 on success, or -1 after filling *e: the driver call that
 *    failed and its result code (error_name/error_string turn the code into
 *    text), or, for a failure that is not a driver result, call = NULL and a
 *    complete explanation in e->detail;
 *  - handles (modules, functions, streams, events, pointers) are the driver's
 *    own, passed around as void *.
 * An operation may be NULL when the backend cannot do it at all (HIP has no
 * cluster launch); common code then reports that. */
#ifndef GPUCC_RT_BACKEND_H
#define GPUCC_RT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "select.h"

struct rt_limits; /* kernel_limits.h */

struct rt_err {
  const char *call; /* driver function that failed ("cuMemAlloc_v2"), or NULL */
  int code;         /* its result */
  char detail[4096];/* more text: a JIT log, or the whole message if call is NULL */
};

/* One kernel launch; cluster is {0,0,0} for a launch without clusters. */
struct rt_launch {
  void *function;
  unsigned grid[3], block[3], cluster[3];
  unsigned smem;
  void *stream;
  void **params, **extra;
  size_t nparams; /* number of entries in params; unknown (0) for clusters */
};

/* A TMA descriptor request (CUDA cuTensorMapEncodeTiled, dimension 0 is the
 * innermost). */
struct rt_tensor_map {
  int data_type;
  unsigned rank;
  void *address;
  uint64_t dims[5];
  uint64_t strides[4]; /* bytes, for dimensions 1..rank-1 */
  uint32_t box[5];
  uint32_t element_strides[5];
  int interleave, swizzle, l2_promotion, oob_fill;
};

struct rt_backend {
  const char *name;  /* "cuda": gpuccBackendName, GPUCC_BACKEND, GPUCC_LOG */
  const char *label; /* "CUDA": in messages */
  /* Its selection rules: the fat-binary vendor it runs, how it scores an
   * object for its device, the plain objects its driver loads, ... (in its
   * helper file, select_cuda.c ..., which tests link without a driver). */
  const struct rt_selection *select;

  /* Loads the driver library, initializes it and opens device `ordinal`;
   * fills *dev. On failure writes why, in a few words ("libcuda.so.1 not
   * found", "no device"), and returns -1; an empty why declines quietly,
   * leaving the backend out of the "no GPU found" message (a backend the
   * program carries no object for). Called once per process. */
  int (*probe)(int ordinal, struct rt_device *dev, char *why, size_t whylen);
  const char *(*error_name)(int code);
  const char *(*error_string)(int code);

  /* Loads a binary object, or NUL-terminated text when `text` is set (PTX). */
  int (*module_load)(const void *image, size_t size, int text, void **module,
                     struct rt_err *e);
  /* JIT-compiles NUL-terminated assembly at an optimization level. */
  int (*module_load_jit)(const char *text, int opt_level, void **module,
                         struct rt_err *e);
  /* Must succeed quietly when the driver is already shutting down (this runs
   * from a global destructor). */
  int (*module_unload)(void *module, struct rt_err *e);
  int (*module_function)(void *module, const char *name, void **function,
                         struct rt_err *e);
  /* Narrows *l (struct rt_limits, kernel_limits.h) to what the driver says of a
   * function it returned: the threads per block it can run with (its
   * registers count), its static shared memory. NULL when the driver says
   * nothing; a failure only means the limits stay as they were. Called once
   * per kernel, at its first lookup. */
  int (*function_limits)(void *function, struct rt_limits *l, struct rt_err *e);
  /* Tells the backend the names of a function it returned as the program
   * spells them (the kernel's, which module_function got mangled where the
   * objects could not carry it, and its gpu.module's), for what it reports
   * itself: the line that ends a program whose kernel faulted names both.
   * NULL when the backend has no use for them. Called once per kernel, at
   * its first lookup, before any launch. */
  void (*function_module)(void *function, const char *kernel, const char *module);
  int (*launch)(const struct rt_launch *l, struct rt_err *e);
  int (*launch_cluster)(const struct rt_launch *l, struct rt_err *e);

  int (*stream_create)(void **stream, struct rt_err *e);
  int (*stream_destroy)(void *stream, struct rt_err *e);
  int (*stream_synchronize)(void *stream, struct rt_err *e);
  int (*stream_wait_event)(void *stream, void *event, struct rt_err *e);
  int (*event_create)(void **event, struct rt_err *e);
  int (*event_destroy)(void *event, struct rt_err *e);
  int (*event_synchronize)(void *event, struct rt_err *e);
  int (*event_record)(void *event, void *stream, struct rt_err *e);

  /* Synchronous; host_shared asks for memory the host can access too. */
  int (*mem_alloc)(size_t bytes, int host_shared, void **ptr, struct rt_err *e);
  int (*mem_free)(void *ptr, struct rt_err *e);
  int (*mem_copy)(void *dst, const void *src, size_t bytes, void *stream,
                  struct rt_err *e);
  int (*mem_set32)(void *dst, uint32_t value, size_t count, void *stream,
                   struct rt_err *e);
  int (*mem_set16)(void *dst, uint16_t value, size_t count, void *stream,
                   struct rt_err *e);
  int (*host_register)(void *ptr, size_t bytes, struct rt_err *e);
  int (*host_unregister)(void *ptr, struct rt_err *e);
  /* The device address of registered host memory. */
  int (*host_device_pointer)(void *host, void **device, struct rt_err *e);

  /* Encodes a 128-byte TMA descriptor into map. */
  int (*tensor_map_encode)(const struct rt_tensor_map *t, void *map,
                           struct rt_err *e);
  /* Copies size bytes from the host to device memory, synchronously. */
  int (*copy_to_device)(void *dst, const void *src, size_t size, struct rt_err *e);

  /* What the optional operations this backend has and others lack
   * (launch_cluster, tensor_map_encode) are, for the message of a backend
   * that lacks one: "an NVIDIA sm_90+ feature" (rt_feature_note). NULL:
   * none of its own. */
  const char *feature_note;

  /* Makes the device current in the calling thread for calls into a vendor
   * library that runs on it (cuSPARSE, hipSPARSE: runtime/sparse/), and
   * undoes that; every enter is followed by one leave. NULL when there is
   * nothing to do. */
  int (*context_enter)(struct rt_err *e);
  void (*context_leave)(void);
};

/* The backends, NULL-terminated, in the order they are tried when
 * GPUCC_BACKEND does not force one (backend_list.c; a test build links a
 * list of its own). */
extern const struct rt_backend *const rt_backends[];
/* The rows themselves are named in backend_rows.h only, for the lists:
 * whatever else needs to know a backend (the sparse library picking its
 * vendor library) asks its row (`name`). */

/* The rules of the backend that runs `vendor`'s objects, or NULL when no
 * backend does (init.c). */
const struct rt_selection *rt_selection_of(enum fatbin_vendor vendor);
/* The feature_note of the first backend for which has(b) holds: what an
 * operation the backend in use lacks is, and where it exists; "" when no
 * backend has it (init.c). */
const char *rt_feature_note(int (*has)(const struct rt_backend *b));

/* Sets e to a failure of a driver call and returns -1, so that backends can
 * write `return rt_fail(e, "cuMemAlloc_v2", r);`. */
int rt_fail(struct rt_err *e, const char *call, int code);
/* Sets e to a failure described in words (printf format); returns -1. */
int rt_fail_msg(struct rt_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
