/* backend_test.c: a test-only backend, with a vendor of its own
 * (test_vendor.h), to show that adding one is this file and a line in the
 * backend list (backend_test_list.c), with no change to the runtime's
 * shared code.
 *
 * Its device is "test2". Its objects are "testobj" entries whose target
 * is "testN": one runs when N is at most the device's, the exact one
 * best, else the highest N. Its driver is a few lines of C: a module is the
 * object's text, a launch prints that text and the kernel's name and grid
 * on stderr, memory is malloc'ed. It is linked only into a test build of
 * the runtime (libgpucc_rt_testrow), never shipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  if (e->format != TEST_FORMAT || n < 0 || n > d)
    return (struct rt_score){0, 0, 0};
  return (struct rt_score){n == d ? 2 : 1, n, 0};
}

static void test_explain(const struct fatbin_entry *e, const struct rt_device *dev,
                         struct rt_score s, char *why, size_t len) {
  snprintf(why, len, "%s test object: %s %s", e->target, s.tier == 2 ? "exact match for" : "runs on",
           dev->arch);
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

struct test_function {
  char *text; /* the module's */
  char name[128];
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

static int test_module_load(const void *image, size_t size, int text, void **module,
                            struct rt_err *e) {
  (void)text;
  char *copy = malloc(size + 1);
  if (!copy)
    return rt_fail_msg(e, "out of memory");
  memcpy(copy, image, size);
  copy[size] = '\0';
  *module = copy;
  return 0;
}

static int test_module_unload(void *module, struct rt_err *e) {
  (void)e;
  free(module);
  return 0;
}

static int test_module_function(void *module, const char *name, void **function,
                                struct rt_err *e) {
  struct test_function *f = calloc(1, sizeof *f);
  if (!f)
    return rt_fail_msg(e, "out of memory");
  f->text = module;
  snprintf(f->name, sizeof f->name, "%s", name);
  *function = f; /* kept until exit, like a driver's */
  return 0;
}

static int test_launch(const struct rt_launch *l, struct rt_err *e) {
  (void)e;
  const struct test_function *f = l->function;
  fprintf(stderr, "test backend: launch %s of %s, grid %u,%u,%u block %u,%u,%u\n", f->name,
          f->text, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
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
