/* fatbin_read.c: parses a blob into memory (runtime and tool side).
 *
 * The blob may come from anywhere, a damaged file included, so every size is
 * checked against the bytes actually present before it is used: the header's
 * archive size against the blob, each member's size against the archive
 * (which caps every allocation by the input size), each manifest size against
 * its member. libarchive reads the tar part; this file then parses MANIFEST
 * and ties each of its lines to the member it names. An error leaves nothing
 * allocated and a message in the caller's buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fatbin_private.h"

/* One tar member as read. */
struct fatbin_member {
  char *name;
  unsigned char *data;
  size_t size;
  int claimed; /* already named by a manifest line */
};

struct fatbin {
  struct fatbin_entry *entries; /* in manifest order */
  size_t count;
  struct fatbin_member *members; /* in archive order; members[0] is MANIFEST */
  size_t nmembers;
  char *manifest; /* MANIFEST text split in place; entry strings point here */
  size_t blob_size;
};

static char *fatbin_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}

/* Reader calls may warn (an unusual but readable header, say) and the entry
 * is still good; anything worse ends the read. */
static int fatbin_check(struct archive *a, int r, const char *what, char *err,
                        size_t errlen) {
  if (r == ARCHIVE_OK || r == ARCHIVE_WARN)
    return 0;
  const char *msg = archive_error_string(a);
  return fatbin_error(err, errlen, "fatbin: cannot read %s: %s", what,
                      msg ? msg : "unknown libarchive error");
}

/* Reads the current member's data, which the header said is `size` bytes. */
static int fatbin_read_member_data(struct archive *a, struct fatbin_member *m,
                                   char *err, size_t errlen) {
  m->data = malloc(m->size ? m->size : 1);
  if (!m->data)
    return fatbin_error(err, errlen, "fatbin: out of memory reading '%s'", m->name);
  size_t done = 0;
  while (done < m->size) {
    la_ssize_t r = archive_read_data(a, m->data + done, m->size - done);
    if (r < 0)
      return fatbin_check(a, ARCHIVE_FATAL, m->name, err, errlen);
    if (r == 0)
      return fatbin_error(err, errlen,
                          "fatbin: truncated archive: member '%s' says %zu bytes, "
                          "%zu available",
                          m->name, m->size, done);
    done += (size_t)r;
  }
  return 0;
}

/* Reads every member of the tar part into fb->members. */
static int fatbin_read_members(struct fatbin *fb, const unsigned char *tar,
                               size_t tar_size, char *err, size_t errlen) {
  struct archive *a = archive_read_new();
  if (!a)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  size_t cap = 0;
  int rc = fatbin_check(a, archive_read_support_format_tar(a), "archive", err,
                        errlen);
  if (rc == 0)
    rc = fatbin_check(a, archive_read_open_memory(a, tar, tar_size), "archive",
                      err, errlen);
  while (rc == 0) {
    struct archive_entry *ae;
    int r = archive_read_next_header(a, &ae);
    if (r == ARCHIVE_EOF)
      break;
    if ((rc = fatbin_check(a, r, "archive member header", err, errlen)) != 0)
      break;
    const char *name = archive_entry_pathname(ae);
    if (!name) {
      rc = fatbin_error(err, errlen, "fatbin: archive member %zu has no usable name",
                        fb->nmembers);
      break;
    }
    if (archive_entry_filetype(ae) != AE_IFREG || archive_entry_hardlink(ae) ||
        archive_entry_symlink(ae)) {
      rc = fatbin_error(err, errlen, "fatbin: archive member '%s' is not a plain file",
                        name);
      break;
    }
    la_int64_t size = archive_entry_size(ae);
    /* A member cannot hold more bytes than the whole archive: this cap keeps a
     * forged size from turning into a huge allocation. */
    if (!archive_entry_size_is_set(ae) || size < 0 || (uint64_t)size > tar_size) {
      rc = fatbin_error(err, errlen,
                        "fatbin: truncated archive: member '%s' says %lld bytes, "
                        "%zu available",
                        name, (long long)size, tar_size);
      break;
    }
    for (size_t i = 0; i < fb->nmembers; i++) {
      if (strcmp(fb->members[i].name, name) == 0) {
        rc = fatbin_error(err, errlen, "fatbin: archive member '%s' appears twice",
                          name);
        break;
      }
    }
    if (rc != 0)
      break;
    if (fb->nmembers == cap) {
      size_t ncap = cap ? cap * 2 : 8;
      struct fatbin_member *p = realloc(fb->members, ncap * sizeof *p);
      if (!p) {
        rc = fatbin_error(err, errlen, "fatbin: out of memory");
        break;
      }
      fb->members = p;
      cap = ncap;
    }
    struct fatbin_member *m = &fb->members[fb->nmembers];
    *m = (struct fatbin_member){.name = fatbin_strdup(name), .size = (size_t)size};
    fb->nmembers++;
    if (!m->name) {
      rc = fatbin_error(err, errlen, "fatbin: out of memory");
      break;
    }
    rc = fatbin_read_member_data(a, m, err, errlen);
  }
  if (archive_read_free(a) != ARCHIVE_OK && rc == 0)
    rc = fatbin_error(err, errlen, "fatbin: cannot release the archive reader");
  return rc;
}

