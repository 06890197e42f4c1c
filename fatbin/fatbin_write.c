/* fatbin_write.c: builds a blob from a list of objects (driver side).
 *
 * The entries are checked, sorted by (module, vendor, format, target) so that
 * the objects of one vendor family sit together with their closest relatives
 * next to each other (sm_80, sm_86, sm_90, sm_100: numbers in targets compare
 * by value), hashed, and written by libarchive as a ustar archive with fixed
 * metadata (mtime 0, uid/gid 0, no user or group names, mode 0644) and no
 * padding beyond tar's own 512-byte records. Walking that tar back tells
 * where each member landed. For a compressed blob the tar is then cut at
 * member boundaries into zstd frames, one per object, each compressed alone
 * or against another frame of its family (module, vendor, format) as
 * dictionary, so the manifest can say which frame holds each object, at
 * which offset, with which dictionary, and how many compressed bytes it
 * took. The manifest is written last, as its own one-member tar placed in
 * front: the object offsets it records are relative to their frame and so
 * do not depend on its length.
 *
 * Nothing here depends on time, paths or the order of the input, so the same
 * objects and metadata always give byte-identical blobs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fatbin_private.h"

/* What goes into one tar: names, bytes, sizes, in order. */
struct fatbin_tar_input {
  const char *const *names;
  const void *const *data;
  const size_t *sizes;
  size_t n;
};

static la_ssize_t fatbin_write_cb(struct archive *a, void *ud, const void *buf, size_t n) {
  if (fatbin_buf_add(ud, buf, n) != 0) {
    archive_set_error(a, ENOMEM, "out of memory");
    return -1;
  }
  return (la_ssize_t)n;
}

/* Writer calls must return ARCHIVE_OK: a warning from the writer means the
 * archive differs from what was asked for (a converted name, say), which for
 * a reproducible format is as bad as a failure. */
static int fatbin_check(struct archive *a, int r, const char *what, char *err,
                        size_t errlen) {
  if (r == ARCHIVE_OK)
    return 0;
  const char *msg = archive_error_string(a);
  const char *tier = r == ARCHIVE_WARN     ? "warning"
                     : r == ARCHIVE_FAILED ? "failed"
                                           : "fatal error";
  return fatbin_error(err, errlen, "fatbin: cannot write %s (libarchive %s): %s", what,
                      tier, msg && *msg ? msg : "unknown error");
}

static int fatbin_add_member(struct archive *a, struct archive_entry *ae, const char *name,
                             const void *data, size_t size, char *err, size_t errlen) {
  archive_entry_clear(ae);
  archive_entry_set_pathname(ae, name);
  archive_entry_set_filetype(ae, AE_IFREG);
  archive_entry_set_perm(ae, 0644);
  archive_entry_set_size(ae, (la_int64_t)size);
  archive_entry_set_mtime(ae, 0, 0);
  archive_entry_set_uid(ae, 0);
  archive_entry_set_gid(ae, 0);
  if (fatbin_check(a, archive_write_header(a, ae), name, err, errlen))
    return -1;
  const unsigned char *p = data;
  size_t done = 0;
  while (done < size) {
    la_ssize_t w = archive_write_data(a, p + done, size - done);
    if (w <= 0) {
      /* 0 would loop forever; a negative value is one of the ARCHIVE_ tiers. */
      return fatbin_check(a, w < 0 ? (int)w : ARCHIVE_FATAL, name, err, errlen);
    }
    done += (size_t)w;
  }
  return 0;
}

