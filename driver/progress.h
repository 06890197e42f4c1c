/* progress.h: one self-updating status line while the jobs run, Ninja's
 * way: "[5/18] sm_90 kernels", the jobs finished, the jobs in all, and the
 * job last started, rewritten in place with \r and cleared at the end.
 *
 * Only when stderr is a terminal (and TERM is not "dumb") and -v is not
 * given (-v prints every job on its own line): into a file or a pipe
 * nothing at all is written. Whatever else goes to stderr while the line
 * is up (a job's output, a warning) is written between progress_hide and
 * progress_show, so that it never lands after the status text. */
#ifndef GPUCC_PROGRESS_H
#define GPUCC_PROGRESS_H

#include <stddef.h>

/* Turns the line on when `wanted` and stderr is a terminal. */
void progress_init(int wanted);

/* Shows "[done/total] what" (cut to the terminal's width). */
void progress_show(size_t done, size_t total, const char *what);

/* Clears the line (if one is shown), so that other output starts at the
 * beginning of an empty line; progress_restore shows it again. */
void progress_hide(void);
void progress_restore(void);

/* Clears the line for good (the run is over). */
void progress_end(void);

#endif
