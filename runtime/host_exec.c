/* host_exec.c: the host backend's grid runner; see host_exec.h.
 *
 * Workers are started once, on the first launch. A launch joins the list of
 * grids in flight; every idle worker takes the oldest grid that still has
 * blocks to hand out and claims block indices from its atomic counter until
 * none are left, while the launching thread does the same for its own grid
 * only; the launch returns when its blocks have all finished. Each OS thread
 * owns its workgroup-memory buffer, scratch, fiber stacks and contexts
 * (`self`), so blocks never share anything but the kernel's global memory. */
#include "host_exec.h"

#include "host_fault.h"
#include "host_fiber.h"
#include "rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The engine's own limit, the GPUs' (rt.h includes fatbin.h): launch.c
 * refuses larger blocks first, naming the kernel; rt_host_run is also used
 * alone, by the engine's tests. */
#define MAX_BLOCK_THREADS GPUCC_MAX_BLOCK_THREADS

/* Where the threads of one warp are. Only fibers of one block, on one OS
 * thread, touch it: no atomics. A thread waiting in a shuffle has its
 * operands in its lane record (struct gpucc_host_lane, one per thread, as
 * in a block entry's scratch) and its bit in `shuffling`; whoever completes
 * the shuffle writes its result there and clears the bit. */
struct warp_state {
  unsigned alive;      /* threads that have not returned */
  uint32_t shuffling;  /* lanes waiting in a shuffle */
  unsigned at_barrier; /* waiting at the block's current barrier */
};

/* What one worker keeps between blocks. */
struct worker {
  char *shared;
  size_t shared_size;
  char *scratch; /* the block entry's per-thread state (ctx->scratch) */
  size_t scratch_size;
  struct rt_fiber_pool fibers;
  struct gpucc_host_ctx *ctxs;
  unsigned char *done;
  void **sp;
  struct gpucc_host_lane *lanes; /* one per thread */
  struct warp_state *warps; /* one per warp */
  unsigned capacity;        /* threads in ctxs/done/sp/lanes/warps */
  int altstack_checked;     /* rt_host_altstack_add was called */
  void *altstack;           /* what it returned, released with the rest */
};

/* A grid in flight, published to the workers. */
struct launch {
  const struct rt_host_kernel *kernel;
  const struct rt_host_grid *grid;
  unsigned long nblocks;
  struct launch *next_in_flight; /* pool_lock */
  unsigned helpers;              /* pool workers inside work_on; pool_lock */
  /* Apart, so that workers claiming blocks do not slow each other down by
   * bouncing the cache line that also holds the grid description. */
  _Alignas(64) atomic_ulong next;
  _Alignas(64) atomic_int failed;
  char error[256]; /* written once, by whoever sets failed first */
};

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_ready = PTHREAD_COND_INITIALIZER; /* a grid joined */
static pthread_cond_t work_done = PTHREAD_COND_INITIALIZER;  /* a helper left a grid */
/* Pool threads, not counting launchers; started as grids need them (a
 * one-block launch starts none), up to pool_size: a program that launches
 * little starts as fast as one that launches nothing. */
static atomic_uint nworkers;
static unsigned pool_size;
static struct launch *in_flight, *in_flight_tail; /* oldest first */

static _Thread_local struct worker self;
/* The grid this OS thread runs a block of: where a failed assertion goes. */
static _Thread_local struct launch *running;
/* Frees a host thread's `self` when that thread exits: every thread that
 * launches also runs blocks, and a program whose threads come and go would
 * otherwise leak their scratch and fiber stacks (64 KiB per GPU thread of
 * the largest block they ran). Pool workers never exit. */
static pthread_key_t self_key;
static _Thread_local int self_registered;

unsigned rt_host_workers(void) { return atomic_load_explicit(&nworkers, memory_order_relaxed) + 1; }

