/* gen_scale.c: writes one MLIR program of many gpu.modules, for the scale
 * bench (bench_scale.sh).
 *
 * Usage: gen_scale MODULES KERNELS MEGABYTES OUT.mlir
 * KERNELS are spread evenly over MODULES gpu.modules; each kernel is the
 * same bounds-checked load, a chain of arithmetic long enough that the
 * whole file reaches about MEGABYTES of text, and a store. main allocates
 * one buffer and launches every kernel once, so the program links and
 * runs: each kernel adds its chain's length plus one to every element of
 * a zeroed buffer, and the sum main prints is what gen_scale prints on
 * stdout. The text is the same for the same arguments. */
#include <stdio.h>
#include <stdlib.h>

/* One step of the chain, about 80 bytes: an add and a multiply that LLVM
 * cannot fold away (they depend on the loaded value). */
static void chain_step(FILE *f, long i) {
  fprintf(f, "        %%s%ld = arith.addf %%v%ld, %%one : f32\n", i, i);
  fprintf(f, "        %%v%ld = arith.mulf %%s%ld, %%one : f32\n", i + 1, i);
}

static void kernel(FILE *f, long m, long k, long steps) {
  fprintf(f,
          "    gpu.func @k%ld_%ld(%%a: memref<?xf32>, %%n: index) kernel {\n"
          "      %%t = gpu.thread_id x\n"
          "      %%ok = arith.cmpi ult, %%t, %%n : index\n"
          "      scf.if %%ok {\n"
          "        %%one = arith.constant 1.0 : f32\n"
          "        %%v0 = memref.load %%a[%%t] : memref<?xf32>\n",
          m, k);
  for (long i = 0; i < steps; i++)
    chain_step(f, i);
  fprintf(f,
          "        %%r = arith.addf %%v%ld, %%one : f32\n"
          "        memref.store %%r, %%a[%%t] : memref<?xf32>\n"
          "      }\n"
          "      gpu.return\n"
          "    }\n",
          steps);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: gen_scale MODULES KERNELS MEGABYTES OUT.mlir\n");
    return 2;
  }
  long modules = atol(argv[1]), kernels = atol(argv[2]);
  double mb = atof(argv[3]);
  if (modules < 1 || kernels < modules || mb < 0) {
    fprintf(stderr, "gen_scale: need 1 <= MODULES <= KERNELS and MEGABYTES >= 0\n");
    return 2;
  }
  /* About 200 bytes of each kernel are fixed, about 150 of its launch;
   * the rest is chain steps of about 80 bytes. */
  double per_kernel = mb * 1e6 / (double)kernels - 350.0;
  long steps = per_kernel > 0 ? (long)(per_kernel / 80.0) : 0;
  FILE *f = fopen(argv[4], "w");
  if (!f) {
    perror(argv[4]);
    return 1;
  }
  fprintf(f, "module attributes {gpu.container_module} {\n");
  for (long m = 0; m < modules; m++) {
    fprintf(f, "  gpu.module @m%ld {\n", m);
    long first = kernels * m / modules, end = kernels * (m + 1) / modules;
    for (long k = first; k < end; k++)
      kernel(f, m, k, steps);
    fprintf(f, "  }\n");
  }
  fprintf(f,
          "  func.func @main() {\n"
          "    %%c1 = arith.constant 1 : index\n"
          "    %%c32 = arith.constant 32 : index\n"
          "    %%buf = gpu.alloc (%%c32) : memref<?xf32>\n"
          "    %%zero = arith.constant 0.0 : f32\n"
          "    %%host = memref.alloc (%%c32) : memref<?xf32>\n"
          "    gpu.memset %%buf, %%zero : memref<?xf32>, f32\n");
  for (long m = 0; m < modules; m++) {
    long first = kernels * m / modules, end = kernels * (m + 1) / modules;
    for (long k = first; k < end; k++)
      fprintf(f,
              "    gpu.launch_func @m%ld::@k%ld_%ld blocks in (%%c1, %%c1, %%c1) threads in "
              "(%%c32, %%c1, %%c1) args(%%buf : memref<?xf32>, %%c32 : index)\n",
              m, m, k);
  }
  fprintf(f,
          "    gpu.memcpy %%host, %%buf : memref<?xf32>, memref<?xf32>\n"
          "    %%x = memref.load %%host[%%c1] : memref<?xf32>\n"
          "    %%p = arith.fptosi %%x : f32 to i64\n"
          "    call @printI64(%%p) : (i64) -> ()\n"
          "    call @printNewline() : () -> ()\n"
          "    return\n"
          "  }\n"
          "  func.func private @printI64(i64)\n"
          "  func.func private @printNewline()\n"
          "}\n");
  if (fclose(f) != 0) {
    perror(argv[4]);
    return 1;
  }
  /* Each kernel adds steps + 1 to every element. */
  printf("%ld\n", kernels * (steps + 1));
  return 0;
}
