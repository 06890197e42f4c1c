/* main.c: gpucc's entry point.
 *
 * Exit status: 0 success, 1 compile or tool failure, 2 usage error, 70
 * internal error (a crash, reported by crash.c), 130 interrupted
 * (interrupt.c). Everything runs on a thread with a large stack (stack.h):
 * deeply nested input must not overflow MLIR's recursive parser. */
#include "cache.h"
#include "cache_stats.h"
#include "cc1.h"
#include "crash.h"
#include "direct_cache.h"
#include "diag.h"
#include "interrupt.h"
#include "jobserver.h"
#include "program.h"
#include "job.h"
#include "lowering.h"
#include "options.h"
#include "progress.h"
#include "queries.h"
#include "response_file.h"
#include "stack.h"
#include "time_report.h"
#include "tmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GPUCC_VERSION
#define GPUCC_VERSION "0.0.0"
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct args {
  int argc;
  char **argv;
};

static int gpucc_main(void *p) {
  int argc = ((struct args *)p)->argc;
  char **argv = ((struct args *)p)->argv;
  crash_init(argc, argv); /* here: the alternate signal stack is per thread */
  /* One job of a plan, as -### prints it (not in --help). */
  if (argc >= 2 && !strcmp(argv[1], "-cc1"))
    return cc1_main(argc, argv);
  struct options o;
  if (response_files_expand(argc, argv, &argc, &argv) != 0 || options_parse(argc, argv, &o) != 0)
    return 2;
  if (o.print_help) {
    options_print_help("gpucc");
    return 0;
  }
  if (o.print_man) {
    options_print_man();
    return 0;
  }
  if (o.print_version == 2) {
    printf("%s\n", GPUCC_VERSION);
    return 0;
  }
  if (o.print_version) {
    printf("gpucc %s (MLIR/LLVM %s)\n", GPUCC_VERSION, GPUCC_LLVM_VERSION);
    /* What names this binary in cache keys: builds share cache entries
     * (local or remote) exactly when this line is the same. */
    if (o.verbose)
      printf("build %s\n", cache_compiler_id());
    return 0;
  }
  if (o.list_gpu_arch) {
    query_list_gpu_arch();
    return 0;
  }
  if (o.print_file_name) {
    query_print_file_name(o.print_file_name);
    return 0;
  }
  if (o.cache_clear || o.cache_zero_stats || o.cache_stats)
    return cache_stats_command(o.cache_clear, o.cache_zero_stats, o.cache_stats);
  diag_set_caret(!o.no_caret);
  if (o.ninputs == 0) {
    diag_error("no input files");
    return 2;
  }
  if (options_check(&o) != 0)
    return 2;
  if (o.ntargets == 0) {
    char list[256];
    snprintf(list, sizeof list, "%s", target_default_list);
    for (char *save, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      o.targets = realloc(o.targets, (o.ntargets + 1) * sizeof *o.targets);
      if (!o.targets || target_parse(tok, &o.targets[o.ntargets++]) != 0)
        BUG("bad default target list");
    }
  }
  /* --entry-point-result alone is about main, as mlir-runner's default -e. */
  struct program_options po = {o.runtime_verification, o.entry ? o.entry : o.entry_result ? "main" : NULL,
                               o.entry_result, 0};
  for (size_t t = 0; t < o.ntargets; t++)
    po.gpu_targets |= o.targets[t].info->kind->fatbin_vendor != FATBIN_VENDOR_HOST;
  program_configure(&po);
  diag_set_werror(o.werror);
  lowering_set_verbose(o.verbose);
  diag_set_color(o.color == COLOR_ALWAYS ? 1 : o.color == COLOR_NEVER ? 0 : -1);
  tmp_set_keep(o.save_temps);
  progress_init(!o.verbose);
  time_report_init(o.time_report && !o.dry_run);

  double t0 = now(), cpu0 = time_report_cpu_self();
  struct plan plan;
  int rc = plan_build(&plan, &o);
  if (o.verbose)
    fprintf(stderr, "gpucc: %.3f s  %s\n", now() - t0,
            plan.direct_hit ? "direct cache hit" : "parse, verify and normalize inputs");
  time_report_add(plan.direct_hit ? "direct cache hit" : "parse, verify and normalize", NULL,
                  now() - t0, time_report_cpu_self() - cpu0);
  if (interrupt_pending())
    interrupt_exit();
  crash_set_stage("running jobs", o.output ? o.output : "the command line");
  if (rc == 0 && diag_error_count() == 0) {
    if (o.syntax_only)
      ; /* the inputs parsed, verified and passed the target check */
    else if (o.dry_run)
      plan_print(&plan);
    else if ((rc = plan_run(&plan)) == 0)
      rc = plan_finish(&plan);
    /* gcc keeps the intermediates of a failed compilation too. */
    if (o.save_temps_to && !o.syntax_only && !o.dry_run && plan_save_temps(&plan) != 0)
      rc = -1;
    /* Outputs only now, when nothing failed: a warning that -Werror makes
     * an error may come after the output is made (a remote cache refusing
     * the objects), and a non-zero exit never leaves one. */
    if (rc == 0 && diag_error_count() == 0 && !interrupt_pending() &&
        (rc = plan_commit(&plan)) == 0)
      direct_cache_store(&plan);
  }
  time_report_print();
  if (interrupt_pending())
    interrupt_exit();
  if (crash_happened())
    return CRASH_EXIT;
  if (diag_error_count() > 0)
    rc = -1;
  if (o.save_temps && !o.dry_run)
    fprintf(stderr, "gpucc: intermediate files kept in '%s'\n", tmp_path_dir());
  /* Exit without tearing MLIR down: the process ends anyway, and atexit
   * removes temp files. */
  return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  /* First: make's jobserver descriptors must be looked at before anything
   * opens a file that could take their numbers. */
  jobserver_init();
  diag_set_program("gpucc");
  tmp_init();
  struct args a = {argc, argv};
  return stack_run(STACK_SIZE, gpucc_main, &a);
}