static int fatbin_write_members(struct archive *a, struct fatbin_buf *out,
                                const struct fatbin_tar_input *in, char *err,
                                size_t errlen) {
  if (fatbin_check(a, archive_write_set_format_ustar(a), "archive", err, errlen) ||
      fatbin_check(a, archive_write_add_filter_none(a), "archive", err, errlen) ||
      /* No padding of the last block to libarchive's default 10 KiB: tar's
       * own records and end marker are all a reader needs. */
      fatbin_check(a, archive_write_set_bytes_per_block(a, FATBIN_TAR_BLOCK), "archive",
                   err, errlen) ||
      fatbin_check(a, archive_write_set_bytes_in_last_block(a, 1), "archive", err,
                   errlen) ||
      fatbin_check(a, archive_write_open2(a, out, NULL, fatbin_write_cb, NULL, NULL),
                   "archive", err, errlen))
    return -1;
  struct archive_entry *ae = archive_entry_new();
  if (!ae)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < in->n; i++)
    rc = fatbin_add_member(a, ae, in->names[i], in->data[i], in->sizes[i], err, errlen);
  archive_entry_free(ae);
  /* Close writes the end-of-archive records, so its result matters. */
  if (rc == 0)
    rc = fatbin_check(a, archive_write_close(a), "archive", err, errlen);
  return rc;
}

/* Writes a whole tar (end records included) into out, then walks it back
 * into ms so the caller knows where every member is. */
static int fatbin_write_tar(struct fatbin_buf *out, const struct fatbin_tar_input *in,
                            struct fatbin_members *ms, char *err, size_t errlen) {
  struct archive *a = archive_write_new();
  if (!a)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = fatbin_write_members(a, out, in, err, errlen);
  if (archive_write_free(a) != ARCHIVE_OK && rc == 0)
    rc = fatbin_error(err, errlen, "fatbin: cannot release the archive writer");
  if (rc == 0)
    rc = fatbin_tar_walk(out->data, out->len, ms, err, errlen);
  if (rc == 0 && ms->n != in->n)
    rc = fatbin_error(err, errlen, "fatbin: internal error: wrote %zu members, found %zu",
                      in->n, ms->n);
  for (size_t i = 0; rc == 0 && i < in->n; i++) {
    const struct fatbin_member *m = &ms->at[i];
    if (strcmp(m->name, in->names[i]) != 0 || m->size != in->sizes[i] ||
        m->data_pos == SIZE_MAX || m->header_pos == SIZE_MAX)
      rc = fatbin_error(err, errlen, "fatbin: internal error: member '%s' not found as written",
                        in->names[i]);
  }
  return rc;
}

/* Where member i ends: its data rounded up to whole records. */
static size_t fatbin_member_end(const struct fatbin_member *m) {
  return m->data_pos + (m->size + FATBIN_TAR_BLOCK - 1) / FATBIN_TAR_BLOCK * FATBIN_TAR_BLOCK;
}

/* ---- order ---------------------------------------------------------------------- */

static int fatbin_is_digit(char c) { return c >= '0' && c <= '9'; }

/* strcmp, except that runs of digits compare by value ("sm_90" < "sm_100");
 * equal values with different leading zeros still differ, so that only equal
 * strings compare equal. */
static int fatbin_natural_cmp(const char *a, const char *b) {
  while (*a && *b) {
    if (fatbin_is_digit(*a) && fatbin_is_digit(*b)) {
      const char *ea = a, *eb = b;
      while (fatbin_is_digit(*ea))
        ea++;
      while (fatbin_is_digit(*eb))
        eb++;
      const char *sa = a, *sb = b;
      while (sa + 1 < ea && *sa == '0')
        sa++;
      while (sb + 1 < eb && *sb == '0')
        sb++;
      if (ea - sa != eb - sb)
        return ea - sa < eb - sb ? -1 : 1;
      int c = memcmp(sa, sb, (size_t)(ea - sa));
      if (c != 0)
        return c;
      if (ea - a != eb - b)
        return ea - a < eb - b ? -1 : 1;
      a = ea;
      b = eb;
      continue;
    }
    if (*a != *b)
      return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
    a++;
    b++;
  }
  return *a ? 1 : *b ? -1 : 0;
}

