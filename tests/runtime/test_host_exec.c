/* test_host_exec.c: the host backend's grid runner (runtime/host_exec.c).
 *
 * Kernels here are C functions with the compiler's entry-point signatures
 * (see host_test.h). The scenarios check what a GPU guarantees and the
 * compiled code relies on: every (block, thread) of a 3-D grid runs exactly
 * once, through the thread entry (fibers) or the block entry (one call per
 * block); gpuccHostBarrier orders the threads of a block around their
 * workgroup memory, also when some threads wait at a barrier while others of
 * the block shuffle (gpu.all_reduce's lowering does that) or have returned;
 * each block has its own workgroup memory of static + dynamic bytes; a block
 * over 1024 threads is refused with a message and a grid with a zero
 * dimension runs nothing. CMakeLists.txt runs the scenarios with
 * GPUCC_HOST_THREADS=1 and =4, so that blocks also run concurrently. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "host_test.h"

/* Parameters are pointers to the arguments, as mgpuLaunchKernel gets them. */
#define ARG(params, i, type) (*(type *)(params)[i])

/* ---- visiting every (block, thread) once ---- */

/* One counter per (block, thread) of the grid, and a count of contexts that
 * were not what the launch asked for. */
struct visits {
  atomic_uint *count;
  unsigned grid[3], block[3];
  atomic_uint bad_ctx;
  atomic_uint wrong_entry;
};

static int ctx_ok(const struct visits *v, const struct gpucc_host_ctx *c, int check_tid) {
  for (int d = 0; d < 3; d++) {
    if (c->ntid[d] != v->block[d] || c->nctaid[d] != v->grid[d] || c->ctaid[d] >= v->grid[d])
      return 0;
    if (check_tid && c->tid[d] >= v->block[d])
      return 0;
  }
  return c->shared != NULL;
}

static void visit(struct visits *v, const struct gpucc_host_ctx *c, unsigned tid) {
  unsigned n = v->block[0] * v->block[1] * v->block[2];
  atomic_fetch_add(&v->count[host_linear_block(c) * n + tid], 1);
}

static void visit_thread(void **params, struct gpucc_host_ctx *ctx) {
  struct visits *v = ARG(params, 0, struct visits *);
  if (!ctx_ok(v, ctx, 1) || !ctx->sched)
    atomic_fetch_add(&v->bad_ctx, 1);
  visit(v, ctx, host_linear_tid(ctx));
}

/* What the compiler's K__gpucc_block does: every thread of the block, in
 * plain loops, with ctx->tid set by the loop. */
static void visit_block(void **params, struct gpucc_host_ctx *ctx) {
  struct visits *v = ARG(params, 0, struct visits *);
  if (!ctx_ok(v, ctx, 0))
    atomic_fetch_add(&v->bad_ctx, 1);
  /* The block's workgroup memory (static + dynamic bytes) is writable. */
  memset(ctx->shared, 0x5a, 24 + 40);
  struct gpucc_host_ctx c = *ctx;
  for (c.tid[2] = 0; c.tid[2] < c.ntid[2]; c.tid[2]++)
    for (c.tid[1] = 0; c.tid[1] < c.ntid[1]; c.tid[1]++)
      for (c.tid[0] = 0; c.tid[0] < c.ntid[0]; c.tid[0]++)
        visit(v, &c, host_linear_tid(&c));
}

/* Set next to a block entry: must never run, the block entry is preferred. */
static void wrong_thread(void **params, struct gpucc_host_ctx *ctx) {
  (void)ctx;
  atomic_fetch_add(&ARG(params, 0, struct visits *)->wrong_entry, 1);
}

static void run_grid_once(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, int block_entry) {
  struct visits v = {.grid = {gx, gy, gz}, .block = {bx, by, bz}};
  size_t total = (size_t)gx * gy * gz * bx * by * bz;
  v.count = calloc(total, sizeof *v.count);
  CHECK(v.count);
  struct visits *pv = &v;
  void *params[] = {&pv};
  if (block_entry)
    host_run(wrong_thread, visit_block, 24, v.grid, v.block, 40, params);
  else
    host_run(visit_thread, NULL, 0, v.grid, v.block, 0, params);
  size_t wrong = 0;
  for (size_t i = 0; i < total; i++)
    wrong += atomic_load(&v.count[i]) != 1;
  if (wrong)
    fprintf(stderr, "grid (%u,%u,%u) block (%u,%u,%u) %s entry: %zu of %zu threads not run once\n",
            gx, gy, gz, bx, by, bz, block_entry ? "block" : "thread", wrong, total);
  CHECK(wrong == 0);
  CHECK(atomic_load(&v.bad_ctx) == 0);
  CHECK(atomic_load(&v.wrong_entry) == 0);
  free(v.count);
}

