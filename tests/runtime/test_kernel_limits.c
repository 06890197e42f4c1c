/* test_kernel_limits.c: unit test of the launch limits (runtime/kernel_limits.c).
 *
 * The numbers each target is held to, what a kernel line and a device's
 * own report change in them, which check a launch fails first, and the one
 * line that explains a refusal, naming the targets that refuse it the same
 * way. No driver: these are pure functions. */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "kernel_limits.h"
#include "select_cuda.h"
#include "select_hip.h"
#include "select_host.h"

static int failures;

#define EXPECT(cond)                                                              \
  do {                                                                            \
    if (!(cond)) {                                                                \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                      \
      failures++;                                                                 \
    }                                                                             \
  } while (0)

static struct rt_launch launch(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned smem) {
  return (struct rt_launch){.grid = {gx, gy, gz}, .block = {bx, by, bz}, .smem = smem};
}

static uint64_t shared_of(const struct rt_selection *v, const char *target) {
  struct rt_limits l;
  rt_limits_of_target(v, target, &l);
  return l.max_shared;
}

/* What each target allows, from its name. */
static void test_targets(void) {
  struct rt_limits l;
  rt_limits_of_target(&rt_selection_cuda, "sm_90a", &l);
  EXPECT(strcmp(l.who, "sm_90a") == 0 && l.threads == GPUCC_MAX_BLOCK_THREADS);
  EXPECT(l.max_block[0] == 1024 && l.max_block[1] == 1024 && l.max_block[2] == 64);
  EXPECT(l.max_grid[0] == 2147483647u && l.max_grid[1] == 65535 && l.max_grid[2] == 65535);
  EXPECT(l.block[0] == 0 && l.shared == 0);
  static const struct {
    const struct rt_selection *v;
    const char *target;
    uint64_t shared;
  } shared[] = {
      {&rt_selection_cuda, "sm_61", 48 << 10},   {&rt_selection_cuda, "sm_70", 96 << 10},
      {&rt_selection_cuda, "sm_75", 64 << 10},   {&rt_selection_cuda, "sm_80", 163 << 10},
      {&rt_selection_cuda, "sm_86", 99 << 10},   {&rt_selection_cuda, "sm_87", 163 << 10},
      {&rt_selection_cuda, "sm_89", 99 << 10},   {&rt_selection_cuda, "sm_90", 232448},
      {&rt_selection_cuda, "sm_100f", 232448},   {&rt_selection_cuda, "sm_103", 232448},
      {&rt_selection_cuda, "sm_120", 99 << 10},  {&rt_selection_cuda, "sm_121a", 99 << 10},
      {&rt_selection_cuda, "bogus", 48 << 10},   {&rt_selection_hip, "gfx90a", 65536},
      {&rt_selection_hip, "gfx942:xnack-", 65536}, {&rt_selection_hip, "gfx1100", 65536},
      {&rt_selection_hip, "gfx950", 160 << 10},    {&rt_selection_host, "host", 0},
  };
  for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
    uint64_t got = shared_of(shared[i].v, shared[i].target);
    if (got != shared[i].shared)
      printf("%s: %llu bytes of shared memory, not %llu\n", shared[i].target,
             (unsigned long long)got, (unsigned long long)shared[i].shared);
    EXPECT(got == shared[i].shared);
  }
  /* The host has the GPUs' thread, block and grid limits. */
  rt_limits_of_target(&rt_selection_host, "host", &l);
  EXPECT(l.threads == 1024 && l.max_block[2] == 64 && l.max_grid[1] == 65535);

  /* A device's report replaces the table where it says something. */
  struct rt_device dev = {.select = &rt_selection_hip, .arch = "gfx90a",
                          .max_block = {1024, 1024, 1024}, .max_grid = {0, 65536, 0},
                          .max_shared = 32768};
  rt_limits_of_device(&dev, &l);
  EXPECT(strcmp(l.who, "gfx90a") == 0 && l.threads == 1024 && l.max_block[2] == 1024);
  EXPECT(l.max_grid[0] == 2147483647u && l.max_grid[1] == 65536 && l.max_grid[2] == 65535);
  EXPECT(l.max_shared == 32768);
  dev.max_threads = 512;
  rt_limits_of_device(&dev, &l);
  EXPECT(l.threads == 512);
}

