/* job_context.c: what plan.c sets up for its jobs and a job run alone by
 * -cc1 sets up again: the kinds' toolchains, the device objects that
 * --bundle reads, and the code flags the manifest records. Below plan.c
 * and the kinds of job (job_*.c), which both call it. */
#include "job.h"

#include "crash.h"
#include "diag.h"
#include "fatbin.h"
#include "frontend.h"
#include "options.h"
#include "targets.h"
#include "tmp.h"
#include "xstr.h"

#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

int plan_toolchain(struct plan *p, int prepare_kinds) {
  const struct options *o = p->opts;
  if (toolchain_find(&p->tc, o->kind_args, o->nkind_args, o->targets, o->ntargets) != 0)
    return -1;
  for (size_t t = 0; t < o->ntargets; t++) {
    const struct target *tg = &o->targets[t];
    if (tg->info->kind->check && tg->info->kind->check(tg, &p->tc) != 0)
      return -1;
  }
  /* Each kind in use gets ready once (and says what it lacks). */
  for (size_t k = 0; target_kinds[k] && prepare_kinds; k++) {
    int used = 0;
    for (size_t t = 0; t < o->ntargets; t++)
      used |= o->targets[t].info->kind == target_kinds[k];
    if (used && target_kinds[k]->prepare && target_kinds[k]->prepare(&p->tc) != 0)
      return -1;
  }
  return 0;
}

int plan_frontend_init(void) {
  if (frontend_init() != 0)
    return -1;
  struct frontend_kind_row rows[FRONTEND_MAX_KIND_ROWS];
  size_t n = 0;
  for (size_t k = 0; target_kinds[k]; k++) {
    const struct target_kind *kind = target_kinds[k];
    if (n == FRONTEND_MAX_KIND_ROWS)
      BUG("more target kinds than FRONTEND_MAX_KIND_ROWS");
    rows[n++] = (struct frontend_kind_row){kind->host_ops.prefix, kind->host_ops.pipeline,
                                           kind->carried_code.op, kind->carried_code.prefix};
  }
  frontend_set_kind_rows(rows, n);
  return 0;
}

int plan_open_parts(struct plan *p) {
  const struct options *o = p->opts;
  p->parts = calloc(o->ninputs + 1, sizeof *p->parts);
  if (!p->parts)
    BUG("out of memory");
  for (size_t i = 0; i < o->ninputs; i++) {
    if (o->inputs[i].kind != INPUT_DEVICE)
      continue;
    struct device_part *dp = &p->parts[p->nparts++];
    dp->path = o->inputs[i].arg;
    if (tmp_read_file(dp->path, &dp->data, &dp->size) != 0)
      return -1;
    char err[256];
    if (fatbin_open(dp->data, dp->size, &dp->fb, err, sizeof err) != 0)
      return diag_error("'%s' is not a device object file from --device-only: %s", dp->path, err);
  }
  return 0;
}

/* What the manifest records of the options that change code. */
void plan_code_flags(const struct options *o, char *buf, size_t len) {
  snprintf(buf, len, "-O%d%s -ffp-contract=%s", options_device_opt(o), o->debug_info ? " -g" : "",
           options_contract_name(options_device_contract(o)));
  for (size_t i = 0; i < o->nkind_args; i++) { /* the kinds' options that change code */
    const struct kind_arg *a = &o->kind_args[i];
    size_t n = strlen(buf);
    if (a->option->code)
      snprintf(buf + n, len - n, a->option->separate ? " %s %s" : " %s=%s", a->option->name, a->value);
  }
}

const char *plan_target_params(struct plan *p, size_t ti) {
  const struct options *o = p->opts;
  if (!p->target_params && !(p->target_params = calloc(o->ntargets + 1, sizeof *p->target_params)))
    BUG("out of memory");
  if (p->target_params[ti])
    return p->target_params[ti];
  const struct target *tg = &o->targets[ti];
  const struct target_kind *k = tg->info->kind;
  struct finish_request req = {options_device_opt(o), o->debug_info, 0};
  char *inputs = k->cache_inputs ? k->cache_inputs(&p->tc, tg, &req) : xasprintf("-");
  char *params = xasprintf("gpucc-cache-2 gpucc=%s build=%s llvm=%s target=%s features=%s O=%d "
                           "g=%d contract=%d kind=%s %s",
                           GPUCC_VERSION, cache_compiler_id(), GPUCC_LLVM_VERSION, tg->id,
                           tg->features, options_device_opt(o), o->debug_info,
                           options_device_contract(o), k->name, inputs);
  free(inputs);
  return p->target_params[ti] = params;
}

/* GPUCC_TEST_CRASH=<kind>[-trap|-warning|-sleep] (a test switch). */
static int planted(const struct job *j, const char *what) {
  char name[64];
  snprintf(name, sizeof name, "%s%s", j->kind->name, what);
  return crash_planted(name);
}

void job_planted_faults(const struct job *j) {
  if (planted(j, ""))
    raise(SIGSEGV);
  if (planted(j, "-trap"))
    raise(SIGTRAP);
  if (planted(j, "-warning"))
    diag_warning("planted warning in %s", j->what);
  /* A job still running when the test interrupts gpucc (its parent then
   * holds make's tokens: they must come back). */
  if (planted(j, "-sleep"))
    sleep(30);
}
