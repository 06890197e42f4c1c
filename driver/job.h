/* job.h: the work of one gpucc run, as data.
 *
 * The driver first parses each MLIR input (to learn its gpu.modules), then
 * builds the complete job list, then runs it in order; -### prints the list
 * and runs nothing. Jobs talk to each other through files, so every job can
 * be shown as a command and its inputs kept with --save-temps. In-process
 * jobs are printed as shell comments ("# gpucc: ..."). */
#ifndef GPUCC_JOB_H
#define GPUCC_JOB_H

#include "lowering.h"
#include "options.h"

#include <mlir-c/IR.h>
#include <stddef.h>
#include <sys/types.h>

/* One MLIR input file on its way to an object file. */
struct unit {
  const char *input;
  MlirModule module;
  size_t nmodules;
  char **module_names;
  const char **device_paths; /* [module * ntargets + target]: PTX, hsaco, or
                                host object */
  const char **linked_paths; /* same shape: the cubin (ptxas) or the host
                                shared object (cc -shared); NULL if none */
  const char **blob_paths;   /* [module]: the fat-binary blob */
  char tag[17];              /* names this TU's blob symbols (hash of the module) */
  const char *host_obj_path; /* host code, referring to the blob symbols */
  const char **blob_obj_paths; /* [module]: the object defining its blob */
  const char *obj_path;      /* with -c: host + blob objects, combined (ld -r) */
  const char *obj_final;     /* with -c: where obj_path is renamed to */
  const char *host_mlir_path; /* --emit=mlir-host: temp file, or NULL */
  const char *device_mlir_path; /* --emit=mlir-device: temp file, or NULL */
  const char *host_ll_path;   /* --emit=llvm / -S: temp file, or NULL */
  char (*keys)[65];          /* [module * ntargets + target]: cache keys */
  int *cached;               /* [target]: every module's objects came from the cache */
};

enum job_kind {
  JOB_DEVICE, /* in-process: all gpu.modules of a unit for one target */
  JOB_TOOL,   /* spawned: ptxas, cc -shared, cc -c */
  JOB_BUNDLE, /* in-process: one gpu.module's objects into one blob */
  JOB_HOST,   /* in-process: lower host code, emit its object */
  JOB_FETCH,  /* in-process: one target's objects, copied from the cache */
  JOB_PACK,   /* in-process (--device-only): every object into one file */
};

enum job_state { JOB_PENDING, JOB_RUNNING, JOB_DONE };

struct job {
  enum job_kind kind;
  char *what;   /* "ptxas: @kernels for sm_90" */
  char **argv;  /* JOB_TOOL */
  struct unit *unit;
  size_t target; /* JOB_DEVICE, JOB_BUNDLE: index into options.targets */
  size_t module; /* JOB_BUNDLE */
  const char *commit_from, *commit_to; /* renamed into place on success */
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
  char **link_argv;     /* NULL with -c */
  const char *link_tmp; /* temp output renamed to opts->output */
};

/* After a successful run: copies the stage asked for with --emit=/-S to its
 * output(s), and writes the depfile of -MD. Returns 0 or -1 (reported). */
int plan_finish(struct plan *p);

/* Parses the inputs and builds the job list. Returns 0 or -1 (reported). */
int plan_build(struct plan *p, const struct options *o);
/* Prints every job (-###). */
void plan_print(const struct plan *p);
/* Runs the jobs, device jobs and tools up to -j at once (device jobs in
 * forked children, so an LLVM fatal error ends only its job), each as soon
 * as its dependencies are done. At the first failure the running jobs are
 * killed and waited for. Returns 0 or -1 (reported). */
int plan_run(struct plan *p);

#endif
