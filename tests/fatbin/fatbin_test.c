/* fatbin_test.c: unit test of the archive format (fatbin/fatbin.h).
 *
 * It checks the promises the driver and the runtime rely on, in every
 * compression mode: what is written reads back byte for byte; the same
 * objects in any order give the same bytes; the archive is a standard tar
 * (read here by libarchive on its own, through its zstd filter for the
 * compressed modes, as bsdtar would: the samples are one object per family,
 * so no frame needs a dictionary) with fixed metadata; a blob cut short
 * anywhere, or with bytes flipped at random, is an error or a valid parse but
 * never a crash (run it under -fsanitize=address,undefined to see that); the
 * manifest's rules hold for version 1 and 2 (still read: blobs their writers
 * wrote, kept in the seed corpus, verify) and 3, its kernel lines included
 * (what each kernel was compiled for, found per object); the blobs
 * in an ELF .gpucc_fatbin section are found with their padding skipped.
 * Compression itself, hostile frames and reproducibility are in
 * compress_test.c; content checks in check_test.c. */
#include <elf.h>

#include <archive.h>
#include <archive_entry.h>

#include "test_util.h"

static const enum fatbin_compress modes[] = {FATBIN_COMPRESS_NONE, FATBIN_COMPRESS_FAST,
                                             FATBIN_COMPRESS_SIZE};
#define NMODES 3

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
    {"main_kernels", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, cubin_data,
     sizeof cubin_data, "+ptx84"},
    {"main_kernels", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, ptx_text,
     sizeof ptx_text, "+ptx84"},
    {"main_kernels", FATBIN_VENDOR_AMD, "gfx942:xnack-", FATBIN_FORMAT_HSACO, hsaco_data,
     sizeof hsaco_data, "-xnack"},
    {"main_kernels", FATBIN_VENDOR_HOST, "host", FATBIN_FORMAT_SO, NULL, 0, NULL},
    {"other", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, other_data,
     sizeof other_data, NULL},
};
/* The archive order is (module, vendor, format, target): the samples are
 * listed in it already. */
static const char *const member_names[NSAMPLE] = {
    "main_kernels/sm_90.cubin", "main_kernels/sm_90.ptx",
    "main_kernels/gfx942:xnack-.hsaco", "main_kernels/host.so", "other/sm_80.cubin",
};

static const struct fatbin_meta sample_meta = {"0.1.0", "22.1.8",
                                               "-O3 --offload-arch=sm_90,gfx942:xnack-", NULL, 0};

static void *write_blob(const struct fatbin_entry *e, size_t n, size_t *size) {
  return write_blob_mode(e, n, &sample_meta, FATBIN_COMPRESS_DEFAULT, size);
}

static int entry_equal(const struct fatbin *fb, size_t i, const struct fatbin_entry *b) {
  const struct fatbin_entry *a = fatbin_get(fb, i);
  return a && strcmp(a->module, b->module) == 0 && strcmp(a->target, b->target) == 0 &&
         a->vendor == b->vendor && a->format == b->format && a->size == b->size &&
         (a->features ? b->features && strcmp(a->features, b->features) == 0
                      : !b->features) &&
         a->data == NULL && object_is(fb, i, b->data, b->size);
}