static int worker_reserve(struct worker *w, unsigned threads, size_t shared, size_t scratch) {
  if (shared > w->shared_size) {
    char *s = realloc(w->shared, shared);
    if (!s)
      return -1;
    w->shared = s;
    w->shared_size = shared;
  }
  if (scratch > w->scratch_size) {
    /* 64-byte aligned: the compiler lays out per-thread arrays for vector
     * loads and stores. Contents need not survive, so no realloc. */
    free(w->scratch);
    w->scratch = aligned_alloc(64, (scratch + 63) & ~(size_t)63);
    w->scratch_size = w->scratch ? scratch : 0;
    if (!w->scratch)
      return -1;
  }
  if (threads > w->capacity) {
    struct gpucc_host_ctx *c = realloc(w->ctxs, threads * sizeof *c);
    if (c)
      w->ctxs = c;
    unsigned char *d = realloc(w->done, threads);
    if (d)
      w->done = d;
    void **sp = realloc(w->sp, threads * sizeof *sp);
    if (sp)
      w->sp = sp;
    struct gpucc_host_lane *x = realloc(w->lanes, threads * sizeof *x);
    if (x)
      w->lanes = x;
    size_t nwarps = (threads + GPUCC_HOST_SUBGROUP_SIZE - 1) / GPUCC_HOST_SUBGROUP_SIZE;
    struct warp_state *ws = realloc(w->warps, nwarps * sizeof *ws);
    if (ws)
      w->warps = ws;
    if (!c || !d || !sp || !x || !ws)
      return -1;
    w->capacity = threads;
  }
  return 0;
}

static void worker_release(void *arg) {
  struct worker *w = arg;
  free(w->shared);
  free(w->scratch);
  free(w->ctxs);
  free(w->done);
  free(w->sp);
  free(w->lanes);
  free(w->warps);
  rt_fiber_release(&w->fibers);
  rt_host_altstack_release(w->altstack);
  memset(w, 0, sizeof *w);
}

/* The fiber block's `user`: what run() needs to call the thread entry, and
 * the block's synchronization state (see gpuccHostBarrier). */
struct fiber_job {
  struct worker *w;
  const struct rt_host_kernel *k;
  void **params;
  unsigned alive;            /* threads that have not returned */
  unsigned arrived;          /* at the current barrier */
  unsigned long barrier_gen; /* barriers completed */
  unsigned nwarps;
};

static void run_fiber_thread(struct rt_fiber_block *b, unsigned t) {
  struct fiber_job *job = b->user;
  job->k->thread(job->params, &job->w->ctxs[t]);
  /* A thread that has returned holds back no barrier and no shuffle, as an
   * exited thread on a GPU. */
  job->alive--;
  job->w->warps[t / GPUCC_HOST_SUBGROUP_SIZE].alive--;
}

static int run_block(struct worker *w, struct launch *l, unsigned long index) {
  const struct rt_host_grid *g = l->grid;
  const struct rt_host_kernel *k = l->kernel;
  unsigned n = g->block[0] * g->block[1] * g->block[2];
  size_t shared = (size_t)k->shared_bytes + g->dynamic_shared;
  size_t scratch = k->block ? (size_t)k->scratch_bytes * n : 0;
  if (worker_reserve(w, k->block ? 1 : n, shared ? shared : 1, scratch) != 0)
    return -1;
  struct gpucc_host_ctx base;
  memset(&base, 0, sizeof base);
  base.ctaid[0] = (uint32_t)(index % g->grid[0]);
  base.ctaid[1] = (uint32_t)(index / g->grid[0] % g->grid[1]);
  base.ctaid[2] = (uint32_t)(index / ((unsigned long)g->grid[0] * g->grid[1]));
  for (int d = 0; d < 3; d++) {
    base.ntid[d] = g->block[d];
    base.nctaid[d] = g->grid[d];
  }
  base.shared = w->shared;
  base.scratch = w->scratch;
  /* For a fault inside the kernel (host_fault.c): three stores per block
   * (work_on set the grid). */
  rt_host_running.block = index;
  if (k->block) {
    rt_host_running.kernel = k;
    k->block(g->params, &base);
    rt_host_running.kernel = NULL;
    return 0;
  }
  if (rt_fiber_reserve(&w->fibers, n) != 0)
    return -1;
  struct rt_fiber_block fb = {.n = n, .run = run_fiber_thread, .done = w->done, .sp = w->sp};
  struct fiber_job job = {w, k, g->params, n, 0, 0,
                         (n + GPUCC_HOST_SUBGROUP_SIZE - 1) / GPUCC_HOST_SUBGROUP_SIZE};
  fb.user = &job;
  for (unsigned i = 0; i < job.nwarps; i++) {
    unsigned left = n - i * GPUCC_HOST_SUBGROUP_SIZE;
    w->warps[i] = (struct warp_state){
        .alive = left < GPUCC_HOST_SUBGROUP_SIZE ? left : GPUCC_HOST_SUBGROUP_SIZE};
  }
  for (unsigned t = 0; t < n; t++) {
    struct gpucc_host_ctx *c = &w->ctxs[t];
    *c = base;
    c->tid[0] = t % g->block[0];
    c->tid[1] = t / g->block[0] % g->block[1];
    c->tid[2] = t / (g->block[0] * g->block[1]);
    c->sched = &fb;
  }
  rt_host_running.fibers = &fb;
  rt_host_running.ctxs = w->ctxs;
  rt_host_running.kernel = k;
  rt_fiber_run(&fb, &w->fibers);
  rt_host_running.kernel = NULL;
  rt_host_running.fibers = NULL;
  return 0;
}

