/* bytecode.c: MLIR bytecode is read in a child process first.
 *
 * MLIR's bytecode reader trusts its input: damaged files corrupted gpucc's
 * heap (`malloc(): corrupted top size`), crashed it, or asked LLVM for 2^64
 * elements. Reading it in a forked child keeps the parent's memory out of
 * reach: the child parses and verifies the bytecode and writes the module
 * back as text, locations included, which the parent then parses as it
 * parses any .mlir file (its parser checks every byte it reads). A child
 * that fails, crashes or runs out of memory is one error on the input:
 * `x.mlirbc: error: invalid MLIR bytecode (...)`. Text costs a second
 * parse; bytecode inputs are rare and the parse is a small part of a
 * build. */
#include "frontend.h"

#include "crash.h"
#include "diag.h"
#include "proc.h"
#include "tmp.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

struct reading {
  const char *path, *text_path;
};

/* In the child: 0 when the text is written, 1 after MLIR's diagnostics. */
static int read_in_child(void *arg) {
  const struct reading *r = arg;
  if (crash_planted("bytecode"))
    raise(SIGSEGV); /* what damaged bytecode did to gpucc itself */
  MlirModule m = mlirModuleCreateParseFromFile(frontend_context(),
                                               mlirStringRefCreateFromCString(r->path));
  if (mlirModuleIsNull(m))
    return 1;
  size_t len;
  char *text = ir_print_op(mlirModuleGetOperation(m), 1, &len);
  int rc = tmp_write_file(r->text_path, text, len) == 0 ? 0 : 1;
  return rc;
}

static int wait_for(pid_t pid, int *status) {
  for (;;) {
    if (waitpid(pid, status, 0) == pid)
      break;
    if (errno != EINTR)
      return -1;
  }
  spawn_untrack(pid);
  return 0;
}

int frontend_bytecode_to_text(const char *path, const char *shown, const char **text_path) {
  struct reading r = {path, tmp_path("bytecode", ".mlir")};
  if (!r.text_path)
    return -1;
  pid_t pid;
  int status;
  if (spawn_fork(read_in_child, &r, "reading MLIR bytecode", &pid) != 0)
    return -1;
  if (wait_for(pid, &status) != 0)
    return diag_error("cannot wait for the bytecode reader: %s", strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    ir_alias_file(r.text_path, shown);
    *text_path = r.text_path;
    return 0;
  }
  if (WIFSIGNALED(status))
    diag_at(DIAG_ERROR, shown, 0, 0, "invalid MLIR bytecode (the reader died of signal %d: %s)",
            WTERMSIG(status), strsignal(WTERMSIG(status)));
  else if (WEXITSTATUS(status) == 1)
    diag_at(DIAG_ERROR, shown, 0, 0, "invalid MLIR bytecode (see the errors above)");
  else
    diag_at(DIAG_ERROR, shown, 0, 0, "invalid MLIR bytecode (the reader failed with status %d)",
            WEXITSTATUS(status));
  return -1;
}
