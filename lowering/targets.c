/* targets.c: the target table and target-id parsing; see targets.h.
 *
 * The PTX column is the minimum PTX ISA version LLVM's NVPTX backend accepts
 * for each chip. Asking for exactly that version (instead of the backend's
 * +ptx60 pipeline default, which is a fatal error for sm_90) keeps the PTX
 * loadable by the oldest ptxas and driver that support the chip. */
#include "targets.h"

#include "diag.h"
#include "target_kinds.h"

#include <stdlib.h>
#include <string.h>

#define X TARGET_FEATURE_XNACK
#define S TARGET_FEATURE_SRAMECC

#define NV &target_kind_nvidia
#define AMD &target_kind_amd

static const struct target_info table[] = {
    {"sm_75", NV, 63, 0},   {"sm_80", NV, 70, 0},   {"sm_86", NV, 71, 0},
    {"sm_87", NV, 74, 0},   {"sm_89", NV, 78, 0},   {"sm_90", NV, 78, 0},
    {"sm_90a", NV, 80, 0},  {"sm_100", NV, 86, 0},  {"sm_100a", NV, 86, 0},
    {"sm_120", NV, 87, 0},  {"sm_120a", NV, 87, 0},
    {"gfx900", AMD, 0, X},      {"gfx906", AMD, 0, X | S},  {"gfx908", AMD, 0, X | S},
    {"gfx90a", AMD, 0, X | S},  {"gfx942", AMD, 0, X | S},  {"gfx950", AMD, 0, X | S},
    {"gfx1030", AMD, 0, 0},     {"gfx1100", AMD, 0, 0},     {"gfx1101", AMD, 0, 0},
    {"gfx1102", AMD, 0, 0},     {"gfx1200", AMD, 0, 0},     {"gfx1201", AMD, 0, 0},
    {"host", &target_kind_host, 0, 0},
};

#undef NV
#undef AMD
#undef X
#undef S

const char *const target_default_list = "sm_80,sm_90,gfx90a,gfx942,host";

const struct target_kind *const target_kinds[] = {&target_kind_nvidia, &target_kind_amd,
                                                  &target_kind_host, NULL};

int target_stage_known(const char *name) {
  for (size_t i = 0; target_kinds[i]; i++) {
    const struct target_kind *k = target_kinds[i];
    if ((k->device_stage && !strcmp(k->device_stage, name)) ||
        (k->finished_stage && !strcmp(k->finished_stage, name)))
      return 1;
  }
  return 0;
}

char *target_all_list(void) {
  size_t n = 1;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    n += strlen(table[i].chip) + 1;
  char *s = malloc(n);
  if (!s)
    return NULL;
  s[0] = '\0';
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (i)
      strcat(s, ",");
    strcat(s, table[i].chip);
  }
  return s;
}

void target_print_known(FILE *out) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    fprintf(out, "%s%s", i ? ", " : "", table[i].chip);
  fputc('\n', out);
}

static int unknown_target(const char *spec) {
  diag_error("unknown target '%s' in --offload-arch", spec);
  fprintf(stderr, "gpucc: note: known targets: ");
  target_print_known(stderr);
  return -1;
}

/* Parses the ":feature+" / ":feature-" suffixes of a target id. */
static int parse_features(const char *spec, const char *rest,
                              const struct target_info *info, struct target *out) {
  int xnack = 0, sramecc = 0; /* 0 = any, '+' or '-' */
  while (*rest == ':') {
    rest++;
    const char *end = strchr(rest, ':');
    size_t len = end ? (size_t)(end - rest) : strlen(rest);
    if (len < 2 || (rest[len - 1] != '+' && rest[len - 1] != '-'))
      return diag_error("invalid target id '%s': feature must end in '+' or '-'", spec);
    char sign = rest[len - 1];
    if (len - 1 == 5 && strncmp(rest, "xnack", 5) == 0 && (info->features & TARGET_FEATURE_XNACK))
      xnack = sign;
    else if (len - 1 == 7 && strncmp(rest, "sramecc", 7) == 0 &&
             (info->features & TARGET_FEATURE_SRAMECC))
      sramecc = sign;
    else
      return diag_error("invalid target id '%s': '%.*s' does not support feature '%.*s'", spec,
                        (int)strlen(info->chip), info->chip, (int)(len - 1), rest);
    rest += len;
  }
  /* Canonical order is alphabetical, as in LLVM's target ids. */
  snprintf(out->id, sizeof out->id, "%s%s%s%s%s", info->chip,
           sramecc ? ":sramecc" : "", sramecc ? (sramecc == '+' ? "+" : "-") : "",
           xnack ? ":xnack" : "", xnack ? (xnack == '+' ? "+" : "-") : "");
  out->features[0] = '\0';
  if (xnack)
    snprintf(out->features, sizeof out->features, "%cxnack", xnack);
  if (sramecc) {
    size_t n = strlen(out->features);
    snprintf(out->features + n, sizeof out->features - n, "%s%csramecc", n ? "," : "", sramecc);
  }
  return 0;
}

int target_parse(const char *spec, struct target *out) {
  memset(out, 0, sizeof *out);
  size_t chip_len = strcspn(spec, ":");
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    const struct target_info *info = &table[i];
    if (strlen(info->chip) != chip_len || strncmp(info->chip, spec, chip_len) != 0)
      continue;
    out->info = info;
    if (info->kind->takes_features)
      return parse_features(spec, spec + chip_len, info, out);
    if (spec[chip_len])
      return diag_error("invalid target id '%s': only AMD targets take ':' features", spec);
    snprintf(out->id, sizeof out->id, "%s", info->chip);
    if (info->ptx_version) /* the PTX ISA version the chip needs */
      snprintf(out->features, sizeof out->features, "+ptx%d", info->ptx_version);
    return 0;
  }
  return unknown_target(spec);
}
