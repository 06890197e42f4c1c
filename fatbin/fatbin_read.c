/* fatbin_read.c: opens a blob and hands out its objects (runtime and tool
 * side).
 *
 * Opening reads the header and the manifest only: a stored payload is walked
 * (fatbin_tar.c) without copying any member (entries are tied to the members
 * they name, data in place); a compressed payload has its frames listed from
 * their headers and only the first, the manifest's, inflated. An object is
 * read when asked for (fatbin_read_object): in place when stored, else by
 * inflating the one frame that holds it and finding its member there; when
 * that frame was compressed against a dictionary (version 3), the
 * dictionary's frame is inflated first. A dictionary's frame never has one
 * itself, so a read inflates at most two frames, however many objects the
 * archive holds.
 *
 * The blob may come from anywhere, a damaged file included, so every size and
 * offset is checked against the bytes present before it is used, and every
 * allocation is bounded: by the payload size (tar members), by the manifest
 * cap (the manifest frame) or by the object cap (an object's frame), whatever
 * sizes the blob declares. An error leaves nothing allocated and a message in
 * the caller's buffer. */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_private.h"

struct fatbin {
  const unsigned char *blob; /* borrowed */
  size_t blob_size;
  struct fatbin_header header;
  const unsigned char *payload;
  size_t payload_size;
  struct fatbin_frame *frames; /* compressed payload: every frame */
  size_t nframes;
  struct fatbin_members members;         /* stored payload: every member */
  const struct fatbin_member **bound;    /* stored payload: entry i's member */
  struct fatbin_manifest manifest;
  /* Compressed payload: a decoder left by the last inflate, for the next
   * (creating one costs more than inflating a small frame). Taken and put
   * back atomically, since reads of one archive may run in several threads,
   * which then make their own. */
  _Atomic(struct ZSTD_DCtx_s *) spare;
};

/* The archive's spare decoder, or a new one (NULL: out of memory). The
 * archive is const to its readers; the spare is a cache, not its content. */
static struct ZSTD_DCtx_s *fatbin_take_decoder(const struct fatbin *fb) {
  struct ZSTD_DCtx_s *d = atomic_exchange(&((struct fatbin *)fb)->spare, NULL);
  return d ? d : fatbin_zstd_decoder();
}

static void fatbin_put_decoder(const struct fatbin *fb, struct ZSTD_DCtx_s *d) {
  struct ZSTD_DCtx_s *none = NULL;
  if (d && !atomic_compare_exchange_strong(&((struct fatbin *)fb)->spare, &none, d))
    fatbin_zstd_decoder_free(d);
}

/* Checks the header against the bytes present. */
static int fatbin_open_header(struct fatbin *fb, const void *blob, size_t size, char *err,
                              size_t errlen) {
  if (!fatbin_read_header(blob, size, &fb->header)) {
    if (blob && size < FATBIN_HEADER_SIZE &&
        memcmp(blob, FATBIN_MAGIC, size < FATBIN_MAGIC_SIZE ? size : FATBIN_MAGIC_SIZE) == 0)
      return fatbin_error(err, errlen,
                          "fatbin: truncated archive: %zu bytes, shorter than the %d-byte "
                          "header",
                          size, FATBIN_HEADER_SIZE);
    return fatbin_error(err, errlen, "fatbin: not a gpucc fat binary (bad magic)");
  }
  const struct fatbin_header *h = &fb->header;
  if (!fatbin_version_known(h->version))
    return fatbin_error(err, errlen,
                        "fatbin: unsupported fat binary version %u (this reader knows %d "
                        "to %d)",
                        (unsigned)h->version, FATBIN_VERSION_MIN, FATBIN_VERSION);
  uint32_t known = h->version >= 2 ? FATBIN_FLAG_ZSTD : 0;
  if (h->flags & ~known)
    return fatbin_error(err, errlen, "fatbin: unsupported fat binary flags 0x%x",
                        (unsigned)h->flags);
  size_t avail = size - FATBIN_HEADER_SIZE;
  if (h->payload_size > avail)
    return fatbin_error(err, errlen,
                        "fatbin: truncated archive: header says %llu bytes, %zu available",
                        (unsigned long long)h->payload_size, avail);
  fb->blob = blob;
  fb->blob_size = FATBIN_HEADER_SIZE + (size_t)h->payload_size;
  fb->payload = fb->blob + FATBIN_HEADER_SIZE;
  fb->payload_size = (size_t)h->payload_size;
  return 0;
}

