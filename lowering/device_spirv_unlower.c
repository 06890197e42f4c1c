/* device_spirv_unlower.c: a program's own SPIR-V that has been through
 * MLIR's spirv-lower-abi-attrs, back in the form convert-gpu-to-spirv
 * writes, which device_spirv_carried.c takes.
 *
 * Lowered, an entry function has no arguments: each of the gpu.func's
 * arguments is a StorageBuffer variable bound to descriptor set 0 at the
 * argument's index (`bind(0, i)`), a scalar wrapped in a one-member struct
 * that the function loads (AccessChain [0], Load), and the entry point
 * and its workgroup size are spirv.EntryPoint and spirv.ExecutionMode ops.
 * Here each entry function gets its arguments again: a buffer where a
 * buffer variable was, the scalar where the loads of a wrapped scalar
 * were, an unused placeholder for an argument it never reads (of the type
 * the launch passes: the gpu.func's parameter, or an i32 for one the
 * gpu.func drops); its entry point becomes spirv.entry_point_abi again, and
 * the variables nothing uses any more go. */
#include "device_spirv.h"

#include "diag.h"
#include "frontend.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bindings beyond this are not arguments MLIR's conversion makes. */
#define MAX_ARGS 256

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirBlock module_body(MlirOperation sm) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(sm, 0));
}

/* The symbol an op's attribute `name` refers to, or an empty string. */
static void symbol_of(MlirOperation op, const char *name, char *buf, size_t size) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, str(name));
  buf[0] = '\0';
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a)) {
    MlirStringRef s = mlirFlatSymbolRefAttrGetValue(a);
    snprintf(buf, size, "%.*s", (int)s.length, s.data);
  }
}

static int64_t int_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, str(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
}

/* What an entry function reads through descriptors: per binding, the
 * addressof ops of its variable (several where the function takes the
 * address more than once) and the variable's type. */
struct bound {
  MlirOperation *addrs;
  size_t n;
  MlirType type;
  int present;
};

struct walk {
  MlirOperation sm;
  struct bound *b;
  int max;
  int bad; /* a descriptor set other than 0, or a binding out of range */
  MlirOperation bad_at;
};

static MlirWalkResult find_bound(MlirOperation op, void *ud) {
  struct walk *w = ud;
  if (!ir_op_is(op, "spirv.mlir.addressof"))
    return MlirWalkResultAdvance;
  char name[512];
  symbol_of(op, "variable", name, sizeof name);
  MlirOperation var = ir_find_child(w->sm, "spirv.GlobalVariable", name);
  if (mlirOperationIsNull(var) || int_attr(var, "binding") < 0)
    return MlirWalkResultAdvance;
  int64_t set = int_attr(var, "descriptor_set"), b = int_attr(var, "binding");
  if (set != 0 || b >= MAX_ARGS) {
    w->bad = 1;
    w->bad_at = var;
    return MlirWalkResultInterrupt;
  }
  struct bound *x = &w->b[b];
  x->addrs = realloc(x->addrs, (x->n + 1) * sizeof *x->addrs);
  if (!x->addrs)
    BUG("out of memory");
  x->addrs[x->n++] = op;
  x->type = mlirValueGetType(mlirOperationGetResult(op, 0));
  x->present = 1;
  if (b > w->max)
    w->max = (int)b;
  return MlirWalkResultAdvance;
}

/* `!spirv.ptr<!spirv.struct<(T [0])>, StorageBuffer>` with T a scalar:
 * how MLIR passes a scalar argument through a descriptor. */
static int wrapped_scalar(MlirType t, char *scalar, size_t size) {
  char text[512];
  ir_type_text(t, text, sizeof text);
  const char *head = "!spirv.ptr<!spirv.struct<(", *tail = " [0])>, StorageBuffer>";
  size_t n = strlen(text), h = strlen(head), tl = strlen(tail);
  if (n <= h + tl || strncmp(text, head, h) || strcmp(text + n - tl, tail))
    return 0;
  snprintf(scalar, size, "%.*s", (int)(n - h - tl), text + h);
  return scalar[0] == 'i' || scalar[0] == 'f' || !strcmp(scalar, "bf16");
}

