/* test_host_shuffle.c: gpuccHostShuffle against the rules of PTX shfl.sync.
 *
 * A C thread entry runs a table of shuffles (every mode, plain, with a
 * segment mask, with a clamp) in blocks of 32, 64 and 48 threads, the last
 * one ending in a partial warp of 16 lanes, with 1-, 2- and 3-D shapes (lanes
 * are consecutive linear thread ids). The expected source lane of each case
 * is written out by hand below rather than computed with the PTX formula, so
 * that the test does not share the implementation's mistakes. PTX, per
 * thread: with lane = laneid, maxLane = (lane & segmask) | (clamp & ~segmask),
 * minLane = lane & segmask,
 *   up:   j = lane - b,  valid when j >= maxLane
 *   down: j = lane + b,  valid when j <= maxLane
 *   bfly: j = lane ^ b,  valid when j <= maxLane
 *   idx:  j = minLane | (b & ~segmask), valid when j <= maxLane
 * and an invalid j reads the thread's own value. The runtime adds: a lane
 * past the end of a partial last warp does not exist (invalid, own value).
 * The result carries the value in bits 0-31 and the predicate in bit 32. */
#include <string.h>

#include "host_test.h"

/* c operands as convert-gpu-to-nvvm builds them: segment mask in bits 8-12,
 * clamp in bits 0-4. */
#define SEG(width) ((32u - (width)) << 8)

struct shfl_case {
  const char *what;
  uint32_t mode, b, c;
  /* The source lane for `lane` in a warp of `lanes` lanes, or -1 when the
   * predicate is false. Written without the PTX formula. */
  int (*src)(int lane, int lanes);
};

static int exists(int j, int lanes) { return j < lanes ? j : -1; }

static int idx5(int lane, int lanes) { (void)lane; return exists(5, lanes); }
static int idx20(int lane, int lanes) { (void)lane; return exists(20, lanes); }
static int idx3_of8(int lane, int lanes) { return exists((lane & ~7) + 3, lanes); }
static int idx_over_clamp(int lane, int lanes) { (void)lane, (void)lanes; return -1; }
static int idx10_clamp15(int lane, int lanes) { (void)lane; return exists(10, lanes); }
static int up1(int lane, int lanes) { (void)lanes; return lane >= 1 ? lane - 1 : -1; }
static int up3_of8(int lane, int lanes) { (void)lanes; return lane % 8 >= 3 ? lane - 3 : -1; }
static int up2_min16(int lane, int lanes) { (void)lanes; return lane - 2 >= 16 ? lane - 2 : -1; }
static int down1(int lane, int lanes) { return lane + 1 <= 31 ? exists(lane + 1, lanes) : -1; }
static int down2_of8(int lane, int lanes) {
  return lane % 8 + 2 <= 7 ? exists(lane + 2, lanes) : -1;
}
static int down4_clamp15(int lane, int lanes) {
  return lane + 4 <= 15 ? exists(lane + 4, lanes) : -1;
}
static int bfly1(int lane, int lanes) { return exists(lane ^ 1, lanes); }
static int bfly16(int lane, int lanes) { return exists(lane ^ 16, lanes); }
static int bfly2_of4(int lane, int lanes) { return exists(lane ^ 2, lanes); }
/* Segments of 4, offset 4: lanes with bit 2 clear would leave their segment
 * upwards (invalid); lanes with it set read 4 lanes down, from the previous
 * segment: the PTX rule only bounds j from above. */
static int bfly4_of4(int lane, int lanes) { (void)lanes; return lane & 4 ? lane - 4 : -1; }
/* convert-gpu-to-nvvm's xor with width 3: clamp 2, no segments. */
static int bfly1_width3(int lane, int lanes) {
  (void)lanes;
  switch (lane) {
  case 0: return 1;
  case 1: return 0;
  case 3: return 2;
  default: return -1;
  }
}

