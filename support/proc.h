/* proc.h: running external tools (ptxas, cc) the one way gpucc does it.
 *
 * spawn_run() starts argv[0] (searched in $PATH when it has no '/') with
 * posix_spawnp, waits, and turns the status into one diagnostic:
 * "'ptxas' exited with status 255" or "'ld.lld' killed by signal 9".
 * spawn_fork() is the same for gpucc's own jobs (a forked child). Every
 * child leads a process group of its own, which is what gpucc signals: on
 * SIGINT/SIGTERM (see interrupt.c) and when a build fails (spawn_end). */
#ifndef GPUCC_PROC_H
#define GPUCC_PROC_H

#include <stdio.h>
#include <sys/types.h>

/* Runs argv (NULL-terminated) and waits. When capture is non-NULL, the
 * child's stdout and stderr go to that file instead of ours. `what` names the
 * job in error messages ("ptxas for sm_90"). Returns 0 when the tool exited
 * with status 0; otherwise reports an error and returns -1. */
int spawn_run(char *const argv[], const char *capture, const char *what);

/* Like spawn_run but silent: returns the exit status (0 = success), or -1
 * when the program could not be started or was killed. For probes. */
int spawn_run_quiet(char *const argv[], const char *capture);

/* Where a job's standard streams go. A build's jobs are quiet until they
 * end, as Ninja's: their output is captured in a file that the caller
 * prints whole when the job is done (so that two failing jobs under -j
 * never interleave), and they never read the terminal. */
struct spawn_io {
  const char *output; /* stdout and stderr into this file (created); NULL: ours */
  int null_stdin;     /* stdin from /dev/null; 0 keeps ours (a tool reading '-') */
};

/* Starts argv without waiting; the child is tracked so that a signal kills
 * it. io may be NULL (our streams). Returns 0 with *pid set, or -1 after
 * reporting. */
int spawn_start(char *const argv[], const struct spawn_io *io, const char *what, pid_t *pid);

/* Forks a child that runs body(arg) and exits with its result, in a
 * process group of its own, with the default signal handlers and no
 * children of the parent's to kill; tracked like spawned tools. Returns 0
 * with *pid set, or -1 after reporting. */
int spawn_fork(int (*body)(void *), void *arg, const char *what, pid_t *pid);
/* The same with the child's streams set up as io says (NULL: ours). */
int spawn_fork_io(int (*body)(void *), void *arg, const struct spawn_io *io, const char *what,
                  pid_t *pid);

/* Ends a running child and everything in its process group: SIGTERM, a
 * grace period, SIGKILL, then waits until the group is gone. Reaps it. */
void spawn_end(pid_t pid);

/* Tracks a child made some other way for killing on a signal. */
void spawn_track(pid_t pid);
/* Forgets a child that has been reaped. */
void spawn_untrack(pid_t pid);

/* Turns a wait status into a diagnostic naming the tool and the job:
 * returns 0 for exit status 0, else reports and returns -1. */
int spawn_check_status(int status, const char *tool, const char *what);

/* Prints argv shell-quoted on one line, as -### and -v show commands. */
void spawn_print(FILE *out, char *const argv[]);

/* Signal-safe: SIGTERM to every tracked child's process group. */
void spawn_kill_running(void);

/* Signal-safe: SIGKILL to every tracked child's process group, and waits
 * for each leader (the crash handler's way out: no grace period). */
void spawn_kill_now(void);

/* spawn_end for every tracked child, their grace periods overlapping (the
 * way out after SIGINT/SIGTERM, in normal code). */
void spawn_end_all(void);

#endif
