/* options.h: gpucc's command line, parsed from one table.
 *
 * The table in options.c drives both the parser and --help. Options take
 * their argument joined ("-ofile", "--offload-arch=sm_90") or separate
 * ("-o file") as gcc does. Inputs, -l and -Wl, keep their order because the
 * linker cares about it. */
#ifndef GPUCC_OPTIONS_H
#define GPUCC_OPTIONS_H

#include "targets.h"

#include <stddef.h>

enum input_kind { INPUT_MLIR, INPUT_C, INPUT_LINKER /* .o .a .so, -l, -Wl, */ };

struct input {
  enum input_kind kind;
  const char *arg; /* path, or the linker argument itself */
};

enum driver_mode { MODE_LINK, MODE_COMPILE /* -c */ };

struct options {
  enum driver_mode mode;
  const char *output;
  int opt_level;      /* 0-3, default 2 */
  int verbose;        /* -v */
  int dry_run;        /* -### */
  int save_temps;
  int werror;
  const char *cuda_path;
  const char *rocm_path;
  struct target *targets;
  size_t ntargets;
  struct input *inputs;
  size_t ninputs;
  int print_help, print_version;
};

/* Parses argv. Returns 0, or -1 after reporting a usage error (exit 2). */
int options_parse(int argc, char **argv, struct options *o);
void options_print_help(const char *argv0);
void options_free(struct options *o);

#endif
