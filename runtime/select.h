/* select.h: which object of a fat binary runs on a given device.
 *
 * Pure functions over plain data: no driver, no I/O, no allocation, so that
 * the rules can be unit-tested for any device against any archive. The
 * backends fill a struct rt_device from the driver; module.c hands the
 * archive's entries and that device to rt_select.
 *
 * Strings returned through buffers are always NUL-terminated (truncated if the
 * buffer is short). */
#ifndef GPUCC_RT_SELECT_H
#define GPUCC_RT_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

/* State of one AMD target-id feature (xnack, sramecc). In an object's target,
 * ANY means the feature was not written ("gfx90a"): the code runs in either
 * mode. For a device, ANY means the driver did not say. */
enum rt_feature { RT_FEATURE_ANY, RT_FEATURE_ON, RT_FEATURE_OFF };

/* What the runtime knows about the device it runs on. */
struct rt_device {
  enum fatbin_vendor vendor;
  int ordinal;        /* index among the backend's devices */
  char name[256];     /* marketing name, "NVIDIA H100 80GB HBM3" */
  int sm;             /* NVIDIA: 10 * major + minor, 86 for 8.6 */
  char arch[64];      /* "sm_86", "gfx90a": what --offload-arch= takes */
  char target_id[160];/* AMD: full target id as reported, "gfx90a:sramecc+:xnack-" */
  enum rt_feature xnack, sramecc; /* AMD */
  /* Launch limits as the driver reports them; 0 where it did not (then
   * the chip's, from kernel_limits.c, apply). */
  uint32_t max_threads;  /* per block */
  uint32_t max_block[3], max_grid[3];
  uint64_t max_shared;   /* static plus dynamic bytes a block may have */
};

/* "sm_90" -> 90, variant 0; "sm_90a" -> 90, 'a'; "sm_100f" -> 100, 'f'.
 * Returns 0, or -1 if t is not an NVIDIA target. */
int rt_parse_nv_target(const char *t, int *sm, char *variant);

/* An AMD target id split into processor and features. */
struct rt_amd_target {
  char processor[32]; /* "gfx90a" */
  enum rt_feature xnack, sramecc;
};
/* "gfx90a:xnack-:sramecc+" -> {"gfx90a", OFF, ON}. Unknown features are an
 * error (we cannot tell whether they are compatible). Returns 0 or -1. */
int rt_parse_amd_target(const char *t, struct rt_amd_target *out);

/* Picks the entry to load on dev, following the rules in runtime/README.md:
 * NVIDIA: exact cubin, then a cubin of the same major and a lower minor (not
 * for "a" variants), then the newest PTX not newer than the device; AMD: same
 * gfx processor and compatible xnack/sramecc. Entries of other vendors or
 * formats are ignored. Returns the index of the chosen entry and a one-line
 * reason in why, or -1 (why empty) when nothing fits. */
long rt_select(const struct fatbin_entry *entries, size_t n,
               const struct rt_device *dev, char *why, size_t whylen);

/* Space-separated list of the distinct targets among the entries, NVIDIA
 * first, then AMD, then host, each in archive order ("sm_80 sm_90 gfx90a").
 * Appends to buf (which must hold a string). */
void rt_describe_targets(const struct fatbin_entry *entries, size_t n,
                         char *buf, size_t len);

/* The --offload-arch value that would make a program run on dev: "sm_89",
 * "gfx90a" (without features, so that it runs in either xnack/sramecc mode). */
void rt_suggest_arch(const struct rt_device *dev, char *buf, size_t len);

#endif
