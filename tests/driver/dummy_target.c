/* dummy_target.c: a target kind that exists only in a test build of gpucc
 * (gpucc_dummy_target), to show that a kind is a row and a file: nothing in
 * driver/, lowering/ or fatbin/ names it, yet it compiles, finishes,
 * bundles and emits through the same code as the real kinds, and a runtime
 * with its backend (tests/runtime/backend_test.c) runs what it made.
 *
 * Its vendor and format are its own (tests/runtime/test_vendor.h, with
 * their fat-binary row in tests/runtime/fatbin_test_vendor.c, the file the
 * test runtime links too), and so is its lowering: the gpu.modules become
 * LLVM code the OpenCL way (convert-gpu-to-llvm-spv: thread and block ids
 * are calls such as get_local_id(0)), which this file turns into code for
 * this machine that a plain C caller can run, one thread after another:
 *
 *  - each id builtin is defined to read a table the object exports,
 *    __gpucc_test_ctx (local id, group id, local size, number of groups,
 *    global id; x, y and z each), which the runtime fills before each
 *    thread;
 *  - each kernel gets an entry __gpucc_test_entry_<kernel>(void **params),
 *    which takes the parameters as mgpuLaunchKernel does and calls it.
 *
 * So its threads never meet: ops that need them to (barriers, shuffles,
 * subgroup reductions) are refused before any job, as its own rule. The
 * object is emitted in-process and linked into a shared object by `cc
 * -shared`, shipped as format "testso" of vendor "testvendor". */
#include "target_kinds.h"
#include "target_rows.h"

#include "diag.h"
#include "fatbin.h"
#include "ir.h"
#include "llvm_emit.h"
#include "test_vendor.h"
#include "xstr.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <mlir-c/Target/LLVMIR.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct target_kind test_kind;
/* Numbered as the test backend's rules want them (backend_test.c). */
static const struct target_info chips[] = {
    {"test1", &test_kind, NULL}, {"test2", &test_kind, NULL}, {"test3", &test_kind, NULL}};

/* ---- its target-id syntax ---------------------------------------------- */

/* Its own, which no other kind and nothing shared knows: "test2:quiet+"
 * (a feature that changes nothing); any other feature refused as the kinds
 * without features refuse theirs. */
static int parse_features(const char *spec, const char *rest, struct target *out) {
  if (!*rest)
    return 0;
  if (strcmp(rest, ":quiet+") != 0)
    return target_refuse_features(spec, out);
  snprintf(out->id, sizeof out->id, "%s:quiet+", out->info->chip);
  return 0;
}

/* Ops that need a block's threads to run together, which it never does. */
static const char *op_requirement(const struct target *t, const char *op) {
  (void)t;
  static const char *const together[] = {"gpu.barrier",   "gpu.shuffle",      "gpu.subgroup_",
                                         "gpu.all_reduce", "gpu.num_subgroups", NULL};
  for (size_t i = 0; together[i]; i++)
    if (strncmp(op, together[i], strlen(together[i])) == 0)
      return "a target whose threads run together (a test target runs them one by one)";
  return NULL;
}

/* ---- its pipeline ------------------------------------------------------- */

static void describe(const struct target *t, char *buf, size_t size) {
  snprintf(buf, size, "target '%s'", t->id);
}

/* A label: its pipeline reads nothing of it, as nothing serializes. */
static void attr(char *buf, size_t size, const struct target *t, int opt) {
  (void)t, (void)opt;
  snprintf(buf, size, "#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int64], []>, "
                      "#spirv.resource_limits<>>");
}

/* Memrefs first, in address space 0 as the kernels' pointers are: the
 * SPIR-V flavoured conversion would put them in space 1 (CrossWorkgroup),
 * apart from those pointers. Then the gpu ops the OpenCL way. */
static int pipeline(char *buf, size_t size, const struct target *t) {
  (void)t;
  return snprintf(buf, size,
                  "builtin.module(gpu.module(" DEVICE_PREP "),convert-vector-to-llvm,"
                  "gpu.module(convert-math-to-llvm,convert-to-llvm,"
                  "convert-gpu-to-llvm-spv{use-64bit-index=true},canonicalize,cse,"
                  "reconcile-unrealized-casts))") >= (int)size;
}

static int serialize(char *buf, size_t size, const struct target *t, const struct toolchain *tc,
                     int debug) {
  (void)t, (void)tc, (void)debug;
  return snprintf(buf, size, "builtin.module()") >= (int)size;
}

/* One thread a subgroup: its threads run one by one. */
static unsigned subgroup_width(const struct target *t) {
  (void)t;
  return 1;
}

/* ---- its object: the module made runnable by a C caller ---------------- */

#define CTX_SYMBOL "__gpucc_test_ctx"
#define ENTRY_PREFIX "__gpucc_test_entry_"
#define CC_SPIR_FUNC 75
#define CC_SPIR_KERNEL 76

