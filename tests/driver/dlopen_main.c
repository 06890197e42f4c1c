/* Loads a shared library built by `gpucc -shared` with dlopen and calls its
 * emit_c_interface function; the library carries its own GPU code (its fat
 * binary loads when the library does). Usage: dlopen_main LIB.so */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

struct memref_1d_f32 {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  void (*scale)(struct memref_1d_f32 *, float) =
      (void (*)(struct memref_1d_f32 *, float))dlsym(h, "_mlir_ciface_scale");
  if (!scale)
    return 1;
  float data[200];
  for (int i = 0; i < 200; i++)
    data[i] = (float)i;
  struct memref_1d_f32 m = {data, data, 0, {200}, {1}};
  scale(&m, 2.0f);
  int bad = 0;
  for (int i = 0; i < 200; i++)
    bad += data[i] != 2.0f * (float)i;
  printf("dlopen: %d wrong\n", bad);
  dlclose(h);
  return bad != 0;
}
