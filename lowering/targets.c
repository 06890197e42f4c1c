/* targets.c: target-id parsing over the chips of every kind; see targets.h.
 * The chips are listed in their kinds' files, the kinds in target_list.c. */
#include "targets.h"

#include "diag.h"
#include "xstr.h"

#include <stdlib.h>
#include <string.h>

const char *const target_default_list = "sm_80,sm_90,gfx90a,gfx942,host";

/* Every chip, kind after kind (target_kinds in target_list.c), in order. */
#define FOR_EACH_CHIP(info)                                                                        \
  for (size_t k_ = 0; target_kinds[k_]; k_++)                                                      \
    for (const struct target_info *info = target_kinds[k_]->chips;                                 \
         info < target_kinds[k_]->chips + target_kinds[k_]->nchips; info++)

int target_stage_known(const char *name) {
  for (size_t i = 0; target_kinds[i]; i++) {
    const struct target_kind *k = target_kinds[i];
    if ((k->device_stage && !strcmp(k->device_stage, name)) ||
        (k->finished_stage && !strcmp(k->finished_stage, name)))
      return 1;
  }
  return 0;
}

char *target_stage_list(void) {
  char *list = xasprintf("%s", "");
  for (size_t i = 0; target_kinds[i]; i++) {
    const char *stages[] = {target_kinds[i]->device_stage, target_kinds[i]->finished_stage};
    for (size_t j = 0; j < 2; j++) {
      if (!stages[j])
        continue;
      char *more = xasprintf("%s%s%s", list, list[0] ? ", " : "", stages[j]);
      free(list);
      list = more;
    }
  }
  return list;
}

/* Every chip, or (for "all") those of the kinds "all" takes. */
static char *chip_list(int for_all) {
  size_t n = 1;
  FOR_EACH_CHIP(info)
  n += strlen(info->chip) + 1;
  char *s = malloc(n);
  if (!s)
    return NULL;
  s[0] = '\0';
  FOR_EACH_CHIP(info) {
    if (for_all && info->kind->outside_all)
      continue;
    if (s[0])
      strcat(s, ",");
    strcat(s, info->chip);
  }
  return s;
}

char *target_all_list(void) { return chip_list(1); }

char *target_known_list(void) { return chip_list(0); }

void target_print_known(FILE *out) {
  int first = 1;
  FOR_EACH_CHIP(info) {
    fprintf(out, "%s%s", first ? "" : ", ", info->chip);
    first = 0;
  }
  fputc('\n', out);
}

static int unknown_target(const char *spec) {
  diag_error("unknown target '%s' in --offload-arch", spec);
  fprintf(stderr, "gpucc: note: known targets: ");
  target_print_known(stderr);
  return -1;
}

int target_refuse_features(const char *spec, const struct target *t) {
  return diag_error("invalid target id '%s': %s targets take no ':' features", spec,
                    t->info->kind->name);
}

int target_parse(const char *spec, struct target *out) {
  memset(out, 0, sizeof *out);
  size_t chip_len = strcspn(spec, ":");
  FOR_EACH_CHIP(info) {
    if (strlen(info->chip) != chip_len || strncmp(info->chip, spec, chip_len) != 0)
      continue;
    out->info = info;
    snprintf(out->id, sizeof out->id, "%s", info->chip);
    if (info->kind->parse_features)
      return info->kind->parse_features(spec, spec + chip_len, out);
    return spec[chip_len] ? target_refuse_features(spec, out) : 0;
  }
  return unknown_target(spec);
}
