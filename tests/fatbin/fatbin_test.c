/* fatbin_test.c: unit test of the fat-binary library (fatbin/fatbin.h).
 *
 * It checks the promises the driver and the runtime rely on: what is written
 * reads back byte for byte; the same objects in any order give the same
 * bytes; the archive metadata is fixed; a blob cut short anywhere, or with
 * bytes flipped at random, is an error or a valid parse but never a crash
 * (run it under -fsanitize=address,undefined to see that); the blobs in an
 * ELF .gpucc_fatbin section are found with their padding skipped; and the
 * manifest's rules are enforced. Inputs are built here, with libarchive for
 * hand-made archives and <elf.h> structs for ELF images.
 *
 * Checks do not use assert(), which NDEBUG builds compile away. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fatbin.h"

static int checks, failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* For conditions the rest of a test cannot do without. */
#define REQUIRE(cond)                                                          \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: requirement failed: %s\n", __FILE__, __LINE__,   \
              #cond);                                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* A small deterministic generator, so failures reproduce. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng_next(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static unsigned char *dup_bytes(const void *p, size_t n) {
  unsigned char *d = malloc(n ? n : 1);
  REQUIRE(d);
  if (n)
    memcpy(d, p, n);
  return d;
}

/* ---- the sample objects ------------------------------------------------ */

static unsigned char cubin_data[1000];
static const char ptx_text[] = ".version 8.4\n.target sm_90\n"; /* NUL included */
static unsigned char hsaco_data[777];
static unsigned char other_data[3] = {0, 0, 0};

static void init_data(void) {
  for (size_t i = 0; i < sizeof cubin_data; i++)
    cubin_data[i] = (unsigned char)i; /* every byte value, NULs included */
  for (size_t i = 0; i < sizeof hsaco_data; i++)
    hsaco_data[i] = (unsigned char)(rng_next() >> 24);
  hsaco_data[0] = 0;
}

#define NSAMPLE 5
static const struct fatbin_entry samples[NSAMPLE] = {
    {"main_kernels", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN,
     cubin_data, sizeof cubin_data},
    {"main_kernels", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, ptx_text,
     sizeof ptx_text},
    {"main_kernels", FATBIN_VENDOR_AMD, "gfx942:xnack-", FATBIN_FORMAT_HSACO,
     hsaco_data, sizeof hsaco_data},
    {"main_kernels", FATBIN_VENDOR_HOST, "host", FATBIN_FORMAT_SO, NULL, 0},
    {"other", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, other_data,
     sizeof other_data},
};
/* The same objects in the order the writer must sort them into. */
static const int sorted_order[NSAMPLE] = {2, 3, 0, 1, 4};

static void *write_blob(const struct fatbin_entry *e, size_t n, size_t *size) {
  void *blob;
  char err[256] = "";
  int r = fatbin_write(e, n, &blob, size, err, sizeof err);
  if (r != 0)
    fprintf(stderr, "fatbin_write: %s\n", err);
  REQUIRE(r == 0);
  return blob;
}

static int entry_equal(const struct fatbin_entry *a, const struct fatbin_entry *b) {
  return strcmp(a->module, b->module) == 0 && strcmp(a->target, b->target) == 0 &&
         a->vendor == b->vendor && a->format == b->format && a->size == b->size &&
         (a->size == 0 || memcmp(a->data, b->data, a->size) == 0);
}

/* True when fb holds exactly the samples, in sorted order. */
static int holds_samples(const struct fatbin *fb) {
  if (fatbin_count(fb) != NSAMPLE)
    return 0;
  for (size_t i = 0; i < NSAMPLE; i++) {
    if (!entry_equal(fatbin_get(fb, i), &samples[sorted_order[i]]))
      return 0;
  }
  return 1;
}

/* ---- names --------------------------------------------------------------- */

static void test_names(void) {
  for (int v = FATBIN_VENDOR_NVIDIA; v <= FATBIN_VENDOR_HOST; v++) {
    enum fatbin_vendor out;
    const char *name = fatbin_vendor_name((enum fatbin_vendor)v);
    REQUIRE(name);
    CHECK(fatbin_vendor_parse(name, &out) == 0 && (int)out == v);
  }
  for (int f = FATBIN_FORMAT_CUBIN; f <= FATBIN_FORMAT_SO; f++) {
    enum fatbin_format out;
    const char *name = fatbin_format_name((enum fatbin_format)f);
    REQUIRE(name);
    CHECK(fatbin_format_parse(name, &out) == 0 && (int)out == f);
  }
  CHECK(strcmp(fatbin_vendor_name(FATBIN_VENDOR_NVIDIA), "nvidia") == 0);
  CHECK(strcmp(fatbin_vendor_name(FATBIN_VENDOR_AMD), "amd") == 0);
  CHECK(strcmp(fatbin_format_name(FATBIN_FORMAT_CUBIN), "cubin") == 0);
  CHECK(strcmp(fatbin_format_name(FATBIN_FORMAT_HSACO), "hsaco") == 0);
  enum fatbin_vendor v;
  enum fatbin_format f;
  CHECK(fatbin_vendor_parse("intel", &v) == -1);
  CHECK(fatbin_vendor_parse("NVIDIA", &v) == -1);
  CHECK(fatbin_format_parse("elf", &f) == -1);
  CHECK(fatbin_format_parse("", &f) == -1);
  CHECK(fatbin_vendor_name((enum fatbin_vendor)42) == NULL);
  CHECK(fatbin_format_name((enum fatbin_format)-1) == NULL);
}

