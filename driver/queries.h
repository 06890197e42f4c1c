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

#endif
