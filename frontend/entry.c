/* entry.c: the function a program starts in, as mlir-runner runs it.
 *
 * Upstream's integration tests, and the compilers that test with them, name
 * their entry `@entry` (or anything) and run it with mlir-runner's
 * `-e NAME --entry-point-result=void|i32|i64|f32`, which prints the value
 * the entry returns on a line of its own. gpucc takes the same options and
 * writes the main that does it:
 *
 *   func.func @main() -> i32 {
 *     %r = call @entry() : () -> i64
 *     call @gpuccPrintEntryResultI64(%r) : (i64) -> ()    (runtime/runner)
 *     return 0
 *   }
 *
 * An entry that is itself called main is renamed first; another function
 * called main (there is no `-e` for it to win against) is renamed out of the
 * way. Without -e, `main` stays the C entry it is, with two repairs: an
 * `llvm.func @main()` without a result gets the same wrapper, so that the
 * exit status is 0 rather than whatever a register held (func.func's are
 * given a result in lowering/host.c), and a main taking memrefs or tensors
 * is refused (its code would read argc and argv as a memref). */
#include "diag.h"
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/IR.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the entry returns; mlir-runner runs no other kind. */
enum result { RESULT_VOID, RESULT_I32, RESULT_I64, RESULT_F32, RESULT_OTHER };
static const char *const result_names[] = {"void", "i32", "i64", "f32", NULL};

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

/* The function's type, as text: "(i32, memref<4xf32>) -> i64" for a
 * func.func, "!llvm.func<i64 (i32, ptr)>" for an llvm.func (the LLVM
 * dialect's C API is not linked; the text says what is needed). */
static void type_text(MlirOperation f, char *buf, size_t size) {
  MlirAttribute t = mlirOperationGetAttributeByName(f, ref("function_type"));
  buf[0] = '\0';
  if (!mlirAttributeIsNull(t) && mlirAttributeIsAType(t))
    ir_type_text(mlirTypeAttrGetValue(t), buf, size);
}

/* Splits a function type's text into its result and its argument list. */
static void split_type(MlirOperation f, char *result, char *args, size_t size) {
  char t[512];
  type_text(f, t, sizeof t);
  result[0] = args[0] = '\0';
  if (ir_op_is(f, "llvm.func")) { /* !llvm.func<R (A)> */
    char *lt = strchr(t, '<'), *paren = strstr(t, " (");
    char *close = strrchr(t, ')');
    if (lt && paren && close && paren > lt) {
      snprintf(result, size, "%.*s", (int)(paren - lt - 1), lt + 1);
      snprintf(args, size, "%.*s", (int)(close - paren - 2), paren + 2);
    }
    if (!strcmp(result, "void"))
      result[0] = '\0';
  } else { /* (A) -> R, or (A) -> (R1, R2) */
    char *arrow = strstr(t, ") -> ");
    char *end = arrow ? arrow : strrchr(t, ')');
    if (t[0] == '(' && end)
      snprintf(args, size, "%.*s", (int)(end - t - 1), t + 1);
    if (arrow)
      snprintf(result, size, "%s", arrow + 5);
    if (!strcmp(result, "()"))
      result[0] = '\0';
  }
}

static enum result result_kind(const char *text) {
  if (!text[0])
    return RESULT_VOID;
  for (int k = RESULT_I32; k <= RESULT_F32; k++)
    if (!strcmp(text, result_names[k]))
      return (enum result)k;
  return RESULT_OTHER;
}

/* `name` as an MLIR symbol reference: @"..." with its bytes escaped. */
static void symbol(char *buf, size_t size, const char *name) {
  size_t k = (size_t)snprintf(buf, size, "@\"");
  for (const unsigned char *p = (const unsigned char *)name; *p && k + 5 < size; p++)
    k += (size_t)(*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\'
                      ? snprintf(buf + k, size - k, "%c", *p)
                      : snprintf(buf + k, size - k, "\\%02X", *p));
  snprintf(buf + k, size - k, "\"");
}

/* Renames top-level symbol `from` to `to`, with every use. */
static int rename_function(MlirModule module, MlirOperation f, const char *from, const char *to) {
  MlirOperation top = mlirModuleGetOperation(module);
  if (mlirLogicalResultIsFailure(mlirSymbolTableReplaceAllSymbolUses(ref(from), ref(to), top)))
    return ir_error_at(f, "cannot rename '@%s' out of the way of the entry point", from);
  mlirOperationSetAttributeByName(f, ref("sym_name"),
                                  mlirStringAttrGet(mlirOperationGetContext(f), ref(to)));
  return 0;
}

static int declared(MlirModule module, const char *name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, ref("sym_name"));
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
        ir_ref_is(mlirStringAttrGetValue(a), name))
      return 1;
  }
  return 0;
}