/* Parses a decimal size with no sign and no overflow. */
static int fatbin_parse_size(const char *s, size_t *out) {
  size_t v = 0;
  if (!*s)
    return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (SIZE_MAX - d) / 10)
      return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

/* The fields of one manifest line; NULL when absent. */
struct fatbin_fields {
  char *module, *vendor, *target, *format, *size, *file;
};

/* Splits one line (already NUL-terminated) into its key=value fields. */
static int fatbin_split_line(char *line, size_t lineno, struct fatbin_fields *f,
                             char *err, size_t errlen) {
  static const char *const keys[] = {"module", "vendor", "target",
                                     "format", "size",   "file"};
  char **slots[] = {&f->module, &f->vendor, &f->target,
                    &f->format, &f->size,   &f->file};
  *f = (struct fatbin_fields){0};
  char *p = line;
  while (*p) {
    if (*p == ' ') {
      p++;
      continue;
    }
    char *tok = p;
    while (*p && *p != ' ')
      p++;
    if (*p)
      *p++ = '\0';
    char *eq = strchr(tok, '=');
    if (!eq)
      return fatbin_error(err, errlen,
                          "fatbin: MANIFEST line %zu: '%s' is not key=value", lineno,
                          tok);
    *eq = '\0';
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
      if (strcmp(tok, keys[k]) != 0)
        continue;
      if (*slots[k])
        return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: '%s=' given twice",
                            lineno, tok);
      *slots[k] = eq + 1;
    }
    /* Keys this reader does not know are skipped: later versions may add some. */
  }
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    if (!*slots[k] || !**slots[k])
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu lacks '%s='", lineno,
                          keys[k]);
  }
  return 0;
}

/* Turns one manifest line into an entry bound to its member. */
static int fatbin_add_entry(struct fatbin *fb, char *line, size_t lineno,
                            char *err, size_t errlen) {
  struct fatbin_fields f;
  if (fatbin_split_line(line, lineno, &f, err, errlen))
    return -1;
  struct fatbin_entry *e = &fb->entries[fb->count];
  *e = (struct fatbin_entry){.module = f.module, .target = f.target};
  if (fatbin_vendor_parse(f.vendor, &e->vendor))
    return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: unknown vendor '%s'",
                        lineno, f.vendor);
  if (fatbin_format_parse(f.format, &e->format))
    return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: unknown format '%s'",
                        lineno, f.format);
  size_t size;
  if (fatbin_parse_size(f.size, &size))
    return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: bad size '%s'",
                        lineno, f.size);
  struct fatbin_member *m = NULL;
  for (size_t i = 1; i < fb->nmembers && !m; i++) {
    if (strcmp(fb->members[i].name, f.file) == 0)
      m = &fb->members[i];
  }
  if (!m)
    return fatbin_error(err, errlen,
                        "fatbin: MANIFEST names '%s', which the archive lacks", f.file);
  if (m->claimed)
    return fatbin_error(err, errlen, "fatbin: MANIFEST names '%s' twice", f.file);
  if (m->size != size)
    return fatbin_error(err, errlen,
                        "fatbin: MANIFEST says '%s' has %zu bytes, the archive holds %zu",
                        f.file, size, m->size);
  m->claimed = 1;
  e->data = m->data;
  e->size = m->size;
  fb->count++;
  return 0;
}

