/* plan.c: from options to the job list; see job.h.
 *
 * For each MLIR input: parse and normalize (done here, since the job list
 * depends on which gpu.modules exist), then one device job per target, one
 * ptxas job per (gpu.module, NVIDIA target) when ptxas exists, one bundle job
 * per gpu.module and one host job. Last comes the link, unless -c. */
#include "direct_cache.h"
#include "job.h"

#include "cache.h"
#include "diag.h"
#include "fatbin.h"
#include "program.h"
#include "queries.h"
#include "target_check.h"
#include "tmp.h"
#include "xstr.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GPUCC_RT_RELDIR
#define GPUCC_RT_RELDIR "../lib"
#endif


static void add_dep(struct job *j, size_t dep) {
  size_t *n = realloc(j->deps, (j->ndeps + 1) * sizeof *n);
  if (!n)
    BUG("out of memory");
  j->deps = n;
  j->deps[j->ndeps++] = dep;
}

static void add_path(const char ***list, size_t *n, const char *path) {
  if (!path)
    return;
  const char **grown = realloc(*list, (*n + 1) * sizeof *grown);
  if (!grown)
    BUG("out of memory");
  *list = grown;
  grown[(*n)++] = path;
}

static void job_in(struct job *j, const char *path) { add_path(&j->ins, &j->nins, path); }
static void job_out(struct job *j, const char *path) { add_path(&j->outs, &j->nouts, path); }

/* Each job waits for the jobs that write a file it reads. */
static void derive_deps(struct plan *p) {
  for (size_t i = 0; i < p->njobs; i++) {
    struct job *j = &p->jobs[i];
    for (size_t k = 0; k < p->njobs; k++) {
      const struct job *w = &p->jobs[k];
      int needed = 0;
      for (size_t a = 0; a < j->nins && !needed && k != i; a++)
        for (size_t b = 0; b < w->nouts && !needed; b++)
          needed = strcmp(j->ins[a], w->outs[b]) == 0;
      if (needed)
        add_dep(j, k);
    }
  }
}

static struct job *add_job(struct plan *p, const struct job_kind *kind, struct unit *u, char *what) {
  struct job *n = realloc(p->jobs, (p->njobs + 1) * sizeof *n);
  if (!n)
    BUG("out of memory");
  p->jobs = n;
  struct job *j = &p->jobs[p->njobs++];
  memset(j, 0, sizeof *j);
  j->kind = kind;
  j->in_parent = kind->in_parent;
  j->unit = u;
  j->what = what;
  return j;
}


/* A name for this TU's blob symbols that is the same in every build of the
 * same module and differs between TUs: a hash of the normalized module
 * (kept whole for the host object's cache key). */
static void compute_tag(struct unit *u) {
  size_t len;
  char *text = program_text(u->prog, &len);
  unsigned char sum[FATBIN_SHA256_SIZE];
  fatbin_sha256(text, len, sum);
  free(text);
  fatbin_sha256_hex(sum, u->module_hash);
  snprintf(u->tag, sizeof u->tag, "%.16s", u->module_hash);
}

/* The host object is cached like device code: with warm device objects,
 * host code is most of a rebuild. Its key is the whole normalized module
 * (through its hash, which also gives the blob symbols) and what changes
 * its code. Not under -g (locations are not in the text) nor when a stage
 * is emitted. */
static void compute_host_key(struct plan *p, struct unit *u) {
  const struct options *o = p->opts;
  u->host_key[0] = '\0';
  if (!cache_enabled() || o->debug_info || u->host_mlir_path || u->host_ll_path)
    return;
  char *params = xasprintf("gpucc-host-2 gpucc=%s build=%s llvm=%s O=%d contract=%d", GPUCC_VERSION,
                           cache_compiler_id(), GPUCC_LLVM_VERSION, o->opt_level,
                           options_host_contract(o));
  cache_key(u->module_hash, strlen(u->module_hash), params, u->host_key);
  free(params);
  u->host_cached = cache_has(u->host_key, "host");
}

/* Whether the run needs host code: --emit= of a device stage (the device
 * MLIR, PTX, cubins, hsacos, the blobs) does not, and lowering it would
 * only cost time (seconds, for host code with large vector ops). */
static int wants_host(const struct options *o) {
  return o->mode != MODE_EMIT || o->emit == EMIT_MLIR_HOST || o->emit == EMIT_LLVM ||
         o->emit == EMIT_OBJ;
}