/* Blocks are claimed in chunks: one atomic operation per block makes the
 * workers fight over one cache line when blocks are small (a vector add does
 * 256 additions per block). About 16 chunks per worker keeps the load
 * balanced when blocks take unequal time. */
static void work_on(struct launch *l) {
  unsigned long chunk = l->nblocks / ((unsigned long)rt_host_workers() * 16);
  if (chunk < 1)
    chunk = 1;
  if (!self.altstack_checked) {
    self.altstack = rt_host_altstack_add();
    self.altstack_checked = 1;
  }
  running = l;
  rt_host_running.grid = l->grid;
  for (;;) {
    unsigned long first = atomic_fetch_add(&l->next, chunk);
    if (first >= l->nblocks || atomic_load_explicit(&l->failed, memory_order_relaxed))
      break;
    unsigned long end = first + chunk < l->nblocks ? first + chunk : l->nblocks;
    for (unsigned long i = first; i < end; i++) {
      if (run_block(&self, l, i) != 0) {
        if (!atomic_exchange(&l->failed, 1))
          snprintf(l->error, sizeof l->error, "out of memory for a block of %u threads",
                   l->grid->block[0] * l->grid->block[1] * l->grid->block[2]);
        break;
      }
    }
  }
  running = NULL;
}

/* The oldest grid in flight with blocks left to claim, or NULL. */
static struct launch *claimable(void) {
  for (struct launch *l = in_flight; l; l = l->next_in_flight)
    if (atomic_load_explicit(&l->next, memory_order_relaxed) < l->nblocks &&
        !atomic_load_explicit(&l->failed, memory_order_relaxed))
      return l;
  return NULL;
}

static void *worker_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&pool_lock);
  for (;;) {
    struct launch *l = claimable();
    if (!l) {
      pthread_cond_wait(&work_ready, &pool_lock);
      continue;
    }
    l->helpers++;
    pthread_mutex_unlock(&pool_lock);
    work_on(l);
    pthread_mutex_lock(&pool_lock);
    if (--l->helpers == 0)
      pthread_cond_broadcast(&work_done);
  }
  return NULL;
}

static void start_pool(void) {
  rt_host_faults_install();
  pthread_key_create(&self_key, worker_release);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const char *env = getenv("GPUCC_HOST_THREADS");
  if (env && atoi(env) > 0)
    cores = atoi(env);
  if (cores < 1)
    cores = 1;
  pool_size = (unsigned)(cores - 1);
}

/* Starts workers until there are as many as `blocks - 1` (the launching
 * thread works too) or the pool is full. Called with pool_lock held. */
static void grow_pool_locked(unsigned long blocks) {
  unsigned long want = blocks - 1 < pool_size ? blocks - 1 : pool_size;
  while (atomic_load_explicit(&nworkers, memory_order_relaxed) < want) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, worker_main, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0)
      break; /* fewer workers: slower, still correct */
    atomic_fetch_add_explicit(&nworkers, 1, memory_order_relaxed);
  }
}

