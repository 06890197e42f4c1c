/* device_spirv_push.c: gpucc's kernel ABI for Vulkan: an entry point's
 * parameters in one push-constant block.
 *
 * MLIR's own lowering (spirv-lower-abi-attrs) gives every parameter,
 * scalars too, a descriptor binding of its own. gpucc's runtime binds no
 * descriptors: it reads each entry point's PushConstant block (a Block
 * struct, one member per parameter in order, at its natural alignment)
 * and copies the launch's parameters there; buffers travel as their
 * device addresses (PhysicalStorageBuffer pointers). So each entry
 * function loses its parameters here and loads them from the block, and
 * spirv-lower-abi-attrs then only writes the entry point. */
#include "device_spirv.h"

#include "diag.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirOperation parse_before(MlirOperation before, const char *text) {
  MlirOperation op =
      mlirOperationCreateParse(mlirOperationGetContext(before), str(text), str("gpucc-spirv"));
  if (mlirOperationIsNull(op))
    BUG("bad op text");
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, op);
  return op;
}

static MlirType parse_type(MlirContext ctx, const char *text) {
  MlirType t = mlirTypeParseGet(ctx, str(text));
  if (mlirTypeIsNull(t))
    BUG("bad type text");
  return t;
}

/* What a StorageBuffer type of the conversion (a buffer that atomics
 * touch: device_spirv_args.c) really is: a buffer device address. Other
 * types stay. */
static MlirType as_buffer_address(MlirContext ctx, MlirType t) {
  char text[2048], out[2400];
  ir_type_text(t, text, sizeof text);
  const char *from = ", StorageBuffer>";
  char *p = strstr(text, from);
  if (!p)
    return t;
  size_t o = 0;
  for (char *q = text; *q;) {
    if (!strncmp(q, from, strlen(from))) {
      o += (size_t)snprintf(out + o, sizeof out - o, ", PhysicalStorageBuffer>");
      q += strlen(from);
    } else if (o + 1 < sizeof out) {
      out[o++] = *q++;
      out[o] = '\0';
    } else {
      break;
    }
  }
  return parse_type(ctx, out);
}

static MlirWalkResult retype_buffers(MlirOperation op, void *ud) {
  (void)ud;
  MlirContext ctx = mlirOperationGetContext(op);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    MlirValue v = mlirOperationGetResult(op, i);
    mlirValueSetType(v, as_buffer_address(ctx, mlirValueGetType(v)));
  }
  return MlirWalkResultAdvance;
}

/* A parameter's size in the block: pointers are 64-bit addresses. */
static int64_t member_bytes(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return (mlirIntegerTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAFloat(t))
    return (mlirFloatTypeGetWidth(t) + 7) / 8;
  return 8;
}

/* %v = spirv.Load "PushConstant" (spirv.AccessChain %block[%index]). */
static MlirValue load_member(MlirOperation before, MlirValue block, int index, MlirType member) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  char text[128], type[1024], ptr[1100];
  snprintf(text, sizeof text, "%%c = spirv.Constant %d : i32", index);
  MlirValue c = mlirOperationGetResult(parse_before(before, text), 0);
  ir_type_text(member, type, sizeof type);
  snprintf(ptr, sizeof ptr, "!spirv.ptr<%s, PushConstant>", type);
  MlirType ptr_type = parse_type(ctx, ptr);
  MlirOperationState ac = mlirOperationStateGet(str("spirv.AccessChain"), loc);
  MlirValue operands[2] = {block, c};
  mlirOperationStateAddOperands(&ac, 2, operands);
  mlirOperationStateAddResults(&ac, 1, &ptr_type);
  MlirOperation chain = mlirOperationCreate(&ac);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, chain);
  MlirOperationState ld = mlirOperationStateGet(str("spirv.Load"), loc);
  MlirValue p = mlirOperationGetResult(chain, 0);
  mlirOperationStateAddOperands(&ld, 1, &p);
  mlirOperationStateAddResults(&ld, 1, &member);
  MlirOperation load = mlirOperationCreate(&ld);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, load);
  return mlirOperationGetResult(load, 0);
}