/* A temp file of gpu.module m: <stem>-<module><suffix>. */
static const char *module_tmp_path(const struct unit *u, size_t m, const char *stem, const char *suffix) {
  char *part = xfile_part(unit_module(u, m));
  char *name = xasprintf("%s-%s", stem, part);
  const char *path = tmp_path(name, suffix);
  free(part);
  free(name);
  return path;
}

/* Where the host object goes and, per gpu.module, the object defining its
 * fat binary (the bundle jobs write those); the TU's tag and the host
 * object's cache key. */
static void plan_host_paths(struct plan *p, struct unit *u, const char *stem) {
  compute_tag(u);
  if (wants_host(p->opts))
    compute_host_key(p, u);
  u->host_obj_path = tmp_path(stem, ".host.o");
  u->blob_obj_paths = calloc(u->nmodules + 1, sizeof *u->blob_obj_paths);
  if (!u->blob_obj_paths)
    BUG("out of memory");
  for (size_t m = 0; m < u->nmodules; m++)
    u->blob_obj_paths[m] = module_tmp_path(u, m, stem, ".fatbin.o");
}

/* One bundle job per gpu.module: what ships of each target (or, with
 * --bundle, the .gpucc-device inputs' objects) into one fat binary and the
 * object that defines it; the program for its kernels. */
static void plan_bundles(struct plan *p, struct unit *u, const char *stem) {
  const struct options *o = p->opts;
  for (size_t m = 0; m < u->nmodules; m++) {
    u->blob_paths[m] = module_tmp_path(u, m, stem, ".gpucc-fatbin");
    char *shown = unit_module_shown(u, m);
    struct job *j = add_job(p, &job_bundle, u, xasprintf("fat binary for @%s", shown));
    free(shown);
    j->module = m;
    job_in(j, u->normalized_path);
    for (size_t k = 0; k < p->nparts && o->bundle; k++)
      job_in(j, p->parts[k].path);
    for (size_t t = 0; t < o->ntargets && !o->bundle; t++) {
      if (o->targets[t].info->kind->device_format >= 0)
        job_in(j, unit_cell(u, o->ntargets, m, t)->device_path);
      job_in(j, unit_cell(u, o->ntargets, m, t)->finished_path);
      job_in(j, u->lib_paths[t]); /* module 0 carries it, every module names it */
    }
    job_out(j, u->blob_paths[m]);
    job_out(j, u->blob_obj_paths[m]);
  }
}

/* The host job; with -c, the job that combines its object and the blob
 * objects into the output object. */
static int plan_host(struct plan *p, struct unit *u, const char *stem) {
  const struct options *o = p->opts;
  if (!wants_host(o))
    return 0;
  /* Host code needs no device result: it runs alongside the device jobs. */
  struct job *h = add_job(p, &job_host, u, xasprintf("%shost code: %s", u->host_cached ? "cached " : "", u->input));
  h->in_parent = u->host_cached; /* a copy out of the cache */
  job_in(h, u->normalized_path);
  job_out(h, u->host_obj_path);
  job_out(h, u->host_mlir_path);
  job_out(h, u->host_ll_path);
  if (o->mode != MODE_COMPILE)
    return 0;
  u->obj_final = o->output ? o->output : xasprintf("%s.o", stem);
  u->obj_path = o->dry_run ? u->obj_final : tmp_output_path(u->obj_final);
  if (!u->obj_path)
    return -1;
  char **argv = calloc(u->nmodules + 6, sizeof *argv);
  if (!argv)
    BUG("out of memory");
  size_t k = 0;
  argv[k++] = "ld";
  argv[k++] = "-r";
  argv[k++] = "-o";
  argv[k++] = (char *)u->obj_path;
  argv[k++] = (char *)u->host_obj_path;
  for (size_t m = 0; m < u->nmodules; m++)
    argv[k++] = (char *)u->blob_obj_paths[m];
  struct job *j = add_job(p, &job_tool, u, xasprintf("ld -r: %s", u->obj_final));
  j->argv = argv;
  j->commit_from = u->obj_path;
  j->commit_to = u->obj_final;
  for (size_t a = 4; argv[a]; a++)
    job_in(j, argv[a]);
  job_out(j, u->obj_path);
  return 0;
}

/* Cache keys: the gpu.module's text (with locations under -g, since they
 * end up in the code) and every parameter that changes the result. */
