/* compress_test.c: the compressed modes of the archive.
 *
 * It checks what compression promises: near-duplicate objects of one vendor
 * family compress against each other (random data, which no compressor
 * shrinks on its own, shrinks to little more than one copy); objects of
 * different families or modules do not share a frame; every compressed byte
 * is accounted to some member (the `stored` sizes add up to the frames);
 * the same input gives the same bytes, and different metadata different
 * bytes. Then it hands the reader compressed payloads built by hand, the
 * kind a fuzzer or a damaged file produces (missing frames, frames that lie
 * about their size or have none, skippable frames, checksum errors, objects
 * placed where they are not), and expects a clear error from fatbin_open or
 * fatbin_read_object, never a crash or a giant allocation. */
#include <archive.h>
#include <archive_entry.h>
#include <zstd.h>

#include "test_util.h"

#define OBJ_SIZE (256 * 1024)

static unsigned char *random_bytes(size_t n) {
  unsigned char *p = malloc(n);
  REQUIRE(p);
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(rng_next() >> 32);
  return p;
}

/* A copy of base with a few bytes changed here and there, as a cubin for a
 * neighbouring architecture differs from another. */
static unsigned char *variant(const unsigned char *base, size_t n) {
  unsigned char *p = dup_bytes(base, n);
  for (int k = 0; k < 200; k++)
    p[rng_next() % n] ^= 0x5a;
  return p;
}

static void test_near_duplicates(void) {
  unsigned char *a = random_bytes(OBJ_SIZE), *b = variant(a, OBJ_SIZE),
                *c = variant(a, OBJ_SIZE), *d = variant(b, OBJ_SIZE);
  unsigned char *amd = random_bytes(OBJ_SIZE / 4);
  struct fatbin_entry e[] = {
      {"k", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, a, OBJ_SIZE, NULL},
      {"k", FATBIN_VENDOR_NVIDIA, "sm_86", FATBIN_FORMAT_CUBIN, b, OBJ_SIZE, NULL},
      {"k", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, c, OBJ_SIZE, NULL},
      {"k", FATBIN_VENDOR_NVIDIA, "sm_100", FATBIN_FORMAT_CUBIN, d, OBJ_SIZE, NULL},
      {"k", FATBIN_VENDOR_AMD, "gfx90a", FATBIN_FORMAT_HSACO, amd, OBJ_SIZE / 4, NULL},
      {"j", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, a, OBJ_SIZE, NULL},
  };
  size_t n = sizeof e / sizeof e[0], raw = 0;
  for (size_t i = 0; i < n; i++)
    raw += e[i].size;

  size_t none_size, fast_size, size_size;
  unsigned char *none = write_blob_mode(e, n, NULL, FATBIN_COMPRESS_NONE, &none_size);
  unsigned char *fast = write_blob_mode(e, n, NULL, FATBIN_COMPRESS_FAST, &fast_size);
  unsigned char *size = write_blob_mode(e, n, NULL, FATBIN_COMPRESS_SIZE, &size_size);
  printf("near-duplicates: raw %zu, none %zu, fast %zu, size %zu\n", raw, none_size, fast_size,
         size_size);
  CHECK(none_size > raw);
  /* Three unique random payloads (a, amd, and a again in another module's
   * frame) of the 1.5 MiB; the four sm_ variants cost little more than one. */
  size_t unique = 2 * OBJ_SIZE + OBJ_SIZE / 4;
  CHECK(fast_size < unique + unique / 10);
  CHECK(size_size < unique + unique / 10);
  CHECK(size_size <= fast_size);

  struct fatbin *fb = NULL;
  char err[256];
  CHECK(fatbin_open(size, size_size, &fb, err, sizeof err) == 0);
  REQUIRE(fb);
  /* Order: module j first, then k's nvidia cubins by number, then amd. */
  static const char *const order[] = {"sm_80", "sm_80", "sm_86", "sm_90", "sm_100", "gfx90a"};
  static const unsigned frame_of[] = {1, 2, 2, 2, 2, 3};
  static const size_t from[] = {5, 0, 1, 2, 3, 4};
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_object_info *in = fatbin_get_info(fb, i);
    CHECK(strcmp(fatbin_get(fb, i)->target, order[i]) == 0);
    CHECK(in->frame == frame_of[i]);
    CHECK(object_is(fb, i, e[from[i]].data, e[from[i]].size));
    CHECK(fatbin_verify(fb, i, err, sizeof err) == -1 && strstr(err, "not an ELF"));
  }
  /* The near-duplicates cost far less than the first of them. */
  CHECK(fatbin_get_info(fb, 2)->stored_size < OBJ_SIZE / 20);
  CHECK(fatbin_get_info(fb, 1)->stored_size > OBJ_SIZE);

  /* Every compressed byte of a frame is some member's. */
  const unsigned char *p = size + FATBIN_HEADER_SIZE;
  size_t left = blob_len(size) - FATBIN_HEADER_SIZE;
  for (unsigned f = 0; left > 0; f++) {
    size_t fsize = ZSTD_findFrameCompressedSize(p, left);
    REQUIRE(!ZSTD_isError(fsize));
    size_t sum = 0;
    for (size_t i = 0; i < n; i++)
      if (fatbin_get_info(fb, i)->frame == f)
        sum += fatbin_get_info(fb, i)->stored_size;
    if (f >= 1 && f <= 3)
      CHECK(sum == fsize);
    p += fsize;
    left -= fsize;
  }
  fatbin_close(fb);
  free(none);
  free(fast);
  free(size);
  free(a);
  free(b);
  free(c);
  free(d);
  free(amd);
}

