/* toolchain_cuda.c: the CUDA toolkit the NVIDIA kind uses: ptxas (and the
 * PTX ISA versions it accepts) and libdevice; see toolchain_cuda.h. */
#include "toolchain_cuda.h"

#include "diag.h"
#include "lowering.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct kind_option cuda_options[CUDA_NOPTIONS] = {
    {"--cuda-path", 0, "<dir>", "CUDA toolkit for ptxas and libdevice (default $CUDA_PATH, /usr/local/cuda)", 0},
    {"-Xptxas", 1, "<arg>", "pass <arg> to ptxas", 1},
};

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
static void probe_ptxas(struct cuda_found *c) {
  char *argv[] = {c->ptxas, "--version", NULL};
  char *out = toolchain_tool_output(argv);
  if (!out)
    return;
  const char *rel = strstr(out, "release ");
  int major = 0, minor = 0;
  if (rel && sscanf(rel, "release %d.%d", &major, &minor) == 2) {
    snprintf(c->version, sizeof c->version, "%d.%d", major, minor);
    c->max_ptx = max_ptx_for_cuda(major, minor);
  }
  free(out);
}

int cuda_find(const struct kind_arg *args, size_t nargs, int used, void **found) {
  struct cuda_found *c = calloc(1, sizeof *c);
  if (!c)
    BUG("out of memory");
  *found = c;
  const char *given = NULL; /* the last --cuda-path wins, as gcc's options */
  for (size_t i = 0; i < nargs; i++) {
    if (args[i].option == &cuda_options[0]) {
      given = args[i].value;
      continue;
    }
    const char **n = realloc(c->ptxas_args, (c->nptxas_args + 1) * sizeof *n);
    if (!n)
      BUG("out of memory");
    c->ptxas_args = n;
    c->ptxas_args[c->nptxas_args++] = args[i].value;
  }
  if (given && !is_dir(given))
    return diag_error("--cuda-path '%s' is not a directory", given);
  const char *candidates[] = {given, getenv("CUDA_PATH"), "/usr/local/cuda"};
  for (size_t i = 0; i < 3; i++) {
    if (!candidates[i] || !*candidates[i] || !is_dir(candidates[i]))
      continue;
    snprintf(c->path, sizeof c->path, "%s", candidates[i]);
    break;
  }
  if (!c->path[0])
    return 0;
  char p[2300];
  snprintf(p, sizeof p, "%s/bin/ptxas", c->path);
  if (access(p, X_OK) == 0) {
    snprintf(c->ptxas, sizeof c->ptxas, "%s", p);
    if (used)
      probe_ptxas(c);
  }
  snprintf(p, sizeof p, "%s/bin/nvlink", c->path);
  if (access(p, X_OK) == 0)
    snprintf(c->nvlink, sizeof c->nvlink, "%s", p);
  snprintf(p, sizeof p, "%s/nvvm/libdevice/libdevice.10.bc", c->path);
  if (is_file(p))
    snprintf(c->libdevice, sizeof c->libdevice, "%s", p);
  return 0;
}
