/* device_spirv_inline.c: device functions for the SPIR-V target, inlined.
 *
 * Vulkan has no recursion, and gpucc gives SPIR-V functions no buffer
 * parameters (a buffer is a push-constant member of its entry point):
 * every call is inlined into the kernels (MLIR's inliner does not inline
 * into gpu.func), the functions then go, and a call of a recursive
 * function is refused at the call. */
#include "device_spirv.h"

#include "diag.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirOperation first_op(MlirBlock b) { return mlirBlockGetFirstOperation(b); }

/* Values of the callee (its arguments, its ops' results) and what stands
 * for them at the call. */
struct value_map {
  MlirValue *from, *to;
  size_t n, cap;
};

static void map_add(struct value_map *m, MlirValue from, MlirValue to) {
  if (m->n == m->cap) {
    m->cap = m->cap * 2 + 16;
    m->from = realloc(m->from, m->cap * sizeof *m->from);
    m->to = realloc(m->to, m->cap * sizeof *m->to);
    if (!m->from || !m->to)
      BUG("out of memory");
  }
  m->from[m->n] = from;
  m->to[m->n++] = to;
}

static MlirWalkResult remap_operands(MlirOperation op, void *ud) {
  const struct value_map *m = ud;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    for (size_t k = 0; k < m->n; k++)
      if (mlirValueEqual(v, m->from[k])) {
        mlirOperationSetOperand(op, i, m->to[k]);
        break;
      }
  }
  return MlirWalkResultAdvance;
}

/* The func.func of the gpu.module a call names, or null. */
static MlirOperation callee_of(MlirOperation gpu_module, MlirOperation call) {
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(call, str("callee")));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  for (MlirOperation op = first_op(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef s = ir_symbol_ref(op);
    if (ir_op_is(op, "func.func") && s.length == name.length && !memcmp(s.data, name.data, s.length))
      return op;
  }
  return (MlirOperation){NULL};
}

/* Copies the callee's one block in place of the call. Returns 0, or -1
 * reported (a callee of several blocks: Vulkan wants structured control
 * flow, which gpucc does not rebuild). */
static int inline_call(MlirOperation gpu_module, MlirOperation call) {
  MlirOperation callee = callee_of(gpu_module, call);
  if (mlirOperationIsNull(callee))
    return ir_error_at(call, "the SPIR-V target cannot call a function outside the gpu.module");
  MlirRegion region = mlirOperationGetRegion(callee, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return ir_error_at(call, "the SPIR-V target inlines device functions, and this one has branches "
                             "(use scf.if and scf.for: Vulkan wants structured control flow)");
  struct value_map m = {NULL, NULL, 0, 0};
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++)
    map_add(&m, mlirBlockGetArgument(body, i), mlirOperationGetOperand(call, i));
  for (MlirOperation op = first_op(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (ir_op_is(op, "func.return")) {
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
        MlirValue v = mlirOperationGetOperand(op, i);
        for (size_t k = 0; k < m.n; k++)
          if (mlirValueEqual(v, m.from[k]))
            v = m.to[k];
        mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, i), v);
      }
      break;
    }
    MlirOperation copy = mlirOperationClone(op);
    mlirOperationWalk(copy, remap_operands, &m, MlirWalkPreOrder);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(call), call, copy);
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
      map_add(&m, mlirOperationGetResult(op, i), mlirOperationGetResult(copy, i));
  }
  free(m.from);
  free(m.to);
  mlirOperationDestroy(call);
  return 0;
}

/* The gpu.module's functions and whether each can reach itself through
 * calls (state: 0 not seen, 1 being searched, 2 done). */
struct call_graph {
  MlirOperation gpu_module, *funcs;
  size_t n;
  int *state, *recursive;
};

static size_t func_index(const struct call_graph *g, MlirOperation f) {
  for (size_t i = 0; i < g->n; i++)
    if (mlirOperationEqual(g->funcs[i], f))
      return i;
  return g->n;
}

/* Depth-first from function i: a call back to a function being searched
 * closes a cycle. */
static void search(struct call_graph *g, size_t i) {
  g->state[i] = 1;
  MlirOperation *calls;
  size_t n = ir_find_ops(g->funcs[i], (const char *const[]){"func.call", NULL}, NULL, &calls);
  for (size_t k = 0; k < n; k++) {
    size_t j = func_index(g, callee_of(g->gpu_module, calls[k]));
    if (j == g->n)
      continue;
    if (g->state[j] == 1)
      g->recursive[j] = g->recursive[i] = 1;
    else if (g->state[j] == 0)
      search(g, j);
    if (g->recursive[j] && g->state[j] == 1)
      g->recursive[i] = 1;
  }
  free(calls);
  g->state[i] = 2;
}

/* Refuses, at the call, a call of a function on a cycle of calls (each
 * cycle has one whose every caller is refused). */
static int refuse_recursion(MlirOperation gpu_module) {
  struct call_graph g = {gpu_module, NULL, 0, NULL, NULL};
  g.n = ir_find_ops(gpu_module, (const char *const[]){"func.func", NULL}, NULL, &g.funcs);
  g.state = calloc(g.n + 1, sizeof *g.state);
  g.recursive = calloc(g.n + 1, sizeof *g.recursive);
  if (!g.state || !g.recursive)
    BUG("out of memory");
  for (size_t i = 0; i < g.n; i++)
    if (g.state[i] == 0)
      search(&g, i);
  MlirOperation *calls;
  size_t n = ir_find_ops(gpu_module, (const char *const[]){"func.call", NULL}, NULL, &calls);
  int rc = 0;
  for (size_t k = 0; k < n && rc == 0; k++) {
    size_t j = func_index(&g, callee_of(gpu_module, calls[k]));
    if (j < g.n && g.recursive[j])
      rc = ir_error_at(calls[k], "a recursive function cannot be compiled for the SPIR-V target "
                                 "(Vulkan has no recursion)");
  }
  free(calls);
  free(g.funcs);
  free(g.state);
  free(g.recursive);
  return rc;
}

/* Inlines until no call is left (each round, the calls the last one
 * brought in), then erases the functions. */
int spirv_inline_functions(MlirOperation gpu_module) {
  if (refuse_recursion(gpu_module) != 0)
    return -1;
  for (;;) {
    MlirOperation *calls;
    size_t n = ir_find_ops(gpu_module, (const char *const[]){"func.call", NULL}, NULL, &calls);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
      rc = inline_call(gpu_module, calls[i]);
    free(calls);
    if (rc != 0)
      return -1;
    if (n == 0)
      break;
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  MlirOperation next;
  for (MlirOperation op = first_op(body); !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (ir_op_is(op, "func.func"))
      mlirOperationDestroy(op);
  }
  return 0;
}
