/* compress_test.c: the compressed modes of the archive.
 *
 * It checks what compression promises: near-duplicate objects of one vendor
 * family compress against each other (random data, which no compressor
 * shrinks on its own, shrinks to little more than one copy) through
 * dictionaries chosen within the family, one per kind of near-duplicate, none
 * of which has one itself, so that a load inflates at most two objects
 * however many the family holds; every frame decodes with plain zstd given
 * its dictionary; every compressed byte is accounted to some member; the same
 * input gives the same bytes, and different metadata different bytes. Then
 * it hands the reader compressed payloads built by hand, the kind a fuzzer or
 * a damaged file produces (missing frames, frames that lie about their size
 * or have none, skippable frames, checksum errors, objects placed where they
 * are not; dictionaries missing, wrong, chained, out of range or damaged),
 * and expects a clear error from fatbin_open or fatbin_read_object, never a
 * crash, wrong bytes or a giant allocation. */
#include <limits.h>

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
  /* Order: module j first, then k's nvidia cubins by number, then amd; one
   * frame each. */
  static const char *const order[] = {"sm_80", "sm_80", "sm_86", "sm_90", "sm_100", "gfx90a"};
  static const size_t from[] = {5, 0, 1, 2, 3, 4};
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_object_info *in = fatbin_get_info(fb, i);
    CHECK(strcmp(fatbin_get(fb, i)->target, order[i]) == 0);
    CHECK(in->frame == i + 1);
    CHECK(object_is(fb, i, e[from[i]].data, e[from[i]].size));
    CHECK(fatbin_verify(fb, i, err, sizeof err) == -1 && strstr(err, "not an ELF"));
  }
  /* Alone in their families, j's cubin and the hsaco have no dictionary. Of
   * k's four cubins one is compressed alone and is the others' dictionary:
   * they cost far less than it. */
  CHECK(fatbin_get_info(fb, 0)->dict == 0 && fatbin_get_info(fb, 5)->dict == 0);
  unsigned base = 0;
  for (size_t i = 1; i <= 4; i++)
    if (fatbin_get_info(fb, i)->dict == 0)
      base = base ? UINT_MAX : (unsigned)(i + 1);
  CHECK(base >= 2 && base <= 5);
  for (size_t i = 1; i <= 4; i++) {
    const struct fatbin_object_info *in = fatbin_get_info(fb, i);
    if (in->frame == base) {
      CHECK(in->stored_size > OBJ_SIZE);
    } else {
      CHECK(in->dict == base && in->stored_size < OBJ_SIZE / 20);
      CHECK(in->dict_size == fatbin_get_info(fb, base - 1)->frame_size);
    }
  }

  /* Every compressed byte is some member's, and each frame is where the
   * index says. */
  const unsigned char *p = size + FATBIN_HEADER_SIZE;
  size_t left = blob_len(size) - FATBIN_HEADER_SIZE, pos = 0;
  for (unsigned f = 0; left > 0; f++) {
    size_t fsize = ZSTD_findFrameCompressedSize(p, left);
    REQUIRE(!ZSTD_isError(fsize));
    if (f >= 1 && f <= n) {
      const struct fatbin_object_info *in = fatbin_get_info(fb, f - 1);
      CHECK(in->stored_size == fsize && in->frame_stored == fsize && in->frame_pos == pos);
    }
    p += fsize;
    pos += fsize;
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

/* Decodes frame `frame` of fb's payload as `zstd -d -D dict` does: with
 * the content of frame `dict` (0: none) loaded as a dictionary, which zstd
 * takes as raw content because it has no dictionary magic. Returns the
 * content (malloc'ed, *len bytes) or NULL. */
static unsigned char *plain_zstd_frame(const unsigned char *blob, const struct fatbin *fb,
                                       size_t i, size_t *len) {
  const struct fatbin_object_info *in = fatbin_get_info(fb, i);
  const unsigned char *payload = blob + FATBIN_HEADER_SIZE;
  unsigned char *dict = NULL;
  size_t dict_len = 0;
  if (in->dict) {
    dict_len = in->dict_size;
    dict = malloc(dict_len + 1);
    REQUIRE(dict);
    size_t r = ZSTD_decompress(dict, dict_len, payload + in->dict_pos, in->dict_stored);
    REQUIRE(!ZSTD_isError(r) && r == dict_len);
  }
  unsigned char *out = malloc(in->frame_size + 1);
  ZSTD_DCtx *d = ZSTD_createDCtx();
  REQUIRE(out && d);
  size_t r = ZSTD_DCtx_loadDictionary(d, dict, dict_len);
  if (!ZSTD_isError(r))
    r = ZSTD_decompressDCtx(d, out, in->frame_size, payload + in->frame_pos, in->frame_stored);
  ZSTD_freeDCtx(d);
  free(dict);
  if (ZSTD_isError(r) || r != in->frame_size) {
    free(out);
    return NULL;
  }
  *len = r;
  return out;
}

/* The dictionaries: a family of two kinds of near-duplicates (as sm_75 is
 * to sm_8x) gets a dictionary for each kind; no dictionary has one itself,
 * so a load inflates at most two objects' frames, for any number of targets;
 * and each frame decodes with plain zstd given its dictionary's content, to
 * the tar member (header, data, padding) the manifest places there. */
static void test_dictionaries(void) {
  enum { KINDS = 2, PER_KIND = 4, N = KINDS * PER_KIND, SZ = 64 * 1024 };
  unsigned char *obj[N];
  char targets[N][16];
  struct fatbin_entry e[N];
  for (int k = 0; k < KINDS; k++) {
    unsigned char *first = random_bytes(SZ);
    for (int v = 0; v < PER_KIND; v++) {
      int i = k * PER_KIND + v;
      obj[i] = v ? variant(first, SZ) : first;
      snprintf(targets[i], sizeof targets[i], "sm_%d", 70 + 10 * k + v);
      e[i] = (struct fatbin_entry){"k", FATBIN_VENDOR_NVIDIA, targets[i], FATBIN_FORMAT_CUBIN,
                                   obj[i], SZ, NULL};
    }
  }
  for (size_t n = 1; n <= N; n++) {
    size_t size;
    unsigned char *blob = write_blob_mode(e, n, NULL, FATBIN_COMPRESS_FAST, &size);
    struct fatbin *fb = NULL;
    char err[256];
    CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
    REQUIRE(fb && fatbin_count(fb) == n);
    size_t bases = 0;
    for (size_t i = 0; i < n; i++) {
      const struct fatbin_object_info *in = fatbin_get_info(fb, i);
      CHECK(object_is(fb, i, obj[i], SZ));
      bases += in->dict == 0;
      if (in->dict) {
        CHECK(in->dict >= 1 && in->dict <= n && in->dict != in->frame);
        CHECK(fatbin_get_info(fb, in->dict - 1)->dict == 0); /* no chains */
        /* A dictionary of the same kind: its own variants are what help. */
        CHECK((in->dict - 1) / PER_KIND == i / PER_KIND);
        CHECK(in->stored_size < SZ / 10);
      }
      /* What a load inflates: two objects at most, whatever n is. */
      CHECK(in->frame_size + in->dict_size <= 2 * (SZ + 1024));
      size_t len;
      unsigned char *plain = plain_zstd_frame(blob, fb, i, &len);
      CHECK(plain && len == in->frame_size && len >= in->offset + SZ &&
            memcmp(plain + in->offset, obj[i], SZ) == 0);
      CHECK(plain && memcmp(plain + 257, "ustar", 5) == 0);
      free(plain);
    }
    CHECK(bases == (n > PER_KIND ? 2 : 1));
    fatbin_close(fb);
    free(blob);
  }
  for (int i = 0; i < N; i++)
    free(obj[i]);
}

static void test_reproducible(void) {
  static const char text[] = ".version 7.8\n.target sm_80\n";
  unsigned char *obj = random_bytes(5000);
  struct fatbin_entry e[] = {
      {"k", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_PTX, text, sizeof text, "+ptx78"},
      {"k", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, obj, 5000, "+ptx78"},
      {"k", FATBIN_VENDOR_AMD, "gfx942", FATBIN_FORMAT_HSACO, obj, 4000, NULL},
  };
  struct fatbin_meta meta = {"0.1.0", "22.1.8", "-O2", NULL, 0};
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

/* Appends a zstd frame of content compressed against dict (n and dict_len
 * bytes) as a raw-content prefix, as the writer does. */
static void add_dict_frame(unsigned char **buf, size_t *len, const void *content, size_t n,
                           const void *dict, size_t dict_len) {
  size_t cap = ZSTD_compressBound(n);
  unsigned char *z = malloc(cap);
  ZSTD_CCtx *c = ZSTD_createCCtx();
  REQUIRE(z && c);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_refPrefix(c, dict, dict_len);
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
static int open_payload_v(unsigned version, const unsigned char *payload, size_t len,
                          struct fatbin **fb, unsigned char **keep, char *err,
                          size_t errlen) {
  unsigned char *blob = malloc(FATBIN_HEADER_SIZE + len);
  REQUIRE(blob);
  memcpy(blob, "GPUCCFAT", 8);
  memset(blob + 8, 0, 16);
  blob[8] = (unsigned char)version;
  blob[12] = 1;
  for (int i = 0; i < 8; i++)
    blob[16 + i] = (unsigned char)((uint64_t)len >> (8 * i));
  memcpy(blob + FATBIN_HEADER_SIZE, payload, len);
  err[0] = '\0';
  *keep = blob;
  return fatbin_open(blob, FATBIN_HEADER_SIZE + len, fb, err, errlen);
}

/* The hand-made payloads of version 2 (frames of several members, no
 * dictionaries), which readers keep reading. */
static int open_payload(const unsigned char *payload, size_t len, struct fatbin **fb,
                        unsigned char **keep, char *err, size_t errlen) {
  return open_payload_v(2, payload, len, fb, keep, err, errlen);
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

/* Version 3's dictionaries, on hand-made payloads: frame 1 holds X (2000
 * bytes), frame 2 holds Y, a near copy, compressed against frame 1. A
 * dictionary out of range, its own frame's, one that has a dictionary
 * itself, one that claims too much, or two for one frame are refused at
 * open; a missing, wrong or damaged dictionary fails the read of Y (zstd's
 * checksum or its offsets), never returns wrong bytes, and leaves X
 * readable. */
static void test_hostile_dicts(void) {
  static char x[2001], y[2001], x2[2001];
  for (int i = 0; i < 2000; i++) {
    x[i] = (char)('a' + rng_next() % 26);
    x2[i] = (char)('a' + rng_next() % 26);
  }
  memcpy(y, x, sizeof y);
  y[1000] = y[1000] == 'q' ? 'r' : 'q';
  static unsigned char tx[8192], ty[8192], tx2[8192], txy[16384];
  const char *nx = "m/sm_90.ptx", *ny = "m/sm_80.ptx";
  const char *texts_xy[2] = {x, y}, *names_xy[2] = {"m/sm_90.ptx", "m/sm_80.ptx"};
  const char *tx_text = x, *ty_text = y, *tx2_text = x2;
  size_t lx = tar_fragment(tx, sizeof tx, &nx, &tx_text, 1);
  size_t ly = tar_fragment(ty, sizeof ty, &ny, &ty_text, 1);
  size_t lx2 = tar_fragment(tx2, sizeof tx2, &nx, &tx2_text, 1);
  size_t lxy = tar_fragment(txy, sizeof txy, names_xy, texts_xy, 2);
#define M_HEAD3 "gpucc-fatbin 3\narchive compress=fast\n"
#define OBJ3(target, rest) \
  "object module=m vendor=nvidia target=" target " format=ptx size=2000 sha256=" HASH_X \
  " file=m/" target ".ptx " rest "\n"

  struct {
    const char *manifest;
    int layout; /* 0: X | Y against X; 1: lying 2^40 | Y against X; 2: X | X and Y,
                   Y's bytes against X; 3: lying 4096 | Y against X; 4: X2 | Y against X */
    const char *open_error;  /* NULL: opens */
    int y_reads, x_reads;    /* when it opens */
  } cases[] = {
      {M_HEAD3 OBJ3("sm_90", "frame=1 offset=512 stored=1")
           OBJ3("sm_80", "frame=2 offset=512 stored=1 dict=1"),
       0, NULL, 1, 1},
      {M_HEAD3 OBJ3("sm_90", "frame=1 offset=512 stored=1")
           OBJ3("sm_80", "frame=2 offset=512 stored=1"),
       0, NULL, 0, 1},
      {M_HEAD3 OBJ3("sm_90", "frame=1 offset=512 stored=1")
           OBJ3("sm_80", "frame=2 offset=512 stored=1 dict=3"),
       0, "as dictionary, the archive has 3", 0, 0},
      {M_HEAD3 OBJ3("sm_90", "frame=1 offset=512 stored=1")
           OBJ3("sm_80", "frame=2 offset=512 stored=1 dict=2"),
       0, "as dictionary, the archive has 3", 0, 0},
      {M_HEAD3 OBJ3("sm_90", "frame=1 offset=512 stored=1 dict=2")
           OBJ3("sm_80", "frame=2 offset=512 stored=1 dict=1"),
       0, "which has a dictionary itself", 0, 0},
      {M_HEAD3 OBJ3("sm_80", "frame=2 offset=512 stored=1 dict=1"), 1, "more than the", 0, 0},
      {M_HEAD3 OBJ3("sm_90", "frame=2 offset=512 stored=1")
           OBJ3("sm_80", "frame=2 offset=3072 stored=1 dict=1"),
       2, "two different dictionaries", 0, 0},
      {M_HEAD3 OBJ3("sm_80", "frame=2 offset=3072 stored=1 dict=1")
           OBJ3("sm_90", "frame=2 offset=512 stored=1"),
       2, "two different dictionaries", 0, 0},
      {M_HEAD3 OBJ3("sm_80", "frame=2 offset=512 stored=1 dict=1"), 3, NULL, 0, 0},
      {M_HEAD3 OBJ3("sm_90", "frame=1 offset=512 stored=1")
           OBJ3("sm_80", "frame=2 offset=512 stored=1 dict=1"),
       4, NULL, 0, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    unsigned char *p = NULL, *blob;
    size_t len = 0;
    add_manifest(&p, &len, cases[i].manifest);
    switch (cases[i].layout) {
    case 0:
      add_frame(&p, &len, tx, lx, 1);
      add_dict_frame(&p, &len, ty, ly, tx, lx);
      break;
    case 1:
      add_lying_frame(&p, &len, (uint64_t)1 << 40);
      add_dict_frame(&p, &len, ty, ly, tx, lx);
      break;
    case 2:
      add_frame(&p, &len, tx, lx, 1);
      add_dict_frame(&p, &len, txy, lxy, tx, lx);
      break;
    case 3:
      add_lying_frame(&p, &len, 4096);
      add_dict_frame(&p, &len, ty, ly, tx, lx);
      break;
    case 4:
      add_frame(&p, &len, tx2, lx2, 1);
      add_dict_frame(&p, &len, ty, ly, tx, lx);
      break;
    }
    char err[256];
    struct fatbin *fb = NULL;
    int r = open_payload_v(3, p, len, &fb, &blob, err, sizeof err);
    int ok = cases[i].open_error ? r == -1 && fb == NULL && strstr(err, cases[i].open_error)
                                 : r == 0;
    if (!ok)
      fprintf(stderr, "dict open case %zu: r=%d err='%s'\n", i, r, err);
    CHECK(ok);
    for (size_t k = 0; r == 0 && fb && k < fatbin_count(fb); k++) {
      int is_y = strcmp(fatbin_get(fb, k)->target, "sm_80") == 0;
      const char *want = is_y ? y : cases[i].layout == 4 ? x2 : x;
      const void *data;
      size_t size;
      void *to_free;
      int got = fatbin_read_object(fb, k, &data, &size, &to_free, err, sizeof err) == 0;
      CHECK(got == (is_y ? cases[i].y_reads : cases[i].x_reads));
      if (got) {
        CHECK(size == 2000 && memcmp(data, want, 2000) == 0);
        free(to_free);
      } else {
        CHECK(to_free == NULL && data == NULL && strstr(err, "corrupt"));
      }
    }
    fatbin_close(fb);
    free(blob);
    free(p);
  }

  /* One flipped bit anywhere in either frame: an error, or the right bytes. */
  unsigned char *p = NULL, *blob;
  size_t len = 0;
  add_manifest(&p, &len, cases[0].manifest);
  size_t frames = len;
  add_frame(&p, &len, tx, lx, 1);
  add_dict_frame(&p, &len, ty, ly, tx, lx);
  size_t wrong = 0, caught = 0;
  for (size_t at = frames; at < len; at++) {
    for (int bit = 0; bit < 8; bit += 3) {
      p[at] ^= (unsigned char)(1u << bit);
      struct fatbin *fb = NULL;
      char err[256];
      if (open_payload_v(3, p, len, &fb, &blob, err, sizeof err) == 0) {
        for (size_t k = 0; k < fatbin_count(fb); k++) {
          const void *data;
          size_t size;
          void *to_free;
          if (fatbin_read_object(fb, k, &data, &size, &to_free, err, sizeof err) != 0) {
            caught++;
            continue;
          }
          const char *want = strcmp(fatbin_get(fb, k)->target, "sm_80") == 0 ? y : x;
          wrong += size != 2000 || memcmp(data, want, 2000) != 0;
          free(to_free);
        }
        fatbin_close(fb);
      } else {
        caught++;
      }
      free(blob);
      p[at] ^= (unsigned char)(1u << bit);
    }
  }
  CHECK(wrong == 0 && caught > 0);
  free(p);
#undef OBJ3
#undef M_HEAD3
}

int main(void) {
  test_near_duplicates();
  test_dictionaries();
  test_reproducible();
  test_hostile();
  test_hostile_dicts();
  return finish("compress_test");
}
