/* gpucc_fatbin_main.c: the `gpucc-fatbin` inspection tool.
 *
 * `gpucc-fatbin list|info|extract|verify FILE...` shows, describes, writes
 * out and checks the device objects a program carries, in executables,
 * shared libraries, relocatable objects or bare blobs. It is a thin shell
 * around the library (fatbin_find_blobs, fatbin_open, fatbin_read_object,
 * fatbin_verify), so what it shows is exactly what the runtime will see.
 * This file parses the command line and dispatches; docs/gpucc-fatbin.1 is
 * the manual.
 *
 * Exit status: 0 success, 1 a file could not be read, holds no (or a broken)
 * fat binary, or failed verification, 2 bad usage. */
#include <stdio.h>
#include <string.h>

#include "gpucc_fatbin.h"

#ifndef GPUCC_VERSION
#define GPUCC_VERSION "0.1.0"
#endif

const char tool_prog[] = "gpucc-fatbin";

static const char tool_help[] =
    "usage: gpucc-fatbin list FILE...\n"
    "       gpucc-fatbin info FILE...\n"
    "       gpucc-fatbin extract [-o DIR] [--archives] FILE...\n"
    "       gpucc-fatbin verify FILE...\n"
    "       gpucc-fatbin --help | --version\n"
    "\n"
    "Inspects gpucc fat binaries: the archives of device objects (cubin, PTX,\n"
    "hsaco, host shared object) that gpucc embeds in the section .gpucc_fatbin,\n"
    "one per gpu.module. FILE may be an executable, a shared library, an object\n"
    "file or a bare fat binary.\n"
    "\n"
    "commands:\n"
    "  list FILE...     one line per object: module, vendor, target, format,\n"
    "                   size in bytes and bytes stored in the archive (after\n"
    "                   compression). With several files, each table follows a\n"
    "                   'FILE:' line.\n"
    "  info FILE...     everything each archive records: format version,\n"
    "                   compression, gpucc and LLVM versions, code-affecting\n"
    "                   flags, and per object its target, features, sizes,\n"
    "                   frame, dictionary and SHA-256.\n"
    "  extract FILE...  write every object to DIR/MODULE/TARGET.FORMAT and print\n"
    "                   the paths written.\n"
    "    -o DIR, --output-dir=DIR\n"
    "                   where to write (default: the current directory; created\n"
    "                   if missing).\n"
    "    --archives     write each archive instead, without gpucc's 24-byte\n"
    "                   header, as DIR/MODULE.tar.zst (DIR/MODULE.tar when not\n"
    "                   compressed): zstd frames, some of which need another's\n"
    "                   content as dictionary (zstd -d -D; 'info' says where).\n"
    "  verify FILE...   read every object and check its SHA-256 against the\n"
    "                   manifest and its ELF header against its entry: EM_CUDA\n"
    "                   and the sm in e_flags for cubins, EM_AMDGPU, the gfx\n"
    "                   processor and xnack/sramecc for hsaco, .target and\n"
    "                   .version for PTX, an x86-64 shared object for host.\n"
    "\n"
    "options:\n"
    "  --help           print this help and exit\n"
    "  --version        print the version and exit\n"
    "\n"
    "exit status: 0 success, 1 unreadable file, no or broken fat binary, or a\n"
    "failed check, 2 bad usage\n";

static int tool_usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "%s: error: %s", tool_prog, msg);
  if (arg)
    fprintf(stderr, " '%s'", arg);
  fprintf(stderr, "\nusage: gpucc-fatbin list|info|extract|verify FILE...  (see "
                  "gpucc-fatbin --help)\n");
  return 2;
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*run)(int, char **);
  } cmds[] = {
      {"list", tool_cmd_list},
      {"info", tool_cmd_info},
      {"extract", tool_cmd_extract},
      {"verify", tool_cmd_verify},
  };
  if (argc < 2)
    return tool_usage_error("no command given", NULL);
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(tool_help, stdout);
    return tool_flush();
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("%s %s (fat binary format %d, reads %d to %d)\n", tool_prog, GPUCC_VERSION,
           FATBIN_VERSION, FATBIN_VERSION_MIN, FATBIN_VERSION);
    return tool_flush();
  }
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    if (strcmp(cmd, cmds[i].name) != 0)
      continue;
    for (int k = 2; k < argc && strcmp(argv[k], "--") != 0; k++) {
      if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
        fputs(tool_help, stdout);
        return tool_flush();
      }
    }
    return cmds[i].run(argc - 2, argv + 2);
  }
  if (cmd[0] == '-')
    return tool_usage_error("unknown option", cmd);
  return tool_usage_error("unknown command", cmd);
}
