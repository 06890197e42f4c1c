/* sha256_test.c: fatbin_sha256 against known answers.
 *
 * The first vectors are FIPS 180-4's (the empty string, "abc", the 448- and
 * 896-bit messages, a million 'a's); the rest are lengths around the 55/56
 * and 64-byte block boundaries, where padding goes wrong if it goes wrong
 * anywhere, with digests computed by Python's hashlib. fatbin_sha256_hex is
 * checked on the way, since the manifest stores the hex spelling. Where the
 * CPU has the x86 SHA extensions, fatbin_sha256 uses them: the vectors check
 * that code, and every length from 0 to 1100 bytes (and a few large ones)
 * of pseudo-random data must hash the same through the portable code. */
#include "test_util.h"

#include "fatbin_private.h"

static int hash_is(const void *data, size_t n, const char *want) {
  unsigned char sum[FATBIN_SHA256_SIZE];
  char hex[2 * FATBIN_SHA256_SIZE + 1];
  fatbin_sha256(data, n, sum);
  fatbin_sha256_hex(sum, hex);
  if (strcmp(hex, want) != 0)
    fprintf(stderr, "sha256 of %zu bytes: got %s, want %s\n", n, hex, want);
  return strcmp(hex, want) == 0;
}

int main(void) {
  CHECK(hash_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  CHECK(hash_is(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  CHECK(hash_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  CHECK(hash_is(m448, sizeof m448 - 1,
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
  static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                             "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  CHECK(hash_is(m896, sizeof m896 - 1,
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"));
  char *million = malloc(1000000);
  REQUIRE(million);
  memset(million, 'a', 1000000);
  CHECK(hash_is(million, 1000000,
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
  free(million);

  static const struct {
    size_t n;
    const char *want;
  } edges[] = {
      {55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"},
      {56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"},
      {63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"},
      {64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"},
      {65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"},
      {119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"},
      {120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"},
      {127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07"},
      {128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"},
  };
  unsigned char buf[128];
  for (size_t i = 0; i < sizeof buf; i++)
    buf[i] = (unsigned char)((i * 7 + 3) & 255); /* as the Python generator */
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    CHECK(hash_is(buf, edges[i].n, edges[i].want));

  printf("sha256: %s\n", fatbin_sha256_accelerated() ? "x86 SHA extensions" : "portable code");
  /* Lengths around every block boundary, at every alignment. */
  size_t big = 3u << 20;
  unsigned char *data = malloc(big + 8);
  REQUIRE(data);
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < big + 8; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    data[i] = (unsigned char)x;
  }
  const size_t large[] = {4096, 65535, 65536, 1u << 20, big - 1, big};
  size_t nlarge = sizeof large / sizeof large[0];
  int same = 1;
  for (size_t n = 0; n <= 1100 + nlarge && same; n++) {
    size_t len = n <= 1100 ? n : large[n - 1101], at = n & 7;
    unsigned char a[FATBIN_SHA256_SIZE], b[FATBIN_SHA256_SIZE];
    fatbin_sha256(data + at, len, a);
    fatbin_sha256_portable(data + at, len, b);
    if (memcmp(a, b, sizeof a) != 0) {
      fprintf(stderr, "sha256 of %zu bytes differs from the portable code\n", len);
      same = 0;
    }
  }
  CHECK(same);
  free(data);
  return finish("sha256_test");
}
