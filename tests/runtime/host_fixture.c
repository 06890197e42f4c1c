/* host_fixture.c: a hand-written `host` object, as gpucc would compile one
 * gpu.module for the CPU (see abi/host_abi.h), for test_host_module.c.
 *
 * Built as a shared object by CMakeLists.txt; the test puts its bytes in a
 * fat binary. Written in C rather than compiled from MLIR so that the runtime
 * tests need no compiler. Compiled a second time with FIXTURE_ABI_VERSION set
 * to a version the runtime does not know, to check that it is refused, and
 * once more with another FIXTURE_OFFSET, to tell two loaded objects apart.
 *
 * Kernels:
 *   fill(int *out, int base, int *block_calls): out[global id] = base +
 *     FIXTURE_OFFSET + global id; has a block entry, which also counts its
 *     calls in *block_calls so the test can see that the runtime preferred it;
 *   rotate(int *out): thread t stores t in workgroup memory after the static
 *     bytes, a barrier, then reads thread t+1's value: thread entry only;
 *   wait_flag(int *flag, int *seen): spins until *flag is nonzero, stores
 *     what it read in *seen (one kernel waiting for another, on streams);
 *   set_flag(int *flag, int value): *flag = value;
 *   append(int *log, int value): log[1 + log[0]++] = value, from thread 0
 *     of block 0: the order in which launches ran;
 *   check(int value): fails a device-side assertion when value is 0.
 * Each has its parameter table (K__gpucc_params), as the compiler emits it. */
#include <stdint.h>

#include "host_abi.h"

#ifndef FIXTURE_ABI_VERSION
#define FIXTURE_ABI_VERSION GPUCC_HOST_ABI_VERSION
#endif

#ifndef FIXTURE_OFFSET
#define FIXTURE_OFFSET 0
#endif

#define EXPORT __attribute__((visibility("default")))

EXPORT const uint32_t gpucc_host_abi_version = FIXTURE_ABI_VERSION;
EXPORT const uint64_t gpucc_host_shared_bytes = 16;

static unsigned global_id(const struct gpucc_host_ctx *c) {
  unsigned bx = c->ctaid[0] + c->nctaid[0] * (c->ctaid[1] + c->nctaid[1] * c->ctaid[2]);
  unsigned n = c->ntid[0] * c->ntid[1] * c->ntid[2];
  return bx * n + c->tid[0] + c->ntid[0] * (c->tid[1] + c->ntid[1] * c->tid[2]);
}

EXPORT void fill__gpucc_thread(void **params, struct gpucc_host_ctx *ctx) {
  int *out = *(int **)params[0];
  int base = *(int *)params[1];
  unsigned id = global_id(ctx);
  out[id] = base + FIXTURE_OFFSET + (int)id;
}

EXPORT void fill__gpucc_block(void **params, struct gpucc_host_ctx *ctx) {
  __atomic_fetch_add(*(int **)params[2], 1, __ATOMIC_RELAXED);
  struct gpucc_host_ctx c = *ctx;
  for (c.tid[2] = 0; c.tid[2] < c.ntid[2]; c.tid[2]++)
    for (c.tid[1] = 0; c.tid[1] < c.ntid[1]; c.tid[1]++)
      for (c.tid[0] = 0; c.tid[0] < c.ntid[0]; c.tid[0]++)
        fill__gpucc_thread(params, &c);
}

/* Parameter tables: count, then the size of each. */
EXPORT const uint32_t fill__gpucc_params[] = {3, sizeof(int *), sizeof(int), sizeof(int *)};
EXPORT const uint32_t rotate__gpucc_params[] = {1, sizeof(int *)};
EXPORT const char rotate__gpucc_fibers[] = "hand-written without a block entry";
EXPORT const uint32_t wait_flag__gpucc_params[] = {2, sizeof(int *), sizeof(int *)};
EXPORT const uint32_t set_flag__gpucc_params[] = {2, sizeof(int *), sizeof(int)};
EXPORT const uint32_t append__gpucc_params[] = {2, sizeof(int *), sizeof(int)};
EXPORT const uint32_t check__gpucc_params[] = {1, sizeof(int)};

EXPORT void wait_flag__gpucc_thread(void **params, struct gpucc_host_ctx *ctx) {
  (void)ctx;
  int *flag = *(int **)params[0], v;
  while ((v = __atomic_load_n(flag, __ATOMIC_ACQUIRE)) == 0)
    ;
  **(int **)params[1] = v;
}

EXPORT void set_flag__gpucc_thread(void **params, struct gpucc_host_ctx *ctx) {
  (void)ctx;
  __atomic_store_n(*(int **)params[0], *(int *)params[1], __ATOMIC_RELEASE);
}

EXPORT void append__gpucc_thread(void **params, struct gpucc_host_ctx *ctx) {
  if (global_id(ctx) != 0)
    return;
  int *log = *(int **)params[0];
  log[1 + log[0]++] = *(int *)params[1];
}

EXPORT void check__gpucc_thread(void **params, struct gpucc_host_ctx *ctx) {
  if (*(int *)params[0] == 0)
    gpuccHostAssertFail(ctx, "value != 0", "fixture.mlir", 7, "check");
}

EXPORT void rotate__gpucc_thread(void **params, struct gpucc_host_ctx *ctx) {
  int *out = *(int **)params[0];
  int *slots = (int *)(ctx->shared + gpucc_host_shared_bytes);
  unsigned n = ctx->ntid[0] * ctx->ntid[1] * ctx->ntid[2];
  unsigned t = ctx->tid[0] + ctx->ntid[0] * (ctx->tid[1] + ctx->ntid[1] * ctx->tid[2]);
  slots[t] = (int)t;
  gpuccHostBarrier(ctx);
  out[global_id(ctx)] = slots[(t + 1) % n];
}
