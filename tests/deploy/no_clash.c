/* no_clash.c: a program linked with the static runtime may use the names
 * the runtime uses inside (fatbin_open, rt_init, ...) and its own libzstd:
 * libgpucc_rt.a keeps all of those local (packaging/static_runtime.cmake).
 * Linked with libgpucc_rt.a and the shared libzstd; this file's own
 * definitions must win for its calls, and the runtime must still work.
 * Exit 0 when all holds. */
#include <stdio.h>
#include <string.h>

#include <zstd.h>

#include "gpucc_rt.h"

/* Names the runtime and its fatbin reader define internally. */
int fatbin_open(void) { return 7; }
int fatbin_tar_walk(void) { return 8; }
const char *ZSTD_getErrorName(size_t code) {
  (void)code;
  return "ours";
}

int main(void) {
  if (fatbin_open() != 7 || fatbin_tar_walk() != 8 || strcmp(ZSTD_getErrorName(0), "ours") != 0) {
    fprintf(stderr, "FAIL: this program's definitions did not win\n");
    return 1;
  }
  /* The program's libzstd, not the runtime's copy. */
  char buf[64];
  size_t n = ZSTD_compress(buf, sizeof buf, "gpucc", 5, 1);
  if (ZSTD_isError(n) || ZSTD_versionNumber() == 0) {
    fprintf(stderr, "FAIL: the program's libzstd does not work\n");
    return 1;
  }
  /* The runtime works beside them: a stream on the host backend. */
  void *s = mgpuStreamCreate();
  if (!s || !gpuccBackendName() || strcmp(gpuccBackendName(), "host") != 0) {
    fprintf(stderr, "FAIL: the runtime did not start its host backend\n");
    return 1;
  }
  mgpuStreamSynchronize(s);
  mgpuStreamDestroy(s);
  printf("ok: the program's own fatbin_*, ZSTD_* and libzstd beside the static runtime\n");
  return 0;
}
