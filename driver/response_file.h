/* response_file.h: command-line arguments read from files, as gcc, clang
 * and nvcc read them: `@FILE` (and nvcc's `--options-file FILE`,
 * `--options-file=FILE`, `-optf FILE`) stands for the arguments FILE holds.
 * Build systems (CMake, Meson, Bazel) write long command lines so. */
#ifndef GPUCC_RESPONSE_FILE_H
#define GPUCC_RESPONSE_FILE_H

/* Sets *out_argc and *out_argv to argv with every response file replaced by its
 * arguments, recursively (argv[0] kept; the strings are new and live until
 * exit). In a file, arguments are separated by white space; single or
 * double quotes group, a backslash takes the next character literally. An
 * `@FILE` that cannot be opened stays as it is, as with gcc (a file may be
 * named so); an --options-file that cannot be read, a response file nested
 * too deep (a cycle) or an unterminated quote is an error. Returns 0, or -1
 * (reported). */
int response_files_expand(int argc, char **argv, int *out_argc, char ***out_argv);

#endif