static void test_reproducible(void) {
  static const char text[] = ".version 7.8\n.target sm_80\n";
  unsigned char *obj = random_bytes(5000);
  struct fatbin_entry e[] = {
      {"k", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_PTX, text, sizeof text, "+ptx78"},
      {"k", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, obj, 5000, "+ptx78"},
      {"k", FATBIN_VENDOR_AMD, "gfx942", FATBIN_FORMAT_HSACO, obj, 4000, NULL},
  };
  struct fatbin_meta meta = {"0.1.0", "22.1.8", "-O2"};
  for (int m = FATBIN_COMPRESS_NONE; m <= FATBIN_COMPRESS_SIZE; m++) {
    size_t s1, s2, s3, s4;
    unsigned char *b1 = write_blob_mode(e, 3, &meta, (enum fatbin_compress)m, &s1);
    unsigned char *b2 = write_blob_mode(e, 3, &meta, (enum fatbin_compress)m, &s2);
    CHECK(s1 == s2 && memcmp(b1, b2, s1) == 0);
    /* Other flags, or another object byte, give other bytes. */
    struct fatbin_meta other = meta;
    other.flags = "-O3";
    unsigned char *b3 = write_blob_mode(e, 3, &other, (enum fatbin_compress)m, &s3);
    CHECK(s3 != s1 || memcmp(b1, b3, s1) != 0);
    obj[4500] ^= 1;
    unsigned char *b4 = write_blob_mode(e, 3, &meta, (enum fatbin_compress)m, &s4);
    obj[4500] ^= 1;
    CHECK(s4 != s1 || memcmp(b1, b4, s1) != 0);
    free(b1);
    free(b2);
    free(b3);
    free(b4);
  }
  size_t sf, ss;
  unsigned char *bf = write_blob_mode(e, 3, &meta, FATBIN_COMPRESS_FAST, &sf);
  unsigned char *bs = write_blob_mode(e, 3, &meta, FATBIN_COMPRESS_SIZE, &ss);
  CHECK(sf != ss || memcmp(bf, bs, sf) != 0); /* the level, and the manifest, differ */
  free(bf);
  free(bs);
  free(obj);
}

/* ---- hand-made compressed payloads -------------------------------------- */

static void add(unsigned char **buf, size_t *len, const void *data, size_t n) {
  *buf = realloc(*buf, *len + n + 8);
  REQUIRE(*buf);
  memcpy(*buf + *len, data, n);
  *len += n;
}

