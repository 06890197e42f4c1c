/* device_family.c: which targets of a run are one family for a program.
 *
 * Most of a device job's work does not read the chip: for the chips of one
 * kind whose lowering pipelines differ only in the chip's name, the MLIR
 * lowering gives the same LLVM dialect, and its optimization the same LLVM
 * IR, unless the program uses an op whose lowering reads the chip (the
 * kind's `chip_ops`: its own dialects, matrix ops with a per-chip layout,
 * lane ops). Such targets are one family: one device job lowers and
 * optimizes the gpu.modules once, for the family's first target, and
 * generates code per chip (lowering_device_family in device.c). Which
 * chips a kind groups is its row's `family`; that a family's objects are
 * the same bytes as each chip's own build is what
 * tests/driver/device_family.sh checks. Nothing here names a vendor. */
#include "lowering.h"

#include "frontend.h"
#include "target_kinds.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdlib.h>
#include <string.h>

/* Whether a's and b's pipelines are one text but for the chip's name. */
static int same_pipeline(const struct target_lowering *l, const struct target *a,
                         const struct target *b) {
  static char pa[4096], pb[4096];
  if (l->pipeline(pa, sizeof pa, a) || l->pipeline(pb, sizeof pb, b))
    return 0;
  char *renamed = xreplace(pb, b->info->chip, a->info->chip);
  int same = strcmp(pa, renamed) == 0;
  free(renamed);
  return same;
}

struct chip_op_search {
  const char *const *prefixes;
  int found;
};

static MlirWalkResult find_chip_op(MlirOperation op, void *ud) {
  struct chip_op_search *s = ud;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; s->prefixes[i]; i++)
    if (ir_ref_starts(name, s->prefixes[i])) {
      s->found = 1;
      return MlirWalkResultInterrupt;
    }
  return MlirWalkResultAdvance;
}

/* Whether any gpu.module of the program holds an op of `prefixes`. */
static int uses_chip_ops(const struct program *prog, const char *const *prefixes) {
  if (!prefixes)
    return 0;
  MlirOperation *mods;
  size_t n = ir_gpu_modules(program_mlir(prog), &mods);
  struct chip_op_search s = {prefixes, 0};
  for (size_t i = 0; i < n && !s.found; i++)
    mlirOperationWalk(mods[i], find_chip_op, &s, MlirWalkPreOrder);
  free(mods);
  return s.found;
}

int lowering_same_family(const struct program *prog, const struct target *a, const struct target *b) {
  const struct target_kind *k = a->info->kind;
  const struct target_lowering *l = k->lowering;
  if (b->info->kind != k || !l || !l->family || !l->codegen)
    return 0;
  const char *fa = l->family(a), *fb = l->family(b);
  if (!fa || !fb || strcmp(fa, fb) != 0)
    return 0;
  if (l->subgroup_width(a) != l->subgroup_width(b) ||
      (l->has_redux && l->has_redux(a) != l->has_redux(b)) || !same_pipeline(l, a, b))
    return 0;
  return !uses_chip_ops(prog, l->chip_ops);
}

struct function_search {
  const char *const *prefixes;
  int found;
};

static MlirWalkResult find_function(MlirOperation op, void *ud) {
  struct function_search *s = ud;
  if (!ir_op_is(op, "llvm.func"))
    return MlirWalkResultAdvance;
  MlirAttribute name = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(name))
    return MlirWalkResultSkip;
  MlirStringRef n = mlirStringAttrGetValue(name);
  for (size_t i = 0; s->prefixes[i]; i++)
    if (ir_ref_starts(n, s->prefixes[i])) {
      s->found = 1;
      return MlirWalkResultInterrupt;
    }
  return MlirWalkResultSkip;
}

int lowering_has_function(MlirModule lowered, const char *const *prefixes) {
  struct function_search s = {prefixes, 0};
  mlirOperationWalk(mlirModuleGetOperation(lowered), find_function, &s, MlirWalkPreOrder);
  return s.found;
}
