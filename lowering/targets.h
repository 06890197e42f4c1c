/* targets.h: the one table of targets gpucc knows, and what each kind of
 * target needs.
 *
 * A target is written as on clang's command line: "sm_90", "sm_90a",
 * "gfx90a", "gfx942:xnack-:sramecc+", "host". A kind of target (NVIDIA,
 * AMD, the host CPU) is one struct target_kind, defined with its chips and
 * its pipelines in its own file (target_nvidia.c, target_amd.c,
 * target_host.c): the files it makes, what finishes them, how they go into
 * the fat binary, which --emit stages it has. The driver asks the row and
 * has no vendor branch of its own, so adding a vendor is adding a kind file
 * and its line in target_list.c. */
#ifndef GPUCC_TARGETS_H
#define GPUCC_TARGETS_H

#include <stddef.h>
#include <stdio.h>

struct toolchain;
struct target;
struct target_lowering; /* the kind's pipelines, private to lowering/ */

/* What a finishing tool is asked for. Options of the tool itself
 * (-Xptxas) are the kind's own (struct kind_option). */
struct finish_request {
  int opt;       /* 0-3 */
  int line_info; /* -g */
  int part;      /* the input is one part of a module (finish_parts): its object is joined */
};

/* An option a kind adds to gpucc's command line for its tools
 * ("--cuda-path=<dir>", "-Xptxas <arg>"): the option table lists it in
 * --help and the man page, the parser keeps its values, in order, as
 * struct kind_arg, and the kind reads them when it finds its tools. */
struct kind_option {
  const char *name;  /* "--cuda-path", "-Xptxas" */
  int separate;      /* the value is the next argument ("-Xptxas <arg>"), else after '=' */
  const char *meta;  /* "<dir>" */
  const char *help;
  /* Its values change the code (not only where tools are): the
   * manifest's code flags record them, as written ("-Xptxas -v"). */
  int code;
};

/* An environment variable the kind's tools, its native probe or its
 * runtime backend read, for the man page's ENVIRONMENT. */
struct kind_variable {
  const char *name; /* "CUDA_PATH" */
  const char *what; /* one line */
};

/* One value given to a kind's option. */
struct kind_arg {
  const struct kind_option *option;
  const char *value; /* borrowed from argv */
};

struct native_found;

