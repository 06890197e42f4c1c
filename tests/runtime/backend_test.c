/* backend_test.c: a test-only backend, with a vendor of its own
 * (test_vendor.h), to show that adding one is this file and a line in the
 * backend list (backend_test_list.c), with no change to the runtime's
 * shared code.
 *
 * Its device is "test2". Its objects are entries whose target is
 * "testN": one runs when N is at most the device's, the exact one best,
 * else the highest N. Its driver is a few lines of C, memory is malloc'ed,
 * and its objects are of two formats:
 *  - "testobj", the text "TESTOBJ:<target>" (made by hand in runtime
 *    tests): a launch prints that text and the kernel's name and grid on
 *    stderr;
 *  - "testso", a shared object from the compiler's test kind
 *    (tests/driver/dummy_target.c says its form): dlopen()ed from memory,
 *    a launch runs each thread of the grid in turn, its ids in the
 *    object's __gpucc_test_ctx table, through the kernel's entry
 *    __gpucc_test_entry_<kernel>(params), and says so on stderr.
 * It is linked only into a test build of the runtime (libgpucc_rt_testrow),
 * never shipped. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"
#include "test_vendor.h"

/* ---- its rules ----------------------------------------------------------- */

/* "test12" -> 12; -1 when t is not a test target. */
static int test_number(const char *t) {
  if (!t || strncmp(t, "test", 4) != 0 || !t[4])
    return -1;
  char *end;
  long n = strtol(t + 4, &end, 10);
  return *end || n < 0 || n > 1000 ? -1 : (int)n;
}

static struct rt_score test_score(const struct fatbin_entry *e, const struct rt_device *dev) {
  int n = test_number(e->target), d = test_number(dev->arch);
  if ((e->format != TEST_FORMAT && e->format != TEST_FORMAT_SO) || n < 0 || n > d)
    return (struct rt_score){0, 0, 0};
  return (struct rt_score){n == d ? 2 : 1, n, 0};
}

static void test_explain(const struct fatbin_entry *e, const struct rt_device *dev,
                         struct rt_score s, char *why, size_t len) {
  snprintf(why, len, "%s test %s: %s %s", e->target,
           e->format == TEST_FORMAT_SO ? "shared object" : "object",
           s.tier == 2 ? "exact match for" : "runs on", dev->arch);
}

/* A plain object of the test vendor: "TESTPLAIN" and text. */
static const struct rt_plain_image test_images[] = {
    {"test plain object", 0, "TESTPLAIN", 9, NULL, 0},
};

static const struct rt_selection test_selection = {
    .vendor = TEST_VENDOR,
    .vendor_label = "test",
    .score = test_score,
    .explain = test_explain,
    .images = test_images,
    .nimages = 1,
};

/* ---- its driver ---------------------------------------------------------- */

/* A module: the object's text, or a shared object loaded from memory. */
struct test_module {
  char *text;
  void *dl;
  int fd; /* kept open while loaded, as the host backend does */
};

struct test_function {
  const struct test_module *module;
  char name[128];
  void (*entry)(void **params); /* a shared object's */
  uint64_t *ctx;                /* its ids: local, group, local size, groups, global */
};

static int test_probe(int ordinal, struct rt_device *dev, char *why, size_t whylen) {
  if (ordinal != 0) {
    snprintf(why, whylen, "no device %d", ordinal);
    return -1;
  }
  memset(dev, 0, sizeof *dev);
  snprintf(dev->name, sizeof dev->name, "test device");
  snprintf(dev->arch, sizeof dev->arch, "test2");
  snprintf(dev->target_id, sizeof dev->target_id, "test2");
  return 0;
}

static const char *test_error_name(int code) { return code ? "TEST_ERROR" : "TEST_SUCCESS"; }
static const char *test_error_string(int code) { return code ? "test failure" : "no error"; }

