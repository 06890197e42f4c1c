/* bench_launch.cu: bench_launch.mlir in CUDA C: an empty kernel launched
 * with cudaLaunchKernel, REPS times queued on one stream then one wait
 * (launch_us), and SYNC_REPS times each followed by a wait, the way a CUDA
 * program written synchronously does it (launch_sync_us: on the legacy
 * default stream, with cudaDeviceSynchronize). Microseconds per launch. */
#include "kit_cuda.h"

__global__ void empty(void) {}

int main(void) {
  const int reps = REPS, sync_reps = SYNC_REPS;
  empty<<<1, 1>>>();
  KIT_CHECK(cudaDeviceSynchronize());
  cudaStream_t s;
  KIT_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  double t0 = kit_now();
  for (int r = 0; r < reps; r++)
    KIT_CHECK(cudaLaunchKernel((const void *)empty, dim3(1), dim3(1), NULL, 0, s));
  KIT_CHECK(cudaStreamSynchronize(s));
  double t1 = kit_now();
  for (int r = 0; r < sync_reps; r++) {
    KIT_CHECK(cudaLaunchKernel((const void *)empty, dim3(1), dim3(1), NULL, 0, 0));
    KIT_CHECK(cudaDeviceSynchronize());
  }
  double t2 = kit_now();
  printf("launch_us %g\n", (t1 - t0) * 1e6 / reps);
  printf("launch_sync_us %g\n", (t2 - t1) * 1e6 / sync_reps);
  kit_check(0);
  cudaStreamDestroy(s);
  return 0;
}