/* Workers actually used: the distinct OS threads that ran a block. */
static pthread_t g_seen[64];
static atomic_uint g_nseen;
static pthread_mutex_t g_seen_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_thread(void **params, struct gpucc_host_ctx *ctx) {
  (void)params, (void)ctx;
  pthread_t me = pthread_self();
  pthread_mutex_lock(&g_seen_lock);
  unsigned n = atomic_load(&g_nseen), i = 0;
  while (i < n && !pthread_equal(g_seen[i], me))
    i++;
  if (i == n && n < 64)
    g_seen[atomic_fetch_add(&g_nseen, 1)] = me;
  pthread_mutex_unlock(&g_seen_lock);
  /* Long enough for every worker to wake up and take a block. */
  nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
}

static unsigned expected_workers(void) {
  const char *env = getenv("GPUCC_HOST_THREADS");
  CHECK(env && atoi(env) > 0); /* set by CMakeLists.txt */
  return (unsigned)atoi(env);
}

static void run_grid(void) {
  /* 3-D grids and blocks, thread entry (fibers) and block entry. */
  run_grid_once(3, 4, 5, 2, 3, 4, 0);
  run_grid_once(3, 4, 5, 2, 3, 4, 1);
  run_grid_once(7, 1, 1, 33, 1, 1, 0);
  run_grid_once(1, 1, 1, 1024, 1, 1, 1);
  /* Many small blocks: the workers race on the block counter. */
  run_grid_once(2000, 1, 1, 1, 1, 1, 0);
  run_grid_once(10, 10, 10, 3, 1, 1, 1);
  /* Launch after launch through the same pool. */
  for (int i = 0; i < 50; i++)
    run_grid_once(5, 2, 1, 4, 1, 1, i & 1);

  unsigned want = expected_workers();
  CHECK(rt_host_workers() == want);
  /* Blocks that take a while are spread over the pool: with one worker
   * exactly one OS thread runs them, with four more than one. */
  unsigned grid[3] = {4 * want, 1, 1}, block[3] = {1, 1, 1};
  host_run(note_thread, NULL, 0, grid, block, 0, NULL);
  unsigned seen = atomic_load(&g_nseen);
  fprintf(stderr, "%u blocks ran on %u of %u workers\n", grid[0], seen, want);
  CHECK(seen >= 1 && seen <= want);
  CHECK(want == 1 ? seen == 1 : seen >= 2);
}

/* ---- barriers ---- */

struct bar_result {
  atomic_uint mismatches;
  atomic_uint finished;
};

/* What thread t of block b stores in round r. */
static uint32_t tag(unsigned long b, unsigned r, unsigned t) {
  return (uint32_t)(b * 1000003u + r * 4099u + t + 1);
}

/* Each round: every thread writes its slot of workgroup memory, a barrier,
 * each thread reads its neighbours' slots, a barrier (so that nobody
 * overwrites a slot before all have read it). Without a working barrier a
 * thread reads a slot of the previous round, or of another block. The array
 * lives after the static bytes, in the dynamic part. */
#define BAR_STATIC 16
static void barrier_rounds(struct gpucc_host_ctx *ctx, struct bar_result *res, unsigned n) {
  unsigned t = host_linear_tid(ctx);
  unsigned long b = host_linear_block(ctx);
  uint32_t *slot = (uint32_t *)(ctx->shared + BAR_STATIC);
  for (unsigned r = 0; r < 4; r++) {
    slot[t] = tag(b, r, t);
    gpuccHostBarrier(ctx);
    unsigned next = (t + 1) % n, far = (t + n / 2) % n;
    if (slot[next] != tag(b, r, next) || slot[far] != tag(b, r, far))
      atomic_fetch_add(&res->mismatches, 1);
    gpuccHostBarrier(ctx);
  }
  atomic_fetch_add(&res->finished, 1);
}

static void barrier_thread(void **params, struct gpucc_host_ctx *ctx) {
  barrier_rounds(ctx, ARG(params, 0, struct bar_result *), host_block_threads(ctx));
}