/* A tar fragment (no end records) of the given members. */
static size_t tar_fragment(unsigned char *out, size_t cap, const char *const *names,
                           const char *const *texts, size_t n) {
  size_t used = 0;
  struct archive *a = archive_write_new();
  REQUIRE(a);
  REQUIRE(archive_write_set_format_ustar(a) == ARCHIVE_OK);
  REQUIRE(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
  REQUIRE(archive_write_open_memory(a, out, cap, &used) == ARCHIVE_OK);
  for (size_t i = 0; i < n; i++) {
    struct archive_entry *ae = archive_entry_new();
    archive_entry_set_pathname(ae, names[i]);
    archive_entry_set_filetype(ae, AE_IFREG);
    archive_entry_set_perm(ae, 0644);
    archive_entry_set_size(ae, (la_int64_t)strlen(texts[i]));
    REQUIRE(archive_write_header(a, ae) == ARCHIVE_OK);
    REQUIRE(archive_write_data(a, texts[i], strlen(texts[i])) == (la_ssize_t)strlen(texts[i]));
    archive_entry_free(ae);
  }
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  REQUIRE(archive_write_free(a) == ARCHIVE_OK);
  REQUIRE(used >= 1024);
  return used - 1024; /* without the end records */
}

/* Appends a zstd frame of content (with its size and a checksum). */
static void add_frame(unsigned char **buf, size_t *len, const void *content, size_t n,
                      int with_size) {
  size_t cap = ZSTD_compressBound(n);
  unsigned char *z = malloc(cap);
  ZSTD_CCtx *c = ZSTD_createCCtx();
  REQUIRE(z && c);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, with_size);
  size_t r = ZSTD_compress2(c, z, cap, content, n);
  REQUIRE(!ZSTD_isError(r));
  add(buf, len, z, r);
  ZSTD_freeCCtx(c);
  free(z);
}

/* Appends the frame holding one MANIFEST member with this text. */
static void add_manifest(unsigned char **buf, size_t *len, const char *manifest) {
  static unsigned char tar[16384];
  const char *name = "MANIFEST";
  size_t n = tar_fragment(tar, sizeof tar, &name, &manifest, 1);
  add_frame(buf, len, tar, n, 1);
}

/* Wraps a payload in a compressed blob's header and opens it. The index
 * borrows the blob, so the blob is kept in *keep (free it after closing). */
static int open_payload(const unsigned char *payload, size_t len, struct fatbin **fb,
                        unsigned char **keep, char *err, size_t errlen) {
  unsigned char *blob = malloc(FATBIN_HEADER_SIZE + len);
  REQUIRE(blob);
  memcpy(blob, "GPUCCFAT", 8);
  memset(blob + 8, 0, 16);
  blob[8] = 2;
  blob[12] = 1;
  for (int i = 0; i < 8; i++)
    blob[16 + i] = (unsigned char)((uint64_t)len >> (8 * i));
  memcpy(blob + FATBIN_HEADER_SIZE, payload, len);
  err[0] = '\0';
  *keep = blob;
  return fatbin_open(blob, FATBIN_HEADER_SIZE + len, fb, err, errlen);
}

#define M_HEAD "gpucc-fatbin 2\narchive compress=size\n"
#define HASH_X "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
#define OBJ_X "object module=m vendor=nvidia target=sm_90 format=ptx size=1 sha256=" HASH_X \
              " file=m/sm_90.ptx"

/* A frame header that claims `content` bytes and holds one empty raw
 * block: what a forged length looks like. */
static void add_lying_frame(unsigned char **buf, size_t *len, uint64_t content) {
  unsigned char f[16] = {0x28, 0xb5, 0x2f, 0xfd, 0xe0 /* single segment, 8-byte size */};
  for (int i = 0; i < 8; i++)
    f[5 + i] = (unsigned char)(content >> (8 * i));
  f[13] = 0x01; /* last block, raw, 0 bytes */
  add(buf, len, f, sizeof f);
}