int rt_host_check(const struct rt_host_grid *g, char *err, size_t errlen) {
  unsigned long threads = (unsigned long)g->block[0] * g->block[1] * g->block[2];
  if (threads > MAX_BLOCK_THREADS) {
    snprintf(err, errlen, "%lu threads per block; the limit is %u", threads, MAX_BLOCK_THREADS);
    return -1;
  }
  return 0;
}

int rt_host_run(const struct rt_host_kernel *k, const struct rt_host_grid *g, char *err,
                size_t errlen) {
  unsigned long threads = (unsigned long)g->block[0] * g->block[1] * g->block[2];
  if (threads == 0 || (unsigned long)g->grid[0] * g->grid[1] * g->grid[2] == 0)
    return 0;
  if (rt_host_check(g, err, errlen) != 0)
    return -1;
  pthread_once(&pool_once, start_pool);
  if (!self_registered) {
    pthread_setspecific(self_key, &self);
    self_registered = 1;
  }
  struct launch l = {.kernel = k, .grid = g};
  l.nblocks = (unsigned long)g->grid[0] * g->grid[1] * g->grid[2];
  atomic_init(&l.next, 0);
  atomic_init(&l.failed, 0);

  pthread_mutex_lock(&pool_lock);
  if (in_flight_tail)
    in_flight_tail->next_in_flight = &l;
  else
    in_flight = &l;
  in_flight_tail = &l;
  grow_pool_locked(l.nblocks);
  if (atomic_load_explicit(&nworkers, memory_order_relaxed) > 0)
    pthread_cond_broadcast(&work_ready);
  pthread_mutex_unlock(&pool_lock);
  work_on(&l);
  pthread_mutex_lock(&pool_lock);
  /* Every block is claimed: no worker may join any more. */
  struct launch **p = &in_flight, *prev = NULL;
  while (*p != &l) {
    prev = *p;
    p = &(*p)->next_in_flight;
  }
  *p = l.next_in_flight;
  if (in_flight_tail == &l)
    in_flight_tail = prev;
  while (l.helpers > 0)
    pthread_cond_wait(&work_done, &pool_lock);
  pthread_mutex_unlock(&pool_lock);
  if (atomic_load(&l.failed)) {
    snprintf(err, errlen, "%s", l.error);
    return -1;
  }
  return 0;
}

/* ---- called by kernels (host_abi.h) ---- */

RT_EXPORT void gpuccHostAssertFail(struct gpucc_host_ctx *ctx, const char *message, const char *file,
                                   uint32_t line, const char *function) {
  if (!ctx) {
    /* Nothing to return to (the caller is no kernel): stop here, as the
     * GPU would, without running exit handlers under the other threads. */
    fprintf(stderr, "%s:%u: %s: Assertion `%s` failed.\n", file, line, function, message);
    fprintf(stderr, "gpucc: runtime error: device code: an assertion failed outside a kernel (cf.assert)\n");
    fflush(NULL);
    _exit(1);
  }
  /* CUDA's wording, so that checks written for NVIDIA match. */
  fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file,
          line, function, ctx->ctaid[0], ctx->ctaid[1], ctx->ctaid[2], ctx->tid[0], ctx->tid[1],
          ctx->tid[2], message);
  struct launch *l = running;
  if (l && !atomic_exchange(&l->failed, 1))
    snprintf(l->error, sizeof l->error, "a device-side assertion failed (cf.assert)");
}

/* ----
 *
 * The fibers of a block run in rounds (host_fiber.c); a thread that must
 * wait yields until the condition it waits for holds, rechecking at each
 * round. Counting, rather than relying on every thread yielding the same
 * number of times, is what makes divergent code correct: gpu.all_reduce's
 * lowering has a few threads of warp 0 shuffle while all the others already
 * wait at the next barrier, and a plain "yield once per barrier" would let
 * those pass it before the shuffling threads arrive.
 *
 * - A barrier completes when every thread that has not returned has
 *   arrived at it.
 * - A warp's shuffles complete when every thread of the warp that has not
 *   returned is either in a shuffle or waiting at a barrier. A thread
 *   waiting at a barrier cannot take part: the barrier cannot complete
 *   before the shuffling threads reach it. This is how the runtime learns
 *   which lanes take part (the PTX member mask, which the compiler does not
 *   pass).
 * - The lanes of a warp need not all wait in the same shuffle: a reduction
 *   that only some lanes reach (device_subgroup.c: ACTIVE, then PARTIAL
 *   shuffles among those lanes) while the others went on to the next one.
 *   What completes then is, in this order: the PARTIAL shuffles (a
 *   reduction under way); else the ACTIVE queries of the lowest site number
 *   (the compiler numbers sites in program order, so lanes that skipped
 *   ahead wait for those behind, and meet them where a GPU reconverges);
 *   else every shuffle, as above. The other lanes wait; a shuffle with the
 *   whole warp so waits for the lanes that are still reducing, as it would
 *   on a GPU.
 * So every state in which all live threads wait lets something complete: a
 * well-formed kernel never deadlocks here. */