/* True when fb holds exactly the samples, in archive order. */
static int holds_samples(const struct fatbin *fb) {
  if (fatbin_count(fb) != NSAMPLE)
    return 0;
  for (size_t i = 0; i < NSAMPLE; i++) {
    if (!entry_equal(fb, i, &samples[i]))
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
  for (int c = FATBIN_COMPRESS_NONE; c <= FATBIN_COMPRESS_SIZE; c++) {
    enum fatbin_compress out;
    const char *name = fatbin_compress_name((enum fatbin_compress)c);
    REQUIRE(name);
    CHECK(fatbin_compress_parse(name, &out) == 0 && (int)out == c);
  }
  CHECK(strcmp(fatbin_vendor_name(FATBIN_VENDOR_NVIDIA), "nvidia") == 0);
  CHECK(strcmp(fatbin_vendor_name(FATBIN_VENDOR_AMD), "amd") == 0);
  CHECK(strcmp(fatbin_format_name(FATBIN_FORMAT_CUBIN), "cubin") == 0);
  CHECK(strcmp(fatbin_format_name(FATBIN_FORMAT_HSACO), "hsaco") == 0);
  CHECK(strcmp(fatbin_compress_name(FATBIN_COMPRESS_FAST), "fast") == 0);
  enum fatbin_vendor v;
  enum fatbin_format f;
  enum fatbin_compress c;
  CHECK(fatbin_vendor_parse("intel", &v) == -1);
  CHECK(fatbin_vendor_parse("NVIDIA", &v) == -1);
  CHECK(fatbin_format_parse("elf", &f) == -1);
  CHECK(fatbin_format_parse("", &f) == -1);
  CHECK(fatbin_compress_parse("zstd", &c) == -1);
  CHECK(fatbin_compress_parse(NULL, &c) == -1);
  CHECK(fatbin_vendor_name((enum fatbin_vendor)42) == NULL);
  CHECK(fatbin_format_name((enum fatbin_format)-1) == NULL);
  CHECK(fatbin_compress_name((enum fatbin_compress)3) == NULL);
}

/* ---- writing and reading back ---------------------------------------- */

/* Reads the payload of a blob with libarchive alone (its zstd filter for a
 * compressed one), independently of the library's reader, to check that it is
 * a standard tar with the members in order, fixed metadata and the expected
 * manifest. */
static void check_tar_metadata(const unsigned char *blob, enum fatbin_compress mode) {
  int compressed = mode != FATBIN_COMPRESS_NONE;
  struct archive *a = archive_read_new();
  REQUIRE(a);
  CHECK(archive_read_support_format_tar(a) == ARCHIVE_OK);
  if (compressed)
    CHECK(archive_read_support_filter_zstd(a) == ARCHIVE_OK);
  CHECK(archive_read_open_memory(a, blob + FATBIN_HEADER_SIZE,
                                 blob_len(blob) - FATBIN_HEADER_SIZE) == ARCHIVE_OK);
  CHECK(archive_filter_code(a, 0) ==
        (compressed ? ARCHIVE_FILTER_ZSTD : ARCHIVE_FILTER_NONE));
  struct archive_entry *ae;
  size_t i = 0;
  while (archive_read_next_header(a, &ae) == ARCHIVE_OK) {
    REQUIRE(i <= NSAMPLE);
    CHECK(strcmp(archive_entry_pathname(ae), i ? member_names[i - 1] : "MANIFEST") == 0);
    CHECK(archive_entry_mtime(ae) == 0);
    CHECK(archive_entry_uid(ae) == 0);
    CHECK(archive_entry_gid(ae) == 0);
    CHECK(archive_entry_uname(ae) == NULL || *archive_entry_uname(ae) == '\0');
    CHECK(archive_entry_gname(ae) == NULL || *archive_entry_gname(ae) == '\0');
    CHECK(archive_entry_filetype(ae) == AE_IFREG);
    CHECK(archive_entry_perm(ae) == 0644);
    if (i == 0) {
      char manifest[4096] = "";
      la_ssize_t n = archive_read_data(a, manifest, sizeof manifest - 1);
      REQUIRE(n > 0);
      char first[256];
      snprintf(first, sizeof first,
               "gpucc-fatbin 3\narchive gpucc=0.1.0 llvm=22.1.8 compress=%s "
               "flags=-O3%%20--offload-arch=sm_90,gfx942:xnack-\nobject "
               "module=main_kernels vendor=nvidia target=sm_90 format=cubin "
               "features=+ptx84 size=1000 sha256=",
               fatbin_compress_name(mode));
      CHECK(strncmp(manifest, first, strlen(first)) == 0);
      /* An empty object still gets its line and its hash (that of "").  */
      CHECK(strstr(manifest, "object module=main_kernels vendor=host target=host format=so "
                             "size=0 sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"
                             "a495991b7852b855 file=main_kernels/host.so"));
      CHECK((strstr(manifest, " frame=1 offset=512 stored=") != NULL) == compressed);
    }
    i++;
  }
  CHECK(i == NSAMPLE + 1);
  CHECK(archive_read_free(a) == ARCHIVE_OK);
}

static void test_roundtrip(void) {
  for (int m = 0; m < NMODES; m++) {
    int compressed = modes[m] != FATBIN_COMPRESS_NONE;
    size_t size;
    unsigned char *blob = write_blob_mode(samples, NSAMPLE, &sample_meta, modes[m], &size);
    REQUIRE(size > FATBIN_HEADER_SIZE);

    /* The header, field by field. */
    CHECK(memcmp(blob, "GPUCCFAT", 8) == 0);
    CHECK(blob[8] == 3 && blob[9] == 0 && blob[10] == 0 && blob[11] == 0);
    CHECK(blob[12] == (compressed ? 1 : 0) && blob[13] == 0 && blob[14] == 0 &&
          blob[15] == 0);
    CHECK(size % 8 == 0 && blob_len(blob) <= size && size - blob_len(blob) < 8);
    for (size_t k = blob_len(blob); k < size; k++)
      CHECK(blob[k] == 0); /* padding */
    if (compressed) {
      static const unsigned char zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
      CHECK(memcmp(blob + FATBIN_HEADER_SIZE, zstd_magic, 4) == 0);
    } else {
      CHECK((blob_len(blob) - FATBIN_HEADER_SIZE) % 512 == 0); /* tar records only */
      CHECK(memcmp(blob + FATBIN_HEADER_SIZE, "MANIFEST", 9) == 0);
      CHECK(memcmp(blob + FATBIN_HEADER_SIZE + 257, "ustar", 5) == 0);
    }
    CHECK(fatbin_is_blob(blob, size));
    CHECK(fatbin_is_blob(blob, FATBIN_HEADER_SIZE));
    CHECK(!fatbin_is_blob(blob, FATBIN_HEADER_SIZE - 1));
    check_tar_metadata(blob, modes[m]);

    struct fatbin *fb = NULL;
    char err[256] = "";
    CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
    REQUIRE(fb);
    CHECK(holds_samples(fb));
    CHECK(fatbin_version(fb) == 3);
    CHECK(fatbin_is_compressed(fb) == compressed);
    CHECK(fatbin_blob_size(fb) == blob_len(blob));
    CHECK(fatbin_get(fb, NSAMPLE) == NULL && fatbin_get_info(fb, NSAMPLE) == NULL);
    CHECK(fatbin_skipped(fb) == 0);
    const struct fatbin_meta *meta = fatbin_get_meta(fb);
    REQUIRE(meta);
    CHECK(meta->gpucc_version && strcmp(meta->gpucc_version, "0.1.0") == 0);
    CHECK(meta->llvm_version && strcmp(meta->llvm_version, "22.1.8") == 0);
    CHECK(meta->flags && strcmp(meta->flags, sample_meta.flags) == 0);
    CHECK(strcmp(fatbin_compress_mode(fb), fatbin_compress_name(modes[m])) == 0);

    /* The hash and placement of every object. */
    for (size_t i = 0; i < NSAMPLE; i++) {
      const struct fatbin_object_info *in = fatbin_get_info(fb, i);
      unsigned char sum[FATBIN_SHA256_SIZE];
      fatbin_sha256(samples[i].data, samples[i].size, sum);
      CHECK(in->has_sha256 && memcmp(in->sha256, sum, sizeof sum) == 0);
      CHECK(strcmp(in->file, member_names[i]) == 0);
      CHECK(compressed ? in->frame >= 1 && in->offset >= 512 &&
                             in->offset + samples[i].size <= in->frame_size
                       : in->frame == 0 && in->stored_size == samples[i].size);
      CHECK(fatbin_verify(fb, i, err, sizeof err) == 0 || samples[i].format != FATBIN_FORMAT_PTX);
    }
    if (compressed) {
      /* One frame per object, in archive order; each is alone in its family
       * (module, vendor, format), so none has a dictionary. */
      for (size_t i = 0; i < NSAMPLE; i++) {
        const struct fatbin_object_info *in = fatbin_get_info(fb, i);
        CHECK(in->frame == i + 1 && in->dict == 0 && in->dict_size == 0);
        CHECK(in->stored_size == in->frame_stored && in->frame_pos > 0);
      }
    }

    /* Stored objects are read in place; compressed ones into a buffer. */
    const void *data;
    size_t osize;
    void *to_free;
    CHECK(fatbin_read_object(fb, 0, &data, &osize, &to_free, err, sizeof err) == 0);
    CHECK((to_free != NULL) == compressed);
    CHECK(compressed ? (const unsigned char *)data >= (unsigned char *)to_free
                     : (const unsigned char *)data > blob &&
                           (const unsigned char *)data + osize <= blob + size);
    free(to_free);
    CHECK(fatbin_read_object(fb, NSAMPLE, &data, &osize, &to_free, err, sizeof err) == -1);
    CHECK(data == NULL && to_free == NULL && strstr(err, "no object"));
    fatbin_close(fb);

    /* Trailing bytes after the blob are not part of it. */
    unsigned char *longer = malloc(size + 100);
    REQUIRE(longer);
    memcpy(longer, blob, size);
    memset(longer + size, 0xab, 100);
    CHECK(fatbin_open(longer, size + 100, &fb, err, sizeof err) == 0);
    CHECK(fb && fatbin_blob_size(fb) == blob_len(blob) && holds_samples(fb));
    fatbin_close(fb);
    free(longer);
    free(blob);

    /* No entries and no metadata is still a valid blob. */
    blob = write_blob_mode(NULL, 0, NULL, modes[m], &size);
    CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
    CHECK(fb && fatbin_count(fb) == 0 && fatbin_get(fb, 0) == NULL);
    CHECK(fb && fatbin_get_meta(fb)->gpucc_version == NULL &&
          fatbin_get_meta(fb)->flags == NULL);
    fatbin_close(fb);
    free(blob);
  }
  fatbin_close(NULL); /* allowed, like free */
  CHECK(fatbin_count(NULL) == 0 && fatbin_get(NULL, 0) == NULL);
}

static void test_sorting(void) {
  for (int m = 0; m < NMODES; m++) {
    size_t ref_size;
    unsigned char *ref = write_blob_mode(samples, NSAMPLE, &sample_meta, modes[m], &ref_size);
    struct fatbin_entry perm[NSAMPLE];
    for (int round = 0; round < 20; round++) {
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
      unsigned char *blob = write_blob_mode(perm, NSAMPLE, &sample_meta, modes[m], &size);
      CHECK(size == ref_size && memcmp(blob, ref, size) == 0);
      free(blob);
    }
    free(ref);
  }

  /* Targets sort with their numbers by value: sm_80 < sm_90 < sm_100. */
  static const char *const targets[] = {"sm_100", "sm_90a", "sm_80", "sm_90", "sm_100a"};
  static const char *const order[] = {"sm_80", "sm_90", "sm_90a", "sm_100", "sm_100a"};
  struct fatbin_entry e[5];
  for (int i = 0; i < 5; i++)
    e[i] = (struct fatbin_entry){"k", FATBIN_VENDOR_NVIDIA, targets[i], FATBIN_FORMAT_CUBIN,
                                 "x", 1, NULL};
  size_t size;
  unsigned char *blob = write_blob_mode(e, 5, NULL, FATBIN_COMPRESS_NONE, &size);
  struct fatbin *fb = NULL;
  char err[256];
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
  for (size_t i = 0; fb && i < 5; i++)
    CHECK(strcmp(fatbin_get(fb, i)->target, order[i]) == 0);
  fatbin_close(fb);
  free(blob);
}

static void test_write_errors(void) {
  struct bad {
    struct fatbin_entry e;
    const char *why;
  } bad[] = {
      {{"a b", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1, NULL}, "space"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm/90", FATBIN_FORMAT_PTX, "x", 1, NULL}, "slash"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm=90", FATBIN_FORMAT_PTX, "x", 1, NULL}, "equals"},
      {{"a", FATBIN_VENDOR_NVIDIA, "", FATBIN_FORMAT_PTX, "x", 1, NULL}, "empty target"},
      {{NULL, FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1, NULL}, "no module"},
      {{"a\n", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1, NULL}, "newline"},
      {{"..", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1, NULL}, "dot-dot"},
      {{"a", FATBIN_VENDOR_NVIDIA, ".", FATBIN_FORMAT_PTX, "x", 1, NULL}, "dot"},
      {{"a", (enum fatbin_vendor)9, "sm_90", FATBIN_FORMAT_PTX, "x", 1, NULL}, "vendor"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm_90", (enum fatbin_format)9, "x", 1, NULL}, "format"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, NULL, 5, NULL}, "no data"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x", 1, "+ptx 78"}, "features"},
      {{"a", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, "x",
        FATBIN_MAX_OBJECT_SIZE + 1, NULL},
       "too large"},
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

  /* A mode that does not exist. */
  CHECK(fatbin_write_ex(samples, 1, NULL, (enum fatbin_compress)7, &out, &out_size, err,
                        sizeof err) == -1);
  CHECK(strstr(err, "compression mode") != NULL);

  /* A name too long for ustar is no error (test_long_names); one with a
   * '/' is. A NULL or zero-length error buffer is allowed. */
  struct fatbin_entry slash = samples[0];
  slash.module = "a/b";
  err[0] = '\0';
  CHECK(fatbin_write(&slash, 1, &out, &out_size, err, sizeof err) == -1);
  CHECK(strstr(err, "invalid module name") != NULL);
  CHECK(fatbin_write(&slash, 1, &out, &out_size, NULL, 0) == -1);
}

