/* run.c: printing (-###) and running the job list; see job.h.
 * With -v every job is shown before it runs and its wall time after. */
#include "job.h"

#include "cache.h"
#include "diag.h"
#include "fatbin.h"
#include "frontend.h"
#include "proc.h"
#include "tmp.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* In-process jobs print as shell comments so -### output stays valid shell. */
static void print_job(FILE *out, const struct plan *p, const struct job *j) {
  const struct options *o = p->opts;
  const struct unit *u = j->unit;
  switch (j->kind) {
  case JOB_TOOL:
    spawn_print(out, j->argv);
    return;
  case JOB_DEVICE:
    fprintf(out, "# gpucc: lower %s for %s ->", u->input, o->targets[j->target].id);
    for (size_t m = 0; m < u->nmodules; m++)
      fprintf(out, " %s", u->device_paths[m * o->ntargets + j->target]);
    fputc('\n', out);
    return;
  case JOB_BUNDLE:
    fprintf(out, "# gpucc: bundle @%s ->  %s\n", u->module_names[j->module], u->blob_paths[j->module]);
    return;
  case JOB_HOST:
    fprintf(out, "# gpucc: host code %s -> %s\n", u->input, u->obj_path);
    return;
  case JOB_FETCH:
    fprintf(out, "# gpucc: cache hit for %s, %s\n", u->input, o->targets[j->target].id);
    return;
  }
}

void plan_print(const struct plan *p) {
  for (size_t i = 0; i < p->njobs; i++)
    print_job(stdout, p, &p->jobs[i]);
  if (p->link_argv)
    spawn_print(stdout, p->link_argv);
}

static enum fatbin_vendor vendor_of(const struct target *t) {
  return t->info->vendor == TARGET_NVIDIA ? FATBIN_VENDOR_NVIDIA
         : t->info->vendor == TARGET_AMD  ? FATBIN_VENDOR_AMD
                                          : FATBIN_VENDOR_HOST;
}

static int run_bundle(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  size_t cap = o->ntargets * 2, n = 0;
  struct fatbin_entry *e = calloc(cap + 1, sizeof *e);
  void **bufs = calloc(cap + 1, sizeof *bufs);
  if (!e || !bufs)
    BUG("out of memory");
  int rc = -1;
  for (size_t t = 0; t < o->ntargets; t++) {
    const struct target *tg = &o->targets[t];
    size_t cell = j->module * o->ntargets + t;
    const char *linked = u->linked_paths[cell];
    if (tg->info->vendor == TARGET_HOST) {
      if (tmp_read_file(linked, &bufs[n], &e[n].size) != 0)
        goto out;
      e[n] = (struct fatbin_entry){u->module_names[j->module], FATBIN_VENDOR_HOST, tg->id,
                                   FATBIN_FORMAT_SO, bufs[n], e[n].size};
      n++;
      continue;
    }
    const char *cubin = linked;
    if (cubin) {
      if (tmp_read_file(cubin, &bufs[n], &e[n].size) != 0)
        goto out;
      e[n] = (struct fatbin_entry){u->module_names[j->module], FATBIN_VENDOR_NVIDIA, tg->id,
                                   FATBIN_FORMAT_CUBIN, bufs[n], e[n].size};
      n++;
    }
    if (tmp_read_file(u->device_paths[cell], &bufs[n], &e[n].size) != 0)
      goto out;
    int is_ptx = tg->info->vendor == TARGET_NVIDIA;
    /* PTX goes in with its NUL: the driver's JIT wants a C string, and
     * tmp_read_file leaves one after the data. */
    e[n] = (struct fatbin_entry){u->module_names[j->module], vendor_of(tg), tg->id,
                                 is_ptx ? FATBIN_FORMAT_PTX : FATBIN_FORMAT_HSACO, bufs[n],
                                 e[n].size + (is_ptx ? 1 : 0)};
    n++;
  }
  /* What was compiled (not fetched) goes into the cache. */
  for (size_t t = 0; t < o->ntargets && cache_enabled(); t++) {
    size_t cell = j->module * o->ntargets + t;
    if (u->cached[t])
      continue;
    cache_store(u->keys[cell], "dev", u->device_paths[cell]);
    if (u->linked_paths[cell])
      cache_store(u->keys[cell], "lnk", u->linked_paths[cell]);
  }
  void *blob;
  size_t size;
  char err[256];
  if (fatbin_write(e, n, &blob, &size, err, sizeof err) != 0) {
    diag_error("cannot write the fat binary for @%s: %s", u->module_names[j->module], err);
    goto out;
  }
  rc = tmp_write_file(u->blob_paths[j->module], blob, size);
  free(blob);
out:
  for (size_t i = 0; i < n + 1 && i < cap + 1; i++)
    free(bufs[i]);
  free(bufs);
  free(e);
  return rc;
}