/* dlopen() wants a file: a memfd is one, off the disk. */
static int test_load_shared(const void *image, size_t size, struct test_module *m,
                            struct rt_err *e) {
  m->fd = memfd_create("gpucc-test-kernels", MFD_CLOEXEC);
  if (m->fd < 0)
    return rt_fail_msg(e, "memfd_create failed: %s", strerror(errno));
  for (const char *p = image; size > 0;) {
    ssize_t w = write(m->fd, p, size);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return rt_fail_msg(e, "cannot write the test object to memory: %s", strerror(errno));
    p += w;
    size -= (size_t)w;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", m->fd);
  m->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  return m->dl ? 0 : rt_fail_msg(e, "cannot load the test object: %s", dlerror());
}

static int test_module_load(const void *image, size_t size, int text, void **module,
                            struct rt_err *e) {
  (void)text;
  struct test_module *m = calloc(1, sizeof *m);
  if (!m)
    return rt_fail_msg(e, "out of memory");
  m->fd = -1;
  int rc = 0;
  if (size >= 4 && memcmp(image, "\177ELF", 4) == 0)
    rc = test_load_shared(image, size, m, e);
  else if ((m->text = malloc(size + 1))) {
    memcpy(m->text, image, size);
    m->text[size] = '\0';
  } else
    rc = rt_fail_msg(e, "out of memory");
  if (rc != 0) {
    if (m->fd >= 0)
      close(m->fd);
    free(m);
    return rc;
  }
  *module = m;
  return 0;
}

static int test_module_unload(void *module, struct rt_err *e) {
  (void)e;
  struct test_module *m = module;
  if (m->dl)
    dlclose(m->dl);
  if (m->fd >= 0)
    close(m->fd);
  free(m->text);
  free(m);
  return 0;
}

static int test_module_function(void *module, const char *name, void **function,
                                struct rt_err *e) {
  const struct test_module *m = module;
  struct test_function *f = calloc(1, sizeof *f);
  if (!f)
    return rt_fail_msg(e, "out of memory");
  f->module = m;
  snprintf(f->name, sizeof f->name, "%s", name);
  if (m->dl) {
    char entry[sizeof f->name + 32];
    snprintf(entry, sizeof entry, "__gpucc_test_entry_%s", name);
    *(void **)&f->entry = dlsym(m->dl, entry);
    f->ctx = dlsym(m->dl, "__gpucc_test_ctx");
    if (!f->entry || !f->ctx) {
      free(f);
      return rt_fail_msg(e, "no kernel '%s' in the test shared object", name);
    }
  }
  *function = f; /* kept until exit, like a driver's */
  return 0;
}

/* Every thread of the grid in turn, its ids in the object's table. */
static void test_run_grid(const struct test_function *f, const struct rt_launch *l) {
  uint64_t *c = f->ctx;
  for (int d = 0; d < 3; d++) {
    c[6 + d] = l->block[d];
    c[9 + d] = l->grid[d];
  }
  for (unsigned bz = 0; bz < l->grid[2]; bz++)
    for (unsigned by = 0; by < l->grid[1]; by++)
      for (unsigned bx = 0; bx < l->grid[0]; bx++)
        for (unsigned tz = 0; tz < l->block[2]; tz++)
          for (unsigned ty = 0; ty < l->block[1]; ty++)
            for (unsigned tx = 0; tx < l->block[0]; tx++) {
              unsigned b[3] = {bx, by, bz}, t[3] = {tx, ty, tz};
              for (int d = 0; d < 3; d++) {
                c[d] = t[d];
                c[3 + d] = b[d];
                c[12 + d] = (uint64_t)b[d] * l->block[d] + t[d];
              }
              f->entry(l->params);
            }
}

static int test_launch(const struct rt_launch *l, struct rt_err *e) {
  (void)e;
  const struct test_function *f = l->function;
  fprintf(stderr, "test backend: launch %s of %s, grid %u,%u,%u block %u,%u,%u\n", f->name,
          f->entry ? "a test shared object" : f->module->text, l->grid[0], l->grid[1], l->grid[2],
          l->block[0], l->block[1], l->block[2]);
  if (f->entry)
    test_run_grid(f, l);
  return 0;
}

static int test_stream_create(void **stream, struct rt_err *e) {
  (void)e;
  static char token;
  *stream = &token;
  return 0;
}

static int test_stream_nothing(void *stream, struct rt_err *e) {
  (void)stream;
  (void)e;
  return 0;
}

static int test_mem_alloc(size_t bytes, int host_shared, void **ptr, struct rt_err *e) {
  (void)host_shared;
  *ptr = malloc(bytes ? bytes : 1);
  return *ptr ? 0 : rt_fail_msg(e, "out of memory");
}

static int test_mem_free(void *ptr, struct rt_err *e) {
  (void)e;
  free(ptr);
  return 0;
}

static int test_mem_copy(void *dst, const void *src, size_t bytes, void *stream,
                         struct rt_err *e) {
  (void)stream;
  (void)e;
  memcpy(dst, src, bytes);
  return 0;
}

const struct rt_backend rt_backend_test = {
    .name = "test",
    .label = "test",
    .select = &test_selection,
    .probe = test_probe,
    .error_name = test_error_name,
    .error_string = test_error_string,
    .module_load = test_module_load,
    .module_unload = test_module_unload,
    .module_function = test_module_function,
    .launch = test_launch,
    .stream_create = test_stream_create,
    .stream_destroy = test_stream_nothing,
    .stream_synchronize = test_stream_nothing,
    .mem_alloc = test_mem_alloc,
    .mem_free = test_mem_free,
    .mem_copy = test_mem_copy,
};
