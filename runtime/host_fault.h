/* host_fault.h: a fault inside a kernel on the host backend, reported as a
 * GPU driver reports a failed launch (see host_fault.c).
 *
 * A thread that runs a block says so in rt_host_running; the signal
 * handlers read it to tell a kernel's fault (one line naming the kernel,
 * its module and the block, status 1) from the program's own (the handler
 * installed before ours, or the default action, as without gpucc). */
#ifndef GPUCC_RT_HOST_FAULT_H
#define GPUCC_RT_HOST_FAULT_H

#include "host_abi.h"
#include "host_exec.h"
#include "host_fiber.h"

/* What the calling thread runs. kernel is NULL outside a block; the rest is
 * meaningful only while it is set. Written by the thread itself, read by
 * its own signal handler: no atomics. Initial-exec TLS, so that the handler
 * reads it without __tls_get_addr (which may allocate). */
struct rt_host_running {
  const struct rt_host_kernel *kernel;
  unsigned long block;                 /* linear block index */
  const struct rt_host_grid *grid;
  const struct rt_fiber_block *fibers; /* block on fibers: whose turn it is */
  const struct gpucc_host_ctx *ctxs;   /* with fibers: each thread's ids */
};
extern _Thread_local struct rt_host_running rt_host_running
    __attribute__((tls_model("initial-exec")));

/* Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGTRAP and SIGFPE,
 * once per process; thread-safe. */
void rt_host_faults_install(void);

/* Gives the calling thread an alternate signal stack, unless it has one
 * already (a stack overflow is a SIGSEGV that needs a stack to report).
 * Returns what to pass to rt_host_altstack_release when the thread ends, or
 * NULL (nothing to release). */
void *rt_host_altstack_add(void);
void rt_host_altstack_release(void *stack);

#endif
