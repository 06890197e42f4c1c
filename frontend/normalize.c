/* normalize.c: outlining and the sync-to-async rewrite.
 *
 * gpu-to-llvm (LLVM 22) lowers gpu.alloc/dealloc/memcpy/memset only in their
 * async form with exactly one dependency; anything else is silently left and
 * translation fails much later. Upstream's gpu-async-region fixes that for
 * fully synchronous functions but breaks code that is already async. So we
 * rewrite each offending op locally, which is correct whatever surrounds it:
 *
 *   sync op          ->  %t0 = gpu.wait async
 *                        %r, %t1 = op async [%t0] ...
 *                        gpu.wait [%t1]
 *   async op, 0 deps ->  %t0 = gpu.wait async ; op async [%t0]
 *   async op, n deps ->  %t0 = gpu.wait async [deps] ; op async [%t0]
 *
 * A synchronous op keeps its host-blocking meaning (the trailing wait), and
 * ops already in the async form with one dependency are never touched. A
 * gpu.launch_func with dependencies but no token gets a host wait on them
 * instead (wait_before_launch). */
#include "frontend.h"

#include "diag.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/GPU.h>
#include <stdlib.h>
#include <string.h>

struct op_list {
  MlirOperation *ops;
  size_t len, cap;
};

static int is_rewritable(MlirOperation op) {
  return ir_op_is(op, "gpu.alloc") || ir_op_is(op, "gpu.dealloc") || ir_op_is(op, "gpu.memcpy") ||
         ir_op_is(op, "gpu.memset");
}

static int is_token(MlirValue v) { return mlirTypeIsAGPUAsyncTokenType(mlirValueGetType(v)); }

static int count_token_operands(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  int k = 0;
  while (k < n && is_token(mlirOperationGetOperand(op, k)))
    k++;
  return k;
}

/* The async token result, if any (always the last result). */
static int has_token_result(MlirOperation op) {
  intptr_t n = mlirOperationGetNumResults(op);
  return n > 0 && is_token(mlirOperationGetResult(op, n - 1));
}

static int needs_rewrite(MlirOperation op) {
  if (!is_rewritable(op))
    return 0;
  /* A synchronous host_shared alloc is lowered as is (mgpuMemAlloc with the
   * shared flag); an async one is reported by the leftover check later. */
  if (ir_op_is(op, "gpu.alloc") &&
      !mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("hostShared"))))
    return 0;
  return !has_token_result(op) || count_token_operands(op) != 1;
}

static MlirWalkResult collect(MlirOperation op, void *ud) {
  struct op_list *l = ud;
  if (ir_op_is(op, "gpu.module"))
    return MlirWalkResultSkip;
  if (!needs_rewrite(op))
    return MlirWalkResultAdvance;
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    MlirOperation *n = realloc(l->ops, l->cap * sizeof *n);
    if (!n)
      BUG("out of memory");
    l->ops = n;
  }
  l->ops[l->len++] = op;
  return MlirWalkResultAdvance;
}

/* Creates "gpu.wait" with the given dependencies before `before`. With
 * async set it returns the new token; otherwise a null value. */
static MlirValue insert_wait(MlirOperation before, int after, MlirValue *deps, intptr_t ndeps,
                             int async) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("gpu.wait"),
                                                mlirOperationGetLocation(before));
  if (ndeps)
    mlirOperationStateAddOperands(&st, ndeps, deps);
  MlirType tok = mlirGPUAsyncTokenTypeGet(ctx);
  if (async)
    mlirOperationStateAddResults(&st, 1, &tok);
  MlirOperation w = mlirOperationCreate(&st);
  MlirBlock block = mlirOperationGetBlock(before);
  if (after)
    mlirBlockInsertOwnedOperationAfter(block, before, w);
  else
    mlirBlockInsertOwnedOperationBefore(block, before, w);
  return async ? mlirOperationGetResult(w, 0) : (MlirValue){NULL};
}

