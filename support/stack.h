/* stack.h: gpucc's work on a thread with a large stack.
 *
 * MLIR's parser, verifier, printer and many passes recurse once per level
 * of nesting; the main thread's 8 MiB are gone after a few thousand
 * levels. stack_run() runs the work on a thread whose stack is reserved
 * (not committed: pages are touched only when used), and the forked job
 * children, forked from that thread, run on their copy of it.
 *
 * The main thread meanwhile keeps SIGINT/SIGTERM/SIGHUP blocked (they go
 * to the worker, where they interrupt waits) and watches: when a signal is
 * recorded and the worker has not ended the process shortly after (it is
 * inside MLIR, where nothing asks), it runs interrupt_exit() itself. */
#ifndef GPUCC_STACK_H
#define GPUCC_STACK_H

#include <stddef.h>

#define STACK_SIZE ((size_t)512 << 20)

/* Runs fn(arg) on a thread with a stack of `size` bytes and returns its
 * result; on this thread's own stack when no such thread can be made. */
int stack_run(size_t size, int (*fn)(void *), void *arg);

#endif
