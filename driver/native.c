/* native.c: asking the machine's GPUs what they are; see native.h.
 *
 * The child dlopen()s the CUDA driver and the HIP runtime and prints one
 * target per device on a pipe; on failure it prints why and exits 1. The
 * HIP architecture name comes from hipDeviceProp_t.gcnArchName, whose offset
 * differs between ROCm 5 and 6: like the runtime, we fill a large zeroed
 * buffer and take the first string after the 256-byte name that starts with
 * "gfx". */
#include "native.h"

#include "diag.h"
#include "proc.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CU_COMPUTE_MAJOR 75 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
#define CU_COMPUTE_MINOR 76

static void *open_first(const char *env, const char *const *names) {
  const char *forced = getenv(env);
  if (forced && *forced)
    return dlopen(forced, RTLD_NOW | RTLD_LOCAL);
  for (; *names; names++) {
    void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
    if (h)
      return h;
  }
  return NULL;
}

static void add(char *out, size_t len, const char *arch) {
  /* Deduplicate: two identical GPUs need one target. */
  char padded[80];
  snprintf(padded, sizeof padded, ",%s,", arch);
  char have[4096];
  snprintf(have, sizeof have, ",%s,", out);
  if (strstr(have, padded))
    return;
  size_t n = strlen(out);
  snprintf(out + n, len - n, "%s%s", n ? "," : "", arch);
}

static void query_cuda(char *out, size_t len, char *why, size_t whylen) {
  static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
  void *h = open_first("GPUCC_CUDA_LIBRARY", names);
  if (!h) {
    snprintf(why, whylen, "CUDA: driver library not found");
    return;
  }
  int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
  int (*count)(int *) = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
  int (*get)(int *, int) = (int (*)(int *, int))dlsym(h, "cuDeviceGet");
  int (*attr)(int *, int, int) = (int (*)(int *, int, int))dlsym(h, "cuDeviceGetAttribute");
  int n = 0;
  if (!init || !count || !get || !attr || init(0) != 0 || count(&n) != 0 || n == 0) {
    snprintf(why, whylen, "CUDA: no device");
    return;
  }
  for (int i = 0; i < n; i++) {
    int dev, major = 0, minor = 0;
    if (get(&dev, i) != 0 || attr(&major, CU_COMPUTE_MAJOR, dev) != 0 ||
        attr(&minor, CU_COMPUTE_MINOR, dev) != 0)
      continue;
    char arch[32];
    snprintf(arch, sizeof arch, "sm_%d%d", major, minor);
    add(out, len, arch);
  }
}

static void query_hip(char *out, size_t len, char *why, size_t whylen) {
  static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5", NULL};
  void *h = open_first("GPUCC_HIP_LIBRARY", names);
  if (!h) {
    snprintf(why, whylen, "HIP: runtime library not found");
    return;
  }
  int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "hipInit");
  int (*count)(int *) = (int (*)(int *))dlsym(h, "hipGetDeviceCount");
  int (*props)(void *, int) = (int (*)(void *, int))dlsym(h, "hipGetDevicePropertiesR0600");
  if (!props)
    props = (int (*)(void *, int))dlsym(h, "hipGetDeviceProperties");
  int n = 0;
  if (!init || !count || !props || init(0) != 0 || count(&n) != 0 || n == 0) {
    snprintf(why, whylen, "HIP: no device");
    return;
  }
  static char buf[16384];
  for (int i = 0; i < n; i++) {
    memset(buf, 0, sizeof buf);
    if (props(buf, i) != 0)
      continue;
    for (size_t k = 256; k + 4 < sizeof buf; k++) {
      if (buf[k] == 'g' && buf[k + 1] == 'f' && buf[k + 2] == 'x' && buf[k - 1] == '\0') {
        char arch[64];
        snprintf(arch, sizeof arch, "%.63s", buf + k);
        arch[strcspn(arch, ":")] = '\0'; /* processor only: runs in any xnack mode */
        add(out, len, arch);
        break;
      }
    }
  }
}

/* In the child: asks the drivers, writes the list (or why there is none)
 * to the pipe; exits 0 when GPUs were found. */
static int query_body(void *arg) {
  int *fds = arg;
  close(fds[0]);
  char list[4096] = "", cuda_why[256] = "", hip_why[256] = "";
  query_cuda(list, sizeof list, cuda_why, sizeof cuda_why);
  query_hip(list, sizeof list, hip_why, sizeof hip_why);
  char msg[4200];
  int ok = list[0] != '\0';
  int n = ok ? snprintf(msg, sizeof msg, "%s", list) : snprintf(msg, sizeof msg, "%s; %s", cuda_why, hip_why);
  if (write(fds[1], msg, (size_t)n) != n)
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
