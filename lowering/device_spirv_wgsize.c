/* device_spirv_wgsize.c: the workgroup size of a launch, for kernels
 * that do not fix it.
 *
 * Vulkan fixes a compute shader's workgroup size when its pipeline is
 * made. gpucc's runtime makes one per block shape and sets it through
 * specialization constants 0, 1, 2, combined into the composite that
 * Vulkan reads as the WorkgroupSize builtin. MLIR's conversion reads
 * gpu.block_dim from a WorkgroupSize input variable instead, which Vulkan
 * forbids: here its loads become the composite. (The BuiltIn decoration of
 * the composite is added after serialization: device_spirv_patch.c.)
 * Also: accesses through buffer pointers get the alignment Vulkan wants. */
#include "device_spirv.h"

#include "diag.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPOSITE "__gpucc_workgroup_size"

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirOperation parse_op(MlirContext ctx, const char *text) {
  MlirOperation op = mlirOperationCreateParse(ctx, str(text), str("gpucc-spirv"));
  if (mlirOperationIsNull(op))
    BUG("bad op text");
  return op;
}

static int has_fixed_size(MlirOperation fn) {
  MlirAttribute abi = mlirOperationGetAttributeByName(fn, str("spirv.entry_point_abi"));
  char text[256];
  ir_attr_text(abi, text, sizeof text);
  return strstr(text, "workgroup_size") != NULL;
}

/* The input variable decorated WorkgroupSize, or null. */
static MlirOperation builtin_variable(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ir_op_is(op, "spirv.GlobalVariable"))
      continue;
    MlirAttribute b = mlirOperationGetAttributeByName(op, str("built_in"));
    if (!mlirAttributeIsNull(b) && mlirAttributeIsAString(b)) {
      MlirStringRef s = mlirStringAttrGetValue(b);
      if (ir_ref_is(s, "WorkgroupSize"))
        return op;
    }
  }
  return (MlirOperation){NULL};
}

struct uses {
  MlirStringRef variable;
  MlirOperation *found;
  size_t n, cap;
};

static MlirWalkResult find_addressof(MlirOperation op, void *ud) {
  struct uses *u = ud;
  if (!ir_op_is(op, "spirv.mlir.addressof"))
    return MlirWalkResultAdvance;
  MlirAttribute v = mlirOperationGetAttributeByName(op, str("variable"));
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(v);
  if (name.length != u->variable.length || memcmp(name.data, u->variable.data, name.length) != 0)
    return MlirWalkResultAdvance;
  if (u->n == u->cap && !(u->found = realloc(u->found, (u->cap = u->cap * 2 + 8) * sizeof *u->found)))
    BUG("out of memory");
  u->found[u->n++] = op;
  return MlirWalkResultAdvance;
}

