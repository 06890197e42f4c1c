/* vulkan_stream.c: streams and events on one Vulkan queue.
 *
 * A stream is a command pool and a timeline semaphore. Each operation
 * queued on it (a copy, a fill, a launch) is one command buffer, submitted
 * at once, waiting for the semaphore's value of the operation before it and
 * signalling the next value: so a stream's operations run in order, and
 * different streams' may overlap. Submitting at once keeps the ordering
 * simple and lets the device start immediately; a command buffer is
 * reused once the semaphore has passed its value. Each one ends with a
 * barrier that makes its writes visible to the host, since the program
 * reads gpu.alloc memory through copies that may go through the mapping.
 *
 * An event is a (semaphore, value) pair: recording takes the stream's last
 * value; waiting for it is a submission that waits for that value too;
 * synchronizing is vkWaitSemaphores. A semaphore is shared by its stream
 * and the events recorded on it, counted, so either may be destroyed first.
 *
 * The NULL stream is a stream of its own, made at first use, whose
 * operations complete before they return (as on the host backend). */
#include <stdatomic.h>
#include <stdlib.h>

#include "kernel_fault.h"
#include "vulkan_rt.h"

struct vk_timeline {
  VkSemaphore semaphore;
  atomic_int refs;
};

/* A submitted command buffer and what it keeps alive. */
struct vk_inflight {
  VkCommandBuffer cb;
  uint64_t value; /* done when the semaphore reaches it */
  struct vk_staging keep;
  int has_keep;
  struct vk_timeline *hold; /* another stream's semaphore it waits on, or NULL */
  struct vk_inflight *next;
};

struct vk_stream {
  pthread_mutex_t lock;
  VkCommandPool pool;
  struct vk_timeline *timeline;
  uint64_t last;              /* value of the last submission */
  struct vk_inflight *busy;   /* oldest first */
  struct vk_inflight *spare;  /* done: their command buffers are reused */
};

struct vk_event {
  pthread_mutex_t lock;
  struct vk_timeline *timeline; /* NULL until recorded */
  uint64_t value;
};

static struct vk_stream *vk_default;
static pthread_once_t vk_default_once = PTHREAD_ONCE_INIT;
static VkResult vk_default_result = VK_SUCCESS;

static void vk_timeline_drop(struct vk_timeline *t) {
  if (t && atomic_fetch_sub(&t->refs, 1) == 1) {
    vk.vkDestroySemaphore(vkd.device, t->semaphore, NULL);
    free(t);
  }
}

static VkResult vk_stream_new(struct vk_stream **out) {
  struct vk_stream *s = calloc(1, sizeof *s);
  struct vk_timeline *t = calloc(1, sizeof *t);
  if (!s || !t) {
    free(s);
    free(t);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                    .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
  VkSemaphoreCreateInfo sem = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
  VkResult r = vk.vkCreateSemaphore(vkd.device, &sem, NULL, &t->semaphore);
  if (r != VK_SUCCESS) {
    free(s);
    free(t);
    return r;
  }
  VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT};
  r = vk.vkCreateCommandPool(vkd.device, &pool, NULL, &s->pool);
  if (r != VK_SUCCESS) {
    vk.vkDestroySemaphore(vkd.device, t->semaphore, NULL);
    free(s);
    free(t);
    return r;
  }
  atomic_init(&t->refs, 1);
  s->timeline = t;
  pthread_mutex_init(&s->lock, NULL);
  *out = s;
  return VK_SUCCESS;
}

static void vk_make_default(void) { vk_default_result = vk_stream_new(&vk_default); }

static struct vk_stream *vk_stream_of(void *stream, struct rt_err *e) {
  if (stream)
    return stream;
  pthread_once(&vk_default_once, vk_make_default);
  if (vk_default_result != VK_SUCCESS) {
    vk_fail(e, "vkCreateSemaphore", vk_default_result);
    return NULL;
  }
  return vk_default;
}