/* Writes the main that calls entry f (now named `callee`), prints what it
 * returns and returns 0. */
static int write_main(MlirModule module, MlirOperation f, const char *callee, enum result kind,
                      const char *result) {
  char sym[1024], text[6144];
  symbol(sym, sizeof sym, callee);
  const char *call = ir_op_is(f, "llvm.func") ? "llvm.call" : "func.call";
  const char *print = kind == RESULT_F32 ? "gpuccPrintEntryResultF32" : "gpuccPrintEntryResultI64";
  char body[2400];
  switch (kind) {
  case RESULT_VOID:
    snprintf(body, sizeof body, "    %s %s() : () -> ()\n", call, sym);
    break;
  case RESULT_I32:
    snprintf(body, sizeof body,
             "    %%r = %s %s() : () -> i32\n    %%w = arith.extsi %%r : i32 to i64\n"
             "    func.call @%s(%%w) : (i64) -> ()\n", call, sym, print);
    break;
  default:
    snprintf(body, sizeof body, "    %%r = %s %s() : () -> %s\n    func.call @%s(%%r) : (%s) -> ()\n",
             call, sym, result, print, result);
    break;
  }
  /* The text parses on its own, so it declares the callee too (a stub that
   * stays behind) and the print function (which moves over unless the
   * program declares it already). */
  char stub[1200], decl[160];
  const char *ret = kind == RESULT_VOID ? "" : result;
  if (ir_op_is(f, "llvm.func"))
    snprintf(stub, sizeof stub, "  llvm.func %s() -> %s\n", sym, kind == RESULT_VOID ? "!llvm.void" : ret);
  else
    snprintf(stub, sizeof stub, "  func.func private %s() -> (%s)\n", sym, ret);
  snprintf(decl, sizeof decl, "  func.func private @%s(%s)\n", print, kind == RESULT_F32 ? "f32" : "i64");
  snprintf(text, sizeof text,
           "module {\n  func.func @main() -> i32 {\n%s    %%z = arith.constant 0 : i32\n"
           "    func.return %%z : i32\n  }\n%s%s}\n",
           body, decl, stub);
  MlirModule m = mlirModuleCreateParse(mlirModuleGetContext(module), ref(text));
  if (mlirModuleIsNull(m))
    BUG("the entry point's main does not parse");
  MlirBlock to = mlirModuleGetBody(module);
  MlirOperation main_fn = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirOperation print_decl = mlirOperationGetNextInBlock(main_fn);
  mlirOperationRemoveFromParent(main_fn);
  mlirBlockAppendOwnedOperation(to, main_fn);
  if (kind != RESULT_VOID && !declared(module, print)) {
    mlirOperationRemoveFromParent(print_decl);
    mlirBlockAppendOwnedOperation(to, print_decl);
  }
  mlirModuleDestroy(m);
  return 0;
}

int frontend_entry(MlirModule module, const char *entry, const char *want) {
  const char *name = entry ? entry : "main";
  MlirOperation f = ir_find_function(module, name);
  if (mlirOperationIsNull(f))
    return 0; /* not in this input; the driver says so when no input has it */
  char result[256], args[256];
  split_type(f, result, args, sizeof result);
  enum result kind = result_kind(result);
  if (!entry) {
    if (strstr(args, "memref<") || strstr(args, "tensor<"))
      return ir_error_at(f, "'@main' takes (%s): a program's main gets argc and argv from "
                                  "the system, not memrefs; use -e to start in another function",
                               args);
    if (!(ir_op_is(f, "llvm.func") && kind == RESULT_VOID))
      return 0;
  } else {
    if (args[0])
      return ir_error_at(f, "'@%s' takes (%s); -e runs a function that takes no arguments",
                               name, args);
    if (kind == RESULT_OTHER)
      return ir_error_at(f, "'@%s' returns %s; -e runs a function returning nothing, i32, "
                                  "i64 or f32", name, result);
    if (want && strcmp(want, result_names[kind]))
      return ir_error_at(f, "'@%s' returns %s, not %s (--entry-point-result=%s)", name,
                               kind == RESULT_VOID ? "nothing" : result, want, want);
  }
  /* main is about to be written: an entry of that name, or another
   * function of that name, moves out of the way. */
  const char *callee = name;
  if (!strcmp(name, "main")) {
    callee = "__gpucc_entry_main";
    if (rename_function(module, f, "main", callee) != 0)
      return -1;
  } else {
    MlirOperation other = ir_find_function(module, "main");
    if (!mlirOperationIsNull(other) && rename_function(module, other, "main", "__gpucc_unused_main") != 0)
      return -1;
  }
  if (write_main(module, f, callee, kind, result) != 0)
    return -1;
  return entry ? 1 : 0;
}