/* Parses members[0], which must be MANIFEST, into fb->entries. */
static int fatbin_parse_manifest(struct fatbin *fb, char *err, size_t errlen) {
  if (fb->nmembers == 0 || strcmp(fb->members[0].name, "MANIFEST") != 0)
    return fatbin_error(err, errlen, "fatbin: the archive does not start with MANIFEST");
  const struct fatbin_member *mm = &fb->members[0];
  if (memchr(mm->data, '\0', mm->size))
    return fatbin_error(err, errlen, "fatbin: MANIFEST is not text");
  fb->manifest = malloc(mm->size + 1);
  if (!fb->manifest)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  memcpy(fb->manifest, mm->data, mm->size);
  fb->manifest[mm->size] = '\0';

  /* A line per entry, so the newline count bounds the entry count. */
  size_t lines = 0;
  for (size_t i = 0; i < mm->size; i++)
    lines += mm->data[i] == '\n';
  fb->entries = malloc((lines ? lines : 1) * sizeof *fb->entries);
  if (!fb->entries)
    return fatbin_error(err, errlen, "fatbin: out of memory");

  char *line = fb->manifest;
  char *nl = strchr(line, '\n');
  if (!nl)
    return fatbin_error(err, errlen, "fatbin: MANIFEST has no version line");
  *nl = '\0';
  /* The manifest's version is for people reading it; compatibility is
   * decided by the header's version, already checked. */
  static const char prefix[] = "gpucc-fatbin ";
  size_t version;
  if (strncmp(line, prefix, sizeof prefix - 1) != 0 ||
      fatbin_parse_size(line + sizeof prefix - 1, &version) != 0)
    return fatbin_error(err, errlen, "fatbin: MANIFEST has a bad version line '%s'",
                        line);

  /* Every line ends in '\n'; text after the last newline means the manifest
   * was cut short. */
  size_t lineno = 1;
  for (line = nl + 1; *line; line = nl + 1) {
    lineno++;
    nl = strchr(line, '\n');
    if (!nl)
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu is unterminated",
                          lineno);
    *nl = '\0';
    if (*line && fatbin_add_entry(fb, line, lineno, err, errlen))
      return -1;
  }
  return 0;
}

int fatbin_open(const void *blob, size_t size, struct fatbin **out, char *err,
                size_t errlen) {
  *out = NULL;
  uint32_t version;
  uint64_t tar_size;
  if (!fatbin_read_header(blob, size, &version, &tar_size)) {
    if (blob && size < FATBIN_HEADER_SIZE &&
        memcmp(blob, FATBIN_MAGIC, size < FATBIN_MAGIC_SIZE ? size : FATBIN_MAGIC_SIZE) == 0)
      return fatbin_error(err, errlen,
                          "fatbin: truncated archive: %zu bytes, shorter than the "
                          "%d-byte header",
                          size, FATBIN_HEADER_SIZE);
    return fatbin_error(err, errlen, "fatbin: not a gpucc fat binary (bad magic)");
  }
  if (version != FATBIN_VERSION)
    return fatbin_error(err, errlen,
                        "fatbin: unsupported fat binary version %u (this reader "
                        "knows %d)",
                        (unsigned)version, FATBIN_VERSION);
  size_t avail = size - FATBIN_HEADER_SIZE;
  if (tar_size > avail)
    return fatbin_error(err, errlen,
                        "fatbin: truncated archive: header says %llu bytes, %zu "
                        "available",
                        (unsigned long long)tar_size, avail);

  struct fatbin *fb = calloc(1, sizeof *fb);
  if (!fb)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  fb->blob_size = FATBIN_HEADER_SIZE + (size_t)tar_size;
  const unsigned char *tar = (const unsigned char *)blob + FATBIN_HEADER_SIZE;
  if (fatbin_read_members(fb, tar, (size_t)tar_size, err, errlen) ||
      fatbin_parse_manifest(fb, err, errlen)) {
    fatbin_close(fb);
    return -1;
  }
  *out = fb;
  return 0;
}

size_t fatbin_count(const struct fatbin *fb) { return fb ? fb->count : 0; }

const struct fatbin_entry *fatbin_get(const struct fatbin *fb, size_t i) {
  return fb && i < fb->count ? &fb->entries[i] : NULL;
}

size_t fatbin_blob_size(const struct fatbin *fb) { return fb ? fb->blob_size : 0; }

void fatbin_close(struct fatbin *fb) {
  if (!fb)
    return;
  for (size_t i = 0; i < fb->nmembers; i++) {
    free(fb->members[i].name);
    free(fb->members[i].data);
  }
  free(fb->members);
  free(fb->entries);
  free(fb->manifest);
  free(fb);
}
