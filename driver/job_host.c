/* job_host.c: the host job, host code lowered to an object (lowering_host)
 * in a forked child, which may change the module as it likes; or, when the
 * object is cached, fetched in the parent; see job.h. */
#include "job.h"

#include "cache.h"
#include "cc1.h"
#include "diag.h"
#include "lowering.h"
#include "xstr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_host(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  if (u->host_cached) {
    if (cache_fetch(u->host_key, "host", u->host_obj_path) != 0)
      return diag_error("cache entry for the host code of '%s' vanished while in use; run again", u->input);
    return 0;
  }
  struct device_codegen cg = {o->opt_level, o->debug_info,
                              (enum fp_contract)options_host_contract(o), NULL};
  return lowering_host(u->prog, u->tag, &cg, u->host_obj_path, u->host_mlir_path, u->host_ll_path);
}

/* Stored from the parent, like the device objects (a child's remote-cache
 * trouble would be a second warning). */
static void host_done(struct plan *p, struct job *j) {
  (void)p;
  if (j->unit->host_key[0] && !j->unit->host_cached)
    cache_store(j->unit->host_key, "host", j->unit->host_obj_path);
}

/* gpucc -cc1 host -O2 -ffp-contract=on --tag=TAG prog.normalized.mlir
 *   -o prog.host.o [--emit-mlir=F] [--emit-llvm=F] */
static void describe_host(FILE *out, const struct plan *p, const struct job *j) {
  const struct options *o = p->opts;
  const struct unit *u = j->unit;
  struct cc1_line l;
  cc1_line_start(&l, "host");
  cc1_line_codegen(&l, o->opt_level, options_host_contract(o), o->debug_info);
  cc1_line_addf(&l, "--tag=%s", u->tag);
  cc1_line_add(&l, u->normalized_path);
  cc1_line_add(&l, "-o");
  cc1_line_add(&l, u->host_obj_path);
  if (u->host_mlir_path)
    cc1_line_addf(&l, "--emit-mlir=%s", u->host_mlir_path);
  if (u->host_ll_path)
    cc1_line_addf(&l, "--emit-llvm=%s", u->host_ll_path);
  cc1_line_print(out, &l);
}

static void about_host(const struct plan *p, const struct job *j, struct job_about *a) {
  (void)p;
  const struct unit *u = j->unit;
  a->doing = "lowering host code";
  snprintf(a->subject, sizeof a->subject, "'%s'", u->input);
  a->row = u->host_cached ? "host code (cached)" : "host code";
  if (u->host_key[0])
    a->cache_use = !u->host_cached ? "miss" : cache_from_remote(u->host_key, "host") ? "hit (remote)"
                                                                                    : "hit (local)";
  snprintf(a->label, sizeof a->label, "%s", j->what);
}

static int host_from_command(struct plan *p, struct cc1_command *c, struct job *j) {
  struct unit *u = j->unit;
  if (c->nouts != 1)
    return cc1_usage(p, "-cc1 host writes one object: give one -o");
  if (!c->tag)
    return cc1_usage(p, "-cc1 host needs --tag=, which names the fat binaries' symbols");
  if (cc1_load_unit(p, c, u) != 0)
    return -1;
  if (!(u->host_obj_path = cc1_output(p, c->outs[0])) ||
      (c->emit_mlir && !(u->host_mlir_path = cc1_output(p, c->emit_mlir))) ||
      (c->emit_llvm && !(u->host_ll_path = cc1_output(p, c->emit_llvm))))
    return -1;
  j->what = xasprintf("host code: %s", u->input);
  return 0;
}

const struct job_kind job_host = {
    .name = "host",
    .run = run_host,
    .done = host_done,
    .describe = describe_host,
    .about = about_host,
    .from_command = host_from_command,
};
