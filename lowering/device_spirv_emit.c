/* device_spirv_emit.c: the SPIR-V kind's objects, from the converted
 * module to one file per gpu.module.
 *
 * convert-gpu-to-spirv leaves each spirv.module beside its gpu.module
 * (Vulkan's way), and gpu-module-to-binary serializes only one inside
 * it: each is moved in, given gpucc's kernel ABI (push constants, the
 * workgroup size as specialization constants, aligned buffer accesses),
 * lowered by MLIR's ABI pass (which now only writes the entry points)
 * and its version and capabilities deduced (spirv-update-vce), then
 * serialized. The decoration the serializer drops is added to the bytes
 * (device_spirv_patch.c) before they are written. */
#include "device_spirv.h"

#include "diag.h"
#include "ir.h"
#include "tmp.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/GPU.h>
#include <stdlib.h>
#include <string.h>

#define LOWER_ABI "builtin.module(gpu.module(spirv.module(spirv-lower-abi-attrs,spirv-update-vce)))"
#define SERIALIZE "builtin.module(gpu-module-to-binary)"

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

/* The spirv.module made of gpu.module gm ("__spv__<name>", beside it). */
static MlirOperation converted(MlirBlock body, MlirOperation gm) {
  char *name = ir_symbol_name(gm);
  MlirOperation found = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef s = ir_symbol_ref(op);
    if (ir_op_is(op, "spirv.module") && s.length == strlen(name) + 7 &&
        !memcmp(s.data, "__spv__", 7) && !memcmp(s.data + 7, name, s.length - 7))
      found = op;
  }
  free(name);
  return found;
}

/* Adds capability cap and extension ext to the spirv.module's
 * version-capability-extension triple, if not there. */
static void add_to_vce(MlirOperation sm, const char *cap, const char *ext) {
  MlirAttribute vce = mlirOperationGetAttributeByName(sm, str("vce_triple"));
  char text[2048], out[2300];
  ir_attr_text(vce, text, sizeof text);
  char *caps = strchr(text, '['), *exts = strrchr(text, '[');
  if (mlirAttributeIsNull(vce) || !caps || caps == exts || strstr(text, cap))
    return;
  int empty = exts[1] == ']' || !ext;
  snprintf(out, sizeof out, "%.*s%s, %.*s%s%s%s", (int)(caps + 1 - text), text, cap,
           (int)(exts + 1 - (caps + 1)), caps + 1, ext ? ext : "", empty ? "" : ", ", exts + 1);
  MlirAttribute a = mlirAttributeParseGet(mlirOperationGetContext(sm), str(out));
  if (!mlirAttributeIsNull(a))
    mlirOperationSetAttributeByName(sm, str("vce_triple"), a);
}

