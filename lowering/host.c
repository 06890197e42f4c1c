/* host.c: the host side, from MLIR to a native object file, in-process.
 *
 * embed_placeholders swaps each gpu.module for a gpu.binary whose one object
 * is a placeholder, in format "bin" so that LLVM's select_object translation
 * emits mgpuModuleLoad(blob, size). After translation, externalize_blobs
 * points that call at the external blob and size symbols instead, which the
 * blob object (lowering_blob_object) defines in the .gpucc_fatbin section,
 * where the runtime and gpucc-fatbin find it. The target attribute of the
 * object is only a label: the runtime picks the real object from the blob.
 *
 * lowering_host runs the CPU pipeline (gpu-to-llvm among the rest), checks
 * that no gpu op was silently left behind, translates to LLVM IR, fixes up a
 * void main, optimizes and emits a PIC object through the LLVM C API. */
#include "lowering.h"

#include "device_contract.h"
#include "diag.h"
#include "xstr.h"
#include "frontend.h"
#include "llvm_emit.h"
#include "target_kinds.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Target/LLVMIR.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CPU pipeline, less its closing parenthesis (-g appends a pass). The
 * order is the one a user would pick by hand, each step feeding the next:
 *  - ops that lower to other upstream dialects first: linalg (what the
 *    frontend left) to loops, vector transfers and prints to scf, affine to
 *    scf, memref.realloc to alloc and copy, async.func and async.execute to
 *    coroutines on the async runtime, complex to
 *    arith/math, arith ops without an LLVM twin (ceildivsi, maxnumf, ...)
 *    expanded (the microscaling floats' conversions were, in the frontend:
 *    frontend/microscale.c);
 *  - then structured control flow to cf, memref metadata made explicit
 *    (subviews, reinterpret_cast, expand/collapse_shape; this makes affine
 *    ops again, hence the second lower-affine);
 *  - then everything to the LLVM dialect: math to intrinsics, what has no
 *    intrinsic to libm calls, the integer powers to generated functions. */
#define HOST_PIPELINE_BODY                                                                         \
  "builtin.module(convert-linalg-to-loops,convert-vector-to-scf,lower-affine,expand-realloc,"      \
  "async-func-to-async-runtime,async-to-async-runtime,async-runtime-ref-counting,"                 \
  "async-runtime-ref-counting-opt,"                                                                \
  "convert-complex-to-standard,arith-expand,convert-scf-to-cf,expand-strided-metadata,lower-affine,"\
  "convert-vector-to-llvm,convert-math-to-llvm,convert-math-to-libm,convert-math-to-funcs,"        \
  "convert-complex-to-llvm,finalize-memref-to-llvm,convert-async-to-llvm,convert-arith-to-llvm,"   \
  "convert-index-to-llvm,convert-ub-to-llvm,gpu-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"  \
  "reconcile-unrealized-casts"

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

#define PLACEHOLDER "GPUCCPLACEHOLDER"

static int embed_placeholders(MlirModule module) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirAttribute label = mlirAttributeParseGet(ctx, str(lowering_binary_label));
  MlirNamedAttribute section = mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("section")),
                                                     mlirStringAttrGet(ctx, str(".gpucc_fatbin")));
  MlirAttribute props = mlirDictionaryAttrGet(ctx, 1, &section);
  MlirAttribute handler = mlirAttributeParseGet(ctx, str("#gpu.select_object<0>"));
  MlirOperation *mods;
  size_t n = ir_gpu_modules(module, &mods);
  for (size_t i = 0; i < n; i++) {
    MlirAttribute obj = mlirGPUObjectAttrGet(ctx, label, 3 /* bin */, str(PLACEHOLDER), props);
    MlirAttribute objs = mlirArrayAttrGet(ctx, 1, &obj);
    MlirOperationState st = mlirOperationStateGet(str("gpu.binary"), mlirOperationGetLocation(mods[i]));
    /* The parser fills in the default handler; ops built by hand must name
     * it or translation dereferences a null handler. */
    MlirNamedAttribute attrs[3] = {
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("offloadingHandler")), handler),
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("sym_name")),
                              mlirOperationGetInherentAttributeByName(mods[i], str("sym_name"))),
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("objects")), objs),
    };
    mlirOperationStateAddAttributes(&st, 3, attrs);
    MlirOperation bin = mlirOperationCreate(&st);
    if (mlirOperationIsNull(bin)) {
      int rc = ir_error_at(mods[i], "internal: cannot create gpu.binary");
      free(mods);
      return rc;
    }
    mlirBlockInsertOwnedOperationBefore(mlirModuleGetBody(module), mods[i], bin);
    mlirOperationDestroy(mods[i]);
  }
  free(mods);
  return 0;
}

