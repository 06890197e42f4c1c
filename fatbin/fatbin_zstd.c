/* fatbin_zstd.c: the zstd frames of a compressed payload.
 *
 * A compressed payload is the tar cut into pieces at member boundaries, each
 * piece compressed as one standard zstd frame (with its content size and a
 * checksum), the frames simply concatenated: `zstd -d` or bsdtar turn it back
 * into the tar. The writer puts the manifest in a frame of its own, then one
 * frame per (module, vendor, format), whose window spans the whole frame so
 * that the sm_90 cubin is coded as differences to the sm_80 one, and the
 * end-of-archive records last.
 *
 * Compression flushes at every member boundary, which ends a zstd block
 * there without forgetting the window: it costs a few bytes and tells
 * exactly how many compressed bytes each member accounts for, which
 * `gpucc-fatbin list` shows.
 *
 * Reading never inflates more than the frame that holds the object asked
 * for, in one call into a buffer of the frame's declared size: no window
 * buffer, no streaming state, and zstd checks the frame's checksum. Frame
 * headers are read with ZSTD_findFrameCompressedSize, which walks block
 * headers without decoding, so opening an archive costs nothing per object. */
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "fatbin_private.h"

#define FATBIN_ZSTD_MAGIC 0xFD2FB528u

int fatbin_zstd_frames(const unsigned char *p, size_t size, struct fatbin_frame **frames,
                       size_t *n, char *err, size_t errlen) {
  *frames = NULL;
  *n = 0;
  size_t cap = 0, pos = 0;
  while (pos < size) {
    size_t rem = size - pos;
    if (rem < 4 || fatbin_le32(p + pos) != FATBIN_ZSTD_MAGIC)
      return fatbin_error(err, errlen,
                          "fatbin: corrupt compressed archive: no zstd frame at payload "
                          "offset %zu",
                          pos);
    size_t csize = ZSTD_findFrameCompressedSize(p + pos, rem);
    if (ZSTD_isError(csize))
      return fatbin_error(err, errlen,
                          "fatbin: corrupt compressed archive: frame %zu at payload "
                          "offset %zu: %s",
                          *n, pos, ZSTD_getErrorName(csize));
    unsigned long long content = ZSTD_getFrameContentSize(p + pos, rem);
    if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR ||
        content > SIZE_MAX)
      return fatbin_error(err, errlen,
                          "fatbin: corrupt compressed archive: frame %zu does not record "
                          "its size",
                          *n);
    if (*n == cap) {
      size_t ncap = cap ? cap * 2 : 8;
      struct fatbin_frame *f = realloc(*frames, ncap * sizeof *f);
      if (!f)
        return fatbin_error(err, errlen, "fatbin: out of memory");
      *frames = f;
      cap = ncap;
    }
    (*frames)[(*n)++] = (struct fatbin_frame){pos, csize, (size_t)content};
    pos += csize;
  }
  return 0;
}

int fatbin_zstd_inflate(const unsigned char *p, const struct fatbin_frame *f, size_t cap,
                        unsigned char **out, char *err, size_t errlen) {
  *out = NULL;
  if (f->content > cap)
    return fatbin_error(err, errlen,
                        "fatbin: compressed frame declares %zu bytes, more than the "
                        "%zu allowed",
                        f->content, cap);
  unsigned char *buf = malloc(f->content ? f->content : 1);
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  if (!buf || !dctx) {
    free(buf);
    ZSTD_freeDCtx(dctx);
    return fatbin_error(err, errlen, "fatbin: out of memory");
  }
  size_t r = ZSTD_decompressDCtx(dctx, buf, f->content, p + f->pos, f->size);
  ZSTD_freeDCtx(dctx);
  if (ZSTD_isError(r) || r != f->content) {
    free(buf);
    if (ZSTD_isError(r))
      return fatbin_error(err, errlen, "fatbin: corrupt compressed archive: %s",
                          ZSTD_getErrorName(r));
    return fatbin_error(err, errlen,
                        "fatbin: corrupt compressed archive: frame holds %zu bytes, "
                        "its header says %zu",
                        r, f->content);
  }
  *out = buf;
  return 0;
}

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
