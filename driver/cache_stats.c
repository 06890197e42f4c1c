/* cache_stats.c: the cache's statistics file: counting a run's events
 * and adding them to the file; see cache_stats.h. The --cache-* commands
 * that read it are cache_commands.c's.
 *
 * The file is text, one "name value" a line, so that a person can read it
 * and a newer gpucc can add lines (unknown ones are kept out, not errors):
 *   since 1764979810
 *   hits_local 120
 *   hits_remote 8
 *   misses 17 */
#include "cache_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static struct cache_counts pending; /* this run's, not yet in the file */

void cache_stats_count(enum cache_event e) {
  switch (e) {
  case CACHE_HIT_LOCAL: pending.hits_local++; break;
  case CACHE_HIT_REMOTE: pending.hits_remote++; break;
  case CACHE_MISS: pending.misses++; break;
  }
}

static void read_counts(const char *path, struct cache_counts *c) {
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
static int write_counts(const char *dir, const char *path, const struct cache_counts *c) {
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
static int update(const char *dir, const struct cache_counts *add, int zero) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/stats", dir);
  int fd = lock_stats(dir);
  if (fd < 0)
    return -1;
  struct cache_counts c;
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

int cache_stats_zero(const char *dir) {
  struct cache_counts none = {0, 0, 0, 0};
  return update(dir, &none, 1);
}

void cache_stats_read(const char *dir, struct cache_counts *c) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/stats", dir);
  read_counts(path, c);
}

void cache_stats_flush(const char *dir) {
  if (!pending.hits_local && !pending.hits_remote && !pending.misses)
    return;
  if (update(dir, &pending, 0) == 0)
    memset(&pending, 0, sizeof pending);
}
