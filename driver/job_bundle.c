/* job_bundle.c: the bundle job (one gpu.module's objects for every target
 * into one fat binary, and the object that defines its symbols) and
 * --device-only's pack (every module's objects into one file); see job.h.
 * Both run in the parent: short, and they fill the parent's cache. */
#include "job.h"

#include "cache.h"
#include "cc1.h"
#include "crash.h"
#include "diag.h"
#include "fatbin.h"
#include "program.h"
#include "tmp.h"
#include "xstr.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  plan_code_flags(p->opts, flags, sizeof flags);
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

/* What both print: the options that the manifest records, and how the
 * archive is compressed. */
static void code_options(struct cc1_line *l, const struct options *o) {
  cc1_line_codegen(l, options_device_opt(o), options_device_contract(o), o->debug_info);
  cc1_line_kind_args(l, o, NULL, 1);
  cc1_line_addf(l, "--fatbin-compress=%s",
                fatbin_compress_name((enum fatbin_compress)o->fatbin_compress));
}

/* Module m's files, target by target, as collect_compiled reads them. */
static void module_files(struct cc1_line *l, const struct plan *p, const struct unit *u, size_t m,
                         int libraries) {
  const struct options *o = p->opts;
  for (size_t t = 0; t < o->ntargets; t++) {
    const struct cell *c = unit_cell(u, o->ntargets, m, t);
    cc1_line_addf(l, "--offload-arch=%s", o->targets[t].id);
    if (o->targets[t].info->kind->device_format >= 0)
      cc1_line_addf(l, "--device-file=%s", c->device_path);
    if (c->finished_path)
      cc1_line_addf(l, "--finished-file=%s", c->finished_path);
    if (libraries && u->lib_paths[t])
      cc1_line_addf(l, "--library=%s", u->lib_paths[t]);
  }
}

static void describe_bundle(FILE *out, const struct plan *p, const struct job *j) {
  const struct options *o = p->opts;
  const struct unit *u = j->unit;
  struct cc1_line l;
  cc1_line_start(&l, "bundle");
  code_options(&l, o);
  cc1_line_addf(&l, "--gpu-module=%zu", j->module);
  cc1_line_addf(&l, "--tag=%s", u->tag);
  if (o->bundle)
    cc1_line_add(&l, "--bundle");
  else
    module_files(&l, p, u, j->module, 1);
  cc1_line_add(&l, u->normalized_path);
  for (size_t k = 0; o->bundle && k < p->nparts; k++)
    cc1_line_add(&l, p->parts[k].path);
  cc1_line_add(&l, "-o");
  cc1_line_add(&l, u->blob_paths[j->module]);
  if (u->blob_obj_paths)
    cc1_line_addf(&l, "--blob-object=%s", u->blob_obj_paths[j->module]);
  cc1_line_print(out, &l);
}

static void describe_pack(FILE *out, const struct plan *p, const struct job *j) {
  const struct unit *u = j->unit;
  struct cc1_line l;
  cc1_line_start(&l, "pack");
  code_options(&l, p->opts);
  for (size_t m = 0; m < u->nmodules; m++) {
    cc1_line_addf(&l, "--gpu-module=%zu", m);
    module_files(&l, p, u, m, m == 0);
  }
  cc1_line_add(&l, u->normalized_path);
  cc1_line_add(&l, "-o");
  cc1_line_add(&l, u->obj_final);
  cc1_line_print(out, &l);
}

static void about_bundle(const struct plan *p, const struct job *j, struct job_about *a) {
  (void)p;
  char *shown = unit_module_shown(j->unit, j->module);
  a->doing = "bundling";
  snprintf(a->subject, sizeof a->subject, "@%s of '%s'", shown, j->unit->input);
  free(shown);
  a->row = "bundle";
  snprintf(a->label, sizeof a->label, "%s", j->what);
}

static void about_pack(const struct plan *p, const struct job *j, struct job_about *a) {
  (void)p;
  a->doing = "packing device objects";
  snprintf(a->subject, sizeof a->subject, "'%s'", j->unit->input);
  a->row = "pack";
  snprintf(a->label, sizeof a->label, "%s", j->what);
}

