/* job_normalize.c: the first job of each MLIR input, its normalized module
 * (program_load: parsed, verified, prepared and normalized) as the file that
 * the device, host and bundle jobs read; see job.h.
 *
 * In a build the parent has done that work already, in plan_build, since
 * the job list depends on the gpu.modules; the jobs use the parent's copy
 * (forked), and the file is written only when the intermediates are kept
 * (-save-temps, --save-temps). `gpucc -cc1 normalize` does it from the
 * source. */
#include "job.h"

#include "cc1.h"
#include "diag.h"
#include "program.h"
#include "xstr.h"

#include <stdio.h>
#include <string.h>

static int run_normalize(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  if (!u->prog) { /* -cc1 normalize */
    if (program_load(u->input, &u->prog) != 0)
      return -1;
  } else if (!o->save_temps && !o->save_temps_to && o->emit != EMIT_MLIR_DEVICE) {
    return 0;
  }
  /* --emit=mlir-device's file is the module as MLIR prints it; the jobs'
   * input carries its locations. */
  if (o->emit == EMIT_MLIR_DEVICE)
    return program_write(u->prog, u->normalized_path);
  return program_write_normalized(u->prog, u->normalized_path);
}

/* An input that is MLIR by -x only ("-", "kernel.inc"). */
static int mlir_by_name(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *dot = strrchr(slash ? slash : path, '.');
  return dot && (!strcmp(dot, ".mlir") || !strcmp(dot, ".mlirbc"));
}

/* gpucc -cc1 normalize --offload-arch=sm_90 ... prog.mlir -o
 *   prog.normalized.mlir: with the options that change what normalizing
 * does (-fsanitize=bounds, -e, --entry-point-result) and the targets
 * (whether any is a GPU: the warnings about host memory). */
static void describe_normalize(FILE *out, const struct plan *p, const struct job *j) {
  const struct options *o = p->opts;
  const struct unit *u = j->unit;
  struct cc1_line l;
  cc1_line_start(&l, "normalize");
  for (size_t t = 0; t < o->ntargets; t++)
    cc1_line_addf(&l, "--offload-arch=%s", o->targets[t].id);
  if (o->runtime_verification)
    cc1_line_add(&l, "-fsanitize=bounds");
  if (o->entry)
    cc1_line_addf(&l, "--entry=%s", o->entry);
  if (o->entry_result)
    cc1_line_addf(&l, "--entry-point-result=%s", o->entry_result);
  if (o->emit == EMIT_MLIR_DEVICE)
    cc1_line_add(&l, "--emit=mlir-device");
  if (!mlir_by_name(u->input)) {
    cc1_line_add(&l, "-x");
    cc1_line_add(&l, "mlir");
  }
  cc1_line_add(&l, u->input);
  cc1_line_add(&l, "-o");
  cc1_line_add(&l, u->normalized_path);
  cc1_line_print(out, &l);
}

static void about_normalize(const struct plan *p, const struct job *j, struct job_about *a) {
  (void)p;
  a->doing = "normalizing";
  snprintf(a->subject, sizeof a->subject, "'%s'", j->unit->input);
  snprintf(a->label, sizeof a->label, "%s", j->what);
}

static int normalize_from_command(struct plan *p, struct cc1_command *c, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  if (c->nouts != 1)
    return cc1_usage(p, "-cc1 normalize writes one module: give one -o");
  if (!(u->input = cc1_input(p, c)))
    return -1;
  /* As main configures it for the driver. */
  struct program_options po = {o->runtime_verification,
                               o->entry ? o->entry : o->entry_result ? "main" : NULL,
                               o->entry_result, 0};
  for (size_t t = 0; t < o->ntargets; t++)
    po.gpu_targets |= o->targets[t].info->kind->fatbin_vendor != FATBIN_VENDOR_HOST;
  program_configure(&po);
  if (!(u->normalized_path = cc1_output(p, c->outs[0])))
    return -1;
  j->what = xasprintf("normalize: %s", u->input);
  return 0;
}

const struct job_kind job_normalize = {
    .name = "normalize",
    .in_parent = 1,
    .run = run_normalize,
    .describe = describe_normalize,
    .about = about_normalize,
    .from_command = normalize_from_command,
};
