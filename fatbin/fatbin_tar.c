/* fatbin_tar.c: lists the members of a tar held in memory.
 *
 * gpucc's own reader for the one tar dialect blobs use: POSIX ustar as
 * libarchive writes it (512-byte records, octal numbers, a long name split
 * into prefix and name). It is ours rather than libarchive's because the
 * runtime reads blobs too, and a program linked with the static runtime
 * must need nothing beyond the C library: libarchive would bring libxml2,
 * ICU, nettle, lzma and more into every executable. libarchive still
 * writes the tar (fatbin_write.c), and bsdtar or GNU tar still read it.
 *
 * The reader uses it on a stored payload (the whole tar), on the manifest's
 * frame and on an object's inflated frame (tar fragments that end at a
 * member boundary, without end records); the writer uses it to learn where
 * libarchive put each member. Member data is never copied: every member
 * points into the buffer, and its offset there is what the manifest records.
 *
 * Every blob may be hostile, so a header counts only when its checksum is
 * right and its numbers are octal, and a member only when its data and its
 * padding to the next record lie inside the buffer; nothing is allocated
 * for a member before that. Only plain files are accepted: links,
 * directories and extension headers (pax, GNU) are errors, since the writer
 * never produces them. The walk ends at a zero record (the end-of-archive
 * marker; what follows is ignored, as tar readers do) or exactly at the end
 * of the buffer; a partial record there is a truncated archive. */
#include <stdlib.h>
#include <string.h>

#include "fatbin_private.h"

/* Field offsets and sizes of a ustar header record. */
#define TAR_NAME 0
#define TAR_NAME_LEN 100
#define TAR_SIZE 124
#define TAR_SIZE_LEN 12
#define TAR_CHKSUM 148
#define TAR_CHKSUM_LEN 8
#define TAR_TYPE 156
#define TAR_MAGIC 257 /* "ustar\0" then version "00" */
#define TAR_PREFIX 345
#define TAR_PREFIX_LEN 155

/* Parses an octal field the way tar writers fill it: optional leading
 * spaces, octal digits, then NUL or space padding to the field's end.
 * Returns 0 with *out set, -1 for anything else (base-256 numbers
 * included: no member of a blob is large enough to need them). */
static int fatbin_tar_octal(const unsigned char *p, size_t len, uint64_t *out) {
  size_t i = 0;
  while (i < len && p[i] == ' ')
    i++;
  uint64_t v = 0;
  size_t digits = 0;
  for (; i < len && p[i] >= '0' && p[i] <= '7'; i++, digits++) {
    if (v > (UINT64_MAX >> 3))
      return -1;
    v = v << 3 | (uint64_t)(p[i] - '0');
  }
  if (digits == 0)
    return -1;
  for (; i < len; i++)
    if (p[i] != '\0' && p[i] != ' ')
      return -1;
  *out = v;
  return 0;
}

/* The checksum is the sum of the header's bytes with its own field read as
 * spaces. Historic writers summed signed chars, so either sum is accepted,
 * as every tar reader does. */
static int fatbin_tar_checksum_ok(const unsigned char *h) {
  uint64_t want;
  if (fatbin_tar_octal(h + TAR_CHKSUM, TAR_CHKSUM_LEN, &want) != 0)
    return 0;
  uint64_t usum = 0;
  int64_t ssum = 0;
  for (size_t i = 0; i < FATBIN_TAR_BLOCK; i++) {
    int in_field = i >= TAR_CHKSUM && i < TAR_CHKSUM + TAR_CHKSUM_LEN;
    unsigned char c = in_field ? ' ' : h[i];
    usum += c;
    ssum += (signed char)c;
  }
  return usum == want || (ssum >= 0 && (uint64_t)ssum == want);
}

static int fatbin_tar_is_zero(const unsigned char *h) {
  for (size_t i = 0; i < FATBIN_TAR_BLOCK; i++)
    if (h[i])
      return 0;
  return 1;
}

/* A fixed-size name field holds up to len bytes, NUL-terminated if shorter. */
static size_t fatbin_tar_field_len(const unsigned char *p, size_t len) {
  const unsigned char *nul = memchr(p, '\0', len);
  return nul ? (size_t)(nul - p) : len;
}

/* The member's path: "prefix/name" when the writer split it, else name.
 * malloc'ed; NULL when out of memory. */
static char *fatbin_tar_name(const unsigned char *h) {
  size_t nlen = fatbin_tar_field_len(h + TAR_NAME, TAR_NAME_LEN);
  size_t plen = fatbin_tar_field_len(h + TAR_PREFIX, TAR_PREFIX_LEN);
  char *s = malloc(plen + 1 + nlen + 1);
  if (!s)
    return NULL;
  size_t k = 0;
  if (plen) {
    memcpy(s, h + TAR_PREFIX, plen);
    k = plen;
    s[k++] = '/';
  }
  memcpy(s + k, h + TAR_NAME, nlen);
  s[k + nlen] = '\0';
  return s;
}

static int fatbin_members_grow(struct fatbin_members *ms, char *err, size_t errlen) {
  if (ms->n < ms->cap)
    return 0;
  size_t ncap = ms->cap ? ms->cap * 2 : 8;
  struct fatbin_member *p = realloc(ms->at, ncap * sizeof *p);
  if (!p)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  ms->at = p;
  ms->cap = ncap;
  return 0;
}

