/* fatbin_write.c: builds a blob from a list of objects (driver side).
 *
 * The entries are checked, sorted by (module, target, format) and written as a
 * ustar archive through libarchive into a growable memory buffer that already
 * holds room for the 24-byte blob header; the header's size field is filled in
 * once the archive is closed. MANIFEST is always the first member. Every
 * member gets the same fixed metadata (mtime 0, uid/gid 0, no user or group
 * names, mode 0644) and the archive is not padded to a block size beyond tar's
 * own 512-byte records, so the same objects always give byte-identical blobs:
 * builds are reproducible and a test can compare them with cmp. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fatbin_private.h"

/* The output buffer handed to libarchive's write callback. */
struct fatbin_outbuf {
  unsigned char *data;
  size_t len, cap;
};

/* A text buffer for the manifest; `failed` records an allocation failure so
 * that the appends need not each be checked. */
struct fatbin_text {
  char *data;
  size_t len, cap;
  int failed;
};

static int fatbin_reserve(unsigned char **data, size_t *cap, size_t need) {
  if (need <= *cap)
    return 0;
  size_t ncap = *cap ? *cap : 4096;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2)
      return -1;
    ncap *= 2;
  }
  unsigned char *p = realloc(*data, ncap);
  if (!p)
    return -1;
  *data = p;
  *cap = ncap;
  return 0;
}

static la_ssize_t fatbin_write_cb(struct archive *a, void *ud, const void *buf,
                                  size_t n) {
  struct fatbin_outbuf *out = ud;
  if (n > SIZE_MAX - out->len ||
      fatbin_reserve(&out->data, &out->cap, out->len + n) != 0) {
    archive_set_error(a, ENOMEM, "out of memory");
    return -1;
  }
  memcpy(out->data + out->len, buf, n);
  out->len += n;
  return (la_ssize_t)n;
}

static void fatbin_text_add(struct fatbin_text *t, const char *s) {
  size_t n = strlen(s);
  if (t->failed)
    return;
  unsigned char *data = (unsigned char *)t->data;
  if (n >= SIZE_MAX - t->len || fatbin_reserve(&data, &t->cap, t->len + n + 1)) {
    t->failed = 1;
    return;
  }
  t->data = (char *)data;
  memcpy(t->data + t->len, s, n + 1);
  t->len += n;
}

/* Module and target names become part of member paths and of the
 * space-separated manifest, so only printable ASCII without ' ', '=' and '/'
 * is allowed: anything else would be ambiguous or path-changing. */
static int fatbin_name_ok(const char *s) {
  if (!s || !*s)
    return 0;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c <= ' ' || c >= 0x7f || c == '=' || c == '/')
      return 0;
  }
  return 1;
}

/* The sort key; the format is compared by name so that the member order is
 * also the order of the member names within one target. */
static int fatbin_entry_cmp(const void *pa, const void *pb) {
  const struct fatbin_entry *a = *(const struct fatbin_entry *const *)pa;
  const struct fatbin_entry *b = *(const struct fatbin_entry *const *)pb;
  int c = strcmp(a->module, b->module);
  if (c == 0)
    c = strcmp(a->target, b->target);
  if (c == 0)
    c = strcmp(fatbin_format_name(a->format), fatbin_format_name(b->format));
  return c;
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
  return fatbin_error(err, errlen, "fatbin: cannot write %s (libarchive %s): %s",
                      what, tier, msg ? msg : "unknown error");
}

static int fatbin_add_member(struct archive *a, struct archive_entry *ae,
                             const char *name, const void *data, size_t size,
                             char *err, size_t errlen) {
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

/* Builds "<module>/<target>.<format>" into a fresh string. */
static char *fatbin_member_name(const struct fatbin_entry *e) {
  const char *fmt = fatbin_format_name(e->format);
  size_t n = strlen(e->module) + strlen(e->target) + strlen(fmt) + 3;
  char *s = malloc(n);
  if (s) {
    strcpy(s, e->module);
    strcat(s, "/");
    strcat(s, e->target);
    strcat(s, ".");
    strcat(s, fmt);
  }
  return s;
}

static int fatbin_check_entries(const struct fatbin_entry *const *sorted,
                                size_t n, char *err, size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *e = sorted[i];
    if (i > 0 && fatbin_entry_cmp(&sorted[i - 1], &sorted[i]) == 0)
      return fatbin_error(err, errlen,
                          "fatbin: duplicate object: module '%s', target '%s', "
                          "format %s",
                          e->module, e->target, fatbin_format_name(e->format));
    if (!e->data && e->size > 0)
      return fatbin_error(err, errlen,
                          "fatbin: object of module '%s', target '%s' has no data",
                          e->module, e->target);
  }
  return 0;
}

