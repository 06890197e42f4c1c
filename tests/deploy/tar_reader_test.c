/* tar_reader_test.c: the fat-binary reader's own tar walker
 * (fatbin/fatbin_tar.c), which replaced libarchive on the reading side so
 * that programs linked with the static runtime need no libarchive, checked
 * against libarchive itself.
 *
 * - Archives libarchive writes the way fatbin_write.c does (ustar, 512-byte
 *   blocks, no padding of the last block), with names around the 100-byte
 *   name field and the prefix split, and sizes around record boundaries:
 *   the walker finds every member libarchive reads back, with the same
 *   name, size, bytes and header offset, data in place.
 * - The same archive cut at every member boundary (a fragment, as in a zstd
 *   frame) is still read; cut anywhere else it is an error.
 * - Damage: a bad checksum, a non-octal or oversized size, another member
 *   type, a GNU or pax header, a missing padding, a partial trailing record
 *   and a duplicate name are errors with a message; every one-bit change of
 *   a header field either fails or still yields a member inside the buffer.
 * Exit 0 when all checks hold; each failure prints a line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fatbin_private.h"

static int failures;
#define CHECK(cond)                                                                \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
      failures++;                                                                  \
    }                                                                              \
  } while (0)

struct sample {
  char name[256];
  size_t size;
};

static unsigned char byte_at(size_t member, size_t i) {
  return (unsigned char)(member * 31 + i * 7 + 1);
}

/* Writes the members as fatbin_write.c does (format as given). */
static unsigned char *write_tar(const struct sample *s, size_t n, int pax, size_t *len) {
  size_t cap = 1 << 20;
  unsigned char *buf = malloc(cap);
  struct archive *a = archive_write_new();
  if (!buf || !a)
    abort();
  if ((pax ? archive_write_set_format_pax_restricted(a) : archive_write_set_format_ustar(a)) !=
          ARCHIVE_OK ||
      archive_write_add_filter_none(a) != ARCHIVE_OK ||
      archive_write_set_bytes_per_block(a, FATBIN_TAR_BLOCK) != ARCHIVE_OK ||
      archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
      archive_write_open_memory(a, buf, cap, len) != ARCHIVE_OK)
    abort();
  struct archive_entry *ae = archive_entry_new();
  for (size_t m = 0; m < n; m++) {
    archive_entry_clear(ae);
    archive_entry_set_pathname(ae, s[m].name);
    archive_entry_set_filetype(ae, AE_IFREG);
    archive_entry_set_perm(ae, 0644);
    archive_entry_set_size(ae, (la_int64_t)s[m].size);
    if (archive_write_header(a, ae) != ARCHIVE_OK)
      abort();
    unsigned char *data = malloc(s[m].size + 1);
    for (size_t i = 0; i < s[m].size; i++)
      data[i] = byte_at(m, i);
    if (s[m].size && archive_write_data(a, data, s[m].size) != (la_ssize_t)s[m].size)
      abort();
    free(data);
  }
  archive_entry_free(ae);
  if (archive_write_close(a) != ARCHIVE_OK || archive_write_free(a) != ARCHIVE_OK)
    abort();
  return buf;
}

/* Our walker and libarchive agree on every member. */
static void compare_with_libarchive(const unsigned char *buf, size_t len, const struct sample *s,
                                    size_t n) {
  struct fatbin_members ms = {0};
  char err[256] = "";
  int rc = fatbin_tar_walk(buf, len, &ms, err, sizeof err);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "  walk: %s\n", err);
  CHECK(ms.n == n);
  struct archive *a = archive_read_new();
  archive_read_support_format_tar(a);
  CHECK(archive_read_open_memory(a, buf, len) == ARCHIVE_OK);
  struct archive_entry *ae;
  for (size_t m = 0; m < n && m < ms.n && archive_read_next_header(a, &ae) == ARCHIVE_OK; m++) {
    const struct fatbin_member *mb = &ms.at[m];
    CHECK(strcmp(mb->name, archive_entry_pathname(ae)) == 0);
    CHECK(strcmp(mb->name, s[m].name) == 0);
    CHECK(mb->size == (size_t)archive_entry_size(ae) && mb->size == s[m].size);
    CHECK(mb->header_pos == (size_t)archive_read_header_position(a));
    CHECK(mb->data_pos == mb->header_pos + FATBIN_TAR_BLOCK && mb->data == buf + mb->data_pos);
    int same = 1;
    for (size_t i = 0; i < mb->size; i++)
      same &= mb->data[i] == byte_at(m, i);
    CHECK(same);
    CHECK(fatbin_members_find(&ms, s[m].name) == mb);
  }
  archive_read_free(a);
  fatbin_members_free(&ms);
}

static int walk(const unsigned char *buf, size_t len, char *err, size_t errlen) {
  struct fatbin_members ms = {0};
  err[0] = '\0';
  int rc = fatbin_tar_walk(buf, len, &ms, err, errlen);
  /* Whatever is accepted lies inside the buffer. */
  for (size_t i = 0; rc == 0 && i < ms.n; i++)
    CHECK(ms.at[i].data_pos <= len && ms.at[i].size <= len - ms.at[i].data_pos);
  fatbin_members_free(&ms);
  return rc;
}

/* Rewrites the header checksum of the record at h after an edit. */
static void fix_checksum(unsigned char *h) {
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (int i = 0; i < 512; i++)
    sum += h[i];
  snprintf((char *)h + 148, 8, "%06o", sum);
  h[155] = ' ';
}