/* The archive order. */
static int fatbin_entry_cmp(const void *pa, const void *pb) {
  const struct fatbin_entry *a = *(const struct fatbin_entry *const *)pa;
  const struct fatbin_entry *b = *(const struct fatbin_entry *const *)pb;
  int c = strcmp(a->module, b->module);
  if (c == 0 && a->vendor != b->vendor)
    c = a->vendor < b->vendor ? -1 : 1;
  if (c == 0 && a->format != b->format)
    c = a->format < b->format ? -1 : 1;
  if (c == 0)
    c = fatbin_natural_cmp(a->target, b->target);
  return c;
}

/* The member name's order, to find two entries that would share a name. */
static int fatbin_name_cmp(const void *pa, const void *pb) {
  const struct fatbin_entry *a = *(const struct fatbin_entry *const *)pa;
  const struct fatbin_entry *b = *(const struct fatbin_entry *const *)pb;
  int c = strcmp(a->module, b->module);
  if (c == 0)
    c = strcmp(a->target, b->target);
  if (c == 0)
    c = strcmp(fatbin_format_name(a->format), fatbin_format_name(b->format));
  return c;
}

static int fatbin_check_entry(const struct fatbin_entry *e, char *err, size_t errlen) {
  if (!fatbin_name_ok(e->module))
    return fatbin_error(err, errlen, "fatbin: invalid module name '%s'",
                        e->module ? e->module : "(null)");
  if (!fatbin_name_ok(e->target))
    return fatbin_error(err, errlen, "fatbin: invalid target name '%s'",
                        e->target ? e->target : "(null)");
  if (!fatbin_vendor_name(e->vendor))
    return fatbin_error(err, errlen, "fatbin: invalid vendor %d for module '%s'",
                        (int)e->vendor, e->module);
  if (!fatbin_format_name(e->format))
    return fatbin_error(err, errlen, "fatbin: invalid format %d for module '%s'",
                        (int)e->format, e->module);
  if (e->features && *e->features && !fatbin_name_ok(e->features))
    return fatbin_error(err, errlen, "fatbin: invalid features '%s' for module '%s'",
                        e->features, e->module);
  if (!e->data && e->size > 0)
    return fatbin_error(err, errlen, "fatbin: object of module '%s', target '%s' has no data",
                        e->module, e->target);
  if (e->size > FATBIN_MAX_OBJECT_SIZE)
    return fatbin_error(err, errlen,
                        "fatbin: object of module '%s', target '%s' has %zu bytes, more "
                        "than the %zu allowed",
                        e->module, e->target, e->size, FATBIN_MAX_OBJECT_SIZE);
  return 0;
}

/* Sorts the entries into *out (archive order) after checking them. */
static int fatbin_sort(const struct fatbin_entry *entries, size_t n,
                       const struct fatbin_entry ***out, char *err, size_t errlen) {
  *out = NULL;
  for (size_t i = 0; i < n; i++) {
    if (fatbin_check_entry(&entries[i], err, errlen))
      return -1;
  }
  const struct fatbin_entry **sorted = malloc((n ? n : 1) * sizeof *sorted);
  if (!sorted)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t i = 0; i < n; i++)
    sorted[i] = &entries[i];
  qsort(sorted, n, sizeof *sorted, fatbin_name_cmp);
  for (size_t i = 1; i < n; i++) {
    if (fatbin_name_cmp(&sorted[i - 1], &sorted[i]) == 0) {
      const struct fatbin_entry *e = sorted[i];
      free(sorted);
      return fatbin_error(err, errlen,
                          "fatbin: duplicate object: module '%s', target '%s', format %s",
                          e->module, e->target, fatbin_format_name(e->format));
    }
  }
  qsort(sorted, n, sizeof *sorted, fatbin_entry_cmp);
  *out = sorted;
  return 0;
}

static int fatbin_kernel_ptr_cmp(const void *pa, const void *pb) {
  return fatbin_kernel_cmp(*(const struct fatbin_kernel *const *)pa,
                           *(const struct fatbin_kernel *const *)pb);
}

