/* native.c: asking the machine's GPUs what they are; see native.h.
 *
 * A child runs each kind's probe (struct target_kind's native_probe, which
 * loads that vendor's driver) and prints the chips found on a pipe; on
 * failure it prints why and exits 1. In a child, so that no GPU driver is
 * ever loaded into gpucc itself. */
#include "native.h"

#include "diag.h"
#include "native_probe.h"
#include "proc.h"
#include "targets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: asks every kind's probe, writes the list (or why there is
 * none) to the pipe; exits 0 when GPUs were found. */
static int query_body(void *arg) {
  int *fds = arg;
  close(fds[0]);
  static struct native_found found;
  for (size_t k = 0; target_kinds[k]; k++)
    if (target_kinds[k]->native_probe)
      target_kinds[k]->native_probe(&found);
  int ok = found.list[0] != '\0';
  const char *msg = ok ? found.list : found.why;
  size_t n = strlen(msg);
  if (write(fds[1], msg, n) != (ssize_t)n)
    return 2;
  return ok ? 0 : 1;
}

char *native_arch_list(void) {
  int fds[2];
  if (pipe(fds) != 0) {
    diag_error("--offload-arch=native: cannot create a pipe: %s", strerror(errno));
    return NULL;
  }
  pid_t pid;
  if (spawn_fork(query_body, fds, "--offload-arch=native", &pid) != 0) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  close(fds[1]);
  char buf[4200];
  size_t got = 0;
  ssize_t r;
  while (got < sizeof buf - 1 && ((r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0 || (r < 0 && errno == EINTR)))
    if (r > 0)
      got += (size_t)r;
  buf[got] = '\0';
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  spawn_untrack(pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    diag_error("--offload-arch=native: no GPU found on this machine (%s)",
               got ? buf : "the query process failed");
    return NULL;
  }
  return strdup(buf);
}