/* Adds the member whose header is at buf + pos to ms and tells where the
 * next header is (*next). */
static int fatbin_tar_member(const unsigned char *buf, size_t size, size_t pos,
                             struct fatbin_members *ms, size_t *next, char *err,
                             size_t errlen) {
  const unsigned char *h = buf + pos;
  if (memcmp(h + TAR_MAGIC, "ustar\0" "00", 8) != 0)
    return fatbin_error(err, errlen,
                        "fatbin: damaged archive: no ustar header at offset %zu", pos);
  if (!fatbin_tar_checksum_ok(h))
    return fatbin_error(err, errlen,
                        "fatbin: damaged archive: bad header checksum at offset %zu", pos);
  if (h[TAR_NAME] == '\0')
    return fatbin_error(err, errlen, "fatbin: archive member %zu has no usable name", ms->n);
  if (fatbin_members_grow(ms, err, errlen))
    return -1;
  char *name = fatbin_tar_name(h);
  if (!name)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  /* Recorded before any further check, so that its name is freed with the
   * others whatever happens next. */
  struct fatbin_member *m = &ms->at[ms->n++];
  *m = (struct fatbin_member){.name = name, .header_pos = pos};
  size_t nlen = strlen(name);
  if ((h[TAR_TYPE] != '0' && h[TAR_TYPE] != '\0') || (nlen && name[nlen - 1] == '/'))
    return fatbin_error(err, errlen, "fatbin: archive member '%s' is not a plain file", name);
  uint64_t msize;
  if (fatbin_tar_octal(h + TAR_SIZE, TAR_SIZE_LEN, &msize) != 0)
    return fatbin_error(err, errlen, "fatbin: damaged archive: member '%s' has a bad size",
                        name);
  size_t data = pos + FATBIN_TAR_BLOCK, avail = size - data;
  /* Size first, then padding: neither sum can overflow once msize is known
   * to be at most what the buffer holds. */
  if (msize > avail)
    return fatbin_error(err, errlen,
                        "fatbin: truncated archive: member '%s' says %llu bytes, %zu "
                        "available",
                        name, (unsigned long long)msize, avail);
  size_t padded = ((size_t)msize + FATBIN_TAR_BLOCK - 1) / FATBIN_TAR_BLOCK * FATBIN_TAR_BLOCK;
  if (padded > avail)
    return fatbin_error(err, errlen,
                        "fatbin: truncated archive: member '%s' lacks its padding", name);
  m->data = buf + data;
  m->size = (size_t)msize;
  m->data_pos = data;
  *next = data + padded;
  return 0;
}

static int fatbin_member_cmp(const void *pa, const void *pb) {
  const struct fatbin_member *a = *(const struct fatbin_member *const *)pa;
  const struct fatbin_member *b = *(const struct fatbin_member *const *)pb;
  return strcmp(a->name, b->name);
}

/* Sorts pointers to the members by name, for lookups and to find a name
 * that appears twice, in n log n: a hostile archive of many tiny members
 * must not make the walk quadratic. */
static int fatbin_members_index(struct fatbin_members *ms, char *err, size_t errlen) {
  free(ms->sorted);
  ms->sorted = malloc((ms->n ? ms->n : 1) * sizeof *ms->sorted);
  if (!ms->sorted)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t i = 0; i < ms->n; i++)
    ms->sorted[i] = &ms->at[i];
  qsort(ms->sorted, ms->n, sizeof *ms->sorted, fatbin_member_cmp);
  for (size_t i = 1; i < ms->n; i++) {
    if (strcmp(ms->sorted[i - 1]->name, ms->sorted[i]->name) == 0)
      return fatbin_error(err, errlen, "fatbin: archive member '%s' appears twice",
                          ms->sorted[i]->name);
  }
  return 0;
}

int fatbin_tar_walk(const unsigned char *buf, size_t size, struct fatbin_members *ms,
                    char *err, size_t errlen) {
  size_t pos = 0;
  while (pos < size) {
    if (size - pos < FATBIN_TAR_BLOCK)
      return fatbin_error(err, errlen,
                          "fatbin: truncated archive: %zu bytes at offset %zu, less than a "
                          "tar header",
                          size - pos, pos);
    if (fatbin_tar_is_zero(buf + pos))
      break; /* the end-of-archive marker */
    if (fatbin_tar_member(buf, size, pos, ms, &pos, err, errlen))
      return -1;
  }
  return fatbin_members_index(ms, err, errlen);
}

void fatbin_members_free(struct fatbin_members *ms) {
  for (size_t i = 0; i < ms->n; i++)
    free(ms->at[i].name);
  free(ms->at);
  free(ms->sorted);
  *ms = (struct fatbin_members){0};
}

struct fatbin_member *fatbin_members_find(const struct fatbin_members *ms,
                                          const char *name) {
  struct fatbin_member key = {.name = (char *)name}, *pkey = &key;
  struct fatbin_member **hit =
      ms->sorted ? bsearch(&pkey, ms->sorted, ms->n, sizeof *ms->sorted, fatbin_member_cmp)
                 : NULL;
  return hit ? *hit : NULL;
}
