/* device_spirv_carried.c: the program's own SPIR-V, in place of gpucc's
 * lowering of the gpu.module.
 *
 * A program may carry, in a gpu.module, the spirv.module MLIR's
 * convert-gpu-to-spirv made of it (frontend/carried_code.c puts it
 * there): its kernels are spirv.funcs with spirv.entry_point_abi whose
 * arguments are the gpu.func's as written, buffers bound to descriptors
 * (spirv.interface_var_abi). gpucc's runtime binds no descriptors and
 * launches with the parameters kernel_abi.c gave the gpu.func (a memref
 * as its aligned pointer plus the dynamic parts its body reads; unread
 * arguments dropped). So each entry function gets those parameters, in
 * that order, from the record KERNEL_ARGS_ATTR: a buffer argument
 * where the launch passes its pointer, a scalar where it passes the
 * value, an unused i64 for a size, offset or stride; then the same steps
 * as gpucc's own module (device_spirv_push.c and after) give it the
 * push-constant block and buffer device addresses.
 *
 * A module already through spirv-lower-abi-attrs gets its arguments back
 * first (device_spirv_unlower.c). What this does not take: a module for
 * OpenCL (Kernel capability, Physical addressing), which no Vulkan device
 * runs (gpucc lowers the gpu.module itself then, and says so). */
#include "device_spirv.h"

#include "diag.h"
#include "frontend.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CARRIED_NAME "__gpucc_carried__"

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static int attr_mentions(MlirOperation op, const char *attr, const char *word) {
  char text[4096];
  MlirAttribute a = mlirOperationGetAttributeByName(op, str(attr));
  if (mlirAttributeIsNull(a))
    return 0;
  ir_attr_text(a, text, sizeof text);
  return strstr(text, word) != NULL;
}

/* A buffer as convert-gpu-to-spirv passes one: a StorageBuffer pointer. */
static int is_buffer(MlirType t) {
  char text[2048];
  ir_type_text(t, text, sizeof text);
  size_t n = strlen(text);
  const char *tail = ", StorageBuffer>";
  return !strncmp(text, "!spirv.ptr<", 11) && n > strlen(tail) && !strcmp(text + n - strlen(tail), tail);
}

/* Gives entry function fn the parameters of kernel k, which the record
 * on k says how to make of fn's arguments. Returns 0 or -1 (reported). */
