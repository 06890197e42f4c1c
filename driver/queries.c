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
  char *list = target_known_list();
  if (!list)
    return;
  for (char *save, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
    printf("%s\n", tok);
  free(list);
}

char *gpucc_exe_dir(void) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return NULL;
  buf[n] = '\0';
  return strdup(dirname(buf));
}

int gpucc_runtime_dir(const char *bin, const char *name, char *dir) {
  const char *reldirs[] = {GPUCC_RT_RELDIR, "../lib"};
  for (size_t i = 0; i < sizeof reldirs / sizeof reldirs[0]; i++) {
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", bin, reldirs[i]);
    if (!realpath(path, dir))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (access(path, F_OK) == 0)
      return 0;
  }
  dir[0] = '\0';
  return -1;
}

void query_print_file_name(const char *name) {
  char *bin = *name ? gpucc_exe_dir() : NULL;
  char dir[PATH_MAX];
  if (bin && gpucc_runtime_dir(bin, name, dir) == 0)
    printf("%s/%s\n", dir, name);
  else
    printf("%s\n", name); /* gcc's answer for a file it does not have */
  free(bin);
}
