/* device.c: one target's device code for every gpu.module of a program,
 * or one family's (device_family.c): lowered once, code per chip.
 *
 * The gpu.modules are cloned into a fresh module (the host code is not
 * needed), given this target alone, lowered by the pipeline of the target's
 * kind (target_<kind>.c), checked for leftovers, and serialized: one file
 * per gpu.module (PTX text for NVIDIA, because ptxas runs as its own job
 * afterwards; a linked hsaco for AMD; an object for the host target, which
 * its kind translates itself). Nothing here depends on the vendor. */
#include "lowering.h"

#include "device_contract.h"
#include "device_ipowi.h"
#include "device_linkage.h"
#include "device_subgroup.h"
#include "device_workgroup.h"
#include "diag.h"
#include "frontend.h"
#include "target_kinds.h"
#include "tmp.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Dialect/GPU.h>
#include <llvm-c/Support.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *lowering_part_path(const char *path, size_t i) {
  const char *slash = strrchr(path, '/');
  const char *dot = strrchr(slash ? slash + 1 : path, '.');
  size_t stem = dot ? (size_t)(dot - path) : strlen(path);
  return xasprintf("%.*s.part%zu%s", (int)stem, path, i, dot ? dot : "");
}

/* The kind's dialects of lowered ops (its row's `lowered`), for
 * device_lowered: ir_lower's callback takes no data of its own. */
static _Thread_local const char *const *lowered_dialects;

/* Lowered device code: LLVM dialect ops, the kind's own ops (translated
 * to intrinsics) and the containers. */
static int device_lowered(MlirStringRef name) {
  for (size_t i = 0; lowered_dialects && lowered_dialects[i]; i++)
    if (ir_ref_starts(name, lowered_dialects[i]))
      return 1;
  return ir_ref_starts(name, "llvm.") || ir_ref_is(name, "gpu.module") ||
         ir_ref_is(name, "builtin.module");
}

/* The gpu.module `targets` attribute for t at -O<opt>: the kind's target
 * attribute, alone in an array. Returns 0, or -1 reported. */
static int targets_attr(MlirContext ctx, const struct target *t, int opt, MlirAttribute *out) {
  char text[512];
  t->info->kind->lowering->attr(text, sizeof text, t, opt);
  MlirAttribute tattr = mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirAttributeIsNull(tattr))
    return diag_error("internal: cannot build the target attribute for '%s'", t->id);
  *out = mlirArrayAttrGet(ctx, 1, &tattr);
  return 0;
}

/* The program's own lowered kernels that gpu.module gm carries are for
 * the kind that takes them (its row's carried_code, targets.h); the
 * others lower the gpu.module's kernels. */
static void drop_carried_code(MlirOperation gm) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (frontend_is_carried_code(op))
      mlirOperationDestroy(op);
  }
}

/* What each kernel parameter is made of (frontend/kernel_abi.c records it
 * where a gpu.module carries code) is for prepare_module alone. */
static void forget_kernel_args(MlirOperation gm) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    mlirOperationRemoveDiscardableAttributeByName(op, mlirStringRefCreateFromCString(KERNEL_ARGS_ATTR));
}

/* The gpu.modules of `module` in range r, cloned into a new module for
 * target t. */
static int clone_modules(MlirModule module, const struct target *t, int opt,
                         const struct module_range *r, MlirModule dev) {
  const struct target_lowering *l = t->info->kind->lowering;
  MlirAttribute targets;
  if (targets_attr(mlirModuleGetContext(module), t, opt, &targets) != 0)
    return -1;
  MlirOperation *mods;
  size_t n = ir_gpu_modules(module, &mods);
  if (n != r->total || r->first + r->count > n) {
    free(mods);
    return diag_error("internal: gpu.modules %zu to %zu of %zu asked of a program of %zu",
                      r->first, r->first + r->count, r->total, n);
  }
  int rc = 0;
  for (size_t i = r->first; i < r->first + r->count && rc == 0; i++) {
    MlirOperation clone = mlirOperationClone(mods[i]);
    mlirOperationSetInherentAttributeByName(clone, mlirStringRefCreateFromCString("targets"), targets);
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(dev), clone);
    if (!t->info->kind->carried_code.op)
      drop_carried_code(clone);
    if ((l->early_module && l->early_module(clone, t) != 0) || lowering_expand_ipowi(clone) != 0 ||
        lowering_expand_subgroup_ops(clone, t) != 0 ||
        (l->prepare_module && l->prepare_module(clone, t) != 0))
      rc = -1;
    forget_kernel_args(clone);
    frontend_minmax_to_llvm(clone);
  }
  free(mods);
  return rc;
}

