/* print.c: how the end-to-end programs print, without the runner utilities.
 *
 * The programs call these from host code through func.call. stdout is made
 * unbuffered before main: what a program printed is all there even when it
 * then aborts, its own lines and those of the lowering's failed cf.assert
 * (puts) alike (await_error.mlir), whatever the sanitizer does at abort. */
#include <stdint.h>
#include <stdio.h>

__attribute__((constructor)) static void unbuffer_stdout(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
}

void asyncTestPrintI64(int64_t x) {
  printf("%lld\n", (long long)x);
}

void asyncTestPrintF32(float x) {
  printf("%g\n", (double)x);
}
