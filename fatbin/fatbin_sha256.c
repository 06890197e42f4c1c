/* fatbin_sha256.c: SHA-256 (FIPS 180-4), the content hash of every object.
 *
 * The manifest records each object's SHA-256 so that `gpucc-fatbin verify`
 * and anyone with sha256sum can check an extracted object against it. None of
 * the libraries gpucc already links exports a SHA-256 (libarchive keeps its
 * digests private), and a dependency on a crypto library for one hash would
 * be out of proportion, so this is the plain textbook algorithm: one pass,
 * no tables beyond the round constants, byte-wise big-endian access so the
 * host's byte order does not matter, a few hundred MB/s. Where the CPU has
 * the x86 SHA extensions, whole blocks go through them instead
 * (fatbin_sha256_x86.c, several times faster; the driver hashes megabytes
 * per build for its cache keys and manifests). The runtime never hashes.
 * Test vectors are in tests/fatbin/sha256_test.c. */
#include <stdatomic.h>
#include <string.h>

#include "fatbin_private.h"

static const uint32_t fatbin_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static uint32_t fatbin_ror(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

static uint32_t fatbin_be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Mixes one 64-byte block into the state h. */
static void fatbin_sha256_block(uint32_t h[8], const unsigned char *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = fatbin_be32(p + 4 * i);
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = fatbin_ror(w[i - 15], 7) ^ fatbin_ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = fatbin_ror(w[i - 2], 17) ^ fatbin_ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = k + (fatbin_ror(e, 6) ^ fatbin_ror(e, 11) ^ fatbin_ror(e, 25)) +
                  ((e & f) ^ (~e & g)) + fatbin_sha256_k[i] + w[i];
    uint32_t t2 = (fatbin_ror(a, 2) ^ fatbin_ror(a, 13) ^ fatbin_ror(a, 22)) +
                  ((a & b) ^ (a & c) ^ (b & c));
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

/* 0: not asked yet, 1: portable, 2: x86 SHA extensions. */
static atomic_int fatbin_sha256_kind;

int fatbin_sha256_accelerated(void) {
  int kind = atomic_load_explicit(&fatbin_sha256_kind, memory_order_relaxed);
  if (!kind) {
    kind = fatbin_sha256_x86_usable() ? 2 : 1;
    atomic_store_explicit(&fatbin_sha256_kind, kind, memory_order_relaxed);
  }
  return kind == 2;
}

static void fatbin_sha256_run(const void *data, size_t size, int fast,
                              unsigned char out[FATBIN_SHA256_SIZE]) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const unsigned char *p = data;
  size_t left = size;
  if (fast && left >= 64) {
    fatbin_sha256_x86_blocks(h, p, left / 64, fatbin_sha256_k);
    p += left / 64 * 64;
    left %= 64;
  }
  for (; left >= 64; left -= 64, p += 64)
    fatbin_sha256_block(h, p);

  /* The tail, a 0x80 byte, zeros, and the length in bits (big-endian) fill
   * one or two last blocks. */
  unsigned char tail[128] = {0};
  if (left)
    memcpy(tail, p, left);
  tail[left] = 0x80;
  size_t tail_len = left < 56 ? 64 : 128;
  uint64_t bits = (uint64_t)size * 8;
  for (int i = 0; i < 8; i++)
    tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
  if (fast) {
    fatbin_sha256_x86_blocks(h, tail, tail_len / 64, fatbin_sha256_k);
  } else {
    fatbin_sha256_block(h, tail);
    if (tail_len == 128)
      fatbin_sha256_block(h, tail + 64);
  }

  for (int i = 0; i < 8; i++) {
    out[4 * i] = (unsigned char)(h[i] >> 24);
    out[4 * i + 1] = (unsigned char)(h[i] >> 16);
    out[4 * i + 2] = (unsigned char)(h[i] >> 8);
    out[4 * i + 3] = (unsigned char)h[i];
  }
}

void fatbin_sha256(const void *data, size_t size, unsigned char out[FATBIN_SHA256_SIZE]) {
  fatbin_sha256_run(data, size, fatbin_sha256_accelerated(), out);
}

void fatbin_sha256_portable(const void *data, size_t size, unsigned char out[FATBIN_SHA256_SIZE]) {
  fatbin_sha256_run(data, size, 0, out);
}

void fatbin_sha256_hex(const unsigned char sum[FATBIN_SHA256_SIZE],
                       char hex[2 * FATBIN_SHA256_SIZE + 1]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < FATBIN_SHA256_SIZE; i++) {
    hex[2 * i] = digits[sum[i] >> 4];
    hex[2 * i + 1] = digits[sum[i] & 15];
  }
  hex[2 * FATBIN_SHA256_SIZE] = '\0';
}