/* What the host module may hold once lowered: LLVM dialect ops and what
 * LLVM IR translation takes besides (the offloading ops). */
static int host_lowered(MlirStringRef name) {
  return ir_ref_starts(name, "llvm.") || ir_ref_is(name, "builtin.module") ||
         ir_ref_is(name, "gpu.binary") || ir_ref_is(name, "gpu.launch_func");
}

/* Upstream translation makes `func.func @main()` a void main whose exit status
 * is garbage. We give it an i32 result and make every return yield 0, before
 * lowering, so that the debug info and everything else stay consistent. */
static MlirWalkResult collect_returns(MlirOperation op, void *ud) {
  if (ir_ref_is(mlirIdentifierStr(mlirOperationGetName(op)), "func.return")) {
    MlirOperation **list = ud;
    size_t n = 0;
    while (!mlirOperationIsNull((*list)[n]))
      n++;
    MlirOperation *grown = realloc(*list, (n + 2) * sizeof **list);
    if (!grown)
      BUG("out of memory");
    grown[n] = op;
    grown[n + 1] = (MlirOperation){NULL};
    *list = grown;
  }
  return MlirWalkResultAdvance;
}

static int fix_void_main(MlirModule module) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirOperation main_fn = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name = mlirOperationGetInherentAttributeByName(op, str("sym_name"));
    if (ir_ref_is(mlirIdentifierStr(mlirOperationGetName(op)), "func.func") && !mlirAttributeIsNull(name) &&
        ir_ref_is(mlirStringAttrGetValue(name), "main"))
      main_fn = op;
  }
  if (mlirOperationIsNull(main_fn))
    return 0;
  MlirType fty = mlirTypeAttrGetValue(mlirOperationGetInherentAttributeByName(main_fn, str("function_type")));
  if (mlirFunctionTypeGetNumResults(fty) != 0 || mlirFunctionTypeGetNumInputs(fty) != 0 ||
      mlirRegionIsNull(mlirOperationGetRegion(main_fn, 0)) ||
      mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(main_fn, 0))))
    return 0;
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType nfty = mlirFunctionTypeGet(ctx, 0, NULL, 1, &i32);
  mlirOperationSetInherentAttributeByName(main_fn, str("function_type"), mlirTypeAttrGet(nfty));
  MlirOperation *returns = calloc(1, sizeof *returns);
  if (!returns)
    BUG("out of memory");
  mlirOperationWalk(main_fn, collect_returns, &returns, MlirWalkPreOrder);
  for (size_t i = 0; !mlirOperationIsNull(returns[i]); i++) {
    MlirOperation ret = returns[i];
    MlirLocation loc = mlirOperationGetLocation(ret);
    MlirBlock block = mlirOperationGetBlock(ret);
    MlirOperationState cst = mlirOperationStateGet(str("arith.constant"), loc);
    MlirNamedAttribute value = mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("value")),
                                                     mlirIntegerAttrGet(i32, 0));
    mlirOperationStateAddAttributes(&cst, 1, &value);
    mlirOperationStateAddResults(&cst, 1, &i32);
    MlirOperation zero = mlirOperationCreate(&cst);
    mlirBlockInsertOwnedOperationBefore(block, ret, zero);
    MlirValue zv = mlirOperationGetResult(zero, 0);
    MlirOperationState rst = mlirOperationStateGet(str("func.return"), loc);
    mlirOperationStateAddOperands(&rst, 1, &zv);
    mlirBlockInsertOwnedOperationBefore(block, ret, mlirOperationCreate(&rst));
    mlirOperationDestroy(ret);
  }
  free(returns);
  return 0;
}

void lowering_blob_symbol(char *buf, size_t len, const char *tag, const char *module, int size) {
  snprintf(buf, len, "__gpucc_fatbin%s.%s.%s", size ? "_size" : "", tag, module);
}

/* The two blob symbols of a module, malloc'ed at whatever length the
 * module's name needs: a cut name would be a symbol the blob object never
 * defines. */
static void blob_symbols(const char *tag, const char *module, char **sym, char **size_sym) {
  size_t len = strlen(tag) + strlen(module) + sizeof "__gpucc_fatbin_size..";
  *sym = malloc(len);
  *size_sym = malloc(len);
  if (!*sym || !*size_sym)
    BUG("out of memory");
  lowering_blob_symbol(*sym, len, tag, module, 0);
  lowering_blob_symbol(*size_sym, len, tag, module, 1);
}

/* The translation made, per gpu.binary B, a constant @B_binary holding the
 * placeholder and a constructor @B_load calling mgpuModuleLoad(@B_binary,
 * size). Point that call at the external symbols instead. */
