/* last_words.h: what must happen however gpucc ends, registered by the
 * modules that own it and run by the ways out that skip atexit.
 *
 * interrupt_exit (after SIGINT, SIGTERM, ...) and crash_fatal (an internal
 * error, possibly inside a signal handler) both end the process with
 * _exit: before that, running children must be ended, make's jobserver
 * tokens given back, temp files removed, in that order. Those belong to
 * proc.c, the driver's jobserver.c and tmp.c, which register a hook here;
 * interrupt.c and crash.c only run the hooks. This keeps the support files
 * in layers (last_words < interrupt < tmp < crash < proc) instead of a
 * loop of calls between them. */
#ifndef GPUCC_LAST_WORDS_H
#define GPUCC_LAST_WORDS_H

/* The order the hooks run in: one hook per step. */
enum last_step {
  LAST_CHILDREN, /* end the children (proc.c) */
  LAST_TOKENS,   /* give back make's jobserver tokens (driver/jobserver.c) */
  LAST_FILES,    /* remove the temp files (tmp.c) */
  LAST_STEPS
};

/* How the process ends: LAST_GRACEFUL in normal code (interrupt_exit: end
 * children with SIGTERM and a grace period, then wait for them); LAST_NOW
 * possibly inside a signal handler (crash_fatal: async-signal-safe calls
 * only, SIGKILL). */
enum last_how { LAST_GRACEFUL, LAST_NOW };

/* Sets step's hook (replacing any). Safe to call again with the same. */
void last_words_set(enum last_step step, void (*hook)(enum last_how how));

/* Runs every hook set, in step order. Async-signal-safe itself. */
void last_words_run(enum last_how how);

#endif