static int run_host(struct plan *p, struct job *j) {
  struct unit *u = j->unit;
  void **blobs = calloc(u->nmodules + 1, sizeof *blobs);
  size_t *sizes = calloc(u->nmodules + 1, sizeof *sizes);
  if (!blobs || !sizes)
    BUG("out of memory");
  int rc = 0;
  for (size_t m = 0; m < u->nmodules && rc == 0; m++)
    rc = tmp_read_file(u->blob_paths[m], &blobs[m], &sizes[m]);
  if (rc == 0)
    rc = lowering_embed(u->module, (const void *const *)blobs, sizes);
  for (size_t m = 0; m < u->nmodules; m++)
    free(blobs[m]);
  free(blobs);
  free(sizes);
  if (rc == 0) {
    int needs = u->host.needs_runner_utils;
    const struct options *o = p->opts;
    rc = lowering_host(u->module, o->opt_level, o->debug_info, u->obj_path, u->host_mlir_path,
                       u->host_ll_path, &u->host);
    u->host.needs_runner_utils |= needs;
  }
  if (rc == 0 && u->obj_final)
    rc = tmp_commit(u->obj_path, u->obj_final);
  return rc;
}

static int run_fetch(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  struct unit *u = j->unit;
  for (size_t m = 0; m < u->nmodules; m++) {
    size_t cell = m * o->ntargets + j->target;
    if (cache_fetch(u->keys[cell], "dev", u->device_paths[cell]) != 0 ||
        (u->linked_paths[cell] && cache_fetch(u->keys[cell], "lnk", u->linked_paths[cell]) != 0))
      return diag_error("cache entry for @%s, %s vanished while in use; run again",
                        u->module_names[m], o->targets[j->target].id);
  }
  return 0;
}

static int run_job(struct plan *p, struct job *j) {
  const struct options *o = p->opts;
  switch (j->kind) {
  case JOB_FETCH:
    return run_fetch(p, j);
  case JOB_TOOL:
    return spawn_run(j->argv, NULL, j->what);
  case JOB_DEVICE: {
    const struct unit *u = j->unit;
    const char **paths = calloc(u->nmodules + 1, sizeof *paths);
    if (!paths)
      BUG("out of memory");
    for (size_t m = 0; m < u->nmodules; m++)
      paths[m] = u->device_paths[m * o->ntargets + j->target];
    int rc = lowering_device(u->module, &o->targets[j->target], &p->tc, o->opt_level,
                             o->debug_info, paths);
    free(paths);
    return rc;
  }
  case JOB_BUNDLE:
    return run_bundle(p, j);
  case JOB_HOST:
    return run_host(p, j);
  }
  return -1;
}

static int ready(const struct plan *p, const struct job *j) {
  for (size_t k = 0; k < j->ndeps; k++)
    if (p->jobs[j->deps[k]].state != JOB_DONE)
      return 0;
  return 1;
}

/* Starts job j without waiting: device jobs in a forked child (which has
 * the parsed module already), tools with posix_spawn. */
