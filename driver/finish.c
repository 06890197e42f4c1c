/* finish.c: what happens after the jobs ran: intermediate stages asked for
 * with --emit= (or -S) are copied out of the temp directory under their
 * final names, -MD's depfile is written, and -save-temps copies the
 * intermediates out. Every output is written to a temp name beside it and
 * renamed into place (plan_commit) once the whole run has succeeded. */
#include "job.h"

#include "diag.h"
#include "proc.h"
#include "tmp.h"
#include "xstr.h"

#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void plan_defer_commit(struct plan *p, const char *tmp, const char *dest) {
  const char **t = realloc(p->commit_tmp, (p->ncommits + 1) * sizeof *t);
  if (!t)
    BUG("out of memory");
  p->commit_tmp = t;
  const char **d = realloc(p->commit_dest, (p->ncommits + 1) * sizeof *d);
  if (!d)
    BUG("out of memory");
  p->commit_dest = d;
  /* Copies: callers free their names (the temp name stays registered). */
  p->commit_tmp[p->ncommits] = xasprintf("%s", tmp);
  p->commit_dest[p->ncommits++] = xasprintf("%s", dest);
}

int plan_commit(struct plan *p) {
  for (size_t i = 0; i < p->ncommits; i++) {
    if (tmp_commit(p->commit_tmp[i], p->commit_dest[i]) == 0)
      continue;
    /* All or nothing: the ones in place already go (the temp names left
     * are removed at exit). */
    for (size_t k = 0; k < i; k++)
      if (strcmp(p->commit_dest[k], "-") != 0)
        unlink(p->commit_dest[k]);
    return -1;
  }
  p->ncommits = 0;
  return 0;
}

/* Copies src to dest through a temp file, renamed at the end (plan_commit). */
static int publish(struct plan *p, const char *src, const char *dest) {
  void *data;
  size_t size;
  if (tmp_read_file(src, &data, &size) != 0)
    return -1;
  const char *t = tmp_output_path(dest);
  int rc = t ? tmp_write_file(t, data, size) : -1;
  free(data);
  if (rc == 0)
    plan_defer_commit(p, t, dest);
  return rc;
}

struct emitted {
  const char *src;
  char *dest;
  const char *tool; /* the kind's tool that makes it ("ptxas"), or NULL */
};

