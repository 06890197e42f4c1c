/* target_check.c: what the targets asked for cannot compile, said before
 * any job starts, instead of a lowering failure (or an LLVM fatal error) in
 * one device job per target.
 *
 * Each kind answers per op name (op_requirement in targets.h); the program
 * gives its distinct device ops with their first locations
 * (program_each_device_op). An op that some target lacks gets one error,
 * however many targets lack it:
 *
 *   prog.mlir:12:7: error: 'nvgpu.warpgroup.mma' needs sm_90a; targets asked: sm_80,gfx942
 *
 * naming the targets that lack it, in command-line order. Every such op is
 * reported, not just the first, so that one run shows all of them. */
#include "target_check.h"

#include "diag.h"

#include <stdio.h>
#include <string.h>

struct check {
  const struct target *targets;
  size_t n;
  int failed;
};

/* An op of a dialect some other kind owns needs that kind (the host target
 * emulates the gpu dialect only: its own lowering goes through NVVM, but
 * that is what gpucc makes, after this question); else the kind says. */
static const char *requirement(const struct target *t, const char *op) {
  const struct target_kind *k = t->info->kind;
  for (size_t i = 0; target_kinds[i]; i++) {
    const struct target_kind *owner = target_kinds[i];
    for (size_t d = 0; owner != k && owner->dialects && owner->dialects[d]; d++)
      if (!strncmp(op, owner->dialects[d], strlen(owner->dialects[d])))
        return owner->phrase;
  }
  return k->op_requirement ? k->op_requirement(t, op) : NULL;
}

/* Whether some chip of the kind compiles op. Such a kind knows best what
 * the op needs: an sm_80 says "sm_90a" where a gfx942 says "an NVIDIA
 * target". */
static int kind_compiles(const struct target_kind *k, const char *op) {
  for (size_t i = 0; i < k->nchips; i++) {
    struct target t = {.info = &k->chips[i]};
    snprintf(t.id, sizeof t.id, "%s", k->chips[i].chip);
    if (!requirement(&t, op))
      return 1;
  }
  return 0;
}

static int check_op(const char *op, const char *file, unsigned line, unsigned col,
                    int carried_only, void *ud) {
  struct check *c = ud;
  const char *first = NULL, *best = NULL;
  char list[2048] = "";
  size_t len = 0;
  for (size_t i = 0; i < c->n; i++) {
    const struct target *t = &c->targets[i];
    /* The kind compiles the program's own code of those modules instead. */
    if (carried_only && t->info->kind->carried_code.op)
      continue;
    const char *needs = requirement(t, op);
    if (!needs)
      continue;
    if (!first)
      first = needs;
    if (!best && kind_compiles(t->info->kind, op))
      best = needs;
    int w = snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "", t->id);
    if (w > 0)
      len += (size_t)w < sizeof list - len ? (size_t)w : sizeof list - len - 1;
  }
  if (!first)
    return 0;
  diag_at(DIAG_ERROR, file, line, col, "'%s' needs %s; targets asked: %s", op, best ? best : first, list);
  c->failed = 1;
  return 0; /* on to the next op */
}

int target_check_program(const struct program *p, const struct target *targets, size_t n) {
  struct check c = {targets, n, 0};
  program_each_device_op(p, check_op, &c);
  return c.failed ? -1 : 0;
}
