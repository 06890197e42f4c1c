/* loaded_targets.c: rt_modules_describe_targets (rt.h), the "this program
 * carries code for ..." of init.c's "no GPU found" message. Apart from
 * registry.c, which the backends walk when they probe, because naming a
 * plain image or the assembly a JIT takes asks every backend's rules
 * (image.c loops over the backend list): here it sits above the backends
 * rather than below them. */
#include <stdlib.h>

#include "image.h"
#include "registry.h"
#include "rt.h"
#include "select.h"

/* What the walk gathers: the fat binaries it opened (closed once their
 * entries are described), all their entries, and the names of the plain
 * images. */
struct loaded_targets {
  struct fatbin **open;
  struct fatbin_entry *all;
  size_t nopen, nall;
  char plain[256];
};

/* rt_modules_each_image's callback; non-zero (stop) when out of memory. */
static int gather_targets(const struct rt_registered *m, void *ud) {
  struct loaded_targets *t = ud;
  if (m->jit) {
    rt_appendf(t->plain, sizeof t->plain, " %s", rt_image_text_name());
    return 0;
  }
  if (m->im.kind != RT_IMAGE_GPUCC) {
    rt_appendf(t->plain, sizeof t->plain, " %s", rt_image_name(&m->im));
    return 0;
  }
  struct fatbin *fb;
  char err[256];
  if (fatbin_open(m->image, m->size, &fb, err, sizeof err) != 0)
    return 0;
  size_t n = fatbin_count(fb);
  struct fatbin **o = realloc(t->open, (t->nopen + 1) * sizeof *o);
  struct fatbin_entry *a = o ? realloc(t->all, (t->nall + n + 1) * sizeof *a) : NULL;
  if (o)
    t->open = o;
  if (!a) {
    fatbin_close(fb);
    return 1;
  }
  t->all = a;
  t->open[t->nopen++] = fb;
  for (size_t i = 0; i < n; i++)
    t->all[t->nall++] = *fatbin_get(fb, i);
  return 0;
}

void rt_modules_describe_targets(char *buf, size_t len) {
  struct loaded_targets t = {NULL, NULL, 0, 0, ""};
  rt_modules_each_image(gather_targets, &t);

  rt_describe_targets(t.all, t.nall, buf, len);
  if (t.plain[0])
    rt_appendf(buf, len, "%s(plain%s)", buf[0] ? " " : "", t.plain);
  for (size_t i = 0; i < t.nopen; i++)
    fatbin_close(t.open[i]);
  free(t.open);
  free(t.all);
}