static void barrier_case(unsigned bx, unsigned by, unsigned bz, unsigned blocks) {
  unsigned n = bx * by * bz;
  struct bar_result res = {0};
  struct bar_result *pres = &res;
  void *params[] = {&pres};
  unsigned grid[3] = {blocks, 1, 1}, block[3] = {bx, by, bz};
  host_run(barrier_thread, NULL, BAR_STATIC, grid, block, n * 4, params);
  if (atomic_load(&res.mismatches))
    fprintf(stderr, "block (%u,%u,%u): %u stale reads\n", bx, by, bz, atomic_load(&res.mismatches));
  CHECK(atomic_load(&res.mismatches) == 0);
  CHECK(atomic_load(&res.finished) == n * blocks);
}

static void run_barrier(void) {
  barrier_case(1, 1, 1, 3);
  barrier_case(7, 1, 1, 5);
  barrier_case(8, 4, 8, 6);    /* 256 */
  barrier_case(1024, 1, 1, 4);
  barrier_case(4, 16, 16, 2);  /* 1024 in 3-D */
}

/* Threads that return early (`if (tid >= n) return;` before a barrier) no
 * longer hold the others back, as exited threads on an NVIDIA GPU; the
 * others exchange values among themselves. */
static void early_exit_thread(void **params, struct gpucc_host_ctx *ctx) {
  unsigned live = (host_block_threads(ctx) + 1) / 2;
  if (host_linear_tid(ctx) >= live)
    return;
  barrier_rounds(ctx, ARG(params, 0, struct bar_result *), live);
}

static void run_barrier_exit(void) {
  static const unsigned sizes[] = {2, 7, 64, 1024};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    struct bar_result res = {0};
    struct bar_result *pres = &res;
    void *params[] = {&pres};
    unsigned grid[3] = {2, 1, 1}, block[3] = {sizes[i], 1, 1};
    host_run(early_exit_thread, NULL, BAR_STATIC, grid, block, sizes[i] * 4, params);
    CHECK(atomic_load(&res.mismatches) == 0);
    CHECK(atomic_load(&res.finished) == 2 * ((sizes[i] + 1) / 2));
  }
}

/* ---- gpu.all_reduce's shape: barriers while part of a warp shuffles ----
 *
 * MLIR lowers gpu.all_reduce to: a butterfly reduction in every warp; lane 0
 * of each warp stores its partial sum to workgroup memory; a barrier; the
 * first nwarps threads (part of warp 0 only) reduce the partial sums with
 * shuffles of width nwarps; thread 0 stores the total; a barrier; everyone
 * loads the total. So while those few threads shuffle, the rest of their
 * warp and every other warp already wait at the second barrier. */
static uint32_t shfl_bfly(struct gpucc_host_ctx *ctx, uint32_t v, uint32_t offset,
                          uint32_t width, int *valid) {
  /* As convert-gpu-to-nvvm emits it: clamp = width - 1, no segment mask. */
  uint64_t r = gpuccHostShuffle(ctx, GPUCC_HOST_SHFL_BFLY, v, offset, width - 1);
  *valid = (int)(r >> 32);
  return (uint32_t)r;
}

static uint32_t subgroup_sum(struct gpucc_host_ctx *ctx, uint32_t v, uint32_t width) {
  for (uint32_t off = 1; off < 32; off <<= 1) {
    int valid;
    uint32_t other = shfl_bfly(ctx, v, off, width, &valid);
    if (valid)
      v += other;
  }
  return v;
}

static void all_reduce_thread(void **params, struct gpucc_host_ctx *ctx) {
  uint32_t *out = ARG(params, 0, uint32_t *);
  uint32_t *sh = (uint32_t *)ctx->shared;
  unsigned n = host_block_threads(ctx), t = host_linear_tid(ctx);
  unsigned warp = t / 32, lane = t % 32, nwarps = (n + 31) / 32;
  unsigned active = n - warp * 32 < 32 ? n - warp * 32 : 32;
  uint32_t v = subgroup_sum(ctx, t + 1, active);
  if (lane == 0)
    sh[warp] = v;
  gpuccHostBarrier(ctx);
  if (t < nwarps) {
    uint32_t s = subgroup_sum(ctx, sh[t], nwarps);
    if (t == 0)
      sh[0] = s;
  }
  gpuccHostBarrier(ctx);
  out[host_linear_block(ctx) * n + t] = sh[0];
}

