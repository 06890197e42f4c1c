/* cache_commands.c: --cache-clear, --cache-zero-stats and --cache-stats
 * (ccache's -C, -z, -s) over the cache (cache.c) and its statistics file
 * (cache_stats.c); see cache_stats.h. */
#include "cache_stats.h"

#include "cache.h"
#include "diag.h"
#include "remote_cache.h"

#include <limits.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

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
  struct cache_counts c;
  cache_stats_read(dir, &c);
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
    /* No cache directory yet: nothing to zero. */
    if (access(where, F_OK) == 0 && cache_stats_zero(where) != 0) {
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
