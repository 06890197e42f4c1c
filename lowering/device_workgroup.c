/* device_workgroup.c: workgroup arrays start on 16 bytes, or more.
 *
 * LLVM's GPU conversions declare workgroup attributions, promoted buffers and
 * the dynamic shared memory base as globals in address space 3 without an
 * alignment, so they get their element's (4 for f32). NVPTX's load/store
 * vectorizer, which runs inside code generation, then raises the global's
 * alignment to 16 to read four floats at once, but only after the global was
 * printed: the PTX said `.shared .align 4` and read it with
 * `ld.shared.v4.b32`, a misaligned-address fault on a GPU whenever the array
 * did not happen to start on 16 bytes. Declaring the arrays with the
 * alignment of the widest access LLVM may form (16 bytes, as CUDA and HIP
 * toolchains lay out shared arrays, or the element's own when that is more)
 * makes the vector accesses sound and keeps them. */
#include "device_workgroup.h"

#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#define WORKGROUP_ADDRESS_SPACE 3
#define MIN_ALIGN 16
#define MAX_ALIGN 256

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static uint64_t pow2_at_least(uint64_t n) {
  uint64_t p = 1;
  while (p < n && p < MAX_ALIGN)
    p *= 2;
  return p;
}

/* The natural alignment of the vector inside an array type's text
 * ("!llvm.array<64 x vector<4xf32>>"): its size rounded up to a power of two,
 * as LLVM's data layouts give vectors; 0 for scalars, which never need more
 * than MIN_ALIGN. */
static uint64_t element_align(MlirType t) {
  char text[256];
  ir_type_text(t, text, sizeof text);
  const char *v = strstr(text, "vector<");
  if (!v)
    return 0;
  char *end;
  unsigned long lanes = strtoul(v + 7, &end, 10);
  if (*end != 'x')
    return 0;
  const char *e = end + 1;
  unsigned long bits = e[0] == 'b' && e[1] == 'f' ? 16 : strtoul(e + 1, NULL, 10);
  if (bits == 0 || (e[0] != 'f' && e[0] != 'i' && e[0] != 'b'))
    bits = 64; /* pointers and the like */
  return pow2_at_least((uint64_t)lanes * ((bits + 7) / 8));
}

static MlirWalkResult align_global(MlirOperation g, void *ud) {
  (void)ud;
  if (!ir_op_is(g, "llvm.mlir.global"))
    return MlirWalkResultAdvance;
  MlirAttribute space = mlirOperationGetInherentAttributeByName(g, ref("addr_space"));
  MlirAttribute type = mlirOperationGetInherentAttributeByName(g, ref("global_type"));
  if (mlirAttributeIsNull(space) || !mlirAttributeIsAInteger(space) ||
      mlirIntegerAttrGetValueInt(space) != WORKGROUP_ADDRESS_SPACE || mlirAttributeIsNull(type))
    return MlirWalkResultSkip;
  uint64_t want = element_align(mlirTypeAttrGetValue(type));
  if (want < MIN_ALIGN)
    want = MIN_ALIGN;
  MlirAttribute old = mlirOperationGetInherentAttributeByName(g, ref("alignment"));
  if (!mlirAttributeIsNull(old) && mlirAttributeIsAInteger(old) &&
      (uint64_t)mlirIntegerAttrGetValueInt(old) >= want)
    return MlirWalkResultSkip;
  MlirContext ctx = mlirOperationGetContext(g);
  mlirOperationSetInherentAttributeByName(
      g, ref("alignment"), mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), (int64_t)want));
  return MlirWalkResultSkip;
}

void lowering_align_workgroup_arrays(MlirOperation root) {
  mlirOperationWalk(root, align_global, NULL, MlirWalkPreOrder);
}
