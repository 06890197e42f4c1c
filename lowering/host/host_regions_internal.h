/* host_regions_internal.h: what the files of the region split share (see
 * host_regions.c for the scheme). The split state lives here because every
 * part of the split reads it: host_regions.c fills the stops, the value
 * numbering and the liveness; host_regions_uniformity.c the divergence and
 * lockstep; host_regions_narrowing.c the guards. Each function below says
 * what it needs filled before it runs. Not an interface for the rest of
 * lowering/: that is host_regions.h. */
#ifndef GPUCC_HOST_REGIONS_INTERNAL_H
#define GPUCC_HOST_REGIONS_INTERNAL_H

#include "host_build.h"

#include "diag.h"

#include <stdlib.h>
#include <string.h>

#define LANE_RESULT_OFFSET 16 /* offsetof(struct gpucc_host_lane, result) */

/* No block: a root's immediate dominator, a node the root does not reach. */
#define NONE ((size_t)-1)

/* What the step returns in probe mode when no guard bounds the round: the
 * whole row (host_regions_narrowing.c; a guard's bound is below 2^31). */
#define PROBE_ALL 0xffffffffu

/* --- small containers ---------------------------------------------------- */

/* Pointer to index, open addressing: LLVM values and blocks by identity.
 * pm_get returns -1 for a key never put. */
struct ptrmap {
  const void **keys;
  size_t *vals;
  size_t cap;
};

static inline void pm_init(struct ptrmap *m, size_t n) {
  m->cap = 64;
  while (m->cap < 2 * n + 16)
    m->cap *= 2;
  m->keys = calloc(m->cap, sizeof *m->keys);
  m->vals = calloc(m->cap, sizeof *m->vals);
  if (!m->keys || !m->vals)
    BUG("out of memory");
}