/* The source lane j of `lane` and whether it is in range (the predicate),
 * by the rules of PTX shfl.sync. */
static int shuffle_source(unsigned lane, uint32_t mode, uint32_t b, uint32_t c, int *jp) {
  int segmask = (int)((c >> 8) & 31), cval = (int)(c & 31);
  int max_lane = ((int)lane & segmask) | (cval & ~segmask);
  int min_lane = (int)lane & segmask;
  int j = (int)lane, ok = 0;
  switch (mode) {
  case GPUCC_HOST_SHFL_UP: j = (int)lane - (int)(b & 31); ok = j >= max_lane; break;
  case GPUCC_HOST_SHFL_DOWN: j = (int)lane + (int)(b & 31); ok = j <= max_lane; break;
  case GPUCC_HOST_SHFL_BFLY: j = (int)lane ^ (int)(b & 31); ok = j <= max_lane; break;
  default: j = min_lane | ((int)(b & 31) & ~segmask); ok = j <= max_lane; break;
  }
  *jp = j;
  return ok;
}

/* Completes what the shuffling lanes of one warp can complete now (the
 * order above): `lanes` are the warp's n lane records, `in` has a bit per
 * lane waiting in a shuffle (not 0). Writes the results of the lanes that
 * complete and returns their bits. Values are read from the records as
 * they are, before any result is written: a snapshot. */
static uint32_t complete_shuffles(struct gpucc_host_lane *lanes, unsigned n, uint32_t in) {
  uint32_t partial = 0, active = 0, site = UINT32_MAX;
  for (unsigned t = 0; t < n; t++) {
    if (!(in >> t & 1))
      continue;
    if (lanes[t].mode & GPUCC_HOST_SHFL_PARTIAL)
      partial |= 1u << t;
    else if (lanes[t].mode == GPUCC_HOST_SHFL_ACTIVE && lanes[t].value <= site)
      site = lanes[t].value;
  }
  if (!partial && site != UINT32_MAX)
    for (unsigned t = 0; t < n; t++)
      if ((in >> t & 1) && lanes[t].mode == GPUCC_HOST_SHFL_ACTIVE && lanes[t].value == site)
        active |= 1u << t;
  uint32_t go = partial ? partial : active ? active : in;
  for (unsigned t = 0; t < n; t++) {
    if (!(go >> t & 1))
      continue;
    struct gpucc_host_lane *me = &lanes[t];
    if (me->mode == GPUCC_HOST_SHFL_ACTIVE) {
      me->result = go;
      continue;
    }
    int j, ok = shuffle_source(t, me->mode & ~GPUCC_HOST_SHFL_PARTIAL, me->lane_or_delta, me->clamp, &j);
    /* A lane beyond the end of a partial last warp does not exist. */
    if (ok && (unsigned)j >= n)
      ok = 0;
    /* Reading a lane outside the member mask is undefined on a GPU; here
     * it gives the thread's own value rather than a stale one. */
    uint32_t result = me->value;
    if (ok && (go >> j & 1))
      result = lanes[j].value;
    me->result = (uint64_t)result | ((uint64_t)(ok ? 1 : 0) << 32);
  }
  return go;
}

static void barrier_complete(struct fiber_job *job) {
  job->arrived = 0;
  job->barrier_gen++;
  for (unsigned i = 0; i < job->nwarps; i++)
    job->w->warps[i].at_barrier = 0;
}

