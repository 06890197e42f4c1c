/* remote_cache.h: the shared (HTTP) level of the device object cache.
 *
 * A team or a CI farm shares device objects through any HTTP server that
 * answers GET and takes PUT, as ccache's HTTP remote storage does (nginx with
 * WebDAV PUT, bazel-remote, a ccache HTTP backend). GPUCC_REMOTE_CACHE names
 * the base URL; GPUCC_REMOTE_CACHE_READONLY=1 only reads. Only cache.c calls
 * this: the local cache is looked at first and keeps every remote hit.
 *
 * Layout, ccache's "subdirs": the entry named N (a local entry's file name,
 * "<key>.dev" or "<key>.lnk") is at <url>/<first 2 chars of N>/<rest of N>.
 * Each object starts with one line, "gpucc-remote-1 <N> <size> <sha256>\n",
 * followed by the file's bytes, so a truncated, damaged or misplaced object
 * is recognised and ignored.
 *
 * The remote is never needed: a miss is silent, and an unreachable or failing
 * server (2 s to connect, 10 s per request) gives one warning per gpucc run
 * and is not asked again in that run; gpucc compiles instead. */
#ifndef GPUCC_REMOTE_CACHE_H
#define GPUCC_REMOTE_CACHE_H

/* Reads the environment; returns 0 when a remote cache is configured and
 * usable, -1 when there is none (or its URL is unusable: one warning). */
int remote_cache_open(void);

/* The URL GPUCC_REMOTE_CACHE names, without user:password@, or NULL when
 * it is not set; and whether GPUCC_REMOTE_CACHE_READONLY says only read.
 * For --cache-stats: neither opens anything. */
const char *remote_cache_shown_url(void);
int remote_cache_read_only(void);

/* Downloads the entry `name` and writes its bytes to dest (created, or
 * truncated). Returns 0 on a verified hit; -1 on a miss, a corrupt entry or
 * any failure, with dest's content then undefined. */
int remote_cache_get(const char *name, const char *dest);

/* Uploads the file src as the entry `name`, unless read-only or the remote
 * has failed in this run. Failures are the one warning only. */
void remote_cache_put(const char *name, const char *src);

#endif
