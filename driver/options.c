/* options.c: the option table, the parser and --help; see options.h. */
#include "options.h"

#include "diag.h"
#include "environment.h"
#include "fatbin.h"
#include "lowering.h"
#include "native.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUCC_VERSION
#define GPUCC_VERSION "0.0.0"
#endif

enum opt_id {
  OPT_OUTPUT, OPT_COMPILE, OPT_ASM, OPT_EMIT, OPT_OPT, OPT_DEBUG, OPT_OFFLOAD_ARCH, OPT_VERBOSE,
  OPT_DRY_RUN, OPT_SAVE_TEMPS, OPT_KIND_OPTIONS, OPT_LIB, OPT_LIBDIR, OPT_WL,
  OPT_XLINKER, OPT_SHARED, OPT_FPIC, OPT_LANG, OPT_MD, OPT_MMD, OPT_MF, OPT_MT,
  OPT_JOBS, OPT_COLOR, OPT_COLOR_FLAG, OPT_NO_COLOR, OPT_NO_CACHE, OPT_WERROR, OPT_HELP,
  OPT_VERSION, OPT_DEVICE_ONLY, OPT_BUNDLE, OPT_COMPRESS, OPT_MAN, OPT_GPUCC_RT, OPT_FP_CONTRACT,
  OPT_FMAD,
  OPT_LIST_GPU_ARCH, OPT_PRINT_FILE_NAME, OPT_CACHE_STATS, OPT_CACHE_CLEAR, OPT_CACHE_ZERO_STATS,
  OPT_NO_CARET,
  OPT_RUNTIME_VERIFICATION,
  OPT_ENTRY,
  OPT_ENTRY_RESULT,
  OPT_DUMP_VERSION,
  OPT_SYNTAX_ONLY,
  OPT_SAVE_TEMPS_GCC,
  OPT_TIME_REPORT,
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
    {OPT_ASM, "-S", FORM_FLAG, NULL, "write the host LLVM IR (<input>.ll), like --emit=llvm"},
    {OPT_EMIT, "--emit", FORM_EQUALS, "<stage>", NULL /* help_of: the kinds' stages */},
    {OPT_OPT, "-O", FORM_JOINED, "<0-3>",
     "optimization level for host and device code (default -O2 for host code, -O3 for device code, as the GPU vendors' compilers)"},
    {OPT_DEBUG, "-g", FORM_FLAG, NULL, "line information in host and device code"},
    {OPT_OFFLOAD_ARCH, "--offload-arch", FORM_EQUALS, "<list>",
     "targets, comma separated, repeatable: sm_XX, sm_XXa, gfxXXX, gfxXXX:xnack-, host, native, all"},
    {OPT_FP_CONTRACT, "-ffp-contract", FORM_EQUALS, "<mode>",
     "fuse floating-point multiply and add: fast (any), on (within an expression), off; "
     "default fast in device code, on in host code"},
    {OPT_FMAD, "-fmad", FORM_EQUALS, "<bool>", "nvcc's spelling: -fmad=false is -ffp-contract=off, -fmad=true fast"},
    /* Before -e, which takes its value joined too (-eNAME). */
    {OPT_ENTRY_RESULT, "--entry-point-result", FORM_EQUALS, "<type>",
     "what the -e function returns: void, i32, i64 or f32; the program prints the value, as mlir-runner"},
    {OPT_ENTRY_RESULT, "-entry-point-result", FORM_EQUALS, "<type>", "the same (mlir-runner's spelling)"},
    {OPT_ENTRY, "-e", FORM_SEPARATE, "<function>",
     "start the program in <function> (no arguments), as mlir-runner -e does; the program's own main is not used"},
    {OPT_ENTRY, "--entry", FORM_EQUALS, "<function>", "the same as -e"},
    {OPT_RUNTIME_VERIFICATION, "-fsanitize", FORM_EQUALS, "bounds",
     "check memref and tensor ops at run time (bounds, casts, alignment), as MLIR's "
     "-generate-runtime-verification: a failed check prints the op and where it is, and aborts "
     "(in a kernel: fails the launch, as a device assert)"},
    {OPT_SHARED, "-shared", FORM_FLAG, NULL, "link a shared library (it carries its GPU code)"},
    {OPT_FPIC, "-fPIC", FORM_FLAG, NULL, "accepted for compatibility: gpucc's code is always position-independent"},
    {OPT_LANG, "-x", FORM_SEPARATE, "<lang>", "treat the following inputs as <lang>: mlir, c, or none (by suffix)"},
    /* Here the options of the kinds' tools (struct kind_option), kind
     * after kind: --cuda-path, -Xptxas, --rocm-path. */
    {OPT_KIND_OPTIONS, "", FORM_FLAG, NULL, NULL},
    {OPT_LIBDIR, "-L", FORM_SEPARATE, "<dir>", "add <dir> to the linker's search path"},
    {OPT_LIB, "-l", FORM_SEPARATE, "<lib>", "link with library <lib>"},
    {OPT_WL, "-Wl,", FORM_JOINED, "<args>", "pass comma-separated <args> to the linker"},
    {OPT_XLINKER, "-Xlinker", FORM_SEPARATE, "<arg>", "pass <arg> to the linker"},
    {OPT_MD, "-MD", FORM_FLAG, NULL, "write a depfile (Make/Ninja syntax) while compiling"},
    {OPT_MMD, "-MMD", FORM_FLAG, NULL, "same as -MD (MLIR inputs have no system headers)"},
    {OPT_MF, "-MF", FORM_SEPARATE, "<file>", "name of the depfile (default: the output with .d)"},
    {OPT_MT, "-MT", FORM_SEPARATE, "<target>", "target named in the depfile (default: the output); repeatable, as gcc's"},
    {OPT_JOBS, "-j", FORM_SEPARATE, "<n>",
     "run up to <n> device jobs at once (default: number of cores); under make -jN, each job beyond "
     "the first also takes a token of make's jobserver (MAKEFLAGS --jobserver-auth), so that the "
     "whole build runs N"},
    {OPT_NO_CACHE, "--no-cache", FORM_FLAG, NULL, "do not use the device object cache ($GPUCC_CACHE_DIR)"},
    {OPT_CACHE_STATS, "--cache-stats", FORM_FLAG, NULL,
     "print the cache's statistics (hits, local and remote, misses), entries and size on disk, as ccache -s"},
    {OPT_CACHE_CLEAR, "--cache-clear", FORM_FLAG, NULL, "remove every entry of the cache, as ccache -C"},
    {OPT_CACHE_ZERO_STATS, "--cache-zero-stats", FORM_FLAG, NULL, "zero the cache's statistics, as ccache -z"},
    {OPT_DEVICE_ONLY, "--device-only", FORM_FLAG, NULL,
     "with -c: write only the device objects of the given targets (<output>.gpucc-device)"},
    {OPT_BUNDLE, "--bundle", FORM_FLAG, NULL,
     "with -c: take device objects from .gpucc-device inputs instead of compiling them"},
    {OPT_COMPRESS, "--fatbin-compress", FORM_EQUALS, "<mode>", "fat binary compression: none, fast (default), size"},
    {OPT_GPUCC_RT, "--gpucc-rt", FORM_EQUALS, "<kind>",
     "runtime to link: static (default for executables: they need only the C library) or shared (default with -shared)"},
    {OPT_COLOR, "-fdiagnostics-color", FORM_EQUALS, "<when>", "color diagnostics: auto (default), always, never"},
    {OPT_COLOR_FLAG, "-fdiagnostics-color", FORM_FLAG, NULL, "same as -fdiagnostics-color=always"},
    {OPT_NO_COLOR, "-fno-diagnostics-color", FORM_FLAG, NULL, "same as -fdiagnostics-color=never"},
    {OPT_NO_CARET, "-fno-caret-diagnostics", FORM_FLAG, NULL,
     "print located messages without their source line and caret"},
    {OPT_WERROR, "-Werror", FORM_FLAG, NULL, "treat warnings as errors"},
    {OPT_VERBOSE, "-v", FORM_FLAG, NULL,
     "print each step as it runs, with its time (without -v, when stderr is a terminal, one status "
     "line shows the jobs done: [5/18] sm_90 kernels)"},
    {OPT_DRY_RUN, "-###", FORM_FLAG, NULL, "print the steps (shell-quoted) and run nothing"},
    {OPT_SAVE_TEMPS, "--save-temps", FORM_FLAG, NULL,
     "keep intermediate files (each target's device code and objects) in the temp directory, and print where it is"},
    {OPT_SAVE_TEMPS_GCC, "-save-temps", FORM_FLAG, NULL,
     "as gcc: copy the intermediate files into the current directory, named after the output (the "
     "object with -c), gpu.module and target: prog-kernels-<target>.<stage> for each stage of the "
     "target's device code, prog-kernels.gpucc-fatbin, prog.host.o"},
    {OPT_SAVE_TEMPS_GCC, "-save-temps", FORM_EQUALS, "<where>",
     "cwd: the same as -save-temps; obj: beside the output file"},
    {OPT_TIME_REPORT, "-ftime-report", FORM_FLAG, NULL,
     "at the end, print the wall and CPU time of each stage (parsing, device code per target, "
     "tools, host code, bundling, link) to stderr"},
    {OPT_SYNTAX_ONLY, "-fsyntax-only", FORM_FLAG, NULL,
     "only read and check the inputs (parse, verify, what the targets cannot compile): no output"},
    {OPT_HELP, "--help", FORM_FLAG, NULL, "show this help"},
    {OPT_VERSION, "--version", FORM_FLAG, NULL, "show the version"},
    {OPT_DUMP_VERSION, "-dumpversion", FORM_FLAG, NULL, "print the version number alone, as gcc"},
    {OPT_LIST_GPU_ARCH, "--list-gpu-arch", FORM_FLAG, NULL,
     "print the targets --offload-arch takes, one per line, as nvcc"},
    {OPT_PRINT_FILE_NAME, "-print-file-name", FORM_EQUALS, "<file>",
     "print the full path of a file gpucc links with (libgpucc_rt.a, libgpucc_rt.so), or <file> "
     "alone when it has none, as gcc"},
    {OPT_MAN, "--print-man-page", FORM_FLAG, NULL, "write this documentation as a man page (roff)"},
};