static void compute_keys(struct plan *p, struct unit *u) {
  const struct options *o = p->opts;
  u->cached = calloc(o->ntargets + 1, sizeof *u->cached);
  if (!u->cached)
    BUG("out of memory");
  if (!cache_enabled()) /* keys are never read: skip printing and hashing */
    return;
  /* Per target: what every kind's key has, then what the kind says shapes
   * its objects (its tools, libraries and their options). Only the kind
   * knows the latter: a new CUDA leaves AMD and host entries valid, a new
   * ROCm the NVIDIA ones. */
  for (size_t m = 0; m < u->nmodules; m++) {
    size_t len;
    char *text = program_module_text(u->prog, m, o->debug_info, &len);
    for (size_t ti = 0; ti < o->ntargets; ti++) {
      struct cell *c = unit_cell(u, o->ntargets, m, ti);
      /* Parts make other bytes than a whole module (how much of the
       * build's work the module is decides): each has its own entry. */
      char *parted = c->parts.n > 1 ? xasprintf("%s parts=%zu", plan_target_params(p, ti), c->parts.n) : NULL;
      cache_key(text, len, parted ? parted : plan_target_params(p, ti), c->key);
      free(parted);
    }
    free(text);
  }
  for (size_t ti = 0; ti < o->ntargets && cache_enabled(); ti++) {
    int hit = u->nmodules > 0;
    for (size_t m = 0; m < u->nmodules && hit; m++) {
      const struct cell *c = unit_cell(u, o->ntargets, m, ti);
      hit = cache_has(c->key, "dev") && (!c->finished_path || cache_has(c->key, "lnk"));
    }
    u->cached[ti] = hit;
  }
}

/* The kernels of gpu.module m: what finish_parts counts. */
static int count_kernel(const struct program_kernel *k, void *ud) {
  (void)k;
  ++*(size_t *)ud;
  return 0;
}

static size_t module_kernels(const struct unit *u, size_t m) {
  size_t n = 0;
  program_each_kernel(u->prog, m, count_kernel, &n);
  return n;
}

/* The n parts of cell c's device file, beside it (n < 2: whole). */
static void plan_parts(struct cell *c, size_t n) {
  if (n < 2)
    return;
  const char **paths = calloc(n, sizeof *paths);
  if (!paths)
    BUG("out of memory");
  for (size_t i = 0; i < n; i++)
    paths[i] = lowering_part_path(c->device_path, i);
  c->parts = (struct device_parts){n, paths};
}

/* Module m's device file for target t finished in c->parts parts, at
 * once: the kind's tool on each part the device job wrote, then its join
 * of the parts' objects into the finished file. */
static void plan_finish_parts(struct plan *p, struct unit *u, size_t m, size_t t) {
  const struct options *o = p->opts;
  const struct target *tg = &o->targets[t];
  const struct target_kind *k = tg->info->kind;
  const struct cell *c = unit_cell(u, o->ntargets, m, t);
  struct finish_request req = {options_device_opt(o), o->debug_info, 1};
  size_t n = c->parts.n;
  const char **objs = calloc(n + 1, sizeof *objs);
  if (!objs)
    BUG("out of memory");
  char *shown = unit_module_shown(u, m);
  for (size_t i = 0; i < n; i++) {
    const char *in = c->parts.paths[i];
    objs[i] = lowering_part_path(c->finished_path, i);
    struct job *j = add_job(p, &job_tool, u, xasprintf("%s: @%s for %s, part %zu of %zu", k->finish_tool,
                                                      shown, tg->id, i + 1, n));
    j->argv = k->finish_argv(&p->tc, tg, &req, in, objs[i]);
    j->module = m;
    j->target_id = tg->id;
    job_in(j, in);
    job_out(j, objs[i]);
  }
  struct job *join = add_job(p, &job_tool, u, xasprintf("%s: @%s for %s, %zu parts", k->join_tool, shown,
                                                       tg->id, n));
  free(shown);
  join->argv = k->join_argv(&p->tc, tg, objs, n, c->finished_path);
  join->module = m;
  join->target_id = tg->id;
  for (size_t i = 0; i < n; i++)
    job_in(join, objs[i]);
  job_out(join, c->finished_path);
  free(objs);
}

/* The kind's tool on every module's device file at once: its command for
 * module 0, the others' files inserted after that one (`cc -shared -o lib
 * m0.o m1.o ... builtins.a -lm`), so libraries after it still serve all. */