/* ---- writing and reading back ---------------------------------------- */

/* Reads the tar part of a blob with libarchive, independently of the
 * library's reader, to check the metadata and member order. */
static void check_tar_metadata(const unsigned char *blob, size_t size) {
  struct archive *a = archive_read_new();
  REQUIRE(a);
  CHECK(archive_read_support_format_tar(a) == ARCHIVE_OK);
  CHECK(archive_read_open_memory(a, blob + FATBIN_HEADER_SIZE,
                                 size - FATBIN_HEADER_SIZE) == ARCHIVE_OK);
  static const char *const names[] = {
      "MANIFEST",
      "main_kernels/gfx942:xnack-.hsaco",
      "main_kernels/host.so",
      "main_kernels/sm_90.cubin",
      "main_kernels/sm_90.ptx",
      "other/sm_80.cubin",
  };
  struct archive_entry *ae;
  size_t i = 0;
  while (archive_read_next_header(a, &ae) == ARCHIVE_OK) {
    REQUIRE(i < sizeof names / sizeof names[0]);
    CHECK(strcmp(archive_entry_pathname(ae), names[i]) == 0);
    CHECK(archive_entry_mtime(ae) == 0);
    CHECK(archive_entry_uid(ae) == 0);
    CHECK(archive_entry_gid(ae) == 0);
    CHECK(archive_entry_uname(ae) == NULL || *archive_entry_uname(ae) == '\0');
    CHECK(archive_entry_gname(ae) == NULL || *archive_entry_gname(ae) == '\0');
    CHECK(archive_entry_filetype(ae) == AE_IFREG);
    CHECK(archive_entry_perm(ae) == 0644);
    if (i == 0) {
      char manifest[1024] = "";
      la_ssize_t n = archive_read_data(a, manifest, sizeof manifest - 1);
      REQUIRE(n > 0);
      char expect[256];
      snprintf(expect, sizeof expect,
               "gpucc-fatbin 1\nmodule=main_kernels vendor=amd "
               "target=gfx942:xnack- format=hsaco size=%zu "
               "file=main_kernels/gfx942:xnack-.hsaco\n",
               sizeof hsaco_data);
      CHECK(strncmp(manifest, expect, strlen(expect)) == 0);
      CHECK(strstr(manifest, "module=main_kernels vendor=host target=host "
                             "format=so size=0 file=main_kernels/host.so\n"));
    }
    i++;
  }
  CHECK(i == sizeof names / sizeof names[0]);
  CHECK(archive_read_free(a) == ARCHIVE_OK);
}

static void test_roundtrip(void) {
  size_t size;
  unsigned char *blob = write_blob(samples, NSAMPLE, &size);
  REQUIRE(size > FATBIN_HEADER_SIZE);

  /* The header, field by field. */
  CHECK(memcmp(blob, "GPUCCFAT", 8) == 0);
  CHECK(blob[8] == FATBIN_VERSION && blob[9] == 0 && blob[10] == 0 && blob[11] == 0);
  CHECK(blob[12] == 0 && blob[13] == 0 && blob[14] == 0 && blob[15] == 0);
  uint64_t tar_size = 0;
  for (int i = 7; i >= 0; i--)
    tar_size = tar_size << 8 | blob[16 + i];
  CHECK(tar_size == size - FATBIN_HEADER_SIZE);
  CHECK(tar_size % 512 == 0); /* tar records, no extra block padding */
  CHECK(memcmp(blob + FATBIN_HEADER_SIZE, "MANIFEST", 9) == 0);
  CHECK(memcmp(blob + FATBIN_HEADER_SIZE + 257, "ustar", 5) == 0);
  CHECK(fatbin_is_blob(blob, size));
  CHECK(fatbin_is_blob(blob, FATBIN_HEADER_SIZE));
  CHECK(!fatbin_is_blob(blob, FATBIN_HEADER_SIZE - 1));
  check_tar_metadata(blob, size);

  struct fatbin *fb = NULL;
  char err[256] = "";
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
  REQUIRE(fb);
  CHECK(holds_samples(fb));
  CHECK(fatbin_blob_size(fb) == size);
  CHECK(fatbin_get(fb, NSAMPLE) == NULL);
  const struct fatbin_entry *e = fatbin_get(fb, 0);
  REQUIRE(e);
  CHECK(strcmp(e->target, "gfx942:xnack-") == 0 && e->vendor == FATBIN_VENDOR_AMD);
  e = fatbin_get(fb, 3);
  REQUIRE(e);
  CHECK(e->format == FATBIN_FORMAT_PTX && e->size == sizeof ptx_text &&
        ((const char *)e->data)[e->size - 1] == '\0');
  /* Entries are the archive's copies, not pointers into the blob. */
  CHECK((const unsigned char *)e->data < blob ||
        (const unsigned char *)e->data >= blob + size);
  fatbin_close(fb);

  /* Trailing bytes after the blob are not part of it. */
  unsigned char *longer = malloc(size + 100);
  REQUIRE(longer);
  memcpy(longer, blob, size);
  memset(longer + size, 0xab, 100);
  CHECK(fatbin_open(longer, size + 100, &fb, err, sizeof err) == 0);
  CHECK(fb && fatbin_blob_size(fb) == size && holds_samples(fb));
  fatbin_close(fb);
  free(longer);
  free(blob);

  /* No entries at all is still a valid blob. */
  blob = write_blob(NULL, 0, &size);
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
  CHECK(fb && fatbin_count(fb) == 0 && fatbin_get(fb, 0) == NULL);
  fatbin_close(fb);
  free(blob);
  fatbin_close(NULL); /* allowed, like free */
}

