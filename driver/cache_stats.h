/* cache_stats.h: statistics of the device object cache, as ccache keeps
 * them (its -s, -z): hits, local and remote, and misses, summed over every
 * gpucc run that used the cache directory since the statistics were last
 * zeroed.
 *
 * A hit or a miss is one (gpu.module, target) cell or one host object:
 * served from the cache (hit) or compiled and stored (miss). Counts are
 * kept in memory by the run and added to <cache>/stats when it exits,
 * under a lock (<cache>/stats.lock, flock) through a temp file renamed into
 * place, so that gpucc runs at once lose nothing and a reader never sees
 * half a file. The statistics are never a reason for a build to fail: a
 * stats file that cannot be locked within a second, read or written is left
 * as it is, without a word. */
#ifndef GPUCC_CACHE_STATS_H
#define GPUCC_CACHE_STATS_H

enum cache_event { CACHE_HIT_LOCAL, CACHE_HIT_REMOTE, CACHE_MISS };

/* The statistics file's counts. */
struct cache_counts {
  unsigned long long hits_local, hits_remote, misses;
  long long since; /* when they were last zeroed (seconds since 1970) */
};

/* Counts one event of this run. */
void cache_stats_count(enum cache_event e);
/* Adds what this run counted since the last call to <dir>/stats. */
void cache_stats_flush(const char *dir);

/* Reads <dir>/stats (zeros when there is none or it cannot be read). */
void cache_stats_read(const char *dir, struct cache_counts *c);
/* Zeroes <dir>/stats. Returns 0, or -1 when it cannot be written. */
int cache_stats_zero(const char *dir);

/* cache_commands.c. The command-line actions, done in this order whatever the order given:
 * --cache-clear (remove every entry), --cache-zero-stats, --cache-stats
 * (print the statistics, the entries and their size, on stdout). Returns
 * the exit status: 0, or 1 when the cache could not be cleared or zeroed. */
int cache_stats_command(int clear, int zero, int show);

#endif
