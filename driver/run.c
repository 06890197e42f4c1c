/* run.c: printing (-###) and running the job list; see job.h.
 * With -v every job is shown before it runs and its wall time after;
 * without it, on a terminal, one status line shows how far the run is
 * (progress.h). Each child job's output is captured and printed whole when
 * it ends; under make's jobserver each job beside the first holds a token
 * (jobserver.h). */
#include "job.h"

#include "cache.h"
#include "crash.h"
#include "diag.h"
#include "fatbin.h"
#include "interrupt.h"
#include "jobserver.h"
#include "program.h"
#include "proc.h"
#include "progress.h"
#include "time_report.h"
#include "tmp.h"
#include "xstr.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Tools print as their command; in-process jobs as shell comments naming
 * what they read and write, so -### output stays valid shell. */
static void print_job(FILE *out, const struct plan *p, const struct job *j) {
  const char *target = p->opts->ntargets ? p->opts->targets[j->target].id : "";
  switch (j->kind) {
  case JOB_TOOL:
  case JOB_LINK:
    spawn_print(out, j->argv);
    return;
  case JOB_DEVICE: /* "lower prog.mlir for sm_90 -> ..." */
    fprintf(out, "# gpucc: lower %s for %s ->", j->nins ? j->ins[0] : "", target);
    break;
  case JOB_FETCH: fprintf(out, "# gpucc: cache hit for %s ->", target); break;
  case JOB_BUNDLE: fprintf(out, "# gpucc: bundle @%s", unit_module(j->unit, j->module)); break;
  case JOB_HOST: fputs("# gpucc: host code", out); break;
  case JOB_PACK: fputs("# gpucc: pack", out); break;
  }
  if (j->kind != JOB_DEVICE && j->kind != JOB_FETCH) {
    for (size_t i = 0; i < j->nins; i++)
      fprintf(out, " %s", j->ins[i]);
    fputs(" ->", out);
  }
  for (size_t i = 0; i < j->nouts; i++)
    fprintf(out, " %s", j->outs[i]);
  fputc('\n', out);
}

/* -v: where a job's objects come from, "cache: hit (local)", "cache: hit
 * (remote)" (taken from the remote cache into the local one by this run)
 * or "cache: miss" (compiled), for device and host code. */
static void print_cache_use(const struct plan *p, const struct job *j) {
  const struct unit *u = j->unit;
  const char *use = NULL;
  if (!cache_enabled() || !u)
    return;
  if (j->kind == JOB_DEVICE) {
    use = "miss";
  } else if (j->kind == JOB_FETCH) {
    int remote = 0;
    for (size_t m = 0; m < u->nmodules && !remote; m++)
      remote = cache_from_remote(unit_cell(u, p->opts->ntargets, m, j->target)->key, "dev");
    use = remote ? "hit (remote)" : "hit (local)";
  } else if (j->kind == JOB_HOST && u->host_key[0]) {
    use = !u->host_cached ? "miss" : cache_from_remote(u->host_key, "host") ? "hit (remote)" : "hit (local)";
  }
  if (use)
    fprintf(stderr, "gpucc: cache: %s: %s\n", use, j->what);
}

void plan_print(const struct plan *p) {
  for (size_t i = 0; i < p->njobs; i++)
    print_job(stdout, p, &p->jobs[i]);
}


/* The objects of one gpu.module, collected for writing: entries plus the
 * buffers that hold their bytes, and what each kernel was compiled for
 * (the manifest's kernel lines; names owned). */
struct objects {
  struct fatbin_entry *e;
  void **bufs;
  size_t n, cap;
  struct fatbin_kernel *k;
  size_t nk, kcap;
};

static struct fatbin_entry *objects_add(struct objects *ob, void *buf) {
  if (ob->n == ob->cap) {
    ob->cap = ob->cap ? ob->cap * 2 : 16;
    ob->e = realloc(ob->e, ob->cap * sizeof *ob->e);
    ob->bufs = realloc(ob->bufs, ob->cap * sizeof *ob->bufs);
    if (!ob->e || !ob->bufs)
      BUG("out of memory");
  }
  ob->bufs[ob->n] = buf;
  struct fatbin_entry *e = &ob->e[ob->n++];
  memset(e, 0, sizeof *e);
  return e;
}

static void objects_free(struct objects *ob) {
  for (size_t i = 0; i < ob->n; i++)
    free(ob->bufs[i]);
  free(ob->e);
  free(ob->bufs);
  for (size_t i = 0; i < ob->nk; i++)
    free((char *)ob->k[i].name);
  free(ob->k);
}