/* How a kind's option takes its value, in the table's terms. */
static enum opt_form kind_form(const struct kind_option *ko) {
  return ko->separate ? FORM_SEPARATE : FORM_EQUALS;
}

static void help_line(const char *name, enum opt_form form, const char *meta, const char *help) {
  char left[64];
  snprintf(left, sizeof left, "%s%s%s", name,
           form == FORM_EQUALS ? "=" : form == FORM_SEPARATE ? " " : "", meta ? meta : "");
  printf("  %-24s %s\n", left, help);
}

/* The kinds that have GPUs (devices to ask for --offload-arch=native), by
 * name: "NVIDIA and AMD", for the help's first lines. */
static void gpu_vendors(char *buf, size_t size) {
  size_t n = 0, i = 0, len = 0;
  buf[0] = '\0';
  for (size_t k = 0; target_kinds[k]; k++)
    n += target_kinds[k]->native_probe != NULL;
  for (size_t k = 0; target_kinds[k] && len < size; k++) {
    if (!target_kinds[k]->native_probe)
      continue;
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
                            target_kinds[k]->name);
    i++;
  }
}

/* An option's help text; --emit's names the kinds' stages. */
static const char *help_of(const struct opt_spec *s) {
  static char emit[256];
  if (s->id != OPT_EMIT)
    return s->help;
  char *stages = target_stage_list();
  snprintf(emit, sizeof emit, "write one stage: mlir-host, mlir-device, llvm, %s, fatbin, obj", stages);
  free(stages);
  return emit;
}