/* Checks the kernels of meta and sorts them into *out (manifest order). */
static int fatbin_sort_kernels(const struct fatbin_meta *meta,
                               const struct fatbin_kernel ***out, size_t *n, char *err,
                               size_t errlen) {
  *out = NULL;
  *n = meta ? meta->nkernels : 0;
  if (*n > 0 && !meta->kernels)
    return fatbin_error(err, errlen, "fatbin: no kernels given");
  for (size_t i = 0; i < *n; i++)
    if (fatbin_kernel_check(&meta->kernels[i], err, errlen))
      return -1;
  const struct fatbin_kernel **sorted = malloc((*n ? *n : 1) * sizeof *sorted);
  if (!sorted)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t i = 0; i < *n; i++)
    sorted[i] = &meta->kernels[i];
  qsort(sorted, *n, sizeof *sorted, fatbin_kernel_ptr_cmp);
  *out = sorted;
  for (size_t i = 1; i < *n; i++) {
    const struct fatbin_kernel *k = sorted[i];
    if (fatbin_kernel_cmp(sorted[i - 1], k) == 0)
      return fatbin_error(err, errlen, "fatbin: duplicate kernel '%s' of module '%s'%s%s",
                          k->name, k->module, k->target ? " for target " : "",
                          k->target ? k->target : "");
  }
  return 0;
}

/* ---- the blob ------------------------------------------------------------------------ */

/* Everything one write works on, released in one place. */
struct fatbin_job {
  const struct fatbin_entry **sorted;
  size_t n;
  const struct fatbin_meta *meta;
  const struct fatbin_kernel **kernels; /* meta's, in manifest order */
  size_t nkernels;
  enum fatbin_compress mode;
  struct fatbin_placement *where;
  struct fatbin_buf objects;   /* the objects' tar, end records included */
  struct fatbin_members omembers;
  size_t objects_end;          /* where the end records start */
  struct fatbin_buf families;  /* the objects' frames, compressed */
  struct fatbin_buf manifest;  /* its text, then its one-member tar */
  struct fatbin_buf mtar;
  struct fatbin_members mmembers;
  struct fatbin_buf blob;
};

static void fatbin_job_free(struct fatbin_job *j) {
  free(j->sorted);
  free(j->kernels);
  free(j->where);
  free(j->objects.data);
  fatbin_members_free(&j->omembers);
  free(j->families.data);
  free(j->manifest.data);
  free(j->mtar.data);
  fatbin_members_free(&j->mmembers);
  free(j->blob.data);
}

/* Writes the objects' tar and hashes the objects. */
static int fatbin_write_objects(struct fatbin_job *j, char *err, size_t errlen) {
  size_t n = j->n;
  char **names = calloc(n + 1, sizeof *names);
  const void **data = calloc(n + 1, sizeof *data);
  size_t *sizes = calloc(n + 1, sizeof *sizes);
  j->where = calloc(n + 1, sizeof *j->where);
  int rc = names && data && sizes && j->where ? 0 : fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t i = 0; rc == 0 && i < n; i++) {
    names[i] = fatbin_member_path(j->sorted[i]);
    data[i] = j->sorted[i]->data ? j->sorted[i]->data : "";
    sizes[i] = j->sorted[i]->size;
    if (!names[i])
      rc = fatbin_error(err, errlen, "fatbin: out of memory");
    else
      fatbin_sha256(data[i], sizes[i], j->where[i].sha256);
  }
  if (rc == 0) {
    struct fatbin_tar_input in = {(const char *const *)names, data, sizes, n};
    rc = fatbin_write_tar(&j->objects, &in, &j->omembers, err, errlen);
  }
  if (rc == 0)
    j->objects_end = n ? fatbin_member_end(&j->omembers.at[n - 1]) : 0;
  for (size_t i = 0; names && i < n; i++)
    free(names[i]);
  free(names);
  free(data);
  free(sizes);
  return rc;
}

/* A dictionary must save at least 1/8 of a member's size; dictionaries are
 * chosen among at most 64 members (64 * 64 trial compressions). */
#define FATBIN_DICT_MIN_GAIN 8
#define FATBIN_MAX_FAMILY 64

