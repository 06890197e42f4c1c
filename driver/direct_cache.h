/* direct_cache.h: a -c build served whole from the cache, without parsing
 * its input (ccache's "direct mode").
 *
 * The device and host entries (cache.h) are keyed by what the parsed and
 * normalized program holds, so even a build they serve entirely pays for
 * MLIR's start, the parse, the normalization and the bundling. A direct
 * entry maps the command itself to its finished object: the key hashes the
 * input file's bytes, the whole command line (after response files), the
 * working directory, PATH, and per target what shapes its objects (the
 * same parameters the device entries use, tools and libraries included).
 * Only a build that said nothing is stored: a hit replays no warning.
 * Direct entries stay local (the working directory is in their key), are
 * verified like every entry, and are off with GPUCC_CACHE_DIRECT=0. */
#ifndef GPUCC_DIRECT_CACHE_H
#define GPUCC_DIRECT_CACHE_H

struct plan;

/* After plan_toolchain: when this command can be served whole, computes
 * its key into the plan and, on a hit, records the object as an output
 * (plan_defer_commit) and returns 1. Returns 0 otherwise: a miss, a
 * command it does not serve, or no cache. */
int direct_cache_fetch(struct plan *p);
/* After the outputs are in place: stores the object under the key
 * direct_cache_fetch computed, when the run said nothing. */
void direct_cache_store(const struct plan *p);

#endif
