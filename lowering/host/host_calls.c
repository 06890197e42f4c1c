/* host_calls.c: device functions that need the thread's context (host
 * target).
 *
 * On a GPU any function may read the thread's ids, wait at a barrier,
 * shuffle or touch workgroup memory; on the CPU all of that goes through the
 * ctx a kernel receives (abi/host_abi.h). So a device function that does
 * any of it, directly or through the functions it calls, gets ctx as a new
 * first parameter too, and every call to it passes the caller's own ctx
 * (the caller needs ctx for the same reason, so it has one). Found on the
 * call graph: the functions that use an NVVM intrinsic or a workgroup global
 * are the roots, their callers are added until nothing changes.
 *
 * Synchronization cannot stay inside a called function, because the block
 * entry of host_regions.c compiles a kernel's sync points into resume points
 * of the kernel itself and cannot stop in the middle of a callee. So every
 * function that synchronizes (a barrier or shuffle in it or in a function it
 * calls) is inlined into its callers, with LLVM's always-inline pass, before
 * the kernels are split: afterwards the barriers sit in the kernels, where
 * the split sees them. What cannot be inlined (a function that synchronizes
 * and is recursive) stays a call, and host_calls_sync_callee names it: that
 * kernel keeps running its threads on fibers, which can wait anywhere.
 *
 * The functions changed here are marked with string attributes, which later
 * steps read instead of holding pointers (the inliner deletes functions):
 * "gpucc-ctx" (parameter 0 is the ctx) and "gpucc-sync" (synchronizes). */
#include "host_calls.h"

#include "diag.h"
#include "xstr.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>
#include <string.h>

#define ATTR_CTX "gpucc-ctx"
#define ATTR_SYNC "gpucc-sync"

static const char *name_of(LLVMValueRef v) {
  size_t len;
  return LLVMGetValueName2(v, &len);
}

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int has_attr(LLVMValueRef f, const char *kind) {
  return LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind, (unsigned)strlen(kind)) != NULL;
}

static void add_attr(LLVMContextRef c, LLVMValueRef f, const char *kind) {
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(c, kind, (unsigned)strlen(kind), "", 0));
}

int host_calls_has_ctx(LLVMValueRef f) { return has_attr(f, ATTR_CTX); }

/* The set of device functions being converted, in discovery order. */
struct fnset {
  LLVMValueRef *fns;
  int *sync;
  size_t n, cap;
  /* the kernels (with their ctx already): callers, never converted here */
  LLVMValueRef *kernels;
  size_t nkernels;
};

static long fs_find(const struct fnset *s, LLVMValueRef f) {
  for (size_t i = 0; i < s->n; i++)
    if (s->fns[i] == f)
      return (long)i;
  return -1;
}

static void fs_add(struct fnset *s, LLVMValueRef f) {
  if (fs_find(s, f) >= 0)
    return;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->fns = realloc(s->fns, s->cap * sizeof *s->fns);
    s->sync = realloc(s->sync, s->cap * sizeof *s->sync);
    if (!s->fns || !s->sync)
      BUG("out of memory");
  }
  s->sync[s->n] = 0;
  s->fns[s->n++] = f;
}

static int is_kernel(const struct fnset *s, LLVMValueRef f) {
  for (size_t i = 0; i < s->nkernels; i++)
    if (s->kernels[i] == f)
      return 1;
  return 0;
}

static LLVMValueRef function_of(LLVMValueRef inst) {
  return LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
}

/* Whether function f calls an NVVM intrinsic (*sync: one that synchronizes). */
static int uses_nvvm(LLVMValueRef f, int *sync) {
  int any = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i))
        continue;
      LLVMValueRef callee = LLVMGetCalledValue(i);
      if (!LLVMIsAFunction(callee) || !starts_with(name_of(callee), "llvm.nvvm."))
        continue;
      any = 1;
      /* What rewrite_call (host_kernels.c) turns into gpuccHostBarrier and
       * gpuccHostShuffle. */
      if (starts_with(name_of(callee), "llvm.nvvm.barrier") ||
          starts_with(name_of(callee), "llvm.nvvm.shfl.sync."))
        *sync = 1;
    }
  return any;
}

/* Adds the functions whose instructions use v (directly or through constant
 * expressions), kernels excepted. */
static void add_users(struct fnset *s, LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAInstruction(user)) {
      LLVMValueRef f = function_of(user);
      if (!is_kernel(s, f))
        fs_add(s, f);
    } else if (LLVMIsAConstantExpr(user)) {
      add_users(s, user);
    }
  }
}

/* Finds the device functions that need ctx (see the head comment). Returns
 * 0, or -1 after reporting one whose address is taken: an indirect call
 * could not be given the ctx. */
