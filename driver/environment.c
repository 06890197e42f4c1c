/* environment.c: the environment variables, one line each; see
 * environment.h. Grouped: the compiler, then the programs it builds. */
#include "environment.h"

const struct environment_variable environment_variables[] = {
    /* gpucc */
    {"GPUCC_CACHE_DIR", "the device object cache's directory (default $XDG_CACHE_HOME/gpucc, else "
                        "~/.cache/gpucc); empty: no cache"},
    {"XDG_CACHE_HOME", "where the cache goes when GPUCC_CACHE_DIR is not set"},
    {"HOME", "where the cache goes when neither GPUCC_CACHE_DIR nor XDG_CACHE_HOME is set"},
    {"GPUCC_CACHE_SIZE", "the cache's size limit in bytes (default 1 GiB): least recently used "
                         "entries go beyond it"},
    {"GPUCC_REMOTE_CACHE", "base URL (http:// or https://) of a shared cache behind the local one: "
                           "an HTTP server that answers GET and takes PUT"},
    {"GPUCC_REMOTE_CACHE_READONLY", "1: only read from the remote cache, never store in it"},
    {"GPUCC_CURL_LIBRARY", "the libcurl that the remote cache loads (default libcurl.so.4)"},
    {"CUDA_PATH", "the CUDA toolkit (ptxas, libdevice) when --cuda-path is not given (default "
                  "/usr/local/cuda)"},
    {"ROCM_PATH", "the ROCm tree (device libraries) when --rocm-path is not given"},
    {"PATH", "where cc, the C compiler and linker gpucc runs, is found"},
    {"TMPDIR", "where temporary files go (default /tmp)"},
    {"MAKEFLAGS", "a --jobserver-auth in it makes gpucc take a token from make's jobserver for "
                  "each job beyond its first"},
    {"NO_COLOR", "set and not empty: no color in diagnostics unless -fdiagnostics-color asks for it"},
    {"TERM", "\"dumb\": no color in diagnostics and no progress line"},
    /* gpucc and the programs it builds */
    {"GPUCC_CUDA_LIBRARY", "the CUDA driver library to load (default libcuda.so.1), for "
                           "--offload-arch=native and the runtime"},
    {"GPUCC_HIP_LIBRARY", "the HIP library to load (default libamdhip64.so), for "
                          "--offload-arch=native and the runtime"},
    /* the programs gpucc builds (libgpucc_rt) */
    {"GPUCC_BACKEND", "run on this backend only: cuda, hip or host (default: the first of them "
                      "that finds a device)"},
    {"GPUCC_DEVICE", "the device number to use (default 0)"},
    {"GPUCC_LOG", "1: log the runtime's choices (backend, device, object picked) to stderr"},
    {"GPUCC_HOST_THREADS", "threads that run kernels on the host backend (default: one per core)"},
    {"GPUCC_ASYNC_THREADS", "threads of the async runtime's pool (default: one per core)"},
    {"GPUCC_CUSPARSE_LIBRARY", "the cuSPARSE library the gpu sparse ops load"},
    {"GPUCC_HIPSPARSE_LIBRARY", "the hipSPARSE library the gpu sparse ops load"},
    {"GPUCC_CUSPARSELT_LIBRARY", "the cuSPARSELt library the 2:4 sparse ops load"},
    /* gpucc's own tests */
    {"GPUCC_TEST_CRASH", "for gpucc's tests: plant a fault (parse, bytecode, device, device-trap, device-warning, device-sleep, host, fatbin-damage)"},
    {"GPUCC_TEST_JOB_LOG", "for gpucc's tests: a file where each job records when it ran"},
};

const size_t environment_variable_count = sizeof environment_variables / sizeof environment_variables[0];