static int fatbin_parse(struct fatbin *fb, const struct fatbin_member *mm, char *err,
                        size_t errlen) {
  if (!mm || strcmp(mm->name, "MANIFEST") != 0)
    return fatbin_error(err, errlen, "fatbin: the archive does not start with MANIFEST");
  return fatbin_manifest_parse(mm->data, mm->size, fb->header.version, &fb->manifest, err,
                               errlen);
}

/* Stored payload: ties every manifest entry to the member it names. */
static int fatbin_bind_members(struct fatbin *fb, char *err, size_t errlen) {
  const struct fatbin_manifest *m = &fb->manifest;
  fb->bound = calloc(m->count ? m->count : 1, sizeof *fb->bound);
  if (!fb->bound)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t i = 0; i < m->count; i++) {
    const char *file = m->infos[i].file;
    struct fatbin_member *mb = fatbin_members_find(&fb->members, file);
    if (!mb || mb == &fb->members.at[0])
      return fatbin_error(err, errlen, "fatbin: MANIFEST names '%s', which the archive lacks",
                          file);
    if (mb->claimed)
      return fatbin_error(err, errlen, "fatbin: MANIFEST names '%s' twice", file);
    if (mb->size != m->entries[i].size)
      return fatbin_error(err, errlen,
                          "fatbin: MANIFEST says '%s' has %zu bytes, the archive holds %zu",
                          file, m->entries[i].size, mb->size);
    mb->claimed = 1;
    fb->bound[i] = mb;
    m->infos[i].frame = 0;
    m->infos[i].offset = 0;
    m->infos[i].stored_size = mb->size;
    m->infos[i].frame_size = 0;
  }
  return 0;
}

static int fatbin_open_stored(struct fatbin *fb, char *err, size_t errlen) {
  if (fatbin_tar_walk(fb->payload, fb->payload_size, &fb->members, err, errlen) ||
      fatbin_parse(fb, fb->members.n ? &fb->members.at[0] : NULL, err, errlen))
    return -1;
  return fatbin_bind_members(fb, err, errlen);
}

static int fatbin_info_cmp(const void *pa, const void *pb) {
  const struct fatbin_object_info *a = *(const struct fatbin_object_info *const *)pa;
  const struct fatbin_object_info *b = *(const struct fatbin_object_info *const *)pb;
  return strcmp(a->file, b->file);
}

/* Checks that frame k may be inflated: its declared content within the
 * cap. */
static int fatbin_check_frame(const struct fatbin *fb, unsigned k, char *err, size_t errlen) {
  const struct fatbin_frame *f = &fb->frames[k];
  if (f->content > FATBIN_MAX_FRAME_SIZE)
    return fatbin_error(err, errlen,
                        "fatbin: frame %u declares %zu bytes, more than the %zu allowed", k,
                        f->content, FATBIN_MAX_FRAME_SIZE);
  return 0;
}

/* Version 3: the dictionaries. Each object's frame has one dictionary or
 * none (all objects of a frame must agree), the dictionary is a frame other
 * than its own and the manifest's (the parser refuses dict=0), and a
 * dictionary's frame has none itself, so that reading an object never
 * inflates more than two frames. */
