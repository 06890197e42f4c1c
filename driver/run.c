/* run.c: printing (-###) and running the job list; see job.h. What differs
 * between kinds of job is in their rows (job_kinds); this loop names none.
 * With -v every job is shown before it runs and its wall time after;
 * without it, on a terminal, one status line shows how far the run is
 * (progress.h). Each child job's output is captured and printed whole when
 * it ends; under make's jobserver each job beside the first holds a token
 * (jobserver.h). */
#include "job.h"

#include "cache.h"
#include "crash.h"
#include "diag.h"
#include "interrupt.h"
#include "jobserver.h"
#include "program.h"
#include "proc.h"
#include "progress.h"
#include "time_report.h"
#include "tmp.h"
#include "xstr.h"

#include <fcntl.h>
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

/* What j's kind says of it. */
static void about(const struct plan *p, const struct job *j, struct job_about *a) {
  memset(a, 0, sizeof *a);
  j->kind->about(p, j, a);
  if (!a->label[0])
    snprintf(a->label, sizeof a->label, "%s", j->what);
}

/* -v: where a job's objects come from, "cache: hit (local)", "cache: hit
 * (remote)" (taken from the remote cache into the local one by this run)
 * or "cache: miss" (compiled), for device and host code. */
static void print_cache_use(const struct plan *p, const struct job *j) {
  struct job_about a;
  if (!cache_enabled() || !j->unit)
    return;
  about(p, j, &a);
  if (a.cache_use)
    fprintf(stderr, "gpucc: cache: %s: %s\n", a.cache_use, j->what);
}

/* Each job as one line of shell: tools as their command, in-process jobs as
 * the `gpucc -cc1` command that runs them alone. */
void plan_print(const struct plan *p) {
  /* Their files are in the session's temp directory, which goes when gpucc
   * exits: the script makes it again. */
  if (p->njobs && strcmp(tmp_path_dir(), "(none)") != 0) {
    char *mkdir[] = {"mkdir", "-p", (char *)tmp_path_dir(), NULL};
    spawn_print(stdout, mkdir);
  }
  for (size_t i = 0; i < p->njobs; i++)
    p->jobs[i].kind->describe(stdout, p, &p->jobs[i]);
  plan_print_outputs(stdout, p);
}

static void set_crash_stage(const struct plan *p, const struct job *j) {
  struct job_about a;
  about(p, j, &a);
  crash_set_stage(a.doing, a.subject);
}

/* The crashed job alone, as its -cc1 line (what -### prints), for the
 * reproducer: its temp directory made afresh and its input, the
 * normalized module, copied there from the .mlir beside the script. NULL
 * when the temp directory's name would need quotes in the line (the
 * whole command reproduces it then). */
