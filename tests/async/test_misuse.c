/* test_misuse.c: misuse of the ABI, each ending in the runtime's message
 * and abort (main.c lists what the message must say). */
#include "async_test.h"

void test_drop_too_many(void) {
  AsyncToken *t = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeDropRef(t, 3);
}

void test_emplace_twice(void) {
  AsyncToken *t = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeEmplaceToken(t);
  mlirAsyncRuntimeEmplaceToken(t);
}

void test_group_overflow(void) {
  AsyncGroup *g = mlirAsyncRuntimeCreateGroup(1);
  mlirAsyncRuntimeAddTokenToGroup(mlirAsyncRuntimeCreateToken(), g);
  mlirAsyncRuntimeAddTokenToGroup(mlirAsyncRuntimeCreateToken(), g);
}

void test_not_a_token(void) {
  AsyncGroup *g = mlirAsyncRuntimeCreateGroup(0);
  mlirAsyncRuntimeAwaitToken((AsyncToken *)g);
}
