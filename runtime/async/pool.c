/* pool.c: the worker threads that run coroutines.
 *
 * Size. GPUCC_ASYNC_THREADS threads (1 to ASYNC_MAX_THREADS), by default one
 * per online CPU, read once, at the first use of the pool. Threads start
 * lazily: one more whenever work is queued with no idle thread to take it,
 * up to the size; they are detached and live until exit.
 *
 * Blocking awaits. A coroutine's own awaits suspend it (AwaitAndExecute), but
 * a function it calls may block in mlirAsyncRuntimeAwait*, and a fixed pool
 * whose every thread blocks that way, for work still in its queue, never
 * runs that work. So a worker that blocks is counted out: while it is
 * blocked the pool may start a thread more, so that `size` threads stay free
 * to run queued work (the "managed blocking" of Java's ForkJoinPool, and
 * what Go's scheduler does around system calls). When the blocked ones wake
 * up, the extra threads leave as soon as they find the queue empty. The
 * alternative, running queued work inside the blocked await, puts that work
 * on top of the waiting one's stack: if it blocks in turn on something the
 * waiting one has still to produce after its await returns, neither can go
 * on. A thread costs its start (tens of microseconds) and only when a
 * worker really blocks with work waiting.
 *
 * Exit. At the first use the pool registers an atexit handler: at exit it
 * waits until the queue is empty and no coroutine runs (work the program
 * started is finished, as with MLIR's own runtime, whose destructor waits
 * for its thread pool), then stops the threads and waits until they have
 * left: none is left inside a coroutine or the runtime while the process
 * tears down. Work queued after that runs on the calling thread. When exit
 * is called from a worker, or after a fatal error (async_pool_abandon), the
 * handler waits for nothing: what runs may never finish. A task blocked for
 * ever (an await of a token nobody will make available) makes exit wait
 * for ever, as it does with MLIR's runtime.
 *
 * Not handled: fork() in a process whose pool has started (the child has
 * the pool's counts but none of its threads). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "async.h"
#include "rt.h"

enum { ASYNC_MAX_THREADS = 4096 };

static struct {
  pthread_mutex_t lock;
  pthread_cond_t work;  /* idle workers: work queued, stopping, or surplus */
  pthread_cond_t quiet; /* the exit handler: a task ended, a thread left */
  struct async_task *head, *tail;
  int64_t queued;
  int64_t size;     /* set once, by async_pool_init */
  int64_t threads;  /* started and not yet left */
  int64_t idle;     /* waiting on `work` */
  int64_t blocked;  /* workers inside a blocking await */
  int64_t running;  /* tasks being resumed (blocked ones included) */
  bool exiting;     /* the exit handler waits on `quiet` */
  bool stopping;    /* the exit handler has stopped the pool */
} async_pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .quiet = PTHREAD_COND_INITIALIZER,
};

static pthread_once_t async_pool_once = PTHREAD_ONCE_INIT;
static atomic_bool async_pool_abandoned;
static atomic_bool async_pool_warned;
static _Thread_local bool async_is_worker;

static int64_t async_pool_size_from_env(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 1)
    cpus = 1;
  if (cpus > ASYNC_MAX_THREADS)
    cpus = ASYNC_MAX_THREADS;
  const char *env = getenv("GPUCC_ASYNC_THREADS");
  if (!env || !*env)
    return cpus;
  char *end;
  errno = 0;
  long n = strtol(env, &end, 10);
  if (errno != 0 || *end != '\0' || n < 1 || n > ASYNC_MAX_THREADS) {
    rt_warning("GPUCC_ASYNC_THREADS='%s' is not a number of threads from 1 to %d; using %ld",
               env, ASYNC_MAX_THREADS, cpus);
    return cpus;
  }
  return n;
}

static void async_pool_exit(void);

static void async_pool_init(void) {
  async_pool.size = async_pool_size_from_env();
  atexit(async_pool_exit);
}

void async_pool_abandon(void) {
  atomic_store(&async_pool_abandoned, true);
}

/* Waits for work (with the lock held) and returns it, or NULL when this
 * thread is to leave: the pool stops, or more threads than its size are
 * free now that blocked ones have woken up. */
static struct async_task *async_pool_take(void) {
  for (;;) {
    struct async_task *t = async_pool.head;
    if (t) {
      async_pool.head = t->next;
      if (!async_pool.head)
        async_pool.tail = NULL;
      async_pool.queued--;
      return t;
    }
    if (async_pool.stopping || async_pool.threads - async_pool.blocked > async_pool.size)
      return NULL;
    async_pool.idle++;
    pthread_cond_wait(&async_pool.work, &async_pool.lock);
    async_pool.idle--;
  }
}

