/* fatbin_read.c: opens a blob and hands out its objects (runtime and tool
 * side).
 *
 * Opening reads the header and the manifest only: a stored payload is walked
 * (fatbin_tar.c) without copying any member (entries are tied to the members
 * they name, data in place); a compressed payload has its frames listed from
 * their headers and only the first, the manifest's, inflated. An object is
 * read when asked for (fatbin_read_object): in place when stored, else by
 * inflating the one frame that holds it and finding its member there.
 *
 * The blob may come from anywhere, a damaged file included, so every size and
 * offset is checked against the bytes present before it is used, and every
 * allocation is bounded: by the payload size (tar members), by the manifest
 * cap (the manifest frame) or by the object cap (an object's frame), whatever
 * sizes the blob declares. An error leaves nothing allocated and a message in
 * the caller's buffer. */
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
};

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

/* Compressed payload: every object must lie inside the frame it names, and
 * every file be named once. Nothing is inflated to check this. */
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
    if (f->content > FATBIN_MAX_FRAME_SIZE)
      return fatbin_error(err, errlen,
                          "fatbin: frame %u declares %zu bytes, more than the %zu allowed",
                          in->frame, f->content, FATBIN_MAX_FRAME_SIZE);
    if (in->offset < FATBIN_TAR_BLOCK || in->offset > f->content ||
        size > f->content - in->offset)
      return fatbin_error(err, errlen,
                          "fatbin: MANIFEST puts '%s' (%zu bytes at offset %zu) outside "
                          "frame %u of %zu bytes",
                          in->file, size, in->offset, in->frame, f->content);
    in->frame_size = f->content;
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
  if (fatbin_zstd_inflate(fb->payload, &fb->frames[0],
                          FATBIN_MAX_MANIFEST_SIZE + 2 * FATBIN_TAR_BLOCK, &content, err,
                          errlen))
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

/* Inflates the frame holding object i and finds the object in it. */
static int fatbin_read_compressed(const struct fatbin *fb, size_t i, const void **data,
                                  void **to_free, char *err, size_t errlen) {
  const struct fatbin_object_info *in = &fb->manifest.infos[i];
  const struct fatbin_entry *e = &fb->manifest.entries[i];
  unsigned char *content;
  if (fatbin_zstd_inflate(fb->payload, &fb->frames[in->frame], FATBIN_MAX_FRAME_SIZE,
                          &content, err, errlen))
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
