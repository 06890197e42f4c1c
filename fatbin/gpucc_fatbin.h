/* gpucc_fatbin.h: the pieces of the gpucc-fatbin tool, shared by its files.
 *
 * gpucc_fatbin_main.c parses the command line and dispatches;
 * gpucc_fatbin_file.c loads files and opens every blob they carry;
 * gpucc_fatbin_show.c lists and describes; gpucc_fatbin_extract.c writes
 * objects out and verifies them. All printing of the project's fat-binary
 * code happens in these files, never in the library. */
#ifndef GPUCC_FATBIN_TOOL_H
#define GPUCC_FATBIN_TOOL_H

#include <stddef.h>

#include "fatbin.h"

extern const char tool_prog[];

/* One blob found in a file, opened. */
struct tool_blob {
  const char *path;  /* the file it came from */
  size_t index;      /* 1-based among the file's blobs */
  size_t offset;     /* where it starts in the file */
  const unsigned char *data; /* the blob itself, fatbin_blob_size bytes */
  const struct fatbin *fb;
};

/* Called for every blob of a file; a non-zero return stops the walk and
 * makes the file count as failed (the callback has said why). */
typedef int (*tool_blob_fn)(const struct tool_blob *b, void *ud);

/* Loads path, finds its blobs and opens each, calling fn in file order.
 * Reports unreadable files, files without a fat binary and damaged blobs on
 * stderr. Returns 0, or 1 when anything failed. */
int tool_each_blob(const char *path, tool_blob_fn fn, void *ud);

/* "gpucc-fatbin: error: ..." on stderr; returns 1 for `return tool_error()`. */
int tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The library's message without its "fatbin: " prefix. */
const char *tool_msg(const char *err);
/* Aborts with a message when out of memory: the tool has nothing to save. */
void *tool_xmalloc(size_t n);
/* Checks that stdout was written; returns 0 or 1. */
int tool_flush(void);

int tool_cmd_list(int argc, char **argv);
int tool_cmd_info(int argc, char **argv);
int tool_cmd_extract(int argc, char **argv);
int tool_cmd_verify(int argc, char **argv);

/* Splits argv into files, handling "--" and refusing unknown options (an
 * option taking a value is the caller's business: it passes the rest).
 * Returns the number of files, or -1 after printing a usage error. */
int tool_files(int argc, char **argv, const char *cmd, char ***files);

#endif