static inline size_t pm_slot(const struct ptrmap *m, const void *key) {
  size_t i = (size_t)(((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  return i;
}

static inline void pm_put(struct ptrmap *m, const void *key, size_t v) {
  size_t i = pm_slot(m, key);
  m->keys[i] = key;
  m->vals[i] = v;
}

static inline long pm_get(const struct ptrmap *m, const void *key) {
  size_t i = pm_slot(m, key);
  return m->keys[i] ? (long)m->vals[i] : -1;
}

static inline void pm_free(struct ptrmap *m) {
  free(m->keys);
  free(m->vals);
}

/* calloc that never returns NULL (running out is an internal error). */
static inline void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    BUG("out of memory");
  return p;
}

#define BIT_SET(s, i) ((s)[(i) / 64] |= 1ull << ((i) % 64))
#define BIT_TEST(s, i) (((s)[(i) / 64] >> ((i) % 64)) & 1)

static inline int starts_with(const char *str, const char *prefix) {
  return strncmp(str, prefix, strlen(prefix)) == 0;
}

/* --- the split state ----------------------------------------------------- */

struct stop {
  LLVMBasicBlockRef head, cont; /* head ends at the sync point, cont follows */
  int shuffle;
};

/* A branch on `offset + tid.x < bound` (host_regions_narrowing.c). */
struct guard;

struct split {
  struct rewriter *rw;
  LLVMValueRef fn;
  LLVMBasicBlockRef pre; /* entry: recomputed values, scratch addresses */
  LLVMValueRef t64, n64, scratch, lane;
  struct stop *stops;
  size_t nstops;
  /* tracked values: the instructions outside pre that produce a value */
  LLVMValueRef *vals;
  size_t nvals;
  struct ptrmap vix;
  uint64_t *roots; /* per value: the allocas (bit i: alloca i) it points into */
  size_t *allocas; /* value index of alloca i */
  size_t nallocas;
  LLVMBasicBlockRef *blocks;
  size_t nblocks;
  struct ptrmap bix;
  size_t words;
  uint64_t *use, *def, *in, *out;
  /* uniformity (host_regions_uniformity.c) */
  struct ptrmap dix;  /* every instruction of fn -> its index in div */
  unsigned char *div; /* may differ between the threads of a block */
  unsigned char *apart; /* per block: threads may be apart there */
  int lockstep;       /* every round is uniform, by construction */
  /* narrowing (host_regions_narrowing.c) */
  struct guard *guards;
  size_t nguards;
  struct ptrmap divbr; /* blocks ending in a divergent branch */
};

/* The step's parameters after the kernel's own (ctx, args...). */
enum {
  STEP_T,       /* i32: the thread (linearized id) */
  STEP_N,       /* i32: threads in the block */
  STEP_SCRATCH, /* ptr: the per-thread arrays */
  STEP_RESUME,  /* i32: the resume point */
  STEP_UIN,     /* ptr: block-uniform values, as the last stop left them */
  STEP_UOUT,    /* ptr: where this stop leaves them (see rebuild) */
  STEP_PROBE,   /* i1: only say how many threads the round needs (narrowing) */
  STEP_BUSY,    /* i1: the probe's guard lets every thread of this loop through */
  STEP_EXTRA
};

static inline LLVMValueRef step_param(LLVMValueRef step, unsigned which) {
  return LLVMGetParam(step, LLVMCountParams(step) - STEP_EXTRA + which);
}

/* --- host_regions_cfg.c: the control-flow graph -------------------------- */

/* Phis of succ that name `from` as a predecessor name `to` instead. */
void regions_move_tail(struct split *s, LLVMValueRef first, LLVMBasicBlockRef to);
void regions_retarget_phis(struct split *s, LLVMBasicBlockRef succ, LLVMBasicBlockRef from,
                           LLVMBasicBlockRef to);
/* Fills s->blocks and s->bix (the caller frees them) with fn's blocks. */
void regions_index_blocks(struct split *s);
/* Block indices, graphs as arrays of arrays: each returns new arrays the
 * caller frees. Successors of s->blocks[bi] (*n of them); immediate
 * (post-)dominators (NONE: none, or not reached); predecessors, with a
 * virtual exit node nb when `exit`. */
size_t *regions_successors(struct split *s, size_t bi, size_t *n);
size_t *regions_idom_tree(size_t n, size_t root, size_t **fwd, const size_t *nfwd,
                          size_t **back, const size_t *nback);
size_t **regions_predecessors(size_t nb, size_t **succ, const size_t *nsucc, int exit,
                              size_t **npred_out);
size_t *regions_post_dominators(struct split *s, size_t **succ, size_t *nsucc);

/* --- host_regions_uniformity.c: what is the same in every thread --------- */

/* Needs s->blocks (and s->stops, none before the split); fills s->dix,
 * s->div, s->apart and s->lockstep. */
void regions_uniformity(struct split *s);
/* After regions_uniformity: whether a value (an operand: also arguments
 * and constants; an instruction the analysis did not see counts as
 * divergent) may differ between the threads of a block. */
int regions_divergent_operand(struct split *s, LLVMValueRef op);
int regions_is_divergent(struct split *s, LLVMValueRef v);
/* Calls whose result depends on their operands alone. */
int regions_pure_call(LLVMValueRef call);

/* --- host_regions_narrowing.c: loops over the busy threads only ---------- */

/* The dimension of a load of ctx->tid[d], or -1. */
int regions_tid_load_dim(struct split *s, LLVMValueRef v);
/* Whether instruction i may have an effect another thread or a later round
 * could see (stores to the step's own allocas allowed when allow_local). */
int regions_has_effect(LLVMValueRef i, int allow_local);
/* After liveness and uniformity, before rebuild: fills s->guards and
 * s->divbr. */
void regions_find_guards(struct split *s);
/* After rebuild: the probe mode of the step, for the guards found. */
void regions_add_probe(struct split *s);

/* --- host_regions_implicit.c: barriers added to uniform loops ------------ */

/* Before the split, on the step (its sync calls not yet cut). */
void regions_implicit_barriers(struct split *s);

/* --- host_regions_alias.c: alias scopes ---------------------------------- */

/* At the end of rebuild: slot[v] and uslot[v] are where value v crosses
 * the stops (per thread, or once per block when uslot[v]). */
void regions_tag_memory(struct split *s, LLVMValueRef *slot, LLVMValueRef *uslot,
                        const char *kname);

/* --- host_regions_entries.c: the entry points around the step ------------ */

/* K__gpucc_block for a kernel that is or is not in lockstep; ubytes as
 * rebuild sized it, probe when the step has a probe mode. */
void regions_emit_block_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
                              size_t nstops);
void regions_emit_lockstep_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
                                 size_t nstops, uint64_t ubytes, int probe);

#endif