/* Module m's files for every target, from a -cc1 line: what the kinds ship
 * must be there. */
static int cells_from_command(struct plan *p, const struct cc1_command *c, struct unit *u, size_t m) {
  const struct options *o = p->opts;
  for (size_t t = 0; t < o->ntargets; t++) {
    const struct target_kind *k = o->targets[t].info->kind;
    struct cell *cell = unit_cell(u, o->ntargets, m, t);
    cell->device_path = cc1_file(c, CC1_DEVICE_FILE, m, t);
    cell->finished_path = cc1_file(c, CC1_FINISHED_FILE, m, t);
    u->lib_paths[t] = cc1_file(c, CC1_LIBRARY, m, t);
    if (k->device_format >= 0 && !cell->device_path)
      return cc1_usage(p, "--offload-arch=%s needs --device-file= for gpu.module %zu",
                       o->targets[t].id, m);
    if (k->device_format < 0 && !cell->finished_path && !u->lib_paths[t])
      return cc1_usage(p, "--offload-arch=%s needs --finished-file= or --library= for gpu.module %zu",
                       o->targets[t].id, m);
  }
  return 0;
}

static int bundle_from_command(struct plan *p, struct cc1_command *c, struct job *j) {
  struct unit *u = j->unit;
  for (size_t i = 0; i < c->o->ninputs; i++)
    if (c->o->inputs[i].kind == INPUT_DEVICE)
      c->o->bundle = 1;
  if (c->nouts != 1)
    return cc1_usage(p, "-cc1 bundle writes one fat binary: give one -o");
  if (!c->module_given)
    return cc1_usage(p, "-cc1 bundle needs --gpu-module=");
  if (c->blob_object && !c->tag)
    return cc1_usage(p, "--blob-object= needs --tag=, which names its symbols");
  if (cc1_load_unit(p, c, u) != 0)
    return -1;
  if (c->module >= u->nmodules)
    return cc1_usage(p, "'%s' has %zu gpu.module%s: no --gpu-module=%zu", u->input, u->nmodules,
                     u->nmodules == 1 ? "" : "s", c->module);
  if (c->o->bundle ? plan_open_parts(p) != 0 : cells_from_command(p, c, u, c->module) != 0)
    return -1;
  j->module = c->module;
  u->blob_paths[j->module] = cc1_output(p, c->outs[0]);
  if (!u->blob_paths[j->module])
    return -1;
  if (c->blob_object) {
    u->blob_obj_paths = calloc(u->nmodules + 1, sizeof *u->blob_obj_paths);
    if (!u->blob_obj_paths)
      BUG("out of memory");
    if (!(u->blob_obj_paths[j->module] = cc1_output(p, c->blob_object)))
      return -1;
  }
  char *shown = unit_module_shown(u, j->module);
  j->what = xasprintf("fat binary for @%s", shown);
  free(shown);
  return 0;
}

static int pack_from_command(struct plan *p, struct cc1_command *c, struct job *j) {
  struct unit *u = j->unit;
  if (c->nouts != 1)
    return cc1_usage(p, "-cc1 pack writes one file: give one -o");
  if (cc1_load_unit(p, c, u) != 0)
    return -1;
  for (size_t m = 0; m < u->nmodules; m++)
    if (cells_from_command(p, c, u, m) != 0)
      return -1;
  /* run_pack renames it into place itself, as in the build. */
  u->obj_final = c->outs[0];
  u->obj_path = tmp_output_path(u->obj_final);
  if (!u->obj_path)
    return -1;
  j->what = xasprintf("device objects: %s", u->input);
  return 0;
}

const struct job_kind job_bundle = {
    .name = "bundle",
    .in_parent = 1,
    .run = run_bundle,
    .describe = describe_bundle,
    .about = about_bundle,
    .from_command = bundle_from_command,
};

const struct job_kind job_pack = {
    .name = "pack",
    .in_parent = 1,
    .run = run_pack,
    .describe = describe_pack,
    .about = about_pack,
    .from_command = pack_from_command,
};
