/* crash.h: internal errors, reported instead of a bare signal.
 *
 * gpucc keeps a note of what it is doing (crash_set_stage) and of the
 * input it is working on (crash_set_input). When gpucc's own process gets
 * SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT, or LLVM reports a fatal
 * error, it prints
 *     gpucc: internal error: <what>, while <stage> for <subject>
 * writes a reproducer beside the session temp directory ($TMPDIR, else
 * /tmp; the current directory when that fails): gpucc-crash-XXXXXX.mlir,
 * the module, and gpucc-crash-XXXXXX.sh, the exact command run on it; ends
 * its children, removes its temp files and exits CRASH_EXIT. A job child
 * that crashes is reported by the parent (crash_report_job), which still
 * holds the normalized module the job started from.
 *
 * GPUCC_TEST_CRASH=<stage> (a test switch, not documented for users)
 * plants a crash where crash_planted(<stage>) is asked. */
#ifndef GPUCC_CRASH_H
#define GPUCC_CRASH_H

#include <stddef.h>

#define CRASH_EXIT 70 /* EX_SOFTWARE, as sysexits.h calls it */

/* Records the command line for reproducers and installs the handlers. Call
 * early in main, on the thread that does the work (it gets an alternate
 * signal stack, so that a stack overflow can still be reported). */
void crash_init(int argc, char **argv);

/* What gpucc is doing now ("parsing", "lowering device code") and for what
 * ("prog.mlir", "sm_90 (prog.mlir)"). Copied; either may be NULL. */
void crash_set_stage(const char *stage, const char *subject);

/* The input being worked on: `arg` as it appears on the command line (the
 * reproducer's command has the reproducer's module in its place), `file`
 * where its text is (differs for standard input). Copied. */
void crash_set_input(const char *arg, const char *file);

/* True when GPUCC_TEST_CRASH names this stage. */
int crash_planted(const char *stage);

/* In a forked job child: crashes take the default action, so that the
 * parent sees the signal. */
void crash_child_defaults(void);

/* Reports an internal error (`what`: "LLVM fatal error: ...") the way a
 * crash is reported. Async-signal-safe; never returns. In a job child it
 * prints the line and exits CRASH_EXIT: the parent writes the reproducer. */
_Noreturn void crash_fatal(const char *what);

/* True when the wait status of a job child is a crash: one of the signals
 * above, or CRASH_EXIT (it reported itself). */
int crash_is_crash_status(int status);

/* In the parent, after a job child crashed (crash_is_crash_status): prints
 * the internal error (unless the child did), writes a reproducer with the
 * module text given and `script` (the job's own command, which reads the
 * .mlir beside it), or, when script is NULL, the command line with `input`
 * replaced. The caller ends the other jobs and returns; main then exits
 * CRASH_EXIT. */
void crash_report_job(int status, const char *stage, const char *subject, const char *input,
                      const char *text, size_t len, const char *script);

/* True once an internal error was reported. */
int crash_happened(void);

#endif