struct kernel_sink {
  struct objects *ob;
  const char *module;
};

/* A kernel with known_block_size runs with that block shape only (CUDA
 * refuses any other launch of a .reqntid kernel); any other is compiled for
 * up to GPUCC_MAX_BLOCK_THREADS threads, whatever the shape. */
static int add_kernel(const struct program_kernel *pk, void *ud) {
  struct kernel_sink *sink = ud;
  struct objects *ob = sink->ob;
  if (ob->nk == ob->kcap) {
    ob->kcap = ob->kcap ? ob->kcap * 2 : 16;
    ob->k = realloc(ob->k, ob->kcap * sizeof *ob->k);
    if (!ob->k)
      BUG("out of memory");
  }
  struct fatbin_kernel *k = &ob->k[ob->nk++];
  *k = (struct fatbin_kernel){.module = sink->module, .name = xasprintf("%s", pk->name),
                              .threads = GPUCC_MAX_BLOCK_THREADS, .shared = pk->workgroup_bytes};
  if (pk->block[0]) {
    uint64_t threads; /* three sizes below 2^31: saturate, never wrap */
    if (__builtin_mul_overflow((uint64_t)pk->block[0] * pk->block[1], pk->block[2], &threads) ||
        threads > UINT32_MAX)
      threads = UINT32_MAX;
    k->threads = (uint32_t)threads;
    memcpy(k->block, pk->block, sizeof k->block);
  }
  return 0;
}

/* The kernel lines of module m, from the program: the same for every
 * target, and for --bundle the program the parts were compiled from. */
static void collect_kernels(struct unit *u, size_t m, struct objects *ob) {
  struct kernel_sink sink = {ob, unit_module(u, m)};
  program_each_kernel(u->prog, m, add_kernel, &sink);
}

/* Nothing a tool wrote is shipped unchecked: a tool that exits 0 after
 * writing garbage (or another chip's code) fails the build here, naming
 * it, instead of the program at run time (fatbin_check_object: the ELF
 * machine and chip of cubins, hsacos and host objects). */
static int check_output(const char *tool, const struct fatbin_entry *e) {
  char err[512];
  if (fatbin_check_object(e, e->data, e->size, err, sizeof err) == 0)
    return 0;
  const char *why = strncmp(err, "fatbin: ", 8) == 0 ? err + 8 : err;
  return diag_error("'%s' wrote an invalid %s for %s (%s)", tool, fatbin_format_name(e->format),
                    e->target, why);
}

/* Reads one job file as entry e (data and size are filled in; `nul` keeps
 * the NUL tmp_read_file leaves after the data, as PTX ships), checks it when
 * a tool wrote it, and adds it. */
static int add_file(struct objects *ob, const char *path, struct fatbin_entry e, int nul,
                    const char *tool) {
  void *buf;
  size_t size;
  if (tool && access(path, F_OK) != 0 && errno == ENOENT)
    return diag_error("'%s' exited with status 0 but wrote no %s for %s", tool,
                      fatbin_format_name(e.format), e.target);
  if (tmp_read_file(path, &buf, &size) != 0)
    return -1;
  e.data = buf;
  e.size = size + (nul ? 1 : 0);
  if (tool && check_output(tool, &e) != 0) {
    free(buf);
    return -1;
  }
  *objects_add(ob, buf) = e;
  return 0;
}

/* Module m's SO_REF: the library's hash and m's symbol prefix in it. */
static void add_so_ref(struct objects *ob, struct fatbin_entry e, size_t m,
                       const unsigned char sha256[FATBIN_SHA256_SIZE]) {
  char prefix[FATBIN_SO_REF_MAX_PREFIX + 1], text[FATBIN_SO_REF_MAX_SIZE + 1];
  fatbin_so_ref_prefix(m, prefix, sizeof prefix);
  size_t n = fatbin_so_ref_write(sha256, prefix, text);
  char *copy = malloc(n);
  if (!copy)
    BUG("out of memory");
  memcpy(copy, text, n);
  e.format = FATBIN_FORMAT_SO_REF;
  e.data = copy;
  e.size = n;
  *objects_add(ob, copy) = e;
}

/* Adds a shared object whose symbols carry module prefixes (the host
 * lowering prefixes them in a program of several gpu.modules) as an
 * SO_LIB, and returns its hash. */
static int add_so_lib(struct objects *ob, const char *path, struct fatbin_entry e, const char *tool,
                      unsigned char sha256[FATBIN_SHA256_SIZE]) {
  e.format = FATBIN_FORMAT_SO_LIB;
  if (add_file(ob, path, e, 0, tool) != 0)
    return -1;
  fatbin_sha256(ob->e[ob->n - 1].data, ob->e[ob->n - 1].size, sha256);
  return 0;
}

