/* fatbin_tar.c: lists the members of a tar held in memory, with libarchive.
 *
 * The reader uses it on a stored payload (the whole tar), on the manifest's
 * frame and on an object's inflated frame (tar fragments that end at a
 * member boundary, which libarchive reads as a tar without its end records);
 * the writer uses it to learn where libarchive put each member. Member data
 * is not copied: libarchive reading from memory hands out each plain member
 * as one block that points into the buffer, and its offset there is what the
 * manifest records. Should a libarchive ever hand out a member in pieces, the
 * pieces are copied together instead, so reading never depends on it.
 *
 * Every member size is checked against the buffer before anything is
 * allocated for it, so a forged header cannot cause a large allocation. */
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fatbin_private.h"

static char *fatbin_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}

/* Reader calls may warn (an unusual but readable header, say) and the entry
 * is still good; anything worse ends the walk. */
static int fatbin_check(struct archive *a, int r, const char *what, char *err,
                        size_t errlen) {
  if (r == ARCHIVE_OK || r == ARCHIVE_WARN)
    return 0;
  const char *msg = archive_error_string(a);
  return fatbin_error(err, errlen, "fatbin: cannot read %s: %s", what,
                      msg ? msg : "unknown libarchive error");
}

/* Finds where the current member's data is: in buf when libarchive hands it
 * out in one block from there, else in a copy assembled from its blocks. */
static int fatbin_locate_data(struct archive *a, const unsigned char *buf, size_t size,
                              struct fatbin_member *m, char *err, size_t errlen) {
  m->data_pos = SIZE_MAX;
  if (m->size == 0) {
    /* libarchive hands out no block for an empty member; its (empty) data
     * is taken to follow its one ustar header, which is where the writer's
     * next member starts. */
    m->data = buf + size; /* never read: any non-NULL pointer will do */
    if (m->header_pos != SIZE_MAX && size - m->header_pos >= FATBIN_TAR_BLOCK)
      m->data_pos = m->header_pos + FATBIN_TAR_BLOCK;
    return 0;
  }
  const void *block;
  size_t len;
  la_int64_t off;
  int r = archive_read_data_block(a, &block, &len, &off);
  if (r == ARCHIVE_EOF)
    return fatbin_error(err, errlen,
                        "fatbin: truncated archive: member '%s' says %zu bytes, 0 "
                        "available",
                        m->name, m->size);
  if (fatbin_check(a, r, m->name, err, errlen))
    return -1;
  const unsigned char *b = block;
  if (off == 0 && len == m->size && b >= buf && (size_t)(b - buf) <= size &&
      m->size <= size - (size_t)(b - buf)) {
    m->data = b;
    m->data_pos = (size_t)(b - buf);
    return 0;
  }
  m->copy = calloc(1, m->size);
  if (!m->copy)
    return fatbin_error(err, errlen, "fatbin: out of memory reading '%s'", m->name);
  m->data = m->copy;
  for (;;) {
    if (off < 0 || (uint64_t)off > m->size || len > m->size - (size_t)off)
      return fatbin_error(err, errlen, "fatbin: member '%s' has data past its size",
                          m->name);
    memcpy(m->copy + off, block, len);
    r = archive_read_data_block(a, &block, &len, &off);
    if (r == ARCHIVE_EOF)
      return 0;
    if (fatbin_check(a, r, m->name, err, errlen))
      return -1;
  }
}

/* Adds the member under libarchive's current header to ms. */
static int fatbin_add_member(struct archive *a, struct archive_entry *ae,
                             const unsigned char *buf, size_t size,
                             struct fatbin_members *ms, char *err, size_t errlen) {
  const char *name = archive_entry_pathname(ae);
  if (!name)
    return fatbin_error(err, errlen, "fatbin: archive member %zu has no usable name",
                        ms->n);
  if (archive_entry_filetype(ae) != AE_IFREG || archive_entry_hardlink(ae) ||
      archive_entry_symlink(ae))
    return fatbin_error(err, errlen, "fatbin: archive member '%s' is not a plain file",
                        name);
  la_int64_t msize = archive_entry_size(ae);
  /* A member cannot hold more bytes than the whole buffer: this cap keeps a
   * forged size from turning into a huge allocation. */
  if (!archive_entry_size_is_set(ae) || msize < 0 || (uint64_t)msize > size)
    return fatbin_error(err, errlen,
                        "fatbin: truncated archive: member '%s' says %lld bytes, %zu "
                        "available",
                        name, (long long)msize, size);
  if (ms->n == ms->cap) {
    size_t ncap = ms->cap ? ms->cap * 2 : 8;
    struct fatbin_member *p = realloc(ms->at, ncap * sizeof *p);
    if (!p)
      return fatbin_error(err, errlen, "fatbin: out of memory");
    ms->at = p;
    ms->cap = ncap;
  }
  struct fatbin_member *m = &ms->at[ms->n];
  la_int64_t hpos = archive_read_header_position(a);
  *m = (struct fatbin_member){
      .name = fatbin_strdup(name),
      .size = (size_t)msize,
      .header_pos = hpos >= 0 && (uint64_t)hpos <= size ? (size_t)hpos : SIZE_MAX,
  };
  if (!m->name)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  ms->n++;
  return fatbin_locate_data(a, buf, size, m, err, errlen);
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
  struct archive *a = archive_read_new();
  if (!a)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = fatbin_check(a, archive_read_support_format_tar(a), "archive", err, errlen);
  if (rc == 0)
    rc = fatbin_check(a, archive_read_open_memory(a, buf, size), "archive", err, errlen);
  while (rc == 0) {
    struct archive_entry *ae;
    int r = archive_read_next_header(a, &ae);
    if (r == ARCHIVE_EOF)
      break;
    if ((rc = fatbin_check(a, r, "archive member header", err, errlen)) != 0)
      break;
    rc = fatbin_add_member(a, ae, buf, size, ms, err, errlen);
  }
  if (archive_read_free(a) != ARCHIVE_OK && rc == 0)
    rc = fatbin_error(err, errlen, "fatbin: cannot release the archive reader");
  if (rc == 0)
    rc = fatbin_members_index(ms, err, errlen);
  return rc;
}

void fatbin_members_free(struct fatbin_members *ms) {
  for (size_t i = 0; i < ms->n; i++) {
    free(ms->at[i].name);
    free(ms->at[i].copy);
  }
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
