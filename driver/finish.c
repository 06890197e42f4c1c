/* finish.c: what happens after the jobs ran: intermediate stages asked for
 * with --emit= (or -S) are copied out of the temp directory under their
 * final names, and -MD's depfile is written. Every output is written to a
 * temp name beside it and renamed into place. */
#include "job.h"

#include "diag.h"
#include "tmp.h"
#include "xstr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* Copies src to dest through a temp file and a rename. */
static int publish(const char *src, const char *dest) {
  void *data;
  size_t size;
  if (tmp_read_file(src, &data, &size) != 0)
    return -1;
  const char *t = tmp_output_path(dest);
  int rc = t ? tmp_write_file(t, data, size) : -1;
  free(data);
  if (rc == 0)
    rc = tmp_commit(t, dest);
  return rc;
}

struct emitted {
  const char *src;
  char *dest;
};

/* Collects the files of one stage; their default names follow the inputs'. */
static size_t collect(struct plan *p, struct emitted *out, size_t cap) {
  const struct options *o = p->opts;
  size_t n = 0;
  for (size_t u = 0; u < p->nunits; u++) {
    struct unit *un = &p->units[u];
    char *st = xstem(un->input);
    switch (o->emit) {
    case EMIT_MLIR_HOST:
      if (n < cap)
        out[n++] = (struct emitted){un->host_mlir_path, xasprintf("%s.host.mlir", st)};
      break;
    case EMIT_MLIR_DEVICE:
      if (n < cap)
        out[n++] = (struct emitted){un->device_mlir_path, xasprintf("%s.device.mlir", st)};
      break;
    case EMIT_LLVM:
      if (n < cap)
        out[n++] = (struct emitted){un->host_ll_path, xasprintf("%s.ll", st)};
      break;
    case EMIT_FATBIN:
      for (size_t m = 0; m < un->nmodules && n < cap; m++) {
        char *part = xfile_part(unit_module(un, m));
        out[n++] = (struct emitted){un->blob_paths[m], xasprintf("%s-%s.gpucc-fatbin", st, part)};
        free(part);
      }
      break;
    case EMIT_TARGET:
      /* The stage is a kind's device file or its finished object. */
      for (size_t m = 0; m < un->nmodules; m++)
        for (size_t t = 0; t < o->ntargets && n < cap; t++) {
          const struct target *tg = &o->targets[t];
          const struct target_kind *k = tg->info->kind;
          const struct cell *c = unit_cell(un, o->ntargets, m, t);
          const char *src = NULL;
          int is_stage = 0;
          if (k->device_stage && !strcmp(k->device_stage, o->emit_stage))
            src = c->device_path, is_stage = 1;
          else if (k->finished_stage && !strcmp(k->finished_stage, o->emit_stage))
            src = c->finished_path, is_stage = 1;
          if (is_stage) {
            char *part = xfile_part(unit_module(un, m));
            out[n++] = (struct emitted){src, xasprintf("%s-%s-%s.%s", st, part, tg->id, o->emit_stage)};
            free(part);
          }
        }
      break;
    default:
      break;
    }
    free(st);
  }
  return n;
}

static int emit_outputs(struct plan *p) {
  const struct options *o = p->opts;
  struct emitted files[4096];
  size_t n = collect(p, files, sizeof files / sizeof files[0]);
  int rc = 0;
  if (n == 0)
    rc = diag_error("nothing to emit: no input produces that stage for these targets");
  else if (o->output && n > 1)
    rc = diag_error("-o names one file but this stage has %zu (one per gpu.module and target); "
                    "leave out -o", n);
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (!files[i].src)
      rc = diag_error("no %s for '%s' (is ptxas installed?)", "object", files[i].dest);
    else
      rc = publish(files[i].src, o->output ? o->output : files[i].dest);
  }
  for (size_t i = 0; i < n; i++)
    free(files[i].dest);
  return rc;
}

/* Make's escaping: spaces, '#' and '$' in file names. */
static void put_escaped(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == ' ' || *s == '#')
      fputc('\\', f);
    else if (*s == '$')
      fputc('$', f);
    fputc(*s, f);
  }
}

/* Writes the depfile of output `out` (-MF's name, else gcc's rule: out
 * with its suffix replaced by .d) saying that -MT's target, else out,
 * depends on the inputs: all of them, or only `only` (one object of -c). */
static int write_depfile(struct plan *p, const char *out, const char *only) {
  const struct options *o = p->opts;
  const char *target = o->dep_target ? o->dep_target : out;
  char *path = NULL;
  if (o->dep_output) {
    path = xasprintf("%s", o->dep_output);
  } else {
    const char *slash = strrchr(out, '/');
    const char *dot = strrchr(slash ? slash : out, '.');
    path = dot ? xasprintf("%.*s.d", (int)(dot - out), out) : xasprintf("%s.d", out);
  }
  const char *t = tmp_output_path(path);
  if (!t) {
    free(path);
    return -1;
  }
  FILE *f = fopen(t, "w");
  if (!f) {
    free(path);
    return diag_error("cannot write depfile '%s'", t);
  }
  put_escaped(f, target);
  fputc(':', f);
  for (size_t i = 0; i < o->ninputs; i++) {
    if (o->inputs[i].kind == INPUT_LINKER || !strcmp(o->inputs[i].arg, "-") ||
        (only && strcmp(o->inputs[i].arg, only) != 0))
      continue;
    fputs(" \\\n ", f);
    put_escaped(f, o->inputs[i].arg);
  }
  fputc('\n', f);
  int bad = fflush(f) != 0 || ferror(f);
  if (fclose(f) != 0 || bad) {
    free(path);
    return diag_error("cannot write depfile '%s'", t);
  }
  int rc = tmp_commit(t, path);
  free(path);
  return rc;
}

int plan_finish(struct plan *p) {
  const struct options *o = p->opts;
  if (o->mode == MODE_EMIT && emit_outputs(p) != 0)
    return -1;
  if (!o->depfile)
    return 0;
  if (o->mode == MODE_COMPILE && !o->output && p->nunits > 1) {
    /* One object per input, one depfile per object (plan_build refused
     * -MF and -MT here). */
    for (size_t u = 0; u < p->nunits; u++)
      if (write_depfile(p, p->units[u].obj_final, p->units[u].input) != 0)
        return -1;
    return 0;
  }
  const char *out = o->output ? o->output
                    : o->mode == MODE_COMPILE && p->nunits ? p->units[0].obj_final
                                                           : "a.out";
  return write_depfile(p, out, NULL);
}
