/* job_device.c: the device job, a range of one unit's gpu.modules lowered
 * for one target or one family of targets (lowering_device_family), in a
 * forked child; see job.h. As a -cc1 line it is one target's. */
#include "job.h"

#include "cc1.h"
#include "diag.h"
#include "lowering.h"
#include "xstr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The i-th target the job compiles for: its family's, or its own. */
static size_t job_target(const struct job *j, size_t i) { return j->nfamily ? j->family[i] : j->target; }

static int run_device(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  const struct unit *u = j->unit;
  size_t nt = j->nfamily ? j->nfamily : 1, count = j->range.count;
  const char **paths = calloc(nt * count + 1, sizeof *paths);
  struct device_parts *parts = calloc(nt * count + 1, sizeof *parts);
  const struct target **ts = calloc(nt, sizeof *ts);
  if (!paths || !parts || !ts)
    BUG("out of memory");
  for (size_t k = 0; k < nt; k++) {
    ts[k] = &o->targets[job_target(j, k)];
    for (size_t i = 0; i < count; i++) {
      const struct cell *c = unit_cell(u, o->ntargets, j->range.first + i, job_target(j, k));
      paths[k * count + i] = c->device_path;
      parts[k * count + i] = c->parts;
    }
  }
  struct device_codegen cg = {options_device_opt(o), o->debug_info,
                              (enum fp_contract)options_device_contract(o), parts};
  int rc = lowering_device_family(u->prog, ts, nt, &p->tc, &cg, &j->range, paths);
  free(paths);
  free(parts);
  free(ts);
  return rc;
}

/* gpucc -cc1 device --offload-arch=sm_90 -O3 -ffp-contract=fast
 *   --gpu-module=FIRST [--device-parts=N,...] prog.normalized.mlir
 *   -o FIRST.ptx -o ...: one -o per gpu.module from FIRST on; N: the parts
 * each one's file is also written in, beside it (lowering_part_path),
 * when any is finished in parts. */
static void describe_target(FILE *out, const struct plan *p, const struct job *j, size_t target) {
  const struct options *o = p->opts;
  const struct unit *u = j->unit;
  struct cc1_line l;
  cc1_line_start(&l, "device");
  cc1_line_addf(&l, "--offload-arch=%s", o->targets[target].id);
  cc1_line_codegen(&l, options_device_opt(o), options_device_contract(o), o->debug_info);
  cc1_line_kind_args(&l, o, o->targets[j->target].info->kind, 0);
  cc1_line_addf(&l, "--gpu-module=%zu", j->range.first);
  char parts[512] = "";
  int split = 0;
  size_t len = 0;
  for (size_t m = j->range.first; m < j->range.first + j->range.count && len < sizeof parts; m++) {
    size_t n = unit_cell(u, o->ntargets, m, target)->parts.n;
    split |= n > 1;
    int w = snprintf(parts + len, sizeof parts - len, "%s%zu", len ? "," : "", n > 1 ? n : 1);
    len += w > 0 ? (size_t)w : 0;
  }
  if (split)
    cc1_line_addf(&l, "--device-parts=%s", parts);
  cc1_line_add(&l, u->normalized_path);
  for (size_t m = j->range.first; m < j->range.first + j->range.count; m++) {
    cc1_line_add(&l, "-o");
    cc1_line_add(&l, unit_cell(u, o->ntargets, m, target)->device_path);
  }
  cc1_line_print(out, &l);
}

/* A family's job is one line per target: each alone makes the same bytes
 * (lowering_same_family). */
static void describe_device(FILE *out, const struct plan *p, const struct job *j) {
  for (size_t k = 0; k < (j->nfamily ? j->nfamily : 1); k++)
    describe_target(out, p, j, job_target(j, k));
}

static void about_device(const struct plan *p, const struct job *j, struct job_about *a) {
  /* A family's job is all its chips' ("gfx90a+gfx942"), in its row too. */
  size_t len = 0;
  a->target_name[0] = '\0';
  for (size_t k = 0; k < (j->nfamily ? j->nfamily : 1) && len < sizeof a->target_name; k++) {
    int w = snprintf(a->target_name + len, sizeof a->target_name - len, "%s%s", k ? "+" : "",
                     p->opts->targets[job_target(j, k)].id);
    len += w > 0 ? (size_t)w : 0;
  }
  const char *target = a->target_name;
  a->doing = "lowering device code";
  snprintf(a->subject, sizeof a->subject, "%s of '%s'", target, j->unit->input);
  a->row = "device code";
  a->target = target;
  a->cache_use = "miss";
  /* The status line: "sm_90 kernels", the target and the gpu.module. */
  if (j->range.count == 1) {
    char *shown = unit_module_shown(j->unit, j->range.first);
    snprintf(a->label, sizeof a->label, "%s %s", target, shown);
    free(shown);
  } else {
    snprintf(a->label, sizeof a->label, "%s %s (%zu gpu.modules)", target, j->unit->input,
             j->range.count);
  }
}

static int device_from_command(struct plan *p, struct cc1_command *c, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  if (o->ntargets != 1)
    return cc1_usage(p, "-cc1 device compiles for one target: give one --offload-arch=");
  if (c->nouts == 0)
    return cc1_usage(p, "-cc1 device needs an -o for each gpu.module it compiles");
  if (cc1_load_unit(p, c, u) != 0)
    return -1;
  size_t first = c->module_given ? c->module : 0;
  if (first >= u->nmodules || c->nouts > u->nmodules - first)
    return cc1_usage(p, "'%s' has %zu gpu.module%s: no %zu from --gpu-module=%zu", u->input,
                     u->nmodules, u->nmodules == 1 ? "" : "s", c->nouts, first);
  if (plan_toolchain(p, 1) != 0)
    return -1;
  if (c->nparts && c->nparts != c->nouts)
    return cc1_usage(p, "--device-parts= gives %zu count%s for %zu -o", c->nparts,
                     c->nparts == 1 ? "" : "s", c->nouts);
  for (size_t i = 0; i < c->nouts; i++) {
    struct cell *cell = unit_cell(u, 1, first + i, 0);
    if (!(cell->device_path = cc1_output(p, c->outs[i])))
      return -1;
    size_t n = c->nparts ? c->parts[i] : 1;
    if (n < 2)
      continue;
    /* Beside the named file, each written under a temp name first. */
    const char **paths = calloc(n, sizeof *paths);
    if (!paths)
      BUG("out of memory");
    for (size_t k = 0; k < n; k++)
      if (!(paths[k] = cc1_output(p, lowering_part_path(c->outs[i], k))))
        return -1;
    cell->parts = (struct device_parts){n, paths};
  }
  j->target = 0;
  j->range = (struct module_range){first, c->nouts, u->nmodules};
  j->what = xasprintf("device code for %s: %s", o->targets[0].id, u->input);
  return 0;
}

const struct job_kind job_device = {
    .name = "device",
    .run = run_device,
    .describe = describe_device,
    .about = about_device,
    .from_command = device_from_command,
};