/* A kind that links every module into one object (plan_links_modules):
 * module 0's archive carries it, every module's names it. Bundle jobs run
 * in the parent, so the library is hashed once, by whichever comes first. */
static int add_library(struct unit *u, size_t m, size_t t, const char *tool, struct fatbin_entry e,
                       struct objects *ob) {
  if (m == 0) {
    if (add_so_lib(ob, u->lib_paths[t], e, tool, u->lib_sha256[t]) != 0)
      return -1;
    u->lib_hashed[t] = 1;
  } else if (!u->lib_hashed[t]) {
    void *buf;
    size_t size;
    if (tmp_read_file(u->lib_paths[t], &buf, &size) != 0)
      return -1;
    fatbin_sha256(buf, size, u->lib_sha256[t]);
    free(buf);
    u->lib_hashed[t] = 1;
  }
  add_so_ref(ob, e, m, u->lib_sha256[t]);
  return 0;
}

/* Reads the objects compiled for module m (all targets) from the job files. */
static int collect_compiled(struct plan *p, struct unit *u, size_t m, struct objects *ob) {
  const struct options *o = p->opts;
  for (size_t t = 0; t < o->ntargets; t++) {
    const struct target *tg = &o->targets[t];
    const struct cell *c = unit_cell(u, o->ntargets, m, t);
    const struct target_kind *k = tg->info->kind;
    struct fatbin_entry e = {.module = unit_module(u, m),
                             .vendor = (enum fatbin_vendor)k->fatbin_vendor,
                             .target = tg->id,
                             .features = tg->features};
    if (c->finished_path && k->finished_format == FATBIN_FORMAT_SO && u->nmodules > 1) {
      /* Linked alone (the kind keeps a stage per module), symbols prefixed. */
      unsigned char sha256[FATBIN_SHA256_SIZE];
      if (add_so_lib(ob, c->finished_path, e, k->finish_tool, sha256) != 0)
        return -1;
      add_so_ref(ob, e, m, sha256);
    } else if (c->finished_path) {
      e.format = (enum fatbin_format)k->finished_format;
      if (add_file(ob, c->finished_path, e, 0, k->finish_tool) != 0)
        return -1;
    }
    if (u->lib_paths[t] && add_library(u, m, t, k->finish_tool, e, ob) != 0)
      return -1;
    if (k->device_format < 0)
      continue; /* only the finished object ships */
    /* PTX goes in with its NUL (device_nul): the driver's JIT wants a C
     * string. A device file is checked when a tool of the device job wrote
     * it and nothing finishes it. */
    e.format = (enum fatbin_format)k->device_format;
    if (add_file(ob, c->device_path, e, k->device_nul, c->finished_path ? NULL : k->device_tool) != 0)
      return -1;
  }
  return 0;
}

/* --bundle: the objects of module m from every .gpucc-device input. */
static int collect_parts(struct plan *p, struct unit *u, size_t m, struct objects *ob) {
  for (size_t k = 0; k < p->nparts; k++) {
    struct device_part *dp = &p->parts[k];
    for (size_t i = 0; i < fatbin_count(dp->fb); i++) {
      const struct fatbin_entry *e = fatbin_get(dp->fb, i);
      if (strcmp(e->module, unit_module(u, m)) != 0)
        continue;
      const void *data;
      size_t size;
      void *to_free = NULL;
      char err[256];
      if (fatbin_read_object(dp->fb, i, &data, &size, &to_free, err, sizeof err) != 0)
        return diag_error("'%s': %s", dp->path, err);
      void *copy = malloc(size ? size : 1);
      if (!copy)
        BUG("out of memory");
      memcpy(copy, data, size);
      free(to_free);
      struct fatbin_entry *n = objects_add(ob, copy);
      *n = *e;
      n->data = copy;
      n->size = size;
    }
  }
  if (ob->n == 0)
    return diag_error("no .gpucc-device input has objects for gpu.module @%s", unit_module(u, m));
  return 0;
}

/* What the manifest records of the options that change code. */
static void code_flags(const struct options *o, char *buf, size_t len) {
  snprintf(buf, len, "-O%d%s -ffp-contract=%s", options_device_opt(o), o->debug_info ? " -g" : "",
           options_contract_name(options_device_contract(o)));
  for (size_t i = 0; i < o->nptxas_args; i++) {
    size_t n = strlen(buf);
    snprintf(buf + n, len - n, " -Xptxas %s", o->ptxas_args[i]);
  }
}

