/* kit_cuda.h: what the CUDA C benchmarks of the GPU check kit share: error
 * checks and the host clock. They are built on the GPU machine by the kit's
 * runner with nvcc -DN=... -DREPS=... (the sizes the MLIR versions were
 * built with) and print the same "<metric> <value>" lines as those, so the
 * runner can set each figure beside its gpucc twin.
 *
 * Exit status 77 means "no usable GPU here" (no device, no driver), which
 * the runner reports as skipped rather than failed. */
#ifndef GPUCC_KIT_CUDA_H
#define GPUCC_KIT_CUDA_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cuda_runtime.h>

static void kit_fail(const char *what, cudaError_t e) {
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
      e == cudaErrorInitializationError) {
    printf("skip: no usable CUDA device: %s\n", cudaGetErrorString(e));
    exit(77);
  }
  fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

#define KIT_CHECK(call)                                                            \
  do {                                                                             \
    cudaError_t kit_e = (call);                                                    \
    if (kit_e != cudaSuccess)                                                      \
      kit_fail(#call, kit_e);                                                      \
  } while (0)

/* Seconds on the monotonic clock: the MLIR versions time with rtclock(),
 * on the host, around the same loop and wait. */
static double kit_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void kit_check(long bad) { printf(bad == 0 ? "check ok\n" : "check FAILED\n"); }

#endif
