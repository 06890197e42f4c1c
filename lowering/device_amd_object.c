/* device_amd_object.c: an hsaco from optimized bitcode.
 *
 * MLIR's ROCDL serialization (format=bin) prints the code generator's
 * output as assembly text, parses it back with the assembler, and links
 * the object with ld.lld. Asking the code generator for the object itself
 * gives the same instructions without printing and parsing them (about a
 * tenth of an AMD device job), and leaves code generation as a step of its
 * own, which the chips of a family repeat on one optimized module
 * (device.c). ld.lld still makes the shared object the HIP runtime loads,
 * as `ld.lld -shared` over the object, which is how the serialization
 * calls it. */
#include "device_amd_object.h"

#include "diag.h"
#include "llvm_emit.h"
#include "proc.h"
#include "tmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int lowering_amd_hsaco(const char *bitcode, size_t size, const char *chip, const char *features,
                       int opt, const char *ld_lld, const char *out_path) {
  if (!ld_lld || !ld_lld[0])
    return diag_error("target '%s': no ld.lld from LLVM 22 to link the hsaco", chip);
  struct device_machine m = {"amdgcn-amd-amdhsa", chip, features, opt};
  char *obj;
  size_t n;
  if (lowering_codegen_bitcode(bitcode, size, &m, 0, &obj, &n) != 0)
    return -1;
  /* Device jobs are forked children of one gpucc, whose temp names count
   * from the same number: the pid keeps theirs apart. */
  char stem[64];
  snprintf(stem, sizeof stem, "%s-%ld", chip, (long)getpid());
  const char *obj_path = tmp_path(stem, ".o");
  int rc = obj_path ? tmp_write_file(obj_path, obj, n) : -1;
  free(obj);
  if (rc == 0) {
    char *argv[] = {(char *)ld_lld, "-shared", (char *)obj_path, "-o", (char *)out_path, NULL};
    char what[128];
    snprintf(what, sizeof what, "linking the hsaco for '%s'", chip);
    rc = spawn_run(argv, NULL, what);
  }
  if (obj_path)
    unlink(obj_path);
  return rc;
}
