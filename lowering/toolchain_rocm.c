/* toolchain_rocm.c: the AMD kind's pieces: ld.lld and the ROCm device
 * libraries; see toolchain_rocm.h.
 *
 * ROCDL serialization in LLVM 22 looks for <rocm>/llvm/bin/ld.lld and
 * <rocm>/amdgcn/bitcode only; Debian puts them elsewhere. Rather than asking
 * users to assemble a fake ROCm tree, we build one of symlinks in gpucc's
 * temp directory and hand its path to the serializer. */
#include "toolchain_rocm.h"

#include "diag.h"
#include "lowering.h"
#include "tmp.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPUCC_LLVM_BINDIR
#define GPUCC_LLVM_BINDIR "/usr/lib/llvm-22/bin"
#endif

const struct kind_option rocm_options[ROCM_NOPTIONS] = {
    {"--rocm-path", 0, "<dir>",
     "ROCm tree for AMD device libraries (default $ROCM_PATH, Debian's rocm-device-libs)", 0},
};

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void find_bitcode(struct rocm_found *r, const char *given) {
  char p[2300];
  const char *roots[] = {given, getenv("ROCM_PATH")};
  for (size_t i = 0; i < 2; i++) {
    if (!roots[i] || !*roots[i])
      continue;
    snprintf(p, sizeof p, "%s/amdgcn/bitcode", roots[i]);
    if (!is_dir(p))
      continue;
    /* Absolute: the shim (rocm_shim) links to it from the temp dir. */
    char *real = p[0] == '/' ? NULL : realpath(p, NULL);
    snprintf(r->bitcode, sizeof r->bitcode, "%s", real ? real : p);
    free(real);
    return;
  }
  const char *fixed[] = {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode"};
  for (size_t i = 0; i < 2; i++)
    if (is_dir(fixed[i])) {
      snprintf(r->bitcode, sizeof r->bitcode, "%s", fixed[i]);
      return;
    }
}

int rocm_find(const struct kind_arg *args, size_t nargs, int used, void **found) {
  (void)used; /* nothing is run to find them */
  struct rocm_found *r = calloc(1, sizeof *r);
  if (!r)
    BUG("out of memory");
  *found = r;
  const char *given = NULL; /* the last --rocm-path wins */
  for (size_t i = 0; i < nargs; i++)
    given = args[i].value;
  if (given && !is_dir(given))
    return diag_error("--rocm-path '%s' is not a directory", given);
  find_bitcode(r, given);
  snprintf(r->ld_lld, sizeof r->ld_lld, "%s/ld.lld", GPUCC_LLVM_BINDIR);
  return 0;
}

int rocm_shim(struct rocm_found *r) {
  if (r->shim)
    return 0;
  if (access(r->ld_lld, X_OK) != 0)
    return diag_error("cannot find 'ld.lld' at '%s' (install the lld-22 package)", r->ld_lld);
  const char *root = tmp_path("rocm", "");
  if (!root)
    return -1;
  char p[2300];
  const char *dirs[] = {"", "/llvm", "/llvm/bin", "/amdgcn"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s%s", root, dirs[i]);
    if (mkdir(p, 0700) != 0)
      return diag_error("cannot create '%s': %s", p, strerror(errno));
  }
  /* Register in creation order so cleanup removes links before dirs. */
  tmp_path_register(root, "/llvm");
  tmp_path_register(root, "/llvm/bin");
  tmp_path_register(root, "/amdgcn");
  snprintf(p, sizeof p, "%s/llvm/bin/ld.lld", root);
  if (symlink(r->ld_lld, p) != 0)
    return diag_error("cannot create '%s': %s", p, strerror(errno));
  tmp_path_register(p, "");
  if (r->bitcode[0]) {
    snprintf(p, sizeof p, "%s/amdgcn/bitcode", root);
    if (symlink(r->bitcode, p) != 0)
      return diag_error("cannot create '%s': %s", p, strerror(errno));
    tmp_path_register(p, "");
  }
  r->shim = root;
  return 0;
}
