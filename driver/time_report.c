/* time_report.c: -ftime-report's table; see time_report.h. */
#include "time_report.h"

#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct row {
  char *stage, *target;
  double wall, cpu;
  unsigned jobs;
};

static int enabled;
static double started;
static struct row *rows;
static size_t nrows;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void time_report_init(int on) {
  enabled = on;
  started = now();
}

int time_report_enabled(void) { return enabled; }

static double cpu_of(int who) {
  struct rusage ru;
  if (getrusage(who, &ru) != 0)
    return 0;
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec * 1e-6;
}

double time_report_cpu_self(void) { return cpu_of(RUSAGE_SELF); }
double time_report_cpu_children(void) { return cpu_of(RUSAGE_CHILDREN); }

static int same(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static char *copy(const char *s) {
  if (!s)
    return NULL;
  char *c = strdup(s);
  if (!c)
    BUG("out of memory");
  return c;
}

void time_report_add(const char *stage, const char *target, double wall, double cpu) {
  if (!enabled)
    return;
  struct row *r = NULL;
  for (size_t i = 0; i < nrows && !r; i++)
    if (same(rows[i].stage, stage) && same(rows[i].target, target))
      r = &rows[i];
  if (!r) {
    struct row *n = realloc(rows, (nrows + 1) * sizeof *n);
    if (!n)
      BUG("out of memory");
    rows = n;
    r = &rows[nrows++];
    *r = (struct row){copy(stage), copy(target), 0, 0, 0};
  }
  r->wall += wall;
  r->cpu += cpu < 0 ? 0 : cpu;
  r->jobs++;
}

void time_report_print(void) {
  if (!enabled)
    return;
  /* One write, so that nothing else lands inside the table. */
  size_t cap = 256 + nrows * 160, n = 0;
  char *buf = malloc(cap);
  if (!buf)
    BUG("out of memory");
#define PUT(...) (n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__))
  PUT("gpucc: time report\n  %-40s %9s %9s %5s\n", "stage", "wall (s)", "cpu (s)", "jobs");
  for (size_t i = 0; i < nrows; i++) {
    char name[256];
    snprintf(name, sizeof name, "%s%s%s", rows[i].stage, rows[i].target ? " " : "",
             rows[i].target ? rows[i].target : "");
    PUT("  %-40s %9.3f %9.3f %5u\n", name, rows[i].wall, rows[i].cpu, rows[i].jobs);
  }
  PUT("  %-40s %9.3f %9.3f\n", "total (elapsed; jobs overlap)", now() - started,
      time_report_cpu_self() + time_report_cpu_children());
#undef PUT
  fwrite(buf, 1, n < cap ? n : cap - 1, stderr);
  free(buf);
}
