/* cc1_job.c: what the kinds of job (job_*.c) share to be rerun alone:
 * reading a -cc1 command's files, loading its unit, and printing a job as
 * its `gpucc -cc1` line; see cc1.h. Below the kinds, and below cc1.c,
 * which finds them. */
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

int cc1_usage(struct plan *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_ERROR, NULL, 0, 0, fmt, ap);
  va_end(ap);
  p->usage_error = 1;
  return -1;
}

const char *cc1_input(struct plan *p, const struct cc1_command *c) {
  for (size_t i = 0; i < c->o->ninputs; i++)
    if (c->o->inputs[i].kind == INPUT_MLIR)
      return c->o->inputs[i].arg;
  cc1_usage(p, "-cc1 %s needs an MLIR input", c->kind);
  return NULL;
}

const char *cc1_output(struct plan *p, const char *dest) {
  const char *t = tmp_output_path(dest);
  if (t)
    plan_defer_commit(p, t, dest);
  return t;
}

const char *cc1_file(const struct cc1_command *c, enum cc1_role role, size_t module, size_t target) {
  const char *found = NULL;
  for (size_t i = 0; i < c->nfiles; i++)
    if (c->files[i].role == role && c->files[i].target == target &&
        (role == CC1_LIBRARY || c->files[i].module == module))
      found = c->files[i].path;
  return found;
}

int cc1_load_unit(struct plan *p, const struct cc1_command *c, struct unit *u) {
  size_t nt = p->opts->ntargets;
  if (!(u->input = cc1_input(p, c)))
    return -1;
  if (c->tag) {
    size_t n = strspn(c->tag, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_");
    if (!*c->tag || c->tag[n] || n >= sizeof u->tag)
      return cc1_usage(p, "invalid --tag=%s (expected up to %zu letters, digits and '_')", c->tag,
                       sizeof u->tag - 1);
    snprintf(u->tag, sizeof u->tag, "%s", c->tag);
  }
  u->normalized_path = u->input;
  if (program_load_normalized(u->input, &u->prog) != 0)
    return -1;
  u->nmodules = program_module_count(u->prog);
  u->cells = calloc(u->nmodules * nt + 1, sizeof *u->cells);
  u->blob_paths = calloc(u->nmodules + 1, sizeof *u->blob_paths);
  u->cached = calloc(nt + 1, sizeof *u->cached);
  u->lib_paths = calloc(nt + 1, sizeof *u->lib_paths);
  u->lib_sha256 = calloc(nt + 1, sizeof *u->lib_sha256);
  u->lib_hashed = calloc(nt + 1, sizeof *u->lib_hashed);
  if (!u->cells || !u->blob_paths || !u->cached || !u->lib_paths || !u->lib_sha256 || !u->lib_hashed)
    BUG("out of memory");
  return 0;
}

/* The running gpucc, as the lines name it: rerun with the same binary, the
 * same bytes. */
static const char *self_path(void) {
  static char path[PATH_MAX];
  if (!path[0]) {
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
      snprintf(path, sizeof path, "gpucc");
    else
      path[n] = '\0';
  }
  return path;
}

void cc1_line_add(struct cc1_line *l, const char *arg) {
  if (l->n + 2 > l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->argv = realloc(l->argv, l->cap * sizeof *l->argv);
    if (!l->argv)
      BUG("out of memory");
  }
  l->argv[l->n++] = xasprintf("%s", arg);
  l->argv[l->n] = NULL;
}

void cc1_line_addf(struct cc1_line *l, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s;
  if (vasprintf(&s, fmt, ap) < 0)
    BUG("out of memory");
  va_end(ap);
  cc1_line_add(l, s);
  free(s);
}

void cc1_line_start(struct cc1_line *l, const char *kind) {
  memset(l, 0, sizeof *l);
  cc1_line_add(l, self_path());
  cc1_line_add(l, "-cc1");
  cc1_line_add(l, kind);
}

void cc1_line_codegen(struct cc1_line *l, int opt, int contract, int debug) {
  cc1_line_addf(l, "-O%d", opt);
  cc1_line_addf(l, "-ffp-contract=%s", options_contract_name(contract));
  if (debug)
    cc1_line_add(l, "-g");
}

void cc1_line_kind_args(struct cc1_line *l, const struct options *o, const struct target_kind *kind,
                        int code_only) {
  for (size_t i = 0; i < o->nkind_args; i++) {
    const struct kind_arg *a = &o->kind_args[i];
    int own = !kind || (a->option >= kind->options && a->option < kind->options + kind->noptions);
    if (!own || (code_only && !a->option->code))
      continue;
    if (a->option->separate) {
      cc1_line_add(l, a->option->name);
      cc1_line_add(l, a->value);
    } else {
      cc1_line_addf(l, "%s=%s", a->option->name, a->value);
    }
  }
}

void cc1_line_print(FILE *out, struct cc1_line *l) {
  spawn_print(out, l->argv);
  for (size_t i = 0; i < l->n; i++)
    free(l->argv[i]);
  free(l->argv);
  memset(l, 0, sizeof *l);
}