int spirv_workgroup_size(MlirOperation spirv_module) {
  MlirContext ctx = mlirOperationGetContext(spirv_module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(spirv_module, 0));
  int needed = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ir_op_is(op, "spirv.func") &&
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, str("spirv.entry_point_abi"))) &&
        !has_fixed_size(op))
      needed = 1;
  MlirOperation var = builtin_variable(body);
  if (!needed && mlirOperationIsNull(var))
    return 0;
  static const char *const parts[] = {
      "spirv.SpecConstant @__gpucc_workgroup_x spec_id(0) = 1 : i32",
      "spirv.SpecConstant @__gpucc_workgroup_y spec_id(1) = 1 : i32",
      "spirv.SpecConstant @__gpucc_workgroup_z spec_id(2) = 1 : i32",
  };
  MlirOperation first = mlirBlockGetFirstOperation(body);
  for (size_t i = 0; i < 3; i++)
    mlirBlockInsertOwnedOperationBefore(body, first, parse_op(ctx, parts[i]));
  /* The composite's verifier looks its parts up: built in place, not
   * parsed alone. */
  MlirOperationState cs = mlirOperationStateGet(str("spirv.SpecConstantComposite"),
                                                mlirOperationGetLocation(spirv_module));
  MlirAttribute parts_ref[3] = {mlirFlatSymbolRefAttrGet(ctx, str("__gpucc_workgroup_x")),
                                mlirFlatSymbolRefAttrGet(ctx, str("__gpucc_workgroup_y")),
                                mlirFlatSymbolRefAttrGet(ctx, str("__gpucc_workgroup_z"))};
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("sym_name")), mlirStringAttrGet(ctx, str(COMPOSITE))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("type")),
                            mlirTypeAttrGet(mlirTypeParseGet(ctx, str("vector<3xi32>")))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("constituents")), mlirArrayAttrGet(ctx, 3, parts_ref)),
  };
  mlirOperationStateAddAttributes(&cs, 3, attrs);
  mlirBlockInsertOwnedOperationBefore(body, first, mlirOperationCreate(&cs));
  if (mlirOperationIsNull(var))
    return 0;
  /* Each load of the variable reads the composite instead. */
  struct uses u = {ir_symbol_ref(var), NULL, 0, 0};
  mlirOperationWalk(spirv_module, find_addressof, &u, MlirWalkPreOrder);
  for (size_t i = 0; i < u.n; i++) {
    MlirValue addr = mlirOperationGetResult(u.found[i], 0);
    MlirOpOperand use;
    while (!mlirOpOperandIsNull(use = mlirValueGetFirstUse(addr))) {
      MlirOperation load = mlirOpOperandGetOwner(use);
      if (!ir_op_is(load, "spirv.Load"))
        return ir_error_at(load, "internal: the WorkgroupSize variable used other than loaded");
      MlirOperationState rs = mlirOperationStateGet(str("spirv.mlir.referenceof"), mlirOperationGetLocation(load));
      MlirNamedAttribute spec = mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("spec_const")),
                                                      mlirFlatSymbolRefAttrGet(ctx, str(COMPOSITE)));
      MlirType v3 = mlirValueGetType(mlirOperationGetResult(load, 0));
      mlirOperationStateAddAttributes(&rs, 1, &spec);
      mlirOperationStateAddResults(&rs, 1, &v3);
      MlirOperation ref = mlirOperationCreate(&rs);
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(load), load, ref);
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(load, 0), mlirOperationGetResult(ref, 0));
      mlirOperationDestroy(load);
    }
    mlirOperationDestroy(u.found[i]);
  }
  free(u.found);
  mlirOperationDestroy(var);
  return 0;
}

/* ---- Aligned on buffer accesses ---------------------------------------- */

static int64_t scalar_bytes(MlirType t) {
  if (mlirTypeIsAVector(t))
    t = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsAInteger(t))
    return (mlirIntegerTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAFloat(t))
    return (mlirFloatTypeGetWidth(t) + 7) / 8;
  return 0;
}

static MlirWalkResult align_access(MlirOperation op, void *ud) {
  unsigned *narrow = ud;
  int load = ir_op_is(op, "spirv.Load");
  if (!load && !ir_op_is(op, "spirv.Store"))
    return MlirWalkResultAdvance;
  char ptr[512];
  ir_type_text(mlirValueGetType(mlirOperationGetOperand(op, 0)), ptr, sizeof ptr);
  if (!strstr(ptr, "PhysicalStorageBuffer>") || strncmp(ptr, "!spirv.ptr<", 11) != 0)
    return MlirWalkResultAdvance;
  MlirType v = load ? mlirValueGetType(mlirOperationGetResult(op, 0))
                    : mlirValueGetType(mlirOperationGetOperand(op, 1));
  int64_t bytes = scalar_bytes(v);
  if (bytes <= 0)
    return MlirWalkResultAdvance;
  *narrow |= bytes == 1 ? SPIRV_NARROW_8 : bytes == 2 ? SPIRV_NARROW_16 : 0;
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, str("memory_access"))))
    return MlirWalkResultAdvance;
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(op, str("memory_access"),
                                  mlirAttributeParseGet(ctx, str("#spirv.memory_access<Aligned>")));
  mlirOperationSetAttributeByName(op, str("alignment"),
                                  mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), bytes));
  return MlirWalkResultAdvance;
}

unsigned spirv_align_buffer_accesses(MlirOperation spirv_module) {
  unsigned narrow = 0;
  mlirOperationWalk(spirv_module, align_access, &narrow, MlirWalkPreOrder);
  return narrow;
}