static void plan_link_modules(struct plan *p, struct unit *u, size_t t) {
  const struct options *o = p->opts;
  const struct target *tg = &o->targets[t];
  struct finish_request req = {options_device_opt(o), o->debug_info, 0};
  const char *first = unit_cell(u, o->ntargets, 0, t)->device_path;
  char **one = tg->info->kind->finish_argv(&p->tc, tg, &req, first, u->lib_paths[t]);
  size_t n = 0, at = 0;
  while (one[n])
    n++;
  while (at < n && one[at] != first)
    at++;
  if (at == n)
    BUG("the finishing command does not name its input");
  char **argv = calloc(n + u->nmodules + 1, sizeof *argv);
  if (!argv)
    BUG("out of memory");
  size_t k = 0;
  for (size_t i = 0; i <= at; i++)
    argv[k++] = one[i];
  for (size_t m = 1; m < u->nmodules; m++)
    argv[k++] = (char *)unit_cell(u, o->ntargets, m, t)->device_path;
  for (size_t i = at + 1; i < n; i++)
    argv[k++] = one[i];
  free(one);
  struct job *j = add_job(p, &job_tool, u, xasprintf("%s: %zu gpu.module%s for %s", tg->info->kind->finish_tool,
                                                    u->nmodules, u->nmodules == 1 ? "" : "s", tg->id));
  j->argv = argv;
  j->target_id = tg->id;
  for (size_t m = 0; m < u->nmodules; m++)
    job_in(j, unit_cell(u, o->ntargets, m, t)->device_path);
  job_out(j, u->lib_paths[t]);
}

