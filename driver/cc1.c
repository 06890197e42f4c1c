/* cc1.c: `gpucc -cc1 <kind> ...`: one job from its command line; see cc1.h.
 * The command line becomes a plan of one unit and one job, which the
 * kind's own run function runs, the same function the driver runs, so the
 * bytes are the same. What the kinds use to read their files and print
 * their lines is cc1_job.c's, below this file and the kinds. */
#include "cc1.h"

#include "crash.h"
#include "diag.h"
#include "job.h"
#include "lowering.h"
#include "program.h"
#include "proc.h"
#include "tmp.h"
#include "xstr.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *value_of(const char *arg, const char *name) {
  size_t n = strlen(name);
  return !strncmp(arg, name, n) && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* gpucc's options whose value is the next argument, of those a -cc1 line
 * has: -x, -e and the kinds' own ("-Xptxas <arg>"). */
static int takes_separate(const char *a) {
  if (!strcmp(a, "-x") || !strcmp(a, "-e"))
    return 1;
  for (size_t k = 0; target_kinds[k]; k++)
    for (size_t i = 0; i < target_kinds[k]->noptions; i++)
      if (target_kinds[k]->options[i].separate && !strcmp(target_kinds[k]->options[i].name, a))
        return 1;
  return 0;
}

/* --device-parts=N,...: one count (at least 1) per -o of a device job. */
static int parse_counts(struct plan *p, const char *v, struct cc1_command *c) {
  c->nparts = 0;
  for (const char *q = v; *q;) {
    char *end;
    unsigned long n = strtoul(q, &end, 10);
    if (end == q || n < 1 || n > 64 || (*end && *end != ','))
      return cc1_usage(p, "invalid --device-parts= '%s' (expected counts like 2,1)", v);
    size_t *grown = realloc(c->parts, (c->nparts + 1) * sizeof *grown);
    if (!grown)
      BUG("out of memory");
    c->parts = grown;
    c->parts[c->nparts++] = n;
    q = *end ? end + 1 : end;
  }
  if (c->nparts == 0)
    return cc1_usage(p, "invalid --device-parts= '%s' (expected counts like 2,1)", v);
  return 0;
}

/* Splits argv into cc1's own options (above) and gpucc's, which gpucc's
 * parser reads (their spelling and checks are gpucc's). */
static int parse(struct plan *p, int argc, char **argv, struct cc1_command *c, struct options *o) {
  char **rest = calloc((size_t)argc + 1, sizeof *rest);
  const char **arch = calloc((size_t)argc + 1, sizeof *arch);
  if (!rest || !arch)
    BUG("out of memory");
  int nrest = 0, narch = 0;
  rest[nrest++] = argv[0];
  /* Files name their target by position: kept as (arch index, file) and
   * resolved once the targets are parsed. */
  struct pending {
    enum cc1_role role;
    size_t module;
    int arch;
    const char *path;
  } *pend = calloc((size_t)argc + 1, sizeof *pend);
  size_t npend = 0;
  if (!pend)
    BUG("out of memory");
  c->outs = calloc((size_t)argc + 1, sizeof *c->outs);
  if (!c->outs)
    BUG("out of memory");
  for (int i = 3; i < argc; i++) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "-o")) {
      if (i + 1 >= argc)
        return cc1_usage(p, "missing argument to '-o'");
      c->outs[c->nouts++] = argv[++i];
    } else if ((v = value_of(a, "--offload-arch"))) {
      arch[narch++] = v;
    } else if ((v = value_of(a, "--gpu-module"))) {
      char *end;
      unsigned long m = strtoul(v, &end, 10);
      if (!*v || *end)
        return cc1_usage(p, "invalid gpu.module number '%s' (expected 0, 1, ...)", v);
      c->module = m;
      c->module_given = 1;
    } else if ((v = value_of(a, "--device-file")) || (v = value_of(a, "--finished-file")) ||
               (v = value_of(a, "--library"))) {
      if (narch == 0)
        return cc1_usage(p, "'%s' needs an --offload-arch= before it", a);
      enum cc1_role role = a[2] == 'd' ? CC1_DEVICE_FILE : a[2] == 'f' ? CC1_FINISHED_FILE : CC1_LIBRARY;
      pend[npend++] = (struct pending){role, role == CC1_LIBRARY ? (size_t)-1 : c->module, narch - 1, v};
    } else if ((v = value_of(a, "--device-parts"))) {
      if (parse_counts(p, v, c) != 0)
        return -1;
    } else if ((v = value_of(a, "--tag"))) {
      c->tag = v;
    } else if ((v = value_of(a, "--blob-object"))) {
      c->blob_object = v;
    } else if ((v = value_of(a, "--emit-mlir"))) {
      c->emit_mlir = v;
    } else if ((v = value_of(a, "--emit-llvm"))) {
      c->emit_llvm = v;
    } else {
      /* gpucc's option, with its separate argument when it takes one. */
      rest[nrest++] = argv[i];
      if (takes_separate(a) && i + 1 < argc)
        rest[nrest++] = argv[++i];
    }
  }
  if (options_parse(nrest, rest, o) != 0) {
    p->usage_error = 1;
    return -1;
  }
  c->o = o;
  /* Each --offload-arch= in order; a file belongs to the last one before
   * it, which may repeat one (pack: module by module). */
  size_t *index = calloc((size_t)narch + 1, sizeof *index);
  if (!index)
    BUG("out of memory");
  for (int k = 0; k < narch; k++) {
    struct target t;
    if (target_parse(arch[k], &t) != 0) {
      p->usage_error = 1;
      return -1;
    }
    size_t at = 0;
    while (at < o->ntargets && strcmp(o->targets[at].id, t.id) != 0)
      at++;
    if (at == o->ntargets) {
      struct target *n = realloc(o->targets, (o->ntargets + 1) * sizeof *n);
      if (!n)
        BUG("out of memory");
      o->targets = n;
      o->targets[o->ntargets++] = t;
    }
    index[k] = at;
  }
  for (size_t i = 0; i < npend; i++) {
    struct cc1_file *n = realloc(c->files, (c->nfiles + 1) * sizeof *n);
    if (!n)
      BUG("out of memory");
    c->files = n;
    c->files[c->nfiles++] = (struct cc1_file){pend[i].role, pend[i].module, index[pend[i].arch],
                                              pend[i].path};
  }
  free(index);
  free(pend);
  free(arch);
  return 0;
}

