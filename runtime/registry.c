/* registry.c: see registry.h; rt_modules_each_image and
 * rt_modules_describe_targets are declared in rt.h. */
#include "registry.h"

#include "image.h"
#include "rt.h"
#include "select.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_registered *first, *last;

void rt_registry_add(struct rt_registered *r) {
  pthread_mutex_lock(&lock);
  r->prev = last;
  r->next = NULL;
  if (last)
    last->next = r;
  else
    first = r;
  last = r;
  pthread_mutex_unlock(&lock);
}

void rt_registry_remove(struct rt_registered *r) {
  pthread_mutex_lock(&lock);
  if (r->prev)
    r->prev->next = r->next;
  else
    first = r->next;
  if (r->next)
    r->next->prev = r->prev;
  else
    last = r->prev;
  pthread_mutex_unlock(&lock);
}

int rt_modules_each_image(int (*fn)(const void *image, size_t size, void *ud), void *ud) {
  int rc = 0;
  pthread_mutex_lock(&lock);
  for (struct rt_registered *r = first; r && rc == 0; r = r->next)
    rc = fn(r->image, r->size, ud);
  pthread_mutex_unlock(&lock);
  return rc;
}

void rt_modules_describe_targets(char *buf, size_t len) {
  struct fatbin **open = NULL;
  struct fatbin_entry *all = NULL;
  size_t nopen = 0, nall = 0;
  char plain[256] = "";

  pthread_mutex_lock(&lock);
  for (struct rt_registered *m = first; m; m = m->next) {
    if (m->jit) {
      rt_appendf(plain, sizeof plain, " %s", rt_image_text_name());
      continue;
    }
    struct rt_image im = rt_image_classify(m->image, m->size);
    if (im.kind != RT_IMAGE_GPUCC) {
      rt_appendf(plain, sizeof plain, " %s", rt_image_name(&im));
      continue;
    }
    struct fatbin *fb;
    char err[256];
    if (fatbin_open(m->image, m->size, &fb, err, sizeof err) != 0)
      continue;
    size_t n = fatbin_count(fb);
    struct fatbin **o = realloc(open, (nopen + 1) * sizeof *o);
    struct fatbin_entry *a = o ? realloc(all, (nall + n + 1) * sizeof *a) : NULL;
    if (o)
      open = o;
    if (!a) {
      fatbin_close(fb);
      break;
    }
    all = a;
    open[nopen++] = fb;
    for (size_t i = 0; i < n; i++)
      all[nall++] = *fatbin_get(fb, i);
  }
  pthread_mutex_unlock(&lock);

  rt_describe_targets(all, nall, buf, len);
  if (plain[0])
    rt_appendf(buf, len, "%s(plain%s)", buf[0] ? " " : "", plain);
  for (size_t i = 0; i < nopen; i++)
    fatbin_close(open[i]);
  free(open);
  free(all);
}
