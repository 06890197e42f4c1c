/* harness.h: a tiny framework for the runtime's test programs.
 *
 * A test program is a table of scenarios. CTest runs `prog NAME` with the
 * environment the scenario needs (fake driver, device description); the
 * program then re-executes itself as `prog --child NAME` in a child process,
 * captures the child's stderr and checks its exit status and messages. That
 * way a scenario can end in the runtime's exit(1), global constructors and
 * destructors run as in a real program, and one process's lazily started
 * runtime does not leak into the next scenario.
 *
 * In a child, CHECK failures print the condition and exit with status 3. */
#ifndef GPUCC_TEST_HARNESS_H
#define GPUCC_TEST_HARNESS_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "fatbin.h"

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "CHECK FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);      \
      exit(3);                                                                      \
    }                                                                               \
  } while (0)

struct rt_test {
  const char *name;
  void (*run)(void);          /* the scenario, in the child */
  int status;                 /* expected exit status of the child */
  const char *stderr_has[6];  /* each must appear in the child's stderr */
  const char *stderr_lacks[4];/* none may appear */
  int (*skip)(void);          /* if set and true, the test exits 77 */
};

/* Runs the scenario named in argv (see above). Before starting the child it
 * empties the fake drivers' log files (FAKE_CUDA_LOG, FAKE_HIP_LOG). Returns
 * 2 for a bad usage, 77 for a skipped scenario, 0 from a child that ran the
 * scenario; after a child's run the parent exits itself (0 or 1). */
int rt_test_main(int argc, char **argv, const struct rt_test *tests, size_t n);

/* Number of lines of the file named by the variable log_env that contain
 * needle. */
int rt_log_count(const char *log_env, const char *needle);
/* Number of lines that contain both needles. */
int rt_log_count2(const char *log_env, const char *needle, const char *needle2);
/* The whole file, malloc'ed (NULL if it cannot be read). */
char *rt_slurp(const char *path);

/* A gpucc fat binary holding the n entries (fatbin_write); free() it. */
void *rt_make_blob(const struct fatbin_entry *entries, size_t n, size_t *size);
/* The same with kernel lines (what each kernel was compiled for). */
void *rt_make_blob_kernels(const struct fatbin_entry *entries, size_t n,
                           const struct fatbin_kernel *kernels, size_t nkernels, size_t *size);

#endif
