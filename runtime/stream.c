/* stream.c: the mgpu stream and event functions.
 *
 * Thin: start the backend if needed, forward, report a failure. Destroying a
 * NULL handle (left behind by a failure a handler chose to survive) does
 * nothing. Synchronizations are where errors of earlier asynchronous work,
 * kernels first, come to light: their messages say so. A stream handed to
 * an event function (a token lowered without knowing its maker, see
 * stream_set.c) is treated as the stream it is. */
#include "rt.h"

static const char rt_async_hint[] =
    "(this reports errors of work queued earlier, such as a kernel)";

static void rt_report(const char *fn, const struct rt_backend *b, int rc,
                      const struct rt_err *e, const char *context) {
  if (rc != 0)
    rt_error_failure(fn, b, e, context);
}

RT_EXPORT void *mgpuStreamCreate(void) {
  static const char fn[] = "mgpuStreamCreate";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  void *stream = NULL;
  struct rt_err e;
  if (b->stream_create(&stream, &e) != 0) {
    rt_error_failure(fn, b, &e, NULL);
    return NULL;
  }
  rt_stream_set_add(stream);
  return stream;
}

RT_EXPORT void mgpuStreamDestroy(void *stream) {
  static const char fn[] = "mgpuStreamDestroy";
  if (!stream)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  rt_stream_set_remove(stream);
  struct rt_err e;
  rt_report(fn, b, b->stream_destroy(stream, &e), &e, NULL);
}

RT_EXPORT void mgpuStreamSynchronize(void *stream) {
  static const char fn[] = "mgpuStreamSynchronize";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  rt_report(fn, b, b->stream_synchronize(stream, &e), &e, rt_async_hint);
}

/* `stream` waits for the work queued so far on `other`, through an event. */
static int rt_wait_stream(const struct rt_backend *b, void *stream, void *other,
                          struct rt_err *e) {
  void *event = NULL;
  if (b->event_create(&event, e) != 0)
    return -1;
  int rc = b->event_record(event, other, e) != 0 || b->stream_wait_event(stream, event, e) != 0;
  struct rt_err ignored;
  b->event_destroy(event, &ignored);
  return rc ? -1 : 0;
}

RT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  static const char fn[] = "mgpuStreamWaitEvent";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (rt_stream_set_has(event))
    rt_report(fn, b, rt_wait_stream(b, stream, event, &e), &e, NULL);
  else
    rt_report(fn, b, b->stream_wait_event(stream, event, &e), &e, NULL);
}

RT_EXPORT void *mgpuEventCreate(void) {
  static const char fn[] = "mgpuEventCreate";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  void *event = NULL;
  struct rt_err e;
  if (b->event_create(&event, &e) != 0) {
    rt_error_failure(fn, b, &e, NULL);
    return NULL;
  }
  return event;
}

RT_EXPORT void mgpuEventDestroy(void *event) {
  static const char fn[] = "mgpuEventDestroy";
  if (!event)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (rt_stream_set_has(event)) {
    rt_stream_set_remove(event);
    rt_report(fn, b, b->stream_destroy(event, &e), &e, NULL);
    return;
  }
  rt_report(fn, b, b->event_destroy(event, &e), &e, NULL);
}

RT_EXPORT void mgpuEventSynchronize(void *event) {
  static const char fn[] = "mgpuEventSynchronize";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (rt_stream_set_has(event))
    rt_report(fn, b, b->stream_synchronize(event, &e), &e, rt_async_hint);
  else
    rt_report(fn, b, b->event_synchronize(event, &e), &e, rt_async_hint);
}

RT_EXPORT void mgpuEventRecord(void *event, void *stream) {
  static const char fn[] = "mgpuEventRecord";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  rt_report(fn, b, b->event_record(event, stream, &e), &e, NULL);
}