static int externalize_blobs(LLVMModuleRef mod, const char *tag) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef next;
  for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = next) {
    next = LLVMGetNextGlobal(g);
    const char *section = LLVMGetSection(g);
    size_t len;
    const char *gname = LLVMGetValueName2(g, &len);
    if (!section || strcmp(section, ".gpucc_fatbin") != 0 || len < 8 ||
        strcmp(gname + len - 7, "_binary") != 0)
      continue;
    char *module = xasprintf("%.*s", (int)(len - 7), gname), *sym, *size_sym;
    blob_symbols(tag, module, &sym, &size_sym);
    LLVMValueRef blob = LLVMAddGlobal(mod, LLVMArrayType2(LLVMInt8TypeInContext(c), 0), sym);
    LLVMValueRef size = LLVMAddGlobal(mod, i64, size_sym);
    free(module);
    free(sym);
    free(size_sym);
    LLVMSetVisibility(blob, LLVMHiddenVisibility);
    LLVMSetVisibility(size, LLVMHiddenVisibility);
    int patched = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!LLVMIsACallInst(call) || LLVMGetNumArgOperands(call) != 2)
        continue;
      LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
      LLVMPositionBuilderBefore(b, call);
      LLVMSetOperand(call, 1, LLVMBuildLoad2(b, i64, size, "fatbin.size"));
      LLVMDisposeBuilder(b);
      patched++;
    }
    if (patched != 1)
      return diag_error("internal: expected one mgpuModuleLoad of '%s', found %d", gname, patched);
    LLVMReplaceAllUsesWith(g, blob);
    LLVMDeleteGlobal(g);
  }
  return 0;
}

int lowering_blob_object(const char *path, const char *tag, const char *module, const void *data,
                         size_t size) {
  LLVMContextRef c = LLVMContextCreate();
  LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("gpucc-fatbin", c);
  char *sym, *size_sym;
  blob_symbols(tag, module, &sym, &size_sym);
  LLVMValueRef init = LLVMConstStringInContext2(c, data, size, 1);
  LLVMValueRef blob = LLVMAddGlobal(mod, LLVMTypeOf(init), sym);
  LLVMSetInitializer(blob, init);
  LLVMSetGlobalConstant(blob, 1);
  LLVMSetSection(blob, ".gpucc_fatbin");
  LLVMSetAlignment(blob, 8);
  LLVMSetVisibility(blob, LLVMHiddenVisibility);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef sz = LLVMAddGlobal(mod, i64, size_sym);
  LLVMSetInitializer(sz, LLVMConstInt(i64, size, 0));
  LLVMSetGlobalConstant(sz, 1);
  LLVMSetVisibility(sz, LLVMHiddenVisibility);
  free(sym);
  free(size_sym);
  int rc = lowering_emit_object(mod, 0, path);
  LLVMDisposeModule(mod);
  LLVMContextDispose(c);
  return rc;
}

int lowering_host(struct program *prog, const char *tag, const struct device_codegen *cg,
                  const char *obj_path, const char *mlir_path, const char *ll_path) {
  int opt = cg->opt, debug = cg->debug;
  MlirModule module = program_mlir(prog);
  ir_set_activity("host code");
  int rc = -1;
  LLVMContextRef llctx = NULL;
  LLVMModuleRef mod = NULL;
  char pipeline[1024];
  snprintf(pipeline, sizeof pipeline, "%s%s)", HOST_PIPELINE_BODY,
           debug ? ",ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly}" : "");
  if (embed_placeholders(module) != 0 || fix_void_main(module) != 0 ||
      ir_lower(module, pipeline, "the host", host_lowered) != 0)
    goto out;
  lowering_contract_fp(mlirModuleGetOperation(module), cg->contract);
  if (mlir_path && ir_write_op(mlirModuleGetOperation(module), mlir_path) != 0)
    goto out;
  llctx = LLVMContextCreate();
  mod = mlirTranslateModuleToLLVMIR(mlirModuleGetOperation(module), llctx);
  if (!mod)
    goto out;
  if (externalize_blobs(mod, tag) != 0)
    goto out;
  char *msg = NULL;
  if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
    diag_error("internal: invalid host LLVM IR: %s", msg);
    LLVMDisposeMessage(msg);
    goto out;
  }
  LLVMDisposeMessage(msg);
  if (lowering_emit_object(mod, opt, obj_path) != 0)
    goto out;
  if (ll_path) {
    char *err = NULL;
    if (LLVMPrintModuleToFile(mod, ll_path, &err)) {
      diag_error("cannot write '%s': %s", ll_path, err);
      LLVMDisposeMessage(err);
      goto out;
    }
  }
  rc = 0;
out:
  if (mod)
    LLVMDisposeModule(mod);
  if (llctx)
    LLVMContextDispose(llctx);
  ir_set_activity(NULL);
  return rc;
}