/* The id builtins the conversion calls, each with its three slots in the
 * context table. */
static const struct {
  const char *name;
  unsigned slot;
} builtins[] = {
    {"_Z12get_local_idj", 0},   {"_Z12get_group_idj", 3},  {"_Z14get_local_sizej", 6},
    {"_Z14get_num_groupsj", 9}, {"_Z13get_global_idj", 12},
};
#define CTX_SLOTS 15

/* Defines builtin f (size_t f(uint dim)) to read its slot of the table.
 * The conversion declared it without memory access, which a read of the
 * table is: that attribute goes, from it and from its calls. */
static int define_builtin(LLVMValueRef f, unsigned slot, LLVMValueRef ctx) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), table = LLVMArrayType2(i64, CTX_SLOTS);
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  if (LLVMCountParams(f) != 1 || LLVMGetReturnType(fty) != i64)
    return diag_error("internal: builtin '%s' has an unexpected type", LLVMGetValueName(f));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, ""));
  LLVMValueRef dim = LLVMBuildZExt(b, LLVMGetParam(f, 0), i64, "");
  LLVMValueRef idx[2] = {LLVMConstInt(i64, 0, 0),
                         LLVMBuildAdd(b, dim, LLVMConstInt(i64, slot, 0), "")};
  LLVMValueRef at = LLVMBuildInBoundsGEP2(b, table, ctx, idx, 2, "");
  LLVMBuildRet(b, LLVMBuildLoad2(b, i64, at, ""));
  LLVMDisposeBuilder(b);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  unsigned memory = LLVMGetEnumAttributeKindForName("memory", 6);
  LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, memory);
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
    if (LLVMIsACallInst(LLVMGetUser(u)))
      LLVMRemoveCallSiteEnumAttribute(LLVMGetUser(u), LLVMAttributeFunctionIndex, memory);
  return 0;
}

/* __gpucc_test_entry_<k>(void **params): k of *params[0], *params[1] ... */
static void add_entry(LLVMModuleRef mod, LLVMValueRef k) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  size_t len;
  const char *kname = LLVMGetValueName2(k, &len);
  char *name = xasprintf(ENTRY_PREFIX "%.*s", (int)len, kname);
  LLVMValueRef entry =
      LLVMAddFunction(mod, name, LLVMFunctionType(LLVMVoidTypeInContext(c), &ptr, 1, 0));
  free(name);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, entry, ""));
  unsigned n = LLVMCountParams(k);
  LLVMValueRef *args = calloc(n + 1, sizeof *args);
  if (!args)
    BUG("out of memory");
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef idx = LLVMConstInt(i64, i, 0);
    LLVMValueRef slot = LLVMBuildGEP2(b, ptr, LLVMGetParam(entry, 0), &idx, 1, "");
    LLVMValueRef p = LLVMBuildLoad2(b, ptr, slot, "");
    args[i] = LLVMBuildLoad2(b, LLVMTypeOf(LLVMGetParam(k, i)), p, "");
  }
  LLVMBuildCall2(b, LLVMGlobalGetValueType(k), k, args, n, "");
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  free(args);
  LLVMSetLinkage(k, LLVMInternalLinkage); /* only its entry is called */
}

/* The conversion's calling conventions are the SPIR ones: here, C's. */
static void plain_conventions(LLVMModuleRef mod) {
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    unsigned cc = LLVMGetFunctionCallConv(f);
    if (cc == CC_SPIR_FUNC || cc == CC_SPIR_KERNEL)
      LLVMSetFunctionCallConv(f, LLVMCCallConv);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsACallInst(in) && (LLVMGetInstructionCallConv(in) == CC_SPIR_FUNC ||
                                    LLVMGetInstructionCallConv(in) == CC_SPIR_KERNEL))
          LLVMSetInstructionCallConv(in, LLVMCCallConv);
  }
}

static int make_runnable(LLVMModuleRef mod, const char *module_name) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMTypeRef table = LLVMArrayType2(LLVMInt64TypeInContext(c), CTX_SLOTS);
  LLVMValueRef ctx = LLVMAddGlobal(mod, table, CTX_SYMBOL);
  LLVMSetInitializer(ctx, LLVMConstNull(table));
  size_t nkernels = 0, cap = 8;
  LLVMValueRef *kernels = malloc(cap * sizeof *kernels);
  if (!kernels)
    BUG("out of memory");
  int rc = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && rc == 0; f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) == CC_SPIR_KERNEL && !LLVMIsDeclaration(f)) {
      if (nkernels == cap && !(kernels = realloc(kernels, (cap *= 2) * sizeof *kernels)))
        BUG("out of memory");
      kernels[nkernels++] = f;
    }
    if (!LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) != CC_SPIR_FUNC)
      continue; /* libm and the like stay what they are */
    size_t i = 0, n = sizeof builtins / sizeof builtins[0];
    while (i < n && strcmp(LLVMGetValueName(f), builtins[i].name) != 0)
      i++;
    rc = i < n ? define_builtin(f, builtins[i].slot, ctx)
               : diag_error("gpu.module @%s calls '%s', which a test target does not have",
                            module_name, LLVMGetValueName(f));
  }
  for (size_t i = 0; i < nkernels && rc == 0; i++)
    add_entry(mod, kernels[i]);
  free(kernels);
  plain_conventions(mod);
  return rc;
}

