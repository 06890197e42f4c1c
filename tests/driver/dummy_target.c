/* dummy_target.c: a target kind that exists only in a test build of gpucc
 * (gpucc_dummy_target), to show that a kind is a row: nothing in driver/
 * or lowering/device.c names it, yet it compiles, finishes, bundles and
 * emits through the same code as the real kinds. It borrows the host
 * kind's pipelines and tool, with files and stages of its own. */
#include "target_kinds.h"

#include "fatbin.h"

#include <stdio.h>

#include <string.h>

static struct target_kind dummy;
static const struct target_info chips[] = {{"dummy", &dummy, NULL}};

/* Its own target-id syntax, which no other kind and nothing shared knows:
 * "dummy:quiet+" (a feature that changes nothing), any other feature
 * refused as the kinds without features refuse theirs. */
static int parse_features(const char *spec, const char *rest, struct target *out) {
  if (!*rest)
    return 0;
  if (strcmp(rest, ":quiet+") != 0)
    return target_refuse_features(spec, out);
  snprintf(out->id, sizeof out->id, "dummy:quiet+");
  return 0;
}

/* Filled from the host kind at start-up: its hooks are not constants
 * that an initializer may name. */
static struct target_kind dummy = {
    .name = "dummy",
    .fatbin_vendor = FATBIN_VENDOR_HOST,
    .device_suffix = ".dummy-o",
    .device_stage = "dummy-obj",
    .device_format = -1,
    .finished_suffix = ".dummy-so",
    .finished_stage = "dummy-so",
    .finished_format = FATBIN_FORMAT_SO,
    .finish_tool = "dummy link",
    .parse_features = parse_features,
    .chips = chips,
    .nchips = 1,
};

__attribute__((constructor)) static void borrow_host(void) {
  dummy.can_finish = target_kind_host.can_finish;
  dummy.finish_argv = target_kind_host.finish_argv;
  dummy.lowering = target_kind_host.lowering;
}

const struct target_kind *const target_kinds[] = {&target_kind_nvidia, &target_kind_amd,
                                                  &target_kind_host, &dummy, NULL};
