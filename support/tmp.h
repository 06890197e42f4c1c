/* tmp.h: temporary files and directories that never outlive gpucc.
 *
 * Every temp path is registered; tmp_cleanup() removes them all and runs at
 * exit, after SIGINT/SIGTERM/SIGHUP (interrupt.c; then gpucc exits 130 for
 * SIGINT, 128+signal otherwise) and after a crash (crash.c). Only the process that created a temp removes
 * it, so forked children never delete their parent's files. --save-temps
 * turns removal off. Outputs are written to a registered temp name beside the
 * destination and renamed into place by tmp_commit() only on success. */
#ifndef GPUCC_TMP_H
#define GPUCC_TMP_H

#include <stddef.h>

/* Installs the exit and signal hooks. Call once, early in main. */
void tmp_init(void);
void tmp_set_keep(int keep);
int tmp_keep(void);

/* Creates the session's private temp directory (under $TMPDIR or /tmp) on
 * first use and returns a new path "<dir>/<stem><suffix>" inside it. The
 * file is not created; the path is owned by the registry (do not free).
 * Returns NULL (with an error reported) when the directory cannot be made. */
const char *tmp_path(const char *stem, const char *suffix);

/* Registers "<base><suffix>" (a path the caller is about to create inside
 * the session directory) for removal and returns the registered copy. */
const char *tmp_path_register(const char *base, const char *suffix);

/* Returns "<dest>.tmp-XXXXXX" registered for removal, for writing an output
 * that tmp_commit() later renames to dest. NULL on failure (reported). */
const char *tmp_output_path(const char *dest);
/* Renames a path from tmp_output_path() to dest and unregisters it.
 * Returns 0, or -1 with an error reported. */
int tmp_commit(const char *tmp, const char *dest);

/* The session temp directory, or "(none)" if none was made. */
const char *tmp_path_dir(void);
/* Where the session directory goes: $TMPDIR as gpucc found it, or /tmp. */
const char *tmp_base_dir(void);

/* Removes every registered path (files, then the temp directory). Safe to
 * call from a signal handler. */
void tmp_cleanup(void);

/* Whole-file helpers with checked writes. tmp_write_file writes path
 * itself (callers give it a temp name and tmp_commit it); tmp_read_file
 * leaves a NUL after the data. Both return 0 or -1 (reported). */
int tmp_write_file(const char *path, const void *data, size_t size);
int tmp_read_file(const char *path, void **data, size_t *size);

#endif
