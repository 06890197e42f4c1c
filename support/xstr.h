/* xstr.h: small string helpers for the compiler side. Allocation failure is
 * an internal error (BUG), so callers need no NULL checks. */
#ifndef GPUCC_XSTR_H
#define GPUCC_XSTR_H

/* printf into a new malloc'ed string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "dir/prog.mlir" -> "prog": the file name without directory and suffix, as
 * a new string (default output and temp file names). */
char *xstem(const char *path);

/* s as a part of a file name: itself when short, else its first 64 bytes,
 * '~' and a hash of all of it, so that names made of module and target
 * names stay under the file system's 255 bytes and stay distinct. New
 * string. */
char *xfile_part(const char *s);

/* text with every `from` (not empty) replaced by `to`, as a new string. */
char *xreplace(const char *text, const char *from, const char *to);

#endif
