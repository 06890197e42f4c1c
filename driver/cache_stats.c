/* cache_stats.c: the cache's statistics file and the --cache-* commands;
 * see cache_stats.h.
 *
 * The file is text, one "name value" a line, so that a person can read it
 * and a newer gpucc can add lines (unknown ones are kept out, not errors):
 *   since 1764979810
 *   hits_local 120
 *   hits_remote 8
 *   misses 17 */
#include "cache_stats.h"

#include "cache.h"
#include "diag.h"
#include "remote_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

struct counts {
  unsigned long long hits_local, hits_remote, misses;
  long long since; /* when they were last zeroed (seconds since 1970) */
};

static struct counts pending; /* this run's, not yet in the file */

void cache_stats_count(enum cache_event e) {
  switch (e) {
  case CACHE_HIT_LOCAL: pending.hits_local++; break;
  case CACHE_HIT_REMOTE: pending.hits_remote++; break;
  case CACHE_MISS: pending.misses++; break;
  }
}

static void read_counts(const char *path, struct counts *c) {
  memset(c, 0, sizeof *c);
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  char name[64];
  long long v;
  while (fscanf(f, "%63s %lld", name, &v) == 2) {
    if (v < 0)
      continue;
    if (!strcmp(name, "since"))
      c->since = v;
    else if (!strcmp(name, "hits_local"))
      c->hits_local = (unsigned long long)v;
    else if (!strcmp(name, "hits_remote"))
      c->hits_remote = (unsigned long long)v;
    else if (!strcmp(name, "misses"))
      c->misses = (unsigned long long)v;
  }
  fclose(f);
}

/* Through a temp name unique to this process, then renamed. */
static int write_counts(const char *dir, const char *path, const struct counts *c) {
  char tmp[PATH_MAX + 64];
  snprintf(tmp, sizeof tmp, "%s/stats.tmp.%ld", dir, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f)
    return -1;
  fprintf(f, "since %lld\nhits_local %llu\nhits_remote %llu\nmisses %llu\n", c->since,
          c->hits_local, c->hits_remote, c->misses);
  int bad = fflush(f) != 0 || ferror(f);
  if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* The stats lock, held until close; -1 after a second without it (a stuck
 * process must not stop a build: its counts are dropped instead). */
static int lock_stats(const char *dir) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/stats.lock", dir);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return -1;
  for (int tries = 0; tries < 200; tries++) {
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
      return fd;
    if (errno != EWOULDBLOCK && errno != EINTR)
      break;
    nanosleep(&(struct timespec){0, 5000000}, NULL);
  }
  close(fd);
  return -1;
}

/* Under the lock: read, change (add to, or zero), write. */
static int update(const char *dir, const struct counts *add, int zero) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/stats", dir);
  int fd = lock_stats(dir);
  if (fd < 0)
    return -1;
  struct counts c;
  read_counts(path, &c);
  if (zero || !c.since) {
    memset(&c, 0, sizeof c);
    c.since = (long long)time(NULL);
  }
  c.hits_local += add->hits_local;
  c.hits_remote += add->hits_remote;
  c.misses += add->misses;
  int rc = write_counts(dir, path, &c);
  close(fd);
  return rc;
}

void cache_stats_flush(const char *dir) {
  if (!pending.hits_local && !pending.hits_remote && !pending.misses)
    return;
  if (update(dir, &pending, 0) == 0)
    memset(&pending, 0, sizeof pending);
}

/* 1536 -> "1.5 KiB" */
static void human_size(char *out, size_t size, unsigned long long bytes) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024 && u < 4)
    v /= 1024, u++;
  if (u == 0)
    snprintf(out, size, "%llu bytes", bytes);
  else
    snprintf(out, size, "%.1f %s", v, units[u]);
}

static void show(const char *dir) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/stats", dir);
  struct counts c;
  read_counts(path, &c);
  struct cache_usage u;
  cache_usage(&u);
  unsigned long long hits = c.hits_local + c.hits_remote, calls = hits + c.misses;
  char used[64], limit[64];
  human_size(used, sizeof used, u.bytes);
  human_size(limit, sizeof limit, cache_size_limit());
  printf("cache directory: %s\n", dir);
  const char *remote = remote_cache_shown_url();
  printf("remote cache: %s%s\n", remote ? remote : "none",
         remote && remote_cache_read_only() ? " (read-only)" : "");
  if (c.since) {
    char when[64];
    time_t t = (time_t)c.since;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime(&t));
    printf("statistics since: %s\n", when);
  }
  printf("hits: %llu (local %llu, remote %llu)\n", hits, c.hits_local, c.hits_remote);
  printf("misses: %llu\n", c.misses);
  if (calls)
    printf("hit rate: %.1f%%\n", 100.0 * (double)hits / (double)calls);
  printf("entries: %llu (%llu files)\n", u.entries, u.files);
  printf("size on disk: %s (limit %s)\n", used, limit);
}

int cache_stats_command(int clear, int zero, int show_stats) {
  const char *dir = cache_directory();
  if (!dir) {
    printf("cache: off (GPUCC_CACHE_DIR is empty, or there is no HOME)\n");
    return 0;
  }
  char where[PATH_MAX];
  snprintf(where, sizeof where, "%s", dir);
  int rc = 0;
  if (clear) {
    struct cache_usage removed;
    if (cache_clear(&removed) != 0) {
      diag_error("cannot remove every entry of the cache '%s'", where);
      rc = 1;
    }
    char size[64];
    human_size(size, sizeof size, removed.bytes);
    printf("cleared %s: %llu entries (%s) removed\n", where, removed.entries, size);
  }
  if (zero) {
    struct counts none = {0, 0, 0, 0};
    /* No cache directory yet: nothing to zero. */
    if (access(where, F_OK) == 0 && update(where, &none, 1) != 0) {
      diag_error("cannot zero the statistics in '%s'", where);
      rc = 1;
    } else {
      printf("statistics zeroed\n");
    }
  }
  if (show_stats)
    show(where);
  return rc;
}
