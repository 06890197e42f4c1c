/* jobserver.h: GNU make's jobserver, as a client.
 *
 * Under `make -jN` every gpucc that make starts already holds one of make's
 * N job slots. MAKEFLAGS names where the other slots are: a pipe or a
 * named FIFO holding one byte (a token) per free slot. gpucc runs its first
 * job on the slot it holds and takes a token for each job it runs beside
 * it, giving the same byte back when that job ends, so that all the gpuccs
 * of a build run N jobs in all. Without a jobserver (or with one whose
 * file descriptors make did not pass on, for a recipe it does not consider
 * recursive), gpucc runs up to -j jobs as before, and says nothing.
 *
 * Tokens are never lost: each is given back when its job ends, when a build
 * fails (jobserver_release_all) and at exit. */
#ifndef GPUCC_JOBSERVER_H
#define GPUCC_JOBSERVER_H

#include <sys/types.h>

/* Reads MAKEFLAGS (--jobserver-auth=fifo:PATH, --jobserver-auth=R,W, or the
 * older --jobserver-fds=R,W). Call first thing in main, before any file is
 * opened: a descriptor make did not pass on must be found closed, not
 * taken for one of ours. Silent whatever it finds. */
void jobserver_init(void);

/* Whether a usable jobserver was found. */
int jobserver_active(void);

/* Takes a token without waiting. Returns 1 when one was taken (or there is
 * no jobserver, which never limits), 0 when none is free now. */
int jobserver_try_acquire(void);

/* Gives one taken token back. */
void jobserver_release(void);

/* Gives every taken token back (a build that failed or was interrupted). */
void jobserver_release_all(void);

/* How many tokens are taken now. */
int jobserver_held(void);

/* Waits until a child exits or a token may be free: returns the child's pid
 * (its status in *status), 0 when a token may be free (try again), or -1
 * when SIGINT/SIGTERM/SIGHUP/SIGPIPE was recorded (interrupt.h). With no
 * jobserver it waits for a child only. */
pid_t jobserver_wait(int *status);

#endif