static void test_round_trip(void) {
  static struct sample s[16];
  size_t n = 0;
  const size_t name_lens[] = {1, 99, 100, 120, 200};
  const size_t sizes[] = {0, 1, 511, 512, 513, 10000};
  for (size_t i = 0; i < sizeof name_lens / sizeof *name_lens; i++) {
    size_t k = name_lens[i];
    /* Long names have a '/' for libarchive to split them into prefix and name. */
    memset(s[n].name, 'a' + (int)i, k);
    if (k > 100)
      s[n].name[k - 60] = '/';
    s[n].name[k] = '\0';
    s[n].size = sizes[i % (sizeof sizes / sizeof *sizes)];
    n++;
  }
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++, n++) {
    snprintf(s[n].name, sizeof s[n].name, "m/sm_%zu.cubin", i);
    s[n].size = sizes[i];
  }
  size_t len;
  unsigned char *tar = write_tar(s, n, 0, &len);
  compare_with_libarchive(tar, len, s, n);

  /* Cut at each member boundary: a fragment of the first members. */
  struct fatbin_members ms = {0};
  char err[256];
  CHECK(fatbin_tar_walk(tar, len, &ms, err, sizeof err) == 0);
  for (size_t m = 1; m <= ms.n; m++) {
    size_t end = m < ms.n ? ms.at[m].header_pos : len - 2 * FATBIN_TAR_BLOCK;
    struct fatbin_members part = {0};
    CHECK(fatbin_tar_walk(tar, end, &part, err, sizeof err) == 0 && part.n == m);
    fatbin_members_free(&part);
  }
  /* Cut inside a member or a header: an error, never a member past the cut. */
  for (size_t cut = 1; cut < ms.at[ms.n - 1].data_pos + ms.at[ms.n - 1].size; cut += 97) {
    int boundary = 0;
    for (size_t m = 0; m < ms.n; m++)
      boundary |= cut == ms.at[m].header_pos;
    if (!boundary)
      CHECK(walk(tar, cut, err, sizeof err) == -1 && strstr(err, "truncated"));
  }
  fatbin_members_free(&ms);
  free(tar);
}

static void test_damage(void) {
  struct sample one = {"k/host.so", 700};
  size_t len;
  unsigned char *tar = write_tar(&one, 1, 0, &len);
  unsigned char *t = malloc(len);
  char err[256];

  memcpy(t, tar, len);
  t[0] ^= 1; /* the name changes, the checksum no longer holds */
  CHECK(walk(t, len, err, sizeof err) == -1 && strstr(err, "checksum"));

  memcpy(t, tar, len);
  memcpy(t + 124, "0000000009x\0", 12);
  fix_checksum(t);
  CHECK(walk(t, len, err, sizeof err) == -1 && strstr(err, "bad size"));

  memcpy(t, tar, len);
  memcpy(t + 124, "77777777777\0", 12); /* 8 GiB in a small buffer */
  fix_checksum(t);
  CHECK(walk(t, len, err, sizeof err) == -1 && strstr(err, "truncated"));

  memcpy(t, tar, len);
  t[124] = (unsigned char)0x80; /* base-256 size */
  fix_checksum(t);
  CHECK(walk(t, len, err, sizeof err) == -1 && strstr(err, "bad size"));

  const char types[] = {'1', '2', '5', 'x', 'g', 'L'};
  for (size_t i = 0; i < sizeof types; i++) {
    memcpy(t, tar, len);
    t[156] = (unsigned char)types[i];
    fix_checksum(t);
    CHECK(walk(t, len, err, sizeof err) == -1 && strstr(err, "not a plain file"));
  }

  memcpy(t, tar, len);
  memcpy(t + 257, "ustar  \0", 8); /* GNU tar's header */
  fix_checksum(t);
  CHECK(walk(t, len, err, sizeof err) == -1 && strstr(err, "no ustar header"));

  /* 700 bytes of data take two records: the second cut short */
  CHECK(walk(tar, 512 + 700, err, sizeof err) == -1 && strstr(err, "padding"));
  CHECK(walk(tar, 512 + 1024 + 100, err, sizeof err) == -1 && strstr(err, "truncated"));
  /* Anything after the end-of-archive record is ignored, as tar does. */
  memcpy(t, tar, len);
  memset(t + len - 512, 'z', 512);
  CHECK(walk(t, len, err, sizeof err) == 0);

  /* Every one-bit change of a header field, checksum made right again so
   * that the field itself is judged: an error or a sound member. */
  for (size_t i = 0; i < 512; i++)
    for (int bit = 0; bit < 8 && (i < 148 || i >= 156); bit++) {
      memcpy(t, tar, len);
      t[i] ^= (unsigned char)(1u << bit);
      fix_checksum(t);
      (void)walk(t, len, err, sizeof err);
    }
  free(t);
  free(tar);

  struct sample twice[] = {{"a/x.ptx", 3}, {"a/x.ptx", 4}};
  tar = write_tar(twice, 2, 0, &len);
  CHECK(walk(tar, len, err, sizeof err) == -1 && strstr(err, "appears twice"));
  free(tar);

  /* A name libarchive can only store in a pax extension header. */
  struct sample longname = {"", 5};
  memset(longname.name, 'q', 180);
  tar = write_tar(&longname, 1, 1, &len);
  CHECK(walk(tar, len, err, sizeof err) == -1 && strstr(err, "not a plain file"));
  free(tar);
}

int main(void) {
  test_round_trip();
  test_damage();
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("ok: the tar walker reads what libarchive writes and refuses damage\n");
  return 0;
}
