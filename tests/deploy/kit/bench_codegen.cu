/* bench_codegen.cu: bench_codegen.mlir in CUDA C: the nine kernels of the
 * codegen benchmark (codegen_kernels.cu, which scripts/gpu-kit.sh copies
 * from tests/bench/codegen/kernels.cu), the same inputs, launch shapes,
 * timing and checks; built with -DN=... -DM=... -DWT=... -DREPS=... Prints
 * the same cg_<kernel>_gbps / _gflops lines. */
#include "kit_cuda.h"

#include <cuda_fp16.h>

#include "codegen_kernels.cu"

static double giga_rate(double per, int reps, double t0, double t1) { return per * reps / (t1 - t0) / 1e9; }

static float modf_(long x, long k, int add) { return (float)((int)(x % k) + add); }

/* Times reps launches of `launch` on stream s after a warm-up; seconds. */
#define TIME(seconds, launch)                                                                      \
  do {                                                                                             \
    cudaStream_t s_ = 0;                                                                           \
    launch;                                                                                        \
    KIT_CHECK(cudaDeviceSynchronize());                                                            \
    KIT_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));                             \
    double t0_ = kit_now();                                                                        \
    for (int r_ = 0; r_ < reps; r_++)                                                              \
      launch;                                                                                      \
    KIT_CHECK(cudaStreamSynchronize(s_));                                                          \
    seconds[0] = t0_, seconds[1] = kit_now();                                                      \
    KIT_CHECK(cudaGetLastError());                                                                 \
    cudaStreamDestroy(s_);                                                                         \
  } while (0)

