/* job.h: the work of one gpucc run, as data.
 *
 * The driver first parses each MLIR input (to learn its gpu.modules), then
 * builds the complete job list, then runs it in order; -### prints the list
 * and runs nothing. Jobs talk to each other through files, which each job
 * lists (ins, outs): the order of the jobs follows from them, every job can
 * be shown as a command, and its inputs kept with --save-temps. In-process
 * jobs are printed as shell comments ("# gpucc: what: ins -> outs"). */
#ifndef GPUCC_JOB_H
#define GPUCC_JOB_H

#include "diag.h"
#include "fatbin.h"
#include "lowering.h"
#include "options.h"
#include "program.h"
#include "symname.h"

#include <stddef.h>
#include <sys/types.h>

/* One (gpu.module, target) pair: the files made for it and its cache key. */
struct cell {
  const char *device_path;   /* the device job's file: PTX, hsaco, host object */
  const char *finished_path; /* what the kind's tool makes of it (cubin, .so); NULL if none */
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

enum job_kind {
  JOB_DEVICE, /* in-process: all gpu.modules of a unit for one target */
  JOB_TOOL,   /* spawned: ptxas, cc -shared, cc -c, ld -r */
  JOB_BUNDLE, /* in-process: one gpu.module's objects into one blob */
  JOB_HOST,   /* in-process: lower host code, emit its object */
  JOB_FETCH,  /* in-process: one target's objects, copied from the cache */
  JOB_PACK,   /* in-process (--device-only): every object into one file */
  JOB_LINK,   /* spawned, last: cc links the executable or shared library */
};

enum job_state { JOB_PENDING, JOB_RUNNING, JOB_DONE };

/* How many jobs may run at once: -j, else one per core. */
int plan_job_limit(const struct options *o);

struct job {
  enum job_kind kind;
  char *what;   /* "ptxas: @kernels for sm_90" */
  char **argv;  /* JOB_TOOL, JOB_LINK */
  struct unit *unit;
  size_t target; /* JOB_DEVICE, JOB_BUNDLE: index into options.targets */
  const char *target_id; /* JOB_TOOL finishing a target's objects: that target (-ftime-report) */
  size_t module; /* JOB_BUNDLE */
  struct module_range range; /* JOB_DEVICE: the gpu.modules it compiles */
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
  int usage_error; /* plan_build failed on options that do not go together: exit 2 */
  /* Outputs made, renamed into place by plan_commit: [i] from tmp to dest. */
  const char **commit_tmp, **commit_dest;
  size_t ncommits;
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

/* gcc's -save-temps: copies the run's intermediate files (device files,
 * finished objects, fat binaries, host objects) that exist into the
 * current directory (-save-temps=obj: the output's), with gcc-style names:
 * "<base>-<gpu.module>-<target>.<suffix>", where base is the output's name
 * without suffix when linking one MLIR input, "<output>-<input>" for
 * several, and the input's name with -c or --emit=. Returns 0 or -1. */
int plan_save_temps(struct plan *p);

/* After a successful run: copies the stage asked for with --emit=/-S to its
 * output(s), and writes the depfile of -MD. Returns 0 or -1 (reported). */
int plan_finish(struct plan *p);

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