/* A kernel line narrows, never widens. */
static void test_apply(void) {
  struct rt_limits l;
  rt_limits_of_target(&rt_selection_cuda, "sm_90", &l);
  rt_limits_apply_kernel(&l, NULL);
  EXPECT(l.threads == 1024 && l.block[0] == 0 && l.shared == 0);
  struct fatbin_kernel k = {"m", "k", NULL, 2048, {0, 0, 0}, 100};
  rt_limits_apply_kernel(&l, &k);
  EXPECT(l.threads == 1024 && l.shared == 100);
  k = (struct fatbin_kernel){"m", "k", NULL, 0, {8, 4, 2}, 0};
  rt_limits_apply_kernel(&l, &k);
  EXPECT(l.threads == 1024 && l.block[0] == 8 && l.block[1] == 4 && l.block[2] == 2);
  EXPECT(l.shared == 0);
  k.threads = 64;
  rt_limits_apply_kernel(&l, &k);
  EXPECT(l.threads == 64);
}

/* Each check, at its boundary, in the order they are made. */
static void test_check(void) {
  struct rt_limits l;
  rt_limits_of_target(&rt_selection_hip, "gfx942", &l);
  struct rt_launch ok = launch(2147483647u, 65535, 65535, 1024, 1, 1, 65536);
  EXPECT(rt_limits_check(&l, &ok) == RT_LIMIT_OK);
  struct rt_launch t = launch(1, 1, 1, 32, 32, 2, 0);
  EXPECT(rt_limits_check(&l, &t) == RT_LIMIT_THREADS);
  struct rt_launch b = launch(1, 1, 1, 1, 1, 65, 0);
  EXPECT(rt_limits_check(&l, &b) == RT_LIMIT_BLOCK);
  b = launch(1, 1, 1, 1025, 1, 1, 0);
  EXPECT(rt_limits_check(&l, &b) == RT_LIMIT_THREADS); /* threads come first */
  struct rt_launch g = launch(1, 1, 65536, 1, 1, 1, 0);
  EXPECT(rt_limits_check(&l, &g) == RT_LIMIT_GRID);
  g = launch(2147483648u, 1, 1, 1, 1, 1, 0);
  EXPECT(rt_limits_check(&l, &g) == RT_LIMIT_GRID);
  struct rt_launch s = launch(1, 1, 1, 1, 1, 1, 65537);
  EXPECT(rt_limits_check(&l, &s) == RT_LIMIT_SHARED);
  l.shared = 1;
  EXPECT(rt_limits_check(&l, &ok) == RT_LIMIT_SHARED);
  l.shared = 0;
  /* One shape only: the same count of threads in another shape is refused. */
  l.block[0] = 16, l.block[1] = 16, l.block[2] = 1;
  struct rt_launch same = launch(9, 1, 1, 16, 16, 1, 0), other = launch(9, 1, 1, 256, 1, 1, 0);
  EXPECT(rt_limits_check(&l, &same) == RT_LIMIT_OK);
  EXPECT(rt_limits_check(&l, &other) == RT_LIMIT_SHAPE);
  /* Sizes whose product overflows 64 bits are too many threads, not few. */
  struct rt_limits wide = l;
  wide.threads = UINT32_MAX;
  wide.block[0] = 0;
  wide.max_block[0] = wide.max_block[1] = wide.max_block[2] = UINT32_MAX;
  struct rt_launch huge = launch(1, 1, 1, 4294967295u, 4294967295u, 4294967295u, 0);
  EXPECT(rt_limits_check(&wide, &huge) == RT_LIMIT_THREADS);
  /* No shared memory limit: any amount. */
  rt_limits_of_target(&rt_selection_host, "host", &l);
  s = launch(1, 1, 1, 1, 1, 1, 4000000000u);
  EXPECT(rt_limits_check(&l, &s) == RT_LIMIT_OK);
}

static int explains(const struct rt_limits *l, size_t n, struct rt_launch ln, const char *want) {
  char msg[512];
  int r = rt_limits_explain("k", l, n, &ln, msg, sizeof msg);
  if (want && (r != 0 || strcmp(msg, want) != 0))
    printf("explained '%s'\n     not '%s'\n", msg, want);
  return want ? r == 0 && strcmp(msg, want) == 0 : r == -1 && msg[0] == '\0';
}