static int fatbin_check_dicts(struct fatbin *fb, char *err, size_t errlen) {
  struct fatbin_manifest *m = &fb->manifest;
  unsigned *dict_of = calloc(fb->nframes, sizeof *dict_of);
  if (!dict_of)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = 0;
  /* dict_of[k]: 0 while no object names frame k, UINT_MAX for "none". */
  for (size_t i = 0; i < m->count && rc == 0; i++) {
    const struct fatbin_object_info *in = &m->infos[i];
    unsigned want = in->dict ? in->dict : UINT_MAX;
    if (in->dict && (in->dict >= fb->nframes || in->dict == in->frame))
      rc = fatbin_error(err, errlen,
                        "fatbin: MANIFEST gives '%s' (frame %u) frame %u as dictionary, the "
                        "archive has %zu",
                        in->file, in->frame, in->dict, fb->nframes);
    else if (dict_of[in->frame] && dict_of[in->frame] != want)
      rc = fatbin_error(err, errlen,
                        "fatbin: MANIFEST gives frame %u two different dictionaries",
                        in->frame);
    else if ((dict_of[in->frame] = want) != UINT_MAX)
      rc = fatbin_check_frame(fb, in->dict, err, errlen);
  }
  for (size_t i = 0; i < m->count && rc == 0; i++) {
    unsigned d = m->infos[i].dict;
    if (d && dict_of[d] && dict_of[d] != UINT_MAX)
      rc = fatbin_error(err, errlen,
                        "fatbin: MANIFEST gives '%s' frame %u as dictionary, which has a "
                        "dictionary itself",
                        m->infos[i].file, d);
  }
  free(dict_of);
  return rc;
}

/* Compressed payload: every object must lie inside the frame it names, its
 * dictionary be a frame that may be one, and every file be named once.
 * Nothing is inflated to check this. */
static int fatbin_check_placements(struct fatbin *fb, char *err, size_t errlen) {
  struct fatbin_manifest *m = &fb->manifest;
  for (size_t i = 0; i < m->count; i++) {
    struct fatbin_object_info *in = &m->infos[i];
    size_t size = m->entries[i].size;
    if (in->frame == 0 || in->frame >= fb->nframes)
      return fatbin_error(err, errlen,
                          "fatbin: MANIFEST puts '%s' in frame %u, the archive has %zu",
                          in->file, in->frame, fb->nframes);
    const struct fatbin_frame *f = &fb->frames[in->frame];
    if (fatbin_check_frame(fb, in->frame, err, errlen))
      return -1;
    if (in->offset < FATBIN_TAR_BLOCK || in->offset > f->content ||
        size > f->content - in->offset)
      return fatbin_error(err, errlen,
                          "fatbin: MANIFEST puts '%s' (%zu bytes at offset %zu) outside "
                          "frame %u of %zu bytes",
                          in->file, size, in->offset, in->frame, f->content);
    in->frame_size = f->content;
    in->frame_pos = f->pos;
    in->frame_stored = f->size;
  }
  if (fatbin_check_dicts(fb, err, errlen))
    return -1;
  for (size_t i = 0; i < m->count; i++) {
    struct fatbin_object_info *in = &m->infos[i];
    if (in->dict) {
      in->dict_size = fb->frames[in->dict].content;
      in->dict_pos = fb->frames[in->dict].pos;
      in->dict_stored = fb->frames[in->dict].size;
    }
  }
  const struct fatbin_object_info **by_file = malloc((m->count ? m->count : 1) * sizeof *by_file);
  if (!by_file)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t i = 0; i < m->count; i++)
    by_file[i] = &m->infos[i];
  qsort(by_file, m->count, sizeof *by_file, fatbin_info_cmp);
  int rc = 0;
  for (size_t i = 1; i < m->count && rc == 0; i++) {
    if (strcmp(by_file[i - 1]->file, by_file[i]->file) == 0)
      rc = fatbin_error(err, errlen, "fatbin: MANIFEST names '%s' twice", by_file[i]->file);
  }
  free(by_file);
  return rc;
}