int plan_job_limit(const struct options *o) {
  if (o->jobs > 0)
    return o->jobs;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

/* Whether the run's output is device jobs' files only (--emit=ptx,
 * --emit=hsaco): then no finishing tool (ptxas), fat binary or host code is
 * needed, as nvcc -ptx runs no ptxas. */
static int device_files_only(const struct options *o) {
  if (o->mode != MODE_EMIT || o->emit != EMIT_TARGET)
    return 0;
  for (size_t k = 0; target_kinds[k]; k++)
    if (target_kinds[k]->finished_stage && !strcmp(target_kinds[k]->finished_stage, o->emit_stage))
      return 0;
  return 1;
}

/* How many device jobs each target's gpu.modules are split into: enough
 * that the targets' jobs together fill the cores -j allows (one target's
 * thousand small modules took one core for all of its LLVM work), with at
 * least two modules per job, since each job clones, lowers and sets up
 * code generation once. The same for every target: each module's object
 * does not depend on it. */
static size_t device_parts(const struct options *o, const struct unit *u) {
  size_t uncached = 0;
  for (size_t t = 0; t < o->ntargets; t++)
    uncached += !u->cached[t];
  if (uncached == 0)
    return 1;
  size_t limit = (size_t)plan_job_limit(o);
  size_t parts = (limit + uncached - 1) / uncached;
  if (parts > u->nmodules / 2)
    parts = u->nmodules / 2;
  return parts ? parts : 1;
}

/* The uncached targets that t's device jobs compile for: t and the later
 * ones of its family (lowering_same_family: lowered and optimized once,
 * code per chip), in *members (malloc'ed) with their count; 0 when an
 * earlier target's jobs compile t. */
static size_t device_family(const struct options *o, const struct unit *u, size_t t,
                            size_t **members) {
  for (size_t e = 0; e < t; e++)
    if (!u->cached[e] && lowering_same_family(u->prog, &o->targets[e], &o->targets[t]))
      return 0;
  size_t n = 0;
  *members = calloc(o->ntargets, sizeof **members);
  if (!*members)
    BUG("out of memory");
  for (size_t f = t; f < o->ntargets; f++)
    if (f == t || (!u->cached[f] && lowering_same_family(u->prog, &o->targets[t], &o->targets[f])))
      (*members)[n++] = f;
  return n;
}

/* The normalize job: it writes the unit's normalized module to `path`
 * (NULL: tmp_path failed, reported). */
static int plan_normalize(struct plan *p, struct unit *u, const char *path) {
  if (!path)
    return -1;
  u->normalized_path = path;
  struct job *n = add_job(p, &job_normalize, u, xasprintf("normalize: %s", u->input));
  job_in(n, u->input);
  job_out(n, u->normalized_path);
  return 0;
}

static int plan_unit(struct plan *p, struct unit *u) {
  const struct options *o = p->opts;
  if (program_load(u->input, &u->prog) != 0)
    return -1;
  u->nmodules = program_module_count(u->prog);
  u->cells = calloc(u->nmodules * o->ntargets + 1, sizeof *u->cells);
  u->blob_paths = calloc(u->nmodules + 1, sizeof *u->blob_paths);
  if (!u->cells || !u->blob_paths)
    BUG("out of memory");
  if (o->emit == EMIT_MLIR_DEVICE) {
    /* The normalized module is the stage: one job writes it (as a -cc1
     * line under -###), nothing is compiled. */
    return plan_normalize(p, u, u->device_mlir_path = tmp_path("device", ".mlir"));
  }
  /* What a target cannot compile is refused here, before any job; with
   * --bundle the device objects are made already. */
  if (!o->bundle && target_check_program(u->prog, o->targets, o->ntargets) != 0)
    return -1;
  if (o->emit == EMIT_MLIR_HOST)
    u->host_mlir_path = tmp_path("host", ".mlir");
  if (o->emit == EMIT_LLVM)
    u->host_ll_path = tmp_path("host", ".ll");

  char *stem = xstem(u->input);
  /* The jobs' input: the module normalized above. */
  if (plan_normalize(p, u, tmp_path(stem, ".normalized.mlir")) != 0) {
    free(stem);
    return -1;
  }
  /* Each module's kernels, and every kernel the build finishes, once per
   * target: what a module's share of the work is measured against
   * (finish_parts). */
  size_t *kernels = calloc(u->nmodules + 1, sizeof *kernels), all_kernels = 0;
  if (!kernels)
    BUG("out of memory");
  for (size_t m = 0; m < u->nmodules; m++)
    all_kernels += (kernels[m] = module_kernels(u, m)) * o->ntargets;
  for (size_t m = 0; m < u->nmodules; m++)
    for (size_t t = 0; t < o->ntargets; t++) {
      const struct target *tg = &o->targets[t];
      char *part = xfile_part(unit_module(u, m));
      char *name = xasprintf("%s-%s-%s", stem, part, tg->id);
      free(part);
      const struct target_kind *k = tg->info->kind;
      struct cell *c = unit_cell(u, o->ntargets, m, t);
      c->device_path = tmp_path(name, k->device_suffix);
      if (k->finished_suffix && k->can_finish(&p->tc) && !plan_links_modules(k, u->nmodules))
        c->finished_path = tmp_path(name, k->finished_suffix);
      if (c->finished_path && k->finish_parts)
        plan_parts(c, k->finish_parts(&p->tc, kernels[m], all_kernels));
      free(name);
    }
  free(kernels);
  /* One object for all modules (none with --bundle: the parts carry it). */
  u->lib_paths = calloc(o->ntargets + 1, sizeof *u->lib_paths);
  u->lib_sha256 = calloc(o->ntargets + 1, sizeof *u->lib_sha256);
  u->lib_hashed = calloc(o->ntargets + 1, sizeof *u->lib_hashed);
  if (!u->lib_paths || !u->lib_sha256 || !u->lib_hashed)
    BUG("out of memory");
  for (size_t t = 0; t < o->ntargets && u->nmodules && !o->bundle; t++) {
    const struct target_kind *k = o->targets[t].info->kind;
    if (plan_links_modules(k, u->nmodules) && k->can_finish(&p->tc)) {
      char *name = xasprintf("%s-%s", stem, o->targets[t].id);
      u->lib_paths[t] = tmp_path(name, k->finished_suffix);
      free(name);
    }
  }
  if (o->bundle) {
    /* Device objects come from the .gpucc-device inputs. */
    u->cached = calloc(o->ntargets + 1, sizeof *u->cached);
    plan_host_paths(p, u, stem);
    plan_bundles(p, u, stem);
    int rc = plan_host(p, u, stem);
    free(stem);
    return rc;
  }
  compute_keys(p, u);
  size_t parts = device_parts(o, u);
  for (size_t t = 0; t < o->ntargets; t++) {
    if (u->cached[t]) {
      struct job *j = add_job(p, &job_fetch, u, xasprintf("cached device code for %s: %s", o->targets[t].id, u->input));
      j->target = t;
      for (size_t m = 0; m < u->nmodules; m++) {
        job_out(j, unit_cell(u, o->ntargets, m, t)->device_path);
        /* the finished objects come from the cache too */
        job_out(j, unit_cell(u, o->ntargets, m, t)->finished_path);
      }
      continue;
    }
    size_t *family;
    size_t nfamily = device_family(o, u, t, &family);
    for (size_t k = 0; k < parts && nfamily; k++) {
      struct module_range r = {u->nmodules * k / parts, 0, u->nmodules};
      r.count = u->nmodules * (k + 1) / parts - r.first;
      struct job *j = add_job(p, &job_device, u, parts == 1
          ? xasprintf("device code for %s: %s", o->targets[t].id, u->input)
          : xasprintf("device code for %s: %s, gpu.modules %zu to %zu of %zu", o->targets[t].id,
                      u->input, r.first + 1, r.first + r.count, r.total));
      j->target = t;
      j->range = r;
      if (nfamily > 1)
        j->family = family, j->nfamily = nfamily;
      job_in(j, u->normalized_path);
      for (size_t f = 0; f < nfamily; f++)
        for (size_t m = r.first; m < r.first + r.count; m++) {
          const struct cell *c = unit_cell(u, o->ntargets, m, family[f]);
          job_out(j, c->device_path);
          for (size_t i = 0; i < c->parts.n; i++)
            job_out(j, c->parts.paths[i]);
        }
    }
    if (nfamily == 1)
      free(family);
  }
  for (size_t m = 0; m < u->nmodules; m++)
    for (size_t t = 0; t < o->ntargets; t++) {
      const struct cell *c = unit_cell(u, o->ntargets, m, t);
      if (!c->finished_path || u->cached[t] || device_files_only(o))
        continue; /* nothing finishes it, it comes from the cache, or it is not needed */
      if (c->parts.n > 1) {
        plan_finish_parts(p, u, m, t);
        continue;
      }
      const struct target *tg = &o->targets[t];
      struct finish_request req = {options_device_opt(o), o->debug_info, 0};
      char *shown = unit_module_shown(u, m);
      struct job *j = add_job(p, &job_tool, u, xasprintf("%s: @%s for %s", tg->info->kind->finish_tool,
                                                        shown, tg->id));
      free(shown);
      j->argv = tg->info->kind->finish_argv(&p->tc, tg, &req, c->device_path, c->finished_path);
      j->module = m;
      j->target_id = tg->id;
      job_in(j, c->device_path);
      job_out(j, c->finished_path);
    }
  for (size_t t = 0; t < o->ntargets; t++)
    if (u->lib_paths[t] && !device_files_only(o))
      plan_link_modules(p, u, t);
  if (o->device_only) {
    u->obj_final = o->output ? o->output : xasprintf("%s.gpucc-device", stem);
    u->obj_path = o->dry_run ? u->obj_final : tmp_output_path(u->obj_final);
    free(stem);
    if (!u->obj_path)
      return -1;
    struct job *pack = add_job(p, &job_pack, u, xasprintf("device objects: %s", u->input));
    job_in(pack, u->normalized_path); /* its kernels */
    for (size_t m = 0; m < u->nmodules; m++)
      for (size_t t = 0; t < o->ntargets; t++) {
        job_in(pack, unit_cell(u, o->ntargets, m, t)->device_path);
        job_in(pack, unit_cell(u, o->ntargets, m, t)->finished_path);
      }
    for (size_t t = 0; t < o->ntargets; t++)
      job_in(pack, u->lib_paths[t]);
    job_out(pack, u->obj_path);
    return 0;
  }
  plan_host_paths(p, u, stem);
  if (!device_files_only(o))
    plan_bundles(p, u, stem);
  int rc = plan_host(p, u, stem);
  free(stem);
  return rc;
}

/* A C input whose name does not say so (it was -x c): "-", "k.inc". */
static int c_by_name_only(const struct input *in) {
  size_t n = strlen(in->arg);
  return in->kind == INPUT_C && (n < 2 || strcmp(in->arg + n - 2, ".c") != 0);
}

static int plan_link(struct plan *p) {
  const struct options *o = p->opts;
  /* Only MLIR inputs and none has a main: say so before the linker does
   * ("undefined reference to `main'"), with what was probably meant. */
  int others = 0, has_main = 0;
  for (size_t i = 0; i < o->ninputs; i++)
    others |= o->inputs[i].kind != INPUT_MLIR;
  int has_entry = 0;
  for (size_t u = 0; u < p->nunits; u++) {
    has_main |= program_defines(p->units[u].prog, "main");
    has_entry |= program_has_entry(p->units[u].prog);
  }
  /* -e's function must be somewhere (a C input cannot hold it): a main of
   * the program's own must not run in its place. */
  if (!o->shared && o->entry && !has_entry)
    return diag_error("no input defines a function '%s' with a body to start in (-e)", o->entry);
  if (!o->shared && !others && !has_main)
    return diag_error("no input defines 'main', so there is no program to link; use -c for an "
                      "object file, -shared for a library, -e for another entry function, or "
                      "--emit= for one stage");
  char *dir = gpucc_exe_dir();
  if (!dir)
    return diag_error("cannot find gpucc's own location (/proc/self/exe)");
  int static_rt = o->gpucc_rt == GPUCC_RT_STATIC || (o->gpucc_rt == GPUCC_RT_DEFAULT && !o->shared);
  const char *rt_name = static_rt ? "libgpucc_rt.a" : "libgpucc_rt.so";
  /* Installed: <prefix>/bin/gpucc and <prefix>/<libdir>/libgpucc_rt.*;
   * build tree: build/bin/gpucc and build/lib/libgpucc_rt.*. */
  char resolved[PATH_MAX];
  if (gpucc_runtime_dir(dir, rt_name, resolved) != 0) {
    diag_error("cannot find the gpucc runtime library %s in '%s/%s'", rt_name, dir, GPUCC_RT_RELDIR);
    free(dir);
    return -1;
  }
  free(dir);

  const char *out = o->output ? o->output : "a.out";
  const char *link_tmp = o->dry_run ? out : tmp_output_path(out);
  if (!link_tmp)
    return -1;
  size_t cap = 5 * o->ninputs + 32, k = 0; /* up to "-x c IN -x none" each */
  for (size_t u = 0; u < p->nunits; u++)
    cap += p->units[u].nmodules + 1;
  char **argv = calloc(cap, sizeof *argv);
  if (!argv)
    BUG("out of memory");
  argv[k++] = "cc";
  if (o->shared)
    argv[k++] = "-shared";
  argv[k++] = "-o";
  argv[k++] = (char *)link_tmp;
  size_t u = 0;
  /* Keep the user's order: MLIR objects stand where their inputs stood. */
  for (size_t i = 0; i < o->ninputs; i++) {
    if (o->inputs[i].kind == INPUT_MLIR) {
      argv[k++] = (char *)p->units[u].host_obj_path;
      for (size_t m = 0; m < p->units[u].nmodules; m++)
        argv[k++] = (char *)p->units[u].blob_obj_paths[m];
      u++;
    } else if (c_by_name_only(&o->inputs[i])) {
      /* C by -x only ("-", "kernel.inc"): cc must be told too. */
      argv[k++] = "-x";
      argv[k++] = "c";
      argv[k++] = (char *)o->inputs[i].arg;
      argv[k++] = "-x";
      argv[k++] = "none";
    } else {
      argv[k++] = (char *)o->inputs[i].arg;
    }
  }
  if (static_rt) {
    /* One relocatable object with only the runtime's ABI global (see
     * runtime/CMakeLists.txt). The host backend's kernels, dlopen()ed at
     * run time, call back into it: those functions must be exported. */
    argv[k++] = xasprintf("%s/libgpucc_rt.a", resolved);
    argv[k++] = "-Wl,--export-dynamic-symbol=gpuccHost*";
    argv[k++] = "-lpthread";
    argv[k++] = "-ldl";
  } else {
    argv[k++] = xasprintf("-L%s", resolved);
    argv[k++] = "-lgpucc_rt";
    argv[k++] = xasprintf("-Wl,-rpath,%s", resolved);
  }
  /* MLIR's runner utilities (printMemrefF32, printI64 & co.) and async
   * runtime are part of libgpucc_rt: whatever a program calls of them is
   * resolved with no scan of its inputs and no libMLIR/libLLVM. Host code
   * on bf16 calls compiler-rt's helpers, as host kernels do. */
  const char *builtins = lowering_builtins_archive();
  if (builtins)
    argv[k++] = (char *)builtins;
  argv[k++] = "-lm";
  argv[k] = NULL;
  /* A job like the others; it reads the objects of host and bundle jobs,
   * so it runs after them. */
  struct job *j = add_job(p, &job_link, NULL, xasprintf("link"));
  j->argv = argv;
  j->commit_from = link_tmp;
  j->commit_to = out;
  for (size_t a = 1; argv[a]; a++)
    if (argv[a][0] != '-' && argv[a] != link_tmp)
      job_in(j, argv[a]);
  job_out(j, link_tmp);
  return 0;
}

/* An output that is a directory: said by its name, before anything is
 * made (the rename at the end would name a temp file). */
static int output_is_directory(const char *out, const char *what) {
  struct stat st;
  if (!out || !strcmp(out, "-") || stat(out, &st) != 0 || !S_ISDIR(st.st_mode))
    return 0;
  return diag_error("cannot write %s '%s': it is a directory", what, out);
}

/* gcc's refusal: an output that is one of the inputs (the same file, by
 * device and inode) would destroy it. */
static int output_is_input(const struct options *o, const char *out) {
  struct stat so;
  if (!out || !strcmp(out, "-") || stat(out, &so) != 0)
    return 0;
  for (size_t i = 0; i < o->ninputs; i++) {
    struct stat si;
    if (stat(o->inputs[i].arg, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
      return diag_error("input file '%s' is the same as output file", o->inputs[i].arg);
  }
  return 0;
}

int plan_build(struct plan *p, const struct options *o) {
  memset(p, 0, sizeof *p);
  p->opts = o;
  if (output_is_input(o, o->output) || output_is_input(o, o->dep_output) ||
      output_is_directory(o->output, "the output") || output_is_directory(o->dep_output, "depfile"))
    return -1;
  /* The depfile is written last: a folder it cannot go into is refused
   * before anything is built, not after the object is in place. */
  if (o->depfile && o->dep_output && strcmp(o->dep_output, "-") != 0) {
    char *copy = xasprintf("%s", o->dep_output);
    const char *folder = dirname(copy);
    int ok = access(folder, W_OK) == 0;
    int err = errno;
    if (!ok)
      diag_error("cannot write depfile '%s': %s", o->dep_output, strerror(err));
    free(copy);
    if (!ok)
      return -1;
  }
  cache_open(o->use_cache && !o->dry_run && !o->syntax_only); /* keys would never be read */
  size_t nmlir = 0;
  for (size_t i = 0; i < o->ninputs; i++)
    nmlir += o->inputs[i].kind == INPUT_MLIR;
  if (plan_toolchain(p, nmlir > 0) != 0)
    return -1;
  /* A command the direct cache serves needs no MLIR at all. */
  if (direct_cache_fetch(p))
    return 0;
  if (plan_frontend_init() != 0)
    return -1;
  if (o->bundle && plan_open_parts(p) != 0)
    return -1;

  p->units = calloc(nmlir + 1, sizeof *p->units);
  if (!p->units)
    BUG("out of memory");
  for (size_t i = 0; i < o->ninputs; i++) {
    if (o->inputs[i].kind == INPUT_MLIR) {
      struct unit *u = &p->units[p->nunits++];
      u->input = o->inputs[i].arg;
      if (plan_unit(p, u) != 0)
        return -1;
    } else if (o->inputs[i].kind == INPUT_C && o->mode == MODE_COMPILE) {
      char *stem = xstem(o->inputs[i].arg);
      char **argv = calloc(14 + 2 * o->ndep_targets, sizeof *argv);
      if (!argv)
        BUG("out of memory");
      size_t k = 0;
      argv[k++] = "cc";
      argv[k++] = "-c";
      if (c_by_name_only(&o->inputs[i])) { /* C by -x only: cc must be told too */
        argv[k++] = "-x";
        argv[k++] = "c";
      }
      size_t in = k;
      argv[k++] = (char *)o->inputs[i].arg;
      argv[k++] = "-o";
      /* Written under a temp name and renamed with the other outputs. */
      const char *obj = o->output ? o->output : xasprintf("%s.o", stem);
      const char *obj_tmp = o->dry_run ? obj : tmp_output_path(obj);
      free(stem);
      if (!obj_tmp)
        return -1;
      argv[k++] = (char *)obj_tmp;
      /* -MD goes on to cc, which knows the headers; the depfile names the
       * object by its final name, not the temp one cc writes. */
      const char *dep = NULL, *dep_tmp = NULL;
      if (o->depfile) {
        dep = plan_depfile_path(o, obj);
        dep_tmp = o->dry_run ? dep : tmp_output_path(dep);
        if (!dep_tmp)
          return -1;
        argv[k++] = "-MD";
        argv[k++] = "-MF";
        argv[k++] = (char *)dep_tmp;
        for (size_t t = 0; t < o->ndep_targets || t == 0; t++) {
          argv[k++] = "-MT";
          argv[k++] = (char *)(o->ndep_targets ? o->dep_targets[t] : obj);
        }
      }
      struct job *j = add_job(p, &job_tool, NULL, xasprintf("cc: %s", o->inputs[i].arg));
      j->argv = argv;
      if (!o->dry_run) {
        j->commit_from = obj_tmp;
        j->commit_to = obj;
        j->depfile_from = dep_tmp;
        j->depfile_to = dep;
      }
      job_in(j, argv[in]);
      job_out(j, argv[k - 1]);
    }
  }
  if (o->mode == MODE_LINK && plan_link(p) != 0)
    return -1;
  derive_deps(p);
  return 0;
}
