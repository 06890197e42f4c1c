/* fatbin_sha256_x86.c: SHA-256 blocks with the x86 SHA extensions.
 *
 * gpucc hashes megabytes per build (cache keys over the module text, every
 * object for the manifest), which the portable code does at a few hundred
 * MB/s. Most x86-64 CPUs since 2017 (AMD Zen, Intel Goldmont and Ice Lake
 * on) have instructions that do SHA-256's rounds (sha256rnds2: two rounds)
 * and message schedule (sha256msg1/msg2), several times faster.
 * fatbin_sha256.c asks fatbin_sha256_x86_usable() once and then calls
 * fatbin_sha256_x86_blocks for whole blocks; the results are the same bytes
 * (tests/fatbin/sha256_test.c compares both on random inputs).
 *
 * The state lives in two registers in the order the instructions want:
 * (A, B, E, F) and (C, D, G, H). Each 16-byte group of message words feeds
 * four rounds: two rnds2, the second on the group's upper half. */
#include "fatbin_private.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

int fatbin_sha256_x86_usable(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
    return 0;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}

__attribute__((target("sha,sse4.1,ssse3"))) void
fatbin_sha256_x86_blocks(uint32_t h[8], const unsigned char *p, size_t nblocks,
                         const uint32_t k[64]) {
  /* Big-endian words from memory: reverse the bytes of each 32-bit lane. */
  const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
  __m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
  __m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (size_t n = 0; n < nblocks; n++, p += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i w[16]; /* w[i]: message words of rounds 4i .. 4i+3 */
    for (int i = 0; i < 16; i++) {
      if (i < 4)
        w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), swap);
      else
        w[i] = _mm_sha256msg2_epu32(
            _mm_add_epi32(_mm_sha256msg1_epu32(w[i - 4], w[i - 3]),
                          _mm_alignr_epi8(w[i - 1], w[i - 2], 4)),
            w[i - 1]);
      __m128i wk = _mm_add_epi32(w[i], _mm_loadu_si128((const __m128i *)&k[4 * i]));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

int fatbin_sha256_x86_usable(void) { return 0; }

void fatbin_sha256_x86_blocks(uint32_t h[8], const unsigned char *p, size_t nblocks,
                              const uint32_t k[64]) {
  (void)h, (void)p, (void)nblocks, (void)k;
}

#endif
