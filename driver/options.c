/* options.c: the option table, the parser and --help; see options.h. */
#include "options.h"

#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum opt_id {
  OPT_OUTPUT, OPT_COMPILE, OPT_OPT, OPT_OFFLOAD_ARCH, OPT_VERBOSE, OPT_DRY_RUN, OPT_SAVE_TEMPS,
  OPT_CUDA_PATH, OPT_ROCM_PATH, OPT_LIB, OPT_LIBDIR, OPT_WL, OPT_WERROR, OPT_HELP, OPT_VERSION,
};

enum opt_form {
  FORM_FLAG,      /* -c */
  FORM_SEPARATE,  /* -o FILE or -oFILE */
  FORM_JOINED,    /* -O2, -Wl,a,b (prefix match, value glued on) */
  FORM_EQUALS,    /* --offload-arch=LIST */
};

struct opt_spec {
  enum opt_id id;
  const char *name;
  enum opt_form form;
  const char *meta; /* shown in --help */
  const char *help;
};

static const struct opt_spec table[] = {
    {OPT_OUTPUT, "-o", FORM_SEPARATE, "<file>", "write the output to <file> (default a.out, or <input>.o with -c)"},
    {OPT_COMPILE, "-c", FORM_FLAG, NULL, "compile to an object file with the fat binary embedded; do not link"},
    {OPT_OPT, "-O", FORM_JOINED, "<0-3>", "optimization level for host and device code (default -O2)"},
    {OPT_OFFLOAD_ARCH, "--offload-arch", FORM_EQUALS, "<list>",
     "GPU targets, comma separated, repeatable: sm_XX, sm_XXa, gfxXXX, gfxXXX:xnack-"},
    {OPT_CUDA_PATH, "--cuda-path", FORM_EQUALS, "<dir>", "CUDA toolkit for ptxas and libdevice (default $CUDA_PATH, /usr/local/cuda)"},
    {OPT_ROCM_PATH, "--rocm-path", FORM_EQUALS, "<dir>", "ROCm tree for AMD device libraries (default $ROCM_PATH, Debian's rocm-device-libs)"},
    {OPT_LIBDIR, "-L", FORM_SEPARATE, "<dir>", "add <dir> to the linker's search path"},
    {OPT_LIB, "-l", FORM_SEPARATE, "<lib>", "link with library <lib>"},
    {OPT_WL, "-Wl,", FORM_JOINED, "<args>", "pass comma-separated <args> to the linker"},
    {OPT_WERROR, "-Werror", FORM_FLAG, NULL, "treat warnings as errors"},
    {OPT_VERBOSE, "-v", FORM_FLAG, NULL, "print each step as it runs, with its time"},
    {OPT_DRY_RUN, "-###", FORM_FLAG, NULL, "print the steps (shell-quoted) and run nothing"},
    {OPT_SAVE_TEMPS, "--save-temps", FORM_FLAG, NULL, "keep intermediate files (PTX, cubins, hsacos, objects)"},
    {OPT_HELP, "--help", FORM_FLAG, NULL, "show this help"},
    {OPT_VERSION, "--version", FORM_FLAG, NULL, "show the version"},
};

void options_print_help(const char *argv0) {
  printf("usage: %s [options] <inputs...>\n\n", argv0);
  printf("Compiles MLIR GPU-dialect programs (.mlir, .mlirbc) into executables that carry\n"
         "device code for several NVIDIA and AMD GPUs and pick the right one at run time.\n"
         "C sources (.c) go to the system C compiler; .o, .a and .so files to the linker.\n\n"
         "options:\n");
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    char left[64];
    const struct opt_spec *s = &table[i];
    snprintf(left, sizeof left, "%s%s%s", s->name,
             s->form == FORM_EQUALS ? "=" : s->form == FORM_SEPARATE ? " " : "", s->meta ? s->meta : "");
    printf("  %-24s %s\n", left, s->help);
  }
  printf("\ndefault targets: %s\nknown targets: ", target_default_list);
  target_print_known(stdout);
  printf("\nexit status: 0 success, 1 compile or tool failure, 2 usage error, 130 interrupted\n");
}

static int add_input(struct options *o, enum input_kind kind, const char *arg) {
  struct input *n = realloc(o->inputs, (o->ninputs + 1) * sizeof *n);
  if (!n)
    BUG("out of memory");
  o->inputs = n;
  o->inputs[o->ninputs++] = (struct input){kind, arg};
  return 0;
}

