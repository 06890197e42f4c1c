/* target_host.c: the CPU of this machine ("host"), so that a program runs
 * where no GPU is.
 *
 * The gpu.modules are lowered as for NVIDIA; each then becomes an LLVM
 * module that host_kernels.c rewrites for the CPU (thread ids from a
 * context argument, barriers and shuffles as runtime calls, libdevice calls
 * as libm calls) and that is emitted as a PIC object, in-process. One `cc
 * -shared` links the objects of every gpu.module into one shared object
 * (fatbin SO_LIB; a link per module made 1,000 modules take minutes): so
 * that their symbols cannot collide there, each object's definitions are
 * renamed behind its module's prefix (fatbin_so_ref_prefix), which the
 * module's SO_REF tells the runtime. A program of one gpu.module keeps its
 * names and ships its shared object as format SO (plan_links_modules). */
#include "target_nvvm.h"
#include "target_rows.h"

#include "diag.h"
#include "host_abi.h" /* GPUCC_HOST_SUBGROUP_SIZE */
#include "fatbin.h"
#include "ir.h"
#include "device_mma.h"
#include "host/host_backend.h"
#include "llvm_emit.h"
#include "xstr.h"

#include <llvm-c/Analysis.h>
#include <mlir-c/Target/LLVMIR.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void describe(const struct target *t, char *buf, size_t size) {
  (void)t;
  snprintf(buf, size, "the host target");
}

const char *const lowering_binary_label = "#nvvm.target";

/* Only a label: the NVVM conversion wants an NVVM target. */
static void attr(char *buf, size_t size, const struct target *t, int opt) {
  (void)t;
  snprintf(buf, size, "#nvvm.target<O = %d, chip = \"sm_80\">", opt);
}

static int pipeline(char *buf, size_t size, const struct target *t) {
  (void)t;
  return snprintf(buf, size, "%s", NVVM_PIPELINE) >= (int)size;
}

static int serialize(char *buf, size_t size, const struct target *t, const struct toolchain *tc,
                     int debug) {
  (void)t, (void)tc;
  return snprintf(buf, size, "builtin.module(%.*s)", debug ? (int)strlen(DEBUG_INFO) - 1 : 0,
                  DEBUG_INFO) >= (int)size;
}

/* Puts every definition the object exports behind the prefix: the kernels'
 * entry points and tables, the ABI version, the workgroup size. What it
 * only declares (the runtime's calls, libm) keeps its name. */
static void prefix_definitions(LLVMModuleRef mod, const char *prefix) {
  LLVMValueRef v[2] = {LLVMGetFirstFunction(mod), LLVMGetFirstGlobal(mod)};
  for (int kind = 0; kind < 2; kind++)
    for (LLVMValueRef g = v[kind]; g; g = kind ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g)) {
      LLVMLinkage l = LLVMGetLinkage(g);
      if (LLVMIsDeclaration(g) || l == LLVMInternalLinkage || l == LLVMPrivateLinkage)
        continue;
      size_t len;
      const char *name = LLVMGetValueName2(g, &len);
      char *renamed = malloc(strlen(prefix) + len + 1);
      if (!renamed)
        BUG("out of memory");
      sprintf(renamed, "%s%.*s", prefix, (int)len, name);
      LLVMSetValueName2(g, renamed, strlen(renamed));
      free(renamed);
    }
}

/* Each lowered gpu.module becomes an LLVM module, rewritten for the CPU,
 * its definitions prefixed (by its index in the program, whichever job of
 * a split target compiles it), and emitted as a PIC object. */
static int write_objects(MlirModule dev, int opt, const struct module_range *r,
                         const char *const *out_paths) {
  MlirBlock body = mlirModuleGetBody(dev);
  size_t i = 0, n = r->count;
  /* One machine for every module: its set-up per module was a good part
   * of a thousand small modules' time. */
  LLVMTargetMachineRef tm = lowering_host_machine(opt);
  if (!tm)
    return -1;
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  int failed = 0;
  for (MlirOperation gm = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(gm) && i < n;
       gm = mlirOperationGetNextInBlock(gm), i++) {
    char *name = ir_symbol_name(gm);
    /* Move the gpu.module's contents into a builtin.module to translate it. */
    MlirModule tmpmod = mlirModuleCreateEmpty(mlirOperationGetLocation(gm));
    MlirBlock src = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
    MlirOperation op;
    while (!mlirOperationIsNull(op = mlirBlockGetFirstOperation(src))) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(mlirModuleGetBody(tmpmod), op);
    }
    LLVMContextRef llctx = LLVMContextCreate();
    LLVMModuleRef mod = mlirTranslateModuleToLLVMIR(mlirModuleGetOperation(tmpmod), llctx);
    mlirModuleDestroy(tmpmod);
    int rc = -1;
    if (mod) {
      lowering_set_host_layout(mod, tm);
      rc = host_kernels_rewrite(mod, td, name);
      char *msg = NULL;
      if (rc == 0 && LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg))
        rc = diag_error("internal: invalid host kernel IR for gpu.module @%s: %s", name, msg);
      LLVMDisposeMessage(msg);
      char prefix[FATBIN_SO_REF_MAX_PREFIX + 1];
      fatbin_so_ref_prefix(r->first + i, prefix, sizeof prefix);
      if (rc == 0 && r->total > 1) /* one module is linked alone, as format SO */
        prefix_definitions(mod, prefix);
      if (rc == 0)
        rc = lowering_emit_object_with(mod, tm, opt, out_paths[i]);
      LLVMDisposeModule(mod);
    }
    LLVMContextDispose(llctx);
    free(name);
    if (rc != 0) {
      failed = 1;
      break;
    }
  }
  LLVMDisposeTargetData(td);
  LLVMDisposeTargetMachine(tm);
  if (failed)
    return -1;
  return i == n ? 0 : diag_error("internal: %zu of %zu gpu.modules lowered for the host", i, n);
}