/* Where entry want lies in the archive read back (the writer may order
 * objects its own way), or (size_t)-1. */
static size_t find_entry(const struct fatbin *fb, const struct fatbin_entry *want) {
  for (size_t i = 0; i < fatbin_count(fb); i++) {
    const struct fatbin_entry *got = fatbin_get(fb, i);
    if (strcmp(got->module, want->module) == 0 && strcmp(got->target, want->target) == 0 &&
        got->format == want->format)
      return i;
  }
  return (size_t)-1;
}

/* The fat binary just made, read back as the runtime will read it: its index
 * parsed, and each object written found there with its vendor and size,
 * inflated, hashed and checked against its entry. A writer bug is caught here
 * rather than by the program on a GPU node. Returns 0, or -1 with the first
 * difference in err. */
static int read_back(const struct objects *ob, const void *data, size_t size, char *err,
                     size_t errlen) {
  struct fatbin *fb;
  if (fatbin_open(data, size, &fb, err, errlen) != 0)
    return -1;
  int rc = 0;
  if (fatbin_count(fb) != ob->n) {
    snprintf(err, errlen, "it holds %zu objects, %zu were written", fatbin_count(fb), ob->n);
    rc = -1;
  }
  for (size_t w = 0; rc == 0 && w < ob->n; w++) {
    const struct fatbin_entry *want = &ob->e[w];
    size_t i = find_entry(fb, want);
    const struct fatbin_entry *got = i == (size_t)-1 ? NULL : fatbin_get(fb, i);
    if (!got || got->vendor != want->vendor || got->size != want->size) {
      snprintf(err, errlen, "object %s/%s (%zu bytes) is %s", want->module, want->target,
               want->size, got ? "not the one written" : "missing");
      rc = -1;
    } else {
      rc = fatbin_verify(fb, i, err, errlen);
    }
  }
  fatbin_close(fb);
  return rc;
}

/* Writes the collected objects as one fat binary to path; with blob non-NULL
 * also hands the bytes back (the caller frees them). */
static int write_objects(struct plan *p, struct objects *ob, const char *path, const char *what,
                         void **blob, size_t *blob_size) {
  char flags[512], err[256];
  code_flags(p->opts, flags, sizeof flags);
  struct fatbin_meta meta = {GPUCC_VERSION, GPUCC_LLVM_VERSION, flags, ob->k, ob->nk};
  void *data;
  size_t size;
  if (fatbin_write_ex(ob->e, ob->n, &meta, (enum fatbin_compress)p->opts->fatbin_compress, &data,
                      &size, err, sizeof err) != 0)
    return diag_error("cannot write the fat binary for %s: %s", what, err);
  if (crash_planted("fatbin-damage") && size > 0) /* a test switch: a writer bug */
    ((unsigned char *)data)[size - size / 4] ^= 0x5a;
  if (read_back(ob, data, size, err, sizeof err) != 0) {
    free(data);
    return diag_error("the fat binary written for %s does not read back: %s", what, err);
  }
  int rc = tmp_write_file(path, data, size);
  if (rc == 0 && blob) {
    *blob = data;
    *blob_size = size;
  } else {
    free(data);
  }
  return rc;
}

/* Puts what was compiled (not fetched) for module m into the cache. */
static void store_in_cache(const struct plan *p, const struct unit *u, size_t m) {
  const struct options *o = p->opts;
  for (size_t t = 0; t < o->ntargets && cache_enabled(); t++) {
    const struct cell *c = unit_cell(u, o->ntargets, m, t);
    if (u->cached[t])
      continue;
    cache_store(c->key, "dev", c->device_path);
    if (c->finished_path)
      cache_store(c->key, "lnk", c->finished_path);
  }
}

static int run_bundle(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  struct objects ob = {0};
  int rc = o->bundle ? collect_parts(p, u, j->module, &ob) : collect_compiled(p, u, j->module, &ob);
  if (rc == 0 && !o->bundle)
    store_in_cache(p, u, j->module);
  if (rc == 0)
    collect_kernels(u, j->module, &ob);
  void *blob = NULL;
  size_t size = 0;
  if (rc == 0) {
    char what[300], *shown = unit_module_shown(u, j->module);
    snprintf(what, sizeof what, "@%s", shown);
    free(shown);
    rc = write_objects(p, &ob, u->blob_paths[j->module], what, &blob, &size);
  }
  objects_free(&ob);
  if (rc == 0 && u->blob_obj_paths)
    rc = lowering_blob_object(u->blob_obj_paths[j->module], u->tag, unit_module(u, j->module),
                              blob, size);
  free(blob);
  return rc;
}

