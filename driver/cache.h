/* cache.h: the device object cache.
 *
 * Device code is the slow part of a build and depends only on the
 * gpu.module's text, the target, the flags that affect code and the tool
 * versions, so gpucc keeps each (gpu.module, target) result in a cache
 * directory: $GPUCC_CACHE_DIR, else $XDG_CACHE_HOME/gpucc, else
 * ~/.cache/gpucc; off with --no-cache or GPUCC_CACHE_DIR="". A rebuild after
 * a host-only change then compiles no device code. Host objects are kept
 * too (part "host", keyed by the whole program), so an unchanged input
 * costs only its parse. Entries are written to a
 * temp name and renamed, so concurrent gpucc processes never see half an
 * entry; each carries its content's SHA-256, checked whenever it is read:
 * a damaged entry is removed with a warning and compiled again; the cache is kept under $GPUCC_CACHE_SIZE bytes (default 1 GiB) by
 * removing the least recently used entries. GPUCC_REMOTE_CACHE adds a
 * shared HTTP level behind the local one (remote_cache.h). Hits (local or
 * remote) and misses are counted for --cache-stats (cache_stats.h). */
#ifndef GPUCC_CACHE_H
#define GPUCC_CACHE_H

#include <stddef.h>

#define CACHE_KEY_SIZE 65 /* hex SHA-256 and NUL */

/* The cache directory the environment names (not created), or NULL when
 * the cache is off (GPUCC_CACHE_DIR="", or no HOME). */
const char *cache_directory(void);
/* Sets up the cache directory; returns 0 when the cache is usable, -1 when
 * it is off or cannot be created (not an error: gpucc just compiles). The
 * run's hits and misses are added to the statistics (cache_stats.h) when
 * this process exits. */
int cache_open(int enabled);
int cache_enabled(void);

/* Key of one (gpu.module, target) result from everything that affects it. */
/* The hash of the running gpucc executable, hex: part of every key. */
const char *cache_compiler_id(void);

void cache_key(const void *module_text, size_t text_size, const char *params,
               char key[CACHE_KEY_SIZE]);

/* The part of a direct entry (direct_cache.h): local only, and its store
 * is no miss. */
#define CACHE_PART_DIRECT "obj"

/* Copies the entry's file `part` ("dev", "lnk", "host" or "obj") to dest. Returns 0 on a
 * hit, -1 on a miss (silent) or a damaged entry (removed, with a warning). */
int cache_fetch(const char *key, const char *part, const char *dest);
/* True when the entry has that part, verified: locally, or fetched into
 * the local cache from the remote one now. A damaged local entry is
 * removed, with a warning, and is a miss. */
int cache_has(const char *key, const char *part);
/* Stores the file src as the entry's part, locally and (unless read-only)
 * remotely. Failures are warnings only. */
void cache_store(const char *key, const char *part, const char *src);
/* True when this run took the entry's part from the remote cache (into the
 * local one): its hits are remote hits. */
int cache_from_remote(const char *key, const char *part);
/* Removes least recently used entries beyond the size limit. */
void cache_trim(void);
/* $GPUCC_CACHE_SIZE, else 1 GiB. */
unsigned long long cache_size_limit(void);

/* What the cache holds: entries (a device file with its finished object,
 * or a host object), files, and their bytes on disk. */
struct cache_usage {
  unsigned long long entries, files, bytes;
};
void cache_usage(struct cache_usage *u);
/* Removes every entry (--cache-clear), saying what went in *removed; the
 * statistics stay. Returns -1 when some entry could not be removed. */
int cache_clear(struct cache_usage *removed);

#endif
