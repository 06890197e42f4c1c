/* registry.c: see registry.h. */
#include "registry.h"

#include <pthread.h>

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

int rt_modules_each_image(int (*fn)(const struct rt_registered *r, void *ud), void *ud) {
  int rc = 0;
  pthread_mutex_lock(&lock);
  for (struct rt_registered *r = first; r && rc == 0; r = r->next)
    rc = fn(r, ud);
  pthread_mutex_unlock(&lock);
  return rc;
}
