/* device_linkage.c: only kernels are entry points of lowered device code.
 *
 * The GPU-to-NVVM and GPU-to-ROCDL conversions of LLVM 22 ask for a C
 * interface on every func.func of a gpu.module, and the function conversion
 * gives every definition external linkage. So each device function reached
 * the PTX twice, as `.visible .func name` and `.visible .func
 * _mlir_ciface_name`, and neither could be dropped once inlined: ptxas
 * compiled both, and the sizes grew with each helper gpucc generates
 * (reductions, matrix fragments, integer powers). Nothing outside a
 * gpu.module can call into it but its kernels (the host launches kernels by
 * name; it has no device function pointers), so here the wrappers nobody
 * calls are erased and the other definitions become internal, which lets
 * LLVM inline and drop them like static functions in C. Declarations (the
 * vendor libraries' functions, printf) stay as they are.
 *
 * The other way round for dynamic shared memory: the GPU conversions make
 * gpu.dynamic_shared_memory's base a zero-sized array in workgroup memory
 * with internal linkage. NVPTX then declares it as a one-byte static
 * `.shared` variable and AMDGPU as an empty static LDS variable, both laid
 * out among the kernel's static shared memory (workgroup attributions), so
 * the dynamic area overlapped them and a kernel with both corrupted its own
 * data. Made external, it is what CUDA's `extern __shared__ x[]` and HIP's
 * dynamic LDS are: the area after all static shared memory. */
#include "device_linkage.h"

#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>
#include <string.h>

#define CIFACE "_mlir_ciface_"

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static int has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, ref(name))) ||
         !mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(op, ref(name)));
}

/* kernel_attr: the attribute the kind's conversion marks kernels with. */
static int is_kernel(MlirOperation fn, const char *kernel_attr) {
  return has_attr(fn, "gpu.kernel") || (kernel_attr && has_attr(fn, kernel_attr));
}

static int is_definition(MlirOperation fn) {
  MlirRegion body = mlirOperationGetRegion(fn, 0);
  return !mlirBlockIsNull(mlirRegionGetFirstBlock(body));
}

static MlirStringRef symbol(MlirOperation fn) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(fn, ref("sym_name"));
  return mlirAttributeIsNull(a) ? ref("") : mlirStringAttrGetValue(a);
}

/* Names some llvm.call or llvm.mlir.addressof in the gpu.module refers to. */
struct uses {
  char **names;
  size_t len, cap;
};

static MlirWalkResult collect_use(MlirOperation op, void *ud) {
  struct uses *u = ud;
  const char *attr = ir_op_is(op, "llvm.call")            ? "callee"
                     : ir_op_is(op, "llvm.mlir.addressof") ? "global_name"
                                                                  : NULL;
  if (!attr)
    return MlirWalkResultAdvance;
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, ref(attr));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFlatSymbolRef(a))
    return MlirWalkResultAdvance;
  MlirStringRef s = mlirFlatSymbolRefAttrGetValue(a);
  if (u->len == u->cap) {
    size_t cap = u->cap ? 2 * u->cap : 16;
    char **n = realloc(u->names, cap * sizeof *n);
    if (!n)
      return MlirWalkResultInterrupt;
    u->names = n;
    u->cap = cap;
  }
  u->names[u->len] = strndup(s.data, s.length);
  if (u->names[u->len])
    u->len++;
  return MlirWalkResultAdvance;
}

static int used(const struct uses *u, MlirStringRef name) {
  for (size_t i = 0; i < u->len; i++)
    if (strlen(u->names[i]) == name.length && !memcmp(u->names[i], name.data, name.length))
      return 1;
  return 0;
}

/* A zero-sized array in workgroup memory (address space 3). */
static int is_dynamic_shared(MlirOperation g) {
  MlirAttribute space = mlirOperationGetInherentAttributeByName(g, ref("addr_space"));
  MlirAttribute type = mlirOperationGetInherentAttributeByName(g, ref("global_type"));
  if (mlirAttributeIsNull(space) || !mlirAttributeIsAInteger(space) ||
      mlirIntegerAttrGetValueInt(space) != 3 || mlirAttributeIsNull(type))
    return 0;
  char text[64];
  ir_type_text(mlirTypeAttrGetValue(type), text, sizeof text);
  return !strncmp(text, "!llvm.array<0 x ", 16);
}

static void internalize_module(MlirOperation gm, const char *kernel_attr) {
  struct uses u = {0};
  mlirOperationWalk(gm, collect_use, &u, MlirWalkPreOrder);
  MlirContext ctx = mlirOperationGetContext(gm);
  MlirAttribute internal = mlirAttributeParseGet(ctx, ref("#llvm.linkage<internal>"));
  MlirAttribute external = mlirAttributeParseGet(ctx, ref("#llvm.linkage<external>"));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
  MlirOperation fn = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(fn)) {
    MlirOperation next = mlirOperationGetNextInBlock(fn);
    if (ir_op_is(fn, "llvm.mlir.global") && is_dynamic_shared(fn) &&
        !mlirAttributeIsNull(external))
      mlirOperationSetInherentAttributeByName(fn, ref("linkage"), external);
    if (ir_op_is(fn, "llvm.func") && is_definition(fn) && !is_kernel(fn, kernel_attr)) {
      MlirStringRef name = symbol(fn);
      if (name.length > strlen(CIFACE) && !strncmp(name.data, CIFACE, strlen(CIFACE)) &&
          !used(&u, name))
        mlirOperationDestroy(fn);
      else if (!mlirAttributeIsNull(internal))
        mlirOperationSetInherentAttributeByName(fn, ref("linkage"), internal);
    }
    fn = next;
  }
  for (size_t i = 0; i < u.len; i++)
    free(u.names[i]);
  free(u.names);
}

void lowering_internalize_device_functions(MlirModule dev, const char *kernel_attr) {
  MlirOperation *mods;
  size_t n = ir_gpu_modules(dev, &mods);
  for (size_t i = 0; i < n; i++)
    internalize_module(mods[i], kernel_attr);
  free(mods);
}