/* ---- damaged blobs ---------------------------------------------------- */

/* Reads everything a successful parse hands out, so that the sanitizers
 * see any pointer into freed or foreign memory. Reading an object may fail
 * (a damaged frame), but must say why. */
static unsigned touch(const struct fatbin *fb) {
  unsigned sum = 0;
  const struct fatbin_meta *meta = fatbin_get_meta(fb);
  sum += meta->flags ? (unsigned)strlen(meta->flags) : 0;
  for (size_t i = 0; i < fatbin_count(fb); i++) {
    const struct fatbin_entry *e = fatbin_get(fb, i);
    sum += (unsigned)strlen(e->module) + (unsigned)strlen(e->target);
    sum += (unsigned)strlen(fatbin_get_info(fb, i)->file);
    CHECK(fatbin_vendor_name(e->vendor) && fatbin_format_name(e->format));
    const void *data;
    size_t size;
    void *to_free;
    char err[256] = "";
    if (fatbin_read_object(fb, i, &data, &size, &to_free, err, sizeof err) != 0) {
      CHECK(err[0] != '\0' && to_free == NULL);
      continue;
    }
    CHECK(size == e->size);
    for (size_t k = 0; k < size; k++)
      sum += ((const unsigned char *)data)[k];
    free(to_free);
    (void)fatbin_verify(fb, i, err, sizeof err);
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
  for (int m = 0; m < NMODES; m++) {
    size_t size;
    unsigned char *blob = write_blob_mode(samples, NSAMPLE, &sample_meta, modes[m], &size);
    size_t end = blob_len(blob);
    for (size_t len = 0; len < size; len++) {
      /* An exact-size copy, so that reading one byte too far is caught. */
      unsigned char *cut = dup_bytes(blob, len);
      struct fatbin *fb = (struct fatbin *)1;
      char err[256] = "";
      int visits = 0;
      if (len >= end) {
        /* Only the padding is gone: still the whole blob. */
        CHECK(fatbin_open(cut, len, &fb, err, sizeof err) == 0 && holds_samples(fb));
        fatbin_close(fb);
        CHECK(fatbin_find_blobs(cut, len, count_visit, &visits, err, sizeof err) == 0);
        CHECK(visits == 1);
        free(cut);
        continue;
      }
      CHECK(fatbin_open(cut, len, &fb, err, sizeof err) == -1);
      CHECK(fb == NULL);
      CHECK(err[0] != '\0');
      if (len >= FATBIN_HEADER_SIZE)
        CHECK(strstr(err, "fatbin: truncated archive: header says") == err);
      CHECK(fatbin_find_blobs(cut, len, count_visit, &visits, err, sizeof err) == -1);
      CHECK(visits == 0);
      free(cut);
    }

    /* Now the header is made to agree with the cut, so that libarchive, zstd
     * and the manifest checks meet a short payload: an error, or (when only
     * the end of the archive is missing) every object intact. */
    int ok = 0, bad = 0;
    for (size_t len = FATBIN_HEADER_SIZE; len < end; len++) {
      unsigned char *cut = dup_bytes(blob, len);
      uint64_t payload = len - FATBIN_HEADER_SIZE;
      for (int i = 0; i < 8; i++)
        cut[16 + i] = (unsigned char)(payload >> (8 * i));
      struct fatbin *fb = NULL;
      char err[256] = "";
      if (fatbin_open(cut, len, &fb, err, sizeof err) == 0) {
        /* Stored: only the two 512-byte end records may be missing;
         * compressed: only the last frame, which holds them. */
        CHECK(len >= end - (modes[m] == FATBIN_COMPRESS_NONE ? 1024 : 40));
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
}

static void test_flips(void) {
  for (int m = 0; m < NMODES; m++) {
    size_t size;
    unsigned char *blob = write_blob_mode(samples, NSAMPLE, &sample_meta, modes[m], &size);
    int ok = 0, bad = 0;
    for (int round = 0; round < 6000; round++) {
      unsigned char *b = dup_bytes(blob, size);
      int flips = 1 + (int)(rng_next() % 4);
      for (int k = 0; k < flips; k++) {
        /* Half the rounds aim at the header and the manifest, where a flip
         * changes meaning rather than data. */
        size_t span = round % 2 ? size : (FATBIN_HEADER_SIZE + 1024 < size ? FATBIN_HEADER_SIZE + 1024 : size);
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
}

/* ---- hand-made archives: the manifest rules ------------------------- */

struct member {
  const char *name;
  const char *data; /* text; NULL for a directory */
  size_t size;      /* (size_t)-1: strlen(data) */
};

/* Builds a stored blob of the given version around a tar that libarchive
 * writes from the members. */
static unsigned char *make_blob(unsigned version, const struct member *m, size_t n,
                                size_t *size) {
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
  blob[8] = (unsigned char)version;
  for (int i = 0; i < 8; i++)
    blob[16 + i] = (unsigned char)((uint64_t)used >> (8 * i));
  memcpy(blob + FATBIN_HEADER_SIZE, tar, used);
  return blob;
}

/* Opens a hand-made blob; returns fatbin_open's result, err holds the text,
 * *count the objects (and *skipped those of unknown kinds). */
static int open_members(unsigned version, const struct member *m, size_t n, size_t *count,
                        size_t *skipped, char *err, size_t errlen) {
  size_t size;
  unsigned char *blob = make_blob(version, m, n, &size);
  struct fatbin *fb = NULL;
  err[0] = '\0';
  int r = fatbin_open(blob, size, &fb, err, errlen);
  *count = fatbin_count(fb);
  if (skipped)
    *skipped = fatbin_skipped(fb);
  if (r == 0)
    (void)touch(fb);
  fatbin_close(fb);
  free(blob);
  return r;
}

#define LINE_A "module=m vendor=nvidia target=sm_90 format=ptx size=3 file=m/sm_90.ptx\n"
#define HASH_ABC "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define OBJ_A "object module=m vendor=nvidia target=sm_90 format=ptx size=3 sha256=" HASH_ABC \
              " file=m/sm_90.ptx"

/* Version 1, as the first gpucc wrote it: still read. */
static void test_manifest_v1(void) {
  char err[256];
  size_t count;
  const struct member ptx = {"m/sm_90.ptx", "abc", (size_t)-1};
  const struct member hsaco = {"m/gfx90a.hsaco", "\0\1", 2};

  /* Valid: unknown keys and unlisted members are allowed, for later versions. */
  struct member good[] = {
      {"MANIFEST", "gpucc-fatbin 1\n" LINE_A
                   "module=m vendor=amd target=gfx90a format=hsaco size=2 "
                   "file=m/gfx90a.hsaco color=blue\n\n",
       (size_t)-1},
      ptx, hsaco, {"m/README", "later", (size_t)-1}};
  CHECK(open_members(1, good, 4, &count, NULL, err, sizeof err) == 0 && count == 2);
  size_t size;
  unsigned char *blob = make_blob(1, good, 4, &size);
  struct fatbin *fb = NULL;
  CHECK(fatbin_is_blob(blob, size));
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
  if (fb) {
    CHECK(fatbin_version(fb) == 1 && !fatbin_is_compressed(fb));
    CHECK(fatbin_get_meta(fb)->gpucc_version == NULL && fatbin_compress_mode(fb) == NULL);
    CHECK(!fatbin_get_info(fb, 0)->has_sha256 && fatbin_get_info(fb, 0)->stored_size == 3);
    CHECK(object_is(fb, 0, "abc", 3) && object_is(fb, 1, "\0\1", 2));
    CHECK(fatbin_get(fb, 0)->features == NULL);
  }
  fatbin_close(fb);
  free(blob);

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
      {"gpucc-fatbin 1\nmodule=m vendor=nvidia target=sm_90 format=ptx "
       "size=2000000000 file=m/sm_90.ptx\n",
       "allowed"},
      {"gpucc-fatbin 1\nmodule=.. vendor=nvidia target=sm_90 format=ptx size=3 "
       "file=m/sm_90.ptx\n",
       "bad module"},
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
    int r = open_members(1, m, 3, &count, NULL, err, sizeof err);
    if (r != -1 || !strstr(err, cases[i].expect))
      fprintf(stderr, "v1 manifest case %zu: r=%d err='%s'\n", i, r, err);
    CHECK(r == -1 && strstr(err, cases[i].expect));
    CHECK(count == 0);
  }

  /* Objects of a vendor or format this reader does not know are skipped:
   * a later gpucc may add some, and the rest must stay usable. */
  struct member later[] = {
      {"MANIFEST",
       "gpucc-fatbin 1\n" LINE_A
       "module=m vendor=intel target=pvc format=spirv size=2 file=m/gfx90a.hsaco\n"
       "module=m vendor=nvidia target=sm_90 format=elf size=2 file=m/gfx90a.hsaco\n",
       (size_t)-1},
      ptx, hsaco};
  size_t skipped = 0;
  CHECK(open_members(1, later, 3, &count, &skipped, err, sizeof err) == 0);
  CHECK(count == 1 && skipped == 2);

  /* A NUL inside the manifest text. */
  static const char nul_manifest[] = "gpucc-fatbin 1\n\0" LINE_A;
  struct member nul[] = {{"MANIFEST", nul_manifest, sizeof nul_manifest - 1}, ptx};
  CHECK(open_members(1, nul, 2, &count, NULL, err, sizeof err) == -1 &&
        strstr(err, "not text"));

  /* MANIFEST must come first. */
  struct member late[] = {ptx, {"MANIFEST", "gpucc-fatbin 1\n" LINE_A, (size_t)-1}};
  CHECK(open_members(1, late, 2, &count, NULL, err, sizeof err) == -1 &&
        strstr(err, "MANIFEST"));

  /* Only plain files, each name once. */
  struct member dir[] = {{"MANIFEST", "gpucc-fatbin 1\n", (size_t)-1}, {"m", NULL, 0}};
  CHECK(open_members(1, dir, 2, &count, NULL, err, sizeof err) == -1 &&
        strstr(err, "plain file"));
  struct member twice[] = {{"MANIFEST", "gpucc-fatbin 1\n" LINE_A, (size_t)-1}, ptx, ptx};
  CHECK(open_members(1, twice, 3, &count, NULL, err, sizeof err) == -1 &&
        strstr(err, "twice"));

  /* An empty tar, and the header's own checks. */
  blob = make_blob(1, NULL, 0, &size);
  fb = NULL;
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 && fb == NULL);
  free(blob);

  struct member one[] = {{"MANIFEST", "gpucc-fatbin 1\n" LINE_A, (size_t)-1}, ptx};
  blob = make_blob(1, one, 2, &size);
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0 && fatbin_count(fb) == 1);
  fatbin_close(fb);
  blob[12] = 1; /* the zstd flag does not exist in version 1 */
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 && strstr(err, "flags 0x1"));
  blob[12] = 0;
  blob[8] = 4; /* a later version */
  CHECK(!fatbin_is_blob(blob, size));
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 &&
        strstr(err, "unsupported fat binary version 4 (this reader knows 1 to 3)"));
  blob[8] = 0;
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 &&
        strstr(err, "unsupported fat binary version 0"));
  blob[8] = 1;
  blob[0] = 'X';
  CHECK(!fatbin_is_blob(blob, size));
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 && strstr(err, "bad magic"));
  blob[0] = 'G';
  memset(blob + 16, 0xff, 8); /* an absurd archive size */
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == -1 &&
        strstr(err, "truncated archive: header says 18446744073709551615 bytes"));
  free(blob);
}

