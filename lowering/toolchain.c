/* toolchain.c: every kind finds its own tools; see lowering.h.
 *
 * Which tools and libraries a kind uses, where it looks for them and what
 * its options say is the kind's (toolchain_cuda.c, toolchain_rocm.c):
 * this file only hands each kind the values of its own options and keeps
 * what it found in the kind's slot. */
#include "lowering.h"

#include "diag.h"
#include "proc.h"
#include "tmp.h"

#include <stdlib.h>
#include <string.h>

static size_t kind_index(const struct target_kind *kind) {
  for (size_t k = 0; target_kinds[k]; k++)
    if (target_kinds[k] == kind)
      return k;
  BUG("a kind of target that is not in target_kinds");
}

/* Whether option o is one of the kind's. */
static int owns(const struct target_kind *kind, const struct kind_option *o) {
  return o >= kind->options && o < kind->options + kind->noptions;
}

int toolchain_find(struct toolchain *tc, const struct kind_arg *args, size_t nargs,
                   const struct target *targets, size_t ntargets) {
  memset(tc, 0, sizeof *tc);
  struct kind_arg *own = calloc(nargs + 1, sizeof *own);
  if (!own)
    BUG("out of memory");
  int rc = 0;
  for (size_t k = 0; target_kinds[k] && rc == 0; k++) {
    const struct target_kind *kind = target_kinds[k];
    if (k >= TOOLCHAIN_MAX_KINDS)
      BUG("more kinds of target than TOOLCHAIN_MAX_KINDS");
    if (!kind->find_tools)
      continue;
    size_t n = 0;
    for (size_t i = 0; i < nargs; i++)
      if (owns(kind, args[i].option))
        own[n++] = args[i];
    int used = 0;
    for (size_t t = 0; t < ntargets; t++)
      used |= targets[t].info->kind == kind;
    rc = kind->find_tools(own, n, used, &tc->found[k]);
  }
  free(own);
  return rc;
}

void *toolchain_found(const struct toolchain *tc, const struct target_kind *kind) {
  return tc->found[kind_index(kind)];
}

char *toolchain_tool_output(char *const *argv) {
  const char *out = tmp_path("tool-version", ".txt");
  if (!out || spawn_run_quiet(argv, out) != 0)
    return NULL;
  void *data;
  size_t size;
  if (tmp_read_file(out, &data, &size) != 0)
    return NULL;
  if (size == 0) {
    free(data);
    return NULL;
  }
  return data;
}
