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

enum input_kind {
  INPUT_MLIR,
  INPUT_C,
  INPUT_LINKER, /* .o .a .so, -l, -Wl, */
  INPUT_DEVICE, /* .gpucc-device: one target's objects, from --device-only */
};

struct input {
  enum input_kind kind;
  const char *arg; /* path ("-" for stdin), or the linker argument itself */
};

enum driver_mode {
  MODE_LINK,    /* executable, or shared library with -shared */
  MODE_COMPILE, /* -c: object file */
  MODE_EMIT,    /* -S or --emit=: one intermediate stage */
};

/* What --emit= (or -S, which means --emit=llvm) writes. */
enum emit_stage {
  EMIT_NONE,
  EMIT_MLIR_HOST,   /* host module after lowering to the LLVM dialect */
  EMIT_MLIR_DEVICE, /* the normalized module, gpu.modules and all */
  EMIT_LLVM,        /* host LLVM IR */
  EMIT_TARGET,      /* per gpu.module and target: a stage a target kind has
                       (ptx, cubin, hsaco), named in emit_stage */
  EMIT_FATBIN,      /* per gpu.module: the blob */
  EMIT_OBJ,         /* same as -c */
};

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

/* Which libgpucc_rt a link uses (--gpucc-rt=, like nvcc's --cudart): by
 * default the static one for executables, so that they need nothing but
 * the C library where they run, and the shared one with -shared, so that a
 * process has one runtime. */
enum gpucc_rt_kind { GPUCC_RT_DEFAULT, GPUCC_RT_STATIC, GPUCC_RT_SHARED };

struct options {
  /* The command line, after response files: the direct cache's key
   * (direct_cache.h) holds all of it. */
  int argc;
  char **argv;
  enum driver_mode mode;
  const char *output;
  int opt_level;      /* 0-3, default 2 */
  int opt_given;      /* -O was given: it applies to device code too */
  int verbose;        /* -v */
  int dry_run;        /* -### */
  int syntax_only;    /* -fsyntax-only: plan_build's checks, no job */
  int save_temps;      /* --save-temps: keep the temp directory */
  int save_temps_to;   /* -save-temps: copy intermediates to 1 the current directory, 2 the output's */
  int time_report;     /* -ftime-report */
  int werror;
  int debug_info;      /* -g */
  int fp_contract;     /* -ffp-contract=: enum fp_contract, -1 when not given */
  int runtime_verification; /* -fsanitize=bounds */
  const char *entry;        /* -e: the function to run (NULL: main) */
  const char *entry_result; /* --entry-point-result: void, i32, i64, f32 or NULL */
  int shared;          /* -shared */
  int jobs;            /* -j: device jobs at once; 0 = number of cores */
  int use_cache;       /* off with --no-cache */
  int device_only;     /* --device-only: write the targets' objects, no host code */
  int bundle;          /* --bundle: take device objects from .gpucc-device inputs */
  int fatbin_compress; /* enum fatbin_compress */
  enum gpucc_rt_kind gpucc_rt; /* --gpucc-rt= */
  enum emit_stage emit;
  const char *emit_stage; /* EMIT_TARGET: the stage's name */
  enum color_mode color;
  int depfile;         /* -MD / -MMD */
  const char *dep_output; /* -MF */
  const char **dep_targets; /* -MT, in order: the depfile's targets (gcc joins them) */
  size_t ndep_targets;
  /* The kinds' own options (--cuda-path, -Xptxas ...: struct kind_option),
   * in order, for toolchain_find and the manifest. */
  struct kind_arg *kind_args;
  size_t nkind_args;
  struct target *targets;
  size_t ntargets;
  struct input *inputs;
  size_t ninputs;
  int print_help, print_man;
  int list_gpu_arch;             /* --list-gpu-arch */
  const char *print_file_name;   /* -print-file-name= */
  int cache_stats, cache_clear, cache_zero_stats; /* --cache-stats, --cache-clear, --cache-zero-stats */
  int no_caret;                  /* -fno-caret-diagnostics */
  int print_version; /* 1: --version, 2: -dumpversion */
};

/* Parses argv. Returns 0, or -1 after reporting a usage error (exit 2). */
int options_parse(int argc, char **argv, struct options *o);
/* Options that do not go together, for a compilation (inputs given, no
 * query): -o with -c of several inputs, --device-only without -c ...
 * Returns 0, or -1 after reporting (a usage error: exit 2). */
int options_check(const struct options *o);
void options_print_help(const char *argv0);
/* The same table as a man page (gpucc.1), in roff. */
void options_print_man(void);
void options_free(struct options *o);
/* The -ffp-contract= spelling of an enum fp_contract: "fast", "on", "off". */
const char *options_contract_name(int contract);
/* The contraction device code gets (enum fp_contract): -ffp-contract= as
 * given, else fast, as nvcc and clang's GPU modes. */
int options_device_contract(const struct options *o);
/* The same for host code: as given, else on, clang's default for C. */
int options_host_contract(const struct options *o);
/* The optimization level of device code: -O as given, else 3, which is
 * nvcc's and hipcc's default for device code (and ptxas's). */
int options_device_opt(const struct options *o);

#endif