static const struct job_kind *find_kind(const char *name) {
  for (size_t k = 0; job_kinds[k]; k++)
    if (job_kinds[k]->from_command && !strcmp(job_kinds[k]->name, name))
      return job_kinds[k];
  return NULL;
}

static void list_kinds(char *buf, size_t len) {
  buf[0] = '\0';
  for (size_t k = 0; job_kinds[k]; k++)
    if (job_kinds[k]->from_command) {
      size_t n = strlen(buf);
      snprintf(buf + n, len - n, "%s%s", n ? ", " : "", job_kinds[k]->name);
    }
}

int cc1_main(int argc, char **argv) {
  struct plan p;
  memset(&p, 0, sizeof p);
  char known[256];
  list_kinds(known, sizeof known);
  if (argc < 3) {
    diag_error("-cc1 needs a job: %s", known);
    return 2;
  }
  const struct job_kind *kind = find_kind(argv[2]);
  if (!kind) {
    diag_error("unknown -cc1 job '%s' (expected %s)", argv[2], known);
    return 2;
  }
  static struct options o;
  struct cc1_command c = {.kind = kind->name};
  if (parse(&p, argc, argv, &c, &o) != 0)
    return p.usage_error ? 2 : 1;
  p.opts = &o;
  diag_set_caret(!o.no_caret);
  lowering_set_verbose(o.verbose);
  if (plan_frontend_init() != 0)
    return 1;
  p.units = calloc(2, sizeof *p.units);
  p.jobs = calloc(1, sizeof *p.jobs);
  if (!p.units || !p.jobs)
    BUG("out of memory");
  p.nunits = 1;
  p.njobs = 1;
  struct job *j = &p.jobs[0];
  j->kind = kind;
  j->unit = &p.units[0];
  int rc = kind->from_command(&p, &c, j);
  if (rc == 0 && !j->what)
    j->what = xasprintf("-cc1 %s", kind->name);
  if (rc == 0) {
    struct job_about about;
    memset(&about, 0, sizeof about);
    kind->about(&p, j, &about);
    crash_set_stage(about.doing, about.subject);
    job_planted_faults(j);
    rc = kind->run(&p, j);
  }
  if (crash_happened())
    return CRASH_EXIT;
  if (rc == 0 && diag_error_count() == 0)
    rc = plan_commit(&p);
  if (rc != 0 || diag_error_count() > 0)
    return p.usage_error ? 2 : 1;
  return 0;
}
