/* host_fiber.c: switching between the GPU threads of one block on a CPU.
 *
 * A block whose threads synchronize (gpu.barrier, gpu.shuffle) runs its
 * threads as fibers on one worker thread: each fiber has its own stack and
 * runs until it reaches a synchronization point, then switches back to the
 * block's scheduler, which resumes the next fiber. The scheduler runs rounds
 * over all live fibers, so a barrier is passed only after every live thread
 * has reached it.
 *
 * The switch is a few instructions of x86-64 assembly (callee-saved
 * registers, the stack pointer, MXCSR and the x87 control word): ucontext's
 * swapcontext makes two system calls per switch to save the signal mask,
 * which would dominate kernels that synchronize in a loop. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_STACK */
#include "host_fiber.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "the host backend's fiber switch is written for x86-64"
#endif

/* void rt_fiber_switch(void **save_sp, void *next_sp): saves the current
 * context on its stack, stores the stack pointer in *save_sp, and resumes
 * the context whose stack pointer is next_sp. */
void rt_fiber_switch(void **save_sp, void *next_sp);
__asm__(".text\n"
        ".p2align 4\n"
        ".type rt_fiber_switch,@function\n"
        "rt_fiber_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n"
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size rt_fiber_switch, .-rt_fiber_switch\n");

static __thread struct rt_fiber_block *current_block;

/* First code a fiber runs; never returns (a finished fiber switches back to
 * the scheduler for good). */
static void fiber_start(void) {
  struct rt_fiber_block *b = current_block;
  unsigned me = b->current;
  b->run(b, me);
  b->done[me] = 1;
  b->alive--;
  rt_fiber_switch(&b->sp[me], b->main_sp);
  __builtin_unreachable();
}

static void *initial_stack(char *stack, size_t size) {
  uintptr_t top = ((uintptr_t)(stack + size)) & ~(uintptr_t)15;
  uint64_t *sp = (uint64_t *)top;
  *--sp = 0;                        /* fake return address of fiber_start */
  *--sp = (uint64_t)(uintptr_t)fiber_start; /* where the first `ret` goes */
  for (int i = 0; i < 6; i++)
    *--sp = 0; /* rbp rbx r12 r13 r14 r15 */
  uint32_t csr[2];
  __asm__ volatile("stmxcsr %0" : "=m"(csr[0]));
  __asm__ volatile("fnstcw %0" : "=m"(csr[1]));
  *--sp = (uint64_t)csr[0] | ((uint64_t)(csr[1] & 0xffff) << 32);
  return sp;
}

int rt_fiber_reserve(struct rt_fiber_pool *pool, unsigned n) {
  if (n <= pool->capacity)
    return 0;
  if (pool->stacks)
    munmap(pool->stacks, pool->capacity * pool->stack_size);
  pool->stacks = NULL;
  pool->capacity = 0;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  if (!pool->stack_size)
    pool->stack_size = RT_FIBER_STACK_SIZE;
  /* Untouched stack pages cost nothing: MAP_NORESERVE and lazy faulting. */
  void *mem = mmap(NULL, n * pool->stack_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mem == MAP_FAILED)
    return -1;
  /* A guard page at the bottom of each stack turns an overflow into a
   * crash at the overflow instead of silent corruption of a neighbour. */
  for (unsigned i = 0; i < n; i++)
    mprotect((char *)mem + i * pool->stack_size, page, PROT_NONE);
  pool->stacks = mem;
  pool->capacity = n;
  return 0;
}

void rt_fiber_release(struct rt_fiber_pool *pool) {
  if (pool->stacks)
    munmap(pool->stacks, pool->capacity * pool->stack_size);
  pool->stacks = NULL;
  pool->capacity = 0;
}

void rt_fiber_run(struct rt_fiber_block *b, struct rt_fiber_pool *pool) {
  current_block = b;
  for (unsigned t = 0; t < b->n; t++) {
    b->done[t] = 0;
    b->sp[t] = initial_stack(pool->stacks + (size_t)t * pool->stack_size, pool->stack_size);
  }
  b->alive = b->n;
  while (b->alive > 0) {
    for (unsigned t = 0; t < b->n; t++) {
      if (b->done[t])
        continue;
      b->current = t;
      rt_fiber_switch(&b->main_sp, b->sp[t]);
    }
  }
  current_block = NULL;
}

void rt_fiber_yield(struct rt_fiber_block *b) {
  unsigned me = b->current;
  rt_fiber_switch(&b->sp[me], b->main_sp);
}
