/* device.c: one target's device code for every gpu.module of a program.
 *
 * The gpu.modules are cloned into a fresh module (the host code is not
 * needed), given this target alone, lowered (NVVM or ROCDL) and serialized
 * by gpu-module-to-binary: PTX text ("isa") for NVIDIA, because ptxas runs
 * as its own job afterwards; a linked hsaco ("bin") for AMD. The result of
 * each gpu.module goes to its own file. */
#include "lowering.h"

#include "diag.h"
#include "frontend.h"
#include "tmp.h"
#include "device_amd_assert.h"
#include "device_amd_private.h"
#include "device_ipowi.h"
#include "host_kernels.h"
#include "llvm_emit.h"

#include <llvm-c/Analysis.h>
#include <mlir-c/Target/LLVMIR.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Dialect/GPU.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Common to every target, inside each gpu.module: what the frontend left of
 * linalg becomes loops, vector transfers scf, affine scf, complex arith and
 * math, arith ops without an LLVM twin (ceildivsi, maxnumf, ...) are
 * expanded, then structured control flow
 * and memref metadata (subviews, expand/collapse_shape: affine again, hence
 * the second lower-affine) become LLVM-ready form. */
#define DEVICE_PREP                                                                                \
  "convert-linalg-to-loops,convert-vector-to-scf,lower-affine,convert-complex-to-standard,"        \
  "arith-expand,convert-scf-to-cf,"                      \
  "expand-strided-metadata,lower-affine"

/* -g: line tables from the MLIR locations (the pass only runs on a
 * builtin.module, where it also reaches the nested gpu.modules). For PTX,
 * only .loc directives: DWARF sections make ptxas refuse optimized code
 * ("Optimized debugging not supported"), while .loc is what -lineinfo keeps. */
#define DEBUG_INFO "ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly},"
#define DEBUG_INFO_PTX "ensure-debug-info-scope-on-llvm-func{emission-kind=DebugDirectivesOnly},"

/* The lowering to the LLVM dialect (and NVVM/ROCDL ops), checked for
 * leftovers before anything is serialized. The vendor conversion takes the
 * math ops its device library has; the rest (trunc, ctlz, absi, ...) become
 * LLVM intrinsics, which every backend selects. */
static int build_pipeline(char *buf, size_t size, const struct target *t) {
  switch (t->info->vendor) {
  case TARGET_NVIDIA:
  case TARGET_HOST:
    /* The host target is lowered as for NVIDIA; host_kernels.c rewrites
     * what is NVIDIA-specific (libdevice calls become libm calls). */
    return snprintf(buf, size,
                    "builtin.module(gpu.module(" DEVICE_PREP "),convert-vector-to-llvm,gpu.module("
                    "convert-gpu-to-nvvm,convert-math-to-llvm,convert-nvvm-to-llvm,canonicalize,cse,reconcile-unrealized-casts))")
           >= (int)size;
  case TARGET_AMD:
    return snprintf(buf, size,
                    "builtin.module(gpu.module(" DEVICE_PREP "),convert-vector-to-llvm,convert-math-to-rocdl{chipset=%s},gpu.module("
                    "convert-gpu-to-rocdl{chipset=%s runtime=HIP},convert-math-to-llvm,canonicalize,cse,reconcile-unrealized-casts))",
                    t->info->chip, t->info->chip) >= (int)size;
  }
  return 1;
}

/* Line tables (-g), then serialization: PTX text for NVIDIA, a linked hsaco
 * for AMD. The host target is translated by host_objects instead. */
static int build_serialize(char *buf, size_t size, const struct target *t,
                           const struct toolchain *tc, int debug) {
  const char *dbg = !debug ? "" : t->info->vendor == TARGET_NVIDIA ? DEBUG_INFO_PTX : DEBUG_INFO;
  switch (t->info->vendor) {
  case TARGET_NVIDIA:
    return snprintf(buf, size, "builtin.module(%sgpu-module-to-binary{format=isa%s%s})", dbg,
                    tc->cuda_path[0] ? " toolkit=" : "", tc->cuda_path) >= (int)size;
  case TARGET_AMD:
    return snprintf(buf, size, "builtin.module(%sgpu-module-to-binary{format=bin toolkit=%s})", dbg,
                    tc->rocm_shim) >= (int)size;
  case TARGET_HOST:
    return snprintf(buf, size, "builtin.module(%.*s)", debug ? (int)strlen(DEBUG_INFO) - 1 : 0,
                    DEBUG_INFO) >= (int)size;
  }
  return 1;
}