static MlirWalkResult find_atomic64(MlirOperation op, void *ud) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (ir_ref_starts(name, "spirv.Atomic") && mlirOperationGetNumResults(op) == 1) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64) {
      *(int *)ud = 1;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

/* What narrow values in buffers and push constants and 64-bit atomics
 * need, which spirv-update-vce leaves out (Vulkan's 8- and 16-bit storage
 * and 64-bit atomics features). */
static void add_storage_capabilities(MlirOperation sm, unsigned buffers, unsigned push) {
  int atomic64 = 0;
  mlirOperationWalk(sm, find_atomic64, &atomic64, MlirWalkPreOrder);
  if (atomic64)
    add_to_vce(sm, "Int64Atomics", NULL);
  if (buffers & SPIRV_NARROW_8)
    add_to_vce(sm, "StorageBuffer8BitAccess", "SPV_KHR_8bit_storage");
  if (push & SPIRV_NARROW_8)
    add_to_vce(sm, "StoragePushConstant8", "SPV_KHR_8bit_storage");
  if (buffers & SPIRV_NARROW_16)
    add_to_vce(sm, "StorageBuffer16BitAccess", "SPV_KHR_16bit_storage");
  if (push & SPIRV_NARROW_16)
    add_to_vce(sm, "StoragePushConstant16", "SPV_KHR_16bit_storage");
}

/* Moves each gpu.module's spirv.module into it; applies gpucc's ABI, runs
 * MLIR's ABI lowering and deduction of what the module requires, and adds
 * what that deduction misses. */
static int nest_and_adapt(MlirModule dev) {
  MlirBlock body = mlirModuleGetBody(dev);
  int rc = 0;
  for (MlirOperation gm = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(gm) && rc == 0;
       gm = mlirOperationGetNextInBlock(gm)) {
    if (!ir_op_is(gm, "gpu.module"))
      continue;
    MlirOperation sm = converted(body, gm), own = spirv_carried_module(mlirModuleGetOperation(dev), gm);
    if (!mlirOperationIsNull(own)) { /* the program's, not the empty conversion */
      if (!mlirOperationIsNull(sm))
        mlirOperationDestroy(sm);
      sm = own;
    }
    if (mlirOperationIsNull(sm))
      return ir_error_at(gm, "internal: no SPIR-V module was made of this gpu.module");
    mlirOperationRemoveFromParent(sm);
    mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0)), sm);
    unsigned push = 0;
    rc = spirv_push_constants(sm, &push) != 0 || spirv_workgroup_size(sm) != 0 ? -1 : 0;
    unsigned buffers = spirv_align_buffer_accesses(sm);
    mlirOperationSetDiscardableAttributeByName(
        sm, str("gpucc.narrow"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(mlirOperationGetContext(sm), 32), (int64_t)(buffers | push << 4)));
  }
  if (rc != 0 || ir_run_pipeline(dev, LOWER_ABI) != 0)
    return -1;
  for (MlirOperation gm = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(gm);
       gm = mlirOperationGetNextInBlock(gm)) {
    MlirBlock inside = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
    for (MlirOperation sm = mlirBlockGetFirstOperation(inside); !mlirOperationIsNull(sm);
         sm = mlirOperationGetNextInBlock(sm)) {
      MlirAttribute n = mlirOperationGetAttributeByName(sm, str("gpucc.narrow"));
      if (!ir_op_is(sm, "spirv.module") || mlirAttributeIsNull(n))
        continue;
      unsigned bits = (unsigned)mlirIntegerAttrGetValueInt(n);
      add_storage_capabilities(sm, bits & 0xf, bits >> 4);
      mlirOperationRemoveAttributeByName(sm, str("gpucc.narrow"));
    }
  }
  return 0;
}

static int write_words(const MlirStringRef bytes, const char *path) {
  size_t n = bytes.length / 4;
  if (bytes.length % 4 != 0)
    return diag_error("internal: a serialized SPIR-V module of %zu bytes", bytes.length);
  uint32_t *w = malloc(n ? n * 4 : 4);
  if (!w)
    BUG("out of memory");
  memcpy(w, bytes.data, bytes.length);
  uint32_t *patched = spirv_patch_workgroup_size(w, &n);
  free(w);
  if (!patched)
    return -1;
  int rc = tmp_write_file(path, patched, n * 4);
  free(patched);
  return rc;
}

int spirv_write_objects(MlirModule dev, int opt, const struct module_range *r,
                        const char *const *out_paths) {
  (void)opt;
  if (nest_and_adapt(dev) != 0 || ir_run_pipeline(dev, SERIALIZE) != 0)
    return -1;
  size_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(dev)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute objs = mlirOperationGetInherentAttributeByName(op, str("objects"));
    if (mlirAttributeIsNull(objs) || i >= r->count)
      continue;
    if (write_words(mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objs, 0)), out_paths[i]) != 0)
      return -1;
    i++;
  }
  return i == r->count ? 0
                       : diag_error("internal: %zu of %zu gpu.modules serialized for SPIR-V", i, r->count);
}
