/* direct_cache.c: a -c build served whole from the cache; see
 * direct_cache.h. */
#include "direct_cache.h"

#include "cache.h"
#include "job.h"
#include "tmp.h"
#include "xstr.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The commands a direct entry can stand for: one MLIR file to one object,
 * with no other output than its depfile (which plan_finish writes from
 * the options alone, hit or not). Tests that plant faults or watch jobs
 * run want the jobs to run. */
static int serves(const struct options *o) {
  const char *direct = getenv("GPUCC_CACHE_DIRECT");
  if ((direct && !strcmp(direct, "0")) || getenv("GPUCC_TEST_CRASH") ||
      getenv("GPUCC_TEST_JOB_LOG"))
    return 0;
  return cache_enabled() && o->mode == MODE_COMPILE && o->output && strcmp(o->output, "-") != 0 &&
         o->ninputs == 1 && o->inputs[0].kind == INPUT_MLIR && strcmp(o->inputs[0].arg, "-") != 0 &&
         !o->dry_run && !o->syntax_only && !o->save_temps && !o->save_temps_to && !o->device_only &&
         !o->bundle;
}

/* Appends "name=value\n" to *s. */
static void add_line(char **s, const char *name, const char *value) {
  char *more = xasprintf("%s%s=%s\n", *s, name, value ? value : "");
  free(*s);
  *s = more;
}

/* Options that change nothing in the object, left out of the key so that
 * `-v` or another -j still finds it. Returns how many words argv[i] and
 * its value take, 0 when it counts. */
static int silent_option(char **argv, int i, int argc) {
  static const char *const flags[] = {"-v", "-ftime-report", "-fdiagnostics-color",
                                      "-fno-diagnostics-color", "-fno-caret-diagnostics",
                                      "-Werror", "-MD", "-MMD"};
  const char *a = argv[i];
  for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
    if (!strcmp(a, flags[f]))
      return 1;
  if (!strncmp(a, "-fdiagnostics-color=", 20))
    return 1;
  if (!strcmp(a, "-j"))
    return i + 1 < argc ? 2 : 1;
  return !strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9';
}

/* What besides the input's bytes decides the object: the command line as
 * given (relative paths and the input's name, which locations carry, read
 * against the working directory), the PATH that finds cc and ld, and per
 * target what its device entries' keys hold (tools and libraries). */
static char *key_material(struct plan *p) {
  const struct options *o = p->opts;
  char *s = xasprintf("gpucc-direct-1\n");
  char cwd[PATH_MAX];
  add_line(&s, "cwd", getcwd(cwd, sizeof cwd) ? cwd : "?");
  add_line(&s, "PATH", getenv("PATH"));
  for (int i = 1, skip; i < o->argc; i += skip ? skip : 1)
    if (!(skip = silent_option(o->argv, i, o->argc)))
      add_line(&s, "arg", o->argv[i]);
  for (size_t t = 0; t < o->ntargets; t++)
    add_line(&s, "target", plan_target_params(p, t));
  return s;
}

int direct_cache_fetch(struct plan *p) {
  const struct options *o = p->opts;
  p->direct_key[0] = '\0';
  if (!serves(o))
    return 0;
  /* An input that cannot be read is the normal path's to report. */
  const char *in = o->inputs[0].arg;
  struct stat st;
  if (stat(in, &st) != 0 || !S_ISREG(st.st_mode) || access(in, R_OK) != 0)
    return 0;
  void *data;
  size_t size;
  if (tmp_read_file(in, &data, &size) != 0)
    return 0;
  char *material = key_material(p);
  cache_key(data, size, material, p->direct_key);
  free(material);
  free(data);
  const char *tmp = tmp_output_path(o->output);
  if (!tmp || cache_fetch(p->direct_key, CACHE_PART_DIRECT, tmp) != 0)
    return 0;
  plan_defer_commit(p, tmp, o->output);
  p->direct_hit = 1;
  if (o->verbose)
    fprintf(stderr, "gpucc: cache: hit (local): direct: %s\n", o->output);
  return 1;
}

void direct_cache_store(const struct plan *p) {
  if (!p->direct_key[0] || p->direct_hit || diag_said_anything())
    return;
  cache_store(p->direct_key, CACHE_PART_DIRECT, p->opts->output);
}
