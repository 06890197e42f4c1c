/* job.h: the work of one gpucc run, as data.
 *
 * The driver first parses each MLIR input (to learn its gpu.modules), then
 * builds the complete job list, then runs it in order; -### prints the list
 * and runs nothing. Jobs talk to each other through files, which each job
 * lists (ins, outs): the order of the jobs follows from them, every job can
 * be shown as a command, and its inputs kept with --save-temps. A job that
 * runs inside gpucc prints as the command that runs it alone, from files:
 * `gpucc -cc1 <kind> ...` (cc1.c), so -### output is a script that makes
 * the same bytes as the build. */
#ifndef GPUCC_JOB_H
#define GPUCC_JOB_H

#include "cache.h"
#include "diag.h"
#include "fatbin.h"
#include "lowering.h"
#include "options.h"
#include "program.h"
#include "symname.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct cc1_command; /* cc1.h */

/* One (gpu.module, target) pair: the files made for it and its cache key. */
struct cell {
  const char *device_path;   /* the device job's file: PTX, hsaco, host object */
  const char *finished_path; /* what the kind's tool makes of it (cubin, .so); NULL if none */
  struct device_parts parts; /* n > 1: finished in parts, joined (finish_parts); else whole */
  char key[65];              /* device object cache key */
};

/* One MLIR input file on its way to an object file. */
struct unit {
  const char *input;
  struct program *prog;      /* parsed and normalized */
  size_t nmodules;
  struct cell *cells;        /* [module * ntargets + target]: see unit_cell */
  const char **blob_paths;   /* [module]: the fat-binary blob */
  char module_hash[65];      /* SHA-256 of the normalized module's text, hex */
  char tag[17];              /* names this TU's blob symbols (module_hash's start) */
  const char *host_obj_path; /* host code, referring to the blob symbols */
  char host_key[65];         /* its cache key; "" when not cached */
  int host_cached;           /* host_obj_path comes from the cache */
  const char **blob_obj_paths; /* [module]: the object defining its blob */
  const char *obj_path;      /* with -c: host + blob objects, combined (ld -r) */
  const char *obj_final;     /* with -c: where obj_path is renamed to */
  const char *host_mlir_path; /* --emit=mlir-host: temp file, or NULL */
  const char *device_mlir_path; /* --emit=mlir-device: temp file, or NULL */
  const char *host_ll_path;   /* --emit=llvm / -S: temp file, or NULL */
  const char *normalized_path; /* the normalized module as the jobs' input file (job_normalize.c) */
  int *cached;               /* [target]: every module's objects came from the cache */
  /* [target]: for a kind whose finishing tool links the device files of all
   * gpu.modules into one object (plan_links_modules: the host target's
   * shared object, SO_LIB), that object; NULL for other kinds. Module 0's
   * fat binary carries it, every module's an SO_REF to it by its hash. */
  const char **lib_paths;
  unsigned char (*lib_sha256)[FATBIN_SHA256_SIZE]; /* [target]: its hash, once read (lib_hashed) */
  int *lib_hashed;
};

/* Whether the kind's finishing tool takes every gpu.module's device file at
 * once (one shared object for the host target) instead of one per module:
 * with two modules or more (the host lowering prefixes their symbols then,
 * and only then), unless the finished object is an --emit= stage, which is
 * per module. Which kinds do belongs in struct target_kind; until it is
 * there, the shared-object format tells. */
static inline int plan_links_modules(const struct target_kind *k, size_t nmodules) {
  return nmodules > 1 && k->finished_suffix && !k->finished_stage &&
         k->finished_format == FATBIN_FORMAT_SO;
}

static inline struct cell *unit_cell(const struct unit *u, size_t ntargets, size_t m, size_t t) {
  return &u->cells[m * ntargets + t];
}

/* gpu.module m's name as its objects and files carry it: [A-Za-z0-9_] only
 * (support/symname.h). */
static inline const char *unit_module(const struct unit *u, size_t m) {
  return program_module_name(u->prog, m);
}

/* The same as the program spells it, for messages after an '@': kernels,
 * "my mod". A new string. */
static inline char *unit_module_shown(const struct unit *u, size_t m) {
  char *s = symname_display(unit_module(u, m), 1);
  if (!s)
    BUG("out of memory");
  return s;
}