static int ref_starts(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length >= n && memcmp(s.data, prefix, n) == 0;
}

/* Lowered device code: LLVM dialect ops, the vendor's own ops (translated
 * to intrinsics) and the containers. */
static int device_lowered(MlirStringRef name) {
  return ref_starts(name, "llvm.") || ref_starts(name, "nvvm.") || ref_starts(name, "rocdl.") ||
         (name.length == 10 && memcmp(name.data, "gpu.module", 10) == 0) ||
         (name.length == 14 && memcmp(name.data, "builtin.module", 14) == 0);
}

static MlirAttribute target_attr(MlirContext ctx, const struct target *t, int opt) {
  char text[512];
  if (t->info->vendor == TARGET_HOST)
    snprintf(text, sizeof text, "#nvvm.target<O = %d, chip = \"sm_80\">", opt);
  else if (t->info->vendor == TARGET_NVIDIA)
    snprintf(text, sizeof text, "#nvvm.target<O = %d, chip = \"%s\", features = \"%s\">", opt,
             t->info->chip, t->features);
  else
    /* Code object v5: loadable by ROCm 5.x and 6.x alike. */
    snprintf(text, sizeof text, "#rocdl.target<O = %d, chip = \"%s\", features = \"%s\", abi = \"500\">",
             opt, t->info->chip, t->features);
  return mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

/* NVIDIA: PTX that still calls __nv_* functions will not assemble. */
static int check_libdevice(const char *ptx, size_t size, const struct target *t,
                           const struct toolchain *tc) {
  const char *p = memmem(ptx, size, "__nv_", 5);
  if (!p)
    return 0;
  const char *end = p;
  while (end < ptx + size && (end[0] == '_' || (end[0] >= 'a' && end[0] <= 'z') || (end[0] >= '0' && end[0] <= '9')))
    end++;
  return diag_error("%s: device code calls '%.*s' but CUDA's libdevice was not found%s; "
                    "install the CUDA toolkit or pass --cuda-path",
                    t->id, (int)(end - p), p, tc->cuda_path[0] ? "" : " (no CUDA toolkit)");
}

/* Host target: each lowered gpu.module becomes an LLVM module, rewritten
 * for the CPU (host_kernels.c) and emitted as a PIC object. */
static int host_objects(MlirModule dev, int opt, const char *const *out_paths, size_t n) {
  MlirBlock body = mlirModuleGetBody(dev);
  size_t i = 0;
  for (MlirOperation gm = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(gm) && i < n;
       gm = mlirOperationGetNextInBlock(gm), i++) {
    char *name = frontend_symbol_name(gm);
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
    LLVMTargetMachineRef tm = mod ? lowering_host_machine(opt) : NULL;
    if (tm) {
      lowering_set_host_layout(mod, tm);
      LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
      rc = host_kernels_rewrite(mod, td, name);
      LLVMDisposeTargetData(td);
      LLVMDisposeTargetMachine(tm);
      char *msg = NULL;
      if (rc == 0 && LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg))
        rc = diag_error("internal: invalid host kernel IR for gpu.module @%s: %s", name, msg);
      LLVMDisposeMessage(msg);
      if (rc == 0)
        rc = lowering_emit_object(mod, opt, out_paths[i]);
    }
    if (mod)
      LLVMDisposeModule(mod);
    LLVMContextDispose(llctx);
    free(name);
    if (rc != 0)
      return -1;
  }
  return i == n ? 0 : diag_error("internal: %zu of %zu gpu.modules lowered for the host", i, n);
}