/* Matrix ops: every lane holds whole matrices (device_mma.c). */
static int prepare_module(MlirOperation gpu_module, const struct target *t) {
  (void)t;
  return lowering_expand_mma(gpu_module, &mma_lowering_whole, "the host target");
}

void lowering_set_verbose(int on) { host_kernels_set_verbose(on); }

static int can_finish(const struct toolchain *tc) {
  (void)tc;
  return 1;
}

const char *lowering_builtins_archive(void) {
  return GPUCC_RT_BUILTINS[0] && access(GPUCC_RT_BUILTINS, R_OK) == 0 ? GPUCC_RT_BUILTINS : NULL;
}

/* Kernels may call compiler-rt's helpers (bf16 conversions); its builtins
 * archive, when installed, gives the shared object the ones it needs, so
 * nothing is left for the runtime's process to resolve. */
static char **finish_argv(const struct toolchain *tc, const struct target *t,
                          const struct finish_request *r, const char *obj, const char *so) {
  (void)tc, (void)t, (void)r;
  char **argv = calloc(8, sizeof *argv);
  if (!argv)
    BUG("out of memory");
  size_t k = 0;
  const char *args[] = {"cc", "-shared", "-o", so, obj};
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
    argv[k++] = (char *)args[i];
  const char *builtins = lowering_builtins_archive();
  if (builtins)
    argv[k++] = (char *)builtins;
  argv[k++] = (char *)"-lm";
  argv[k] = NULL;
  return argv;
}

static const struct target_info chips[] = {{"host", &target_kind_host, NULL}};

/* The host backend's subgroups (abi/host_abi.h). */
static unsigned subgroup_width(const struct target *t) {
  (void)t;
  return GPUCC_HOST_SUBGROUP_SIZE;
}

static const struct target_lowering lowering = {
    .describe = describe,
    .subgroup_width = subgroup_width,
    /* the host target rewrites NVVM */
    .lanes = &nvvm_lane_ops,
    .lowered = (const char *const[]){"nvvm.", NULL},
    .kernel_attr = "nvvm.kernel",
    .attr = attr,
    .pipeline = pipeline,
    .serialize = serialize,
    .prepare_module = prepare_module,
    .write_objects = write_objects,
};

/* The C compiler that links the kernels' shared object, its command (the
 * flags, the libraries) and the builtins archive linked into it. */
static char *cache_inputs(const struct toolchain *tc, const struct target *t,
                          const struct finish_request *r) {
  char *cc = toolchain_program_identity("cc");
  char *builtins = toolchain_file_identity(lowering_builtins_archive());
  char *s = xasprintf("cc=%s builtins=%s cmd=", cc, builtins);
  free(cc);
  free(builtins);
  char **argv = finish_argv(tc, t, r, "<obj>", "<so>");
  for (size_t i = 0; argv[i]; i++) {
    char *more = xasprintf("%s%s%s", s, i ? " " : "", argv[i]);
    free(s);
    s = more;
  }
  free(argv);
  return s;
}

const struct target_kind target_kind_host = {
    .name = "host",
    .fatbin_vendor = FATBIN_VENDOR_HOST,
    .device_suffix = ".o",
    .device_format = -1, /* only the shared object ships */
    .finished_suffix = ".so",
    .finished_format = FATBIN_FORMAT_SO,
    .finish_tool = "cc -shared",
    .can_finish = can_finish,
    .finish_argv = finish_argv,
    .cache_inputs = cache_inputs,
    .backend = "host",
    .chips = chips,
    .nchips = 1,
    .lowering = &lowering,
};