struct plan;
struct job;

/* What run.c says of a job besides running it (job_kind.about). */
struct job_about {
  const char *doing;     /* internal errors: "lowering device code" ... */
  char subject[1024];    /* ... of "sm_90 of 'prog.mlir'" */
  const char *row;       /* -ftime-report's stage ("device code"); NULL: none */
  char row_name[64];     /* where row points when it is made up (a tool's name) */
  const char *target;    /* its target, for that row and the status line; or NULL */
  char target_name[128]; /* where target points when it is made up (a family's
                            "gfx90a+gfx942") */
  const char *cache_use; /* -v: "miss", "hit (local)", "hit (remote)"; NULL: no cache */
  char label[512];       /* the status line: "sm_90 kernels" */
};

/* One kind of job: a row of job_kinds. Everything that differs between
 * kinds is here, so that plan_run and the printing loop name none. */
struct job_kind {
  const char *name;  /* -cc1's name for it, and GPUCC_TEST_CRASH's (crash.h) */
  int spawned;       /* a tool (j->argv) started with posix_spawn; else code of gpucc's */
  int in_parent;     /* runs in gpucc itself, not a forked child (short work
                        that fills the parent's state: bundles, the cache) */
  int (*run)(struct plan *p, struct job *j);
  /* In the parent, after the job succeeded in a child; or NULL. */
  void (*done)(struct plan *p, struct job *j);
  /* One line of shell: the tool's command, or `gpucc -cc1 NAME ...` that
   * runs the job alone from its files. */
  void (*describe)(FILE *out, const struct plan *p, const struct job *j);
  void (*about)(const struct plan *p, const struct job *j, struct job_about *a);
  /* -cc1 NAME: fills p (options, one unit) and j from the job's own command
   * line (cc1.h); NULL for kinds that are no -cc1 job. Returns 0 or -1
   * (reported; usage errors set p->usage_error). */
  int (*from_command)(struct plan *p, struct cc1_command *c, struct job *j);
};

/* The kinds, each in its file: job_normalize.c, job_device.c, job_tool.c
 * (tools and the link), job_bundle.c (bundles and --device-only's pack),
 * job_host.c, job_fetch.c. */
extern const struct job_kind job_normalize, job_device, job_tool, job_bundle, job_pack, job_host,
    job_fetch, job_link;
/* Every kind, NULL-terminated (-cc1 looks names up here). */
extern const struct job_kind *const job_kinds[];

enum job_state { JOB_PENDING, JOB_RUNNING, JOB_DONE };

/* How many jobs may run at once: -j, else one per core. */
int plan_job_limit(const struct options *o);

struct job {
  const struct job_kind *kind;
  int in_parent; /* the kind's, or the host job's when its object is cached */
  char *what;   /* "ptxas: @kernels for sm_90" */
  char **argv;  /* spawned kinds: the tool's command */
  struct unit *unit;
  size_t target; /* device, fetch: index into options.targets */
  const char *target_id; /* a tool finishing a target's objects: that target (-ftime-report) */
  size_t module; /* bundle */
  struct module_range range; /* device: the gpu.modules it compiles */
  /* device: the targets it compiles for, when more than `target` alone:
   * one family (lowering_same_family), family[0] == target. */
  size_t *family;
  size_t nfamily;
  const char *commit_from, *commit_to; /* renamed into place on success */
  const char *depfile_from, *depfile_to; /* cc -c -MD's depfile, likewise */
  /* The files it reads and writes. Dependencies are derived from them: a
   * job waits for the jobs that write what it reads (plan_build). */
  const char **ins, **outs;
  size_t nins, nouts;
  size_t *deps;  /* indices of jobs that must be done first */
  size_t ndeps;
  enum job_state state;
  pid_t pid;     /* while running in a child */
  double started;
};

/* A .gpucc-device file given to --bundle. */
struct device_part {
  const char *path;
  void *data;
  size_t size;
  struct fatbin *fb;
};

