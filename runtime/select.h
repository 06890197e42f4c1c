/* select.h: which object of a fat binary runs on a given device.
 *
 * Pure functions over plain data: no driver, no I/O, no allocation, so that
 * the rules can be unit-tested for any device against any archive. The
 * backends fill a struct rt_device from the driver; module.c hands the
 * archive's entries and that device to rt_select.
 *
 * The rules are the backends', one struct rt_selection each, which their
 * backend row points at (backend.h). Each lives in its backend's helper
 * file (select_cuda.c, select_hip.c, select_host.c), apart from the driver
 * code, so that tests link it without one. The functions below apply the
 * device's own rules; they know no vendor.
 *
 * Strings returned through buffers are always NUL-terminated (truncated if the
 * buffer is short). */
#ifndef GPUCC_RT_SELECT_H
#define GPUCC_RT_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

struct rt_selection;

/* What the runtime knows about the device it runs on. */
struct rt_device {
  const struct rt_selection *select; /* its backend's rules (init.c sets it) */
  int ordinal;        /* index among the backend's devices */
  char name[256];     /* marketing name, "NVIDIA H100 80GB HBM3" */
  char arch[64];      /* "sm_86", "gfx90a": what --offload-arch= takes */
  /* The device's target in full, as its driver reports it
   * ("gfx90a:sramecc+:xnack-"; arch where there is no more to say): in
   * messages, and for rules that need the modes it spells. */
  char target_id[160];
  /* Launch limits as the driver reports them; 0 where it did not (then
   * the chip's, from kernel_limits.c, apply). */
  uint32_t max_threads;  /* per block */
  uint32_t max_block[3], max_grid[3];
  uint64_t max_shared;   /* static plus dynamic bytes a block may have */
};

/* How well an object fits a device: compared field by field, a larger one
 * is better; tier 0 means "cannot run here". */
struct rt_score {
  int tier, a, b;
};

/* A plain object (upstream mlir-translate output, not a gpucc fat binary)
 * that a backend's driver loads as it is; image.c recognizes it by the
 * first of these that is set. */
struct rt_plain_image {
  const char *name;     /* "cubin": in messages */
  unsigned elf_machine; /* an ELF file of this e_machine; 0: not ELF */
  const char *magic;    /* else its first magic_size bytes */
  size_t magic_size;
  int (*looks_like)(const unsigned char *d, size_t size); /* else its content */
  int text;             /* handed to the driver NUL-terminated (PTX) */
};

/* A backend's selection rules: everything the shared code asks of a vendor
 * when it chooses, explains and limits. */
struct rt_selection {
  enum fatbin_vendor vendor; /* the fat-binary vendor whose objects it runs */
  const char *vendor_label;  /* "NVIDIA": "code for NVIDIA GPUs", "an NVIDIA GPU" */
  /* The CPU standing in for the GPUs a program was built for: launches are
   * held to each GPU target's limits, and when no object fits, the message
   * also says why no GPU was used. */
  int stands_in;
  /* How well entry e (of this vendor, with a target) fits dev. */
  struct rt_score (*score)(const struct fatbin_entry *e, const struct rt_device *dev);
  /* The one-line reason for choosing e with score s, for GPUCC_LOG. */
  void (*explain)(const struct fatbin_entry *e, const struct rt_device *dev,
                  struct rt_score s, char *why, size_t len);
  /* The --offload-arch= value that makes a program run on dev; NULL: its
   * arch. */
  void (*suggest_arch)(const struct rt_device *dev, char *buf, size_t len);
  /* The shared memory a block may have on a chip, from its target's name
   * (kernel_limits.c); NULL: no limit. */
  uint64_t (*max_shared)(const char *target);
  const struct rt_plain_image *images; /* plain objects its driver loads */
  size_t nimages;
};

/* Picks the entry to load on dev by its backend's rules (runtime/README.md
 * says what they are). Entries of other vendors are ignored. Returns the
 * index of the chosen entry and a one-line reason in why, or -1 (why empty)
 * when nothing fits. */
long rt_select(const struct fatbin_entry *entries, size_t n,
               const struct rt_device *dev, char *why, size_t whylen);

/* Space-separated list of the distinct targets among the entries, grouped
 * by vendor in vendor-id order (the order archives keep: NVIDIA, AMD,
 * host), each group in archive order ("sm_80 sm_90 gfx90a"). Appends to buf
 * (which must hold a string). */
void rt_describe_targets(const struct fatbin_entry *entries, size_t n,
                         char *buf, size_t len);

/* The --offload-arch value that would make a program run on dev: "sm_89",
 * "gfx90a" (without features, so that it runs in either xnack/sramecc mode). */
void rt_suggest_arch(const struct rt_device *dev, char *buf, size_t len);

#endif
