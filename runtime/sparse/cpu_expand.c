/* cpu_expand.c: a sparse matrix of any format as its list of entries.
 *
 * The CPU kernels work on one representation, (row, column, value) per
 * entry in storage order, so that COO, CSR, CSC and BSR, with any index
 * type, each need only a reader here. Storage order matters: SDDMM writes
 * its results back into the matrix's own value slots, entry k to slot k.
 *
 * Everything a program passes is checked before it is used: offsets must
 * start at 0, never decrease and end at nnz; indices must lie in the
 * shape. On a GPU a bad index is undefined behaviour; here it would be a
 * wild read or write in the host process, so it is reported instead, with
 * the entry that is wrong. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sparse.h"

void sp_entries_free(struct sp_entries *e) {
  free(e->row);
  free(e->col);
  free(e->val);
  e->row = e->col = NULL;
  e->val = NULL;
}

static int entries_alloc(struct sp_entries *e, int64_t count, char *why, size_t len) {
  size_t n = count > 0 ? (size_t)count : 1;
  e->count = count;
  e->row = malloc(n * sizeof *e->row);
  e->col = malloc(n * sizeof *e->col);
  e->val = malloc(n * sizeof *e->val);
  if (e->row && e->col && e->val)
    return 0;
  sp_entries_free(e);
  snprintf(why, len, "out of memory reading %" PRId64 " entries", count);
  return -1;
}

/* Checks offsets pos[0..n] of a compressed format (CSR, CSC, BSR). */
static int check_offsets(const struct sp_matrix *m, int64_t n, char *why, size_t len) {
  int64_t prev = sp_index_load(m->ptype, m->pos, 0);
  if (prev != 0) {
    snprintf(why, len, "%s offsets start at %" PRId64 ", not 0", sp_format_name(m->format), prev);
    return -1;
  }
  for (int64_t i = 1; i <= n; i++) {
    int64_t p = sp_index_load(m->ptype, m->pos, i);
    if (p < prev || p > m->nnz) {
      snprintf(why, len, "%s offset %" PRId64 " is %" PRId64 " (after %" PRId64 ", with %" PRId64
               " entries)", sp_format_name(m->format), i, p, prev, m->nnz);
      return -1;
    }
    prev = p;
  }
  if (prev != m->nnz) {
    snprintf(why, len, "%s offsets end at %" PRId64 ", not at the %" PRId64 " entries",
             sp_format_name(m->format), prev, m->nnz);
    return -1;
  }
  return 0;
}

static int bad_index(const struct sp_matrix *m, const char *what, int64_t k, int64_t v,
                     int64_t limit, char *why, size_t len) {
  snprintf(why, len, "%s %s of entry %" PRId64 " is %" PRId64 ", outside 0..%" PRId64
           " of a %" PRId64 "x%" PRId64 " matrix", sp_format_name(m->format), what, k, v,
           limit - 1, m->rows, m->cols);
  return -1;
}

int sp_entries_read(const struct sp_matrix *m, struct sp_entries *e, char *why, size_t len) {
  int64_t count = m->format == SP_BSR ? m->nnz * m->rblock * m->cblock : m->nnz;
  e->rows = m->format == SP_BSR ? m->rows * m->rblock : m->rows;
  e->cols = m->format == SP_BSR ? m->cols * m->cblock : m->cols;
  if (entries_alloc(e, count, why, len) != 0)
    return -1;
  for (int64_t k = 0; k < count; k++)
    e->val[k] = sp_load(m->dtype, m->vals, k);

  switch (m->format) {
  case SP_COO:
  case SP_COO_AOS:
    for (int64_t k = 0; k < m->nnz; k++) {
      int aos = m->format == SP_COO_AOS;
      int64_t r = aos ? sp_index_load(m->itype, m->idx, 2 * k) : sp_index_load(m->itype, m->pos, k);
      int64_t c = aos ? sp_index_load(m->itype, m->idx, 2 * k + 1) : sp_index_load(m->itype, m->idx, k);
      if (r < 0 || r >= m->rows) {
        bad_index(m, "row", k, r, m->rows, why, len);
        goto fail;
      }
      if (c < 0 || c >= m->cols) {
        bad_index(m, "column", k, c, m->cols, why, len);
        goto fail;
      }
      e->row[k] = r;
      e->col[k] = c;
    }
    return 0;
  case SP_CSR:
  case SP_CSC: {
    int csr = m->format == SP_CSR;
    int64_t outer = csr ? m->rows : m->cols, inner = csr ? m->cols : m->rows;
    if (check_offsets(m, outer, why, len) != 0)
      goto fail;
    for (int64_t i = 0; i < outer; i++) {
      int64_t end = sp_index_load(m->ptype, m->pos, i + 1);
      for (int64_t k = sp_index_load(m->ptype, m->pos, i); k < end; k++) {
        int64_t j = sp_index_load(m->itype, m->idx, k);
        if (j < 0 || j >= inner) {
          bad_index(m, csr ? "column" : "row", k, j, inner, why, len);
          goto fail;
        }
        e->row[k] = csr ? i : j;
        e->col[k] = csr ? j : i;
      }
    }
    return 0;
  }
  case SP_BSR: {
    if (check_offsets(m, m->rows, why, len) != 0)
      goto fail;
    int64_t block = m->rblock * m->cblock;
    for (int64_t i = 0; i < m->rows; i++) {
      int64_t end = sp_index_load(m->ptype, m->pos, i + 1);
      for (int64_t b = sp_index_load(m->ptype, m->pos, i); b < end; b++) {
        int64_t j = sp_index_load(m->itype, m->idx, b);
        if (j < 0 || j >= m->cols) {
          bad_index(m, "block column", b, j, m->cols, why, len);
          goto fail;
        }
        /* blocks are row-major inside (cuSPARSE's CUSPARSE_ORDER_ROW) */
        for (int64_t t = 0; t < block; t++) {
          e->row[b * block + t] = i * m->rblock + t / m->cblock;
          e->col[b * block + t] = j * m->cblock + t % m->cblock;
        }
      }
    }
    return 0;
  }
  }
fail:
  sp_entries_free(e);
  return -1;
}