/* --device-only: every module's objects for the given targets in one file
 * (a fat binary holding several gpu.modules), renamed into place. */
static int run_pack(struct plan *p, struct job *j) {
  struct unit *u = j->unit;
  struct objects ob = {0};
  int rc = 0;
  for (size_t m = 0; m < u->nmodules && rc == 0; m++)
    rc = collect_compiled(p, u, m, &ob);
  for (size_t m = 0; rc == 0 && m < u->nmodules; m++) {
    store_in_cache(p, u, m);
    collect_kernels(u, m, &ob);
  }
  if (rc == 0 && ob.n == 0)
    rc = diag_error("'%s' has no gpu.module: no device objects to write", u->input);
  if (rc == 0)
    rc = write_objects(p, &ob, u->obj_path, u->input, NULL, NULL);
  objects_free(&ob);
  if (rc == 0)
    plan_defer_commit(p, u->obj_path, u->obj_final);
  return rc;
}

static int run_host(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  if (u->host_cached) {
    if (cache_fetch(u->host_key, "host", u->host_obj_path) != 0)
      return diag_error("cache entry for the host code of '%s' vanished while in use; run again", u->input);
    return 0;
  }
  struct device_codegen cg = {o->opt_level, o->debug_info,
                              (enum fp_contract)options_host_contract(o)};
  return lowering_host(u->prog, u->tag, &cg, u->host_obj_path, u->host_mlir_path, u->host_ll_path);
}

static int run_fetch(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  for (size_t m = 0; m < u->nmodules; m++) {
    const struct cell *c = unit_cell(u, o->ntargets, m, j->target);
    if (cache_fetch(c->key, "dev", c->device_path) != 0 ||
        (c->finished_path && cache_fetch(c->key, "lnk", c->finished_path) != 0))
      return diag_error("cache entry for @%s, %s vanished while in use; run again",
                        unit_module(u, m), o->targets[j->target].id);
  }
  return 0;
}

static int run_job(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  switch (j->kind) {
  case JOB_FETCH:
    return run_fetch(p, j);
  case JOB_PACK:
    return run_pack(p, j);
  case JOB_TOOL:
  case JOB_LINK:
    return spawn_run(j->argv, NULL, j->what);
  case JOB_DEVICE: {
    const struct unit *u = j->unit;
    const char **paths = calloc(j->range.count + 1, sizeof *paths);
    if (!paths)
      BUG("out of memory");
    for (size_t i = 0; i < j->range.count; i++)
      paths[i] = unit_cell(u, o->ntargets, j->range.first + i, j->target)->device_path;
    struct device_codegen cg = {options_device_opt(o), o->debug_info,
                                (enum fp_contract)options_device_contract(o)};
    int rc = lowering_device(u->prog, &o->targets[j->target], &p->tc, &cg, &j->range, paths);
    free(paths);
    return rc;
  }
  case JOB_BUNDLE:
    return run_bundle(p, j);
  case JOB_HOST:
    return run_host(p, j);
  }
  return -1;
}

/* Names what job j does, for internal errors: "lowering device code" for
 * "sm_90 of 'prog.mlir'". */
static const char *job_stage(const struct plan *p, const struct job *j, char *subject, size_t n) {
  const struct options *o = p->opts;
  const char *input = j->unit ? j->unit->input : "";
  const char *target = o->ntargets ? o->targets[j->target].id : "";
  switch (j->kind) {
  case JOB_DEVICE:
    snprintf(subject, n, "%s of '%s'", target, input);
    return "lowering device code";
  case JOB_FETCH:
    snprintf(subject, n, "%s of '%s'", target, input);
    return "fetching cached device code";
  case JOB_BUNDLE:
    snprintf(subject, n, "@%s of '%s'", unit_module(j->unit, j->module), input);
    return "bundling";
  case JOB_HOST:
    snprintf(subject, n, "'%s'", input);
    return "lowering host code";
  case JOB_PACK:
    snprintf(subject, n, "'%s'", input);
    return "packing device objects";
  case JOB_TOOL:
  case JOB_LINK:
    break;
  }
  snprintf(subject, n, "%s", j->what);
  return "running";
}

static void set_crash_stage(const struct plan *p, const struct job *j) {
  char subject[1024];
  const char *stage = job_stage(p, j, subject, sizeof subject);
  crash_set_stage(stage, subject);
}

/* A device or host job's child crashed: the reproducer is the normalized
 * module it started from, which the parent still holds. */