static void test_hostile(void) {
  char err[256];
  struct fatbin *fb;
  unsigned char *blob;
  static unsigned char tar[16384];
  const char *name = "m/sm_90.ptx", *text = "x";
  size_t obj_tar = tar_fragment(tar, sizeof tar, &name, &text, 1);

  struct {
    const char *manifest;
    int frames; /* 0: none; 1: a good object frame; 2: a lying frame (2^40);
                   3: skippable frame; 4: junk; 5: frame without size */
    const char *expect;
  } open_cases[] = {
      {M_HEAD OBJ_X " frame=1 offset=512 stored=1\n", 0, "the archive has 1"},
      {M_HEAD OBJ_X "\n", 1, "in frame 0"},
      {M_HEAD OBJ_X " frame=1 offset=512 stored=1\n" OBJ_X " frame=1 offset=512 stored=1\n", 1,
       "twice"},
      {M_HEAD OBJ_X " frame=1 offset=5000 stored=1\n", 1, "outside frame 1"},
      {M_HEAD OBJ_X " frame=1 offset=0 stored=1\n", 1, "outside frame 1"},
      {M_HEAD OBJ_X " frame=1 offset=512 stored=1\n", 2, "more than the"},
      {M_HEAD OBJ_X " frame=1 offset=512 stored=1\n", 3, "no zstd frame"},
      {M_HEAD OBJ_X " frame=1 offset=512 stored=1\n", 4, "no zstd frame"},
      {M_HEAD OBJ_X " frame=1 offset=512 stored=1\n", 5, "does not record its size"},
  };
  for (size_t i = 0; i < sizeof open_cases / sizeof open_cases[0]; i++) {
    unsigned char *p = NULL;
    size_t len = 0;
    add_manifest(&p, &len, open_cases[i].manifest);
    switch (open_cases[i].frames) {
    case 1:
      add_frame(&p, &len, tar, obj_tar, 1);
      break;
    case 2:
      add_lying_frame(&p, &len, (uint64_t)1 << 40);
      break;
    case 3: {
      static const unsigned char skip[12] = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0};
      add(&p, &len, skip, sizeof skip);
      break;
    }
    case 4:
      add(&p, &len, "junk junk", 9);
      break;
    case 5:
      add_frame(&p, &len, tar, obj_tar, 0);
      break;
    }
    fb = NULL;
    int r = open_payload(p, len, &fb, &blob, err, sizeof err);
    if (r != -1 || !strstr(err, open_cases[i].expect))
      fprintf(stderr, "open case %zu: r=%d err='%s'\n", i, r, err);
    CHECK(r == -1 && fb == NULL && strstr(err, open_cases[i].expect));
    free(blob);
    free(p);
  }

  /* The manifest frame itself claims to be huge: refused before any
   * allocation of that size. */
  unsigned char *p = NULL;
  size_t len = 0;
  add_lying_frame(&p, &len, (uint64_t)1 << 40);
  CHECK(open_payload(p, len, &fb, &blob, err, sizeof err) == -1 && strstr(err, "allowed"));
  free(blob);
  free(p);

  /* Opens fine, fails on reading: the frame lies about its content (the
   * offset and size fit the 4096 bytes it claims, the data is not there). */
  p = NULL;
  len = 0;
  add_manifest(&p, &len, M_HEAD OBJ_X " frame=1 offset=512 stored=1\n");
  add_lying_frame(&p, &len, 4096);
  fb = NULL;
  CHECK(open_payload(p, len, &fb, &blob, err, sizeof err) == 0);
  const void *data;
  size_t size;
  void *to_free;
  CHECK(fb && fatbin_read_object(fb, 0, &data, &size, &to_free, err, sizeof err) == -1 &&
        to_free == NULL && strstr(err, "corrupt"));
  fatbin_close(fb);
  free(blob);
  free(p);

  /* The object is not where the manifest says. */
  p = NULL;
  len = 0;
  add_manifest(&p, &len, M_HEAD OBJ_X " frame=1 offset=513 stored=1\n");
  add_frame(&p, &len, tar, obj_tar, 1);
  fb = NULL;
  CHECK(open_payload(p, len, &fb, &blob, err, sizeof err) == 0);
  CHECK(fb && fatbin_read_object(fb, 0, &data, &size, &to_free, err, sizeof err) == -1 &&
        strstr(err, "not where the MANIFEST says"));
  fatbin_close(fb);
  free(blob);
  free(p);

  /* The right place: reads; then one flipped compressed byte is caught by
   * zstd (content or checksum), never returned as data. */
  p = NULL;
  len = 0;
  add_manifest(&p, &len, M_HEAD OBJ_X " frame=1 offset=512 stored=1\n");
  size_t frame1 = len;
  add_frame(&p, &len, tar, obj_tar, 1);
  fb = NULL;
  CHECK(open_payload(p, len, &fb, &blob, err, sizeof err) == 0);
  CHECK(fb && object_is(fb, 0, "x", 1));
  CHECK(fb && fatbin_verify(fb, 0, err, sizeof err) == -1 && strstr(err, "NUL"));
  fatbin_close(fb);
  free(blob);
  int caught = 0;
  for (size_t at = frame1 + 6; at < len; at++) {
    p[at] ^= 0x10;
    fb = NULL;
    if (open_payload(p, len, &fb, &blob, err, sizeof err) == 0) {
      if (fatbin_read_object(fb, 0, &data, &size, &to_free, err, sizeof err) == 0) {
        CHECK(size == 1 && memcmp(data, "x", 1) == 0);
        free(to_free);
      } else {
        caught++;
      }
      fatbin_close(fb);
    } else {
      caught++;
    }
    free(blob);
    p[at] ^= 0x10;
  }
  CHECK(caught == (int)(len - frame1 - 6));
  free(p);
}

int main(void) {
  test_near_duplicates();
  test_reproducible();
  test_hostile();
  return finish("compress_test");
}