/* Collects the files of one stage; their default names follow the inputs'. */
static size_t collect(const struct plan *p, struct emitted *out, size_t cap) {
  const struct options *o = p->opts;
  size_t n = 0;
  for (size_t u = 0; u < p->nunits; u++) {
    struct unit *un = &p->units[u];
    char *st = xstem(un->input);
    switch (o->emit) {
    case EMIT_MLIR_HOST:
      if (n < cap)
        out[n++] = (struct emitted){un->host_mlir_path, xasprintf("%s.host.mlir", st), NULL};
      break;
    case EMIT_MLIR_DEVICE:
      if (n < cap)
        out[n++] = (struct emitted){un->device_mlir_path, xasprintf("%s.device.mlir", st), NULL};
      break;
    case EMIT_LLVM:
      if (n < cap)
        out[n++] = (struct emitted){un->host_ll_path, xasprintf("%s.ll", st), NULL};
      break;
    case EMIT_FATBIN:
      for (size_t m = 0; m < un->nmodules && n < cap; m++) {
        char *part = xfile_part(unit_module(un, m));
        out[n++] = (struct emitted){un->blob_paths[m], xasprintf("%s-%s.gpucc-fatbin", st, part), NULL};
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
          const char *src = NULL, *tool = NULL;
          int is_stage = 0;
          if (k->device_stage && !strcmp(k->device_stage, o->emit_stage))
            src = c->device_path, is_stage = 1;
          else if (k->finished_stage && !strcmp(k->finished_stage, o->emit_stage))
            src = c->finished_path, tool = k->finish_tool, is_stage = 1;
          if (is_stage) {
            char *part = xfile_part(unit_module(un, m));
            out[n++] = (struct emitted){src, xasprintf("%s-%s-%s.%s", st, part, tg->id, o->emit_stage),
                                        tool};
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
    if (!files[i].src && files[i].tool)
      rc = diag_error("no object for '%s' (is %s installed?)", files[i].dest, files[i].tool);
    else if (!files[i].src)
      rc = diag_error("no object for '%s'", files[i].dest);
    else
      rc = publish(p, files[i].src, o->output ? o->output : files[i].dest);
  }
  for (size_t i = 0; i < n; i++)
    free(files[i].dest);
  return rc;
}

void plan_print_outputs(FILE *out, const struct plan *p) {
  const struct options *o = p->opts;
  if (o->mode != MODE_EMIT)
    return;
  struct emitted files[4096];
  size_t n = collect(p, files, sizeof files / sizeof files[0]);
  for (size_t i = 0; i < n; i++) {
    /* A stage that is not made (no ptxas: no cubin) is the build's error. */
    if (files[i].src && !(o->output && n > 1)) {
      char *cp[] = {"cp", (char *)files[i].src, o->output ? (char *)o->output : files[i].dest, NULL};
      spawn_print(out, cp);
    }
    free(files[i].dest);
  }
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

char *plan_depfile_path(const struct options *o, const char *out) {
  if (o->dep_output)
    return xasprintf("%s", o->dep_output);
  const char *slash = strrchr(out, '/');
  const char *dot = strrchr(slash ? slash : out, '.');
  return dot ? xasprintf("%.*s.d", (int)(dot - out), out) : xasprintf("%s.d", out);
}

/* Writes the depfile of output `out` saying that -MT's targets, else out,
 * depends on the inputs: all of them, or only `only` (one object of -c). */
static int write_depfile(struct plan *p, const char *out, const char *only) {
  const struct options *o = p->opts;
  char *path = plan_depfile_path(o, out);
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
  if (o->ndep_targets == 0)
    put_escaped(f, out);
  for (size_t i = 0; i < o->ndep_targets; i++) {
    if (i)
      fputc(' ', f);
    put_escaped(f, o->dep_targets[i]);
  }
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
  plan_defer_commit(p, t, path); /* renamed with the other outputs */
  free(path);
  return 0;
}

int plan_finish(struct plan *p) {
  const struct options *o = p->opts;
  if (o->mode == MODE_EMIT && emit_outputs(p) != 0)
    return -1;
  if (!o->depfile)
    return 0;
  if (o->mode == MODE_COMPILE) {
    /* One object per input, one depfile per object (plan_build refused
     * -MF and -MT for several); a C object's comes from cc. */
    for (size_t u = 0; u < p->nunits; u++)
      if (write_depfile(p, p->units[u].obj_final, p->units[u].input) != 0)
        return -1;
    /* The direct cache served the one object: no unit was planned. */
    if (p->direct_hit)
      return write_depfile(p, o->output, NULL);
    return 0;
  }
  return write_depfile(p, o->output ? o->output : "a.out", NULL);
}

/* The gcc-style base of unit u's intermediates (see plan_save_temps). */
static char *temps_base(const struct plan *p, const struct unit *u) {
  const struct options *o = p->opts;
  if (o->mode == MODE_COMPILE && u->obj_final)
    return xstem(u->obj_final);
  if (o->mode != MODE_LINK || (o->output && !strcmp(o->output, "-")))
    return xstem(u->input);
  char *out = xstem(o->output ? o->output : "a.out");
  if (p->nunits == 1)
    return out;
  char *in = xstem(u->input);
  char *both = xasprintf("%s-%s", out, in);
  free(out);
  free(in);
  return both;
}

/* Copies one intermediate, when the run made it, to dir/name; name is
 * freed. */
static int save_temp(const char *src, const char *dir, char *name) {
  int rc = 0;
  if (src && access(src, F_OK) == 0) {
    char *dest = xasprintf("%s%s", dir, name);
    void *data;
    size_t size;
    const char *t = NULL;
    rc = tmp_read_file(src, &data, &size);
    if (rc == 0) {
      t = tmp_output_path(dest);
      rc = t ? tmp_write_file(t, data, size) : -1;
      free(data);
    }
    if (rc == 0)
      rc = tmp_commit(t, dest);
    free(dest);
  }
  free(name);
  return rc;
}

int plan_save_temps(struct plan *p) {
  const struct options *o = p->opts;
  char *dir = xasprintf("%s", "");
  if (o->save_temps_to == 2 && o->output && strcmp(o->output, "-") != 0 && strchr(o->output, '/')) {
    char *copy = xasprintf("%s", o->output);
    free(dir);
    dir = xasprintf("%s/", dirname(copy));
    free(copy);
  }
  int rc = 0;
  for (size_t ui = 0; ui < p->nunits && rc == 0; ui++) {
    const struct unit *u = &p->units[ui];
    char *base = temps_base(p, u);
    for (size_t m = 0; m < u->nmodules && u->cells && rc == 0; m++) {
      char *part = xfile_part(unit_module(u, m));
      for (size_t t = 0; t < o->ntargets && rc == 0; t++) {
        const struct target *tg = &o->targets[t];
        const struct target_kind *k = tg->info->kind;
        const struct cell *c = unit_cell(u, o->ntargets, m, t);
        rc = save_temp(c->device_path, dir, xasprintf("%s-%s-%s%s", base, part, tg->id, k->device_suffix));
        if (rc == 0 && k->finished_suffix)
          rc = save_temp(c->finished_path, dir,
                         xasprintf("%s-%s-%s%s", base, part, tg->id, k->finished_suffix));
      }
      if (rc == 0 && u->blob_paths)
        rc = save_temp(u->blob_paths[m], dir, xasprintf("%s-%s.gpucc-fatbin", base, part));
      if (rc == 0 && u->blob_obj_paths)
        rc = save_temp(u->blob_obj_paths[m], dir, xasprintf("%s-%s.fatbin.o", base, part));
      free(part);
    }
    for (size_t t = 0; t < o->ntargets && u->lib_paths && rc == 0; t++)
      if (o->targets[t].info->kind->finished_suffix)
        rc = save_temp(u->lib_paths[t], dir, xasprintf("%s-%s%s", base, o->targets[t].id,
                                                       o->targets[t].info->kind->finished_suffix));
    if (rc == 0)
      rc = save_temp(u->host_obj_path, dir, xasprintf("%s.host.o", base));
    /* The jobs' input: `gpucc -cc1` reruns one from it (job_normalize.c). */
    if (rc == 0)
      rc = save_temp(u->normalized_path, dir, xasprintf("%s.normalized.mlir", base));
    free(base);
  }
  free(dir);
  return rc;
}