static void test_sorting(void) {
  size_t ref_size;
  unsigned char *ref = write_blob(samples, NSAMPLE, &ref_size);
  struct fatbin_entry perm[NSAMPLE];
  for (int round = 0; round < 50; round++) {
    memcpy(perm, samples, sizeof perm);
    if (round == 0) {
      for (int i = 0; i < NSAMPLE; i++)
        perm[i] = samples[NSAMPLE - 1 - i];
    } else {
      for (int i = NSAMPLE - 1; i > 0; i--) {
        int j = (int)(rng_next() % (uint64_t)(i + 1));
        struct fatbin_entry t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
    }
    size_t size;
    unsigned char *blob = write_blob(perm, NSAMPLE, &size);
    CHECK(size == ref_size && memcmp(blob, ref, size) == 0);
    free(blob);
  }
  free(ref);
}

static void test_write_errors(void) {
  struct bad {
    struct fatbin_entry e;
    const char *why;
  } bad[] = {
      {{"a b", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1}, "space"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm/90", FATBIN_FORMAT_PTX, "x", 1}, "slash"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm=90", FATBIN_FORMAT_PTX, "x", 1}, "equals"},
      {{"a", FATBIN_VENDOR_NVIDIA, "", FATBIN_FORMAT_PTX, "x", 1}, "empty target"},
      {{NULL, FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1}, "no module"},
      {{"a\n", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1}, "newline"},
      {{"a", (enum fatbin_vendor)9, "sm_90", FATBIN_FORMAT_PTX, "x", 1}, "vendor"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm_90", (enum fatbin_format)9, "x", 1}, "format"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, NULL, 5}, "no data"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct fatbin_entry two[2] = {samples[0], bad[i].e};
    void *out = (void *)1;
    size_t out_size = 1;
    char err[256] = "";
    int r = fatbin_write(two, 2, &out, &out_size, err, sizeof err);
    if (r != -1)
      fprintf(stderr, "accepted a bad entry (%s)\n", bad[i].why);
    CHECK(r == -1 && out == NULL && out_size == 0);
    CHECK(strncmp(err, "fatbin: ", 8) == 0);
  }

  /* The same (module, target, format) twice, even with another vendor. */
  struct fatbin_entry dup[2] = {samples[0], samples[0]};
  dup[1].vendor = FATBIN_VENDOR_AMD;
  void *out;
  size_t out_size;
  char err[256] = "";
  CHECK(fatbin_write(dup, 2, &out, &out_size, err, sizeof err) == -1);
  CHECK(strstr(err, "duplicate") != NULL);

  /* A name too long for ustar: libarchive's complaint must come through. */
  char longname[300];
  memset(longname, 'm', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  struct fatbin_entry lng = samples[0];
  lng.module = longname;
  err[0] = '\0';
  CHECK(fatbin_write(&lng, 1, &out, &out_size, err, sizeof err) == -1);
  CHECK(strstr(err, "cannot write") != NULL);
  /* A NULL or zero-length error buffer is allowed. */
  CHECK(fatbin_write(&lng, 1, &out, &out_size, NULL, 0) == -1);
}

/* ---- damaged blobs ---------------------------------------------------- */

/* Touches everything a successful parse hands out, so that the sanitizers
 * see any pointer into freed or foreign memory. */
static unsigned touch(const struct fatbin *fb) {
  unsigned sum = 0;
  for (size_t i = 0; i < fatbin_count(fb); i++) {
    const struct fatbin_entry *e = fatbin_get(fb, i);
    sum += (unsigned)strlen(e->module) + (unsigned)strlen(e->target);
    CHECK(fatbin_vendor_name(e->vendor) && fatbin_format_name(e->format));
    for (size_t k = 0; k < e->size; k++)
      sum += ((const unsigned char *)e->data)[k];
  }
  return sum;
}

static int count_visit(const void *blob, size_t size, void *ud) {
  (void)blob;
  (void)size;
  ++*(int *)ud;
  return 0;
}

static void test_truncation(void) {
  size_t size;
  unsigned char *blob = write_blob(samples, NSAMPLE, &size);
  for (size_t len = 0; len < size; len++) {
    /* An exact-size copy, so that reading one byte too far is caught. */
    unsigned char *cut = dup_bytes(blob, len);
    struct fatbin *fb = (struct fatbin *)1;
    char err[256] = "";
    CHECK(fatbin_open(cut, len, &fb, err, sizeof err) == -1);
    CHECK(fb == NULL);
    CHECK(err[0] != '\0');
    if (len >= FATBIN_HEADER_SIZE)
      CHECK(strstr(err, "fatbin: truncated archive: header says") == err);
    int visits = 0;
    CHECK(fatbin_find_blobs(cut, len, count_visit, &visits, err, sizeof err) == -1);
    CHECK(visits == 0);
    free(cut);
  }

  /* Now the header is made to agree with the cut, so that libarchive and the
   * manifest checks meet a short tar: an error, or (when only the end-of-
   * archive records are missing) every object intact. */
  int ok = 0, bad = 0;
  for (size_t len = FATBIN_HEADER_SIZE; len < size; len++) {
    unsigned char *cut = dup_bytes(blob, len);
    uint64_t tar_size = len - FATBIN_HEADER_SIZE;
    for (int i = 0; i < 8; i++)
      cut[16 + i] = (unsigned char)(tar_size >> (8 * i));
    struct fatbin *fb = NULL;
    char err[256] = "";
    if (fatbin_open(cut, len, &fb, err, sizeof err) == 0) {
      /* Only the two 512-byte end-of-archive records may be missing. */
      CHECK(len >= size - 1024);
      CHECK(holds_samples(fb));
      fatbin_close(fb);
      ok++;
    } else {
      CHECK(fb == NULL && err[0] != '\0');
      bad++;
    }
    free(cut);
  }
  CHECK(ok > 0 && bad > 0);
  free(blob);
}

static void test_flips(void) {
  size_t size;
  unsigned char *blob = write_blob(samples, NSAMPLE, &size);
  int ok = 0, bad = 0;
  for (int round = 0; round < 20000; round++) {
    unsigned char *b = dup_bytes(blob, size);
    int flips = 1 + (int)(rng_next() % 4);
    for (int k = 0; k < flips; k++) {
      /* Half the rounds aim at the header, MANIFEST's tar header and the
       * manifest text, where a flip changes meaning rather than data. */
      size_t span = round % 2 ? size : FATBIN_HEADER_SIZE + 1024;
      size_t at = (size_t)(rng_next() % span);
      b[at] ^= (unsigned char)(1 + rng_next() % 255);
    }
    struct fatbin *fb = NULL;
    char err[256] = "";
    if (fatbin_open(b, size, &fb, err, sizeof err) == 0) {
      REQUIRE(fb);
      CHECK(fatbin_blob_size(fb) <= size);
      (void)touch(fb);
      fatbin_close(fb);
      ok++;
    } else {
      CHECK(fb == NULL && err[0] != '\0');
      bad++;
    }
    int visits = 0;
    (void)fatbin_find_blobs(b, size, count_visit, &visits, err, sizeof err);
    CHECK(visits <= 1);
    free(b);
  }
  /* Both outcomes must occur, or the flips did not exercise anything. */
  CHECK(ok > 0 && bad > 0);
  free(blob);
}

/* ---- hand-made archives: the manifest rules ------------------------- */

struct member {
  const char *name;
  const char *data; /* text; NULL for a directory */
  size_t size;      /* (size_t)-1: strlen(data) */
};

/* Builds a blob around a tar that libarchive writes from the members. */
static unsigned char *make_blob(const struct member *m, size_t n, size_t *size) {
  static unsigned char tar[64 * 1024];
  size_t used = 0;
  struct archive *a = archive_write_new();
  REQUIRE(a);
  REQUIRE(archive_write_set_format_pax_restricted(a) == ARCHIVE_OK);
  REQUIRE(archive_write_add_filter_none(a) == ARCHIVE_OK);
  REQUIRE(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
  REQUIRE(archive_write_open_memory(a, tar, sizeof tar, &used) == ARCHIVE_OK);
  for (size_t i = 0; i < n; i++) {
    struct archive_entry *ae = archive_entry_new();
    REQUIRE(ae);
    size_t len = m[i].data ? (m[i].size == (size_t)-1 ? strlen(m[i].data) : m[i].size) : 0;
    archive_entry_set_pathname(ae, m[i].name);
    archive_entry_set_filetype(ae, m[i].data ? AE_IFREG : AE_IFDIR);
    archive_entry_set_perm(ae, 0644);
    archive_entry_set_size(ae, (la_int64_t)len);
    REQUIRE(archive_write_header(a, ae) == ARCHIVE_OK);
    if (len)
      REQUIRE(archive_write_data(a, m[i].data, len) == (la_ssize_t)len);
    archive_entry_free(ae);
  }
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  REQUIRE(archive_write_free(a) == ARCHIVE_OK);
  *size = FATBIN_HEADER_SIZE + used;
  unsigned char *blob = malloc(*size);
  REQUIRE(blob);
  memcpy(blob, "GPUCCFAT", 8);
  memset(blob + 8, 0, 16);
  blob[8] = FATBIN_VERSION;
  for (int i = 0; i < 8; i++)
    blob[16 + i] = (unsigned char)((uint64_t)used >> (8 * i));
  memcpy(blob + FATBIN_HEADER_SIZE, tar, used);
  return blob;
}

#define LINE_A "module=m vendor=nvidia target=sm_90 format=ptx size=3 file=m/sm_90.ptx\n"
#define LINE_B "module=m vendor=amd target=gfx90a format=hsaco size=2 file=m/gfx90a.hsaco\n"

/* Opens a hand-made blob; returns fatbin_open's result, err holds the text. */
static int open_members(const struct member *m, size_t n, size_t *count, char *err,
                        size_t errlen) {
  size_t size;
  unsigned char *blob = make_blob(m, n, &size);
  struct fatbin *fb = NULL;
  err[0] = '\0';
  int r = fatbin_open(blob, size, &fb, err, errlen);
  *count = fatbin_count(fb);
  if (r == 0)
    (void)touch(fb);
  fatbin_close(fb);
  free(blob);
  return r;
}

static void test_manifest(void) {
  char err[256];
  size_t count;
  const struct member ptx = {"m/sm_90.ptx", "abc", (size_t)-1};
  const struct member hsaco = {"m/gfx90a.hsaco", "\0\1", 2};

  /* Valid: unknown keys and unlisted members are allowed, for later versions. */
  struct member good[] = {
      {"MANIFEST", "gpucc-fatbin 1\n" LINE_A
                   "module=m vendor=amd target=gfx90a format=hsaco size=2 "
                   "file=m/gfx90a.hsaco features=sramecc+\n\n",
       (size_t)-1},
      ptx, hsaco, {"m/README", "later", (size_t)-1}};
  CHECK(open_members(good, 4, &count, err, sizeof err) == 0 && count == 2);

  struct {
    const char *manifest;
    const char *expect; /* part of the message */
  } cases[] = {
      {"gpucc-fatbin 1\n" LINE_A "module=m vendor=amd target=gfx90a format=hsaco "
       "size=2 file=m/missing\n",
       "lacks"},
      {"gpucc-fatbin 1\n" LINE_A LINE_A, "twice"},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target=sm_90 format=ptx size=4 "
       "file=m/sm_90.ptx\n",
       "bytes"},
      {"gpucc-fatbin one\n" LINE_A, "version line"},
      {"GPUCC-FATBIN 1\n" LINE_A, "version line"},
      {"", "version line"},
      {"gpucc-fatbin 1\nmodule=m vendor=intel target=sm_90 format=ptx size=3 "
       "file=m/sm_90.ptx\n",
       "unknown vendor"},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target=sm_90 format=elf size=3 "
       "file=m/sm_90.ptx\n",
       "unknown format"},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia format=ptx size=3 file=m/sm_90.ptx\n",
       "target="},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target= format=ptx size=3 "
       "file=m/sm_90.ptx\n",
       "target="},
      {"gpucc-fatbin 1\nmodule=m module=n vendor=nvidia target=sm_90 format=ptx "
       "size=3 file=m/sm_90.ptx\n",
       "twice"},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target=sm_90 format=ptx size=-3 "
       "file=m/sm_90.ptx\n",
       "bad size"},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target=sm_90 format=ptx "
       "size=99999999999999999999999 file=m/sm_90.ptx\n",
       "bad size"},
      {"gpucc-fatbin 1\nmodule=m junk vendor=nvidia\n", "key=value"},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target=sm_90 format=ptx size=3 "
       "file=m/sm_90.ptx",
       "unterminated"},
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target=sm_90 format=ptx size=3 "
       "file=MANIFEST\n",
       "lacks"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct member m[] = {{"MANIFEST", cases[i].manifest, (size_t)-1}, ptx, hsaco};
    int r = open_members(m, 3, &count, err, sizeof err);
    if (r != -1 || !strstr(err, cases[i].expect))
      fprintf(stderr, "manifest case %zu: r=%d err='%s'\n", i, r, err);
    CHECK(r == -1 && strstr(err, cases[i].expect));
    CHECK(count == 0);
  }

  /* A NUL inside the manifest text. */
  static const char nul_manifest[] = "gpucc-fatbin 1\n\0" LINE_A;
  struct member nul[] = {{"MANIFEST", nul_manifest, sizeof nul_manifest - 1}, ptx};
  CHECK(open_members(nul, 2, &count, err, sizeof err) == -1 &&
        strstr(err, "not text"));

  /* MANIFEST must come first. */
  struct member late[] = {ptx, {"MANIFEST", "gpucc-fatbin 1\n" LINE_A, (size_t)-1}};
  CHECK(open_members(late, 2, &count, err, sizeof err) == -1 &&
        strstr(err, "MANIFEST"));

  /* Only plain files, each name once. */
  struct member dir[] = {{"MANIFEST", "gpucc-fatbin 1\n", (size_t)-1},
                         {"m", NULL, 0}};
  CHECK(open_members(dir, 2, &count, err, sizeof err) == -1 &&
        strstr(err, "plain file"));
  struct member twice[] = {{"MANIFEST", "gpucc-fatbin 1\n" LINE_A, (size_t)-1},
                           ptx, ptx};
  CHECK(open_members(twice, 3, &count, err, sizeof err) == -1 &&
        strstr(err, "twice"));

  /* An empty tar, and the header's own checks. */
  size_t size;
  unsigned char *blob = make_blob(NULL, 0, &size);
  struct fatbin *fb = NULL;
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 && fb == NULL);
  free(blob);

  struct member one[] = {{"MANIFEST", "gpucc-fatbin 1\n" LINE_A, (size_t)-1}, ptx};
  blob = make_blob(one, 2, &size);
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0 && fatbin_count(fb) == 1);
  fatbin_close(fb);
  blob[8] = 2; /* a later version */
  CHECK(!fatbin_is_blob(blob, size));
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 &&
        strstr(err, "unsupported fat binary version 2"));
  blob[8] = FATBIN_VERSION;
  blob[0] = 'X';
  CHECK(!fatbin_is_blob(blob, size));
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 &&
        strstr(err, "bad magic"));
  blob[0] = 'G';
  memset(blob + 16, 0xff, 8); /* an absurd archive size */
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 &&
        strstr(err, "truncated archive: header says 18446744073709551615 bytes"));
  free(blob);
}

