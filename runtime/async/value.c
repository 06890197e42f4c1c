/* value.c: async.value<T>, a token with a payload.
 *
 * The lowering asks for storage of the stored type's LLVM allocation size (a
 * getelementptr one element past null), writes the result into it before
 * EmplaceValue and loads it after the await, at the type's ABI alignment. That
 * alignment is a power of two dividing the allocation size, so it divides
 * the largest power of two that divides the size: the storage gets that
 * alignment (at least malloc's, at most a page). A vector<8xf32> thus gets
 * the 32 bytes that an aligned load of it needs and malloc would not promise.
 *
 * Like a token, a value starts with two references, the producer's given up
 * when it settles. The storage is zeroed, as MLIR's own runtime does, and
 * freed with the value (object.c). */
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "async.h"
#include "rt.h"

enum { ASYNC_STORAGE_MAX_ALIGN = 4096 };

static size_t async_storage_align(size_t size) {
  size_t align = size & (~size + 1); /* lowest set bit; 0 for 0 */
  if (align < alignof(max_align_t))
    align = alignof(max_align_t);
  if (align > ASYNC_STORAGE_MAX_ALIGN)
    align = ASYNC_STORAGE_MAX_ALIGN;
  return align;
}

static struct async_object *async_value(AsyncValue *value, const char *fn) {
  return async_object_check(value, ASYNC_VALUE, fn);
}

RT_EXPORT AsyncValue *mlirAsyncRuntimeCreateValue(int64_t size) {
  static const char fn[] = "mlirAsyncRuntimeCreateValue";
  if (size < 0)
    async_bug("%s: negative size %lld", fn, (long long)size);
  size_t align = async_storage_align((size_t)size);
  /* aligned_alloc wants a multiple of the alignment, and something to point
   * at even for an empty payload. */
  size_t bytes = size == 0 ? align : ((size_t)size + align - 1) / align * align;
  if (bytes < (size_t)size)
    async_out_of_memory(fn);
  void *storage = aligned_alloc(align, bytes);
  if (!storage)
    async_out_of_memory(fn);
  memset(storage, 0, bytes);
  struct async_value *v = malloc(sizeof *v);
  if (!v) {
    free(storage);
    async_out_of_memory(fn);
  }
  async_object_init(&v->obj, ASYNC_VALUE, 2);
  v->storage = storage;
  return v;
}

static void async_value_settle(AsyncValue *value, enum async_state state, const char *fn) {
  struct async_object *o = async_value(value, fn);
  async_object_settle(o, state, fn);
  mlirAsyncRuntimeDropRef(o, 1);
}

RT_EXPORT void mlirAsyncRuntimeEmplaceValue(AsyncValue *value) {
  async_value_settle(value, ASYNC_AVAILABLE, "mlirAsyncRuntimeEmplaceValue");
}

RT_EXPORT void mlirAsyncRuntimeSetValueError(AsyncValue *value) {
  async_value_settle(value, ASYNC_ERROR, "mlirAsyncRuntimeSetValueError");
}

RT_EXPORT bool mlirAsyncRuntimeIsValueError(AsyncValue *value) {
  return async_object_state(async_value(value, "mlirAsyncRuntimeIsValueError")) == ASYNC_ERROR;
}

RT_EXPORT void *mlirAsyncRuntimeGetValueStorage(AsyncValue *value) {
  async_value(value, "mlirAsyncRuntimeGetValueStorage");
  return value->storage;
}

RT_EXPORT void mlirAsyncRuntimeAwaitValue(AsyncValue *value) {
  async_object_wait(async_value(value, "mlirAsyncRuntimeAwaitValue"));
}

RT_EXPORT void mlirAsyncRuntimeAwaitValueAndExecute(AsyncValue *value, CoroHandle handle,
                                                    CoroResume resume) {
  static const char fn[] = "mlirAsyncRuntimeAwaitValueAndExecute";
  async_object_then(async_value(value, fn), handle, resume, fn);
}
