/* toolchain.c: finding ptxas, libdevice, ld.lld and the AMD device libraries.
 *
 * ROCDL serialization in LLVM 22 looks for <rocm>/llvm/bin/ld.lld and
 * <rocm>/amdgcn/bitcode only; Debian puts them elsewhere. Rather than asking
 * users to assemble a fake ROCm tree, we build one of symlinks in gpucc's
 * temp directory and hand its path to the serializer. */
#include "lowering.h"

#include "diag.h"
#include "proc.h"
#include "tmp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPUCC_LLVM_BINDIR
#define GPUCC_LLVM_BINDIR "/usr/lib/llvm-22/bin"
#endif

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* PTX ISA versions by CUDA release, from NVIDIA's PTX ISA release notes. */
static int max_ptx_for_cuda(int major, int minor) {
  static const struct { int major, minor, ptx; } rows[] = {
      {11, 0, 70}, {11, 1, 71}, {11, 2, 72}, {11, 3, 73}, {11, 4, 74}, {11, 5, 75},
      {11, 6, 76}, {11, 7, 77}, {11, 8, 78}, {12, 0, 80}, {12, 1, 81}, {12, 2, 82},
      {12, 3, 83}, {12, 4, 84}, {12, 5, 85}, {12, 6, 85}, {12, 7, 86}, {12, 8, 87},
      {12, 9, 88}, {13, 0, 90}, {13, 1, 91},
  };
  int best = 0;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (major > rows[i].major || (major == rows[i].major && minor >= rows[i].minor))
      best = rows[i].ptx;
  return best;
}

/* Reads "release X.Y" from `ptxas --version`. */
static void probe_ptxas(struct toolchain *tc) {
  const char *out = tmp_path("ptxas-version", ".txt");
  char *argv[] = {tc->ptxas, "--version", NULL};
  if (!out || spawn_run_quiet(argv, out) != 0)
    return;
  void *data;
  size_t size;
  if (tmp_read_file(out, &data, &size) != 0)
    return;
  const char *rel = strstr(data, "release ");
  int major = 0, minor = 0;
  if (rel && sscanf(rel, "release %d.%d", &major, &minor) == 2) {
    snprintf(tc->cuda_version, sizeof tc->cuda_version, "%d.%d", major, minor);
    tc->ptxas_max_ptx = max_ptx_for_cuda(major, minor);
  }
  free(data);
}

static void find_cuda(struct toolchain *tc, const char *cuda_opt, int probe) {
  const char *candidates[] = {cuda_opt, getenv("CUDA_PATH"), "/usr/local/cuda"};
  for (size_t i = 0; i < 3; i++) {
    if (!candidates[i] || !*candidates[i] || !is_dir(candidates[i]))
      continue;
    snprintf(tc->cuda_path, sizeof tc->cuda_path, "%s", candidates[i]);
    break;
  }
  if (!tc->cuda_path[0])
    return;
  char p[2300];
  snprintf(p, sizeof p, "%s/bin/ptxas", tc->cuda_path);
  if (access(p, X_OK) == 0) {
    snprintf(tc->ptxas, sizeof tc->ptxas, "%s", p);
    if (probe)
      probe_ptxas(tc);
  }
  snprintf(p, sizeof p, "%s/nvvm/libdevice/libdevice.10.bc", tc->cuda_path);
  tc->have_libdevice = is_file(p);
}

static void find_rocm(struct toolchain *tc, const char *rocm_opt) {
  const char *env = getenv("ROCM_PATH");
  char p[2300];
  const char *roots[] = {rocm_opt, env};
  for (size_t i = 0; i < 2; i++) {
    if (!roots[i] || !*roots[i])
      continue;
    snprintf(p, sizeof p, "%s/amdgcn/bitcode", roots[i]);
    if (is_dir(p)) {
      snprintf(tc->rocm_bitcode, sizeof tc->rocm_bitcode, "%s", p);
      return;
    }
  }
  const char *fixed[] = {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode"};
  for (size_t i = 0; i < 2; i++)
    if (is_dir(fixed[i])) {
      snprintf(tc->rocm_bitcode, sizeof tc->rocm_bitcode, "%s", fixed[i]);
      return;
    }
}

int toolchain_find(struct toolchain *tc, const char *cuda_opt, const char *rocm_opt,
                   int probe_ptxas) {
  memset(tc, 0, sizeof *tc);
  if (cuda_opt && !is_dir(cuda_opt))
    return diag_error("--cuda-path '%s' is not a directory", cuda_opt);
  if (rocm_opt && !is_dir(rocm_opt))
    return diag_error("--rocm-path '%s' is not a directory", rocm_opt);
  find_cuda(tc, cuda_opt, probe_ptxas);
  find_rocm(tc, rocm_opt);
  snprintf(tc->ld_lld, sizeof tc->ld_lld, "%s/ld.lld", GPUCC_LLVM_BINDIR);
  return 0;
}

int toolchain_rocm_shim(struct toolchain *tc) {
  if (tc->rocm_shim)
    return 0;
  if (access(tc->ld_lld, X_OK) != 0)
    return diag_error("cannot find 'ld.lld' at '%s' (install the lld-22 package)", tc->ld_lld);
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
  if (symlink(tc->ld_lld, p) != 0)
    return diag_error("cannot create '%s': %s", p, strerror(errno));
  tmp_path_register(p, "");
  if (tc->rocm_bitcode[0]) {
    snprintf(p, sizeof p, "%s/amdgcn/bitcode", root);
    if (symlink(tc->rocm_bitcode, p) != 0)
      return diag_error("cannot create '%s': %s", p, strerror(errno));
    tmp_path_register(p, "");
  }
  tc->rocm_shim = root;
  return 0;
}