/* ---- finding blobs in ELF images and bare files ------------------------ */

struct visit_log {
  int n;
  const unsigned char *at[4];
  size_t size[4];
  int stop_with; /* returned by the visitor when non-zero */
};

static int log_visit(const void *blob, size_t size, void *ud) {
  struct visit_log *log = ud;
  if (log->n < 4) {
    log->at[log->n] = blob;
    log->size[log->n] = size;
  }
  log->n++;
  return log->stop_with;
}

/* Describes a fake ELF file: section contents and where they land. */
struct elf_image {
  unsigned char *data;
  size_t size;
  size_t sec_off; /* file offset of the .gpucc_fatbin contents */
};

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Builds a relocatable 64-bit little-endian ELF file with sections: null,
 * ".gpucc_fatbinx" (a decoy holding junk), `secname` holding sec, and
 * ".shstrtab". `extended` uses extended section numbering. */
static struct elf_image make_elf(const char *secname, const unsigned char *sec,
                                 size_t sec_size, int extended) {
  char strtab[128];
  size_t strsz = 1;
  strtab[0] = '\0';
  size_t decoy_name = strsz;
  strsz += (size_t)sprintf(strtab + strsz, ".gpucc_fatbinx") + 1;
  size_t our_name = strsz;
  strsz += (size_t)sprintf(strtab + strsz, "%s", secname) + 1;
  size_t str_name = strsz;
  strsz += (size_t)sprintf(strtab + strsz, ".shstrtab") + 1;
  static const unsigned char junk[] = {'j', 'u', 'n', 'k', 'j', 'u', 'n', 'k'};

  size_t off = sizeof(Elf64_Ehdr);
  size_t decoy_off = off;
  off = align8(off + sizeof junk);
  size_t sec_off = off;
  off = align8(off + sec_size);
  size_t str_off = off;
  off = align8(off + strsz);
  size_t sh_off = off;
  size_t total = sh_off + 4 * sizeof(Elf64_Shdr);

  unsigned char *d = calloc(1, total);
  REQUIRE(d);
  Elf64_Ehdr eh = {0};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_REL;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_shoff = sh_off;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = extended ? 0 : 4;
  eh.e_shstrndx = extended ? SHN_XINDEX : 3;
  memcpy(d, &eh, sizeof eh);

  Elf64_Shdr sh[4] = {{0}};
  if (extended) {
    sh[0].sh_size = 4;
    sh[0].sh_link = 3;
  }
  sh[1] = (Elf64_Shdr){.sh_name = (Elf64_Word)decoy_name, .sh_type = SHT_PROGBITS,
                       .sh_offset = decoy_off, .sh_size = sizeof junk,
                       .sh_addralign = 1};
  sh[2] = (Elf64_Shdr){.sh_name = (Elf64_Word)our_name, .sh_type = SHT_PROGBITS,
                       .sh_flags = SHF_ALLOC, .sh_offset = sec_off,
                       .sh_size = sec_size, .sh_addralign = 8};
  sh[3] = (Elf64_Shdr){.sh_name = (Elf64_Word)str_name, .sh_type = SHT_STRTAB,
                       .sh_offset = str_off, .sh_size = strsz, .sh_addralign = 1};
  memcpy(d + decoy_off, junk, sizeof junk);
  if (sec_size)
    memcpy(d + sec_off, sec, sec_size);
  memcpy(d + str_off, strtab, strsz);
  memcpy(d + sh_off, sh, sizeof sh);
  return (struct elf_image){d, total, sec_off};
}

