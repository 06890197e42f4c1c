/* host_regions_alias.c: alias scopes for the region split.
 *
 * Alias scopes, for the loops over the threads that the block entry runs:
 * without them LLVM cannot tell a thread's slot from the kernel's memory,
 * nor, since they are in different address spaces, check at run time that
 * workgroup and global memory do not overlap (LoopAccessAnalysis compares
 * pointers of one address space only), and those loops stay scalar.
 *
 *   - each per-thread slot of a live value is a scope: only the stops and
 *     resumes touch that memory;
 *   - workgroup memory (address space 3) is one: a block's buffer, which no
 *     pointer passed to the kernel can point into, so accesses through the
 *     kernel's pointer arguments are not in it.
 * Other accesses (private arrays moved to scratch, lane records, memory
 * reached through loaded pointers) are in neither, which is true of both.
 *
 * The rebuild (host_regions.c) calls this last, once it knows where each
 * value crosses the stops. Its own file because the tags change no result,
 * only what LLVM may assume: a wrong one shows as a miscompile, so they are
 * best read apart from the code that moves values. */
#include "host_regions_internal.h"

#include "xstr.h"

#include <stdlib.h>
#include <string.h>

/* The kernel argument a pointer is derived from (through GEPs and casts),
 * or NULL. */
static LLVMValueRef argument_base(struct split *s, LLVMValueRef p) {
  while (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) ||
         (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
    p = LLVMGetOperand(p, 0);
  unsigned nargs = LLVMCountParams(s->fn) - STEP_EXTRA; /* ctx, args... */
  for (unsigned k = 1; k < nargs; k++)
    if (p == LLVMGetParam(s->fn, k))
      return p;
  return NULL;
}

/* Tags the loads, stores and atomics of s->fn (see the top of the file). */
void regions_tag_memory(struct split *s, LLVMValueRef *slot, LLVMValueRef *uslot, const char *kname) {
  struct rewriter *rw = s->rw;
  size_t nscopes = 0;
  LLVMMetadataRef *scopes = xcalloc(s->nvals + 1, sizeof *scopes);
  struct ptrmap scope_of; /* slot pointer -> its scope */
  pm_init(&scope_of, s->nvals);
  char *dname = xasprintf("gpucc.memory.%s", kname);
  LLVMMetadataRef dstr = LLVMMDStringInContext2(rw->c, dname, strlen(dname));
  LLVMMetadataRef domain = LLVMMDNodeInContext2(rw->c, &dstr, 1);
  free(dname);
  for (size_t v = 0; v <= s->nvals; v++) {
    if (v < s->nvals && (!slot[v] || uslot[v] || !s->vals[v]))
      continue; /* not a per-thread slot of a value */
    /* The last scope is workgroup memory's. */
    char *name = v < s->nvals ? xasprintf("gpucc.slot.%s.%zu", kname, nscopes)
                              : xasprintf("gpucc.workgroup.%s", kname);
    LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(rw->c, name, strlen(name)), domain};
    free(name);
    if (v < s->nvals)
      pm_put(&scope_of, slot[v], nscopes);
    scopes[nscopes++] = LLVMMDNodeInContext2(rw->c, ops, 2);
  }
  size_t nslots = nscopes - 1, wg = nslots;
  unsigned kscope = LLVMGetMDKindIDInContext(rw->c, "alias.scope", 11);
  unsigned knoalias = LLVMGetMDKindIDInContext(rw->c, "noalias", 7);
  LLVMValueRef wg_scope = LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, &scopes[wg], 1));
  LLVMValueRef not_slots = nslots ? LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, scopes, nslots)) : NULL;
  LLVMValueRef not_any = LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, scopes, nscopes));
  LLVMMetadataRef *others = xcalloc(nscopes, sizeof *others);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      LLVMValueRef ptr;
      if (op == LLVMLoad || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
        ptr = LLVMGetOperand(i, 0);
      else if (op == LLVMStore)
        ptr = LLVMGetOperand(i, 1);
      else
        continue; /* calls keep no tag: they may touch anything */
      long sc = pm_get(&scope_of, ptr);
      if (sc >= 0) {
        size_t n = 0, mine = (size_t)sc;
        for (size_t k = 0; k < nscopes; k++)
          if (k != mine)
            others[n++] = scopes[k];
        LLVMSetMetadata(i, kscope, LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, &scopes[mine], 1)));
        LLVMSetMetadata(i, knoalias, LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, others, n)));
      } else if (LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == 3) {
        LLVMSetMetadata(i, kscope, wg_scope);
        if (not_slots)
          LLVMSetMetadata(i, knoalias, not_slots);
      } else if (argument_base(s, ptr)) {
        LLVMSetMetadata(i, knoalias, not_any);
      } else if (not_slots) {
        LLVMSetMetadata(i, knoalias, not_slots);
      }
    }
  free(others);
  free(scopes);
  pm_free(&scope_of);
}