static int entry_to_push_constants(MlirOperation spirv_module, MlirOperation fn, unsigned *narrow) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  if (n == 0)
    return 0;
  size_t cap = 64 + (size_t)n * 1100, len = 0;
  char *st = malloc(cap);
  if (!st)
    BUG("out of memory");
  len += (size_t)snprintf(st, cap, "!spirv.struct<(");
  int64_t offset = 0;
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = as_buffer_address(ctx, mlirValueGetType(mlirBlockGetArgument(entry, i)));
    int64_t size = member_bytes(t);
    *narrow |= size == 1 ? SPIRV_NARROW_8 : size == 2 ? SPIRV_NARROW_16 : 0;
    offset = (offset + size - 1) / size * size;
    char type[1024];
    ir_type_text(t, type, sizeof type);
    len += (size_t)snprintf(st + len, cap - len, "%s%s [%lld]", i ? ", " : "", type, (long long)offset);
    offset += size;
  }
  snprintf(st + len, cap - len, ")>");
  char *name = ir_symbol_name(fn);
  size_t tcap = strlen(st) + strlen(name) + 200;
  char *text = malloc(tcap);
  if (!text)
    BUG("out of memory");
  /* The block variable, at the module's start. */
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(spirv_module, 0));
  snprintf(text, tcap, "spirv.GlobalVariable @__gpucc_args_%s : !spirv.ptr<%s, PushConstant>", name, st);
  MlirOperation var = mlirOperationCreateParse(ctx, str(text), str("gpucc-spirv"));
  if (mlirOperationIsNull(var))
    BUG("bad op text");
  mlirBlockInsertOwnedOperationBefore(mbody, mlirBlockGetFirstOperation(mbody), var);
  /* Its members loaded at the function's start, in place of the
   * parameters. */
  MlirOperation start = mlirBlockGetFirstOperation(entry);
  snprintf(text, tcap, "!spirv.ptr<%s, PushConstant>", st);
  MlirType block_type = parse_type(ctx, text);
  snprintf(text, tcap, "__gpucc_args_%s", name);
  MlirOperationState as = mlirOperationStateGet(str("spirv.mlir.addressof"), mlirOperationGetLocation(start));
  MlirNamedAttribute var_attr = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, str("variable")), mlirFlatSymbolRefAttrGet(ctx, str(text)));
  mlirOperationStateAddAttributes(&as, 1, &var_attr);
  mlirOperationStateAddResults(&as, 1, &block_type);
  MlirOperation addr = mlirOperationCreate(&as);
  mlirBlockInsertOwnedOperationBefore(entry, start, addr);
  MlirValue block = mlirOperationGetResult(addr, 0);
  for (intptr_t i = 0; i < n; i++) {
    MlirValue a = mlirBlockGetArgument(entry, i);
    mlirValueReplaceAllUsesOfWith(a, load_member(start, block, (int)i, as_buffer_address(ctx, mlirValueGetType(a))));
  }
  mlirOperationWalk(fn, retype_buffers, NULL, MlirWalkPreOrder);
  for (intptr_t i = n - 1; i >= 0; i--)
    mlirBlockEraseArgument(entry, (unsigned)i);
  mlirOperationSetAttributeByName(fn, str("function_type"),
                                          mlirTypeAttrGet(mlirFunctionTypeGet(ctx, 0, NULL, 0, NULL)));
  mlirOperationRemoveAttributeByName(fn, str("arg_attrs"));
  free(text);
  free(name);
  free(st);
  return 0;
}

int spirv_push_constants(MlirOperation spirv_module, unsigned *narrow) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(spirv_module, 0));
  int rc = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && rc == 0;
       op = mlirOperationGetNextInBlock(op))
    if (ir_op_is(op, "spirv.func") &&
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, str("spirv.entry_point_abi"))))
      rc = entry_to_push_constants(spirv_module, op, narrow);
  return rc;
}
