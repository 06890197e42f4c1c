/* kernels.cu: the CUDA C twins of kernels.mlir and wmma.mlir, for the
 * codegen benchmark (bench_codegen.c) and the GPU check kit's
 * bench_codegen.cu. The same algorithm, launch shape and 64-bit indices as
 * the MLIR: `long` where the MLIR has `index`, __launch_bounds__ where it has
 * known_block_size, no __restrict__ (an MLIR memref carries no aliasing
 * promise either).
 *
 * nvcc compiles it as is; clang-22 compiles it as HIP for gfx942 with
 * hip_prelude.h, which supplies the few CUDA names used here (the file
 * includes no header of its own under HIP). wmma_gemm uses nvcuda::wmma and
 * is NVIDIA-only: gfx942 (CDNA3) has no WMMA, and gpucc refuses
 * gpu.subgroup_mma_* for it. */
#ifndef __HIP__
#include <mma.h>
#endif

#define SGEMM_TILE 16
#define TRANSPOSE_TILE 32
#define TRANSPOSE_ROWS 8
#define WMMA_N 1024

/* c = a + b, one float per thread. */
extern "C" __global__ void vadd(const float *a, const float *b, float *c, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

/* c = a + b, one float4 per thread (n counts float4s). */
extern "C" __global__ void vadd4(const float4 *a, const float4 *b, float4 *c, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

/* y = alpha x + y. */
extern "C" __global__ void saxpy(float alpha, const float *x, float *y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}

/* Each block of 256 sums 512 consecutive floats: two per thread into shared
 * memory, then a tree that halves the active threads, a barrier per step. */
extern "C" __global__ void __launch_bounds__(256) reduce_smem(const float *in, float *out) {
  __shared__ float part[256];
  long t = threadIdx.x, b = blockIdx.x;
  long base = b * 512 + t;
  part[t] = in[base] + in[base + 256];
  __syncthreads();
  for (long s = 128; s > 0; s >>= 1) {
    if (t < s)
      part[t] = part[t] + part[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[b] = part[0];
}

/* Each group of 32 lanes sums its 32 floats with xor shuffles; its first
 * lane writes the sum to out[i / 32]. */
extern "C" __global__ void reduce_shfl(const float *in, float *out) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int k = 0; k < 5; k++)
    v = v + __shfl_xor_sync(0xffffffffu, v, 16 >> k, 32);
  if ((threadIdx.x & 31) == 0)
    out[i >> 5] = v;
}

/* c = a b for n x n row-major matrices (n a multiple of 16), 16 x 16
 * threads, one 16 x 16 tile of a and of b at a time in shared memory. */
extern "C" __global__ void __launch_bounds__(256)
sgemm16(const float *a, const float *b, float *c, long n) {
  __shared__ float ta[SGEMM_TILE][SGEMM_TILE], tb[SGEMM_TILE][SGEMM_TILE];
  long tx = threadIdx.x, ty = threadIdx.y;
  long row = (long)blockIdx.y * SGEMM_TILE + ty;
  long col = (long)blockIdx.x * SGEMM_TILE + tx;
  float acc = 0.0f;
  for (long t = 0; t < n / SGEMM_TILE; t++) {
    ta[ty][tx] = a[row * n + t * SGEMM_TILE + tx];
    tb[ty][tx] = b[(t * SGEMM_TILE + ty) * n + col];
    __syncthreads();
    for (long k = 0; k < SGEMM_TILE; k++)
      acc = acc + ta[ty][k] * tb[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

/* out = 0.5 centre + 0.125 (north + south + west + east) on the interior of
 * a rows x cols grid, one point per thread of a 2-D launch. */
extern "C" __global__ void stencil5(const float *in, float *out, long rows, long cols) {
  long x = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long y = (long)blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= 1 && x < cols - 1 && y >= 1 && y < rows - 1) {
    float c = in[y * cols + x];
    float ns = in[(y - 1) * cols + x] + in[(y + 1) * cols + x];
    float we = in[y * cols + x - 1] + in[y * cols + x + 1];
    out[y * cols + x] = 0.5f * c + 0.125f * (ns + we);
  }
}

/* out (cols x rows) = the transpose of in (rows x cols), both multiples of
 * 32, through a 32 x 33 shared tile; blocks of 32 x 8 threads, each thread
 * moving 4 elements. */
extern "C" __global__ void __launch_bounds__(256)
transpose(const float *in, float *out, long rows, long cols) {
  __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
  long tx = threadIdx.x, ty = threadIdx.y;
  long x = (long)blockIdx.x * TRANSPOSE_TILE + tx;
  long y = (long)blockIdx.y * TRANSPOSE_TILE + ty;
  for (long j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS)
    tile[ty + j][tx] = in[(y + j) * cols + x];
  __syncthreads();
  x = (long)blockIdx.y * TRANSPOSE_TILE + tx;
  y = (long)blockIdx.x * TRANSPOSE_TILE + ty;
  for (long j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS)
    out[(y + j) * rows + x] = tile[tx][ty + j];
}

#ifndef __HIP__
/* c = a b for 1024 x 1024 row-major matrices, f16 inputs and f32 sums on
 * the tensor cores: one warp per block and per 16 x 16 tile of c. */
extern "C" __global__ void __launch_bounds__(32)
wmma_gemm(const __half *a, const __half *b, float *c) {
  using namespace nvcuda;
  long row = (long)blockIdx.y * 16, col = (long)blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (long k = 0; k < WMMA_N; k += 16) {
    wmma::load_matrix_sync(fa, a + row * WMMA_N + k, WMMA_N);
    wmma::load_matrix_sync(fb, b + k * WMMA_N + col, WMMA_N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + row * WMMA_N + col, acc, WMMA_N, wmma::mem_row_major);
}
#endif