static int add_targets(struct options *o, const char *list) {
  char *copy = strdup(list);
  if (!copy)
    BUG("out of memory");
  int rc = 0;
  for (char *save, *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
    struct target t;
    if (target_parse(tok, &t) != 0) {
      rc = -1;
      break;
    }
    int dup = 0;
    for (size_t i = 0; i < o->ntargets; i++)
      dup |= strcmp(o->targets[i].id, t.id) == 0;
    if (dup)
      continue;
    struct target *n = realloc(o->targets, (o->ntargets + 1) * sizeof *n);
    if (!n)
      BUG("out of memory");
    o->targets = n;
    o->targets[o->ntargets++] = t;
  }
  if (rc == 0 && !*list)
    rc = diag_error("--offload-arch needs at least one target");
  free(copy);
  return rc;
}

static const char *suffix_of(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *dot = strrchr(slash ? slash : path, '.');
  return dot ? dot : "";
}

static int classify(struct options *o, const char *path) {
  const char *sfx = suffix_of(path);
  if (!strcmp(sfx, ".mlir") || !strcmp(sfx, ".mlirbc"))
    return add_input(o, INPUT_MLIR, path);
  if (!strcmp(sfx, ".c"))
    return add_input(o, INPUT_C, path);
  if (!strcmp(sfx, ".o") || !strcmp(sfx, ".a") || !strcmp(sfx, ".so") || strstr(path, ".so."))
    return add_input(o, INPUT_LINKER, path);
  return diag_error("'%s': unknown file type (expected .mlir, .mlirbc, .c, .o, .a or .so)", path);
}

static int apply(struct options *o, const struct opt_spec *s, const char *val) {
  switch (s->id) {
  case OPT_OUTPUT: o->output = val; return 0;
  case OPT_COMPILE: o->mode = MODE_COMPILE; return 0;
  case OPT_OPT:
    if (val[0] == '\0')
      o->opt_level = 1; /* -O means -O1, as in gcc */
    else if (val[1] == '\0' && val[0] >= '0' && val[0] <= '3')
      o->opt_level = val[0] - '0';
    else
      return diag_error("invalid optimization level '-O%s' (expected -O0, -O1, -O2 or -O3)", val);
    return 0;
  case OPT_OFFLOAD_ARCH: return add_targets(o, val);
  case OPT_CUDA_PATH: o->cuda_path = val; return 0;
  case OPT_ROCM_PATH: o->rocm_path = val; return 0;
  case OPT_LIB:
  case OPT_LIBDIR: {
    size_t n = strlen(val) + 3;
    char *a = malloc(n);
    if (!a)
      BUG("out of memory");
    snprintf(a, n, "%s%s", s->id == OPT_LIB ? "-l" : "-L", val);
    return add_input(o, INPUT_LINKER, a);
  }
  case OPT_WL: {
    size_t n = strlen(val) + 5;
    char *a = malloc(n);
    if (!a)
      BUG("out of memory");
    snprintf(a, n, "-Wl,%s", val);
    return add_input(o, INPUT_LINKER, a);
  }
  case OPT_WERROR: o->werror = 1; return 0;
  case OPT_VERBOSE: o->verbose = 1; return 0;
  case OPT_DRY_RUN: o->dry_run = 1; return 0;
  case OPT_SAVE_TEMPS: o->save_temps = 1; return 0;
  case OPT_HELP: o->print_help = 1; return 0;
  case OPT_VERSION: o->print_version = 1; return 0;
  }
  return 0;
}

int options_parse(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->opt_level = 2;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] == '\0') {
      if (a[0] == '-')
        return diag_error("reading from stdin ('-') is not supported yet");
      if (classify(o, a) != 0)
        return -1;
      continue;
    }
    const struct opt_spec *match = NULL;
    const char *val = NULL;
    for (size_t k = 0; k < sizeof table / sizeof table[0] && !match; k++) {
      const struct opt_spec *s = &table[k];
      size_t n = strlen(s->name);
      switch (s->form) {
      case FORM_FLAG:
        if (!strcmp(a, s->name))
          match = s;
        break;
      case FORM_JOINED:
        if (!strncmp(a, s->name, n))
          match = s, val = a + n;
        break;
      case FORM_EQUALS:
        if (!strncmp(a, s->name, n) && a[n] == '=')
          match = s, val = a + n + 1;
        else if (!strcmp(a, s->name)) {
          if (i + 1 >= argc)
            return diag_error("missing argument to '%s'", a);
          match = s, val = argv[++i];
        }
        break;
      case FORM_SEPARATE:
        if (!strcmp(a, s->name)) {
          if (i + 1 >= argc)
            return diag_error("missing argument to '%s'", a);
          match = s, val = argv[++i];
        } else if (!strncmp(a, s->name, n) && n == 2) {
          match = s, val = a + n;
        }
        break;
      }
    }
    if (!match)
      return diag_error("unknown option '%s' (see 'gpucc --help')", a);
    if (apply(o, match, val) != 0)
      return -1;
  }
  return 0;
}

void options_free(struct options *o) {
  free(o->targets);
  free(o->inputs);
}
