/* fake_common.h: what the fake GPU drivers (fake_cuda.c, fake_hip.c) share.
 *
 * A fake driver is a shared library with the vendor's entry points that the
 * runtime dlopen()s instead of the real one (GPUCC_CUDA_LIBRARY,
 * GPUCC_HIP_LIBRARY). It is configured through the environment, appends one
 * line per call to a log file that the tests read back, and can be told to
 * fail a named call. */
#ifndef GPUCC_TEST_FAKE_COMMON_H
#define GPUCC_TEST_FAKE_COMMON_H

#include <stddef.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

/* Appends one line to the file named by the environment variable log_env
 * (nothing if unset). */
void fake_log(const char *log_env, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* True when call is in the comma-separated list in the variable fail_env. */
int fake_should_fail(const char *fail_env, const char *call);
/* Integer value of an environment variable, or dflt. */
long fake_env_long(const char *name, long dflt);
/* String value of an environment variable, or dflt. */
const char *fake_env_str(const char *name, const char *dflt);
/* Up to max bytes of data as text, stopping at a NUL; other unprintable
 * bytes become '.'. */
void fake_printable(const void *data, size_t max, char *out, size_t outlen);

#endif