static int start_job(struct plan *p, struct job *j) {
  if (j->kind == JOB_TOOL)
    return spawn_start(j->argv, NULL, j->what, &j->pid);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    return diag_error("cannot fork for %s: %s", j->what, strerror(errno));
  if (pid == 0) {
    /* The child never returns into the driver and never runs atexit
     * handlers: the temp registry belongs to the parent. */
    int rc = run_job(p, j);
    fflush(NULL);
    _exit(rc == 0 ? 0 : 1);
  }
  spawn_track(pid);
  j->pid = pid;
  return 0;
}

static void kill_running(struct plan *p) {
  for (size_t i = 0; i < p->njobs; i++)
    if (p->jobs[i].state == JOB_RUNNING && p->jobs[i].pid > 0)
      kill(p->jobs[i].pid, SIGTERM);
  for (size_t i = 0; i < p->njobs; i++) {
    struct job *j = &p->jobs[i];
    if (j->state != JOB_RUNNING || j->pid <= 0)
      continue;
    int status;
    while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
      ;
    spawn_untrack(j->pid);
    j->state = JOB_DONE;
  }
}

static int job_limit(const struct options *o) {
  if (o->jobs > 0)
    return o->jobs;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

int plan_run(struct plan *p) {
  int verbose = p->opts->verbose;
  int limit = job_limit(p->opts);
  double total = now();
  size_t done = 0;
  int running = 0;
  while (done < p->njobs) {
    int progress = 0;
    for (size_t i = 0; i < p->njobs; i++) {
      struct job *j = &p->jobs[i];
      if (j->state != JOB_PENDING || !ready(p, j))
        continue;
      int in_parent = j->kind == JOB_BUNDLE || j->kind == JOB_HOST || j->kind == JOB_FETCH;
      if (!in_parent && running >= limit)
        continue;
      if (verbose)
        print_job(stderr, p, j);
      j->started = now();
      progress = 1;
      if (in_parent) {
        /* Bundles and host code are short and need the parent's state. */
        if (run_job(p, j) != 0) {
          kill_running(p);
          return -1;
        }
        j->state = JOB_DONE;
        done++;
        if (verbose)
          fprintf(stderr, "gpucc: %.3f s  %s\n", now() - j->started, j->what);
        continue;
      }
      if (start_job(p, j) != 0) {
        kill_running(p);
        return -1;
      }
      j->state = JOB_RUNNING;
      running++;
    }
    if (done == p->njobs)
      break;
    if (running == 0) {
      if (!progress)
        BUG("job graph has a cycle");
      continue;
    }
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      BUG("waitpid failed with jobs running");
    }
    spawn_untrack(pid);
    struct job *j = NULL;
    for (size_t i = 0; i < p->njobs && !j; i++)
      if (p->jobs[i].state == JOB_RUNNING && p->jobs[i].pid == pid)
        j = &p->jobs[i];
    if (!j)
      continue; /* not ours (a probe reaped elsewhere) */
    running--;
    j->state = JOB_DONE;
    done++;
    int ok = j->kind == JOB_TOOL ? spawn_check_status(status, j->argv[0], j->what) == 0
                                 : WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
      if (j->kind != JOB_TOOL && WIFSIGNALED(status))
        diag_error("%s: killed by signal %d", j->what, WTERMSIG(status));
      else if (j->kind != JOB_TOOL && diag_error_count() == 0)
        diag_error("%s failed", j->what); /* the child reported the details */
      kill_running(p);
      return -1;
    }
    if (verbose)
      fprintf(stderr, "gpucc: %.3f s  %s\n", now() - j->started, j->what);
  }
  if (p->link_argv) {
    if (verbose)
      spawn_print(stderr, p->link_argv);
    double t0 = now();
    if (spawn_run(p->link_argv, NULL, "link") != 0)
      return -1;
    if (tmp_commit(p->link_tmp, p->opts->output ? p->opts->output : "a.out") != 0)
      return -1;
    if (verbose)
      fprintf(stderr, "gpucc: %.3f s  link\n", now() - t0);
  }
  cache_trim();
  if (verbose)
    fprintf(stderr, "gpucc: %.3f s  total (after parsing)\n", now() - total);
  return 0;
}