static int take_parameters(MlirOperation fn, MlirOperation k, const char *name) {
  MlirAttribute rec = mlirOperationGetDiscardableAttributeByName(k, str(KERNEL_ARGS_ATTR));
  if (mlirAttributeIsNull(rec) || !mlirAttributeIsADenseI32Array(rec))
    return ir_error_at(k, "internal: no record of kernel '%s''s parameters", name);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirContext ctx = mlirOperationGetContext(fn);
  intptr_t nold = mlirBlockGetNumArguments(entry);
  intptr_t nnew = mlirDenseArrayGetNumElements(rec) / 2;
  int *passed = calloc((size_t)nold + 1, sizeof *passed);
  if (!passed)
    BUG("out of memory");
  /* Checked first, so that an error leaves fn as it was. */
  for (intptr_t i = 0; i < nnew; i++) {
    int32_t src = mlirDenseI32ArrayGetElement(rec, 2 * i), part = mlirDenseI32ArrayGetElement(rec, 2 * i + 1);
    if (src < 0 || src >= nold) {
      free(passed);
      return ir_error_at(fn, "the program's SPIR-V kernel '%s' has %ld arguments, but its gpu.func "
                             "has more",
                         name, (long)nold);
    }
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, src));
    if ((part == KERNEL_ARG_POINTER && !is_buffer(t)) || (part == KERNEL_ARG_WHOLE && is_buffer(t))) {
      free(passed);
      return ir_error_at(fn, "argument %d of the program's SPIR-V kernel '%s' is %s, but the "
                             "gpu.func's is %s",
                         (int)src, name, is_buffer(t) ? "a buffer" : "not a buffer",
                         part == KERNEL_ARG_POINTER ? "a memref" : "not a memref");
    }
    if (part == KERNEL_ARG_POINTER || part == KERNEL_ARG_WHOLE)
      passed[src] = 1;
  }
  for (intptr_t i = 0; i < nold; i++)
    if (!passed[i] && !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirBlockGetArgument(entry, i)))) {
      free(passed);
      return ir_error_at(fn, "the program's SPIR-V kernel '%s' reads argument %ld, which its "
                             "gpu.func never reads, so no launch passes it",
                         name, (long)i);
    }
  free(passed);
  /* The new arguments after the old, which then go. */
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType *types = calloc((size_t)nnew + 1, sizeof *types);
  if (!types)
    BUG("out of memory");
  for (intptr_t i = 0; i < nnew; i++) {
    int32_t src = mlirDenseI32ArrayGetElement(rec, 2 * i), part = mlirDenseI32ArrayGetElement(rec, 2 * i + 1);
    MlirValue old = mlirBlockGetArgument(entry, src);
    int whole = part == KERNEL_ARG_POINTER || part == KERNEL_ARG_WHOLE;
    types[i] = whole ? mlirValueGetType(old) : i64;
    MlirValue arg = mlirBlockAddArgument(entry, types[i], mlirOperationGetLocation(fn));
    if (whole)
      mlirValueReplaceAllUsesOfWith(old, arg);
  }
  for (intptr_t i = 0; i < nold; i++)
    mlirBlockEraseArgument(entry, 0);
  mlirOperationSetAttributeByName(fn, str("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nnew, types, 0, NULL)));
  mlirOperationRemoveAttributeByName(fn, str("arg_attrs"));
  free(types);
  return 0;
}

/* Whether sm is SPIR-V a Vulkan device can run; else a warning. */
static int runs_on_vulkan(MlirOperation sm, MlirOperation gm) {
  if (!attr_mentions(sm, "addressing_model", "Physical32") &&
      !attr_mentions(sm, "addressing_model", "Physical64") &&
      !attr_mentions(sm, "memory_model", "OpenCL") && !attr_mentions(sm, "vce_triple", "Kernel,") &&
      !attr_mentions(sm, "vce_triple", "Kernel]"))
    return 1;
  char *s = ir_symbol_name(sm), *g = ir_symbol_name(gm);
  ir_warning_at(sm, "spirv.module '@%s' is SPIR-V for OpenCL (Kernel capability, Physical "
                    "addressing), which Vulkan cannot run: target 'spirv' lowers gpu.module "
                    "'@%s' itself",
                s ? s : "", g ? g : "");
  free(s);
  free(g);
  return 0;
}

int spirv_take_carried_module(MlirOperation gm) {
  MlirOperation sm = frontend_carried_code(gm);
  if (mlirOperationIsNull(sm))
    return 0;
  if (!runs_on_vulkan(sm, gm)) {
    mlirOperationDestroy(sm);
    return 0;
  }
  if (spirv_unlower_entry_points(sm, gm) != 0)
    return -1;
  char *sname = ir_symbol_name(sm);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
  int rc = 0;
  for (MlirOperation k = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(k) && rc == 0;
       k = mlirOperationGetNextInBlock(k)) {
    if (!ir_is_kernel(k))
      continue;
    char *name = ir_symbol_name(k);
    MlirOperation fn = ir_find_child(sm, "spirv.func", name);
    if (mlirOperationIsNull(fn) ||
        mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(fn, str("spirv.entry_point_abi"))))
      rc = ir_error_at(k, "kernel '%s' has no entry point in the program's spirv.module '@%s' (a "
                          "spirv.func of that name with spirv.entry_point_abi)",
                       name, sname ? sname : "");
    else if (mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
      rc = ir_error_at(fn, "entry point '%s' of the program's SPIR-V has no body", name);
    else
      rc = take_parameters(fn, k, name);
    free(name);
  }
  free(sname);
  if (rc != 0)
    return -1;
  /* Buffers become buffer device addresses (device_spirv_push.c), and
   * what the module requires is deduced against the target's environment
   * (the gpu.module's target attribute), as for gpucc's own module. */
  MlirContext ctx = mlirOperationGetContext(sm);
  MlirAttribute targets = mlirOperationGetInherentAttributeByName(gm, str("targets"));
  if (!mlirAttributeIsNull(targets) && mlirArrayAttrGetNumElements(targets) == 1)
    mlirOperationSetAttributeByName(sm, str("spirv.target_env"), mlirArrayAttrGetElement(targets, 0));
  mlirOperationSetAttributeByName(
      sm, str("addressing_model"),
      mlirAttributeParseGet(ctx, str("#spirv.addressing_model<PhysicalStorageBuffer64>")));
  /* The gpu.module's own code is not lowered: beside it, under a name of
   * its own, the program's waits for spirv_write_objects. */
  char *g = ir_symbol_name(gm);
  char name[512];
  snprintf(name, sizeof name, CARRIED_NAME "%s", g ? g : "");
  free(g);
  mlirOperationSetAttributeByName(sm, str("sym_name"), mlirStringAttrGet(ctx, str(name)));
  mlirOperationRemoveFromParent(sm);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(gm), gm, sm);
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    mlirOperationDestroy(op);
  }
  return 1;
}

MlirOperation spirv_carried_module(MlirOperation dev, MlirOperation gm) {
  char *g = ir_symbol_name(gm);
  char name[512];
  snprintf(name, sizeof name, CARRIED_NAME "%s", g ? g : "");
  free(g);
  return ir_find_child(dev, "spirv.module", name);
}