static MlirWalkResult bound_kernel(MlirOperation op, void *ud) {
  const struct target_lowering *l = ud;
  if (!ir_op_is(op, "llvm.func"))
    return MlirWalkResultAdvance;
  if (!mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          op, mlirStringRefCreateFromCString("gpu.kernel"))))
    l->launch_bounds(op);
  return MlirWalkResultSkip;
}

/* The kind's LLVM options, once per process: a device job lowers for one
 * target, in a process of its own. */
static void set_llvm_options(const struct target_lowering *l) {
  static int done;
  if (!l->llvm_options || done)
    return;
  const char *argv[8] = {"gpucc"};
  int argc = 1;
  for (size_t i = 0; l->llvm_options[i] && argc < 8; i++)
    argv[argc++] = l->llvm_options[i];
  LLVMParseCommandLineOptions(argc, argv, NULL);
  done = 1;
}

/* What LLVM's lowering leaves out that nvcc and hipcc give device code:
 * aligned workgroup arrays, contraction, launch bounds, and what else the
 * kind's code generator needs. */
static void finish_lowered(MlirModule dev, const struct target_lowering *l,
                           const struct device_codegen *cg) {
  MlirOperation root = mlirModuleGetOperation(dev);
  lowering_internalize_device_functions(dev, l->kernel_attr);
  lowering_align_workgroup_arrays(root);
  lowering_contract_fp(root, cg->contract);
  if (l->launch_bounds)
    mlirOperationWalk(root, bound_kernel, (void *)l, MlirWalkPreOrder);
  MlirOperation *mods;
  size_t n = ir_gpu_modules(dev, &mods);
  for (size_t i = 0; i < n && l->finish_module; i++)
    l->finish_module(mods[i]);
  free(mods);
  set_llvm_options(l);
}

/* gpu-module-to-binary keeps the order: the i-th op is the i-th binary. */
static int write_serialized(MlirModule dev, const struct target *t, const struct toolchain *tc,
                            int opt, const char *const *out_paths, const struct device_parts *parts,
                            size_t n) {
  const struct target_lowering *l = t->info->kind->lowering;
  size_t i = 0;
  MlirBlock body = mlirModuleGetBody(dev);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute objs = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("objects"));
    if (mlirAttributeIsNull(objs) || i >= n)
      continue;
    MlirStringRef bytes = mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objs, 0));
    if (l->codegen) {
      if (l->codegen(bytes.data, bytes.length, t, tc, opt, parts ? &parts[i] : NULL, out_paths[i]) != 0)
        return -1;
      i++;
      continue;
    }
    if (l->check_object && l->check_object(bytes.data, bytes.length, t, tc) != 0)
      return -1;
    if (tmp_write_file(out_paths[i], bytes.data, bytes.length) != 0)
      return -1;
    i++;
  }
  if (i != n)
    return diag_error("internal: %zu of %zu gpu.modules were serialized for '%s'", i, n, t->id);
  return 0;
}

/* Sets target t on every gpu.module of dev: what the serialization
 * optimizes for. */
static int retarget(MlirModule dev, const struct target *t, int opt) {
  MlirAttribute targets;
  if (targets_attr(mlirModuleGetContext(dev), t, opt, &targets) != 0)
    return -1;
  MlirOperation *mods;
  size_t n = ir_gpu_modules(dev, &mods);
  for (size_t i = 0; i < n; i++)
    mlirOperationSetInherentAttributeByName(mods[i], mlirStringRefCreateFromCString("targets"), targets);
  free(mods);
  return 0;
}