void options_print_help(const char *argv0) {
  printf("usage: %s [options] <inputs...>\n\n", argv0);
  char vendors[256];
  gpu_vendors(vendors, sizeof vendors);
  printf("Compiles MLIR GPU-dialect programs (.mlir, .mlirbc) into executables that carry\n"
         "device code for several %s GPUs and pick the right one at run time.\n"
         "C sources (.c) go to the system C compiler; .o, .a and .so files to the linker.\n\n"
         "options:\n", vendors);
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    const struct opt_spec *s = &table[i];
    if (s->id == OPT_COLOR_FLAG)
      continue; /* shown with its =<when> form */
    if (s->id != OPT_KIND_OPTIONS) {
      help_line(s->name, s->form, s->meta, help_of(s));
      continue;
    }
    for (size_t k = 0; target_kinds[k]; k++)
      for (size_t j = 0; j < target_kinds[k]->noptions; j++) {
        const struct kind_option *ko = &target_kinds[k]->options[j];
        help_line(ko->name, kind_form(ko), ko->meta, ko->help);
      }
  }
  printf("\ndefault targets: %s\nknown targets: ", target_default_list);
  target_print_known(stdout);
  printf("\nexit status: 0 success, 1 compile or tool failure, 2 usage error, 130 interrupted\n");
}