static char *job_script(const struct plan *p, const struct job *j) {
  const char *dir = tmp_path_dir(), *in = j->unit->normalized_path;
  size_t dlen = strlen(dir);
  if (!in || strncmp(in, dir, dlen) != 0 || in[dlen] != '/' ||
      strspn(dir, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") != dlen)
    return NULL;
  char *line = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&line, &size);
  if (!f)
    return NULL;
  j->kind->describe(f, p, j);
  if (fclose(f) != 0) {
    free(line);
    return NULL;
  }
  char *local = xreplace(line, dir, "\"$d\"");
  free(line);
  char *script = xasprintf("#!/bin/sh\n# gpucc crash reproducer: the job that crashed, alone, as `gpucc -cc1`\n"
                           "# runs it, on the module in the .mlir file beside this script.\n"
                           "d=$(mktemp -d) || exit 1\ntrap 'rm -rf \"$d\"' EXIT\n"
                           "cp \"${0%%.sh}.mlir\" \"$d\"/%s || exit 1\n%s",
                           in + dlen + 1, local);
  free(local);
  return script;
}

/* A device or host job's child crashed: the reproducer is the normalized
 * module it started from, which the parent still holds, and the job's own
 * command. */
static void report_crash(const struct plan *p, const struct job *j, int status) {
  struct job_about a;
  about(p, j, &a);
  size_t len;
  char *text = program_text(j->unit->prog, &len);
  char *script = job_script(p, j);
  crash_report_job(status, a.doing, a.subject, j->unit->input, text, len, script);
  free(script);
  free(text);
}

static int ready(const struct plan *p, const struct job *j) {
  for (size_t k = 0; k < j->ndeps; k++)
    if (p->jobs[j->deps[k]].state != JOB_DONE)
      return 0;
  return 1;
}

struct child_job {
  struct plan *p;
  struct job *j;
};

/* In the child, which never returns into the driver and never runs atexit
 * handlers (the temp registry belongs to the parent). Exit status 1: failed
 * and said why; 2: failed silently (the parent says so). A warning made an
 * error by -Werror fails the job too, although its work is done. */
static int child_body(void *arg) {
  struct child_job *c = arg;
  set_crash_stage(c->p, c->j);
  int errors = diag_error_count();
  job_planted_faults(c->j);
  int rc = c->j->kind->run(c->p, c->j);
  if (rc == 0 && diag_error_count() > errors)
    return 1;
  return rc == 0 ? 0 : diag_error_count() > errors ? 1 : 2;
}

/* The files running jobs write their output into: one per job running at
 * once, reused (a build of thousands of jobs registers -j of them). */
struct capture_pool {
  const char **paths; /* [slot] */
  int *busy;          /* [slot]: the job index + 1 using it, or 0 */
  int n;
};

static const char *capture_take(struct capture_pool *cp, size_t job) {
  int slot = 0;
  while (slot < cp->n && cp->busy[slot])
    slot++;
  if (slot == cp->n) {
    const char **np = realloc(cp->paths, (cp->n + 1) * sizeof *np);
    int *nb = realloc(cp->busy, (cp->n + 1) * sizeof *nb);
    if (!np || !nb)
      BUG("out of memory");
    cp->paths = np;
    cp->busy = nb;
    char name[32];
    snprintf(name, sizeof name, "job-output-%d", cp->n);
    cp->paths[cp->n] = tmp_path(name, ".txt");
    cp->busy[cp->n] = 0;
    if (!cp->paths[cp->n])
      return NULL;
    cp->n++;
  }
  cp->busy[slot] = (int)job + 1;
  return cp->paths[slot];
}

/* Frees job's slot; returns its file (NULL when it had none). */
static const char *capture_give_back(struct capture_pool *cp, size_t job) {
  for (int slot = 0; slot < cp->n; slot++)
    if (cp->busy[slot] == (int)job + 1) {
      cp->busy[slot] = 0;
      return cp->paths[slot];
    }
  return NULL;
}

static void capture_free(struct capture_pool *cp) {
  for (int slot = 0; slot < cp->n; slot++)
    unlink(cp->paths[slot]); /* the directory goes at exit; these already */
  free(cp->paths);
  free(cp->busy);
}

/* A finished job's output, whole, in one piece between the status line's
 * updates (shown again after it unless the run is failing). */
static void print_captured(const char *path, int failing) {
  void *data;
  size_t size;
  if (!path || access(path, F_OK) != 0 || tmp_read_file(path, &data, &size) != 0)
    return;
  if (size) {
    diag_passed_on();
    progress_hide();
    fwrite(data, 1, size, stderr);
    fflush(stderr);
    if (!failing)
      progress_restore();
  }
  free(data);
}

/* A tool that reads standard input ('-' among its arguments: `-x c -`) gets
 * ours; every other job /dev/null, so none reads the terminal. */
static int reads_stdin(const struct job *j) {
  for (size_t i = 0; j->argv && j->argv[i]; i++)
    if (!strcmp(j->argv[i], "-"))
      return 1;
  return 0;
}

/* Starts job j without waiting: device and host code in a forked child
 * (which has the parsed module already), tools with posix_spawn. */
static int start_job(struct plan *p, struct job *j, const char *capture) {
  struct spawn_io io = {capture, !reads_stdin(j)};
  if (j->kind->spawned)
    return spawn_start(j->argv, &io, j->what, &j->pid);
  struct child_job c = {p, j};
  return spawn_fork_io(child_body, &c, &io, j->what, &j->pid);
}

/* Ends every running job with what it started (its process group), and
 * gives make's tokens back. */
static void kill_running(struct plan *p) {
  for (size_t i = 0; i < p->njobs; i++)
    if (p->jobs[i].state == JOB_RUNNING && p->jobs[i].pid > 0)
      kill(-p->jobs[i].pid, SIGTERM);
  for (size_t i = 0; i < p->njobs; i++) {
    struct job *j = &p->jobs[i];
    if (j->state != JOB_RUNNING || j->pid <= 0)
      continue;
    spawn_end(j->pid);
    j->state = JOB_DONE;
  }
  jobserver_release_all();
}

/* -ftime-report's row for a job, when its kind has one: its stage and, for
 * work per target, the target. */
static void job_report(const struct plan *p, const struct job *j, double wall, double cpu) {
  if (!time_report_enabled())
    return;
  struct job_about a;
  about(p, j, &a);
  if (a.row)
    time_report_add(a.row, a.target, wall, cpu);
}

/* What the status line says a job does. */
static void job_label(const struct plan *p, const struct job *j, char *buf, size_t n) {
  struct job_about a;
  about(p, j, &a);
  snprintf(buf, n, "%s", a.label);
}

/* GPUCC_TEST_JOB_LOG=<file> (a test switch, not for users): each job run
 * in a child appends "<start> <end> <pid>", monotonic seconds taken while
 * its jobserver token was held, so that a test can count jobs running at
 * once across several gpucc processes. */
static void log_job(const struct job *j, double end) {
  const char *path = getenv("GPUCC_TEST_JOB_LOG");
  if (!path || !*path)
    return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  char line[96];
  int n = snprintf(line, sizeof line, "%.6f %.6f %ld\n", j->started, end, (long)getpid());
  ssize_t w = write(fd, line, (size_t)n); /* a short line fails the test that reads it */
  (void)w;
  close(fd);
}

/* The way out of a run that failed: running jobs ended, tokens given back,
 * the status line cleared. */
static int run_failed(struct plan *p, struct capture_pool *cp) {
  kill_running(p);
  capture_free(cp);
  progress_end();
  return -1;
}

int plan_run(struct plan *p) {
  int verbose = p->opts->verbose;
  int limit = plan_job_limit(p->opts);
  double total = now();
  double children_cpu = time_report_cpu_children();
  struct capture_pool cp = {0};
  size_t done = 0;
  int running = 0;
  char label[512];
  while (done < p->njobs) {
    int progress = 0, want_token = 0;
    for (size_t i = 0; i < p->njobs; i++) {
      struct job *j = &p->jobs[i];
      if (j->state != JOB_PENDING || !ready(p, j))
        continue;
      int in_parent = j->in_parent;
      if (!in_parent && running >= limit)
        continue;
      /* The first job runs on the slot make gave this gpucc; each one
       * beside it needs a token of make's. */
      if (!in_parent && running > 0 && !jobserver_try_acquire()) {
        want_token = 1;
        continue;
      }
      if (verbose) {
        j->kind->describe(stderr, p, j);
        print_cache_use(p, j);
      }
      j->started = now();
      progress = 1;
      if (in_parent) {
        /* Bundles, cache fetches and packing are short and fill the
         * parent's state (blobs, cache); device and host code run in
         * children (host lowering changes the module it lowers). A
         * warning they give goes below the status line, not after it. */
        set_crash_stage(p, j);
        double cpu = time_report_cpu_self();
        /* Said, then cleared for the warnings it may give. */
        job_label(p, j, label, sizeof label);
        progress_show(done, p->njobs, label);
        progress_hide();
        if (j->kind->run(p, j) != 0)
          return run_failed(p, &cp);
        j->state = JOB_DONE;
        done++;
        job_report(p, j, now() - j->started, time_report_cpu_self() - cpu);
        if (verbose)
          fprintf(stderr, "gpucc: %.3f s  %s\n", now() - j->started, j->what);
        job_label(p, j, label, sizeof label);
        progress_show(done, p->njobs, label);
        continue;
      }
      const char *capture = capture_take(&cp, i);
      if (!capture || start_job(p, j, capture) != 0) {
        if (running > 0)
          jobserver_release(); /* the token taken for it */
        capture_give_back(&cp, i);
        return run_failed(p, &cp);
      }
      j->state = JOB_RUNNING;
      running++;
      job_label(p, j, label, sizeof label);
      progress_show(done, p->njobs, label);
    }
    if (done == p->njobs)
      break;
    if (running == 0) {
      if (!progress)
        BUG("job graph has a cycle");
      continue;
    }
    /* Returns early when SIGINT/SIGTERM/SIGHUP was recorded: the jobs'
     * process groups are ended and the temp files removed here, in normal
     * code, not in the signal handler. With a job waiting for a token of
     * make's, a token given back wakes it too (pid 0). */
    int status;
    pid_t pid = want_token ? jobserver_wait(&status) : interrupt_wait_child(&status);
    if (pid < 0) {
      progress_end();
      interrupt_exit(); /* gives the jobserver tokens back too (last_words.h) */
    }
    if (pid == 0)
      continue;
    spawn_untrack(pid);
    struct job *j = NULL;
    for (size_t i = 0; i < p->njobs && !j; i++)
      if (p->jobs[i].state == JOB_RUNNING && p->jobs[i].pid == pid)
        j = &p->jobs[i];
    if (!j)
      continue; /* not ours (a probe reaped elsewhere) */
    double ended = now(), cpu = time_report_cpu_children();
    log_job(j, ended);
    running--;
    /* One token for each job beside the first: one goes back now. */
    if (jobserver_held() > (running > 0 ? running - 1 : 0))
      jobserver_release();
    j->state = JOB_DONE;
    done++;
    int tool = j->kind->spawned;
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    print_captured(capture_give_back(&cp, (size_t)(j - p->jobs)), !ok);
    job_report(p, j, ended - j->started, cpu - children_cpu);
    children_cpu = cpu;
    if (!ok) {
      progress_hide();
      if (tool)
        spawn_check_status(status, j->argv[0], j->what);
      else if (!tool && crash_is_crash_status(status))
        report_crash(p, j, status);
      else if (!tool && WIFSIGNALED(status))
        diag_error("%s: killed by signal %d", j->what, WTERMSIG(status));
      else if (!tool && !(WIFEXITED(status) && WEXITSTATUS(status) == 1))
        diag_error("%s failed", j->what); /* else the child reported the details */
      return run_failed(p, &cp);
    }
    /* Renamed into place only when the whole run succeeded (main). */
    if (j->commit_from)
      plan_defer_commit(p, j->commit_from, j->commit_to);
    if (j->depfile_from)
      plan_defer_commit(p, j->depfile_from, j->depfile_to);
    if (j->kind->done) {
      progress_hide();
      j->kind->done(p, j);
      progress_restore();
    }
    if (verbose)
      fprintf(stderr, "gpucc: %.3f s  %s\n", now() - j->started, j->what);
    job_label(p, j, label, sizeof label);
    progress_show(done, p->njobs, label);
  }
  capture_free(&cp);
  progress_end();
  cache_trim();
  if (verbose)
    fprintf(stderr, "gpucc: %.3f s  total (after parsing)\n", now() - total);
  return 0;
}