/* One line, naming every target refusing for the same reason with the same
 * limit; the first target that refuses decides which. */
static void test_explain(void) {
  struct rt_limits l[4];
  rt_limits_of_target(&rt_selection_cuda, "sm_75", &l[0]);
  rt_limits_of_target(&rt_selection_cuda, "sm_90", &l[1]);
  rt_limits_of_target(&rt_selection_hip, "gfx90a", &l[2]);
  rt_limits_of_target(&rt_selection_hip, "gfx942", &l[3]);
  struct fatbin_kernel k = {"m", "k", NULL, 256, {16, 16, 1}, 4096};
  for (int i = 0; i < 4; i++)
    rt_limits_apply_kernel(&l[i], &k);
  EXPECT(explains(l, 4, launch(4, 1, 1, 16, 16, 1, 0), NULL));
  EXPECT(explains(l, 4, launch(4, 1, 1, 1024, 1, 1, 0),
                  "kernel 'k' launched with 1024 threads per block; it was compiled for at "
                  "most 256 (sm_75, sm_90, gfx90a, gfx942)"));
  EXPECT(explains(l, 4, launch(4, 1, 1, 32, 8, 1, 0),
                  "kernel 'k' launched with block (32, 8, 1); it was compiled for block (16, "
                  "16, 1) only (sm_75, sm_90, gfx90a, gfx942)"));
  /* sm_90 takes 60000 bytes more than the others: only they are named. */
  EXPECT(explains(l, 4, launch(4, 1, 1, 16, 16, 1, 61441),
                  "kernel 'k' launched with 61441 bytes of dynamic shared memory; with its "
                  "4096 static bytes that is 65537, more than the 65536 bytes a block can "
                  "have (sm_75, gfx90a, gfx942)"));
  EXPECT(explains(&l[1], 1, launch(4, 1, 1, 16, 16, 1, 61441), NULL));
  /* Where the first refusing target has its own limit, the others that
   * refuse differently are not named in its line. */
  l[2].threads = 128;
  EXPECT(explains(l, 4, launch(4, 1, 1, 512, 1, 1, 0),
                  "kernel 'k' launched with 512 threads per block; it was compiled for at "
                  "most 256 (sm_75, sm_90, gfx942)"));
  EXPECT(explains(&l[1], 3, launch(4, 1, 1, 16, 16, 1, 0),
                  "kernel 'k' launched with 256 threads per block; it was compiled for at "
                  "most 128 (gfx90a)"));
  /* Grid and block dimensions, and shared memory without static bytes. */
  struct rt_limits h;
  rt_limits_of_target(&rt_selection_cuda, "sm_80", &h);
  EXPECT(explains(&h, 1, launch(1, 70000, 1, 32, 1, 1, 0),
                  "kernel 'k' launched with grid (1, 70000, 1); a grid is at most "
                  "(2147483647, 65535, 65535) blocks (sm_80)"));
  EXPECT(explains(&h, 1, launch(1, 1, 1, 2, 2, 128, 0),
                  "kernel 'k' launched with block (2, 2, 128); a block is at most (1024, 1024, "
                  "64) (sm_80)"));
  EXPECT(explains(&h, 1, launch(1, 1, 1, 32, 1, 1, 200000),
                  "kernel 'k' launched with 200000 bytes of dynamic shared memory, more than "
                  "the 166912 bytes a block can have (sm_80)"));
  EXPECT(explains(&h, 0, launch(1, 1, 1, 4096, 1, 1, 0), NULL)); /* no target: no limit */
  /* A short buffer cuts the line, NUL-terminated. */
  char tiny[16];
  struct rt_launch big = launch(1, 1, 1, 2048, 1, 1, 0);
  EXPECT(rt_limits_explain("k", &h, 1, &big, tiny, sizeof tiny) == 0 &&
         strcmp(tiny, "kernel 'k' laun") == 0);
}

int main(void) {
  test_targets();
  test_apply();
  test_check();
  test_explain();
  if (failures)
    printf("%d failures\n", failures);
  else
    printf("all launch limit cases passed\n");
  return failures ? 1 : 0;
}