/* Replaces the loads of a wrapped scalar (AccessChain [0], Load) by arg.
 * Returns 0, or -1 (reported) where the function does anything else with
 * it. */
static int replace_scalar_loads(MlirOperation addr, MlirValue arg, const char *fn_name, int index) {
  MlirValue p = mlirOperationGetResult(addr, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(p); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation chain = mlirOpOperandGetOwner(u);
    int ok = ir_op_is(chain, "spirv.AccessChain") && mlirOperationGetNumOperands(chain) == 2;
    MlirValue elem = ok ? mlirOperationGetResult(chain, 0) : p;
    for (MlirOpOperand v = mlirValueGetFirstUse(elem); ok && !mlirOpOperandIsNull(v); v = mlirOpOperandGetNextUse(v))
      ok = ir_op_is(mlirOpOperandGetOwner(v), "spirv.Load");
    if (!ok)
      return ir_error_at(chain, "the program's SPIR-V kernel '%s' does more than load its scalar "
                                "argument %d",
                         fn_name, index);
  }
  MlirOpOperand u;
  while (!mlirOpOperandIsNull(u = mlirValueGetFirstUse(p))) {
    MlirOperation chain = mlirOpOperandGetOwner(u);
    MlirValue elem = mlirOperationGetResult(chain, 0);
    MlirOpOperand v;
    while (!mlirOpOperandIsNull(v = mlirValueGetFirstUse(elem))) {
      MlirOperation load = mlirOpOperandGetOwner(v);
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(load, 0), arg);
      mlirOperationDestroy(load);
    }
    mlirOperationDestroy(chain);
  }
  mlirOperationDestroy(addr);
  return 0;
}

/* The type the launch passes for argument `src` of kernel k, which its
 * record says (KERNEL_ARGS_ATTR); NULL type where it passes none. */
static MlirType passed_type(MlirOperation k, int src, int *pointer) {
  MlirAttribute rec = mlirOperationGetDiscardableAttributeByName(k, str(KERNEL_ARGS_ATTR));
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetInherentAttributeByName(k, str("function_type")));
  MlirType none = {NULL};
  *pointer = 0;
  if (mlirAttributeIsNull(rec) || !mlirAttributeIsADenseI32Array(rec))
    return none;
  for (intptr_t i = 0; i + 1 < mlirDenseArrayGetNumElements(rec); i += 2) {
    if (mlirDenseI32ArrayGetElement(rec, i) != src)
      continue;
    int part = mlirDenseI32ArrayGetElement(rec, i + 1);
    if (part == KERNEL_ARG_POINTER) {
      *pointer = 1;
      return none;
    }
    if (part == KERNEL_ARG_WHOLE && i / 2 < mlirFunctionTypeGetNumInputs(ft)) {
      MlirType t = mlirFunctionTypeGetInput(ft, i / 2);
      return mlirTypeIsAIndex(t) ? mlirIntegerTypeGet(mlirTypeGetContext(t), 64) : t;
    }
  }
  return none;
}

/* The placeholder for argument i, which the function never reads. */
static MlirType placeholder(MlirContext ctx, MlirOperation k, int i) {
  int pointer;
  MlirType t = passed_type(k, i, &pointer);
  if (pointer)
    return mlirTypeParseGet(ctx, str("!spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, "
                                     "StorageBuffer>"));
  if (!mlirTypeIsNull(t) && (mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t)))
    return t;
  return mlirIntegerTypeGet(ctx, 32);
}

/* Removes the EntryPoint and ExecutionMode ops of function `name`; abi
 * gets the spirv.entry_point_abi they amount to (the LocalSize mode's
 * workgroup size). */
