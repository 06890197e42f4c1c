/* targets.h: the one table of GPU targets gpucc knows.
 *
 * A target is written as on clang's command line: "sm_90", "sm_90a",
 * "gfx90a", "gfx942:xnack-:sramecc+". Each row gives the vendor, the chip and
 * what the backend needs: for NVIDIA the smallest PTX ISA version that the
 * chip needs (gpucc emits exactly that version, so that the oldest ptxas and
 * driver that know the chip accept it); for AMD which target-id features the
 * chip has. Adding a target is adding a row in targets.c. */
#ifndef GPUCC_TARGETS_H
#define GPUCC_TARGETS_H

#include <stdio.h>

enum target_vendor { TARGET_NVIDIA, TARGET_AMD, TARGET_HOST };

struct target_info {
  const char *chip;     /* "sm_90a", "gfx942", "host" */
  enum target_vendor vendor;
  int ptx_version;      /* NVIDIA: minimum PTX ISA, times 10 (78 = 7.8) */
  unsigned amd_features; /* AMD: TARGET_FEATURE_* the chip supports */
};

#define TARGET_FEATURE_XNACK 1u
#define TARGET_FEATURE_SRAMECC 2u

/* A parsed target: a table row plus the target-id features asked for. */
struct target {
  const struct target_info *info;
  char id[64];        /* canonical spelling: "gfx942:sramecc+:xnack-" */
  char features[64];  /* LLVM feature string: "+ptx78", "-xnack,+sramecc" */
};

/* Parses one target id. Returns 0, or -1 after reporting an error that lists
 * the known targets. */
int target_parse(const char *spec, struct target *out);

/* Prints the known target names, comma separated, on one line. */
void target_print_known(FILE *out);

/* Every known target, comma separated, malloc'ed ("all"). */
char *target_all_list(void);

/* The default list when no --offload-arch is given (documented in --help). */
extern const char *const target_default_list;

#endif
