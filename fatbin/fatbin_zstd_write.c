/* fatbin_zstd_write.c: compressing a tar into zstd frames (writer side).
 *
 * One frame per call, whose window spans the whole frame and its
 * dictionary, so that the sm_90 cubin is coded as differences to the sm_86
 * one it is given as dictionary (a raw-content prefix: its bytes precede the
 * frame's in the window, and nothing else of the dictionary is stored).
 * Compression flushes at every piece boundary the caller asks for, which
 * ends a zstd block there without forgetting the window: it tells exactly
 * how many compressed bytes each piece accounts for, which `gpucc-fatbin
 * list` shows. A trial (fatbin_trial_size) estimates such a frame's size
 * without keeping it, for the writer's choice of dictionaries.
 *
 * Apart from fatbin_zstd.c so that readers (the runtime) never link the
 * compressor. */
#include <stdint.h>
#include <stdlib.h>

#include <zstd.h>

#include "fatbin_private.h"

/* The window, as a power of two, that spans `size` bytes (within zstd's
 * limits and the 128 MiB every decoder accepts by default). */
static int fatbin_window_log(size_t size) {
  int log = 10; /* ZSTD_WINDOWLOG_MIN, which zstd.h hides behind STATIC_LINKING_ONLY */
  while (log < FATBIN_MAX_WINDOW_LOG && ((size_t)1 << log) < size)
    log++;
  return log;
}

/* dict + size, saturating: what the window should span. */
static size_t fatbin_span(size_t dict_size, size_t size) {
  return dict_size > SIZE_MAX - size ? SIZE_MAX : dict_size + size;
}

static int fatbin_zstd_check(size_t r, char *err, size_t errlen) {
  if (!ZSTD_isError(r))
    return 0;
  return fatbin_error(err, errlen, "fatbin: compression failed: %s", ZSTD_getErrorName(r));
}

static int fatbin_zstd_setup(ZSTD_CCtx *cctx, size_t size, const unsigned char *dict,
                             size_t dict_size, int level, char *err, size_t errlen) {
  size_t span = fatbin_span(dict ? dict_size : 0, size);
  int wlog = fatbin_window_log(span);
  if (fatbin_zstd_check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level), err,
                        errlen) ||
      fatbin_zstd_check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, wlog), err, errlen) ||
      fatbin_zstd_check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1), err, errlen) ||
      fatbin_zstd_check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1), err,
                        errlen) ||
      fatbin_zstd_check(ZSTD_CCtx_setPledgedSrcSize(cctx, size), err, errlen))
    return -1;
  /* Long-distance matching finds repeats far back in a big window cheaply;
   * below a few MiB the regular match finder sees the whole frame anyway. */
  if (span > ((size_t)4 << 20) &&
      fatbin_zstd_check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_enableLongDistanceMatching, 1),
                        err, errlen))
    return -1;
  /* A prefix is used for the next frame only, and never digested into
   * entropy tables: decoding it costs nothing but its bytes. */
  if (dict && fatbin_zstd_check(ZSTD_CCtx_refPrefix(cctx, dict, dict_size), err, errlen))
    return -1;
  return 0;
}

int fatbin_zstd_frame(struct fatbin_buf *out, const unsigned char *content, size_t size,
                      const unsigned char *dict, size_t dict_size, int level,
                      const size_t *ends, size_t *stored, size_t npieces, char *err,
                      size_t errlen) {
  ZSTD_CCtx *cctx = ZSTD_createCCtx();
  if (!cctx)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = fatbin_zstd_setup(cctx, size, dict, dict_size, level, err, errlen);
  size_t start = 0;
  for (size_t k = 0; rc == 0 && k < npieces; k++) {
    if (ends[k] < start || ends[k] > size || (k + 1 == npieces && ends[k] != size)) {
      rc = fatbin_error(err, errlen, "fatbin: internal error: bad frame piece %zu", k);
      break;
    }
    ZSTD_inBuffer in = {content + start, ends[k] - start, 0};
    ZSTD_EndDirective mode = k + 1 == npieces ? ZSTD_e_end : ZSTD_e_flush;
    size_t before = out->len, left;
    do {
      if (fatbin_buf_reserve(out, ZSTD_CStreamOutSize()) != 0) {
        rc = fatbin_error(err, errlen, "fatbin: out of memory");
        break;
      }
      ZSTD_outBuffer ob = {out->data + out->len, out->cap - out->len, 0};
      left = ZSTD_compressStream2(cctx, &ob, &in, mode);
      if ((rc = fatbin_zstd_check(left, err, errlen)) != 0)
        break;
      out->len += ob.pos;
    } while (left != 0 || in.pos < in.size);
    stored[k] = out->len - before;
    start = ends[k];
  }
  if (npieces == 0 && rc == 0)
    rc = fatbin_error(err, errlen, "fatbin: internal error: a frame of no pieces");
  ZSTD_freeCCtx(cctx);
  return rc;
}

struct fatbin_trial {
  ZSTD_CCtx *cctx;
  struct fatbin_buf out;
};

struct fatbin_trial *fatbin_trial_new(void) {
  struct fatbin_trial *t = calloc(1, sizeof *t);
  if (t && !(t->cctx = ZSTD_createCCtx())) {
    free(t);
    t = NULL;
  }
  return t;
}

void fatbin_trial_free(struct fatbin_trial *t) {
  if (!t)
    return;
  ZSTD_freeCCtx(t->cctx);
  free(t->out.data);
  free(t);
}

size_t fatbin_trial_size(struct fatbin_trial *t, const unsigned char *content, size_t size,
                         const unsigned char *dict, size_t dict_size) {
  size = size < FATBIN_TRIAL_BYTES ? size : FATBIN_TRIAL_BYTES;
  dict_size = dict_size < FATBIN_TRIAL_BYTES ? dict_size : FATBIN_TRIAL_BYTES;
  size_t bound = ZSTD_compressBound(size);
  t->out.len = 0;
  if (ZSTD_isError(ZSTD_CCtx_reset(t->cctx, ZSTD_reset_session_and_parameters)) ||
      fatbin_zstd_setup(t->cctx, size, dict, dict_size, FATBIN_LEVEL_TRIAL, NULL, 0) != 0 ||
      fatbin_buf_reserve(&t->out, bound) != 0)
    return SIZE_MAX;
  size_t r = ZSTD_compress2(t->cctx, t->out.data, bound, content, size);
  return ZSTD_isError(r) ? SIZE_MAX : r;
}
