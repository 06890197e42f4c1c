/* fatbin_zstd.c: the zstd frames of a compressed payload, reading side.
 *
 * A compressed payload is the tar cut into pieces at member boundaries, each
 * piece compressed as one standard zstd frame (with its content size and a
 * checksum), the frames simply concatenated. The writer (fatbin_write.c)
 * puts the manifest in a frame of its own, then one frame per object, and
 * the end-of-archive records last; an object's frame may be compressed
 * against the content of another frame, its dictionary (a raw-content
 * prefix, as `zstd -d -D` takes it), which the manifest names.
 *
 * Reading never inflates more than the frame that holds the object asked
 * for and its dictionary's frame, each in one call into a buffer of the
 * frame's declared size: no window buffer, no streaming state, and zstd
 * checks the frame's checksum. Frame headers are read with
 * ZSTD_findFrameCompressedSize, which walks block headers without decoding,
 * so opening an archive costs nothing per object.
 *
 * Only decompression is called here, so that the runtime, which links this
 * file, pulls nothing of libzstd's compressor out of libzstd.a. */
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

struct ZSTD_DCtx_s *fatbin_zstd_decoder(void) { return ZSTD_createDCtx(); }

void fatbin_zstd_decoder_free(ZSTD_DCtx *dctx) { ZSTD_freeDCtx(dctx); }

int fatbin_zstd_inflate(ZSTD_DCtx *dctx, const unsigned char *p, const struct fatbin_frame *f,
                        size_t cap, const unsigned char *dict, size_t dict_size,
                        unsigned char **out, char *err, size_t errlen) {
  *out = NULL;
  if (f->content > cap)
    return fatbin_error(err, errlen,
                        "fatbin: compressed frame declares %zu bytes, more than the "
                        "%zu allowed",
                        f->content, cap);
  unsigned char *buf = malloc(f->content ? f->content : 1);
  if (!buf)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  /* Nothing of an earlier use (a dictionary) carries over. A prefix costs
   * nothing to set: no copy, no tables, since it is raw content, as the
   * writer's always is. */
  size_t r = ZSTD_DCtx_reset(dctx, ZSTD_reset_session_and_parameters);
  if (!ZSTD_isError(r) && dict)
    r = ZSTD_DCtx_refPrefix(dctx, dict, dict_size);
  if (!ZSTD_isError(r))
    r = ZSTD_decompressDCtx(dctx, buf, f->content, p + f->pos, f->size);
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