static void report_crash(const struct plan *p, const struct job *j, int status) {
  char subject[1024];
  const char *stage = job_stage(p, j, subject, sizeof subject);
  size_t len;
  char *text = program_text(j->unit->prog, &len);
  crash_report_job(status, stage, subject, j->unit->input, text, len);
  free(text);
}

static int ready(const struct plan *p, const struct job *j) {
  for (size_t k = 0; k < j->ndeps; k++)
    if (p->jobs[j->deps[k]].state != JOB_DONE)
      return 0;
  return 1;
}

struct child_job {
  struct plan *p;
  struct job *j;
};

/* In the child, which never returns into the driver and never runs atexit
 * handlers (the temp registry belongs to the parent). Exit status 1: failed
 * and said why; 2: failed silently (the parent says so). A warning made an
 * error by -Werror fails the job too, although its work is done. */
static int child_body(void *arg) {
  struct child_job *c = arg;
  set_crash_stage(c->p, c->j);
  int errors = diag_error_count();
  /* Tests plant a crash (or a warning) here (see crash.h). */
  if ((c->j->kind == JOB_DEVICE && crash_planted("device")) ||
      (c->j->kind == JOB_HOST && crash_planted("host")))
    raise(SIGSEGV);
  if (c->j->kind == JOB_DEVICE && crash_planted("device-trap"))
    raise(SIGTRAP);
  if (c->j->kind == JOB_DEVICE && crash_planted("device-warning"))
    diag_warning("planted warning in %s", c->j->what);
  /* A job still running when the test interrupts gpucc (its parent then
   * holds make's tokens: they must come back). */
  if (c->j->kind == JOB_DEVICE && crash_planted("device-sleep"))
    sleep(30);
  int rc = run_job(c->p, c->j);
  if (rc == 0 && diag_error_count() > errors)
    return 1;
  return rc == 0 ? 0 : diag_error_count() > errors ? 1 : 2;
}

/* The files running jobs write their output into: one per job running at
 * once, reused (a build of thousands of jobs registers -j of them). */
struct capture_pool {
  const char **paths; /* [slot] */
  int *busy;          /* [slot]: the job index + 1 using it, or 0 */
  int n;
};

static const char *capture_take(struct capture_pool *cp, size_t job) {
  int slot = 0;
  while (slot < cp->n && cp->busy[slot])
    slot++;
  if (slot == cp->n) {
    const char **np = realloc(cp->paths, (cp->n + 1) * sizeof *np);
    int *nb = realloc(cp->busy, (cp->n + 1) * sizeof *nb);
    if (!np || !nb)
      BUG("out of memory");
    cp->paths = np;
    cp->busy = nb;
    char name[32];
    snprintf(name, sizeof name, "job-output-%d", cp->n);
    cp->paths[cp->n] = tmp_path(name, ".txt");
    cp->busy[cp->n] = 0;
    if (!cp->paths[cp->n])
      return NULL;
    cp->n++;
  }
  cp->busy[slot] = (int)job + 1;
  return cp->paths[slot];
}

/* Frees job's slot; returns its file (NULL when it had none). */
static const char *capture_give_back(struct capture_pool *cp, size_t job) {
  for (int slot = 0; slot < cp->n; slot++)
    if (cp->busy[slot] == (int)job + 1) {
      cp->busy[slot] = 0;
      return cp->paths[slot];
    }
  return NULL;
}

static void capture_free(struct capture_pool *cp) {
  for (int slot = 0; slot < cp->n; slot++)
    unlink(cp->paths[slot]); /* the directory goes at exit; these already */
  free(cp->paths);
  free(cp->busy);
}

/* A finished job's output, whole, in one piece between the status line's
 * updates (shown again after it unless the run is failing). */
static void print_captured(const char *path, int failing) {
  void *data;
  size_t size;
  if (!path || access(path, F_OK) != 0 || tmp_read_file(path, &data, &size) != 0)
    return;
  if (size) {
    progress_hide();
    fwrite(data, 1, size, stderr);
    fflush(stderr);
    if (!failing)
      progress_restore();
  }
  free(data);
}

/* A tool that reads standard input ('-' among its arguments: `-x c -`) gets
 * ours; every other job /dev/null, so none reads the terminal. */
static int reads_stdin(const struct job *j) {
  for (size_t i = 0; j->argv && j->argv[i]; i++)
    if (!strcmp(j->argv[i], "-"))
      return 1;
  return 0;
}

/* Starts job j without waiting: device and host code in a forked child
 * (which has the parsed module already), tools with posix_spawn. */
