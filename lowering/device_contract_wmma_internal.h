/* device_contract_wmma_internal.h: what the files of the contraction to
 * wmma rewrite share. Layers, bottom up: device_wmma_match.c checks a
 * contraction's pieces, device_wmma_build.c builds the warp's ops,
 * device_contract_wmma_loop.c matches and rewrites one accumulated in a
 * k-loop, device_contract_wmma.c one contraction and the module walk. */
#ifndef GPUCC_DEVICE_CONTRACT_WMMA_INTERNAL_H
#define GPUCC_DEVICE_CONTRACT_WMMA_INTERNAL_H

#include <mlir-c/IR.h>
#include <stdint.h>

#define WMMA_TILE 16
/* wmma's operands in memory start on 256 bits (CUDA's load_matrix_sync). */
#define WMMA_ALIGN 32

enum { A, B, C, D };

/* The multiplicands' type, as the tensor core takes them. */
enum wmma_operands { WMMA_F16, WMMA_BF16, WMMA_S8, WMMA_U8 };

/* One tile in memory: a transfer_read (A, B, C) or the transfer_write (D). */
struct tile {
  MlirOperation op;
  MlirValue memref;
  intptr_t first_index, rank; /* op's operands first_index.. are the indices */
  int64_t ld;                 /* elements from one row to the next */
  MlirType elem;
  int transpose; /* A read as (k, m), B as (n, k): column-major for wmma */
};

struct match {
  MlirOperation contract, kernel;
  struct tile t[4];         /* t[C].op null: C is a splat, `splat` or `fill` */
  MlirOperation ext[2];     /* the extension of A's or B's read, or null */
  MlirAttribute splat;      /* a constant's, or null */
  MlirValue fill;           /* or a warp-uniform scalar's (vector.broadcast) */
  MlirType acc;             /* the accumulator's element type */
  enum wmma_operands operands;
  MlirOperation loop;       /* the scf.for that carries the accumulator, or null */
};

/* ---- device_wmma_match.c: the checks of a contraction's pieces ---- */

/* Whether op's attribute `name` prints as `want`. */
int wmma_attr_is(MlirOperation op, const char *name, const char *want);


/* Whether op (a transfer_read, or the transfer_write when `write`) moves a
 * warp-uniform 16x16 tile of elem that wmma can address; fills *t. */
int wmma_tile_access(MlirOperation op, int write, MlirType elem, struct tile *t);

/* Whether op leaves memory as it is (it may read it). */
int wmma_writes_nothing(MlirOperation op);

/* The A, B operands and the result type of m->contract: fills m->t[A],
 * m->t[B], m->ext, m->acc, m->operands for `chip` (sm_XX as XX). */
int wmma_match_operands(struct match *m, int chip);

/* The accumulator `v`: a splat constant, a broadcast warp-uniform scalar
 * or a tile read. */
int wmma_match_accumulator(struct match *m, MlirValue v);

/* Whether every use of op's results is by one of ops[0..n). */
int wmma_used_only_by(MlirOperation op, const MlirOperation *ops, size_t n);

/* ---- device_contract_wmma_loop.c ---- */

/* Whether m->contract (its operands matched) accumulates into the
 * iter_arg of an scf.for whose one result a tile write stores after the
 * loop; completes *m. */
int wmma_match_loop(struct match *m);

/* The rewrite of a match with m->loop. 0 or -1 (reported). */
int wmma_rewrite_loop(const struct match *m);

/* ---- device_wmma_build.c ---- */

/* Small ops before at: an index constant, a binary op of a's type, and
 * the i1 `v % n == 0` (v an index). */
MlirValue wmma_index_const(MlirOperation at, int64_t v);
MlirValue wmma_binary(MlirOperation at, const char *name, MlirValue a, MlirValue b);
MlirValue wmma_multiple_of(MlirOperation at, MlirValue v, int64_t n);

/* i1 before at: the tile starts on the 32 bytes wmma needs. `index`, when
 * not null, replaces the tile's index operands (values before at). */
MlirValue wmma_tile_aligned(MlirOperation at, const struct tile *t, const MlirValue *index);

/* i1 before at: every lane of the warp is active (activemask), or a null
 * value when the kernel's known_block_size proves it. */
MlirValue wmma_whole_warp(MlirOperation at, MlirOperation kernel);

/* cond && more before at (cond may be null). */
MlirValue wmma_and(MlirOperation at, MlirValue cond, MlirValue more);

/* The accumulator fragment type for m. */
MlirType wmma_acc_type(const struct match *m);

/* The C fragment before at: loaded from tile `c` (operands from c->op), or
 * the splat of m->splat or m->fill. */
MlirValue wmma_load_acc(MlirOperation at, const struct match *m, const struct tile *c);

/* The product A x B + acc before at, A and B loaded from the tiles given
 * (their ops give the memref and indices). */
MlirValue wmma_multiply(MlirOperation at, const struct match *m, const struct tile *a, const struct tile *b,
                        MlirValue acc);

/* Stores fragment d to tile `t` before at. */
void wmma_store(MlirOperation at, const struct tile *t, MlirValue d);

#endif