static int rewrite(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  int ndeps = count_token_operands(op);
  int was_async = has_token_result(op);
  intptr_t nops = mlirOperationGetNumOperands(op);
  intptr_t nres = mlirOperationGetNumResults(op);

  /* One dependency: a fresh stream, or a join of the existing ones. */
  MlirValue *deps = malloc(sizeof(MlirValue) * (size_t)(ndeps ? ndeps : 1));
  MlirValue *operands = malloc(sizeof(MlirValue) * (size_t)(nops + 1));
  MlirType *types = malloc(sizeof(MlirType) * (size_t)(nres + 1));
  if (!deps || !operands || !types)
    BUG("out of memory");
  for (int i = 0; i < ndeps; i++)
    deps[i] = mlirOperationGetOperand(op, i);
  MlirValue dep = insert_wait(op, 0, deps, ndeps, 1);

  intptr_t nnew = 0;
  operands[nnew++] = dep;
  for (intptr_t i = ndeps; i < nops; i++)
    operands[nnew++] = mlirOperationGetOperand(op, i);
  intptr_t nvals = was_async ? nres - 1 : nres; /* non-token results */
  for (intptr_t i = 0; i < nvals; i++)
    types[i] = mlirValueGetType(mlirOperationGetResult(op, i));
  types[nvals] = mlirGPUAsyncTokenTypeGet(ctx);

  MlirOperationState st = mlirOperationStateGet(mlirIdentifierStr(mlirOperationGetName(op)),
                                                mlirOperationGetLocation(op));
  mlirOperationStateAddOperands(&st, nnew, operands);
  mlirOperationStateAddResults(&st, nvals + 1, types);
  /* Keep every attribute but the operand segment sizes, which change. */
  intptr_t nattr = mlirOperationGetNumAttributes(op);
  MlirNamedAttribute *attrs = malloc(sizeof(MlirNamedAttribute) * (size_t)(nattr + 1));
  if (!attrs)
    BUG("out of memory");
  intptr_t kept = 0;
  MlirAttribute segments = mlirAttributeGetNull();
  for (intptr_t i = 0; i < nattr; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    MlirStringRef an = mlirIdentifierStr(a.name);
    if (an.length == 19 && memcmp(an.data, "operandSegmentSizes", 19) == 0) {
      segments = a.attribute;
      continue;
    }
    attrs[kept++] = a;
  }
  if (!mlirAttributeIsNull(segments)) {
    /* gpu.alloc: [asyncDependencies, dynamicSizes, symbolOperands]. */
    intptr_t ns = mlirDenseArrayGetNumElements(segments);
    int32_t sizes[8] = {0};
    for (intptr_t i = 0; i < ns && i < 8; i++)
      sizes[i] = mlirDenseI32ArrayGetElement(segments, i);
    sizes[0] = 1;
    attrs[kept++] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("operandSegmentSizes")),
                                          mlirDenseI32ArrayGet(ctx, ns, sizes));
  }
  mlirOperationStateAddAttributes(&st, kept, attrs);
  MlirOperation repl = mlirOperationCreate(&st);
  free(attrs);
  if (mlirOperationIsNull(repl)) {
    free(deps);
    free(operands);
    free(types);
    return ir_error_at(op, "cannot make '%.*s' asynchronous",
                             (int)mlirIdentifierStr(mlirOperationGetName(op)).length,
                             mlirIdentifierStr(mlirOperationGetName(op)).data);
  }
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, repl);

  for (intptr_t i = 0; i < nvals; i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i), mlirOperationGetResult(repl, i));
  MlirValue token = mlirOperationGetResult(repl, nvals);
  if (was_async)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, nres - 1), token);
  else
    insert_wait(repl, 1, &token, 1, 0); /* keep the op host-synchronous */
  mlirOperationDestroy(op);
  free(deps);
  free(operands);
  free(types);
  return 0;
}

/* A gpu.launch_func with dependencies but no async token waits for them and
 * then runs synchronously, as the dialect defines; gpu-to-llvm lowers a
 * launch with dependencies only in the async form. So the host waits first
 * (a synchronous gpu.wait on them) and the launch loses its dependencies. */
static void wait_before_launch(MlirOperation launch) {
  int ndeps = count_token_operands(launch);
  if (ndeps == 0 || has_token_result(launch))
    return;
  intptr_t nops = mlirOperationGetNumOperands(launch);
  MlirValue *ops = malloc(sizeof(MlirValue) * (size_t)nops);
  if (!ops)
    BUG("out of memory");
  for (intptr_t i = 0; i < nops; i++)
    ops[i] = mlirOperationGetOperand(launch, i);
  insert_wait(launch, 0, ops, ndeps, 0);
  MlirStringRef seg_name = mlirStringRefCreateFromCString("operandSegmentSizes");
  MlirAttribute segments = mlirOperationGetAttributeByName(launch, seg_name);
  mlirOperationSetOperands(launch, nops - ndeps, ops + ndeps);
  if (!mlirAttributeIsNull(segments)) {
    intptr_t ns = mlirDenseArrayGetNumElements(segments);
    int32_t *sizes = malloc(sizeof(int32_t) * (size_t)(ns ? ns : 1));
    if (!sizes)
      BUG("out of memory");
    for (intptr_t i = 0; i < ns; i++)
      sizes[i] = mlirDenseI32ArrayGetElement(segments, i);
    sizes[0] = 0; /* asyncDependencies */
    mlirOperationSetAttributeByName(
        launch, seg_name, mlirDenseI32ArrayGet(mlirOperationGetContext(launch), ns, sizes));
    free(sizes);
  }
  free(ops);
}

