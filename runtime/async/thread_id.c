/* thread_id.c: mlirAsyncRuntimePrintCurrentThreadId, a helper of MLIR's
 * async tests, which print it to show where coroutines run.
 *
 * The id is pthread_self(), printed as an unsigned number: what MLIR's own
 * runtime prints on Linux (std::thread::id is the pthread_t there). One printf
 * and a flush, so that lines from several threads do not mix and come out in
 * the order they were printed when stdout is a pipe. */
#include <pthread.h>
#include <stdio.h>

#include "async.h"
#include "rt.h"

RT_EXPORT void mlirAsyncRuntimePrintCurrentThreadId(void) {
  printf("Current thread id: %lu\n", (unsigned long)pthread_self());
  fflush(stdout);
}