/* Member i of the objects' tar with its header and padding: what its
 * frame holds. */
static const unsigned char *fatbin_member_bytes(const struct fatbin_job *j, size_t i,
                                                size_t *len) {
  const struct fatbin_member *ms = j->omembers.at;
  size_t end = i + 1 < j->n ? ms[i + 1].header_pos : j->objects_end;
  *len = end - ms[i].header_pos;
  return j->objects.data + ms[i].header_pos;
}

/* What the k members of a family cost with `bases` compressed alone and
 * every other one against its best base: alone[a], or pair[a * k + b] for
 * member a against base b. */
static size_t fatbin_family_cost(const size_t *alone, const size_t *pair, size_t k,
                                 const unsigned char *is_base) {
  size_t total = 0;
  for (size_t a = 0; a < k; a++) {
    size_t c = SIZE_MAX;
    if (is_base[a])
      c = alone[a];
    for (size_t b = 0; b < k && !is_base[a]; b++)
      if (is_base[b] && pair[a * k + b] < c)
        c = pair[a * k + b];
    total += c;
  }
  return total;
}

/* Chooses the dictionaries of the family of members [first, first + k):
 * base[a] is the member (family index) whose frame member a's frame is
 * compressed against, or a itself when it is compressed alone (a base).
 *
 * The choice is by size, since any choice reads at most two frames: every
 * member's size is estimated alone and against each other member
 * (fatbin_trial_size), then, starting from the single base that makes the
 * family smallest, bases are added one at a time while one makes it smaller
 * (the sm_75 cubin, say, which shares little with the sm_90 one). A member
 * that a dictionary would shrink by less than 1/FATBIN_DICT_MIN_GAIN is
 * compressed alone: inflating a dictionary is not worth a few bytes. Ties go
 * to the member first in archive order, and the estimates are zstd's output
 * sizes, so the choice is as reproducible as the compression. */
static int fatbin_choose_dicts(struct fatbin_job *j, size_t first, size_t k, size_t *base,
                               char *err, size_t errlen) {
  for (size_t a = 0; a < k; a++)
    base[a] = a;
  if (k < 2)
    return 0;
  size_t *alone = malloc(k * sizeof *alone), *pair = malloc(k * k * sizeof *pair);
  unsigned char *is_base = calloc(k, 1);
  struct fatbin_trial *trial = fatbin_trial_new();
  int rc = alone && pair && is_base && trial ? 0 : fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t a = 0; rc == 0 && a < k; a++) {
    size_t alen, blen;
    const unsigned char *am = fatbin_member_bytes(j, first + a, &alen);
    alone[a] = fatbin_trial_size(trial, am, alen, NULL, 0);
    for (size_t b = 0; b < k; b++) {
      const unsigned char *bm = fatbin_member_bytes(j, first + b, &blen);
      size_t t = a == b ? alone[a] : fatbin_trial_size(trial, am, alen, bm, blen);
      if (t == SIZE_MAX || alone[a] == SIZE_MAX)
        rc = fatbin_error(err, errlen, "fatbin: compression failed (estimating sizes)");
      /* A dictionary costs a load the time to inflate it: worth it only
       * for a real saving, not for the few bytes of a similar tar header. */
      else if (a != b && t > alone[a] - alone[a] / FATBIN_DICT_MIN_GAIN)
        t = alone[a] + 1;
      pair[a * k + b] = t;
    }
  }
  size_t best = SIZE_MAX, pick = 0;
  for (size_t c = 0; rc == 0 && c < k; c++) {
    is_base[c] = 1;
    size_t t = fatbin_family_cost(alone, pair, k, is_base);
    is_base[c] = 0;
    if (t < best)
      best = t, pick = c;
  }
  while (rc == 0 && !is_base[pick]) {
    is_base[pick] = 1;
    for (size_t c = 0; c < k; c++) {
      if (is_base[c])
        continue;
      is_base[c] = 1;
      size_t t = fatbin_family_cost(alone, pair, k, is_base);
      is_base[c] = 0;
      if (t < best)
        best = t, pick = c;
    }
  }
  for (size_t a = 0; rc == 0 && a < k; a++) {
    for (size_t b = 0; b < k && !is_base[a]; b++)
      if (is_base[b] && (base[a] == a || pair[a * k + b] < pair[a * k + base[a]]))
        base[a] = b;
  }
  fatbin_trial_free(trial);
  free(is_base);
  free(pair);
  free(alone);
  return rc;
}

