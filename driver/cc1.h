/* cc1.h: `gpucc -cc1 <kind> ...`, one job of a plan run alone, from files
 * (cproc's and chibicc's way: the driver's in-process work is a command
 * too). -### prints every job that runs inside gpucc as such a line, so
 * that its output, run by sh in order, makes the same bytes as the build.
 * Not in --help: the lines are the driver's, and a person reruns one.
 *
 * The syntax, the same for every kind (each takes what it needs):
 *
 *   gpucc -cc1 KIND [options] INPUT... -o OUT [-o OUT ...]
 *
 *   INPUT                    the normalized module (job_normalize.c writes
 *                            it); for `normalize`, the source; for a bundle
 *                            of --bundle, the .gpucc-device files too
 *   -O<n> -g -ffp-contract=  --fatbin-compress= -fsanitize= --entry=
 *   --entry-point-result= -x and the kinds' options (--cuda-path=, -Xptxas)
 *                            gpucc's own options, meaning what they mean
 *                            there; the driver passes each job the values
 *                            its code got (-O3 for device code by default)
 *   --offload-arch=ID        one target; the files after it are its own
 *   --gpu-module=N           the (first) gpu.module, counted from 0; for
 *                            `pack`, the files after it are of this module
 *   --device-file=F          the device job's file of (module, target)
 *   --finished-file=F        what the kind's tool made of it (a cubin)
 *   --library=F              the target's object of every module (the host
 *                            target's shared object)
 *   --tag=HEX                names the fat-binary symbols (host, bundle)
 *   --blob-object=F          bundle: also write the object defining them
 *   --emit-mlir=F --emit-llvm=F   host: the host module in those forms
 *
 * Outputs are written under temp names and renamed into place when the job
 * succeeded. Exit status as gpucc's: 1 a failed job, 2 a usage error. */
#ifndef GPUCC_CC1_H
#define GPUCC_CC1_H

#include "options.h"

#include <stddef.h>
#include <stdio.h>

struct plan;
struct unit;

enum cc1_role { CC1_DEVICE_FILE, CC1_FINISHED_FILE, CC1_LIBRARY };

/* A file given for (module, target); module is (size_t)-1 for a library. */
struct cc1_file {
  enum cc1_role role;
  size_t module, target;
  const char *path;
};

struct cc1_command {
  const char *kind;
  struct options *o;         /* the options above; o->targets as given */
  const char **outs;         /* -o, in order */
  size_t nouts;
  const char *tag, *blob_object, *emit_mlir, *emit_llvm;
  size_t module;             /* --gpu-module= (the last one) */
  size_t *parts;             /* --device-parts=N,...: per -o */
  size_t nparts;
  int module_given;
  struct cc1_file *files;
  size_t nfiles;
};

/* gpucc -cc1 ...: argv[1] is "-cc1". Returns gpucc's exit status. */
int cc1_main(int argc, char **argv);

/* The MLIR input of c (the first), or NULL after a usage error. */
const char *cc1_input(struct plan *p, const struct cc1_command *c);
/* A usage error of a -cc1 line: reported, p->usage_error set; -1. */
int cc1_usage(struct plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An output of the job: the temp name it writes, renamed to dest when the
 * job succeeded. NULL when it cannot be made (reported). */
const char *cc1_output(struct plan *p, const char *dest);
/* Unit u of p from c: the normalized module (its MLIR input) read, the
 * per-module and per-target tables made for p's targets, --tag= taken.
 * Returns 0 or -1 (reported). */
int cc1_load_unit(struct plan *p, const struct cc1_command *c, struct unit *u);
/* The file given for (module, target) in role, or NULL. */
const char *cc1_file(const struct cc1_command *c, enum cc1_role role, size_t module, size_t target);

/* Building a -cc1 line for -### and -v (job kinds' describe). */
struct cc1_line {
  char **argv;
  size_t n, cap;
};
/* Starts "<gpucc> -cc1 KIND". */
void cc1_line_start(struct cc1_line *l, const char *kind);
void cc1_line_add(struct cc1_line *l, const char *arg);
void cc1_line_addf(struct cc1_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* -O<n> -ffp-contract=MODE [-g]: what code generation was given. */
void cc1_line_codegen(struct cc1_line *l, int opt, int contract, int debug);
/* The kinds' own options as given to the driver (--cuda-path=, -Xptxas
 * ...): kind's only, unless NULL; with code_only, those the manifest
 * records. Without them a job finds what the driver found, from the same
 * environment. */
void cc1_line_kind_args(struct cc1_line *l, const struct options *o, const struct target_kind *kind,
                        int code_only);
/* Prints it shell-quoted on one line and frees it. */
void cc1_line_print(FILE *out, struct cc1_line *l);

#endif
