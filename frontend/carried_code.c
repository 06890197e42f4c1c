/* carried_code.c: a program's own lowered kernels, carried in their
 * gpu.module.
 *
 * Some MLIR compilers run a GPU conversion themselves and emit its result
 * beside the gpu.module: MLIR's convert-gpu-to-spirv names the
 * spirv.module of gpu.module @m `@__spv__m`, and gpu-module-to-binary
 * expects it nested in @m. Which op and which prefix a kind takes its
 * row says (frontend_kind_rows: carried_op, carried_prefix).
 * Normalization puts each such module in its gpu.module, so that the
 * module's text (the device cache's key) and every device job see it with
 * the kernels it lowers; the kind that takes it uses it, every other kind
 * drops it (lowering/device.c). Such a module that lowers no gpu.module
 * of the program is device code nothing launches: it goes, with a
 * warning.
 *
 * The carried kernels take the arguments the gpu.func was written with,
 * and kernel_abi.c changes the gpu.func's: it records, on each kernel of
 * a module that carries code, which argument each new parameter is made
 * of (KERNEL_ARGS_ATTR), for the kind to match them. */
#include "frontend.h"

#include "diag.h"
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kind row whose carried op op is, or NULL. */
static const struct frontend_kind_row *carrier(MlirOperation op) {
  size_t n;
  const struct frontend_kind_row *rows = frontend_kind_rows(&n);
  for (size_t i = 0; i < n; i++)
    if (rows[i].carried_op && ir_op_is(op, rows[i].carried_op))
      return &rows[i];
  return NULL;
}

int frontend_is_carried_code(MlirOperation op) {
  if (!carrier(op))
    return 0;
  MlirOperation parent = mlirOperationGetParentOperation(op);
  return !mlirOperationIsNull(parent) && ir_op_is(parent, "gpu.module");
}

MlirOperation frontend_carried_code(MlirOperation gpu_module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (frontend_is_carried_code(op))
      return op;
  return (MlirOperation){NULL};
}

/* The gpu.module that top-level module sm (of kind row `row`) lowers, by
 * MLIR's name for it; null if none. */
static MlirOperation lowered_module(MlirModule module, MlirOperation sm,
                                    const struct frontend_kind_row *row) {
  char *name = ir_symbol_name(sm);
  MlirOperation gm = {NULL};
  size_t len = strlen(row->carried_prefix);
  if (name && !strncmp(name, row->carried_prefix, len))
    gm = ir_find_child(mlirModuleGetOperation(module), "gpu.module", name + len);
  free(name);
  return gm;
}

/* A module that lowers no gpu.module goes, with a warning. */
static void drop_stray(MlirOperation sm, const struct frontend_kind_row *row) {
  char *name = ir_symbol_name(sm), quoted[300] = "";
  if (name && *name)
    snprintf(quoted, sizeof quoted, " '@%s'", name);
  ir_warning_at(sm, "%s%s lowers no gpu.module of this program (MLIR names the one of "
                    "gpu.module @m '@%sm'); nothing can launch it, so it is left out",
                row->carried_op, quoted, row->carried_prefix);
  free(name);
  mlirOperationDestroy(sm);
}

void frontend_find_carried_code(MlirModule module, struct carried_code *c, int drop_strays) {
  c->len = 0;
  c->pairs = NULL;
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module)); !mlirOperationIsNull(op);
       op = next) {
    next = mlirOperationGetNextInBlock(op);
    const struct frontend_kind_row *row = carrier(op);
    if (!row)
      continue;
    MlirOperation gm = lowered_module(module, op, row);
    if (mlirOperationIsNull(gm)) {
      if (drop_strays)
        drop_stray(op, row);
      continue;
    }
    c->pairs = realloc(c->pairs, (c->len + 1) * sizeof *c->pairs);
    if (!c->pairs)
      BUG("out of memory");
    c->pairs[c->len].code = op;
    c->pairs[c->len].gpu_module = gm;
    c->len++;
  }
}

void frontend_carry_code(struct carried_code *c) {
  for (size_t i = 0; i < c->len; i++) {
    mlirOperationRemoveFromParent(c->pairs[i].code);
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->pairs[i].gpu_module, 0));
    mlirBlockAppendOwnedOperation(body, c->pairs[i].code);
  }
  free(c->pairs);
  c->pairs = NULL;
  c->len = 0;
}
