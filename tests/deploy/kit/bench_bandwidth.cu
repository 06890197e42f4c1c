/* bench_bandwidth.cu: bench_bandwidth.mlir in CUDA C (same kernels, launch
 * configuration, stream use and timing): vecadd and saxpy bandwidth, and
 * the device-to-device copy rate, in GB/s. */
#include "kit_cuda.h"

__global__ void vecadd(const float *a, const float *b, float *c, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void saxpy(float alpha, const float *x, float *y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}

/* gpu.memset of a float: cuMemsetD32 of its bits, as gpucc's runtime does. */
__global__ void fill(float *p, float v, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

static double gbps(int arrays, long n, int reps, double seconds) {
  return (double)arrays * 4.0 * (double)n * reps / seconds / 1e9;
}

int main(void) {
  const long n = N;
  const int reps = REPS;
  const unsigned blocks = (unsigned)((n + 255) / 256);
  float *a, *b, *c;
  KIT_CHECK(cudaMalloc(&a, n * sizeof(float)));
  KIT_CHECK(cudaMalloc(&b, n * sizeof(float)));
  KIT_CHECK(cudaMalloc(&c, n * sizeof(float)));
  fill<<<blocks, 256>>>(a, 1.0f, n);
  fill<<<blocks, 256>>>(b, 2.0f, n);
  KIT_CHECK(cudaDeviceSynchronize());
  cudaStream_t s;
  KIT_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  vecadd<<<blocks, 256, 0, s>>>(a, b, c, n);
  KIT_CHECK(cudaStreamSynchronize(s));
  double t0 = kit_now();
  for (int r = 0; r < reps; r++)
    vecadd<<<blocks, 256, 0, s>>>(a, b, c, n);
  KIT_CHECK(cudaStreamSynchronize(s));
  double t1 = kit_now();

  saxpy<<<blocks, 256, 0, s>>>(0.5f, a, b, n);
  KIT_CHECK(cudaStreamSynchronize(s));
  double t2 = kit_now();
  for (int r = 0; r < reps; r++)
    saxpy<<<blocks, 256, 0, s>>>(0.5f, a, b, n);
  KIT_CHECK(cudaStreamSynchronize(s));
  double t3 = kit_now();

  KIT_CHECK(cudaMemcpyAsync(c, a, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
  KIT_CHECK(cudaStreamSynchronize(s));
  double t4 = kit_now();
  for (int r = 0; r < reps; r++)
    KIT_CHECK(cudaMemcpyAsync(c, a, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
  KIT_CHECK(cudaStreamSynchronize(s));
  double t5 = kit_now();
  KIT_CHECK(cudaGetLastError());

  float *hb = (float *)malloc(n * sizeof(float)), *hc = (float *)malloc(n * sizeof(float));
  if (!hb || !hc)
    return 1;
  KIT_CHECK(cudaMemcpy(hb, b, n * sizeof(float), cudaMemcpyDeviceToHost));
  KIT_CHECK(cudaMemcpy(hc, c, n * sizeof(float), cudaMemcpyDeviceToHost));
  const float want = 2.0f + 0.5f * ((float)reps + 1.0f);
  long bad = 0;
  for (long i = 0; i < n; i++)
    bad += !(hb[i] == want && hc[i] == 1.0f);
  printf("vecadd_gbps %g\n", gbps(3, n, reps, t1 - t0));
  printf("saxpy_gbps %g\n", gbps(3, n, reps, t3 - t2));
  printf("copy_gbps %g\n", gbps(2, n, reps, t5 - t4));
  kit_check(bad);
  free(hb);
  free(hc);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaStreamDestroy(s);
  return 0;
}
