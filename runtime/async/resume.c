/* resume.c: where a coroutine resumes, here or on the worker pool.
 *
 * mlirAsyncRuntimeExecute always queues: it is how an async.execute body
 * leaves its caller's thread. A coroutine that awaits something available
 * already resumes at once, on the calling thread: it has saved its state
 * before the call (LLVM's coroutines may be resumed before they reach their
 * suspend point), so its continuation simply runs nested inside the call.
 * Each such resumption adds frames to the stack, and a coroutine that keeps
 * finding what it awaits ready would grow it without bound: past
 * ASYNC_MAX_NESTING nested resumptions on one thread, the next one is queued
 * instead, and runs from the bottom of a worker's stack. */
#include "async.h"
#include "rt.h"

enum { ASYNC_MAX_NESTING = 32 };

static _Thread_local int async_nesting;

static void async_queue(CoroHandle handle, CoroResume resume, const char *fn) {
  struct async_task *t = async_alloc(sizeof *t, fn);
  *t = (struct async_task){.kind = ASYNC_TASK_RESUME, .resume = resume, .handle = handle};
  async_pool_submit(t);
}

void async_resume_here(CoroHandle handle, CoroResume resume, const char *fn) {
  if (async_nesting >= ASYNC_MAX_NESTING) {
    async_queue(handle, resume, fn);
    return;
  }
  async_nesting++;
  resume(handle);
  async_nesting--;
}

RT_EXPORT void mlirAsyncRuntimeExecute(CoroHandle handle, CoroResume resume) {
  async_queue(handle, resume, "mlirAsyncRuntimeExecute");
}