static int find(struct rewriter *rw, struct fnset *s) {
  for (LLVMValueRef f = LLVMGetFirstFunction(rw->mod); f; f = LLVMGetNextFunction(f)) {
    int sync = 0;
    if (!LLVMIsDeclaration(f) && !is_kernel(s, f) && uses_nvvm(f, &sync)) {
      fs_add(s, f);
      s->sync[s->n - 1] = sync;
    }
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(rw->mod); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3)
      add_users(s, g);
  /* Callers, until nothing changes; s->n grows while this runs. Sync
   * propagates the same way, to a fixpoint (a caller may be found before
   * its callee is known to synchronize). */
  for (size_t i = 0; i < s->n; i++) {
    LLVMValueRef f = s->fns[i];
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != f) {
        return diag_error("host target: the address of '%s' of gpu.module @%s is taken; it reads "
                          "GPU ids, synchronizes or uses workgroup memory, which on the CPU only "
                          "direct calls can pass it the thread's context for",
                          name_of(f), rw->module_name);
      }
      LLVMValueRef caller = function_of(user);
      if (!is_kernel(s, caller))
        fs_add(s, caller);
    }
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < s->n; i++) {
      if (!s->sync[i])
        continue;
      for (LLVMUseRef u = LLVMGetFirstUse(s->fns[i]); u; u = LLVMGetNextUse(u)) {
        long k = fs_find(s, function_of(LLVMGetUser(u)));
        if (k >= 0 && !s->sync[k])
          s->sync[k] = changed = 1;
      }
    }
  }
  return 0;
}

/* Replaces each call to f by one to nf that passes the caller's ctx. */
static void retarget_calls(struct rewriter *rw, LLVMValueRef f, LLVMValueRef nf) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMUseRef u;
  while ((u = LLVMGetFirstUse(f)) != NULL) {
    LLVMValueRef call = LLVMGetUser(u); /* a direct call: find() checked */
    unsigned n = LLVMGetNumArgOperands(call);
    LLVMValueRef *args = calloc(n + 1, sizeof *args);
    if (!args)
      BUG("out of memory");
    /* The caller has been given its ctx already (it is a kernel or in the
     * set), as parameter 0. */
    args[0] = LLVMGetParam(function_of(call), 0);
    for (unsigned i = 0; i < n; i++)
      args[i + 1] = LLVMGetOperand(call, i);
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(nf), nf, args, n + 1, "");
    free(args);
    /* The inliner needs a location on every call between functions with
     * debug info (-g). */
    LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(call));
    LLVMReplaceAllUsesWith(call, nc);
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDisposeBuilder(b);
}

int host_calls_pass_ctx(struct rewriter *rw, LLVMValueRef *impls, size_t nk) {
  struct fnset s = {0};
  s.kernels = impls;
  s.nkernels = nk;
  int rc = find(rw, &s);
  LLVMValueRef *nfs = calloc(s.n + 1, sizeof *nfs);
  if (!nfs)
    BUG("out of memory");
  /* Every body first, then the calls: a call's caller must have its ctx
   * parameter when the call is rebuilt. */
  for (size_t i = 0; i < s.n && rc == 0; i++) {
    nfs[i] = host_move_with_ctx(rw, s.fns[i], "");
    add_attr(rw->c, nfs[i], ATTR_CTX);
    if (s.sync[i]) {
      add_attr(rw->c, nfs[i], ATTR_SYNC);
      LLVMAddAttributeAtIndex(nfs[i], LLVMAttributeFunctionIndex,
                              LLVMCreateEnumAttribute(rw->c, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
    }
  }
  for (size_t i = 0; i < s.n && rc == 0; i++)
    retarget_calls(rw, s.fns[i], nfs[i]);
  for (size_t i = 0; i < s.n && rc == 0; i++) {
    char *name = xasprintf("%s", name_of(s.fns[i]));
    LLVMDeleteFunction(s.fns[i]);
    LLVMSetValueName2(nfs[i], name, strlen(name));
    free(name);
  }
  int any_sync = 0;
  for (size_t i = 0; i < s.n; i++)
    any_sync |= s.sync[i];
  free(nfs);
  free(s.fns);
  free(s.sync);
  if (rc != 0 || !any_sync)
    return rc;
  /* No target machine: inlining needs none, and the module's layout is the
   * host's already. */
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(rw->mod, "always-inline", NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *m = LLVMGetErrorMessage(e);
    rc = diag_error("host target: cannot inline the device functions of gpu.module @%s that "
                    "synchronize: %s", rw->module_name, m);
    LLVMDisposeErrorMessage(m);
  }
  return rc;
}

const char *host_calls_sync_callee(LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i))
        continue;
      LLVMValueRef callee = LLVMGetCalledValue(i);
      if (LLVMIsAFunction(callee) && has_attr(callee, ATTR_SYNC))
        return name_of(callee);
    }
  return NULL;
}