static void run_all_reduce(void) {
  static const unsigned sizes[] = {1, 32, 33, 48, 96, 100, 1024};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    unsigned n = sizes[i], blocks = 3;
    uint32_t *out = calloc((size_t)n * blocks, sizeof *out);
    CHECK(out);
    void *params[] = {&out};
    unsigned grid[3] = {blocks, 1, 1}, block[3] = {n, 1, 1};
    host_run(all_reduce_thread, NULL, 32 * 4, grid, block, 0, params);
    uint32_t want = n * (n + 1) / 2;
    unsigned wrong = 0;
    for (unsigned j = 0; j < n * blocks; j++)
      wrong += out[j] != want;
    if (wrong)
      fprintf(stderr, "all_reduce over %u threads: %u threads got a wrong sum (thread 0: %u, "
              "last: %u, want %u)\n", n, wrong, out[0], out[n * blocks - 1], want);
    CHECK(wrong == 0);
    free(out);
  }
}

/* ---- limits ---- */

static atomic_uint g_ran;

static void count_thread(void **params, struct gpucc_host_ctx *ctx) {
  (void)params, (void)ctx;
  atomic_fetch_add(&g_ran, 1);
}

static void expect_refused(unsigned bx, unsigned by, unsigned bz, const char *message) {
  struct rt_host_kernel k = {.thread = count_thread};
  struct rt_host_grid g = {.grid = {1, 1, 1}, .block = {bx, by, bz}};
  char err[256] = "";
  CHECK(rt_host_run(&k, &g, err, sizeof err) == -1);
  fprintf(stderr, "block (%u,%u,%u): %s\n", bx, by, bz, err);
  CHECK(strcmp(err, message) == 0);
  CHECK(atomic_load(&g_ran) == 0);
}

static void run_too_many_threads(void) {
  expect_refused(1025, 1, 1, "1025 threads per block; the limit is 1024");
  expect_refused(32, 32, 2, "2048 threads per block; the limit is 1024");
  /* The product is computed without 32-bit wrap-around (2^33 here). */
  expect_refused(65536, 65536, 2, "8589934592 threads per block; the limit is 1024");
  /* The limit itself is fine. */
  unsigned grid[3] = {1, 1, 1}, block[3] = {16, 8, 8};
  host_run(count_thread, NULL, 0, grid, block, 0, NULL);
  CHECK(atomic_load(&g_ran) == 1024);
}

static void run_zero_grid(void) {
  static const unsigned shapes[][6] = {
      {0, 1, 1, 32, 1, 1}, {4, 0, 2, 32, 1, 1}, {1, 1, 0, 1, 1, 1},
      {2, 2, 2, 0, 1, 1},  {1, 1, 1, 32, 0, 1}, {1, 1, 1, 1, 1, 0},
      /* zero blocks of an invalid size: nothing to run, nothing to refuse */
      {0, 1, 1, 2048, 1, 1},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    host_run(count_thread, NULL, 0, &shapes[i][0], &shapes[i][3], 0, NULL);
    host_run(count_thread, count_thread, 0, &shapes[i][0], &shapes[i][3], 0, NULL);
  }
  CHECK(atomic_load(&g_ran) == 0);
}

/* ---- faults inside kernels (host_fault.c) ---- */

/* A page nobody may touch: a store there is a SIGSEGV at that address,
 * also under the sanitizers (an address merely far away may be one of
 * their mappings). Made before any kernel runs. */
static volatile int *forbidden;

static void make_forbidden(void) {
  void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(p != MAP_FAILED);
  forbidden = p;
}

static void far_store(void) { *forbidden = 1; }

/* Stores of different OS threads at one address would be a race to TSan. */
static void far_store_at(unsigned i) { forbidden[i % 1024] = 1; }

static void run_named(rt_host_entry thread, rt_host_entry block, unsigned blocks, unsigned threads) {
  struct rt_host_kernel k = {.thread = thread, .block = block, .name = "faulty", .module = "engine"};
  struct rt_host_grid g = {.grid = {blocks, 1, 1}, .block = {threads, 1, 1}};
  char err[256];
  make_forbidden();
  rt_host_run(&k, &g, err, sizeof err);
  CHECK(!"the fault ended the program");
}

static void fault_thread(void **params, struct gpucc_host_ctx *c) {
  (void)params;
  if (c->ctaid[0] == 3 && c->tid[0] == 17)
    far_store();
}

