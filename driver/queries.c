/* queries.c: --list-gpu-arch and -print-file-name=; see queries.h. */
#include "queries.h"

#include "targets.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GPUCC_RT_RELDIR
#define GPUCC_RT_RELDIR "../lib"
#endif

void query_list_gpu_arch(void) {
  char *list = target_all_list();
  if (!list)
    return;
  for (char *save, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
    printf("%s\n", tok);
  free(list);
}

/* The runtime's directories as the link looks for them (plan.c): the
 * installed <prefix>/<libdir> relative to <prefix>/bin, then the build
 * tree's lib beside bin. */
void query_print_file_name(const char *name) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0 && *name) {
    exe[n] = '\0';
    const char *bin = dirname(exe);
    const char *reldirs[] = {GPUCC_RT_RELDIR, "../lib"};
    for (size_t i = 0; i < sizeof reldirs / sizeof reldirs[0]; i++) {
      char dir[2 * PATH_MAX], real[PATH_MAX], path[2 * PATH_MAX];
      snprintf(dir, sizeof dir, "%s/%s", bin, reldirs[i]);
      if (!realpath(dir, real))
        continue;
      snprintf(path, sizeof path, "%s/%s", real, name);
      if (access(path, F_OK) == 0) {
        printf("%s\n", path);
        return;
      }
    }
  }
  printf("%s\n", name); /* gcc's answer for a file it does not have */
}