static void *async_worker_main(void *arg) {
  async_is_worker = true;
  pthread_mutex_lock(&async_pool.lock);
  struct async_task *t;
  while ((t = async_pool_take())) {
    async_pool.running++;
    pthread_mutex_unlock(&async_pool.lock);
    CoroResume resume = t->resume;
    void *handle = t->handle;
    free(t);
    resume(handle);
    pthread_mutex_lock(&async_pool.lock);
    async_pool.running--;
    if (async_pool.exiting)
      pthread_cond_broadcast(&async_pool.quiet);
  }
  async_pool.threads--;
  if (async_pool.exiting)
    pthread_cond_broadcast(&async_pool.quiet);
  pthread_mutex_unlock(&async_pool.lock);
  return NULL;
}

/* Lock held. Detached: nobody joins a worker, the exit handler waits for
 * the count of threads instead. Returns pthread_create's error. */
static int async_pool_start_thread(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  int err = pthread_create(&thread, &attr, async_worker_main, NULL);
  pthread_attr_destroy(&attr);
  if (err == 0)
    async_pool.threads++;
  return err;
}

/* Why queued work may not find a thread, for async_pool_report. */
struct async_pool_shortage {
  int err;         /* pthread_create's error; 0: none */
  bool stalled;    /* and no free thread is left to run the queue */
  int64_t threads; /* the counts then, for the message */
  int64_t blocked;
};

/* Lock held, after work was queued or a worker blocked: wakes an idle thread
 * for the work, or starts one if the queue holds more than the idle threads
 * will take and fewer than `size` threads are free. */
static struct async_pool_shortage async_pool_staff(void) {
  struct async_pool_shortage s = {0};
  if (async_pool.queued == 0)
    return s;
  if (async_pool.idle > 0)
    pthread_cond_signal(&async_pool.work);
  if (async_pool.queued > async_pool.idle &&
      async_pool.threads - async_pool.blocked < async_pool.size) {
    s.err = async_pool_start_thread();
    s.stalled = s.err != 0 && async_pool.threads - async_pool.blocked == 0;
    s.threads = async_pool.threads;
    s.blocked = async_pool.blocked;
  }
  return s;
}

/* Lock released. A thread that could not start is worth a warning while
 * others still run the queue, and fatal when none does. */
static void async_pool_report(struct async_pool_shortage s, const char *fn) {
  if (s.err == 0)
    return;
  if (s.stalled) {
    async_pool_abandon();
    rt_error("%s: cannot start a worker thread: %s (%lld threads, %lld blocked in an await)", fn,
             strerror(s.err), (long long)s.threads, (long long)s.blocked);
    abort();
  }
  if (!atomic_exchange(&async_pool_warned, true))
    rt_warning("%s: cannot start a worker thread: %s; the async runtime goes on with %lld", fn,
               strerror(s.err), (long long)s.threads);
}

void async_pool_submit(struct async_task *t) {
  pthread_once(&async_pool_once, async_pool_init);
  pthread_mutex_lock(&async_pool.lock);
  if (async_pool.stopping) {
    pthread_mutex_unlock(&async_pool.lock);
    CoroResume resume = t->resume;
    void *handle = t->handle;
    free(t);
    resume(handle);
    return;
  }
  t->next = NULL;
  if (async_pool.tail)
    async_pool.tail->next = t;
  else
    async_pool.head = t;
  async_pool.tail = t;
  async_pool.queued++;
  struct async_pool_shortage s = async_pool_staff();
  pthread_mutex_unlock(&async_pool.lock);
  async_pool_report(s, "mlirAsyncRuntimeExecute");
}

bool async_pool_block_begin(void) {
  if (!async_is_worker)
    return false;
  pthread_mutex_lock(&async_pool.lock);
  async_pool.blocked++;
  struct async_pool_shortage s = {0};
  if (!async_pool.stopping)
    s = async_pool_staff();
  pthread_mutex_unlock(&async_pool.lock);
  async_pool_report(s, "mlirAsyncRuntimeAwait");
  return true;
}

void async_pool_block_end(bool was_worker) {
  if (!was_worker)
    return;
  pthread_mutex_lock(&async_pool.lock);
  async_pool.blocked--;
  /* Idle threads beyond the size may leave now (async_pool_take). */
  if (async_pool.idle > 0 && async_pool.threads - async_pool.blocked > async_pool.size)
    pthread_cond_broadcast(&async_pool.work);
  pthread_mutex_unlock(&async_pool.lock);
}

static void async_pool_exit(void) {
  bool wait = !async_is_worker && !atomic_load(&async_pool_abandoned);
  pthread_mutex_lock(&async_pool.lock);
  async_pool.exiting = true;
  while (wait && (async_pool.head || async_pool.running > 0))
    pthread_cond_wait(&async_pool.quiet, &async_pool.lock);
  async_pool.stopping = true;
  pthread_cond_broadcast(&async_pool.work);
  while (wait && async_pool.threads > 0)
    pthread_cond_wait(&async_pool.quiet, &async_pool.lock);
  pthread_mutex_unlock(&async_pool.lock);
}

RT_EXPORT int64_t mlirAsyncRuntimGetNumWorkerThreads(void) {
  pthread_once(&async_pool_once, async_pool_init);
  return async_pool.size;
}
