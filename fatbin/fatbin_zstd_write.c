/* fatbin_zstd_write.c: compressing a tar into zstd frames (writer side).
 *
 * One frame per call, whose window spans the whole frame so that the sm_90
 * cubin is coded as differences to the sm_80 one. Compression flushes at
 * every member boundary, which ends a zstd block there without forgetting
 * the window: it costs a few bytes and tells exactly how many compressed
 * bytes each member accounts for, which `gpucc-fatbin list` shows.
 *
 * Apart from fatbin_zstd.c so that readers (the runtime) never link the
 * compressor. */
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

static int fatbin_zstd_check(size_t r, char *err, size_t errlen) {
  if (!ZSTD_isError(r))
    return 0;
  return fatbin_error(err, errlen, "fatbin: compression failed: %s", ZSTD_getErrorName(r));
}

static int fatbin_zstd_setup(ZSTD_CCtx *cctx, size_t size, int level, char *err,
                             size_t errlen) {
  int wlog = fatbin_window_log(size);
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
  if (size > ((size_t)4 << 20) &&
      fatbin_zstd_check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_enableLongDistanceMatching, 1),
                        err, errlen))
    return -1;
  return 0;
}

int fatbin_zstd_frame(struct fatbin_buf *out, const unsigned char *content, size_t size,
                      int level, const size_t *ends, size_t *stored, size_t npieces,
                      char *err, size_t errlen) {
  ZSTD_CCtx *cctx = ZSTD_createCCtx();
  if (!cctx)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = fatbin_zstd_setup(cctx, size, level, err, errlen);
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
