/* kernel_alignment.c: kernel buffers that come whole from gpu.alloc are
 * 256-byte aligned, and the kernel is told so.
 *
 * A kernel sees a memref argument's pointer with no more alignment than its
 * element's, so `vector.load ... vector<4xf32>` from a memref<?xf32> became
 * four 4-byte loads, even where every launch passes a buffer straight from
 * gpu.alloc: cudaMalloc, hipMalloc and the host backend all return 256-byte
 * aligned memory, and an identity-layout memref from gpu.alloc starts at
 * its allocation. Where every launch of a kernel passes such a buffer for
 * an argument, the kernel's uses of that argument go through
 * `memref.assume_alignment %arg, 256`, which LLVM turns into an alignment
 * assumption: accesses at offsets that keep the alignment (4 * thread id
 * floats, say) become 16-byte vector loads and stores, as nvcc's float4
 * accesses are. A memref.alloc or alloca with an `alignment` gives that
 * alignment the same way (the host target runs kernels on host memory); the
 * least over all launches is assumed. Nothing is assumed of arguments some
 * launch passes anything else (a subview, a cast, a function argument). */
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What gpu.alloc guarantees on every backend (runtime/backend_*.c). */
#define GPU_ALLOC_ALIGN 256
/* Less tells LLVM nothing a 4-byte element does not. */
#define MIN_USEFUL_ALIGN 8

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

/* The kernel operand `arg` of a launch, or a null value. */
static MlirValue kernel_operand(MlirOperation launch, intptr_t arg) {
  intptr_t start, count;
  ir_launch_operands(launch, &start, &count);
  MlirValue none = {NULL};
  return arg < count ? mlirOperationGetOperand(launch, start + arg) : none;
}

/* The alignment a buffer is known to start at, as its allocation made it
 * (its first result, nothing in between): GPU_ALLOC_ALIGN for gpu.alloc,
 * the `alignment` a memref.alloc or alloca asks for; else 0. */
static uint64_t known_alignment(MlirValue v) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v) || mlirOpResultGetResultNumber(v) != 0)
    return 0;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (ir_op_is(def, "gpu.alloc"))
    return GPU_ALLOC_ALIGN;
  if (!ir_op_is(def, "memref.alloc") && !ir_op_is(def, "memref.alloca"))
    return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(def, ref("alignment"));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)
             ? 0
             : (uint64_t)mlirIntegerAttrGetValueInt(a);
}

/* Identity layout, default memory space: what gpu.alloc returns. */
static int plain_memref(MlirType t) {
  return mlirTypeIsAMemRef(t) && mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)) &&
         mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t));
}

static void assume_aligned(MlirOperation kernel, MlirValue arg, uint64_t bytes) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirNamedAttribute align = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, ref("alignment")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), (int64_t)bytes));
  MlirValue aligned = ir_op_before(first, "memref.assume_alignment", 1, &arg,
                                         mlirValueGetType(arg), 1, &align);
  if (mlirValueIsNull(aligned))
    return;
  MlirOperation assume = mlirOpResultGetOwner(aligned);
  mlirValueReplaceAllUsesExcept(arg, aligned, 1, &assume);
}

static void align_kernel(MlirOperation mod, MlirOperation kernel,
                         const struct ir_launch_index *ix) {
  size_t nlaunches;
  const MlirOperation *launch_ops = ir_launch_index_find(ix, mod, kernel, &nlaunches);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(entry); a++) {
    MlirValue arg = mlirBlockGetArgument(entry, a);
    if (!plain_memref(mlirValueGetType(arg)) || mlirValueIsNull(arg))
      continue;
    uint64_t least = 0;
    for (size_t l = 0; l < nlaunches; l++) {
      uint64_t known = known_alignment(kernel_operand(launch_ops[l], a));
      least = least == 0 || known < least ? known : least;
      if (least == 0)
        break;
    }
    if (least >= MIN_USEFUL_ALIGN)
      assume_aligned(kernel, arg, least);
  }
}

void frontend_kernel_alignment(MlirModule module) {
  static const char *const launch_names[] = {"gpu.launch_func", NULL};
  MlirOperation *launch_ops;
  size_t nlaunches = ir_find_ops(mlirModuleGetOperation(module), launch_names, NULL, &launch_ops);
  MlirOperation *mods;
  size_t nmods = ir_gpu_modules(module, &mods);
  struct ir_launch_index *ix = ir_launch_index_new(launch_ops, nlaunches);
  for (size_t m = 0; m < nmods && nlaunches > 0; m++) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(mods[m], 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (ir_is_kernel(op))
        align_kernel(mods[m], op, ix);
  }
  ir_launch_index_free(ix);
  free(mods);
  free(launch_ops);
}
