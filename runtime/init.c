/* init.c: choosing the backend and the device, once, at first use.
 *
 * Compiled programs call mgpuModuleLoad from global constructors, before
 * main, whether or not they will ever launch anything; so loading is lazy and
 * the driver is only started by the first operation that needs it (see
 * module.c). That start happens exactly once per process (pthread_once), from
 * whichever thread gets there first:
 *
 *   1. the device number: mgpuSetDefaultDevice if the program called it
 *      before, else GPUCC_DEVICE, else 0;
 *   2. the backend: GPUCC_BACKEND if set, else each row of rt_backends
 *      (backend_list.c) in order, the first that opens a device wins;
 *   3. if none does, the reasons are kept and every operation that needs a
 *      device reports one line naming what was looked for and what the
 *      program carries.
 *
 * Nothing here knows a backend by name: adding one is adding its file and a
 * line in backend_list.c. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
/* Written only by rt_start; read after pthread_once or after an acquire load
 * of rt_started. */
static const struct rt_backend *rt_active;
static struct rt_device rt_dev;
static char rt_failure[2048]; /* why no backend started: "no GPU found (...)" */
/* Why the backends before the active one found no device, when the host
 * backend was reached by falling through them; "" otherwise. */
static char rt_passed_over[1536];
static atomic_int rt_started;
/* Set by mgpuSetDefaultDevice before the start; -1 when not called. */
static atomic_int rt_requested_device = -1;

/* Reads GPUCC_DEVICE: returns 0 and the number, 1 when unset, -1 if bad. */
static int rt_device_from_env(int *out) {
  const char *v = getenv("GPUCC_DEVICE");
  if (!v || !*v)
    return 1;
  char *end;
  long n = strtol(v, &end, 10);
  if (*end != '\0' || n < 0 || n > 4096)
    return -1;
  *out = (int)n;
  return 0;
}

static void rt_known_backends(char *buf, size_t len) {
  buf[0] = '\0';
  for (size_t i = 0; rt_backends[i]; i++)
    rt_appendf(buf, len, "%s%s", i ? ", " : "", rt_backends[i]->name);
}

static void rt_start(void) {
  int ordinal = atomic_load(&rt_requested_device);
  const char *source = "mgpuSetDefaultDevice";
  if (ordinal < 0) {
    ordinal = 0;
    source = "default";
    int env = rt_device_from_env(&ordinal);
    if (env < 0) {
      snprintf(rt_failure, sizeof rt_failure,
               "GPUCC_DEVICE='%s' is not a device number (0, 1, ...)",
               getenv("GPUCC_DEVICE"));
      goto done;
    }
    if (env == 0)
      source = "GPUCC_DEVICE";
  }
  rt_log("looking for device %d (%s)", ordinal, source);

  const char *forced = getenv("GPUCC_BACKEND");
  if (forced && !*forced)
    forced = NULL;
  if (forced) {
    size_t i = 0;
    while (rt_backends[i] && strcmp(rt_backends[i]->name, forced) != 0)
      i++;
    if (!rt_backends[i]) {
      char known[128];
      rt_known_backends(known, sizeof known);
      snprintf(rt_failure, sizeof rt_failure,
               "GPUCC_BACKEND='%s' is not a backend (known: %s)", forced, known);
      goto done;
    }
  }

  char reasons[1536] = "";
  for (size_t i = 0; rt_backends[i]; i++) {
    const struct rt_backend *b = rt_backends[i];
    if (forced && strcmp(b->name, forced) != 0)
      continue;
    char why[512] = "";
    if (b->probe(ordinal, &rt_dev, why, sizeof why) == 0) {
      rt_dev.select = b->select;
      rt_active = b;
      break;
    }
    if (!why[0])
      continue; /* declined quietly: the program has nothing for it (backend.h) */
    rt_log("%s: %s", b->name, why);
    rt_appendf(reasons, sizeof reasons, "%s%s: %s", reasons[0] ? "; " : "", b->label, why);
  }
  if (rt_active) {
    rt_log("using backend %s, device %d '%s' (%s)", rt_active->name, rt_dev.ordinal,
           rt_dev.name, rt_dev.target_id);
    if (!forced)
      snprintf(rt_passed_over, sizeof rt_passed_over, "%s", reasons);
  }
  else if (forced)
    snprintf(rt_failure, sizeof rt_failure,
             "no GPU found (%s; other backends not tried: GPUCC_BACKEND=%s)", reasons,
             forced);
  else
    snprintf(rt_failure, sizeof rt_failure, "no GPU found (%s)", reasons);
done:
  atomic_store_explicit(&rt_started, 1, memory_order_release);
}

const char *rt_backends_passed_over(void) { return rt_passed_over; }

const char *rt_feature_note(int (*has)(const struct rt_backend *b)) {
  for (size_t i = 0; rt_backends[i]; i++)
    if (has(rt_backends[i]) && rt_backends[i]->feature_note)
      return rt_backends[i]->feature_note;
  return "";
}

const struct rt_selection *rt_selection_of(enum fatbin_vendor vendor) {
  for (size_t i = 0; rt_backends[i]; i++)
    if (rt_backends[i]->select->vendor == vendor)
      return rt_backends[i]->select;
  return NULL;
}

const struct rt_backend *rt_backend_get(const char *fn) {
  pthread_once(&rt_once, rt_start);
  if (rt_active)
    return rt_active;
  /* The reason is reported at each use: with a handler installed the
   * program may go on, and every skipped operation deserves its line. */
  char targets[1024] = "";
  rt_modules_describe_targets(targets, sizeof targets);
  rt_log("%s needs a device", fn);
  if (targets[0])
    rt_error("%s; this program carries code for: %s", rt_failure, targets);
  else
    rt_error("%s", rt_failure);
  return NULL;
}

const struct rt_backend *rt_backend_peek(void) {
  if (!atomic_load_explicit(&rt_started, memory_order_acquire))
    return NULL;
  return rt_active;
}

const struct rt_device *rt_device(void) { return &rt_dev; }

RT_EXPORT const char *gpuccBackendName(void) {
  const struct rt_backend *b = rt_backend_peek();
  return b ? b->name : NULL;
}

RT_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  if (device < 0) {
    rt_error("mgpuSetDefaultDevice: %d is not a device number", (int)device);
    return;
  }
  if (!atomic_load_explicit(&rt_started, memory_order_acquire)) {
    /* Before the start: this picks the device (over GPUCC_DEVICE). */
    atomic_store(&rt_requested_device, device);
    rt_log("mgpuSetDefaultDevice(%d) before start: will use device %d", (int)device,
           (int)device);
    return;
  }
  /* The runtime keeps one device per process: modules are loaded and memory
   * allocated on it, and switching would silently split the program's data
   * across devices. Asking again for the same device is fine. */
  if (rt_active && device != rt_dev.ordinal)
    rt_error("mgpuSetDefaultDevice: device %d requested, but the program already "
             "runs on device %d ('%s'); gpucc uses one device per process: select "
             "it before the first GPU operation, or with GPUCC_DEVICE",
             (int)device, rt_dev.ordinal, rt_dev.name);
}