/* Serializes the lowered module dev (for ts[0]) and writes the files of
 * the nt targets ts from it: out_paths holds r->count paths per target,
 * in the order of ts. More than one target: the kind generates code per
 * chip from the one optimized module (its `codegen`). */
static int serialize_and_write(MlirModule dev, const struct target *const *ts, size_t nt,
                               const struct toolchain *tc, const struct device_codegen *cg,
                               const struct module_range *r, const char *const *out_paths) {
  const struct target_lowering *l = ts[0]->info->kind->lowering;
  char serialize[4096];
  if (l->serialize(serialize, sizeof serialize, ts[0], tc, cg->debug))
    return diag_error("internal: pipeline for '%s' too long", ts[0]->id);
  if (strcmp(serialize, "builtin.module()") != 0 && ir_run_pipeline(dev, serialize) != 0)
    return -1;
  if (l->write_objects)
    return l->write_objects(dev, cg->opt, r, out_paths);
  for (size_t k = 0; k < nt; k++)
    if (write_serialized(dev, ts[k], tc, cg->opt, out_paths + k * r->count,
                         cg->parts ? cg->parts + k * r->count : NULL, r->count) != 0)
      return -1;
  return 0;
}

int lowering_device_family(const struct program *prog, const struct target *const *ts, size_t nt,
                           const struct toolchain *tc, const struct device_codegen *cg,
                           const struct module_range *r, const char *const *out_paths) {
  MlirModule module = program_mlir(prog);
  const struct target *t = ts[0];
  const struct target_lowering *l = t->info->kind->lowering;
  char activity[256];
  size_t k = (size_t)snprintf(activity, sizeof activity, "device code for target '%s'", t->id);
  for (size_t i = 1; i < nt && k < sizeof activity; i++)
    k += (size_t)snprintf(activity + k, sizeof activity - k, "%s'%s'", i + 1 == nt ? " and " : ", ",
                          ts[i]->id);
  ir_set_activity(activity);

  MlirModule dev = mlirModuleCreateEmpty(mlirOperationGetLocation(mlirModuleGetOperation(module)));
  char pipeline[4096], what[300];
  int rc = -1;
  if (clone_modules(module, t, cg->opt, r, dev) != 0)
    goto out;
  if (l->pipeline(pipeline, sizeof pipeline, t)) {
    diag_error("internal: pipeline for '%s' too long", t->id);
    goto out;
  }
  l->describe(t, what, sizeof what);
  lowered_dialects = l->lowered;
  int lowered = ir_lower(dev, pipeline, what, device_lowered);
  lowered_dialects = NULL;
  if (lowered != 0)
    goto out;
  finish_lowered(dev, l, cg);
  if (nt == 1 || !l->links_chip_code || !l->links_chip_code(dev)) {
    rc = serialize_and_write(dev, ts, nt, tc, cg, r, out_paths);
    goto out;
  }
  /* The library code optimization links reads the chip: one lowering, but
   * each chip's own optimization, on a copy targeted at it. The last chip
   * takes the lowered module itself: nothing reads it afterwards, and a
   * copy of a whole lowered module is not free. */
  rc = 0;
  for (size_t i = 0; i < nt && rc == 0; i++) {
    int last = i + 1 == nt;
    MlirModule copy =
        last ? dev : mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(dev)));
    struct device_codegen chip = *cg;
    if (cg->parts)
      chip.parts = cg->parts + i * r->count;
    rc = retarget(copy, ts[i], cg->opt) != 0
             ? -1
             : serialize_and_write(copy, &ts[i], 1, tc, &chip, r, out_paths + i * r->count);
    if (!last)
      mlirModuleDestroy(copy);
  }
out:
  mlirModuleDestroy(dev);
  ir_set_activity(NULL);
  return rc;
}

int lowering_device(const struct program *prog, const struct target *t, const struct toolchain *tc,
                    const struct device_codegen *cg, const struct module_range *r,
                    const char *const *out_paths) {
  return lowering_device_family(prog, &t, 1, tc, cg, r, out_paths);
}
