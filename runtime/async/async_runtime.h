/* async_runtime.h: the mlirAsyncRuntime* ABI, as libgpucc_rt implements it.
 *
 * MLIR's async lowering (-async-to-async-runtime, then -convert-async-to-llvm,
 * LLVM 22) turns async.execute bodies into LLVM coroutines and their tokens,
 * values and groups into opaque pointers, and emits calls to the functions
 * below. The C signatures match the LLVM IR declarations (i64 -> int64_t,
 * i1 -> bool, index -> int64_t, ptr -> pointer). C code may call them too:
 * the unit tests in tests/async do.
 *
 * Ownership: every object is reference counted and freed when its count
 * drops to zero. A token or a value starts with two references: one for the
 * code that created it and one that its producer gives up when it makes it
 * available (EmplaceX or SetXError drops it). A group starts with one.
 *
 * States: a token or a value is unavailable until its producer calls
 * EmplaceX (available) or SetXError (error), once; it never changes after.
 * A group of size N is available once N tokens were added to it and all of
 * them are available or in error; it is in error as soon as one of them is.
 *
 * Misuse (dropping more references than are held, making an object available
 * twice, adding more tokens to a group than its size) is a bug in the
 * calling code: the runtime prints what happened and aborts. Running out of
 * memory or threads is reported as a runtime error (exit status 1).
 *
 * All functions are thread-safe. See runtime/async/README.md for the worker
 * pool (GPUCC_ASYNC_THREADS) and for where coroutines run. */
#ifndef GPUCC_ASYNC_RUNTIME_H
#define GPUCC_ASYNC_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct async_token AsyncToken;
typedef struct async_value AsyncValue;
typedef struct async_group AsyncGroup;

/* A suspended coroutine and the function that resumes it. */
typedef void *CoroHandle;
typedef void (*CoroResume)(void *);

/* ---- references ---------------------------------------------------------- */

/* Adds or drops count references of a token, value or group; the last drop
 * frees it (a value's storage with it). */
void mlirAsyncRuntimeAddRef(void *object, int64_t count);
void mlirAsyncRuntimeDropRef(void *object, int64_t count);

/* ---- creating ------------------------------------------------------------ */

/* A new unavailable token, two references. */
AsyncToken *mlirAsyncRuntimeCreateToken(void);
/* A new unavailable value with size bytes of storage, zeroed, aligned for any
 * LLVM type of that allocation size (see value.c); two references. */
AsyncValue *mlirAsyncRuntimeCreateValue(int64_t size);
/* A new group that will hold size tokens (0: available at once); one
 * reference. */
AsyncGroup *mlirAsyncRuntimeCreateGroup(int64_t size);
/* Adds a token (or a value) to the group; returns its rank, 0 for the first
 * one added. The group keeps itself alive until the token is ready. */
int64_t mlirAsyncRuntimeAddTokenToGroup(AsyncToken *token, AsyncGroup *group);

/* ---- producing ----------------------------------------------------------- */

/* Make the object available or in error, wake its blocking awaiters, hand
 * its registered coroutines to the worker pool, and drop the producer's
 * reference. */
void mlirAsyncRuntimeEmplaceToken(AsyncToken *token);
void mlirAsyncRuntimeEmplaceValue(AsyncValue *value);
void mlirAsyncRuntimeSetTokenError(AsyncToken *token);
void mlirAsyncRuntimeSetValueError(AsyncValue *value);

/* The value's storage: written by the producer before EmplaceValue, read by
 * consumers after awaiting it. Valid while the value is referenced. */
void *mlirAsyncRuntimeGetValueStorage(AsyncValue *value);

/* ---- consuming ----------------------------------------------------------- */

/* True when the object is in error (a group: when one of its tokens is). */
bool mlirAsyncRuntimeIsTokenError(AsyncToken *token);
bool mlirAsyncRuntimeIsValueError(AsyncValue *value);
bool mlirAsyncRuntimeIsGroupError(AsyncGroup *group);

/* Block the calling thread until the object is available or in error. On a
 * worker thread the pool starts a replacement for the blocked thread, so
 * that the work the await depends on still runs (README.md). */
void mlirAsyncRuntimeAwaitToken(AsyncToken *token);
void mlirAsyncRuntimeAwaitValue(AsyncValue *value);
void mlirAsyncRuntimeAwaitAllInGroup(AsyncGroup *group);

/* Resume the coroutine once the object is available or in error: at once, on
 * the calling thread, if it already is; otherwise on a worker thread after
 * it becomes so. Exactly once either way. */
void mlirAsyncRuntimeAwaitTokenAndExecute(AsyncToken *token, CoroHandle handle,
                                          CoroResume resume);
void mlirAsyncRuntimeAwaitValueAndExecute(AsyncValue *value, CoroHandle handle,
                                          CoroResume resume);
void mlirAsyncRuntimeAwaitAllInGroupAndExecute(AsyncGroup *group, CoroHandle handle,
                                               CoroResume resume);

/* ---- running ------------------------------------------------------------- */

/* Resume the coroutine on a worker thread (never on the calling one, unless
 * the pool has already shut down at exit). */
void mlirAsyncRuntimeExecute(CoroHandle handle, CoroResume resume);

/* The size of the worker pool (GPUCC_ASYNC_THREADS, default one per online
 * CPU). The misspelling is MLIR's: it is the name the lowering calls. */
int64_t mlirAsyncRuntimGetNumWorkerThreads(void);

/* Prints "Current thread id: <id>" on stdout (a test helper of MLIR's). */
void mlirAsyncRuntimePrintCurrentThreadId(void);

#ifdef __cplusplus
}
#endif

#endif
