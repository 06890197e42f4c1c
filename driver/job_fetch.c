/* job_fetch.c: one target's objects of a unit, copied out of the device
 * object cache, in the parent; see job.h. Not a -cc1 job: -### plans with
 * no cache, and a rerun compiles. */
#include "job.h"

#include "cache.h"
#include "diag.h"

#include <stdio.h>
#include <string.h>

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

/* -v: a shell comment, naming what it writes. */
static void describe_fetch(FILE *out, const struct plan *p, const struct job *j) {
  fprintf(out, "# gpucc: cache hit for %s ->", p->opts->targets[j->target].id);
  for (size_t i = 0; i < j->nouts; i++)
    fprintf(out, " %s", j->outs[i]);
  fputc('\n', out);
}

static void about_fetch(const struct plan *p, const struct job *j, struct job_about *a) {
  const struct unit *u = j->unit;
  const char *target = p->opts->targets[j->target].id;
  a->doing = "fetching cached device code";
  snprintf(a->subject, sizeof a->subject, "%s of '%s'", target, u->input);
  a->row = "cache fetch";
  a->target = target;
  int remote = 0;
  for (size_t m = 0; m < u->nmodules && !remote && cache_enabled(); m++)
    remote = cache_from_remote(unit_cell(u, p->opts->ntargets, m, j->target)->key, "dev");
  a->cache_use = remote ? "hit (remote)" : "hit (local)";
  snprintf(a->label, sizeof a->label, "%s", j->what);
}

const struct job_kind job_fetch = {
    .name = "fetch",
    .in_parent = 1,
    .run = run_fetch,
    .describe = describe_fetch,
    .about = about_fetch,
};