/* On fibers (no block entry) the runtime knows which thread faulted. */
static void run_fault_fiber(void) { run_named(fault_thread, NULL, 8, 32); }

static void fault_block(void **params, struct gpucc_host_ctx *c) {
  (void)params;
  for (unsigned t = 0; t < c->ntid[0]; t++)
    if (c->ctaid[0] == 2 && t == 5)
      far_store();
}

/* A block entry runs all its threads: only the block is named. */
static void run_fault_block(void) { run_named(fault_thread, fault_block, 8, 32); }

/* Every thread of every block faults, on several workers at once: one line. */
static void fault_all(void **params, struct gpucc_host_ctx *c) {
  (void)params;
  far_store_at(c->ctaid[0]);
}

static void run_fault_everywhere(void) { run_named(fault_all, NULL, 64, 64); }

static __attribute__((noinline)) unsigned deep(volatile char *up, unsigned n) {
  volatile char frame[512];
  frame[0] = (char)n;
  frame[511] = up[0];
  return n ? deep(frame, n - 1) + (unsigned)frame[511] : (unsigned)frame[0];
}

static void overflow_thread(void **params, struct gpucc_host_ctx *c) {
  (void)params;
  char top = 0;
  if (c->tid[0] == 5)
    deep(&top, 1u << 20);
}

/* A stack overflow in a fiber (64 KiB stacks) is reported too: the handler
 * runs on the worker's alternate signal stack. */
static void run_fault_stack(void) { run_named(overflow_thread, NULL, 1, 8); }

static void nothing_thread(void **params, struct gpucc_host_ctx *c) { (void)params, (void)c; }

/* A fault in the program's own code, once the engine has started: the
 * default action, as without the runtime (status 128 + SIGSEGV). */
static void run_fault_outside(void) {
  unsigned grid[3] = {4, 1, 1}, block[3] = {8, 1, 1};
  make_forbidden();
  host_run(nothing_thread, NULL, 0, grid, block, 0, NULL);
  far_store();
}

/* ASan and TSan report a SEGV outside kernels themselves (as they would
 * without the runtime) and exit with their own status. */
static int under_sanitizer(void) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return 1;
#endif
#endif
  return 0;
}

static void own_handler(int sig) {
  (void)sig;
  static const char msg[] = "the program's own handler\n";
  write(2, msg, sizeof msg - 1);
  _exit(3);
}

/* The program's handler installed before the engine started still gets
 * the faults outside kernels. */
static void run_fault_chained(void) {
  signal(SIGSEGV, own_handler);
  run_fault_outside();
}

static const struct rt_test tests[] = {
    {"grid", run_grid, 0, {"blocks ran on"}, {"rt_host_run"}, 0},
    {"barrier", run_barrier, 0, {0}, {"stale"}, 0},
    {"barrier_exit", run_barrier_exit, 0, {0}, {"CHECK"}, 0},
    {"all_reduce", run_all_reduce, 0, {0}, {"wrong sum"}, 0},
    {"too_many_threads",
     run_too_many_threads,
     0,
     {"block (1025,1,1): 1025 threads per block; the limit is 1024"},
     {"CHECK"},
     0},
    {"zero_grid", run_zero_grid, 0, {0}, {"CHECK"}, 0},
    {"fault_fiber",
     run_fault_fiber,
     1,
     {"gpucc: kernel 'faulty' (module engine): illegal memory access at 0x",
      " in block (3,0,0) thread (17,0,0)\n"},
     {"CHECK"},
     0},
    {"fault_block",
     run_fault_block,
     1,
     {"gpucc: kernel 'faulty' (module engine): illegal memory access at 0x", " in block (2,0,0)\n"},
     {"CHECK", "thread"},
     0},
    {"fault_everywhere",
     run_fault_everywhere,
     1,
     {"gpucc: kernel 'faulty' (module engine): illegal memory access at 0x", " in block ("},
     {"CHECK"},
     0},
    {"fault_stack",
     run_fault_stack,
     1,
     {"gpucc: kernel 'faulty' (module engine): illegal memory access at 0x", "in block (0,0,0) thread (5,0,0)\n"},
     {"CHECK"},
     0},
    {"fault_outside", run_fault_outside, 128 + SIGSEGV, {0}, {"gpucc:"}, under_sanitizer},
    {"fault_chained", run_fault_chained, 3, {"the program's own handler"}, {"gpucc:"}, 0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