/* roff needs backslashes and leading dashes escaped. */
static void man_text(const char *s) {
  for (; *s; s++) {
    if (*s == '\\')
      fputs("\\e", stdout);
    else if (*s == '-')
      fputs("\\-", stdout);
    else
      putchar(*s);
  }
}

static void man_option(const char *name, enum opt_form form, const char *meta, const char *help) {
  printf(".TP\n.B ");
  man_text(name);
  if (meta) {
    printf("%s\\fI", form == FORM_EQUALS ? "=" : form == FORM_SEPARATE ? " " : "");
    man_text(meta);
    printf("\\fR");
  }
  printf("\n");
  man_text(help);
  printf("\n");
}

static void man_variable(const char *name, const char *what) {
  printf(".TP\n.B ");
  man_text(name);
  printf("\n");
  man_text(what);
  printf("\n");
}

/* GPUCC_BACKEND: its values are the kinds' runtime backends. */
static void man_backend_variable(const char *name) {
  printf(".TP\n.B ");
  man_text(name);
  printf("\nrun on this backend only: ");
  size_t n = 0, i = 0;
  for (size_t k = 0; target_kinds[k]; k++)
    n += target_kinds[k]->backend != NULL;
  for (size_t k = 0; target_kinds[k]; k++) {
    if (!target_kinds[k]->backend)
      continue;
    printf("%s", i == 0 ? "" : i + 1 == n ? " or " : ", ");
    man_text(target_kinds[k]->backend);
    i++;
  }
  printf(" (default: the first of them that finds a device)\n");
}

void options_print_man(void) {
  printf(".TH GPUCC 1 \"\" \"gpucc %s\" \"User Commands\"\n", GPUCC_VERSION);
  char vendors[256];
  gpu_vendors(vendors, sizeof vendors);
  printf(".SH NAME\ngpucc \\- compile MLIR GPU\\-dialect programs into executables for ");
  man_text(vendors);
  printf(" GPUs and the CPU\n");
  printf(".SH SYNOPSIS\n.B gpucc\n[\\fIoptions\\fR] \\fIinputs\\fR...\n");
  printf(".SH DESCRIPTION\n");
  printf("gpucc compiles .mlir and .mlirbc inputs that use the GPU dialect. Every gpu.module is "
         "compiled for each target and bundled into one fat binary embedded in the output; the "
         "program links against libgpucc_rt, which picks the object that fits the device found at "
         "run time (or runs the kernels on the CPU). C sources go to the system C compiler; .o, .a "
         "and .so files go to the linker.\n");
  printf(".SH OPTIONS\n");
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    const struct opt_spec *s = &table[i];
    if (s->id == OPT_COLOR_FLAG)
      continue;
    if (s->id != OPT_KIND_OPTIONS) {
      man_option(s->name, s->form, s->meta, help_of(s));
      continue;
    }
    for (size_t k = 0; target_kinds[k]; k++)
      for (size_t j = 0; j < target_kinds[k]->noptions; j++) {
        const struct kind_option *ko = &target_kinds[k]->options[j];
        man_option(ko->name, kind_form(ko), ko->meta, ko->help);
      }
  }
  printf(".TP\n.BI @ file\n.TQ\n.BI \\-\\-options\\-file \" \" file\n");
  printf("read more arguments from the file: separated by white space, with quotes and "
         "backslashes as in a shell word; files may name other files\n");
  printf(".SH TARGETS\nDefault: ");
  man_text(target_default_list);
  printf(".\n");
  printf(".SH ENVIRONMENT\n");
  for (size_t i = 0; i < environment_variable_count; i++) {
    const struct environment_variable *v = &environment_variables[i];
    if (!v->name) /* the kinds' own go here */
      for (size_t k = 0; target_kinds[k]; k++)
        for (size_t j = 0; j < target_kinds[k]->nenvironment; j++)
          man_variable(target_kinds[k]->environment[j].name, target_kinds[k]->environment[j].what);
    else if (v->what)
      man_variable(v->name, v->what);
    else
      man_backend_variable(v->name);
  }
  printf(".SH EXIT STATUS\n0 success, 1 compile or tool failure, 2 usage error, 130 interrupted.\n");
  printf(".SH SEE ALSO\n.BR gpucc\\-fatbin (1)\n");
}