static int start_job(struct plan *p, struct job *j, const char *capture) {
  struct spawn_io io = {capture, !reads_stdin(j)};
  if (j->kind == JOB_TOOL || j->kind == JOB_LINK)
    return spawn_start(j->argv, &io, j->what, &j->pid);
  struct child_job c = {p, j};
  return spawn_fork_io(child_body, &c, &io, j->what, &j->pid);
}

/* Ends every running job with what it started (its process group), and
 * gives make's tokens back. */
static void kill_running(struct plan *p) {
  for (size_t i = 0; i < p->njobs; i++)
    if (p->jobs[i].state == JOB_RUNNING && p->jobs[i].pid > 0)
      kill(-p->jobs[i].pid, SIGTERM);
  for (size_t i = 0; i < p->njobs; i++) {
    struct job *j = &p->jobs[i];
    if (j->state != JOB_RUNNING || j->pid <= 0)
      continue;
    spawn_end(j->pid);
    j->state = JOB_DONE;
  }
  jobserver_release_all();
}

/* What the status line says a job does: "sm_90 kernels" for device code
 * (the target and the gpu.module), else the job's description. */
static void job_label(const struct plan *p, const struct job *j, char *buf, size_t n) {
  if (j->kind != JOB_DEVICE) {
    snprintf(buf, n, "%s", j->what);
    return;
  }
  const char *target = p->opts->targets[j->target].id;
  if (j->range.count == 1) {
    char *shown = unit_module_shown(j->unit, j->range.first);
    snprintf(buf, n, "%s %s", target, shown);
    free(shown);
  } else {
    snprintf(buf, n, "%s %s (%zu gpu.modules)", target, j->unit->input, j->range.count);
  }
}

/* -ftime-report's row for a job: its stage and, for work per target, the
 * target. A tool's stage is its name ("ptxas", "cc -shared", "ld -r"). */
static void job_report(const struct plan *p, const struct job *j, double wall, double cpu) {
  if (!time_report_enabled())
    return;
  const char *target = j->target_id;
  char tool[64] = "";
  const char *stage = tool;
  switch (j->kind) {
  case JOB_DEVICE: stage = "device code", target = p->opts->targets[j->target].id; break;
  case JOB_FETCH: stage = "cache fetch", target = p->opts->targets[j->target].id; break;
  case JOB_BUNDLE: stage = "bundle"; break;
  case JOB_HOST: stage = j->unit->host_cached ? "host code (cached)" : "host code"; break;
  case JOB_PACK: stage = "pack"; break;
  case JOB_LINK: stage = "link"; break;
  case JOB_TOOL: snprintf(tool, sizeof tool, "%.*s", (int)strcspn(j->what, ":"), j->what); break;
  }
  time_report_add(stage, target, wall, cpu);
}

/* GPUCC_TEST_JOB_LOG=<file> (a test switch, not for users): each job run
 * in a child appends "<start> <end> <pid>", monotonic seconds taken while
 * its jobserver token was held, so that a test can count jobs running at
 * once across several gpucc processes. */
static void log_job(const struct job *j, double end) {
  const char *path = getenv("GPUCC_TEST_JOB_LOG");
  if (!path || !*path)
    return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  char line[96];
  int n = snprintf(line, sizeof line, "%.6f %.6f %ld\n", j->started, end, (long)getpid());
  ssize_t w = write(fd, line, (size_t)n); /* a short line fails the test that reads it */
  (void)w;
  close(fd);
}

/* The way out of a run that failed: running jobs ended, tokens given back,
 * the status line cleared. */
static int run_failed(struct plan *p, struct capture_pool *cp) {
  kill_running(p);
  capture_free(cp);
  progress_end();
  return -1;
}