static void test_elf(void) {
  size_t size1, size2;
  unsigned char *blob1 = write_blob(samples, NSAMPLE, &size1);
  unsigned char *blob2 = write_blob(&samples[4], 1, &size2);
  /* Blobs written by the library end 8-byte aligned (24 + tar records), so
   * the zeros between them here are padding a linker might add. */
  REQUIRE(size1 % 8 == 0);
  size_t pad = 16;
  size_t sec_size = size1 + pad + size2 + 5;
  unsigned char *sec = calloc(1, sec_size);
  REQUIRE(sec);
  memcpy(sec, blob1, size1);
  memcpy(sec + size1 + pad, blob2, size2);

  for (int extended = 0; extended <= 1; extended++) {
    struct elf_image img = make_elf(FATBIN_SECTION, sec, sec_size, extended);
    struct visit_log log = {0};
    char err[256] = "";
    int r = fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err);
    if (r != 0)
      fprintf(stderr, "fatbin_find_blobs: %s\n", err);
    CHECK(r == 0);
    CHECK(log.n == 2);
    CHECK(log.at[0] == img.data + img.sec_off && log.size[0] == size1);
    CHECK(log.at[1] == img.data + img.sec_off + size1 + pad && log.size[1] == size2);
    CHECK(fatbin_probe(img.data, img.size) == 1);
    for (int i = 0; i < 2 && i < log.n; i++) {
      struct fatbin *fb = NULL;
      CHECK(fatbin_open(log.at[i], log.size[i], &fb, err, sizeof err) == 0);
      CHECK(fb && fatbin_count(fb) == (i == 0 ? NSAMPLE : 1));
      if (i == 0)
        CHECK(holds_samples(fb));
      else
        CHECK(entry_equal(fatbin_get(fb, 0), &samples[4]));
      fatbin_close(fb);
    }

    /* The visitor's non-zero result stops the walk and is returned. */
    struct visit_log stop = {.stop_with = 7};
    CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &stop, err, sizeof err) == 7);
    CHECK(stop.n == 1);
    free(img.data);
  }

  /* A second blob 4 bytes past an 8-byte boundary is refused. */
  unsigned char *bad = calloc(1, sec_size);
  REQUIRE(bad);
  memcpy(bad, blob1, size1);
  memcpy(bad + size1 + 4, blob2, size2);
  struct elf_image img = make_elf(FATBIN_SECTION, bad, size1 + 4 + size2, 0);
  struct visit_log log = {0};
  char err[256] = "";
  CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err) == -1);
  CHECK(strstr(err, "unexpected bytes at offset") != NULL);
  free(img.data);

  /* Junk in the section. */
  memset(bad, 0, sec_size);
  memcpy(bad + 8, "notablob", 8);
  img = make_elf(FATBIN_SECTION, bad, 16, 0);
  CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err) == -1);
  free(img.data);

  /* A second blob cut short at the end of the section. */
  img = make_elf(FATBIN_SECTION, sec, size1 + pad + size2 - 1, 0);
  log = (struct visit_log){0};
  CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err) == -1);
  CHECK(strstr(err, "truncated archive") != NULL);
  free(img.data);

  /* A section of padding only: no error, nothing visited. */
  memset(bad, 0, sec_size);
  img = make_elf(FATBIN_SECTION, bad, 64, 0);
  log = (struct visit_log){0};
  CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err) == 0);
  CHECK(log.n == 0);
  free(img.data);

  /* No section of that name (the decoy ".gpucc_fatbinx" must not match). */
  img = make_elf(".gpucc_fatbix", sec, sec_size, 0);
  CHECK(fatbin_probe(img.data, img.size) == 0);
  err[0] = '\0';
  CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err) == -1);
  CHECK(strstr(err, "no .gpucc_fatbin section") != NULL);
  free(img.data);

  /* Only 64-bit little-endian ELF is read. */
  img = make_elf(FATBIN_SECTION, sec, sec_size, 0);
  img.data[EI_CLASS] = ELFCLASS32;
  CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err) == -1);
  CHECK(fatbin_probe(img.data, img.size) == 1); /* damaged: let find say why */
  img.data[EI_CLASS] = ELFCLASS64;
  img.data[EI_DATA] = ELFDATA2MSB;
  CHECK(fatbin_find_blobs(img.data, img.size, log_visit, &log, err, sizeof err) == -1);
  img.data[EI_DATA] = ELFDATA2LSB;

  /* Cut anywhere, the image is an error (the section headers are at the
   * end), never a crash. */
  for (size_t len = 0; len < img.size; len++) {
    unsigned char *cut = dup_bytes(img.data, len);
    log = (struct visit_log){0};
    err[0] = '\0';
    CHECK(fatbin_find_blobs(cut, len, log_visit, &log, err, sizeof err) == -1);
    CHECK(err[0] != '\0');
    (void)fatbin_probe(cut, len);
    free(cut);
  }

  /* Flipped bytes in the ELF header and section headers. */
  size_t sh_off = img.size - 4 * sizeof(Elf64_Shdr);
  for (int round = 0; round < 20000; round++) {
    unsigned char *b = dup_bytes(img.data, img.size);
    for (int k = 0; k < 3; k++) {
      size_t at = round % 2 ? sh_off + (size_t)(rng_next() % (4 * sizeof(Elf64_Shdr)))
                            : (size_t)(rng_next() % sizeof(Elf64_Ehdr));
      b[at] ^= (unsigned char)(1 + rng_next() % 255);
    }
    log = (struct visit_log){0};
    int r = fatbin_find_blobs(b, img.size, log_visit, &log, err, sizeof err);
    CHECK(r == 0 || r == -1);
    for (int i = 0; i < log.n && i < 4; i++)
      CHECK(log.at[i] >= b && log.at[i] + log.size[i] <= b + img.size);
    (void)fatbin_probe(b, img.size);
    free(b);
  }
  free(img.data);
  free(bad);
  free(sec);
  free(blob1);
  free(blob2);
}