static int add_input(struct options *o, enum input_kind kind, const char *arg) {
  struct input *n = realloc(o->inputs, (o->ninputs + 1) * sizeof *n);
  if (!n)
    BUG("out of memory");
  o->inputs = n;
  o->inputs[o->ninputs++] = (struct input){kind, arg};
  return 0;
}

static int add_targets(struct options *o, const char *list);

static int add_targets(struct options *o, const char *list) {
  char *copy = strdup(list);
  if (!copy)
    BUG("out of memory");
  int rc = 0;
  for (char *save, *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
    if (!strcmp(tok, "all") || !strcmp(tok, "native")) {
      char *expanded = !strcmp(tok, "all") ? target_all_list() : native_arch_list();
      rc = expanded ? add_targets(o, expanded) : -1;
      free(expanded);
      continue;
    }
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

/* The language forced by -x, or NULL for "by suffix". */
static const char *forced_lang;

static int classify(struct options *o, const char *path) {
  if (forced_lang && !strcmp(forced_lang, "mlir"))
    return add_input(o, INPUT_MLIR, path);
  if (forced_lang && !strcmp(forced_lang, "c"))
    return add_input(o, INPUT_C, path);
  if (!strcmp(path, "-"))
    return diag_error("reading from standard input ('-') needs '-x mlir'");
  const char *sfx = suffix_of(path);
  if (!strcmp(sfx, ".mlir") || !strcmp(sfx, ".mlirbc"))
    return add_input(o, INPUT_MLIR, path);
  if (!strcmp(sfx, ".c"))
    return add_input(o, INPUT_C, path);
  if (!strcmp(sfx, ".gpucc-device"))
    return add_input(o, INPUT_DEVICE, path);
  if (!strcmp(sfx, ".o") || !strcmp(sfx, ".a") || !strcmp(sfx, ".so") || strstr(path, ".so."))
    return add_input(o, INPUT_LINKER, path);
  return diag_error("'%s': unknown file type (expected .mlir, .mlirbc, .c, .o, .a, .so or "
                    ".gpucc-device)", path);
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
    o->opt_given = 1;
    return 0;
  case OPT_OFFLOAD_ARCH: return add_targets(o, val);
  case OPT_KIND_OPTIONS: return 0; /* matched as the kinds' own (match_kind_option) */
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
  case OPT_ASM: o->mode = MODE_EMIT; o->emit = EMIT_LLVM; return 0;
  case OPT_EMIT: {
    /* In enum emit_stage order; EMIT_TARGET's stages come from the target
     * kinds (targets.h). */
    static const char *const names[] = {"", "mlir-host", "mlir-device", "llvm", "",
                                        "fatbin", "obj"};
    for (int k = 1; k < (int)(sizeof names / sizeof names[0]); k++)
      if (names[k][0] && !strcmp(val, names[k])) {
        o->emit = (enum emit_stage)k;
        o->mode = k == EMIT_OBJ ? MODE_COMPILE : MODE_EMIT;
        return 0;
      }
    if (target_stage_known(val)) {
      o->emit = EMIT_TARGET;
      o->emit_stage = val;
      o->mode = MODE_EMIT;
      return 0;
    }
    char *stages = target_stage_list();
    diag_error("unknown stage '--emit=%s' (expected mlir-host, mlir-device, llvm, %s, fatbin or "
               "obj)", val, stages);
    free(stages);
    return -1;
  }
  case OPT_DEBUG: o->debug_info = 1; return 0;
  case OPT_FP_CONTRACT:
    for (int c = FP_CONTRACT_FAST; c <= FP_CONTRACT_OFF; c++)
      if (!strcmp(val, options_contract_name(c))) {
        o->fp_contract = c;
        return 0;
      }
    return diag_error("invalid argument '%s' to -ffp-contract= (expected fast, on or off)", val);
  case OPT_FMAD:
    if (!strcmp(val, "true"))
      o->fp_contract = FP_CONTRACT_FAST;
    else if (!strcmp(val, "false"))
      o->fp_contract = FP_CONTRACT_OFF;
    else
      return diag_error("invalid argument '%s' to -fmad= (expected true or false)", val);
    return 0;
  case OPT_RUNTIME_VERIFICATION:
    if (strcmp(val, "bounds"))
      return diag_error("unsupported argument '%s' to -fsanitize= (gpucc has bounds: MLIR's "
                        "run-time op verification)", val);
    o->runtime_verification = 1;
    return 0;
  case OPT_ENTRY: o->entry = val; return 0;
  case OPT_ENTRY_RESULT:
    if (strcmp(val, "void") && strcmp(val, "i32") && strcmp(val, "i64") && strcmp(val, "f32"))
      return diag_error("invalid argument '%s' to --entry-point-result= (expected void, i32, i64 or "
                        "f32)", val);
    o->entry_result = val;
    return 0;
  case OPT_SHARED: o->shared = 1; return 0;
  case OPT_FPIC: return 0;
  case OPT_LANG:
    if (!strcmp(val, "none"))
      forced_lang = NULL;
    else if (!strcmp(val, "mlir") || !strcmp(val, "c"))
      forced_lang = val;
    else
      return diag_error("unknown language '-x %s' (expected mlir, c or none)", val);
    return 0;
  case OPT_XLINKER:
    add_input(o, INPUT_LINKER, "-Xlinker");
    return add_input(o, INPUT_LINKER, val);
  case OPT_MD:
  case OPT_MMD: o->depfile = 1; return 0;
  case OPT_MF: o->dep_output = val; return 0;
  case OPT_MT: {
    const char **n = realloc(o->dep_targets, (o->ndep_targets + 1) * sizeof *n);
    if (!n)
      BUG("out of memory");
    o->dep_targets = n;
    o->dep_targets[o->ndep_targets++] = val;
    return 0;
  }
  case OPT_JOBS: {
    char *end;
    long n = strtol(val, &end, 10);
    if (*end || n < 1 || n > 1024)
      return diag_error("invalid job count '-j %s' (expected 1 to 1024)", val);
    o->jobs = (int)n;
    return 0;
  }
  case OPT_NO_CACHE: o->use_cache = 0; return 0;
  case OPT_DEVICE_ONLY: o->device_only = 1; return 0;
  case OPT_BUNDLE: o->bundle = 1; return 0;
  case OPT_COMPRESS: {
    enum fatbin_compress c;
    if (fatbin_compress_parse(val, &c) != 0)
      return diag_error("invalid argument '%s' to --fatbin-compress= (expected none, fast or size)", val);
    o->fatbin_compress = (int)c;
    return 0;
  }
  case OPT_GPUCC_RT:
    if (!strcmp(val, "static"))
      o->gpucc_rt = GPUCC_RT_STATIC;
    else if (!strcmp(val, "shared"))
      o->gpucc_rt = GPUCC_RT_SHARED;
    else
      return diag_error("invalid argument '%s' to --gpucc-rt= (expected static or shared)", val);
    return 0;
  case OPT_COLOR:
    if (!strcmp(val, "auto"))
      o->color = COLOR_AUTO;
    else if (!strcmp(val, "always"))
      o->color = COLOR_ALWAYS;
    else if (!strcmp(val, "never"))
      o->color = COLOR_NEVER;
    else
      return diag_error("invalid argument '%s' to -fdiagnostics-color= (expected auto, always or never)", val);
    return 0;
  case OPT_COLOR_FLAG: o->color = COLOR_ALWAYS; return 0;
  case OPT_NO_COLOR: o->color = COLOR_NEVER; return 0;
  case OPT_WERROR: o->werror = 1; return 0;
  case OPT_VERBOSE: o->verbose = 1; return 0;
  case OPT_DRY_RUN: o->dry_run = 1; return 0;
  case OPT_SAVE_TEMPS: o->save_temps = 1; return 0;
  case OPT_SAVE_TEMPS_GCC:
    if (!val || !strcmp(val, "cwd"))
      o->save_temps_to = 1;
    else if (!strcmp(val, "obj"))
      o->save_temps_to = 2;
    else
      return diag_error("invalid argument '%s' to -save-temps= (expected cwd or obj)", val);
    return 0;
  case OPT_TIME_REPORT: o->time_report = 1; return 0;
  case OPT_HELP: o->print_help = 1; return 0;
  case OPT_MAN: o->print_man = 1; return 0;
  case OPT_VERSION: o->print_version = 1; return 0;
  case OPT_DUMP_VERSION: o->print_version = 2; return 0;
  case OPT_SYNTAX_ONLY: o->syntax_only = 1; return 0;
  case OPT_LIST_GPU_ARCH: o->list_gpu_arch = 1; return 0;
  case OPT_PRINT_FILE_NAME: o->print_file_name = val; return 0;
  case OPT_CACHE_STATS: o->cache_stats = 1; return 0;
  case OPT_CACHE_CLEAR: o->cache_clear = 1; return 0;
  case OPT_CACHE_ZERO_STATS: o->cache_zero_stats = 1; return 0;
  case OPT_NO_CARET: o->no_caret = 1; return 0;
  }
  return 0;
}

/* Edit distance between a and b (insertions, deletions, substitutions),
 * for "did you mean": option names are short, so the quadratic table is
 * small; names longer than 63 characters are never close. */
static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb) {
  size_t row[64];
  if (na >= 64 || nb >= 64)
    return (size_t)-1;
  for (size_t j = 0; j <= nb; j++)
    row[j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[nb];
}

/* The option name closest to `arg` (its part before '='), when it is close
 * enough to be a typo: at most a third of its length away, and at most 3. */
static const char *closest_option(const char *arg) {
  size_t n = strcspn(arg, "=");
  const char *best = NULL;
  size_t best_d = (size_t)-1;
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
    size_t d = edit_distance(arg, n, table[k].name, strlen(table[k].name));
    if (d < best_d && table[k].id != OPT_KIND_OPTIONS)
      best_d = d, best = table[k].name;
  }
  for (size_t k = 0; target_kinds[k]; k++)
    for (size_t j = 0; j < target_kinds[k]->noptions; j++) {
      const char *name = target_kinds[k]->options[j].name;
      size_t d = edit_distance(arg, n, name, strlen(name));
      if (d < best_d)
        best_d = d, best = name;
    }
  return best && best_d > 0 && best_d <= 3 && best_d * 3 <= n ? best : NULL;
}

