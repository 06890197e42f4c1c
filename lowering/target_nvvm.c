/* target_nvvm.c: how NVVM code reads other lanes (target_nvvm.h), for
 * device_subgroup.c's reductions over the lanes that reach them. A warp's
 * shuffle moves 32 and 64 bits only ("operand #1 must be 32-bit signless
 * integer or 32-bit float"). */
#include "target_nvvm.h"

static void active(FILE *o, const char *mask) {
  (void)mask; /* always i32: a warp */
  fputs("  %active = llvm.call_intrinsic \"llvm.nvvm.activemask\"() : () -> i32\n", o);
}

static void read_lane(FILE *o, int k, const char *piece, const char *lane) {
  fprintf(o, "    %%v%d = nvvm.shfl.sync idx %%active, %s, %s, %%c31 : i32 -> i32\n", k, piece, lane);
}

static void reduce(FILE *o, const char *op) {
  fprintf(o, "  %%r = nvvm.redux.sync %s %%x, %%active : i32 -> i32\n", op);
}

const struct lane_ops nvvm_lane_ops = {
    .max_width = 32,
    .active = active,
    .read_lane = read_lane,
    .reduce = reduce,
    .shuffles_wide_only = 1,
};
