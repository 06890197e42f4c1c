/* device_nvidia_mma.c: gpu.subgroup_mma on NVIDIA chips, as device_mma.c's
 * layout.
 *
 * LLVM 22 lowers the ops to wmma itself, but its elementwise lowering
 * crashes (subf, negatef, extf) or builds invalid constants (maxf, minf on
 * f16). There, each elementwise op becomes a call of a function over the
 * accumulator fragment's LLVM struct, the type the NVVM conversion gives it
 * (f16: vector<2xf16> pairs, else scalars, in order), bridged with
 * unrealized casts that the conversion folds away; the other ops are left
 * to LLVM. */
#include "device_nvidia_mma.h"

#include "diag.h"
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The LLVM struct the NVVM conversion makes of an accumulator fragment:
 * its member type and count. 16-bit elements come in pairs. */
static int nvvm_struct(const struct mma_type *m, char *member, size_t size, unsigned *count) {
  if (m->role != 'C')
    return -1;
  unsigned lane_elems = m->rows * m->cols / 32;
  if (mma_elem_bits(m->elem) == 16) {
    snprintf(member, size, "vector<2x%s>", m->elem);
    *count = lane_elems / 2;
  } else {
    snprintf(member, size, "%s", m->elem);
    *count = lane_elems;
  }
  return 0;
}

static void struct_text(char *buf, size_t size, const char *member, unsigned count) {
  size_t k = (size_t)snprintf(buf, size, "!llvm.struct<(");
  for (unsigned i = 0; i < count && k < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? ", " : "", member);
  if (k < size)
    snprintf(buf + k, size - k, ")>");
}

/* One elementwise op over the members of NVVM fragment structs. */
static char *nvvm_elementwise_function(const char *kind, int nargs, const struct mma_type *in,
                                       const struct mma_type *out, char *sin, char *sout, size_t size) {
  char min[64], mout[64];
  unsigned nin, nout;
  if (nvvm_struct(in, min, sizeof min, &nin) != 0 || nvvm_struct(out, mout, sizeof mout, &nout) != 0)
    return NULL;
  struct_text(sin, size, min, nin);
  struct_text(sout, size, mout, nout);
  const char *arith = mma_elementwise_arith(kind);
  int ext = !strcmp(kind, "extf"), neg_int = !strcmp(kind, "negates");
  if (!arith && !ext && !neg_int)
    return NULL;
  /* extf widens pairs into scalars: member i gives members 2i and 2i + 1. */
  if (ext && !(nout == 2 * nin && strstr(min, "vector<2x")))
    return NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (!o)
    BUG("out of memory");
  fprintf(o, "func.func private @NAME(%%x: %s%s%s) -> %s {\n  %%u0 = llvm.mlir.poison : %s\n", sin,
          nargs == 2 ? ", %y: " : "", nargs == 2 ? sin : "", sout, sout);
  if (neg_int)
    fprintf(o, "  %%zero = arith.constant 0 : %s\n", min);
  unsigned k = 0;
  for (unsigned i = 0; i < nin; i++) {
    fprintf(o, "  %%x%u = llvm.extractvalue %%x[%u] : %s\n", i, i, sin);
    if (nargs == 2)
      fprintf(o, "  %%y%u = llvm.extractvalue %%y[%u] : %s\n", i, i, sin);
    if (ext) {
      fprintf(o, "  %%w%u = arith.extf %%x%u : %s to vector<2x%s>\n", i, i, min, out->elem);
      for (unsigned h = 0; h < 2; h++, k++)
        fprintf(o, "  %%e%u = vector.extract %%w%u[%u] : %s from vector<2x%s>\n"
                   "  %%u%u = llvm.insertvalue %%e%u, %%u%u[%u] : %s\n",
                k, i, h, out->elem, out->elem, k + 1, k, k, k, sout);
      continue;
    }
    if (neg_int)
      fprintf(o, "  %%r%u = arith.subi %%zero, %%x%u : %s\n", i, i, min);
    else if (nargs == 2)
      fprintf(o, "  %%r%u = %s %%x%u, %%y%u : %s\n", i, arith, i, i, min);
    else
      fprintf(o, "  %%r%u = %s %%x%u : %s\n", i, arith, i, min);
    fprintf(o, "  %%u%u = llvm.insertvalue %%r%u, %%u%u[%u] : %s\n", k + 1, i, k, i, sout);
    k++;
  }
  fprintf(o, "  return %%u%u : %s\n}\n", k, sout);
  fclose(o);
  return text;
}

/* Builds `builtin.unrealized_conversion_cast v : to` before `at`. */
static MlirValue bridge(MlirOperation at, MlirValue v, MlirType to) {
  return ir_op_before(at, "builtin.unrealized_conversion_cast", 1, &v, to, 0, NULL);
}

/* NVIDIA: the op's matrices go to the function as the NVVM structs. */
static int nvvm_elementwise(MlirOperation gpu_module, MlirOperation op, const char *kind,
                            const char *target) {
  struct mma_type in, out;
  if (mma_read_type(mlirValueGetType(mlirOperationGetOperand(op, 0)), &in) != 0 ||
      mma_read_type(mlirValueGetType(mlirOperationGetResult(op, 0)), &out) != 0)
    return ir_error_at(op, "internal: not a matrix operand");
  char sin[512], sout[512];
  int nargs = (int)mlirOperationGetNumOperands(op);
  char *body = nvvm_elementwise_function(kind, nargs, &in, &out, sin, sout, sizeof sin);
  if (!body)
    return ir_error_at(op, "cannot lower 'gpu.subgroup_mma_elementwise %s' on %ux%ux%s \"%cOp\" for %s",
                             kind, in.rows, in.cols, in.elem, in.role, target);
  char name[64];
  int rc = mma_add_function(gpu_module, body, name, sizeof name);
  free(body);
  if (rc != 0)
    return -1;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType tin = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(sin));
  MlirType tout = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(sout));
  MlirValue args[2];
  for (int i = 0; i < nargs; i++)
    args[i] = bridge(op, mlirOperationGetOperand(op, i), tin);
  MlirOperation call = ir_call_before(op, name, nargs, args, 1, &tout);
  MlirValue res = bridge(op, mlirOperationGetResult(call, 0), mlirValueGetType(mlirOperationGetResult(op, 0)));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), res);
  mlirOperationDestroy(op);
  return 0;
}

const struct mma_lowering nvidia_mma_wmma = {
    .unit = "wmma",
    .elementwise = nvvm_elementwise,
};
