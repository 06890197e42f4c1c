/* Calls saxpy from kernels.mlir on 1000 floats and checks the result. */
#include <stdint.h>
#include <stdio.h>

/* How MLIR passes a memref<?xf32> to C. */
struct memref_f32 {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

void _mlir_ciface_saxpy(float a, struct memref_f32 *x, struct memref_f32 *y);

int main(void) {
  enum { N = 1000 };
  static float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  struct memref_f32 mx = {x, x, 0, {N}, {1}}, my = {y, y, 0, {N}, {1}};
  _mlir_ciface_saxpy(2.0f, &mx, &my);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += y[i] != 2.0f * (float)i + 1.0f;
  printf("saxpy: %d of %d wrong\n", bad, N);
  return bad != 0;
}
