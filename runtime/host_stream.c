/* host_stream.c: streams and events of the host backend; see host_stream.h.
 *
 * One lock guards every queue, counter and reference here: streams hold a
 * few operations each and the operations themselves (kernels, copies) run
 * outside it, so it is taken a handful of times per operation.
 *
 * Each stream counts the operations queued on it (submitted) and those that
 * have run (completed); an event is a (stream, count) pair, complete once
 * the stream's completed count reaches it. A stream that gets work while it
 * has none becomes active and joins the ready list; each time, one idle
 * server is woken, or a new one started, so that every ready stream has a
 * thread of its own coming: that is what lets two kernels that wait for each
 * other finish. While only one stream has work nothing can wait for another
 * one, so its server is not called yet (most programs: launch, then
 * synchronize): the thread that synchronizes it runs its work, with no
 * thread start and no hand-off; the moment a second stream gets work,
 * servers are called for every stream waiting. A server (or a thread
 * synchronizing the stream, which takes it off the ready list first) runs
 * the stream's operations until none are left. A wait for an event blocks
 * that thread only.
 *
 * Streams are reference counted: the handle, each event recorded on the
 * stream, each queued wait for such an event, and the stream's own activity
 * hold one; the last release frees it. */
#include "host_stream.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rt_host_stream {
  struct rt_host_op *head, *tail;
  unsigned long submitted, completed;
  unsigned refs;
  int active;   /* has work, and a thread serving it or coming */
  int in_ready; /* waiting for that thread */
  int deferred; /* in_ready, but no server called yet (see enqueue) */
  struct rt_host_stream *next_ready;
  int has_error;
  char error[512];
};

struct rt_host_event {
  struct rt_host_stream *stream; /* NULL: complete */
  unsigned long seq;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t progress = PTHREAD_COND_INITIALIZER; /* an operation ran */
static pthread_cond_t serve = PTHREAD_COND_INITIALIZER;    /* a server is wanted */
static struct rt_host_stream *ready_head, *ready_tail;
static unsigned idle_servers; /* waiting on `serve`, not yet called */
static unsigned calls;        /* servers called and not yet awake */
static unsigned active_streams;

static void release_locked(struct rt_host_stream *s) {
  if (--s->refs == 0)
    free(s);
}

static int complete_locked(const struct rt_host_stream *s, unsigned long seq) {
  return s->completed >= seq;
}

static struct rt_host_stream *pop_ready_locked(void) {
  struct rt_host_stream *s = ready_head;
  if (s) {
    ready_head = s->next_ready;
    if (!ready_head)
      ready_tail = NULL;
    s->in_ready = 0;
    s->deferred = 0;
    s->next_ready = NULL;
  }
  return s;
}

/* Takes s off the ready list, if it is there. Returns whether it was. */
static int unready_locked(struct rt_host_stream *s) {
  if (!s->in_ready)
    return 0;
  struct rt_host_stream *prev = NULL;
  for (struct rt_host_stream *p = ready_head; p != s; p = p->next_ready)
    prev = p;
  if (prev)
    prev->next_ready = s->next_ready;
  else
    ready_head = s->next_ready;
  if (ready_tail == s)
    ready_tail = prev;
  s->in_ready = 0;
  s->deferred = 0; /* its server is not needed any more */
  s->next_ready = NULL;
  return 1;
}

/* Runs s's operations until none are left, then makes it inactive. Called
 * with the lock held, by the one thread that took s off the ready list. */
static void run_stream_locked(struct rt_host_stream *s) {
  struct rt_host_op *op;
  while ((op = s->head) != NULL) {
    int rc = 0;
    char err[512];
    if (op->wait_for) {
      while (!complete_locked(op->wait_for, op->wait_seq))
        pthread_cond_wait(&progress, &lock);
      release_locked(op->wait_for);
    } else {
      pthread_mutex_unlock(&lock);
      rc = op->run(op, err, sizeof err);
      pthread_mutex_lock(&lock);
    }
    s->head = op->next;
    if (!s->head)
      s->tail = NULL;
    if (rc != 0 && !s->has_error) {
      s->has_error = 1;
      snprintf(s->error, sizeof s->error, "%s", err);
    }
    s->completed++;
    free(op);
    pthread_cond_broadcast(&progress);
  }
  s->active = 0;
  active_streams--;
  release_locked(s);
  pthread_cond_broadcast(&progress);
}

static void *server_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  for (;;) {
    struct rt_host_stream *s;
    while ((s = pop_ready_locked()) != NULL)
      run_stream_locked(s);
    idle_servers++;
    while (calls == 0)
      pthread_cond_wait(&serve, &lock);
    calls--;
  }
  return NULL;
}