static int fatbin_open_compressed(struct fatbin *fb, char *err, size_t errlen) {
  if (fatbin_zstd_frames(fb->payload, fb->payload_size, &fb->frames, &fb->nframes, err,
                         errlen))
    return -1;
  if (fb->nframes == 0)
    return fatbin_error(err, errlen, "fatbin: the archive does not start with MANIFEST");
  unsigned char *content;
  struct ZSTD_DCtx_s *dctx = fatbin_take_decoder(fb);
  if (!dctx)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int bad = fatbin_zstd_inflate(dctx, fb->payload, &fb->frames[0],
                                FATBIN_MAX_MANIFEST_SIZE + 2 * FATBIN_TAR_BLOCK, NULL, 0,
                                &content, err, errlen);
  fatbin_put_decoder(fb, dctx);
  if (bad)
    return -1;
  struct fatbin_members ms = {0};
  int rc = fatbin_tar_walk(content, fb->frames[0].content, &ms, err, errlen);
  if (rc == 0)
    rc = fatbin_parse(fb, ms.n ? &ms.at[0] : NULL, err, errlen);
  fatbin_members_free(&ms);
  free(content);
  if (rc == 0)
    rc = fatbin_check_placements(fb, err, errlen);
  return rc;
}

int fatbin_open(const void *blob, size_t size, struct fatbin **out, char *err,
                size_t errlen) {
  *out = NULL;
  struct fatbin *fb = calloc(1, sizeof *fb);
  if (!fb)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  atomic_init(&fb->spare, NULL);
  int rc = fatbin_open_header(fb, blob, size, err, errlen);
  if (rc == 0)
    rc = fb->header.flags & FATBIN_FLAG_ZSTD ? fatbin_open_compressed(fb, err, errlen)
                                             : fatbin_open_stored(fb, err, errlen);
  if (rc != 0) {
    fatbin_close(fb);
    return -1;
  }
  *out = fb;
  return 0;
}

void fatbin_close(struct fatbin *fb) {
  if (!fb)
    return;
  fatbin_zstd_decoder_free(atomic_load(&fb->spare));
  free(fb->frames);
  fatbin_members_free(&fb->members);
  free(fb->bound);
  fatbin_manifest_free(&fb->manifest);
  free(fb);
}

unsigned fatbin_version(const struct fatbin *fb) { return fb ? fb->header.version : 0; }

size_t fatbin_blob_size(const struct fatbin *fb) { return fb ? fb->blob_size : 0; }

int fatbin_is_compressed(const struct fatbin *fb) {
  return fb && (fb->header.flags & FATBIN_FLAG_ZSTD) != 0;
}

const struct fatbin_meta *fatbin_get_meta(const struct fatbin *fb) {
  return fb ? &fb->manifest.meta : NULL;
}

static int fatbin_kernel_bsearch_cmp(const void *key, const void *k) {
  return fatbin_kernel_cmp(key, k);
}

const struct fatbin_kernel *fatbin_find_kernel(const struct fatbin *fb, size_t i,
                                               const char *name) {
  if (!fb || i >= fb->manifest.count || !name || fb->manifest.nkernels == 0)
    return NULL;
  const struct fatbin_entry *e = &fb->manifest.entries[i];
  struct fatbin_kernel key = {.module = e->module, .name = name, .target = e->target};
  const struct fatbin_manifest *m = &fb->manifest;
  const struct fatbin_kernel *k =
      bsearch(&key, m->kernels, m->nkernels, sizeof *m->kernels, fatbin_kernel_bsearch_cmp);
  if (!k) {
    key.target = NULL;
    k = bsearch(&key, m->kernels, m->nkernels, sizeof *m->kernels, fatbin_kernel_bsearch_cmp);
  }
  return k;
}

const char *fatbin_compress_mode(const struct fatbin *fb) {
  return fb ? fb->manifest.compress : NULL;
}

size_t fatbin_count(const struct fatbin *fb) { return fb ? fb->manifest.count : 0; }

size_t fatbin_skipped(const struct fatbin *fb) { return fb ? fb->manifest.skipped : 0; }