/* Whether argv[*i] is option `name` taking its value as `form` says: 1
 * (*val set, *i past a separate value), 0, or -1 reported (no value). */
static int match_option(const char *name, enum opt_form form, int argc, char **argv, int *i,
                        const char **val) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  switch (form) {
  case FORM_FLAG:
    return !strcmp(a, name);
  case FORM_JOINED:
    if (strncmp(a, name, n))
      return 0;
    *val = a + n;
    return 1;
  case FORM_EQUALS:
    if (!strncmp(a, name, n) && a[n] == '=') {
      *val = a + n + 1;
      return 1;
    }
    if (strcmp(a, name) || name[1] != '-') /* "--opt value" */
      return 0;
    break;
  case FORM_SEPARATE:
    if (!strncmp(a, name, n) && n == 2 && a[n]) {
      *val = a + n;
      return 1;
    }
    if (strcmp(a, name))
      return 0;
    break;
  }
  if (*i + 1 >= argc)
    return diag_error("missing argument to '%s'", a);
  *val = argv[++*i];
  return 1;
}

/* Whether argv[*i] is one of the kinds' options; its value is kept for
 * the kind (o->kind_args). 1, 0 or -1 as match_option. */
static int match_kind_option(struct options *o, int argc, char **argv, int *i) {
  for (size_t k = 0; target_kinds[k]; k++)
    for (size_t j = 0; j < target_kinds[k]->noptions; j++) {
      const struct kind_option *ko = &target_kinds[k]->options[j];
      const char *val = NULL;
      int m = match_option(ko->name, kind_form(ko), argc, argv, i, &val);
      if (m < 0)
        return -1;
      if (m == 0)
        continue;
      struct kind_arg *n = realloc(o->kind_args, (o->nkind_args + 1) * sizeof *n);
      if (!n)
        BUG("out of memory");
      o->kind_args = n;
      o->kind_args[o->nkind_args++] = (struct kind_arg){ko, val};
      return 1;
    }
  return 0;
}