/* Compresses the members [first, first + k) of one family, each as a frame
 * of its own (member i is frame i + 1; frame 0 is the manifest's), against
 * the dictionaries fatbin_choose_dicts picked. */
static int fatbin_compress_family(struct fatbin_job *j, size_t first, size_t k, char *err,
                                  size_t errlen) {
  size_t *base = malloc(k * sizeof *base);
  if (!base)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = fatbin_choose_dicts(j, first, k, base, err, errlen);
  int level = j->mode == FATBIN_COMPRESS_SIZE ? FATBIN_LEVEL_SIZE : FATBIN_LEVEL_FAST;
  for (size_t a = 0; rc == 0 && a < k; a++) {
    size_t i = first + a, len, dict_len = 0;
    const unsigned char *content = fatbin_member_bytes(j, i, &len), *dict = NULL;
    if (base[a] != a)
      dict = fatbin_member_bytes(j, first + base[a], &dict_len);
    j->where[i].frame = (unsigned)(i + 1);
    j->where[i].dict = dict ? (unsigned)(first + base[a] + 1) : 0;
    j->where[i].offset = j->omembers.at[i].data_pos - j->omembers.at[i].header_pos;
    rc = fatbin_zstd_frame(&j->families, content, len, dict, dict_len, level, &len,
                           &j->where[i].stored, 1, err, errlen);
  }
  free(base);
  return rc;
}

/* Puts every object in a frame of its own, so that loading one inflates
 * that frame and at most one other (its dictionary's), never its whole
 * family; and compresses each family (module, vendor, format: the cubins
 * of a module, say, which are the near-duplicates, while its PTX shares
 * next to nothing with them) against dictionaries chosen within it. A
 * family of more than FATBIN_MAX_FAMILY objects is cut into runs of that
 * many, which bounds the trial compressions choosing the dictionaries. */
static int fatbin_compress_objects(struct fatbin_job *j, char *err, size_t errlen) {
  if (j->n >= UINT_MAX - 1)
    return fatbin_error(err, errlen, "fatbin: %zu objects are too many", j->n);
  size_t first = 0;
  for (size_t i = 1; i <= j->n; i++) {
    if (i < j->n && i - first < FATBIN_MAX_FAMILY) {
      const struct fatbin_entry *a = j->sorted[first], *b = j->sorted[i];
      if (strcmp(a->module, b->module) == 0 && a->vendor == b->vendor &&
          a->format == b->format)
        continue;
    }
    if (fatbin_compress_family(j, first, i - first, err, errlen))
      return -1;
    first = i;
  }
  return 0;
}

/* Builds the manifest and its one-member tar, without the end records. */
static int fatbin_write_manifest(struct fatbin_job *j, size_t *mtar_len, char *err,
                                 size_t errlen) {
  if (fatbin_manifest_build(&j->manifest, j->sorted, j->where, j->n, j->meta, j->mode,
                            j->kernels, j->nkernels))
    return fatbin_error(err, errlen, "fatbin: out of memory");
  if (j->manifest.len > FATBIN_MAX_MANIFEST_SIZE)
    return fatbin_error(err, errlen, "fatbin: manifest of %zu bytes is too large",
                        j->manifest.len);
  const char *name = "MANIFEST";
  const void *data = j->manifest.len ? (const void *)j->manifest.data : "";
  struct fatbin_tar_input in = {&name, &data, &j->manifest.len, 1};
  if (fatbin_write_tar(&j->mtar, &in, &j->mmembers, err, errlen))
    return -1;
  *mtar_len = fatbin_member_end(&j->mmembers.at[0]);
  return 0;
}