/* gpu.printf passes its arguments as C's printf receives them, but the
 * NVVM lowering (vprintf's argument buffer) and the host backend keep i8,
 * i16 and f16 at their own width, so "%d" of an i8 reads its neighbours'
 * bytes. Promote them as C does: small integers to i32 (sign-extended; i1
 * zero-extended), f16/bf16 to f64. */
static void promote_printf_args(MlirOperation printf_op) {
  MlirContext ctx = mlirOperationGetContext(printf_op);
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(printf_op); i < n; i++) {
    MlirValue v = mlirOperationGetOperand(printf_op, i);
    MlirType t = mlirValueGetType(v);
    const char *cast = NULL;
    MlirType to = t;
    if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) < 32) {
      cast = mlirIntegerTypeGetWidth(t) == 1 ? "arith.extui" : "arith.extsi";
      to = mlirIntegerTypeGet(ctx, 32);
    } else if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t)) {
      cast = "arith.extf";
      to = mlirF64TypeGet(ctx);
    }
    if (!cast)
      continue;
    MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(cast),
                                                  mlirOperationGetLocation(printf_op));
    mlirOperationStateAddOperands(&st, 1, &v);
    mlirOperationStateAddResults(&st, 1, &to);
    MlirOperation ext = mlirOperationCreate(&st);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(printf_op), printf_op, ext);
    mlirOperationSetOperand(printf_op, i, mlirOperationGetResult(ext, 0));
  }
}

/* gpu.all_reduce and gpu.subgroup_reduce are lowered only when marked
 * `uniform` (every thread of the block or subgroup reaches them). Older
 * code and code made by other compilers does not say so, yet often every
 * thread reaches them: an op in the entry block of a kernel is reached by
 * all (nothing can branch around it or return before it), and so is one
 * nested only in structured control flow whose bounds and conditions are
 * the same for every thread of the block (block-uniform values, below).
 * Such ops are marked; the others are left (and reported if nothing lowers
 * them). */

/* Ops whose result is the same for every thread when their operands are:
 * no memory, no thread ids. */
static int pure_op(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (ir_ref_is(n, "gpu.all_reduce")) /* every thread gets the result */
    return 1;
  if (mlirOperationGetNumRegions(op) != 0)
    return 0;
  return ir_ref_starts(n, "arith.") || ir_ref_starts(n, "index.") ||
         ir_ref_starts(n, "math.") || ir_ref_is(n, "affine.apply") ||
         ir_ref_is(n, "affine.min") || ir_ref_is(n, "affine.max") ||
         ir_ref_is(n, "memref.dim") || ir_ref_is(n, "gpu.block_id") ||
         ir_ref_is(n, "gpu.block_dim") || ir_ref_is(n, "gpu.grid_dim") ||
         ir_ref_is(n, "gpu.num_subgroups") || ir_ref_is(n, "gpu.subgroup_size");
}

/* Whether v is the same in every thread of a block (conservative: no
 * means "not known"). depth bounds the walk up the operands. */
static int block_uniform(MlirValue v, int depth) {
  if (depth > 32)
    return 0;
  if (mlirValueIsABlockArgument(v)) {
    MlirBlock b = mlirBlockArgumentGetOwner(v);
    MlirOperation parent = mlirBlockGetParentOperation(b);
    if (ir_op_is(parent, "gpu.func")) /* kernel arguments */
      return 1;
    /* The induction variable of a loop whose bounds are uniform. */
    if ((ir_op_is(parent, "scf.for") && mlirBlockArgumentGetArgNumber(v) == 0)) {
      for (intptr_t i = 0; i < 3; i++)
        if (!block_uniform(mlirOperationGetOperand(parent, i), depth + 1))
          return 0;
      return 1;
    }
    return 0;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!pure_op(def))
    return 0;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++)
    if (!block_uniform(mlirOperationGetOperand(def, i), depth + 1))
      return 0;
  return 1;
}

/* Whether every thread of the block reaches op: it sits in the kernel's
 * entry block, or only in scf.for / scf.if / affine.for / affine.if (and
 * regions that just group ops) whose operands are block-uniform. */
