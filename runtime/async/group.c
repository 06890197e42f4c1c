/* group.c: async.group, waiting for a fixed number of tokens at once.
 *
 * A group is created for size members (async.create_group %size) and its
 * object settles, available, when the last of them is ready: it counts down
 * from size, one per member that has been added and is ready, so that awaiting
 * a group whose members are not all added yet keeps waiting for the rest. A
 * member in error counts as ready and marks the group in error; the group's
 * object itself always settles as available, mlirAsyncRuntimeIsGroupError
 * reads the count of errors.
 *
 * A member not ready when added gets a join task in its waiter list, which
 * holds a reference to the group until the member settles (object.c runs
 * it), so that the caller may drop the group in the meantime. Values can be
 * members as well as tokens: both are the same object underneath. */
#include <stdlib.h>

#include "async.h"
#include "rt.h"

static struct async_group *async_group(AsyncGroup *group, const char *fn) {
  return (struct async_group *)async_object_check(group, ASYNC_GROUP, fn);
}

RT_EXPORT AsyncGroup *mlirAsyncRuntimeCreateGroup(int64_t size) {
  static const char fn[] = "mlirAsyncRuntimeCreateGroup";
  if (size < 0)
    async_bug("%s: negative size %lld", fn, (long long)size);
  struct async_group *g = async_alloc(sizeof *g, fn);
  async_object_init(&g->obj, ASYNC_GROUP, 1);
  g->size = size;
  atomic_init(&g->pending, size);
  atomic_init(&g->errors, 0);
  atomic_init(&g->added, 0);
  /* Nothing to wait for; nobody can be waiting yet. */
  if (size == 0)
    atomic_store_explicit(&g->obj.state, ASYNC_AVAILABLE, memory_order_release);
  return g;
}

/* One member of the group is ready (in error or not). */
static void async_group_member_ready(struct async_group *g, bool error) {
  /* Counted before the member is: whoever sees the group settled sees the
   * error too (the decrements form one release sequence). */
  if (error)
    atomic_fetch_add_explicit(&g->errors, 1, memory_order_relaxed);
  int64_t before = atomic_fetch_sub_explicit(&g->pending, 1, memory_order_acq_rel);
  if (before == 1)
    async_object_settle(&g->obj, ASYNC_AVAILABLE, "mlirAsyncRuntimeAddTokenToGroup");
}

/* A member settled (object.c runs its join task): count it in, then drop
 * the reference the membership held. */
static void async_group_join(void *group, bool error) {
  struct async_group *g = group;
  async_group_member_ready(g, error);
  mlirAsyncRuntimeDropRef(g, 1);
}

RT_EXPORT int64_t mlirAsyncRuntimeAddTokenToGroup(AsyncToken *token, AsyncGroup *group) {
  static const char fn[] = "mlirAsyncRuntimeAddTokenToGroup";
  struct async_group *g = async_group(group, fn);
  struct async_object *member = (struct async_object *)token;
  if (!member || (member->kind != ASYNC_TOKEN && member->kind != ASYNC_VALUE))
    async_bug("%s: %p is not a token or a value", fn, (void *)token);
  int64_t rank = atomic_fetch_add_explicit(&g->added, 1, memory_order_relaxed);
  if (rank >= g->size)
    async_bug("%s: more than %lld tokens added to group %p, its size", fn, (long long)g->size,
              (void *)g);

  struct async_task *join = async_alloc(sizeof *join, fn);
  *join = (struct async_task){.kind = ASYNC_TASK_NOTIFY, .notify = async_group_join, .arg = g};
  /* Taken before the join is visible: the member may settle and drop it at
   * any moment after that. */
  mlirAsyncRuntimeAddRef(g, 1);
  if (async_object_add_waiter(member, join))
    return rank;
  free(join);
  async_group_member_ready(g, async_object_state(member) == ASYNC_ERROR);
  mlirAsyncRuntimeDropRef(g, 1);
  return rank;
}

RT_EXPORT bool mlirAsyncRuntimeIsGroupError(AsyncGroup *group) {
  struct async_group *g = async_group(group, "mlirAsyncRuntimeIsGroupError");
  return atomic_load_explicit(&g->errors, memory_order_acquire) > 0;
}

RT_EXPORT void mlirAsyncRuntimeAwaitAllInGroup(AsyncGroup *group) {
  async_object_wait(&async_group(group, "mlirAsyncRuntimeAwaitAllInGroup")->obj);
}

RT_EXPORT void mlirAsyncRuntimeAwaitAllInGroupAndExecute(AsyncGroup *group, CoroHandle handle,
                                                         CoroResume resume) {
  static const char fn[] = "mlirAsyncRuntimeAwaitAllInGroupAndExecute";
  async_object_then(&async_group(group, fn)->obj, handle, resume, fn);
}
