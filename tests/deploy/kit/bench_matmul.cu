/* bench_matmul.cu: bench_matmul.mlir in CUDA C: the shared-memory tiled
 * matmul (16 x 16 tiles, one barrier after each load and each use), the same
 * inputs, timing and 64-element check. Prints matmul_gflops. */
#include "kit_cuda.h"

#define TILE 16

__global__ void matmul(const float *a, const float *b, float *c, long n) {
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  long row = (long)blockIdx.y * TILE + threadIdx.y;
  long col = (long)blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (long t = 0; t < n / TILE; t++) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++)
      acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

static float a_at(long i, long k) { return (float)((int)((i + 2 * k) % 7) - 3); }
static float b_at(long k, long j) { return (float)((int)((3 * k + j) % 5) - 2); }

int main(void) {
  const long n = N;
  const int reps = REPS;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
  if (!ha || !hb || !hc)
    return 1;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      ha[i * n + j] = a_at(i, j);
      hb[i * n + j] = b_at(i, j);
    }
  float *a, *b, *c;
  KIT_CHECK(cudaMalloc(&a, bytes));
  KIT_CHECK(cudaMalloc(&b, bytes));
  KIT_CHECK(cudaMalloc(&c, bytes));
  KIT_CHECK(cudaMemcpy(a, ha, bytes, cudaMemcpyHostToDevice));
  KIT_CHECK(cudaMemcpy(b, hb, bytes, cudaMemcpyHostToDevice));
  dim3 grid((unsigned)(n / TILE), (unsigned)(n / TILE)), block(TILE, TILE);
  matmul<<<grid, block>>>(a, b, c, n);
  KIT_CHECK(cudaDeviceSynchronize());
  cudaStream_t s;
  KIT_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  double t0 = kit_now();
  for (int r = 0; r < reps; r++)
    matmul<<<grid, block, 0, s>>>(a, b, c, n);
  KIT_CHECK(cudaStreamSynchronize(s));
  double t1 = kit_now();
  KIT_CHECK(cudaGetLastError());
  KIT_CHECK(cudaMemcpy(hc, c, bytes, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (long e = 0; e < 64; e++) {
    long i = e * 37 % n, j = e * 91 % n;
    float want = 0.0f;
    for (long k = 0; k < n; k++)
      want += ha[i * n + k] * hb[k * n + j];
    bad += hc[i * n + j] != want;
  }
  printf("matmul_gflops %g\n", 2.0 * (double)n * n * n * reps / (t1 - t0) / 1e9);
  kit_check(bad);
  free(ha);
  free(hb);
  free(hc);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaStreamDestroy(s);
  return 0;
}