RT_EXPORT void gpuccHostBarrier(struct gpucc_host_ctx *ctx) {
  struct rt_fiber_block *fb = ctx->sched;
  struct fiber_job *job = fb->user;
  struct warp_state *warp = &job->w->warps[fb->current / GPUCC_HOST_SUBGROUP_SIZE];
  unsigned long gen = job->barrier_gen;
  job->arrived++;
  warp->at_barrier++;
  while (job->barrier_gen == gen) {
    if (job->arrived == job->alive)
      barrier_complete(job);
    else
      rt_fiber_yield(fb);
  }
}

RT_EXPORT uint64_t gpuccHostShuffle(struct gpucc_host_ctx *ctx, uint32_t mode, uint32_t value,
                                    uint32_t b, uint32_t c) {
  struct rt_fiber_block *fb = ctx->sched;
  struct fiber_job *job = fb->user;
  unsigned me = fb->current;
  unsigned lane = me % GPUCC_HOST_SUBGROUP_SIZE;
  unsigned warp_base = me - lane;
  unsigned n = fb->n - warp_base < GPUCC_HOST_SUBGROUP_SIZE ? fb->n - warp_base : GPUCC_HOST_SUBGROUP_SIZE;
  struct warp_state *warp = &job->w->warps[me / GPUCC_HOST_SUBGROUP_SIZE];
  /* Offer the operands, then wait until the shuffle completes. */
  struct gpucc_host_lane *mine = &job->w->lanes[me];
  *mine = (struct gpucc_host_lane){mode, value, b, c, 0};
  warp->shuffling |= 1u << lane;
  while (warp->shuffling >> lane & 1) {
    if ((unsigned)__builtin_popcount(warp->shuffling) + warp->at_barrier == warp->alive)
      warp->shuffling &= ~complete_shuffles(&job->w->lanes[warp_base], n, warp->shuffling);
    else
      rt_fiber_yield(fb);
  }
  return mine->result;
}

/* ---- between the rounds of a block entry (host_abi.h, host_regions.c) ----
 *
 * The same rules as above, applied to a whole block at once: after a round
 * every thread that has not returned is stopped at a barrier or a shuffle,
 * so each warp with a thread in a shuffle can complete some (its other live
 * threads wait: at a barrier, or in a shuffle that comes later), and when
 * no warp shuffles, every live thread waits at a barrier, which completes.
 * Shuffle values are read from the lane records the threads wrote before
 * stopping, a snapshot: no lane's result can overwrite a value another lane
 * still reads. */
RT_EXPORT uint32_t gpuccHostRound(struct gpucc_host_ctx *ctx, uint32_t *codes,
                                  struct gpucc_host_lane *lanes) {
  unsigned n = ctx->ntid[0] * ctx->ntid[1] * ctx->ntid[2];
  const unsigned W = GPUCC_HOST_SUBGROUP_SIZE;
  int shuffled = 0, live = 0;
  for (unsigned base = 0; base < n; base += W) {
    unsigned end = base + W < n ? base + W : n;
    uint32_t in = 0;
    for (unsigned t = base; t < end; t++) {
      codes[t] &= ~GPUCC_HOST_ROUND_WAIT;
      in |= (codes[t] & 1) << (t - base);
      live |= codes[t] != 0;
    }
    if (!in)
      continue;
    shuffled = 1;
    uint32_t wait = in & ~complete_shuffles(&lanes[base], end - base, in);
    for (unsigned t = base; t < end; t++)
      if (wait >> (t - base) & 1)
        codes[t] |= GPUCC_HOST_ROUND_WAIT;
  }
  if (!live)
    return 0;
  if (shuffled) {
    /* Threads at barriers wait for the shuffling ones. */
    for (unsigned t = 0; t < n; t++)
      if (codes[t] != 0 && !(codes[t] & 1))
        codes[t] |= GPUCC_HOST_ROUND_WAIT;
  }
  uint32_t first = codes[0];
  for (unsigned t = 1; t < n; t++)
    if (codes[t] != first)
      return 1;
  return first == 0 || (first & GPUCC_HOST_ROUND_WAIT) ? 1 : first;
}
