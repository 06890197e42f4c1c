/* e2e_gen.c: writes e2e.mlir from its template, with a gpucc fat binary in
 * place of @BLOB@ as an MLIR string of \XX escapes.
 *
 *   e2e_gen <template> <output> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

#define OBJ(text) text, sizeof text, NULL /* no features recorded */

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: e2e_gen TEMPLATE OUTPUT\n");
    return 2;
  }
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_80")},
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_90")},
      {"kern", FATBIN_VENDOR_AMD, "gfx90a", FATBIN_FORMAT_HSACO, OBJ("FAKEHSACO:gfx90a")},
  };
  void *blob;
  size_t size;
  char err[256];
  if (fatbin_write(e, sizeof e / sizeof e[0], &blob, &size, err, sizeof err) != 0) {
    fprintf(stderr, "e2e_gen: %s\n", err);
    return 1;
  }
  FILE *in = fopen(argv[1], "r");
  FILE *out = fopen(argv[2], "w");
  if (!in || !out) {
    fprintf(stderr, "e2e_gen: cannot open '%s' or '%s'\n", argv[1], argv[2]);
    return 1;
  }
  char line[4096];
  while (fgets(line, sizeof line, in)) {
    char *at = strstr(line, "@BLOB@");
    if (!at) {
      fputs(line, out);
      continue;
    }
    fwrite(line, 1, (size_t)(at - line), out);
    for (size_t i = 0; i < size; i++)
      fprintf(out, "\\%02X", ((const unsigned char *)blob)[i]);
    fputs(at + 6, out);
  }
  free(blob);
  fclose(in);
  if (ferror(out) | fclose(out)) {
    fprintf(stderr, "e2e_gen: cannot write '%s'\n", argv[2]);
    return 1;
  }
  return 0;
}