const struct fatbin_entry *fatbin_get(const struct fatbin *fb, size_t i) {
  return fb && i < fb->manifest.count ? &fb->manifest.entries[i] : NULL;
}

const struct fatbin_object_info *fatbin_get_info(const struct fatbin *fb, size_t i) {
  return fb && i < fb->manifest.count ? &fb->manifest.infos[i] : NULL;
}

/* Inflates the frame holding object i (after its dictionary's frame, if it
 * has one) and finds the object in it. */
static int fatbin_read_compressed(const struct fatbin *fb, size_t i, const void **data,
                                  void **to_free, char *err, size_t errlen) {
  const struct fatbin_object_info *in = &fb->manifest.infos[i];
  const struct fatbin_entry *e = &fb->manifest.entries[i];
  unsigned char *dict = NULL, *content = NULL;
  struct ZSTD_DCtx_s *dctx = fatbin_take_decoder(fb);
  if (!dctx)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int bad = in->dict && fatbin_zstd_inflate(dctx, fb->payload, &fb->frames[in->dict],
                                            FATBIN_MAX_FRAME_SIZE, NULL, 0, &dict, err, errlen);
  if (!bad)
    bad = fatbin_zstd_inflate(dctx, fb->payload, &fb->frames[in->frame], FATBIN_MAX_FRAME_SIZE,
                              dict, in->dict ? in->dict_size : 0, &content, err, errlen);
  fatbin_put_decoder(fb, dctx);
  free(dict);
  if (bad)
    return -1;
  struct fatbin_members ms = {0};
  int rc = fatbin_tar_walk(content, fb->frames[in->frame].content, &ms, err, errlen);
  const struct fatbin_member *m = rc == 0 ? fatbin_members_find(&ms, in->file) : NULL;
  if (rc == 0 && (!m || m->data_pos != in->offset || m->size != e->size))
    rc = fatbin_error(err, errlen,
                      "fatbin: corrupt archive: '%s' is not where the MANIFEST says (frame "
                      "%u, offset %zu, %zu bytes)",
                      in->file, in->frame, in->offset, e->size);
  fatbin_members_free(&ms);
  if (rc != 0) {
    free(content);
    return -1;
  }
  *data = content + in->offset;
  *to_free = content;
  return 0;
}

int fatbin_read_object(const struct fatbin *fb, size_t i, const void **data,
                       size_t *size, void **to_free, char *err, size_t errlen) {
  *data = NULL;
  *size = 0;
  *to_free = NULL;
  if (!fb || i >= fb->manifest.count)
    return fatbin_error(err, errlen, "fatbin: no object %zu in the archive", i);
  if (fatbin_is_compressed(fb)) {
    if (fatbin_read_compressed(fb, i, data, to_free, err, errlen))
      return -1;
  } else {
    *data = fb->bound[i]->data;
  }
  *size = fb->manifest.entries[i].size;
  return 0;
}

int fatbin_verify(const struct fatbin *fb, size_t i, char *err, size_t errlen) {
  const void *data;
  size_t size;
  void *to_free;
  if (fatbin_read_object(fb, i, &data, &size, &to_free, err, errlen))
    return -1;
  const struct fatbin_object_info *in = &fb->manifest.infos[i];
  int rc = 0;
  if (in->has_sha256) {
    unsigned char sum[FATBIN_SHA256_SIZE];
    fatbin_sha256(data, size, sum);
    if (memcmp(sum, in->sha256, sizeof sum) != 0) {
      char want[2 * FATBIN_SHA256_SIZE + 1], got[2 * FATBIN_SHA256_SIZE + 1];
      fatbin_sha256_hex(in->sha256, want);
      fatbin_sha256_hex(sum, got);
      rc = fatbin_error(err, errlen, "fatbin: '%s': sha256 %s, MANIFEST says %s", in->file,
                        got, want);
    }
  }
  if (rc == 0)
    rc = fatbin_check_object(&fb->manifest.entries[i], data, size, err, errlen);
  free(to_free);
  return rc;
}