static void take_entry_ops(MlirOperation sm, const char *name, char *abi, size_t size) {
  snprintf(abi, size, "#spirv.entry_point_abi<>");
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(sm)); !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    int entry = ir_op_is(op, "spirv.EntryPoint"), mode = ir_op_is(op, "spirv.ExecutionMode");
    if (!entry && !mode)
      continue;
    char target[512];
    symbol_of(op, "fn", target, sizeof target);
    if (strcmp(target, name))
      continue;
    char text[256];
    ir_attr_text(mlirOperationGetAttributeByName(op, str("execution_mode")), text, sizeof text);
    MlirAttribute values = mlirOperationGetAttributeByName(op, str("values"));
    if (mode && strstr(text, "LocalSize>") && !mlirAttributeIsNull(values) &&
        mlirArrayAttrGetNumElements(values) == 3)
      snprintf(abi, size, "#spirv.entry_point_abi<workgroup_size = [%lld, %lld, %lld]>",
               (long long)mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(values, 0)),
               (long long)mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(values, 1)),
               (long long)mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(values, 2)));
    mlirOperationDestroy(op);
  }
}

/* The entry point of fn as spirv.entry_point_abi again. */
static void restore_entry_point(MlirOperation sm, MlirOperation fn, const char *name) {
  char abi[160];
  take_entry_ops(sm, name, abi, sizeof abi);
  mlirOperationSetDiscardableAttributeByName(fn, str("spirv.entry_point_abi"),
                                             mlirAttributeParseGet(mlirOperationGetContext(fn), str(abi)));
}

static int has_entry_point(MlirOperation sm, const char *name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(sm)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    char target[512];
    if (!ir_op_is(op, "spirv.EntryPoint"))
      continue;
    symbol_of(op, "fn", target, sizeof target);
    if (!strcmp(target, name))
      return 1;
  }
  return 0;
}

/* Gives entry function fn of kernel k its arguments back. Returns 0 or -1
 * (reported). */
static int unlower_entry(MlirOperation sm, MlirOperation fn, MlirOperation k, const char *name) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  if (!has_entry_point(sm, name) || mlirBlockIsNull(entry) || mlirBlockGetNumArguments(entry) != 0)
    return 0; /* not lowered: device_spirv_carried.c says what is missing */
  struct walk w = {sm, calloc(MAX_ARGS, sizeof *w.b), -1, 0, {NULL}};
  if (!w.b)
    BUG("out of memory");
  mlirOperationWalk(fn, find_bound, &w, MlirWalkPreOrder);
  int rc = 0;
  if (w.bad)
    rc = ir_error_at(w.bad_at, "the program's SPIR-V kernel '%s' reads a descriptor outside set 0 "
                               "or beyond binding %d, which no argument of MLIR's conversion is",
                     name, MAX_ARGS - 1);
  /* As many arguments as the gpu.func had, as far as anyone can tell: up
   * to the last binding read and the last argument the launch passes. */
  MlirAttribute rec = mlirOperationGetDiscardableAttributeByName(k, str(KERNEL_ARGS_ATTR));
  int nargs = w.max + 1;
  for (intptr_t i = 0; !mlirAttributeIsNull(rec) && i < mlirDenseArrayGetNumElements(rec); i += 2)
    if (mlirDenseI32ArrayGetElement(rec, i) + 1 > nargs)
      nargs = mlirDenseI32ArrayGetElement(rec, i) + 1;
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirType *types = calloc((size_t)nargs + 1, sizeof *types);
  if (!types)
    BUG("out of memory");
  for (int i = 0; i < nargs && rc == 0; i++) {
    char scalar[64];
    int pointer;
    struct bound *x = &w.b[i];
    passed_type(k, i, &pointer);
    if (!x->present) {
      types[i] = placeholder(ctx, k, i);
    } else if (!pointer && wrapped_scalar(x->type, scalar, sizeof scalar)) {
      types[i] = mlirTypeParseGet(ctx, str(scalar));
    } else {
      types[i] = x->type;
    }
    MlirValue arg = mlirBlockAddArgument(entry, types[i], mlirOperationGetLocation(fn));
    for (size_t a = 0; a < x->n && rc == 0; a++) {
      if (!mlirTypeEqual(types[i], x->type))
        rc = replace_scalar_loads(x->addrs[a], arg, name, i);
      else {
        mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(x->addrs[a], 0), arg);
        mlirOperationDestroy(x->addrs[a]);
      }
    }
  }
  if (rc == 0) {
    mlirOperationSetAttributeByName(fn, str("function_type"),
                                    mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nargs, types, 0, NULL)));
    restore_entry_point(sm, fn, name);
  }
  for (int i = 0; i < MAX_ARGS; i++)
    free(w.b[i].addrs);
  free(w.b);
  free(types);
  return rc;
}