/* A stream joined the ready list: make sure a thread comes for it. When no
 * server can be started, the stream still runs when someone synchronizes
 * it, only without overlapping other streams. */
static void call_server_locked(void) {
  if (idle_servers > 0) {
    idle_servers--;
    calls++;
    pthread_cond_signal(&serve);
    return;
  }
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &attr, server_main, NULL);
  pthread_attr_destroy(&attr);
}

struct rt_host_stream *rt_host_stream_create(void) {
  struct rt_host_stream *s = calloc(1, sizeof *s);
  if (s)
    s->refs = 1;
  return s;
}

void rt_host_stream_enqueue(struct rt_host_stream *s, struct rt_host_op *op) {
  op->next = NULL;
  pthread_mutex_lock(&lock);
  if (s->tail)
    s->tail->next = op;
  else
    s->head = op;
  s->tail = op;
  s->submitted++;
  if (!s->active) {
    s->active = 1;
    s->refs++;
    active_streams++;
    s->in_ready = 1;
    if (ready_tail)
      ready_tail->next_ready = s;
    else
      ready_head = s;
    ready_tail = s;
    if (active_streams == 1) {
      s->deferred = 1;
    } else {
      for (struct rt_host_stream *r = ready_head; r; r = r->next_ready)
        if (r->deferred) {
          r->deferred = 0;
          call_server_locked();
        }
      call_server_locked();
    }
  }
  pthread_mutex_unlock(&lock);
}

int rt_host_stream_idle(struct rt_host_stream *s) {
  pthread_mutex_lock(&lock);
  int idle = !s->active && s->completed == s->submitted;
  pthread_mutex_unlock(&lock);
  return idle;
}

/* Waits until s has completed seq operations, running them here if no
 * thread has started on them yet. */
static void wait_locked(struct rt_host_stream *s, unsigned long seq) {
  if (!complete_locked(s, seq) && unready_locked(s))
    run_stream_locked(s);
  while (!complete_locked(s, seq))
    pthread_cond_wait(&progress, &lock);
}

int rt_host_stream_synchronize(struct rt_host_stream *s, char *err, size_t errlen) {
  pthread_mutex_lock(&lock);
  wait_locked(s, s->submitted);
  int rc = 0;
  if (s->has_error) {
    snprintf(err, errlen, "%s", s->error);
    s->has_error = 0;
    rc = -1;
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

int rt_host_stream_destroy(struct rt_host_stream *s, char *err, size_t errlen) {
  int rc = rt_host_stream_synchronize(s, err, errlen);
  pthread_mutex_lock(&lock);
  release_locked(s);
  pthread_mutex_unlock(&lock);
  return rc;
}

struct rt_host_event *rt_host_event_create(void) { return calloc(1, sizeof(struct rt_host_event)); }

void rt_host_event_destroy(struct rt_host_event *e) {
  pthread_mutex_lock(&lock);
  if (e->stream)
    release_locked(e->stream);
  pthread_mutex_unlock(&lock);
  free(e);
}

void rt_host_event_record(struct rt_host_event *e, struct rt_host_stream *s) {
  pthread_mutex_lock(&lock);
  if (e->stream)
    release_locked(e->stream);
  e->stream = s;
  if (s) {
    s->refs++;
    e->seq = s->submitted;
  }
  pthread_mutex_unlock(&lock);
}

void rt_host_event_synchronize(struct rt_host_event *e) {
  pthread_mutex_lock(&lock);
  if (e->stream)
    wait_locked(e->stream, e->seq);
  pthread_mutex_unlock(&lock);
}

int rt_host_stream_wait_event(struct rt_host_stream *s, struct rt_host_event *e) {
  if (!s) {
    rt_host_event_synchronize(e);
    return 0;
  }
  pthread_mutex_lock(&lock);
  struct rt_host_stream *of = e->stream;
  unsigned long seq = e->seq;
  if (!of || complete_locked(of, seq)) {
    pthread_mutex_unlock(&lock);
    return 0;
  }
  of->refs++; /* the wait's own reference: the event may be destroyed first */
  pthread_mutex_unlock(&lock);
  struct rt_host_op *op = calloc(1, sizeof *op);
  if (!op) {
    pthread_mutex_lock(&lock);
    release_locked(of);
    pthread_mutex_unlock(&lock);
    return -1;
  }
  op->wait_for = of;
  op->wait_seq = seq;
  rt_host_stream_enqueue(s, op);
  return 0;
}

void rt_host_streams_drain(void) {
  pthread_mutex_lock(&lock);
  while (active_streams > 0) {
    struct rt_host_stream *s = pop_ready_locked();
    if (s)
      run_stream_locked(s);
    else
      pthread_cond_wait(&progress, &lock);
  }
  pthread_mutex_unlock(&lock);
}