int plan_run(struct plan *p) {
  int verbose = p->opts->verbose;
  int limit = plan_job_limit(p->opts);
  double total = now();
  double children_cpu = time_report_cpu_children();
  struct capture_pool cp = {0};
  size_t done = 0;
  int running = 0;
  char label[512];
  while (done < p->njobs) {
    int progress = 0, want_token = 0;
    for (size_t i = 0; i < p->njobs; i++) {
      struct job *j = &p->jobs[i];
      if (j->state != JOB_PENDING || !ready(p, j))
        continue;
      int in_parent = j->kind == JOB_BUNDLE || j->kind == JOB_FETCH || j->kind == JOB_PACK ||
                      (j->kind == JOB_HOST && j->unit->host_cached);
      if (!in_parent && running >= limit)
        continue;
      /* The first job runs on the slot make gave this gpucc; each one
       * beside it needs a token of make's. */
      if (!in_parent && running > 0 && !jobserver_try_acquire()) {
        want_token = 1;
        continue;
      }
      if (verbose) {
        print_job(stderr, p, j);
        print_cache_use(p, j);
      }
      j->started = now();
      progress = 1;
      if (in_parent) {
        /* Bundles, cache fetches and packing are short and fill the
         * parent's state (blobs, cache); device and host code run in
         * children (host lowering changes the module it lowers). A
         * warning they give goes below the status line, not after it. */
        set_crash_stage(p, j);
        double cpu = time_report_cpu_self();
        progress_hide();
        if (run_job(p, j) != 0)
          return run_failed(p, &cp);
        j->state = JOB_DONE;
        done++;
        job_report(p, j, now() - j->started, time_report_cpu_self() - cpu);
        if (verbose)
          fprintf(stderr, "gpucc: %.3f s  %s\n", now() - j->started, j->what);
        job_label(p, j, label, sizeof label);
        progress_show(done, p->njobs, label);
        continue;
      }
      const char *capture = capture_take(&cp, i);
      if (!capture || start_job(p, j, capture) != 0) {
        if (running > 0)
          jobserver_release(); /* the token taken for it */
        capture_give_back(&cp, i);
        return run_failed(p, &cp);
      }
      j->state = JOB_RUNNING;
      running++;
      job_label(p, j, label, sizeof label);
      progress_show(done, p->njobs, label);
    }
    if (done == p->njobs)
      break;
    if (running == 0) {
      if (!progress)
        BUG("job graph has a cycle");
      continue;
    }
    /* Returns early when SIGINT/SIGTERM/SIGHUP was recorded: the jobs'
     * process groups are ended and the temp files removed here, in normal
     * code, not in the signal handler. With a job waiting for a token of
     * make's, a token given back wakes it too (pid 0). */
    int status;
    pid_t pid = want_token ? jobserver_wait(&status) : interrupt_wait_child(&status);
    if (pid < 0) {
      progress_end();
      interrupt_exit(); /* gives the jobserver tokens back too (last_words.h) */
    }
    if (pid == 0)
      continue;
    spawn_untrack(pid);
    struct job *j = NULL;
    for (size_t i = 0; i < p->njobs && !j; i++)
      if (p->jobs[i].state == JOB_RUNNING && p->jobs[i].pid == pid)
        j = &p->jobs[i];
    if (!j)
      continue; /* not ours (a probe reaped elsewhere) */
    double ended = now(), cpu = time_report_cpu_children();
    log_job(j, ended);
    running--;
    /* One token for each job beside the first: one goes back now. */
    if (jobserver_held() > (running > 0 ? running - 1 : 0))
      jobserver_release();
    j->state = JOB_DONE;
    done++;
    int tool = j->kind == JOB_TOOL || j->kind == JOB_LINK;
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    print_captured(capture_give_back(&cp, (size_t)(j - p->jobs)), !ok);
    job_report(p, j, ended - j->started, cpu - children_cpu);
    children_cpu = cpu;
    if (!ok) {
      progress_hide();
      if (tool)
        spawn_check_status(status, j->argv[0], j->what);
      else if (!tool && crash_is_crash_status(status))
        report_crash(p, j, status);
      else if (!tool && WIFSIGNALED(status))
        diag_error("%s: killed by signal %d", j->what, WTERMSIG(status));
      else if (!tool && !(WIFEXITED(status) && WEXITSTATUS(status) == 1))
        diag_error("%s failed", j->what); /* else the child reported the details */
      return run_failed(p, &cp);
    }
    /* Renamed into place only when the whole run succeeded (main). */
    if (j->commit_from)
      plan_defer_commit(p, j->commit_from, j->commit_to);
    if (j->depfile_from)
      plan_defer_commit(p, j->depfile_from, j->depfile_to);
    /* Stored from here, like the device objects (a child's remote-cache
     * trouble would be a second warning). */
    if (j->kind == JOB_HOST && j->unit->host_key[0]) {
      progress_hide();
      cache_store(j->unit->host_key, "host", j->unit->host_obj_path);
      progress_restore();
    }
    if (verbose)
      fprintf(stderr, "gpucc: %.3f s  %s\n", now() - j->started, j->what);
    job_label(p, j, label, sizeof label);
    progress_show(done, p->njobs, label);
  }
  capture_free(&cp);
  progress_end();
  cache_trim();
  if (verbose)
    fprintf(stderr, "gpucc: %.3f s  total (after parsing)\n", now() - total);
  return 0;
}
