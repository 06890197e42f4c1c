/* queries.h: what gpucc answers about itself without compiling anything,
 * under the names other compilers use for the same questions. */
#ifndef GPUCC_QUERIES_H
#define GPUCC_QUERIES_H

/* --list-gpu-arch (nvcc's): every target --offload-arch takes, one per
 * line on stdout (the aliases "native" and "all" are not listed). */
void query_list_gpu_arch(void);

/* -print-file-name=NAME (gcc's): the full path of NAME among the files
 * gpucc links with (the directory of libgpucc_rt), or NAME alone when it
 * is not there, on stdout. */
void query_print_file_name(const char *name);

/* The directory of the running gpucc (malloc'ed), or NULL. */
char *gpucc_exe_dir(void);

/* Where the link finds gpucc's runtime file `name` (libgpucc_rt.a ...) from
 * bin, gpucc's directory: the installed <prefix>/<libdir> relative to
 * <prefix>/bin, then the build tree's lib beside bin. Writes that directory,
 * resolved, into dir (PATH_MAX bytes) and returns 0, or -1 when neither
 * has it (dir is then ""). */
int gpucc_runtime_dir(const char *bin, const char *name, char *dir);

#endif
