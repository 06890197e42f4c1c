/* A C host program calling MLIR code through its C interface: fills 300
 * floats with i, asks the GPU to scale them by 3 and checks the result. */
#include <stdint.h>
#include <stdio.h>

struct memref_1d_f32 {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

void _mlir_ciface_scale(struct memref_1d_f32 *x, float factor);

int main(void) {
  enum { N = 300 };
  static float data[N];
  for (int i = 0; i < N; i++)
    data[i] = (float)i;
  struct memref_1d_f32 m = {data, data, 0, {N}, {1}};
  _mlir_ciface_scale(&m, 3.0f);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += data[i] != 3.0f * (float)i;
  printf("c_host: %d of %d values wrong\n", bad, N);
  return bad != 0;
}