/* Version 2 syntax, on stored hand-made blobs. */
static void test_manifest_v2(void) {
  char err[256];
  size_t count, skipped;
  const struct member ptx = {"m/sm_90.ptx", "abc", (size_t)-1};

  /* Escapes, unknown keys, unknown line kinds, features. */
  struct member good[] = {
      {"MANIFEST",
       "gpucc-fatbin 2\n"
       "archive gpucc=1.0%2Brc1 llvm=22 compress=none flags=-O3%20-DX=%25y mood=happy\n"
       "signature by=someone\n"
       "\n" OBJ_A " features=+ptx78 frame=7 offset=1 stored=1 color=red\n",
       (size_t)-1},
      ptx};
  size_t size;
  unsigned char *blob = make_blob(2, good, 2, &size);
  struct fatbin *fb = NULL;
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
  if (fb) {
    const struct fatbin_meta *meta = fatbin_get_meta(fb);
    CHECK(strcmp(meta->gpucc_version, "1.0+rc1") == 0);
    CHECK(strcmp(meta->flags, "-O3 -DX=%y") == 0);
    CHECK(strcmp(meta->llvm_version, "22") == 0);
    CHECK(fatbin_count(fb) == 1 && strcmp(fatbin_get(fb, 0)->features, "+ptx78") == 0);
    /* Frame fields mean nothing in a stored payload. */
    CHECK(fatbin_get_info(fb, 0)->frame == 0 && fatbin_get_info(fb, 0)->stored_size == 3);
    CHECK(fatbin_verify(fb, 0, err, sizeof err) == -1 && strstr(err, "NUL"));
  }
  fatbin_close(fb);
  free(blob);

  struct {
    const char *manifest;
    const char *expect;
  } cases[] = {
      {"gpucc-fatbin 2\n" OBJ_A "\n", "no archive line"},
      {"gpucc-fatbin 2\narchive\narchive\n" OBJ_A "\n", "two archive lines"},
      {"gpucc-fatbin 1\narchive\n" OBJ_A "\n", "says version 1, the header 2"},
      {"gpucc-fatbin 2\narchive\n" LINE_A, "no kind word"},
      {"gpucc-fatbin 2\narchive flags=%zz\n" OBJ_A "\n", "bad escape"},
      {"gpucc-fatbin 2\narchive flags=a%00b\n" OBJ_A "\n", "bad escape"},
      {"gpucc-fatbin 2\narchive flags=a%4\n" OBJ_A "\n", "bad escape"},
      {"gpucc-fatbin 2\narchive\nobject module=m vendor=nvidia target=sm_90 format=ptx "
       "size=3 file=m/sm_90.ptx\n",
       "sha256="},
      {"gpucc-fatbin 2\narchive\nobject module=m vendor=nvidia target=sm_90 format=ptx "
       "size=3 sha256=abc file=m/sm_90.ptx\n",
       "bad sha256"},
      {"gpucc-fatbin 2\narchive\n" OBJ_A " features=a%20b\n", "bad module, target or features"},
      {"gpucc-fatbin 2\narchive\n" OBJ_A " frame=1\n", "offset="},
      {"gpucc-fatbin 2\narchive\n" OBJ_A " frame=0 offset=1 stored=1\n", "bad frame"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct member m[] = {{"MANIFEST", cases[i].manifest, (size_t)-1}, ptx};
    int r = open_members(2, m, 2, &count, NULL, err, sizeof err);
    if (r != -1 || !strstr(err, cases[i].expect))
      fprintf(stderr, "v2 manifest case %zu: r=%d err='%s'\n", i, r, err);
    CHECK(r == -1 && strstr(err, cases[i].expect));
  }

  /* A manifest hash that does not match is found by verify, not by open. */
  struct member wrong[] = {
      {"MANIFEST", "gpucc-fatbin 2\narchive\n" OBJ_A "\n", (size_t)-1},
      {"m/sm_90.ptx", "abd", (size_t)-1}};
  CHECK(open_members(2, wrong, 2, &count, &skipped, err, sizeof err) == 0 && count == 1);
  blob = make_blob(2, wrong, 2, &size);
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
  CHECK(fb && fatbin_verify(fb, 0, err, sizeof err) == -1 && strstr(err, "sha256") &&
        strstr(err, HASH_ABC));
  fatbin_close(fb);
  free(blob);
}

/* Version 3 syntax: dict= names a frame, and only with frame=; in version 2
 * it is an unknown key like any other. (Whether the frame it names may be a
 * dictionary is checked against the frames: compress_test.c.) */
static void test_manifest_v3(void) {
  char err[256];
  size_t count;
  const struct member ptx = {"m/sm_90.ptx", "abc", (size_t)-1};
  struct {
    unsigned version;
    const char *manifest;
    const char *expect; /* NULL: opens */
  } cases[] = {
      {3, "gpucc-fatbin 3\narchive\n" OBJ_A " frame=2 offset=512 stored=1 dict=1\n", NULL},
      {3, "gpucc-fatbin 3\narchive\n" OBJ_A "\n", NULL},
      {2, "gpucc-fatbin 2\narchive\n" OBJ_A " frame=2 offset=512 stored=1 dict=x\n", NULL},
      {3, "gpucc-fatbin 3\narchive\n" OBJ_A " frame=2 offset=512 stored=1 dict=0\n", "bad dict"},
      {3, "gpucc-fatbin 3\narchive\n" OBJ_A " frame=2 offset=512 stored=1 dict=x\n", "bad dict"},
      {3, "gpucc-fatbin 3\narchive\n" OBJ_A " frame=2 offset=512 stored=1 dict=\n", "bad dict"},
      {3, "gpucc-fatbin 3\narchive\n" OBJ_A " dict=1\n", "bad dict"},
      {3, "gpucc-fatbin 3\narchive\n" OBJ_A " frame=2 offset=512 stored=1 dict=4294967296\n",
       "bad dict"},
      {3, "gpucc-fatbin 2\narchive\n" OBJ_A "\n", "says version 2, the header 3"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct member m[] = {{"MANIFEST", cases[i].manifest, (size_t)-1}, ptx};
    int r = open_members(cases[i].version, m, 2, &count, NULL, err, sizeof err);
    int ok = cases[i].expect ? r == -1 && strstr(err, cases[i].expect) : r == 0 && count == 1;
    if (!ok)
      fprintf(stderr, "v3 manifest case %zu: r=%d err='%s'\n", i, r, err);
    CHECK(ok);
  }
}

/* ---- kernel lines ------------------------------------------------------ */

/* What each kernel was compiled for, deliberately out of order: a line for
 * every object of main_kernels, one for its gfx942 objects alone, a name
 * that needs escaping with no block shape, one of another module with no
 * thread count. */
static const struct fatbin_kernel sample_kernels[] = {
    {"main_kernels", "transpose", "gfx942:xnack-", 64, {64, 1, 1}, 4096},
    {"other", "fill", NULL, 0, {0, 0, 0}, 7},
    {"main_kernels", "transpose", NULL, 256, {16, 16, 1}, 4096},
    {"main_kernels", "scale by 2%", NULL, 1024, {0, 0, 0}, 0},
};
#define NKERNELS 4
/* Their order in the manifest and as read back. */
static const size_t kernel_order[NKERNELS] = {3, 2, 0, 1};

static int kernel_equal(const struct fatbin_kernel *a, const struct fatbin_kernel *b) {
  return strcmp(a->module, b->module) == 0 && strcmp(a->name, b->name) == 0 &&
         (a->target ? b->target && strcmp(a->target, b->target) == 0 : !b->target) &&
         a->threads == b->threads && memcmp(a->block, b->block, sizeof a->block) == 0 &&
         a->shared == b->shared;
}

/* The manifest of a stored blob, which starts the payload: its text. */
static int manifest_has(const unsigned char *blob, size_t size, const char *line) {
  size_t len = strlen(line);
  for (size_t i = FATBIN_HEADER_SIZE; i + len <= size; i++)
    if (memcmp(blob + i, line, len) == 0)
      return 1;
  return 0;
}

/* Kernel lines go through every mode unchanged, sorted, and each object
 * finds the line meant for it: its target's, else its module's. */
static void test_kernels(void) {
  struct fatbin_meta meta = sample_meta;
  meta.kernels = sample_kernels;
  meta.nkernels = NKERNELS;
  for (int m = 0; m < NMODES; m++) {
    size_t size;
    unsigned char *blob = write_blob_mode(samples, NSAMPLE, &meta, modes[m], &size);
    struct fatbin *fb = NULL;
    char err[256];
    CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
    REQUIRE(fb);
    CHECK(holds_samples(fb));
    const struct fatbin_meta *got = fatbin_get_meta(fb);
    CHECK(got->nkernels == NKERNELS);
    for (size_t i = 0; i < NKERNELS && i < got->nkernels; i++)
      CHECK(kernel_equal(&got->kernels[i], &sample_kernels[kernel_order[i]]));
    /* Objects 0 and 1: sm_90, 2: gfx942:xnack-, 3: host, 4: module other. */
    const struct fatbin_kernel *k = fatbin_find_kernel(fb, 0, "transpose");
    CHECK(k && k->threads == 256 && !k->target && k->block[0] == 16);
    CHECK(fatbin_find_kernel(fb, 3, "transpose") == k);
    k = fatbin_find_kernel(fb, 2, "transpose");
    CHECK(k && k->threads == 64 && k->target && strcmp(k->target, "gfx942:xnack-") == 0);
    k = fatbin_find_kernel(fb, 1, "scale by 2%");
    CHECK(k && k->threads == 1024 && k->block[0] == 0 && k->shared == 0);
    CHECK(fatbin_find_kernel(fb, 0, "fill") == NULL); /* another module's */
    k = fatbin_find_kernel(fb, 4, "fill");
    CHECK(k && k->threads == 0 && k->shared == 7);
    CHECK(fatbin_find_kernel(fb, 0, "missing") == NULL);
    CHECK(fatbin_find_kernel(fb, NSAMPLE, "transpose") == NULL);
    CHECK(fatbin_find_kernel(fb, 0, NULL) == NULL);
    fatbin_close(fb);
    if (modes[m] == FATBIN_COMPRESS_NONE) {
      /* The lines as docs/fatbin.md shows them: escaped, keys left out
       * where nothing is recorded. */
      CHECK(manifest_has(blob, size,
                         "\nkernel module=main_kernels name=scale%20by%202%25 threads=1024 "
                         "shared=0\n"
                         "kernel module=main_kernels name=transpose threads=256 block=16,16,1 "
                         "shared=4096\n"
                         "kernel module=main_kernels name=transpose target=gfx942:xnack- "
                         "threads=64 block=64,1,1 shared=4096\n"
                         "kernel module=other name=fill shared=7\n"));
    }

    /* The order they are given in does not matter. */
    struct fatbin_kernel reversed[NKERNELS];
    for (size_t i = 0; i < NKERNELS; i++)
      reversed[i] = sample_kernels[NKERNELS - 1 - i];
    struct fatbin_meta meta2 = meta;
    meta2.kernels = reversed;
    size_t size2;
    unsigned char *blob2 = write_blob_mode(samples, NSAMPLE, &meta2, modes[m], &size2);
    CHECK(size2 == size && memcmp(blob, blob2, size) == 0);
    free(blob2);
    free(blob);
  }

  /* What the writer refuses (and the reader too: test_manifest_kernels). */
  struct {
    struct fatbin_kernel k;
    const char *expect;
  } bad[] = {
      {{"main_kernels", "transpose", NULL, 1, {0, 0, 0}, 0}, "duplicate kernel 'transpose'"},
      {{"main_kernels", "k", NULL, 256, {16, 0, 1}, 0}, "all three sizes, or none"},
      {{"main_kernels", "", NULL, 256, {0, 0, 0}, 0}, "without a name"},
      {{"main_kernels", NULL, NULL, 256, {0, 0, 0}, 0}, "without a name"},
      {{"a b", "k", NULL, 256, {0, 0, 0}, 0}, "invalid module name 'a b'"},
      {{NULL, "k", NULL, 256, {0, 0, 0}, 0}, "invalid module name '(null)'"},
      {{"main_kernels", "k", "sm/90", 256, {0, 0, 0}, 0}, "invalid target name 'sm/90'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct fatbin_kernel two[2] = {sample_kernels[2], bad[i].k};
    struct fatbin_meta bm = {NULL, NULL, NULL, two, 2};
    void *out = NULL;
    size_t size;
    char err[256] = "";
    int r = fatbin_write_ex(samples, NSAMPLE, &bm, FATBIN_COMPRESS_NONE, &out, &size, err,
                            sizeof err);
    if (r != -1 || !strstr(err, bad[i].expect))
      fprintf(stderr, "bad kernel %zu: r=%d err='%s'\n", i, r, err);
    CHECK(r == -1 && out == NULL && strstr(err, bad[i].expect));
  }
  /* A target of its own is another line, not a duplicate. */
  struct fatbin_kernel two[2] = {sample_kernels[2], sample_kernels[2]};
  two[1].target = "sm_90";
  struct fatbin_meta bm = {NULL, NULL, NULL, two, 2};
  size_t size;
  void *out = write_blob_mode(samples, NSAMPLE, &bm, FATBIN_COMPRESS_NONE, &size);
  free(out);
  bm.kernels = NULL;
  char err[256] = "";
  CHECK(fatbin_write_ex(samples, NSAMPLE, &bm, FATBIN_COMPRESS_NONE, &out, &size, err,
                        sizeof err) == -1 &&
        strstr(err, "no kernels given"));
}

/* Kernel lines in hand-made manifests: what version 3 readers accept and
 * refuse, and that a version 2 manifest's are a line kind it never had. */
static void test_manifest_kernels(void) {
  char err[256];
  const struct member ptx = {"m/sm_90.ptx", "abc", (size_t)-1};
#define V3 "gpucc-fatbin 3\narchive\n" OBJ_A "\n"
  struct member good[] = {
      {"MANIFEST",
       V3 "kernel module=m name=k%20one threads=256 block=16,16,1 shared=64 color=red\n"
          "kernel name=k module=m\n"
          "kernel module=m name=k target=sm_90 threads=32\n",
       (size_t)-1},
      ptx};
  size_t size;
  unsigned char *blob = make_blob(3, good, 2, &size);
  struct fatbin *fb = NULL;
  CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
  if (fb) {
    const struct fatbin_meta *meta = fatbin_get_meta(fb);
    CHECK(meta->nkernels == 3);
    const struct fatbin_kernel *k = fatbin_find_kernel(fb, 0, "k one");
    CHECK(k && k->threads == 256 && k->block[0] == 16 && k->block[1] == 16 &&
          k->block[2] == 1 && k->shared == 64);
    /* The object is sm_90's: that target's line, not the module's. */
    k = fatbin_find_kernel(fb, 0, "k");
    CHECK(k && k->threads == 32 && k->target && k->block[0] == 0 && k->shared == 0);
    /* Sorted: "k" (no target first), "k" for sm_90, "k one". */
    CHECK(meta->nkernels == 3 && !meta->kernels[0].target && meta->kernels[0].threads == 0 &&
          strcmp(meta->kernels[2].name, "k one") == 0);
  }
  fatbin_close(fb);
  free(blob);

  struct {
    unsigned version;
    const char *manifest;
    const char *expect; /* NULL: opens, with no kernel line */
  } cases[] = {
      {3, V3 "kernel name=k\n", "lacks 'module='"},
      {3, V3 "kernel module=m\n", "lacks 'name='"},
      {3, V3 "kernel module=m name=\n", "lacks 'name='"},
      {3, V3 "kernel module=m name=k block=16,16\n", "bad threads, block or shared"},
      {3, V3 "kernel module=m name=k block=16,16,1,1\n", "bad threads, block or shared"},
      {3, V3 "kernel module=m name=k block=0,1,1\n", "bad threads, block or shared"},
      {3, V3 "kernel module=m name=k block=1,,1\n", "bad threads, block or shared"},
      {3, V3 "kernel module=m name=k threads=0\n", "bad threads, block or shared"},
      {3, V3 "kernel module=m name=k threads=4294967296\n", "bad threads, block or shared"},
      {3, V3 "kernel module=m name=k shared=-1\n", "bad threads, block or shared"},
      {3, V3 "kernel module=.. name=k\n", "invalid module name '..'"},
      {3, V3 "kernel module=m name=k target=a%20b\n", "invalid target name 'a b'"},
      {3, V3 "kernel module=m name=k%zz\n", "bad escape"},
      {3, V3 "kernel module=m name=k threads=1 threads=2\n", "given twice"},
      {3, V3 "kernel module=m name=k\nkernel module=m name=k threads=8\n",
       "names kernel 'k' of module 'm' twice"},
      {3, V3 "kernel module=m name=k target=sm_90\nkernel module=m name=k target=sm_90\n",
       "names kernel 'k' of module 'm' for target sm_90 twice"},
      /* Version 2 had no kernel lines: a kind of line it ignores. */
      {2, "gpucc-fatbin 2\narchive\n" OBJ_A "\nkernel module=m name=k block=1\n", NULL},
  };
#undef V3
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct member m[] = {{"MANIFEST", cases[i].manifest, (size_t)-1}, ptx};
    blob = make_blob(cases[i].version, m, 2, &size);
    fb = NULL;
    err[0] = '\0';
    int r = fatbin_open(blob, size, &fb, err, sizeof err);
    int ok = cases[i].expect ? r == -1 && strstr(err, cases[i].expect)
                             : r == 0 && fatbin_get_meta(fb)->nkernels == 0 &&
                                   fatbin_find_kernel(fb, 0, "k") == NULL;
    if (!ok)
      fprintf(stderr, "kernel line case %zu: r=%d err='%s'\n", i, r, err);
    CHECK(ok);
    fatbin_close(fb);
    free(blob);
  }
}

/* Blobs the version 1 and 2 writers wrote (the seed corpus keeps them):
 * they still open, and every object reads back and verifies. */
static void test_old_blobs(void) {
  static const struct {
    const char *file;
    unsigned version;
    size_t count;
  } old[] = {{"v1.blob", 1, 1}, {"v2-none.blob", 2, 7}, {"v2-fast.blob", 2, 7},
             {"v2-size.blob", 2, 7}, {"v2-empty.blob", 2, 0}};
  for (size_t k = 0; k < sizeof old / sizeof old[0]; k++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FATBIN_CORPUS_DIR, old[k].file);
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    static unsigned char buf[1 << 16];
    size_t size = fread(buf, 1, sizeof buf, f);
    fclose(f);
    struct fatbin *fb = NULL;
    char err[256];
    CHECK(fatbin_open(buf, size, &fb, err, sizeof err) == 0);
    CHECK(fatbin_version(fb) == old[k].version && fatbin_count(fb) == old[k].count);
    for (size_t i = 0; i < fatbin_count(fb); i++) {
      CHECK(fatbin_get_info(fb, i)->dict == 0);
      if (fatbin_verify(fb, i, err, sizeof err) != 0) {
        fprintf(stderr, "%s, object %zu: %s\n", old[k].file, i, err);
        CHECK(0);
      }
    }
    fatbin_close(fb);
  }
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
    CHECK(log.at[0] == img.data + img.sec_off && log.size[0] == blob_len(blob1));
    CHECK(log.at[1] == img.data + img.sec_off + size1 + pad && log.size[1] == blob_len(blob2));
    CHECK(fatbin_probe(img.data, img.size) == 1);
    for (int i = 0; i < 2 && i < log.n; i++) {
      struct fatbin *fb = NULL;
      CHECK(fatbin_open(log.at[i], log.size[i], &fb, err, sizeof err) == 0);
      CHECK(fb && fatbin_count(fb) == (i == 0 ? NSAMPLE : 1));
      if (i == 0)
        CHECK(holds_samples(fb));
      else
        CHECK(entry_equal(fb, 0, &samples[4]));
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
  img = make_elf(FATBIN_SECTION, sec, size1 + pad + blob_len(blob2) - 1, 0);
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
  CHECK(log.n == 1 && log.at[0] == blob1 && log.size[0] == blob_len(blob1));

  /* Two bare blobs back to back, as `cat` would join them, with padding. */
  unsigned char *two = calloc(1, size1 + 8 + size2);
  REQUIRE(two);
  memcpy(two, blob1, size1);
  memcpy(two + size1 + 8, blob2, size2);
  log = (struct visit_log){0};
  CHECK(fatbin_find_blobs(two, size1 + 8 + size2, log_visit, &log, err, sizeof err) == 0);
  CHECK(log.n == 2 && log.size[1] == blob_len(blob2) && log.at[1] == two + size1 + 8);
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
  unsigned char *v4 = dup_bytes(blob1, size1);
  v4[8] = 4;
  CHECK(fatbin_probe(v4, size1) == 1);
  CHECK(fatbin_find_blobs(v4, size1, log_visit, &log, err, sizeof err) == -1);
  CHECK(strstr(err, "unsupported version 4") != NULL);
  free(v4);
  free(blob1);
  free(blob2);
}

/* ---- names longer than ustar holds ------------------------------------- */

/* Member names ustar cannot hold (a module over 155 bytes, a target over 94)
 * go into the tar as "long/<sha256 of the path>.<format>", and the manifest
 * ties them to their module and target (docs/fatbin.md, section 2); names
 * that fit keep their plain path. Every length reads back whole, in every
 * mode, and libarchive reads the tar as a standard one. */
static void test_long_names(void) {
  static const size_t lens[] = {1, 100, 155, 156, 255, 256, 300, 5000};
  enum { NLEN = sizeof lens / sizeof lens[0] };
  char *mods[NLEN], *long_target = malloc(201);
  REQUIRE(long_target);
  memset(long_target, 't', 200);
  long_target[200] = '\0';
  for (size_t i = 0; i < NLEN; i++) {
    mods[i] = malloc(lens[i] + 1);
    REQUIRE(mods[i]);
    memset(mods[i], 'a' + (int)i, lens[i]);
    mods[i][lens[i]] = '\0';
  }
  struct fatbin_entry e[2 * NLEN + 1];
  char data[2 * NLEN + 1][8];
  size_t n = 0;
  for (size_t i = 0; i < NLEN; i++) {
    snprintf(data[n], sizeof data[n], "so%zu", i);
    e[n] = (struct fatbin_entry){mods[i], FATBIN_VENDOR_HOST, "host", FATBIN_FORMAT_SO,
                                 data[n], strlen(data[n]), NULL};
    n++;
    snprintf(data[n], sizeof data[n], "hs%zu", i);
    e[n] = (struct fatbin_entry){mods[i], FATBIN_VENDOR_AMD, "gfx942:xnack-",
                                 FATBIN_FORMAT_HSACO, data[n], strlen(data[n]), "-xnack"};
    n++;
  }
  snprintf(data[n], sizeof data[n], "lt");
  e[n] = (struct fatbin_entry){"k", FATBIN_VENDOR_HOST, long_target, FATBIN_FORMAT_SO, data[n],
                               2, NULL};
  n++;
  for (int m = 0; m < NMODES; m++) {
    size_t size;
    unsigned char *blob = write_blob_mode(e, n, &sample_meta, modes[m], &size);
    struct fatbin *fb;
    char err[256] = "";
    REQUIRE(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
    CHECK(fatbin_count(fb) == n);
    size_t found = 0;
    for (size_t i = 0; i < fatbin_count(fb); i++) {
      const struct fatbin_entry *g = fatbin_get(fb, i);
      for (size_t k = 0; k < n; k++)
        if (strcmp(g->module, e[k].module) == 0 && strcmp(g->target, e[k].target) == 0 &&
            g->format == e[k].format) {
          found++;
          CHECK(object_is(fb, i, e[k].data, e[k].size));
        }
    }
    CHECK(found == n);
    fatbin_close(fb);

    /* What a standard tar reader sees: plain paths where they fit. */
    struct archive *a = archive_read_new();
    REQUIRE(a);
    CHECK(archive_read_support_format_tar(a) == ARCHIVE_OK);
    CHECK(archive_read_support_filter_zstd(a) == ARCHIVE_OK);
    CHECK(archive_read_open_memory(a, blob + FATBIN_HEADER_SIZE,
                                   blob_len(blob) - FATBIN_HEADER_SIZE) == ARCHIVE_OK);
    struct archive_entry *ae;
    size_t plain = 0, hashed = 0;
    while (archive_read_next_header(a, &ae) == ARCHIVE_OK) {
      const char *path = archive_entry_pathname(ae);
      if (strncmp(path, "long/", 5) == 0) {
        CHECK(strlen(path) == 5 + 64 + 1 + strlen(strrchr(path, '.') + 1));
        hashed++;
      } else if (strcmp(path, "MANIFEST") != 0) {
        CHECK(strlen(path) <= 255);
        plain++;
      }
    }
    /* Modules of 1, 100, 155 bytes fit (prefix <= 155); the rest, and the
     * 200-byte target, do not. */
    CHECK(plain == 6);
    CHECK(hashed == n - 6);
    CHECK(archive_read_free(a) == ARCHIVE_OK);
    free(blob);
  }
  for (size_t i = 0; i < NLEN; i++)
    free(mods[i]);
  free(long_target);
}

int main(void) {
  init_data();
  test_names();
  test_roundtrip();
  test_sorting();
  test_write_errors();
  test_truncation();
  test_flips();
  test_manifest_v1();
  test_manifest_v2();
  test_manifest_v3();
  test_kernels();
  test_manifest_kernels();
  test_old_blobs();
  test_elf();
  test_bare();
  test_long_names();
  return finish("fatbin_test");
}
