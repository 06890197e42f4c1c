/* lower.c: run a lowering pipeline and say, in one line, what it could not
 * lower.
 *
 * MLIR reports a failed conversion in terms of its own machinery ("failed
 * to legalize unresolved materialization", "LLVM Translation failed for
 * operation: builtin.unrealized_conversion_cast") or not at all: a pass
 * that has no pattern for an op leaves it, and translation fails later
 * somewhere else. A user needs the op, its location and the target. So the
 * pipeline's first error is held back, the module is searched for the
 * culprit afterwards, and one message is made of both:
 *
 *   prog.mlir:7:12: error: cannot lower 'math.foo' for the host: <why>
 *
 * A conversion cast is never the culprit: the op that made or uses the
 * unconverted value is, or failing that the value's type is named. */
#include "ir.h"

#include "diag.h"

#include <stdio.h>
#include <string.h>

static MlirStringRef name_of(MlirOperation op) { return mlirIdentifierStr(mlirOperationGetName(op)); }

static int is_cast(MlirStringRef name) {
  return ir_ref_is(name, "builtin.unrealized_conversion_cast");
}

struct search {
  int (*lowered)(MlirStringRef);
  MlirOperation op;   /* first op not lowered (not a cast) */
  MlirOperation cast; /* first conversion cast */
  /* When set, only ops at this location count. */
  const struct ir_held_error *at;
};

static MlirWalkResult find_unlowered(MlirOperation op, void *ud) {
  struct search *s = ud;
  MlirStringRef name = name_of(op);
  if (s->at && !ir_same_location(mlirOperationGetLocation(op), s->at->file, s->at->line, s->at->col))
    return MlirWalkResultAdvance;
  if (is_cast(name)) {
    if (mlirOperationIsNull(s->cast))
      s->cast = op;
    return MlirWalkResultAdvance;
  }
  if (s->lowered(name))
    return MlirWalkResultAdvance;
  s->op = op;
  return MlirWalkResultInterrupt;
}

/* What gpucc knows about ops its pipelines leave on purpose. */
static const char *known_reason(MlirStringRef name) {
  static const struct {
    const char *op, *why;
  } table[] = {
      {"gpu.memset", "only 16- and 32-bit memset values are supported"},
      {"gpu.alloc", "an asynchronous host_shared allocation has no runtime call; make it synchronous"},
      /* func-to-llvm converts every function whose signature it can. */
      {"func.func", "its signature holds a type with no LLVM equivalent"},
      /* device_subgroup.c lowers those of scalars, whichever lanes reach
       * them, on targets whose pipeline lowers gpu ops to NVVM or ROCDL. */
      {"gpu.subgroup_reduce", "gpucc lowers subgroup reductions of scalars (integers of up to 32 "
                              "bits or of 64, f16, bf16, f32, f64), not of vectors; reduce a vector "
                              "element by element"},
      {"gpu.all_reduce", "gpucc lowers reductions that every thread of the block reaches (not under "
                         "a condition or loop that depends on the thread)"},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (name.length == strlen(table[i].op) && memcmp(name.data, table[i].op, name.length) == 0)
      return table[i].why;
  return NULL;
}

/* Nothing but a cast is left: the value it converts has a type that does
 * not lower (a block argument of such a type, typically). */
static int report_cast(MlirOperation cast, const char *what) {
  MlirValue in = mlirOperationGetOperand(cast, 0);
  if (mlirValueIsAOpResult(in)) {
    MlirOperation def = mlirOpResultGetOwner(in);
    if (!is_cast(name_of(def))) {
      MlirStringRef n = name_of(def);
      return ir_error_at(def, "cannot lower '%.*s' for %s: its result has no LLVM type",
                               (int)n.length, n.data, what);
    }
  }
  char type[256];
  ir_type_text(mlirValueGetType(in), type, sizeof type);
  return ir_error_at(cast, "cannot lower a value of type '%s' for %s: the type has no LLVM equivalent",
                           type, what);
}

/* "failed to legalize operation 'math.foo' ..." names the op. */
static int op_in_message(const char *msg, char *out, size_t size) {
  const char *p = strstr(msg, "operation '");
  if (!p)
    return 0;
  p += strlen("operation '");
  const char *q = strchr(p, '\'');
  if (!q || q == p)
    return 0;
  snprintf(out, size, "%.*s", (int)(q - p), p);
  return 1;
}

static const char *why_failed(const char *msg) {
  if (strstr(msg, "failed to legalize operation"))
    return "the target's conversion has no pattern for it";
  if (strstr(msg, "unresolved materialization"))
    return "one of its values has a type the target's conversion cannot represent";
  return msg;
}

static int report_failure(MlirModule module, const struct ir_held_error *h, const char *what,
                          int (*lowered)(MlirStringRef)) {
  if (h->count == 0)
    return diag_error("internal: lowering for %s failed without saying why", what);
  char op[256] = "";
  if (!op_in_message(h->message, op, sizeof op) && h->located) {
    struct search s = {lowered, {NULL}, {NULL}, h};
    mlirOperationWalk(mlirModuleGetOperation(module), find_unlowered, &s, MlirWalkPreOrder);
    if (!mlirOperationIsNull(s.op)) {
      MlirStringRef n = name_of(s.op);
      snprintf(op, sizeof op, "%.*s", (int)n.length, n.data);
    }
  }
  const char *file = h->located ? ir_display_name(h->file) : NULL;
  if (!op[0] || is_cast(mlirStringRefCreateFromCString(op))) {
    diag_at(DIAG_ERROR, file, h->line, h->col, "cannot lower for %s: %s", what, h->message);
    return -1;
  }
  const char *known = known_reason(mlirStringRefCreateFromCString(op));
  diag_at(DIAG_ERROR, file, h->line, h->col, "cannot lower '%s' for %s: %s", op, what,
          known ? known : why_failed(h->message));
  return -1;
}

int ir_lower(MlirModule module, const char *pipeline, const char *what,
                   int (*lowered)(MlirStringRef op_name)) {
  struct ir_held_error held;
  ir_hold_errors(&held);
  int rc = ir_run_pipeline(module, pipeline);
  ir_hold_errors(NULL);
  if (rc != 0)
    return report_failure(module, &held, what, lowered);

  struct search s = {lowered, {NULL}, {NULL}, NULL};
  mlirOperationWalk(mlirModuleGetOperation(module), find_unlowered, &s, MlirWalkPreOrder);
  if (!mlirOperationIsNull(s.op)) {
    MlirStringRef n = name_of(s.op);
    const char *known = known_reason(n);
    return ir_error_at(s.op, "cannot lower '%.*s' for %s: %s", (int)n.length, n.data, what,
                             known ? known : "no pass of gpucc's pipeline lowers it to LLVM");
  }
  if (!mlirOperationIsNull(s.cast))
    return report_cast(s.cast, what);
  return 0;
}
