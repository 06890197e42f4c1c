/* interrupt.h: SIGINT, SIGTERM, SIGHUP and SIGPIPE, handled the way Ninja does.
 *
 * The handler only records the signal. Code that waits (the job loop's
 * waitpid, spawn_run's wait) or that runs between stages asks
 * interrupt_pending() and, when it is set, calls interrupt_exit(), which
 * ends every child's process group, removes the temp files and exits: 130
 * for SIGINT, otherwise the signal itself again (the shell sees 128+sig).
 * An in-process stage that never asks (MLIR parsing a big file) is covered
 * by the watchdog in stack.c, which runs interrupt_exit() from the main
 * thread when the worker has not done so shortly after the signal. */
#ifndef GPUCC_INTERRUPT_H
#define GPUCC_INTERRUPT_H

/* Installs the recording handlers (and a no-op SIGCHLD handler, so that a
 * child's exit wakes interrupt_wait_child). Called by tmp_init. */
void interrupt_init(void);

/* The signal recorded, or 0. */
int interrupt_pending(void);

/* Normal code only: ends the children, removes temp files and exits with
 * the recorded signal's status. Whichever thread calls it first does the
 * work; a second caller waits for the process to end. */
_Noreturn void interrupt_exit(void);

/* Waits for any child to exit, like waitpid(-1, status, 0), but returns -1
 * when a signal is recorded, also one that arrives just before the wait
 * (the check and the wait are one step, with ppoll). Returns the pid. */
int interrupt_wait_child(int *status);

/* The same, but also returns 0 when descriptor fd (if >= 0) has something
 * to read or is hung up, with poll's revents in *revents (make's jobserver
 * giving a token back, see driver/jobserver.c). */
int interrupt_wait_child_or_fd(int *status, int fd, short *revents);

#endif