/* Each lowered gpu.module becomes an LLVM module, made runnable, and
 * emitted as a PIC object for this machine. */
static int write_objects(MlirModule dev, int opt, const struct module_range *r,
                         const char *const *out_paths) {
  LLVMTargetMachineRef tm = lowering_host_machine(opt);
  if (!tm)
    return -1;
  size_t i = 0;
  int rc = 0;
  for (MlirOperation gm = mlirBlockGetFirstOperation(mlirModuleGetBody(dev));
       !mlirOperationIsNull(gm) && i < r->count && rc == 0;
       gm = mlirOperationGetNextInBlock(gm), i++) {
    char *name = ir_symbol_name(gm);
    /* Its contents into a builtin.module, which translates. */
    MlirModule tmp = mlirModuleCreateEmpty(mlirOperationGetLocation(gm));
    MlirBlock src = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
    for (MlirOperation op; !mlirOperationIsNull(op = mlirBlockGetFirstOperation(src));) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(mlirModuleGetBody(tmp), op);
    }
    LLVMContextRef llctx = LLVMContextCreate();
    LLVMModuleRef mod = mlirTranslateModuleToLLVMIR(mlirModuleGetOperation(tmp), llctx);
    mlirModuleDestroy(tmp);
    rc = mod ? make_runnable(mod, name)
             : diag_error("internal: gpu.module @%s did not translate to LLVM IR", name);
    char *msg = NULL;
    if (rc == 0) {
      lowering_set_host_layout(mod, tm);
      if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg))
        rc = diag_error("internal: invalid test kernel IR for gpu.module @%s: %s", name, msg);
    }
    LLVMDisposeMessage(msg);
    if (rc == 0)
      rc = lowering_emit_object_with(mod, tm, opt, out_paths[i]);
    if (mod)
      LLVMDisposeModule(mod);
    LLVMContextDispose(llctx);
    free(name);
  }
  LLVMDisposeTargetMachine(tm);
  if (rc != 0)
    return -1;
  return i == r->count ? 0 : diag_error("internal: %zu of %zu gpu.modules lowered", i, r->count);
}

static const struct target_lowering lowering = {
    .describe = describe,
    .attr = attr,
    .pipeline = pipeline,
    .serialize = serialize,
    .subgroup_width = subgroup_width,
    .write_objects = write_objects,
};

/* ---- its tool: the object into a shared object ------------------------- */

static int can_finish(const struct toolchain *tc) {
  (void)tc;
  return 1;
}

static char **finish_argv(const struct toolchain *tc, const struct target *t,
                          const struct finish_request *r, const char *obj, const char *so) {
  (void)tc, (void)t, (void)r;
  const char *args[] = {"cc", "-shared", "-o", so, obj, "-lm", NULL};
  char **argv = calloc(sizeof args / sizeof args[0], sizeof *argv);
  if (!argv)
    BUG("out of memory");
  for (size_t i = 0; args[i]; i++)
    argv[i] = (char *)args[i];
  return argv;
}

/* What shapes its objects beyond the module and flags: the cc that links. */
static char *cache_inputs(const struct toolchain *tc, const struct target *t,
                          const struct finish_request *r) {
  (void)tc, (void)t, (void)r;
  char *cc = toolchain_program_identity("cc");
  char *s = xasprintf("cc=%s", cc);
  free(cc);
  return s;
}

static const struct target_kind test_kind = {
    .name = "test",
    .fatbin_vendor = TEST_VENDOR,
    .device_suffix = ".test-o",
    .device_stage = "test-obj",
    .device_format = -1, /* only the shared object ships */
    .finished_suffix = ".test-so",
    .finished_stage = "test-so",
    .finished_format = TEST_FORMAT_SO,
    .finish_tool = "cc -shared",
    .cache_inputs = cache_inputs,
    .can_finish = can_finish,
    .finish_argv = finish_argv,
    .op_requirement = op_requirement,
    .parse_features = parse_features,
    .chips = chips,
    .nchips = sizeof chips / sizeof chips[0],
    .lowering = &lowering,
};

/* lowering/target_list.c with its line added. */
const struct target_kind *const target_kinds[] = {&target_kind_nvidia, &target_kind_amd,
                                                  &target_kind_host, &test_kind, NULL};