static const struct shfl_case cases[] = {
    {"idx 5", GPUCC_HOST_SHFL_IDX, 5, 31, idx5},
    {"idx 37 (b uses bits 0-4)", GPUCC_HOST_SHFL_IDX, 37, 31, idx5},
    {"idx 20", GPUCC_HOST_SHFL_IDX, 20, 31, idx20},
    {"idx 3 in segments of 8", GPUCC_HOST_SHFL_IDX, 3, SEG(8) | 31, idx3_of8},
    {"idx 20 over clamp 15", GPUCC_HOST_SHFL_IDX, 20, 15, idx_over_clamp},
    {"idx 10 under clamp 15", GPUCC_HOST_SHFL_IDX, 10, 15, idx10_clamp15},
    {"up 1", GPUCC_HOST_SHFL_UP, 1, 0, up1},
    {"up 3 in segments of 8", GPUCC_HOST_SHFL_UP, 3, SEG(8), up3_of8},
    {"up 2 with clamp 16 (a minimum lane)", GPUCC_HOST_SHFL_UP, 2, 16, up2_min16},
    {"down 1", GPUCC_HOST_SHFL_DOWN, 1, 31, down1},
    {"down 2 in segments of 8", GPUCC_HOST_SHFL_DOWN, 2, SEG(8) | 31, down2_of8},
    {"down 4 with clamp 15", GPUCC_HOST_SHFL_DOWN, 4, 15, down4_clamp15},
    {"bfly 1", GPUCC_HOST_SHFL_BFLY, 1, 31, bfly1},
    {"bfly 16", GPUCC_HOST_SHFL_BFLY, 16, 31, bfly16},
    {"bfly 2 in segments of 4", GPUCC_HOST_SHFL_BFLY, 2, SEG(4) | 31, bfly2_of4},
    {"bfly 4 in segments of 4", GPUCC_HOST_SHFL_BFLY, 4, SEG(4) | 31, bfly4_of4},
    {"bfly 1 with clamp 2 (width 3)", GPUCC_HOST_SHFL_BFLY, 1, 2, bfly1_width3},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* Distinct per (case, block, thread), high bit set so that a sign extension
 * or a lost bit shows. */
static uint32_t value_of(unsigned k, unsigned long block, unsigned t) {
  return 0x80000000u | (uint32_t)(k << 24) | (uint32_t)(block << 12) | t;
}

/* The kernel: every thread runs every case, one after another, and stores
 * the raw 64-bit results at out[block][case][thread]. */
static void shuffle_thread(void **params, struct gpucc_host_ctx *ctx) {
  uint64_t *out = *(uint64_t **)params[0];
  unsigned n = host_block_threads(ctx), t = host_linear_tid(ctx);
  unsigned long blk = host_linear_block(ctx);
  for (unsigned k = 0; k < NCASES; k++)
    out[(blk * NCASES + k) * n + t] =
        gpuccHostShuffle(ctx, cases[k].mode, value_of(k, blk, t), cases[k].b, cases[k].c);
}

static unsigned check_shape(unsigned bx, unsigned by, unsigned bz) {
  unsigned n = bx * by * bz, blocks = 3;
  uint64_t *out = calloc((size_t)blocks * NCASES * n, sizeof *out);
  CHECK(out);
  void *params[] = {&out};
  unsigned grid[3] = {blocks, 1, 1}, block[3] = {bx, by, bz};
  host_run(shuffle_thread, NULL, 0, grid, block, 0, params);
  unsigned failures = 0;
  for (unsigned long blk = 0; blk < blocks; blk++)
    for (unsigned k = 0; k < NCASES; k++)
      for (unsigned t = 0; t < n; t++) {
        int lane = (int)(t % 32), base = (int)(t - t % 32);
        int lanes = n - base < 32 ? (int)n - base : 32;
        int src = cases[k].src(lane, lanes);
        uint64_t want = src < 0 ? value_of(k, blk, t)
                                : ((uint64_t)1 << 32) | value_of(k, blk, (unsigned)(base + src));
        uint64_t got = out[(blk * NCASES + k) * n + t];
        if (got != want && failures++ < 20)
          fprintf(stderr, "block (%u,%u,%u) #%lu, %s: thread %u (lane %d of %d) got %#llx, "
                  "want %#llx (lane %d)\n", bx, by, bz, blk, cases[k].what, t, lane, lanes,
                  (unsigned long long)got, (unsigned long long)want, src);
      }
  free(out);
  return failures;
}

static void run_shuffle(void) {
  unsigned failures = 0;
  failures += check_shape(32, 1, 1);
  failures += check_shape(8, 8, 1);  /* 64: two warps, 2-D */
  failures += check_shape(48, 1, 1); /* a full warp and 16 lanes */
  failures += check_shape(4, 4, 3);  /* 48 in 3-D */
  failures += check_shape(7, 1, 1);  /* one partial warp */
  CHECK(failures == 0);
}

/* A warp-level sum in a loop, the idiom compiled code uses: each step's
 * values depend on the previous step's results, so a thread that read a
 * value of the wrong step shows. */
static void reduce_thread(void **params, struct gpucc_host_ctx *ctx) {
  uint32_t *out = *(uint32_t **)params[0];
  unsigned t = host_linear_tid(ctx);
  uint32_t v = t * t;
  for (int rep = 0; rep < 3; rep++)
    for (uint32_t off = 16; off > 0; off >>= 1)
      v += (uint32_t)gpuccHostShuffle(ctx, GPUCC_HOST_SHFL_DOWN, v, off, 31);
  out[host_linear_block(ctx) * host_block_threads(ctx) + t] = v;
}

static void run_reduce(void) {
  unsigned n = 256, blocks = 4;
  uint32_t *out = calloc((size_t)n * blocks, sizeof *out);
  CHECK(out);
  void *params[] = {&out};
  unsigned grid[3] = {blocks, 1, 1}, block[3] = {n, 1, 1};
  host_run(reduce_thread, NULL, 0, grid, block, 0, params);
  /* Reference: the same steps on plain arrays, one warp at a time. */
  unsigned failures = 0;
  for (unsigned w = 0; w < n / 32; w++) {
    uint32_t v[32], next[32];
    for (unsigned l = 0; l < 32; l++)
      v[l] = (w * 32 + l) * (w * 32 + l);
    for (int rep = 0; rep < 3; rep++)
      for (unsigned off = 16; off > 0; off >>= 1) {
        for (unsigned l = 0; l < 32; l++)
          next[l] = v[l] + (l + off <= 31 ? v[l + off] : v[l]);
        memcpy(v, next, sizeof v);
      }
    for (unsigned b = 0; b < blocks; b++)
      for (unsigned l = 0; l < 32; l++)
        failures += out[b * n + w * 32 + l] != v[l];
  }
  free(out);
  if (failures)
    fprintf(stderr, "warp sums: %u wrong\n", failures);
  CHECK(failures == 0);
}

static const struct rt_test tests[] = {
    {"shuffle", run_shuffle, 0, {0}, {"want"}, 0},
    {"reduce", run_reduce, 0, {0}, {"wrong"}, 0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