static void test_bare(void) {
  size_t size1, size2;
  unsigned char *blob1 = write_blob(samples, NSAMPLE, &size1);
  unsigned char *blob2 = write_blob(&samples[4], 1, &size2);
  char err[256] = "";

  /* A bare blob is visited as itself. */
  struct visit_log log = {0};
  CHECK(fatbin_probe(blob1, size1) == 1);
  CHECK(fatbin_find_blobs(blob1, size1, log_visit, &log, err, sizeof err) == 0);
  CHECK(log.n == 1 && log.at[0] == blob1 && log.size[0] == size1);

  /* Two bare blobs back to back, as `cat` would join them, with padding. */
  unsigned char *two = calloc(1, size1 + 8 + size2);
  REQUIRE(two);
  memcpy(two, blob1, size1);
  memcpy(two + size1 + 8, blob2, size2);
  log = (struct visit_log){0};
  CHECK(fatbin_find_blobs(two, size1 + 8 + size2, log_visit, &log, err, sizeof err) == 0);
  CHECK(log.n == 2 && log.size[1] == size2 && log.at[1] == two + size1 + 8);
  free(two);

  /* Neither ELF nor blob. */
  static const char text[] = "hello, this is not a fat binary\n";
  log = (struct visit_log){0};
  err[0] = '\0';
  CHECK(fatbin_probe(text, sizeof text) == 0);
  CHECK(fatbin_find_blobs(text, sizeof text, log_visit, &log, err, sizeof err) == -1);
  CHECK(log.n == 0 && strstr(err, "neither an ELF file nor") != NULL);
  CHECK(fatbin_find_blobs(text, 0, log_visit, &log, err, sizeof err) == -1);
  CHECK(fatbin_probe(text, 0) == 0);

  /* The magic with an unknown version is reported, not skipped. */
  unsigned char *v2 = dup_bytes(blob1, size1);
  v2[8] = 2;
  CHECK(fatbin_probe(v2, size1) == 1);
  CHECK(fatbin_find_blobs(v2, size1, log_visit, &log, err, sizeof err) == -1);
  CHECK(strstr(err, "unsupported version 2") != NULL);
  free(v2);
  free(blob1);
  free(blob2);
}

int main(void) {
  init_data();
  test_names();
  test_roundtrip();
  test_sorting();
  test_write_errors();
  test_truncation();
  test_flips();
  test_manifest();
  test_elf();
  test_bare();
  printf("fatbin_test: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