int options_parse(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->argc = argc;
  o->argv = argv;
  o->opt_level = 2;
  o->use_cache = 1;
  o->fp_contract = -1;
  /* "fast" by default: as small as "size" within a few percent on gpucc's
   * archives (the per-target objects are near-duplicates, which any zstd
   * level finds), at a tenth of the time. */
  o->fatbin_compress = FATBIN_COMPRESS_FAST;
  forced_lang = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] == '\0') {
      if (classify(o, a) != 0)
        return -1;
      continue;
    }
    const struct opt_spec *match = NULL;
    const char *val = NULL;
    for (size_t k = 0; k < sizeof table / sizeof table[0] && !match; k++) {
      const struct opt_spec *s = &table[k];
      int m = s->id == OPT_KIND_OPTIONS ? match_kind_option(o, argc, argv, &i)
                                        : match_option(s->name, s->form, argc, argv, &i, &val);
      if (m < 0)
        return -1;
      if (m > 0)
        match = s;
    }
    if (!match) {
      const char *near = closest_option(a);
      if (near)
        return diag_error("unknown option '%s'; did you mean '%s'?", a, near);
      return diag_error("unknown option '%s' (see 'gpucc --help')", a);
    }
    if (apply(o, match, val) != 0)
      return -1;
  }
  return 0;
}