/* Puts header, payload and padding together in j->blob. */
static int fatbin_assemble(struct fatbin_job *j, size_t mtar_len, char *err, size_t errlen) {
  struct fatbin_buf *b = &j->blob;
  unsigned char header[FATBIN_HEADER_SIZE] = {0};
  int rc = fatbin_buf_add(b, header, sizeof header);
  if (j->mode == FATBIN_COMPRESS_NONE) {
    rc |= fatbin_buf_add(b, j->mtar.data, mtar_len);
    rc |= fatbin_buf_add(b, j->objects.data, j->objects.len);
    if (rc)
      return fatbin_error(err, errlen, "fatbin: out of memory");
  } else {
    int level = j->mode == FATBIN_COMPRESS_SIZE ? FATBIN_LEVEL_SIZE : FATBIN_LEVEL_FAST;
    size_t stored;
    size_t tail = j->objects.len - j->objects_end;
    if (rc || fatbin_zstd_frame(b, j->mtar.data, mtar_len, NULL, 0, level, &mtar_len,
                                &stored, 1, err, errlen))
      return rc ? fatbin_error(err, errlen, "fatbin: out of memory") : -1;
    if (fatbin_buf_add(b, j->families.data, j->families.len))
      return fatbin_error(err, errlen, "fatbin: out of memory");
    if (fatbin_zstd_frame(b, j->objects.data + j->objects_end, tail, NULL, 0, level, &tail,
                          &stored, 1, err, errlen))
      return -1;
  }
  size_t payload = b->len - FATBIN_HEADER_SIZE;
  static const unsigned char zeros[8] = {0};
  if (fatbin_buf_add(b, zeros, (8 - b->len % 8) % 8))
    return fatbin_error(err, errlen, "fatbin: out of memory");
  memcpy(b->data, FATBIN_MAGIC, FATBIN_MAGIC_SIZE);
  fatbin_put_le32(b->data + 8, FATBIN_VERSION);
  fatbin_put_le32(b->data + 12, j->mode == FATBIN_COMPRESS_NONE ? 0 : FATBIN_FLAG_ZSTD);
  fatbin_put_le64(b->data + 16, (uint64_t)payload);
  return 0;
}

int fatbin_write_ex(const struct fatbin_entry *entries, size_t n,
                    const struct fatbin_meta *meta, enum fatbin_compress mode,
                    void **out, size_t *out_size, char *err, size_t errlen) {
  *out = NULL;
  *out_size = 0;
  if (n > 0 && !entries)
    return fatbin_error(err, errlen, "fatbin: no entries given");
  if (!fatbin_compress_name(mode))
    return fatbin_error(err, errlen, "fatbin: invalid compression mode %d", (int)mode);
  struct fatbin_job j = {.n = n, .meta = meta, .mode = mode};
  size_t mtar_len = 0;
  int rc = fatbin_sort(entries, n, &j.sorted, err, errlen);
  if (rc == 0)
    rc = fatbin_sort_kernels(meta, &j.kernels, &j.nkernels, err, errlen);
  if (rc == 0)
    rc = fatbin_write_objects(&j, err, errlen);
  if (rc == 0 && mode != FATBIN_COMPRESS_NONE)
    rc = fatbin_compress_objects(&j, err, errlen);
  if (rc == 0)
    rc = fatbin_write_manifest(&j, &mtar_len, err, errlen);
  if (rc == 0)
    rc = fatbin_assemble(&j, mtar_len, err, errlen);
  if (rc == 0) {
    *out = j.blob.data;
    *out_size = j.blob.len;
    j.blob.data = NULL;
  }
  fatbin_job_free(&j);
  return rc;
}

int fatbin_write(const struct fatbin_entry *entries, size_t n, void **out,
                 size_t *out_size, char *err, size_t errlen) {
  return fatbin_write_ex(entries, n, NULL, FATBIN_COMPRESS_DEFAULT, out, out_size, err,
                         errlen);
}
