/* host_memory.c: a kernel given host memory is warned about.
 *
 * memref.alloc, memref.alloca and memref.get_global in host code are the
 * process's memory. The host backend runs kernels in the process, so a
 * launch that passes such a memref works there, and the same program faults
 * on a GPU ("an illegal memory access was encountered") far from its cause.
 * Unless the memory was registered with the driver (gpu.host_register, which
 * makes it reachable from the device), each such launch argument gets
 *
 *   prog.mlir:30:5: warning: argument 1 of the launch of @m::@k is host
 *   memory (memref.alloc at prog.mlir:21:10): a GPU cannot read it; use
 *   gpu.alloc and gpu.memcpy, or gpu.host_register
 *
 * when a GPU target is asked for. It runs right after outlining, while the
 * launches still pass memrefs as the program wrote them. A memref is followed back through the
 * view ops (casts, subviews, reshapes) to the op that made it; one that
 * comes from elsewhere (a function argument, a call) is not judged. */
#include "diag.h"
#include "frontend.h"

#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The op that made memref v, through ops that only view their first
 * operand; null when v is a block argument. */
static MlirOperation origin(MlirValue v) {
  static const char *const views[] = {
      "memref.cast",          "memref.subview",       "memref.reinterpret_cast",
      "memref.expand_shape",  "memref.collapse_shape", "memref.transpose",
      "memref.assume_alignment", "memref.memory_space_cast", NULL};
  for (int depth = 0; depth < 64 && mlirValueIsAOpResult(v); depth++) {
    MlirOperation op = mlirOpResultGetOwner(v);
    int view = 0;
    for (size_t i = 0; views[i] && !view; i++)
      view = ir_op_is(op, views[i]);
    if (!view || mlirOperationGetNumOperands(op) == 0)
      return op;
    v = mlirOperationGetOperand(op, 0);
  }
  return (MlirOperation){NULL};
}

static int host_made(MlirOperation op) {
  return !mlirOperationIsNull(op) && !ir_in_device_code(op) &&
         (ir_op_is(op, "memref.alloc") || ir_op_is(op, "memref.alloca") ||
          ir_op_is(op, "memref.get_global"));
}

static int enabled;

void frontend_set_host_memory_warnings(int on) { enabled = on; }

void frontend_warn_host_memory(MlirModule module) {
  if (!enabled)
    return;
  MlirOperation top = mlirModuleGetOperation(module);
  static const char *const registers[] = {"gpu.host_register", NULL};
  static const char *const launches[] = {"gpu.launch_func", NULL};
  MlirOperation *regs, *ls;
  size_t nregs = ir_find_ops(top, registers, NULL, &regs);
  size_t nls = ir_find_ops(top, launches, NULL, &ls);
  MlirOperation *registered = calloc(nregs + 1, sizeof *registered);
  if (!registered)
    BUG("out of memory");
  for (size_t i = 0; i < nregs; i++)
    registered[i] = mlirOperationGetNumOperands(regs[i])
                        ? origin(mlirOperationGetOperand(regs[i], 0))
                        : (MlirOperation){NULL};
  for (size_t l = 0; l < nls; l++) {
    intptr_t start, count;
    ir_launch_operands(ls[l], &start, &count);
    for (intptr_t a = 0; a < count; a++) {
      MlirValue v = mlirOperationGetOperand(ls[l], start + a);
      if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
        continue;
      MlirOperation made = origin(v);
      if (!host_made(made))
        continue;
      int reg = 0;
      for (size_t i = 0; i < nregs && !reg; i++)
        reg = !mlirOperationIsNull(registered[i]) && mlirOperationEqual(registered[i], made);
      if (reg)
        continue;
      char kernel[512], where[1100] = "", file[1024], msg[2048];
      MlirAttribute k = mlirOperationGetAttributeByName(ls[l], mlirStringRefCreateFromCString("kernel"));
      ir_attr_text(k, kernel, sizeof kernel);
      unsigned line = 0, col = 0;
      if (ir_location(mlirOperationGetLocation(made), file, sizeof file, &line, &col))
        snprintf(where, sizeof where, " at %s:%u:%u", ir_display_name(file), line, col);
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(made));
      snprintf(msg, sizeof msg,
               "argument %ld of the launch of %s is host memory (%.*s%s): a GPU cannot read it; "
               "use gpu.alloc and gpu.memcpy, or gpu.host_register",
               (long)a + 1, kernel, (int)name.length, name.data, where);
      ir_warning_at(ls[l], "%s", msg);
    }
  }
  free(registered);
  free(regs);
  free(ls);
}
