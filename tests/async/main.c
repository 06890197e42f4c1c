/* main.c: the async runtime's test scenarios, run by tests/runtime's
 * harness: CTest runs `async_test NAME`, the harness runs the scenario in a
 * child and checks its exit status and stderr against the row below. */
#include "async_test.h"

static const struct rt_test tests[] = {
    {.name = "refcount", .run = test_refcount},
    {.name = "token", .run = test_token},
    {.name = "token_error", .run = test_token_error},
    {.name = "value", .run = test_value},
    {.name = "group", .run = test_group},
    {.name = "execute", .run = test_execute},
    {.name = "await_execute_threads", .run = test_await_execute_threads},
    {.name = "stress", .run = test_stress},
    {.name = "blocking_in_worker", .run = test_blocking_in_worker},
    {.name = "nesting", .run = test_nesting},
    {.name = "exit_drain", .run = test_exit_drain,
     .stderr_has = {"tasks finished at exit: 20 of 20"}},
    {.name = "exit_from_worker", .run = test_exit_from_worker, .status = 7},
    {.name = "drop_too_many", .run = test_drop_too_many, .status = 134,
     .stderr_has = {"gpucc: runtime error: mlirAsyncRuntimeDropRef: 3 references of token",
                    "dropped, it had 2 (misuse of the async runtime ABI)"}},
    {.name = "emplace_twice", .run = test_emplace_twice, .status = 134,
     .stderr_has = {"mlirAsyncRuntimeEmplaceToken: token", "is available already"}},
    {.name = "group_overflow", .run = test_group_overflow, .status = 134,
     .stderr_has = {"mlirAsyncRuntimeAddTokenToGroup: more than 1 tokens added to group"}},
    {.name = "not_a_token", .run = test_not_a_token, .status = 134,
     .stderr_has = {"mlirAsyncRuntimeAwaitToken:", "is not a token"}},
    {.name = "threads_env_bad", .run = test_threads_env_bad,
     .stderr_has = {"gpucc: runtime warning: GPUCC_ASYNC_THREADS='lots' is not a number"}},
    {.name = "thread_id", .run = test_thread_id},
};

int main(int argc, char **argv) {
  main_thread = pthread_self();
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
