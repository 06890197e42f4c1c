/* select_host.c: the host backend's struct rt_selection. The CPU runs the
 * host target's shared object, or the reference to the program's one
 * library that holds every module's host code; there is one of either per
 * module, so there is nothing to rank. The CPU stands in for the GPUs the
 * program was built for (select.h), and has no shared-memory limit of its
 * own. */
#include "select_host.h"

#include <stdio.h>

static struct rt_score host_score(const struct fatbin_entry *e, const struct rt_device *dev) {
  (void)dev;
  int runs = e->format == FATBIN_FORMAT_SO || e->format == FATBIN_FORMAT_SO_REF;
  return (struct rt_score){runs, 0, 0};
}

static void host_explain(const struct fatbin_entry *e, const struct rt_device *dev,
                         struct rt_score s, char *why, size_t whylen) {
  (void)dev;
  (void)s;
  snprintf(why, whylen, "%s shared object%s", e->target,
           e->format == FATBIN_FORMAT_SO_REF ? " (the program's, shared by its modules)" : "");
}

const struct rt_selection rt_selection_host = {
    .vendor = FATBIN_VENDOR_HOST,
    .vendor_label = "host",
    .stands_in = 1,
    .score = host_score,
    .explain = host_explain,
};
