/* host_stream.h: streams and events of the host backend.
 *
 * A stream is an ordered queue of operations. Queuing returns at once; the
 * operations run one after another, in order, on a thread that serves the
 * stream while it has work: a server thread (started on demand, kept for
 * later streams), or the thread that synchronizes the stream when no server
 * has started it yet (which saves a thread switch for the usual launch,
 * synchronize sequence). Two streams with work always run on two threads,
 * so kernels of different streams run at the same time and may wait for
 * each other, as on a GPU.
 *
 * An event marks a point in one stream's queue (the operations queued before
 * the record). Waiting for an event, from the host or from another stream,
 * waits for those operations only; an event never recorded is complete.
 *
 * The NULL stream is not one of these: backend_host.c runs its operations
 * in the calling thread before returning, which keeps its ordering with the
 * program's own code.
 *
 * Every function may be called from any thread. Errors of queued operations
 * (a kernel's failed assertion) are kept by their stream, the first one
 * only, and returned by the next rt_host_stream_synchronize or destroy. */
#ifndef GPUCC_RT_HOST_STREAM_H
#define GPUCC_RT_HOST_STREAM_H

#include <stddef.h>

struct rt_host_stream;
struct rt_host_event;

/* One queued operation, allocated by the caller as the head of a larger
 * struct (one malloc; the stream free()s it after running it). run returns
 * 0, or -1 with a message in err. */
struct rt_host_op {
  struct rt_host_op *next; /* the stream's */
  int (*run)(struct rt_host_op *op, char *err, size_t errlen);
  /* internal: set for the waits rt_host_stream_wait_event queues */
  struct rt_host_stream *wait_for;
  unsigned long wait_seq;
};

/* NULL when out of memory. */
struct rt_host_stream *rt_host_stream_create(void);
/* Waits for the stream's operations, then releases it (events recorded on
 * it stay valid). Returns 0, or -1 with the stream's first error in err. */
int rt_host_stream_destroy(struct rt_host_stream *s, char *err, size_t errlen);
/* Waits for every operation queued so far. Returns 0, or -1 with the first
 * error since the last report. */
int rt_host_stream_synchronize(struct rt_host_stream *s, char *err, size_t errlen);
/* Queues op (owned by the stream from now on) and returns at once. */
void rt_host_stream_enqueue(struct rt_host_stream *s, struct rt_host_op *op);
/* Whether s has nothing queued or running: an operation given to it now
 * may run at once, in the calling thread. */
int rt_host_stream_idle(struct rt_host_stream *s);
/* Makes the stream's later operations wait for what e marks now; with s
 * NULL, waits in the calling thread. Returns 0, or -1 when out of memory. */
int rt_host_stream_wait_event(struct rt_host_stream *s, struct rt_host_event *e);

/* NULL when out of memory. */
struct rt_host_event *rt_host_event_create(void);
void rt_host_event_destroy(struct rt_host_event *e);
/* Marks the operations queued on s so far (s NULL: none are left, the event
 * is complete). */
void rt_host_event_record(struct rt_host_event *e, struct rt_host_stream *s);
/* Waits until the operations e marks have run. */
void rt_host_event_synchronize(struct rt_host_event *e);

/* Waits until no stream has work left: before memory is freed or a module
 * unloaded, which queued kernels may still use. */
void rt_host_streams_drain(void);

#endif
