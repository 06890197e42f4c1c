/* bench_reduce.cu: bench_reduce.mlir in CUDA C: each block of 256 threads
 * sums 1024 floats (4 per thread, 256 apart) through shared memory, a
 * barrier per halving step, thread 0 writing the partial. Same input,
 * timing and check. Prints reduce_gbps (input bytes read per second). */
#include "kit_cuda.h"

__global__ void reduce(const float *in, float *out) {
  __shared__ float tile[256];
  long base = (long)blockIdx.x * 1024 + threadIdx.x;
  float mine = 0.0f;
  for (int k = 0; k < 4; k++)
    mine += in[base + k * 256];
  tile[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      tile[threadIdx.x] += tile[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = tile[0];
}

int main(void) {
  const long n = N;
  const int reps = REPS;
  const long blocks = n / 1024;
  float *hin = (float *)malloc(n * sizeof(float)), *hout = (float *)malloc(blocks * sizeof(float));
  if (!hin || !hout)
    return 1;
  for (long i = 0; i < n; i++)
    hin[i] = (float)(i % 8);
  float *in, *out;
  KIT_CHECK(cudaMalloc(&in, n * sizeof(float)));
  KIT_CHECK(cudaMalloc(&out, blocks * sizeof(float)));
  KIT_CHECK(cudaMemcpy(in, hin, n * sizeof(float), cudaMemcpyHostToDevice));
  reduce<<<(unsigned)blocks, 256>>>(in, out);
  KIT_CHECK(cudaDeviceSynchronize());
  cudaStream_t s;
  KIT_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  double t0 = kit_now();
  for (int r = 0; r < reps; r++)
    reduce<<<(unsigned)blocks, 256, 0, s>>>(in, out);
  KIT_CHECK(cudaStreamSynchronize(s));
  double t1 = kit_now();
  KIT_CHECK(cudaGetLastError());
  KIT_CHECK(cudaMemcpy(hout, out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  long bad = 0;
  for (long i = 0; i < blocks; i++)
    bad += hout[i] != 3584.0f;
  printf("reduce_gbps %g\n", 4.0 * (double)n * reps / (t1 - t0) / 1e9);
  kit_check(bad);
  free(hin);
  free(hout);
  cudaFree(in);
  cudaFree(out);
  cudaStreamDestroy(s);
  return 0;
}
