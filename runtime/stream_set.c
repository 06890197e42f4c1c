/* stream_set.c: which handles are live streams.
 *
 * LLVM's gpu-to-llvm lowers a gpu.async.token to a stream or to an event,
 * and decides which by looking at the op that made it: a token made by
 * mgpuStreamCreate is a stream, anything else an event. A token carried
 * through a loop (scf.for iter_args, the usual way to chain launches)
 * reaches its users as a block argument, whose maker the lowering cannot
 * see, so a stream arrives at mgpuEventSynchronize, mgpuEventDestroy or
 * mgpuStreamWaitEvent. The runtime remembers the streams it created, and
 * those functions treat such a handle as the stream it is (synchronize it,
 * destroy it, wait for its work) instead of handing a stream to the
 * driver's event functions. A program makes few streams: a locked list. */
#include "rt.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t rt_streams_lock = PTHREAD_MUTEX_INITIALIZER;
static void **rt_streams;
static size_t rt_nstreams, rt_streams_cap;

void rt_stream_set_add(void *stream) {
  pthread_mutex_lock(&rt_streams_lock);
  if (rt_nstreams == rt_streams_cap) {
    size_t cap = rt_streams_cap ? 2 * rt_streams_cap : 16;
    void **grown = realloc(rt_streams, cap * sizeof *grown);
    if (grown) {
      rt_streams = grown;
      rt_streams_cap = cap;
    }
  }
  /* Out of memory: the stream works, only a lost token is not recognized. */
  if (rt_nstreams < rt_streams_cap)
    rt_streams[rt_nstreams++] = stream;
  pthread_mutex_unlock(&rt_streams_lock);
}

void rt_stream_set_remove(void *stream) {
  pthread_mutex_lock(&rt_streams_lock);
  for (size_t i = 0; i < rt_nstreams; i++)
    if (rt_streams[i] == stream) {
      rt_streams[i] = rt_streams[--rt_nstreams];
      break;
    }
  pthread_mutex_unlock(&rt_streams_lock);
}

int rt_stream_set_has(void *handle) {
  if (!handle)
    return 0;
  pthread_mutex_lock(&rt_streams_lock);
  int found = 0;
  for (size_t i = 0; i < rt_nstreams && !found; i++)
    found = rt_streams[i] == handle;
  pthread_mutex_unlock(&rt_streams_lock);
  return found;
}
