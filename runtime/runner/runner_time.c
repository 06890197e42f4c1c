/* runner_time.c: clocks for benchmarks written in MLIR.
 *
 * rtclock and nanoTime read the wall clock (gettimeofday, microseconds; and
 * CLOCK_REALTIME, nanoseconds: what upstream's std::chrono clock reads), so
 * differences between two calls are elapsed times. printFlops reports a
 * rate on stderr as upstream does: "%lf GFLOPS\n" of flops / 1e9. */
#include <errno.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "runner.h"

RT_EXPORT double rtclock(void) {
  struct timeval tv;
  if (gettimeofday(&tv, NULL) != 0) {
    rt_warning("rtclock: gettimeofday failed: %s", strerror(errno));
    return 0.0;
  }
  return (double)tv.tv_sec + (double)tv.tv_usec * 1.0e-6;
}

RT_EXPORT int64_t _mlir_ciface_nanoTime(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
    rt_warning("nanoTime: clock_gettime failed: %s", strerror(errno));
    return 0;
  }
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

RT_EXPORT void printFlops(double flops) {
  fprintf(stderr, "%lf GFLOPS\n", flops / 1.0e9);
}