/* Moves what has run to the spare list (s locked). */
static void vk_reclaim(struct vk_stream *s) {
  uint64_t done = 0;
  if (!s->busy || vk.vkGetSemaphoreCounterValue(vkd.device, s->timeline->semaphore, &done) !=
                      VK_SUCCESS)
    return;
  while (s->busy && s->busy->value <= done) {
    struct vk_inflight *f = s->busy;
    s->busy = f->next;
    if (f->has_keep)
      vk_staging_free(&f->keep);
    vk_timeline_drop(f->hold);
    if (!f->cb) { /* a wait for an event: nothing to reuse */
      free(f);
      continue;
    }
    f->has_keep = 0;
    f->hold = NULL;
    f->next = s->spare;
    s->spare = f;
  }
}

/* Appends f, submitted as the stream's last value (s locked). */
static void vk_track(struct vk_stream *s, struct vk_inflight *f) {
  f->value = s->last;
  f->next = NULL;
  struct vk_inflight **tail = &s->busy;
  while (*tail)
    tail = &(*tail)->next;
  *tail = f;
}

int vk_op_begin(void *stream, struct vk_op *op, struct rt_err *e) {
  struct vk_stream *s = vk_stream_of(stream, e);
  if (!s)
    return -1;
  pthread_mutex_lock(&s->lock);
  vk_reclaim(s);
  VkCommandBuffer cb = s->spare ? s->spare->cb : NULL;
  VkResult r = VK_SUCCESS;
  if (!cb) {
    VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = s->pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
    r = vk.vkAllocateCommandBuffers(vkd.device, &info, &cb);
    if (r != VK_SUCCESS) {
      pthread_mutex_unlock(&s->lock);
      return vk_fail(e, "vkAllocateCommandBuffers", r);
    }
  }
  VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  if ((r = vk.vkBeginCommandBuffer(cb, &begin)) != VK_SUCCESS) {
    if (!s->spare)
      vk.vkFreeCommandBuffers(vkd.device, s->pool, 1, &cb);
    pthread_mutex_unlock(&s->lock);
    return vk_fail(e, "vkBeginCommandBuffer", r);
  }
  *op = (struct vk_op){s, cb, stream == NULL};
  return 0;
}

void vk_op_abort(struct vk_op *op) {
  struct vk_stream *s = op->stream;
  /* Recording or ended, never submitted: a reset is valid in both states. */
  vk.vkResetCommandBuffer(op->cb, 0);
  if (!s->spare || s->spare->cb != op->cb)
    vk.vkFreeCommandBuffers(vkd.device, s->pool, 1, &op->cb);
  pthread_mutex_unlock(&s->lock);
}

/* Submits cbs (0 or 1) after the stream's last value and, if wait_sem is
 * set, after wait_value of it; signals the next value (s locked). */
static VkResult vk_submit(struct vk_stream *s, VkCommandBuffer *cb, uint32_t ncb,
                          VkSemaphore wait_sem, uint64_t wait_value) {
  VkSemaphore waits[2] = {s->timeline->semaphore, wait_sem};
  uint64_t wait_values[2] = {s->last, wait_value};
  VkPipelineStageFlags stages[2] = {VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                                    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT};
  uint64_t signal = s->last + 1;
  VkTimelineSemaphoreSubmitInfo values = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait_sem ? 2 : 1,
      .pWaitSemaphoreValues = wait_values,
      .signalSemaphoreValueCount = 1,
      .pSignalSemaphoreValues = &signal};
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .pNext = &values,
                         .waitSemaphoreCount = wait_sem ? 2 : 1,
                         .pWaitSemaphores = waits,
                         .pWaitDstStageMask = stages,
                         .commandBufferCount = ncb,
                         .pCommandBuffers = cb,
                         .signalSemaphoreCount = 1,
                         .pSignalSemaphores = &s->timeline->semaphore};
  pthread_mutex_lock(&vkd.queue_lock);
  VkResult r = vk.vkQueueSubmit(vkd.queue, 1, &submit, VK_NULL_HANDLE);
  pthread_mutex_unlock(&vkd.queue_lock);
  if (r == VK_SUCCESS)
    s->last = signal;
  return r;
}