/* Appends the manifest text for the sorted entries to t. */
static void fatbin_build_manifest(struct fatbin_text *t,
                                  const struct fatbin_entry *const *sorted,
                                  size_t n) {
  char num[32];
  snprintf(num, sizeof num, "%d", FATBIN_VERSION);
  fatbin_text_add(t, "gpucc-fatbin ");
  fatbin_text_add(t, num);
  fatbin_text_add(t, "\n");
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *e = sorted[i];
    const char *fmt = fatbin_format_name(e->format);
    fatbin_text_add(t, "module=");
    fatbin_text_add(t, e->module);
    fatbin_text_add(t, " vendor=");
    fatbin_text_add(t, fatbin_vendor_name(e->vendor));
    fatbin_text_add(t, " target=");
    fatbin_text_add(t, e->target);
    fatbin_text_add(t, " format=");
    fatbin_text_add(t, fmt);
    snprintf(num, sizeof num, "%zu", e->size);
    fatbin_text_add(t, " size=");
    fatbin_text_add(t, num);
    fatbin_text_add(t, " file=");
    fatbin_text_add(t, e->module);
    fatbin_text_add(t, "/");
    fatbin_text_add(t, e->target);
    fatbin_text_add(t, ".");
    fatbin_text_add(t, fmt);
    fatbin_text_add(t, "\n");
  }
}

/* Writes the tar part (MANIFEST, then the sorted members) into out. */
static int fatbin_write_tar(struct archive *a, struct fatbin_outbuf *out,
                            const char *manifest, size_t manifest_len,
                            const struct fatbin_entry *const *sorted, size_t n,
                            char *err, size_t errlen) {
  if (fatbin_check(a, archive_write_set_format_ustar(a), "archive", err, errlen) ||
      fatbin_check(a, archive_write_add_filter_none(a), "archive", err, errlen) ||
      /* No padding of the last block to libarchive's default 10 KiB: tar's
       * own records and end marker are all a reader needs. */
      fatbin_check(a, archive_write_set_bytes_per_block(a, 512), "archive", err,
                   errlen) ||
      fatbin_check(a, archive_write_set_bytes_in_last_block(a, 1), "archive", err,
                   errlen) ||
      fatbin_check(a, archive_write_open2(a, out, NULL, fatbin_write_cb, NULL, NULL),
                   "archive", err, errlen))
    return -1;

  struct archive_entry *ae = archive_entry_new();
  if (!ae)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  int rc = fatbin_add_member(a, ae, "MANIFEST", manifest, manifest_len, err, errlen);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    char *name = fatbin_member_name(sorted[i]);
    if (!name) {
      rc = fatbin_error(err, errlen, "fatbin: out of memory");
      break;
    }
    rc = fatbin_add_member(a, ae, name, sorted[i]->data, sorted[i]->size, err,
                           errlen);
    free(name);
  }
  archive_entry_free(ae);
  /* Close writes the end-of-archive records, so its result matters. */
  if (rc == 0)
    rc = fatbin_check(a, archive_write_close(a), "archive", err, errlen);
  return rc;
}

int fatbin_write(const struct fatbin_entry *entries, size_t n, void **out,
                 size_t *out_size, char *err, size_t errlen) {
  *out = NULL;
  *out_size = 0;
  if (n > 0 && !entries)
    return fatbin_error(err, errlen, "fatbin: no entries given");

  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *e = &entries[i];
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
  }

  const struct fatbin_entry **sorted = malloc((n ? n : 1) * sizeof *sorted);
  if (!sorted)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  for (size_t i = 0; i < n; i++)
    sorted[i] = &entries[i];
  qsort(sorted, n, sizeof *sorted, fatbin_entry_cmp);

  int rc = fatbin_check_entries(sorted, n, err, errlen);
  struct fatbin_text manifest = {0};
  struct fatbin_outbuf buf = {0};
  if (rc == 0) {
    fatbin_build_manifest(&manifest, sorted, n);
    if (manifest.failed)
      rc = fatbin_error(err, errlen, "fatbin: out of memory");
  }
  /* The header goes in front of the tar bytes; reserve it now so the tar need
   * not be moved afterwards. */
  if (rc == 0 && fatbin_reserve(&buf.data, &buf.cap, FATBIN_HEADER_SIZE) != 0)
    rc = fatbin_error(err, errlen, "fatbin: out of memory");
  if (rc == 0) {
    buf.len = FATBIN_HEADER_SIZE;
    struct archive *a = archive_write_new();
    if (!a) {
      rc = fatbin_error(err, errlen, "fatbin: out of memory");
    } else {
      rc = fatbin_write_tar(a, &buf, manifest.data, manifest.len, sorted, n, err,
                            errlen);
      int fr = archive_write_free(a);
      if (rc == 0 && fr != ARCHIVE_OK)
        rc = fatbin_error(err, errlen, "fatbin: cannot release the archive writer");
    }
  }
  if (rc == 0) {
    memcpy(buf.data, FATBIN_MAGIC, FATBIN_MAGIC_SIZE);
    fatbin_put_le32(buf.data + 8, FATBIN_VERSION);
    fatbin_put_le32(buf.data + 12, 0);
    fatbin_put_le64(buf.data + 16, (uint64_t)(buf.len - FATBIN_HEADER_SIZE));
    *out = buf.data;
    *out_size = buf.len;
  } else {
    free(buf.data);
  }
  free(manifest.data);
  free(sorted);
  return rc;
}