struct plan {
  const struct options *opts;
  struct toolchain tc;
  struct unit *units;
  size_t nunits;
  struct job *jobs;
  size_t njobs;
  struct device_part *parts; /* --bundle: the .gpucc-device inputs, opened */
  size_t nparts;
  int usage_error; /* a -cc1 command line that is wrong: exit 2 */
  /* Outputs made, renamed into place by plan_commit: [i] from tmp to dest. */
  const char **commit_tmp, **commit_dest;
  size_t ncommits;
  /* The direct cache's key for this command ("" when it serves none), and
   * whether it served the object (then nothing is parsed or run). */
  char direct_key[CACHE_KEY_SIZE];
  int direct_hit;
  char **target_params; /* plan_target_params's, [target] */
};

/* Outputs are renamed into place only when the whole run succeeded: jobs
 * and plan_finish record each finished output here, and main calls
 * plan_commit when no error was reported (a warning that -Werror makes an
 * error included, which may come after the output is made: a remote cache
 * refusing a PUT). On any other way out the temp names are removed, so a
 * non-zero exit never leaves an output behind. */
void plan_defer_commit(struct plan *p, const char *tmp, const char *dest);
/* The depfile of output out: -MF's name, else gcc's rule (out with its
 * suffix replaced by .d). Malloc'ed. */
char *plan_depfile_path(const struct options *o, const char *out);
/* Renames every recorded output into place, in order. Returns 0, or -1
 * (reported) after removing the ones already renamed. */
int plan_commit(struct plan *p);

/* gcc's -save-temps: copies the run's intermediate files (the normalized
 * module, device files, finished objects, fat binaries, host objects) that
 * exist into the
 * current directory (-save-temps=obj: the output's), with gcc-style names:
 * "<base>-<gpu.module>-<target>.<suffix>", where base is the output's name
 * without suffix when linking one MLIR input, "<output>-<input>" for
 * several, and the input's name with -c or --emit=. Returns 0 or -1. */
int plan_save_temps(struct plan *p);

/* After a successful run: copies the stage asked for with --emit=/-S to its
 * output(s), and writes the depfile of -MD. Returns 0 or -1 (reported). */
int plan_finish(struct plan *p);
/* -###: the copies plan_finish would make of an --emit= stage's files to
 * their names, as `cp` lines. */
void plan_print_outputs(FILE *out, const struct plan *p);

/* The toolchain found for the options' targets, each target checked, each
 * kind in use prepared (with MLIR inputs: prepare_kinds). Returns 0 or -1
 * (reported). */
int plan_toolchain(struct plan *p, int prepare_kinds);
/* The MLIR context (frontend_init), and what normalization knows of the
 * target kinds (frontend_set_kind_rows). 0, or -1 reported. */
int plan_frontend_init(void);
/* --bundle: reads and opens the .gpucc-device inputs. Returns 0 or -1. */
int plan_open_parts(struct plan *p);
/* The manifest's code flags (run.c): what the options that change code were. */
void plan_code_flags(const struct options *o, char *buf, size_t len);
/* Everything but the module's text that shapes target ti's objects, for
 * cache keys: gpucc's build, the target, the code flags and what the kind
 * says of its tools and libraries. Made once per run (the direct cache's
 * key and every input's device keys read it); the plan owns it. */
const char *plan_target_params(struct plan *p, size_t ti);
/* Tests plant faults in a job (GPUCC_TEST_CRASH=<kind>[-trap|-warning|
 * -sleep], crash.h): called where a job starts, in the driver's child and
 * in -cc1, so that a crash reproducer's job crashes again. */
void job_planted_faults(const struct job *j);

/* Parses the inputs and builds the job list. Returns 0 or -1 (reported). */
int plan_build(struct plan *p, const struct options *o);
/* Prints every job (-###). */
void plan_print(const struct plan *p);
/* Runs the jobs, device jobs, host code and tools up to -j at once
 * (in-process jobs in forked children, so an LLVM fatal error ends only its
 * job), each as soon as its dependencies are done; the link, which depends
 * on every other job, runs last. Under make's jobserver every child job
 * beside the first holds one of make's tokens (jobserver.h). Children read
 * /dev/null and write into a file that is printed whole when they end. At
 * the first failure the running jobs are killed and waited for. Returns 0
 * or -1 (reported). */
int plan_run(struct plan *p);

#endif