struct target_kind {
  const char *name;           /* "NVIDIA", "AMD", "host": in messages */
  int fatbin_vendor;          /* enum fatbin_vendor of its objects */
  /* The device file one device job writes per gpu.module. */
  const char *device_suffix;  /* ".ptx", ".hsaco", ".o" */
  const char *device_stage;   /* its --emit= name ("ptx"), or NULL */
  int device_format;          /* enum fatbin_format it ships as, or -1: not shipped */
  int device_nul;             /* shipped with its NUL (PTX: the JIT wants a C string) */
  /* The finished object a tool makes of the device file, if any. */
  const char *finished_suffix; /* ".cubin", ".so", or NULL */
  const char *finished_stage;  /* "cubin", or NULL */
  int finished_format;         /* enum fatbin_format */
  const char *finish_tool;     /* "ptxas": names the job */
  /* The tool that writes the shipped device file inside the device job
   * (AMD: ld.lld links the hsaco), for messages; NULL when LLVM writes it. */
  const char *device_tool;
  /* Its options (struct kind_option), and how it finds its tools and
   * libraries from them, its environment and fixed places: `args` are the
   * values of its own options as given, in order; `used` says a target of
   * the kind is built (only then may it run a tool, to ask its version).
   * What it finds it keeps in a type of its own file, *found, which its
   * hooks below get back through toolchain_found(tc, kind). Returns 0, or
   * -1 reported (an option's directory that is not one). A kind may find
   * nothing: it says what it misses when a target needs it (prepare).
   * NULL: the kind has no tools to find. */
  const struct kind_option *options;
  size_t noptions;
  const struct kind_variable *environment; /* what it reads, for the man page */
  size_t nenvironment;
  /* The runtime backend that runs its objects, as GPUCC_BACKEND names it
   * ("cuda"), for the man page. */
  const char *backend;
  int (*find_tools)(const struct kind_arg *args, size_t nargs, int used, void **found);
  /* What else than the module, the target and the code-generation flags
   * shapes its objects, for their cache key: the tools and libraries found
   * (as toolchain_file_identity names them, and the versions they report),
   * the finishing tool's options. Whatever is missing here, a changed
   * toolchain would be served the old objects from the cache. A new
   * string. */
  char *(*cache_inputs)(const struct toolchain *tc, const struct target *t,
                        const struct finish_request *r);
  /* Whether the finishing tool is there (no ptxas: PTX only). */
  int (*can_finish)(const struct toolchain *tc);
  /* The tool's command (NULL-terminated, malloc'ed; strings borrowed). */
  char **(*finish_argv)(const struct toolchain *tc, const struct target *t,
                        const struct finish_request *r, const char *in, const char *out);
  /* A big module finished in parts, at once: how many parts a gpu.module
   * of `kernels` kernels is finished in, for one target, when the whole
   * build finishes `all` kernels (every module's, once per target) (1:
   * whole; a pure function of its arguments and the toolchain, never of
   * the machine, so that outputs are reproducible and a job's -cc1 line
   * can name the count). The device
   * job writes part i of the device file at lowering_part_path(file, i),
   * finish_argv (r->part set) makes each part's object, and join_argv
   * joins the objects into the finished file; join_tool names that job.
   * NULL: always whole. */
  size_t (*finish_parts)(const struct toolchain *tc, size_t kernels, size_t all);
  char **(*join_argv)(const struct toolchain *tc, const struct target *t, const char *const *objs,
                      size_t n, const char *out);
  const char *join_tool; /* "nvlink" */
  /* Once per run when MLIR code is compiled for this kind: prepares what
   * it needs, warns about what is missing. NULL: nothing. 0 or -1. */
  int (*prepare)(struct toolchain *tc);
  /* Checks one target against the toolchain. NULL: always fine. 0 or -1. */
  int (*check)(const struct target *t, const struct toolchain *tc);
  /* The op-name prefixes of the dialects only this kind compiles
   * ("nvgpu.", "nvvm."), NULL-terminated; NULL: none. Every other kind's
   * targets refuse such an op as needing `phrase`, without a word about it
   * in their own files. */
  const char *const *dialects;
  const char *phrase; /* "an NVIDIA target": what such an op needs */
  /* Ops of its dialects that may sit in host code (nvgpu's TMA descriptor
   * ops: the host makes descriptors that cross into kernels), and the
   * pipeline that lowers them over the whole module before outlining, so
   * that what crosses is a plain pointer (frontend/prepare.c). NULLs:
   * none. */
  struct {
    const char *prefix, *pipeline;
  } host_ops;
  /* What target t lacks for an op of the program ("nvgpu.mma.sync"): NULL
   * when it can compile the op, else the requirement as a message ends
   * "'op' needs <it>": "sm_80 or later", "an AMD target". Asked before any
   * job, once per distinct op name of the user's gpu.modules (never of
   * what gpucc makes itself). NULL hook: every op is fine. */
  const char *(*op_requirement)(const struct target *t, const char *op_name);
  /* Reads the rest of a target id after its chip name ("" or the kind's
   * own feature syntax, ":xnack-:sramecc+") into out->features, the LLVM
   * feature string the kind's pipeline takes, and out->id, the canonical
   * spelling (preset to the chip name). NULL: the kind takes no features
   * and its targets have none. Returns 0, or -1 reported (target_refuse
   * says the common refusal). */
  int (*parse_features)(const char *spec, const char *rest, struct target *out);
  /* --offload-arch=native: adds this machine's chips of the kind to f, or
   * says why it found none (native_probe.h). Runs in a child process.
   * NULL: the kind has no devices to ask. */
  void (*native_probe)(struct native_found *f);
  /* "all" leaves its chips out: they are built only when named (a kind
   * that refuses too many programs' ops for "all" to stay useful). */
  int outside_all;
  /* The program's own lowered kernels it takes, which a gpu.module may
   * carry (frontend/carried_code.c): the op that holds them
   * ("spirv.module") and the prefix of its symbol before the gpu.module's
   * name ("__spv__", as MLIR's conversion names it). Its prepare_module
   * uses them, every other kind's device job drops them, and the target
   * check leaves to it the ops of the gpu.modules that carry them (its
   * device job says what it cannot lower, if it lowers them after all).
   * NULLs: it takes none. */
  struct {
    const char *op, *prefix;
  } carried_code;
  /* Its chips, in the order --help and "all" list them. */
  const struct target_info *chips;
  size_t nchips;
  const struct target_lowering *lowering;
};

struct target_info {
  const char *chip;              /* "sm_90a", "gfx942", "host" */
  const struct target_kind *kind;
  /* What only the kind reads of the chip (the PTX ISA it needs, the
   * target-id features it has), in a type of the kind's file; NULL: none. */
  const void *data;
};

/* A parsed target: a table row plus the target-id features asked for. */
struct target {
  const struct target_info *info;
  char id[64];        /* canonical spelling: "gfx942:sramecc+:xnack-" */
  char features[64];  /* the kind's LLVM feature string: "+ptx78", "-xnack,+sramecc" */
};

/* For a kind's parse_features: reports that target id `spec` has ':'
 * features its kind does not take. Returns -1. */
int target_refuse_features(const char *spec, const struct target *t);

/* Parses one target id. Returns 0, or -1 after reporting an error that lists
 * the known targets. */
int target_parse(const char *spec, struct target *out);

/* Prints the known target names, comma separated, on one line. */
void target_print_known(FILE *out);

/* The targets "all" stands for, comma separated, malloc'ed: every known
 * one but those of kinds outside_all. */
char *target_all_list(void);

/* Every known target, comma separated, malloc'ed (--list-gpu-arch). */
char *target_known_list(void);

/* The default list when no --offload-arch is given (documented in --help). */
extern const char *const target_default_list;

/* The kinds, NULL-terminated (target_list.c; a test links a list of its
 * own): for what applies to every kind (chips, --emit stages, preparing the
 * toolchain once per kind). */
extern const struct target_kind *const target_kinds[];

/* True when some kind has the --emit stage `name` ("ptx", "hsaco"). */
int target_stage_known(const char *name);
/* The kinds' --emit= stages ("ptx, cubin, hsaco, spirv"), in the order of
 * the kinds, as a new string: what --help and the option's error list. */
char *target_stage_list(void);

#endif