int options_check(const struct options *o) {
  size_t nmlir = 0, ncompiled = 0, ndevice = 0;
  for (size_t i = 0; i < o->ninputs; i++) {
    nmlir += o->inputs[i].kind == INPUT_MLIR;
    ncompiled += o->inputs[i].kind == INPUT_MLIR || o->inputs[i].kind == INPUT_C;
    ndevice += o->inputs[i].kind == INPUT_DEVICE;
  }
  if (o->mode == MODE_COMPILE && o->output && ncompiled > 1)
    return diag_error("cannot specify -o with -c and several inputs");
  /* -c of several inputs writes one depfile per object, as gcc does: one
   * name or target for all of them would describe one object only. */
  if (o->mode == MODE_COMPILE && o->depfile && ncompiled > 1 && (o->dep_output || o->ndep_targets))
    return diag_error("cannot specify %s with -c and several inputs (each object gets its own "
                      "depfile)", o->dep_output ? "-MF" : "-MT");
  if ((o->device_only || o->bundle) && o->mode != MODE_COMPILE)
    return diag_error("%s needs -c", o->device_only ? "--device-only" : "--bundle");
  if (o->device_only && o->bundle)
    return diag_error("--device-only and --bundle cannot be combined");
  if (ndevice && !o->bundle)
    return diag_error(".gpucc-device inputs need --bundle");
  if (o->bundle && !ndevice)
    return diag_error("--bundle needs .gpucc-device inputs (from --device-only)");
  /* -c of C sources alone is cc's work, as gcc would do it. */
  if (o->mode != MODE_LINK && nmlir == 0 && !(o->mode == MODE_COMPILE && ncompiled))
    return diag_error("-S and --emit= need an MLIR input");
  return 0;
}

void options_free(struct options *o) {
  free(o->targets);
  free(o->inputs);
  free(o->kind_args);
  free(o->dep_targets);
}

const char *options_contract_name(int contract) {
  static const char *const names[] = {[FP_CONTRACT_FAST] = "fast", [FP_CONTRACT_ON] = "on",
                                      [FP_CONTRACT_OFF] = "off"};
  return names[contract];
}

int options_device_contract(const struct options *o) {
  return o->fp_contract < 0 ? FP_CONTRACT_FAST : o->fp_contract;
}

int options_host_contract(const struct options *o) {
  return o->fp_contract < 0 ? FP_CONTRACT_ON : o->fp_contract;
}

int options_device_opt(const struct options *o) { return o->opt_given ? o->opt_level : 3; }
