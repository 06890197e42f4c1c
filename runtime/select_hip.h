/* select_hip.h: the HIP backend's selection rules (select_hip.c), apart from
 * its driver code (backend_hip.c) so that tests link them alone. */
#ifndef GPUCC_RT_SELECT_HIP_H
#define GPUCC_RT_SELECT_HIP_H

#include "select.h"

extern const struct rt_selection rt_selection_hip;

/* State of one AMD target-id feature (xnack, sramecc). In an object's target,
 * ANY means the feature was not written ("gfx90a"): the code runs in either
 * mode. For a device, ANY means the driver did not say. */
enum rt_feature { RT_FEATURE_ANY, RT_FEATURE_ON, RT_FEATURE_OFF };

/* An AMD target id split into processor and features. */
struct rt_amd_target {
  char processor[32]; /* "gfx90a" */
  enum rt_feature xnack, sramecc;
};
/* "gfx90a:xnack-:sramecc+" -> {"gfx90a", OFF, ON}. Unknown features are an
 * error (we cannot tell whether they are compatible). Returns 0 or -1. */
int rt_parse_amd_target(const char *t, struct rt_amd_target *out);

#endif