struct uses {
  char **names;
  size_t n;
};

static MlirWalkResult note_use(MlirOperation op, void *ud) {
  struct uses *u = ud;
  if (!ir_op_is(op, "spirv.mlir.addressof"))
    return MlirWalkResultAdvance;
  char name[512];
  symbol_of(op, "variable", name, sizeof name);
  u->names = realloc(u->names, (u->n + 1) * sizeof *u->names);
  if (!u->names || !(u->names[u->n++] = strdup(name)))
    BUG("out of memory");
  return MlirWalkResultAdvance;
}

/* The bound variables nothing takes the address of any more. */
static void drop_unused_bindings(MlirOperation sm) {
  struct uses u = {NULL, 0};
  mlirOperationWalk(sm, note_use, &u, MlirWalkPreOrder);
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(sm)); !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!ir_op_is(op, "spirv.GlobalVariable") || int_attr(op, "binding") < 0)
      continue;
    char *n = ir_symbol_name(op);
    int used = 0;
    for (size_t i = 0; n && i < u.n && !used; i++)
      used = !strcmp(u.names[i], n);
    free(n);
    if (!used)
      mlirOperationDestroy(op);
  }
  for (size_t i = 0; i < u.n; i++)
    free(u.names[i]);
  free(u.names);
}

/* An entry point of sm that is no kernel of gm: nothing can launch it,
 * and its descriptors would keep the module from loading. Returns 1 when
 * it found one (and removed it with its function and modes). */
static int drop_stray_entry_point(MlirOperation sm, MlirOperation gm) {
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(sm)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    char name[512];
    if (!ir_op_is(op, "spirv.EntryPoint"))
      continue;
    symbol_of(op, "fn", name, sizeof name);
    if (ir_is_kernel(ir_find_child(gm, "gpu.func", name)))
      continue;
    char abi[160];
    take_entry_ops(sm, name, abi, sizeof abi);
    MlirOperation fn = ir_find_child(sm, "spirv.func", name);
    if (!mlirOperationIsNull(fn))
      mlirOperationDestroy(fn);
    return 1;
  }
  return 0;
}

int spirv_unlower_entry_points(MlirOperation sm, MlirOperation gm) {
  int rc = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
  for (MlirOperation k = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(k) && rc == 0;
       k = mlirOperationGetNextInBlock(k)) {
    if (!ir_is_kernel(k))
      continue;
    char *name = ir_symbol_name(k);
    MlirOperation fn = name ? ir_find_child(sm, "spirv.func", name) : (MlirOperation){NULL};
    if (!mlirOperationIsNull(fn) &&
        mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(fn, str("spirv.entry_point_abi"))))
      rc = unlower_entry(sm, fn, k, name);
    free(name);
  }
  while (rc == 0 && drop_stray_entry_point(sm, gm))
    ;
  if (rc == 0)
    drop_unused_bindings(sm);
  return rc;
}