int lowering_device(MlirModule module, const struct target *t, const struct toolchain *tc,
                    int opt, int debug, const char *const *out_paths) {
  MlirContext ctx = mlirModuleGetContext(module);
  char activity[256];
  snprintf(activity, sizeof activity, "device code for target '%s'", t->id);
  frontend_set_activity(activity);

  MlirAttribute tattr = target_attr(ctx, t, opt);
  if (mlirAttributeIsNull(tattr)) {
    frontend_set_activity(NULL);
    return diag_error("internal: cannot build the target attribute for '%s'", t->id);
  }
  MlirAttribute targets = mlirArrayAttrGet(ctx, 1, &tattr);

  MlirModule dev = mlirModuleCreateEmpty(mlirOperationGetLocation(mlirModuleGetOperation(module)));
  MlirOperation *mods;
  size_t n = frontend_gpu_modules(module, &mods);
  for (size_t i = 0; i < n; i++) {
    MlirOperation clone = mlirOperationClone(mods[i]);
    mlirOperationSetInherentAttributeByName(clone, mlirStringRefCreateFromCString("targets"), targets);
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(dev), clone);
    if (lowering_expand_ipowi(clone) != 0 ||
        (t->info->vendor == TARGET_AMD &&
         (lowering_amd_private_allocas(clone) != 0 || lowering_amd_asserts(clone) != 0))) {
      free(mods);
      mlirModuleDestroy(dev);
      frontend_set_activity(NULL);
      return -1;
    }
  }
  free(mods);

  char pipeline[4096], serialize[4096], what[300];
  int rc = -1;
  if (build_pipeline(pipeline, sizeof pipeline, t) ||
      build_serialize(serialize, sizeof serialize, t, tc, debug)) {
    diag_error("internal: pipeline for '%s' too long", t->id);
    goto out;
  }
  snprintf(what, sizeof what, t->info->vendor == TARGET_HOST ? "the host target" : "target '%s'", t->id);
  if (frontend_lower(dev, pipeline, what, device_lowered) != 0 ||
      (strcmp(serialize, "builtin.module()") != 0 && frontend_run_pipeline(dev, serialize) != 0))
    goto out;
  if (t->info->vendor == TARGET_HOST) {
    rc = host_objects(dev, opt, out_paths, n);
    goto out;
  }

  /* gpu-module-to-binary keeps the order: the i-th op is the i-th binary. */
  size_t i = 0;
  MlirBlock body = mlirModuleGetBody(dev);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute objs = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("objects"));
    if (mlirAttributeIsNull(objs) || i >= n)
      continue;
    MlirAttribute obj = mlirArrayAttrGetElement(objs, 0);
    MlirStringRef bytes = mlirGPUObjectAttrGetObject(obj);
    if (t->info->vendor == TARGET_NVIDIA && !tc->have_libdevice &&
        check_libdevice(bytes.data, bytes.length, t, tc) != 0)
      goto out;
    if (tmp_write_file(out_paths[i], bytes.data, bytes.length) != 0)
      goto out;
    i++;
  }
  if (i != n) {
    diag_error("internal: %zu of %zu gpu.modules were serialized for '%s'", i, n, t->id);
    goto out;
  }
  rc = 0;
out:
  mlirModuleDestroy(dev);
  frontend_set_activity(NULL);
  return rc;
}

char **lowering_ptxas_argv(const struct toolchain *tc, const struct target *t, int opt,
                           int line_info, const char *const *extra, size_t nextra,
                           const char *ptx, const char *cubin) {
  static const char *const levels[] = {"-O0", "-O1", "-O2", "-O3"};
  char **argv = calloc(9 + nextra, sizeof *argv);
  if (!argv)
    BUG("out of memory");
  size_t k = 0;
  argv[k++] = (char *)tc->ptxas;
  argv[k++] = (char *)"-arch";
  argv[k++] = (char *)t->info->chip;
  argv[k++] = (char *)levels[opt < 0 ? 0 : opt > 3 ? 3 : opt];
  if (line_info)
    argv[k++] = (char *)"-lineinfo";
  for (size_t i = 0; i < nextra; i++)
    argv[k++] = (char *)extra[i];
  argv[k++] = (char *)ptx;
  argv[k++] = (char *)"-o";
  argv[k++] = (char *)cubin;
  argv[k] = NULL;
  return argv;
}