static int vk_wait_value(struct vk_timeline *t, uint64_t value, struct rt_err *e) {
  VkSemaphoreWaitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                              .semaphoreCount = 1,
                              .pSemaphores = &t->semaphore,
                              .pValues = &value};
  VkResult r = vk.vkWaitSemaphores(vkd.device, &wait, UINT64_MAX);
  return r == VK_SUCCESS ? 0 : vk_fail(e, "vkWaitSemaphores", r);
}

int vk_op_end(struct vk_op *op, struct vk_staging *keep, struct rt_err *e) {
  struct vk_stream *s = op->stream;
  /* The operation's writes, made visible to the host's reads of the
   * mapping (and to whatever runs next). */
  VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                                              VK_ACCESS_TRANSFER_WRITE_BIT,
                             .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT};
  vk.vkCmdPipelineBarrier(op->cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, NULL, 0, NULL);
  VkResult r = vk.vkEndCommandBuffer(op->cb);
  if (r != VK_SUCCESS) {
    vk_op_abort(op);
    return vk_fail(e, "vkEndCommandBuffer", r);
  }
  r = vk_submit(s, &op->cb, 1, VK_NULL_HANDLE, 0);
  if (r != VK_SUCCESS) {
    vk_op_abort(op);
    return vk_fail(e, "vkQueueSubmit", r);
  }
  struct vk_inflight *f = s->spare && s->spare->cb == op->cb ? s->spare : NULL;
  if (f)
    s->spare = f->next;
  else if (!(f = calloc(1, sizeof *f))) {
    /* Cannot track it: wait, so that nothing it uses goes away under it. */
    vk_wait_value(s->timeline, s->last, e);
    if (keep)
      vk_staging_free(keep);
    vk.vkFreeCommandBuffers(vkd.device, s->pool, 1, &op->cb);
    pthread_mutex_unlock(&s->lock);
    return 0;
  }
  f->cb = op->cb;
  f->has_keep = keep != NULL;
  if (keep)
    f->keep = *keep;
  vk_track(s, f);
  uint64_t value = s->last;
  pthread_mutex_unlock(&s->lock);
  return op->sync ? vk_wait_value(s->timeline, value, e) : 0;
}

int vk_stream_wait(void *stream, struct rt_err *e) {
  struct vk_stream *s = vk_stream_of(stream, e);
  if (!s)
    return -1;
  pthread_mutex_lock(&s->lock);
  uint64_t value = s->last;
  pthread_mutex_unlock(&s->lock);
  if (vk_wait_value(s->timeline, value, e) != 0)
    return rt_fault_report(stream, RT_FAULT_UNSPECIFIED) ? 0 : -1;
  return 0;
}

int vk_wait_idle(struct rt_err *e) {
  pthread_mutex_lock(&vkd.queue_lock);
  VkResult r = vk.vkQueueWaitIdle(vkd.queue);
  pthread_mutex_unlock(&vkd.queue_lock);
  return r == VK_SUCCESS ? 0 : vk_fail(e, "vkQueueWaitIdle", r);
}

int vk_stream_create(void **stream, struct rt_err *e) {
  struct vk_stream *s;
  VkResult r = vk_stream_new(&s);
  if (r != VK_SUCCESS)
    return vk_fail(e, "vkCreateSemaphore", r);
  *stream = s;
  return 0;
}