static int reached_by_all(MlirOperation op) {
  for (;;) {
    MlirBlock block = mlirOperationGetBlock(op);
    MlirOperation parent = mlirBlockGetParentOperation(block);
    if (mlirOperationIsNull(parent))
      return 0;
    MlirBlock first = mlirRegionGetFirstBlock(mlirOperationGetRegion(parent, 0));
    if (ir_op_is(parent, "gpu.func"))
      return mlirBlockEqual(block, first);
    int control = ir_op_is(parent, "scf.for") || ir_op_is(parent, "scf.if") ||
                  ir_op_is(parent, "affine.for") || ir_op_is(parent, "affine.if");
    int grouping = ir_op_is(parent, "scf.execute_region") ||
                   ir_op_is(parent, "memref.alloca_scope");
    if (!control && !grouping)
      return 0;
    if (control) {
      /* scf.for: bounds and step (iter_args need not be uniform); the
       * others: every operand. */
      intptr_t n = ir_op_is(parent, "scf.for") ? 3 : mlirOperationGetNumOperands(parent);
      for (intptr_t i = 0; i < n; i++)
        if (!block_uniform(mlirOperationGetOperand(parent, i), 0))
          return 0;
    }
    op = parent;
  }
}

static MlirWalkResult mark_uniform(MlirOperation op, void *ud) {
  (void)ud;
  if (!ir_op_is(op, "gpu.all_reduce") && !ir_op_is(op, "gpu.subgroup_reduce"))
    return MlirWalkResultAdvance;
  MlirStringRef attr = mlirStringRefCreateFromCString("uniform");
  if (!mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(op, attr)))
    return MlirWalkResultAdvance;
  if (reached_by_all(op))
    mlirOperationSetInherentAttributeByName(op, attr, mlirUnitAttrGet(mlirOperationGetContext(op)));
  return MlirWalkResultAdvance;
}

/* Everything normalization does but the kernels' final signatures. */
static int rewrite_program(MlirModule module) {
  if (frontend_prepare(module) != 0)
    return -1;
  /* Outlining first: it turns gpu.launch bodies into gpu.func kernels and
   * marks the module gpu.container_module. */
  if (ir_run_pipeline(module, "builtin.module(gpu-kernel-outlining)") != 0)
    return -1;
  frontend_warn_host_memory(module);
  if (frontend_sanitize_names(module) != 0)
    return -1;
  struct op_list l = {0};
  mlirOperationWalk(mlirModuleGetOperation(module), collect, &l, MlirWalkPreOrder);
  int rc = 0;
  for (size_t i = 0; i < l.len && rc == 0; i++)
    rc = rewrite(l.ops[i]);
  free(l.ops);
  static const char *const launch_ops[] = {"gpu.launch_func", NULL};
  MlirOperation *launches;
  size_t nlaunches = ir_find_ops(mlirModuleGetOperation(module), launch_ops, NULL, &launches);
  for (size_t i = 0; i < nlaunches; i++)
    wait_before_launch(launches[i]);
  free(launches);
  mlirOperationWalk(mlirModuleGetOperation(module), mark_uniform, NULL, MlirWalkPreOrder);
  frontend_rewrite_atomics(module);
  frontend_minmax_to_llvm(mlirModuleGetOperation(module));
  frontend_widen_contractions(mlirModuleGetOperation(module));
  frontend_private_spaces(module);
  if (rc == 0)
    rc = frontend_expand_microscale(module);
  if (rc == 0)
    rc = frontend_host_asserts(module);
  if (rc == 0)
    rc = frontend_workgroup_allocs(module);
  if (rc == 0)
    rc = frontend_alloc_checks(module);
  /* Formats are checked against the types as written, before promotion. */
  if (rc == 0)
    rc = frontend_check_printf(module);
  static const char *const printf_ops[] = {"gpu.printf", NULL};
  MlirOperation *printfs;
  size_t nprintf = ir_find_ops(mlirModuleGetOperation(module), printf_ops, NULL, &printfs);
  for (size_t i = 0; i < nprintf; i++)
    promote_printf_args(printfs[i]);
  free(printfs);
  frontend_kernel_alignment(module);
  return rc;
}

int frontend_normalize(MlirModule module) {
  /* A program's own SPIR-V is matched to its gpu.modules by the names as
   * written and moved in afterwards: the rewrites are for the program's
   * MLIR, not for its SPIR-V. */
  struct carried_code carried;
  frontend_find_carried_code(module, &carried, 1);
  int rc = rewrite_program(module);
  frontend_carry_code(&carried);
  /* Last: the kernels' signatures are final only now. */
  if (rc == 0)
    rc = frontend_kernel_abi(module);
  return rc;
}
