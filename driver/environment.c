/* environment.c: the environment variables, one line each; see
 * environment.h. Grouped: the compiler, then the programs it builds; the
 * kinds of target add their own where the entry without a name is. */
#include "environment.h"

const struct environment_variable environment_variables[] = {
    /* gpucc */
    {"GPUCC_CACHE_DIR", "the device object cache's directory (default $XDG_CACHE_HOME/gpucc, else "
                        "~/.cache/gpucc); empty: no cache"},
    {"XDG_CACHE_HOME", "where the cache goes when GPUCC_CACHE_DIR is not set"},
    {"HOME", "where the cache goes when neither GPUCC_CACHE_DIR nor XDG_CACHE_HOME is set"},
    {"GPUCC_CACHE_SIZE", "the cache's size limit in bytes (default 1 GiB): least recently used "
                         "entries go beyond it"},
    {"GPUCC_CACHE_DIRECT", "0: always parse the input (the direct cache, which serves a repeated -c "
                           "command its object without parsing, is off; device and host entries "
                           "still serve)"},
    {"GPUCC_REMOTE_CACHE", "base URL (http:// or https://) of a shared cache behind the local one: "
                           "an HTTP server that answers GET and takes PUT"},
    {"GPUCC_REMOTE_CACHE_READONLY", "1: only read from the remote cache, never store in it"},
    {"GPUCC_CURL_LIBRARY", "the libcurl that the remote cache loads (default libcurl.so.4)"},
    {"PATH", "where cc, the C compiler and linker gpucc runs, is found"},
    {"TMPDIR", "where temporary files go (default /tmp)"},
    {"MAKEFLAGS", "a --jobserver-auth in it makes gpucc take a token from make's jobserver for "
                  "each job beyond its first"},
    {"NO_COLOR", "set and not empty: no color in diagnostics unless -fdiagnostics-color asks for it"},
    {"TERM", "\"dumb\": no color in diagnostics and no progress line"},
    /* the programs gpucc builds (libgpucc_rt); GPUCC_BACKEND's line names
     * the kinds' backends (options.c) */
    {"GPUCC_BACKEND", NULL},
    {"GPUCC_DEVICE", "the device number to use (default 0)"},
    {"GPUCC_LOG", "1: log the runtime's choices (backend, device, object picked) to stderr"},
    {"GPUCC_HOST_THREADS", "threads that run kernels on the host backend (default: one per core)"},
    {"GPUCC_ASYNC_THREADS", "threads of the async runtime's pool (default: one per core)"},
    /* here the kinds' own: their tools', native probes', runtime backends'
     * and sparse libraries' (struct target_kind's environment) */
    {NULL, NULL},
    /* gpucc's own tests */
    {"GPUCC_TEST_CRASH", "for gpucc's tests: plant a fault (parse, bytecode, device, device-trap, device-warning, device-sleep, host, fatbin-damage)"},
    {"GPUCC_TEST_JOB_LOG", "for gpucc's tests: a file where each job records when it ran"},
};

const size_t environment_variable_count = sizeof environment_variables / sizeof environment_variables[0];