int main(void) {
  const long n = N, m = M, wt = WT;
  const int reps = REPS;
  const unsigned blocks = (unsigned)((n + 255) / 256), blocks4 = (unsigned)((n / 4 + 255) / 256);
  double t[2];
  long bad[9] = {0};

  /* 1-D: a[i] = i mod 8, b[i] = 2 */
  size_t bytes = (size_t)n * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hout = (float *)malloc(bytes);
  if (!ha || !hb || !hout)
    return 1;
  for (long i = 0; i < n; i++)
    ha[i] = modf_(i, 8, 0), hb[i] = 2.0f;
  float *da, *db, *dc, *dy, *dparts, *dwarps;
  KIT_CHECK(cudaMalloc(&da, bytes));
  KIT_CHECK(cudaMalloc(&db, bytes));
  KIT_CHECK(cudaMalloc(&dc, bytes));
  KIT_CHECK(cudaMalloc(&dy, bytes));
  KIT_CHECK(cudaMalloc(&dparts, (size_t)(n / 512) * sizeof(float)));
  KIT_CHECK(cudaMalloc(&dwarps, (size_t)(n / 32) * sizeof(float)));
  KIT_CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
  KIT_CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
  KIT_CHECK(cudaMemcpy(dy, hb, bytes, cudaMemcpyHostToDevice));

  TIME(t, (vadd<<<blocks, 256, 0, s_>>>(da, db, dc, n)));
  double vadd_rate = giga_rate(12.0 * n, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hout, dc, bytes, cudaMemcpyDeviceToHost));
  for (long i = 0; i < n; i++)
    bad[0] += hout[i] != ha[i] + 2.0f;

  /* vadd4 on the same arrays as float4s */
  TIME(t, (vadd4<<<blocks4, 256, 0, s_>>>((const float4 *)da, (const float4 *)db, (float4 *)dc, n / 4)));
  double vadd4_rate = giga_rate(12.0 * n, reps, t[0], t[1]);
  KIT_CHECK(cudaMemset(dc, 0, bytes));
  vadd4<<<blocks4, 256>>>((const float4 *)da, (const float4 *)db, (float4 *)dc, n / 4);
  KIT_CHECK(cudaMemcpy(hout, dc, bytes, cudaMemcpyDeviceToHost));
  for (long i = 0; i < n; i++)
    bad[1] += hout[i] != ha[i] + 2.0f;

  TIME(t, (saxpy<<<blocks, 256, 0, s_>>>(0.5f, da, dy, n)));
  double saxpy_rate = giga_rate(12.0 * n, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hout, dy, bytes, cudaMemcpyDeviceToHost));
  for (long i = 0; i < n; i++)
    bad[2] += hout[i] != 2.0f + 0.5f * ha[i] * (float)(reps + 1);

  TIME(t, (reduce_smem<<<(unsigned)(n / 512), 256, 0, s_>>>(da, dparts)));
  double smem_rate = giga_rate(4.0 * n, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hout, dparts, (size_t)(n / 512) * sizeof(float), cudaMemcpyDeviceToHost));
  for (long i = 0; i < n / 512; i++)
    bad[3] += hout[i] != 1792.0f;

  TIME(t, (reduce_shfl<<<blocks, 256, 0, s_>>>(da, dwarps)));
  double shfl_rate = giga_rate(4.0 * n, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hout, dwarps, (size_t)(n / 32) * sizeof(float), cudaMemcpyDeviceToHost));
  for (long i = 0; i < n / 32; i++)
    bad[4] += hout[i] != 112.0f;

  /* 2-D: A, B for sgemm16, the grid g for stencil5 and transpose */
  size_t mbytes = (size_t)m * m * sizeof(float);
  float *hA = (float *)malloc(mbytes), *hB = (float *)malloc(mbytes), *hg = (float *)malloc(mbytes),
        *hC = (float *)malloc(mbytes);
  if (!hA || !hB || !hg || !hC)
    return 1;
  for (long i = 0; i < m; i++)
    for (long j = 0; j < m; j++) {
      hA[i * m + j] = modf_(i + 2 * j, 7, -3);
      hB[i * m + j] = modf_(3 * i + j, 5, -2);
      hg[i * m + j] = modf_(j + 2 * i, 8, 0);
    }
  float *dA, *dB, *dC, *dg;
  KIT_CHECK(cudaMalloc(&dA, mbytes));
  KIT_CHECK(cudaMalloc(&dB, mbytes));
  KIT_CHECK(cudaMalloc(&dC, mbytes));
  KIT_CHECK(cudaMalloc(&dg, mbytes));
  KIT_CHECK(cudaMemcpy(dA, hA, mbytes, cudaMemcpyHostToDevice));
  KIT_CHECK(cudaMemcpy(dB, hB, mbytes, cudaMemcpyHostToDevice));
  KIT_CHECK(cudaMemcpy(dg, hg, mbytes, cudaMemcpyHostToDevice));

  dim3 tiles((unsigned)(m / 16), (unsigned)(m / 16)), b16(16, 16);
  TIME(t, (sgemm16<<<tiles, b16, 0, s_>>>(dA, dB, dC, m)));
  double sgemm_rate = giga_rate(2.0 * m * m * m, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hC, dC, mbytes, cudaMemcpyDeviceToHost));
  for (long e = 0; e < 64; e++) {
    long i = e * 37 % m, j = e * 91 % m;
    float want = 0.0f;
    for (long k = 0; k < m; k++)
      want += hA[i * m + k] * hB[k * m + j];
    bad[5] += hC[i * m + j] != want;
  }

  dim3 sgrid((unsigned)((m + 31) / 32), (unsigned)((m + 7) / 8)), b328(32, 8);
  KIT_CHECK(cudaMemset(dC, 0, mbytes));
  TIME(t, (stencil5<<<sgrid, b328, 0, s_>>>(dg, dC, m, m)));
  double stencil_rate = giga_rate(8.0 * m * m, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hC, dC, mbytes, cudaMemcpyDeviceToHost));
  for (long e = 0; e < 64; e++) {
    long y = e * 37 % (m - 2) + 1, x = e * 91 % (m - 2) + 1;
    float ns = hg[(y - 1) * m + x] + hg[(y + 1) * m + x], we = hg[y * m + x - 1] + hg[y * m + x + 1];
    bad[6] += hC[y * m + x] != 0.5f * hg[y * m + x] + 0.125f * (ns + we);
  }
  bad[6] += hC[0] != 0.0f;

  dim3 tgrid((unsigned)(m / 32), (unsigned)(m / 32));
  TIME(t, (transpose<<<tgrid, b328, 0, s_>>>(dg, dC, m, m)));
  double transpose_rate = giga_rate(8.0 * m * m, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hC, dC, mbytes, cudaMemcpyDeviceToHost));
  for (long e = 0; e < 64; e++) {
    long y = e * 37 % m, x = e * 91 % m;
    bad[7] += hC[x * m + y] != hg[y * m + x];
  }

  /* wmma_gemm: the first 16 wt x 16 wt of C = A B, 1024 x 1024 f16 */
  const long w = WMMA_N;
  size_t hbytes = (size_t)w * w * sizeof(__half), fbytes = (size_t)w * w * sizeof(float);
  __half *hA16 = (__half *)malloc(hbytes), *hB16 = (__half *)malloc(hbytes);
  float *hC32 = (float *)malloc(fbytes);
  if (!hA16 || !hB16 || !hC32)
    return 1;
  for (long i = 0; i < w; i++)
    for (long j = 0; j < w; j++) {
      hA16[i * w + j] = __float2half(modf_(i + j, 3, -1));
      hB16[i * w + j] = __float2half(modf_(i + 2 * j, 3, -1));
    }
  __half *dA16, *dB16;
  float *dC32;
  KIT_CHECK(cudaMalloc(&dA16, hbytes));
  KIT_CHECK(cudaMalloc(&dB16, hbytes));
  KIT_CHECK(cudaMalloc(&dC32, fbytes));
  KIT_CHECK(cudaMemcpy(dA16, hA16, hbytes, cudaMemcpyHostToDevice));
  KIT_CHECK(cudaMemcpy(dB16, hB16, hbytes, cudaMemcpyHostToDevice));
  dim3 wgrid((unsigned)wt, (unsigned)wt);
  TIME(t, (wmma_gemm<<<wgrid, 32, 0, s_>>>(dA16, dB16, dC32)));
  double side = 16.0 * wt;
  double wmma_rate = giga_rate(2.0 * side * side * w, reps, t[0], t[1]);
  KIT_CHECK(cudaMemcpy(hC32, dC32, fbytes, cudaMemcpyDeviceToHost));
  for (long e = 0; e < 64; e++) {
    long i = e * 37 % (16 * wt), j = e * 91 % (16 * wt);
    float want = 0.0f;
    for (long k = 0; k < w; k++)
      want += modf_(i + k, 3, -1) * modf_(k + 2 * j, 3, -1);
    bad[8] += hC32[i * w + j] != want;
  }

  printf("cg_vadd_gbps %g\n", vadd_rate);
  printf("cg_vadd4_gbps %g\n", vadd4_rate);
  printf("cg_saxpy_gbps %g\n", saxpy_rate);
  printf("cg_reduce_smem_gbps %g\n", smem_rate);
  printf("cg_reduce_shfl_gbps %g\n", shfl_rate);
  printf("cg_sgemm16_gflops %g\n", sgemm_rate);
  printf("cg_stencil5_gbps %g\n", stencil_rate);
  printf("cg_transpose_gbps %g\n", transpose_rate);
  printf("cg_wmma_gemm_gflops %g\n", wmma_rate);
  long total = 0;
  for (int k = 0; k < 9; k++)
    total += bad[k];
  if (total)
    printf("wrong (vadd vadd4 saxpy reduce_smem reduce_shfl sgemm16 stencil5 transpose wmma_gemm): "
           "%ld %ld %ld %ld %ld %ld %ld %ld %ld\n",
           bad[0], bad[1], bad[2], bad[3], bad[4], bad[5], bad[6], bad[7], bad[8]);
  kit_check(total);
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dy), cudaFree(dparts), cudaFree(dwarps);
  cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dg), cudaFree(dA16), cudaFree(dB16), cudaFree(dC32);
  free(ha), free(hb), free(hout), free(hA), free(hB), free(hg), free(hC), free(hA16), free(hB16), free(hC32);
  return 0;
}
