/* token.c: async.token, an event without a payload.
 *
 * A token is nothing but the shared object (object.c). It starts with two
 * references because the code that creates it (the ramp of an async.execute)
 * returns it to its caller, who may drop it at once, while the coroutine that
 * is to make it available still needs it: settling it gives that second
 * reference up. */
#include "async.h"
#include "rt.h"

static struct async_object *async_token(AsyncToken *token, const char *fn) {
  return async_object_check(token, ASYNC_TOKEN, fn);
}

RT_EXPORT AsyncToken *mlirAsyncRuntimeCreateToken(void) {
  struct async_token *t = async_alloc(sizeof *t, "mlirAsyncRuntimeCreateToken");
  async_object_init(&t->obj, ASYNC_TOKEN, 2);
  return t;
}

static void async_token_settle(AsyncToken *token, enum async_state state, const char *fn) {
  struct async_object *o = async_token(token, fn);
  async_object_settle(o, state, fn);
  mlirAsyncRuntimeDropRef(o, 1);
}

RT_EXPORT void mlirAsyncRuntimeEmplaceToken(AsyncToken *token) {
  async_token_settle(token, ASYNC_AVAILABLE, "mlirAsyncRuntimeEmplaceToken");
}

RT_EXPORT void mlirAsyncRuntimeSetTokenError(AsyncToken *token) {
  async_token_settle(token, ASYNC_ERROR, "mlirAsyncRuntimeSetTokenError");
}

RT_EXPORT bool mlirAsyncRuntimeIsTokenError(AsyncToken *token) {
  return async_object_state(async_token(token, "mlirAsyncRuntimeIsTokenError")) == ASYNC_ERROR;
}

RT_EXPORT void mlirAsyncRuntimeAwaitToken(AsyncToken *token) {
  async_object_wait(async_token(token, "mlirAsyncRuntimeAwaitToken"));
}

RT_EXPORT void mlirAsyncRuntimeAwaitTokenAndExecute(AsyncToken *token, CoroHandle handle,
                                                    CoroResume resume) {
  static const char fn[] = "mlirAsyncRuntimeAwaitTokenAndExecute";
  async_object_then(async_token(token, fn), handle, resume, fn);
}