int vk_stream_destroy(void *stream, struct rt_err *e) {
  struct vk_stream *s = stream;
  /* Its work still runs (as on CUDA, destroying does not wait for the
   * program); the pool and its command buffers must outlive it. */
  int rc = vk_stream_wait(s, e);
  rt_fault_forget(stream);
  for (struct vk_inflight *f = s->busy, *next; f; f = next) {
    next = f->next;
    if (f->has_keep)
      vk_staging_free(&f->keep);
    vk_timeline_drop(f->hold);
    free(f);
  }
  for (struct vk_inflight *f = s->spare, *next; f; f = next) {
    next = f->next;
    free(f);
  }
  vk.vkDestroyCommandPool(vkd.device, s->pool, NULL);
  vk_timeline_drop(s->timeline);
  pthread_mutex_destroy(&s->lock);
  free(s);
  return rc;
}

int vk_stream_synchronize(void *stream, struct rt_err *e) { return vk_stream_wait(stream, e); }

int vk_event_create(void **event, struct rt_err *e) {
  struct vk_event *ev = calloc(1, sizeof *ev);
  if (!ev)
    return rt_fail_msg(e, "out of memory");
  pthread_mutex_init(&ev->lock, NULL);
  *event = ev;
  return 0;
}

int vk_event_destroy(void *event, struct rt_err *e) {
  struct vk_event *ev = event;
  (void)e;
  rt_fault_forget(event);
  vk_timeline_drop(ev->timeline);
  pthread_mutex_destroy(&ev->lock);
  free(ev);
  return 0;
}

int vk_event_record(void *event, void *stream, struct rt_err *e) {
  struct vk_event *ev = event;
  struct vk_stream *s = vk_stream_of(stream, e);
  if (!s)
    return -1;
  rt_fault_note_record(event, stream);
  pthread_mutex_lock(&s->lock);
  struct vk_timeline *t = s->timeline;
  atomic_fetch_add(&t->refs, 1);
  uint64_t value = s->last;
  pthread_mutex_unlock(&s->lock);
  pthread_mutex_lock(&ev->lock);
  struct vk_timeline *old = ev->timeline;
  ev->timeline = t;
  ev->value = value;
  pthread_mutex_unlock(&ev->lock);
  vk_timeline_drop(old);
  return 0;
}

/* The event's (semaphore, value) with a reference held; NULL timeline when
 * never recorded (complete). */
static struct vk_timeline *vk_event_point(struct vk_event *ev, uint64_t *value) {
  pthread_mutex_lock(&ev->lock);
  struct vk_timeline *t = ev->timeline;
  if (t)
    atomic_fetch_add(&t->refs, 1);
  *value = ev->value;
  pthread_mutex_unlock(&ev->lock);
  return t;
}

int vk_event_synchronize(void *event, struct rt_err *e) {
  uint64_t value;
  struct vk_timeline *t = vk_event_point(event, &value);
  if (!t)
    return 0;
  int rc = vk_wait_value(t, value, e);
  vk_timeline_drop(t);
  if (rc != 0 && rt_fault_report(event, RT_FAULT_UNSPECIFIED))
    return 0;
  return rc;
}

int vk_stream_wait_event(void *stream, void *event, struct rt_err *e) {
  uint64_t value;
  struct vk_timeline *t = vk_event_point(event, &value);
  if (!t || value == 0) {
    vk_timeline_drop(t);
    return 0;
  }
  struct vk_stream *s = vk_stream_of(stream, e);
  struct vk_inflight *f = s ? calloc(1, sizeof *f) : NULL;
  if (!f) {
    vk_timeline_drop(t);
    return s ? rt_fail_msg(e, "out of memory") : -1;
  }
  pthread_mutex_lock(&s->lock);
  VkResult r = vk_submit(s, NULL, 0, t->semaphore, value);
  if (r == VK_SUCCESS) {
    /* The event's semaphore must outlive the submission that waits on it,
     * whoever destroys the event or its stream: the stream holds it until
     * it has passed this value. */
    f->hold = t;
    vk_track(s, f);
  }
  pthread_mutex_unlock(&s->lock);
  if (r != VK_SUCCESS) {
    free(f);
    vk_timeline_drop(t);
    return vk_fail(e, "vkQueueSubmit", r);
  }
  return 0;
}
