/* fail.c: how the async runtime gives up.
 *
 * The ABI returns no errors: a function that cannot do its work has no way
 * to tell the generated code, which would go on with a NULL token or a
 * token in the wrong state and crash somewhere less clear. So a misuse of
 * the ABI (a reference dropped twice, a token emplaced twice: a bug in the
 * caller) prints what happened and aborts, leaving a core to look at; running
 * out of memory or threads is a runtime error like the mgpu* ones (rt_error:
 * the handler, or exit status 1), and aborts if a handler returns. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "async.h"
#include "rt.h"

_Noreturn void async_bug(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "gpucc: runtime error: %s (misuse of the async runtime ABI)\n", msg);
  abort();
}

_Noreturn void async_out_of_memory(const char *fn) {
  async_pool_abandon();
  rt_error("%s: out of memory", fn);
  abort();
}

void *async_alloc(size_t size, const char *fn) {
  void *p = malloc(size);
  if (!p)
    async_out_of_memory(fn);
  return p;
}
