/* test_select.c: unit test of the object selection rules (runtime/select.c).
 *
 * Each case is an archive's contents, written as "format/target" words, a
 * device, and the entry that must be chosen ("" when nothing may run). No
 * driver, no fat binary: rt_select is a pure function. */
#include <stdio.h>
#include <string.h>

#include "select.h"
#include "select_cuda.h"
#include "select_hip.h"

static int failures;

#define EXPECT(cond)                                                              \
  do {                                                                            \
    if (!(cond)) {                                                                \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                      \
      failures++;                                                                 \
    }                                                                             \
  } while (0)

/* Builds entries from "cubin/sm_80 ptx/sm_80 hsaco/gfx90a:xnack- so/host". */
static size_t parse_archive(const char *spec, struct fatbin_entry *out, size_t max,
                            char storage[][48]) {
  size_t n = 0;
  char copy[512];
  snprintf(copy, sizeof copy, "%s", spec);
  for (char *w = strtok(copy, " "); w && n < max; w = strtok(NULL, " ")) {
    snprintf(storage[n], 48, "%s", w);
    char *slash = strchr(storage[n], '/');
    *slash = '\0';
    struct fatbin_entry *e = &out[n];
    memset(e, 0, sizeof *e);
    e->module = "m";
    e->target = slash + 1;
    e->data = "x";
    e->size = 1;
    fatbin_format_parse(storage[n], &e->format);
    e->vendor = strncmp(e->target, "sm_", 3) == 0   ? FATBIN_VENDOR_NVIDIA
                : strncmp(e->target, "gfx", 3) == 0 ? FATBIN_VENDOR_AMD
                                                    : FATBIN_VENDOR_HOST;
    n++;
  }
  return n;
}

static struct rt_device nvidia(int major, int minor) {
  struct rt_device d;
  memset(&d, 0, sizeof d);
  d.select = &rt_selection_cuda;
  snprintf(d.arch, sizeof d.arch, "sm_%d", major * 10 + minor);
  snprintf(d.target_id, sizeof d.target_id, "%s", d.arch);
  snprintf(d.name, sizeof d.name, "test GPU");
  return d;
}

/* target_id as the HIP runtime reports it: "gfx90a:sramecc+:xnack-". */
static struct rt_device amd(const char *target_id) {
  struct rt_device d;
  memset(&d, 0, sizeof d);
  d.select = &rt_selection_hip;
  struct rt_amd_target t;
  if (rt_parse_amd_target(target_id, &t) != 0)
    printf("bad test device %s\n", target_id);
  snprintf(d.arch, sizeof d.arch, "%s", t.processor);
  snprintf(d.target_id, sizeof d.target_id, "%s", target_id);
  return d;
}

/* Checks that on dev the archive yields `want` ("format/target", or "" for
 * nothing) and, if why_has is set, that the reason mentions it. */
static void check(int line, const char *archive, struct rt_device dev, const char *want,
                  const char *why_has) {
  struct fatbin_entry e[16];
  char storage[16][48];
  size_t n = parse_archive(archive, e, 16, storage);
  char why[512];
  long k = rt_select(e, n, &dev, why, sizeof why);
  char got[64] = "";
  if (k >= 0)
    snprintf(got, sizeof got, "%s/%s", fatbin_format_name(e[k].format), e[k].target);
  if (strcmp(got, want) != 0) {
    printf("FAIL line %d: on %s, [%s] chose '%s', expected '%s'\n", line, dev.target_id,
           archive, got, want);
    failures++;
  } else if (k < 0 && why[0]) {
    printf("FAIL line %d: a reason without a choice: %s\n", line, why);
    failures++;
  } else if (why_has && !strstr(why, why_has)) {
    printf("FAIL line %d: reason '%s' lacks '%s'\n", line, why, why_has);
    failures++;
  }
}
#define CHECK_SELECT(archive, dev, want, why) check(__LINE__, archive, dev, want, why)

static void test_nvidia(void) {
  const char *a = "cubin/sm_80 cubin/sm_86 cubin/sm_90 cubin/sm_90a ptx/sm_80 ptx/sm_90";
  /* Exact cubin; the arch-specific variant is preferred on its chip. */
  CHECK_SELECT(a, nvidia(9, 0), "cubin/sm_90a", "exact match for compute capability 9.0");
  CHECK_SELECT(a, nvidia(8, 6), "cubin/sm_86", "exact match");
  CHECK_SELECT(a, nvidia(8, 0), "cubin/sm_80", "exact match");
  /* Same major, lower minor: the newest such cubin. */
  CHECK_SELECT(a, nvidia(8, 9), "cubin/sm_86", "same major version");
  CHECK_SELECT(a, nvidia(8, 7), "cubin/sm_86", NULL);
  /* Nothing native: the newest PTX not newer than the device. */
  CHECK_SELECT(a, nvidia(10, 0), "ptx/sm_90", "JIT-compiled by the driver");
  CHECK_SELECT(a, nvidia(12, 0), "ptx/sm_90", NULL);
  /* Older than everything. */
  CHECK_SELECT(a, nvidia(7, 5), "", NULL);
  CHECK_SELECT(a, nvidia(5, 0), "", NULL);

  /* "a" variants run only on their exact chip, as cubin or PTX. */
  CHECK_SELECT("cubin/sm_90a ptx/sm_90a", nvidia(9, 0), "cubin/sm_90a", NULL);
  CHECK_SELECT("cubin/sm_90a ptx/sm_90a", nvidia(10, 0), "", NULL);
  CHECK_SELECT("cubin/sm_90a", nvidia(9, 1), "", NULL); /* no same-major for "a" */
  CHECK_SELECT("ptx/sm_90a", nvidia(9, 0), "ptx/sm_90a", NULL);
  CHECK_SELECT("cubin/sm_90a ptx/sm_80", nvidia(9, 0), "cubin/sm_90a", NULL);
  CHECK_SELECT("cubin/sm_90a ptx/sm_80", nvidia(10, 0), "ptx/sm_80", NULL);
  /* Plain and "a" at the same sm: "a" on its chip. */
  CHECK_SELECT("cubin/sm_90 cubin/sm_90a", nvidia(9, 0), "cubin/sm_90a", NULL);

  /* "f" (family) variants: same major, minor not newer. */
  CHECK_SELECT("cubin/sm_100f ptx/sm_100f", nvidia(10, 3), "cubin/sm_100f", NULL);
  CHECK_SELECT("cubin/sm_100f ptx/sm_100f", nvidia(10, 0), "cubin/sm_100f", "exact");
  CHECK_SELECT("cubin/sm_103f ptx/sm_103f", nvidia(10, 0), "", NULL);
  CHECK_SELECT("ptx/sm_100f", nvidia(12, 0), "", NULL);
  CHECK_SELECT("ptx/sm_100f", nvidia(10, 3), "ptx/sm_100f", NULL);

  /* A compatible cubin beats PTX, even newer PTX: no JIT at start-up. */
  CHECK_SELECT("cubin/sm_80 ptx/sm_86", nvidia(8, 6), "cubin/sm_80", NULL);
  CHECK_SELECT("cubin/sm_80 ptx/sm_70", nvidia(8, 6), "cubin/sm_80", NULL);
  CHECK_SELECT("cubin/sm_80 ptx/sm_70", nvidia(7, 5), "ptx/sm_70", NULL);
  CHECK_SELECT("cubin/sm_80 ptx/sm_70", nvidia(9, 0), "ptx/sm_70", NULL);
  /* Cubins never cross a major version, either way. */
  CHECK_SELECT("cubin/sm_75", nvidia(8, 0), "", NULL);
  CHECK_SELECT("cubin/sm_90", nvidia(8, 9), "", NULL);
  CHECK_SELECT("cubin/sm_86", nvidia(8, 0), "", NULL);
  /* PTX newer than the device does not run. */
  CHECK_SELECT("ptx/sm_90", nvidia(8, 9), "", NULL);

  /* Other vendors' entries are ignored; the order of entries is not. */
  CHECK_SELECT("hsaco/gfx90a so/host cubin/sm_90", nvidia(9, 0), "cubin/sm_90", NULL);
  CHECK_SELECT("hsaco/gfx90a so/host", nvidia(9, 0), "", NULL);
  CHECK_SELECT("", nvidia(9, 0), "", NULL);
  CHECK_SELECT("ptx/sm_90 cubin/sm_80 cubin/sm_86", nvidia(8, 9), "cubin/sm_86", NULL);
  /* A malformed target never matches. */
  CHECK_SELECT("cubin/sm_9 cubin/sm_90x cubin/compute_90", nvidia(9, 0), "", NULL);
}

static void test_amd(void) {
  const char *a = "hsaco/gfx90a hsaco/gfx90a:xnack+ hsaco/gfx90a:xnack- "
                  "hsaco/gfx942:sramecc+:xnack- hsaco/gfx908:sramecc- cubin/sm_90";
  /* The object naming the device's modes beats the "any mode" one. */
  CHECK_SELECT(a, amd("gfx90a:sramecc+:xnack-"), "hsaco/gfx90a:xnack-", "compatible with");
  CHECK_SELECT(a, amd("gfx90a:sramecc+:xnack+"), "hsaco/gfx90a:xnack+", NULL);
  CHECK_SELECT(a, amd("gfx90a:sramecc-:xnack+"), "hsaco/gfx90a:xnack+", NULL);
  /* Modes the driver does not report: the "any" object is the safe one. */
  CHECK_SELECT(a, amd("gfx90a"), "hsaco/gfx90a", NULL);
  CHECK_SELECT(a, amd("gfx942:sramecc+:xnack-"), "hsaco/gfx942:sramecc+:xnack-", NULL);
  CHECK_SELECT(a, amd("gfx942:sramecc-:xnack-"), "", NULL);
  CHECK_SELECT(a, amd("gfx942:sramecc+:xnack+"), "", NULL);
  CHECK_SELECT(a, amd("gfx942"), "hsaco/gfx942:sramecc+:xnack-", NULL);
  CHECK_SELECT(a, amd("gfx908:sramecc-:xnack-"), "hsaco/gfx908:sramecc-", NULL);
  CHECK_SELECT(a, amd("gfx908:sramecc+:xnack-"), "", NULL);
  /* The processor must be equal: no family compatibility on AMD. */
  CHECK_SELECT(a, amd("gfx1100"), "", NULL);
  CHECK_SELECT(a, amd("gfx90c:xnack-"), "", NULL);
  CHECK_SELECT("hsaco/gfx1100", amd("gfx1100"), "hsaco/gfx1100", NULL);
  CHECK_SELECT("hsaco/gfx1100", amd("gfx1101"), "", NULL);
  /* Only fixed-mode objects. */
  CHECK_SELECT("hsaco/gfx90a:xnack+", amd("gfx90a:sramecc+:xnack-"), "", NULL);
  CHECK_SELECT("hsaco/gfx90a:xnack+", amd("gfx90a"), "hsaco/gfx90a:xnack+", NULL);
  CHECK_SELECT("hsaco/gfx90a:xnack+:sramecc- hsaco/gfx90a:xnack+",
               amd("gfx90a:sramecc-:xnack+"), "hsaco/gfx90a:xnack+:sramecc-", NULL);
  CHECK_SELECT("hsaco/gfx90a:xnack+:sramecc- hsaco/gfx90a:xnack+",
               amd("gfx90a:sramecc+:xnack+"), "hsaco/gfx90a:xnack+", NULL);
  /* NVIDIA entries and other formats are ignored on AMD. */
  CHECK_SELECT("cubin/sm_90 ptx/sm_90", amd("gfx90a"), "", NULL);
  CHECK_SELECT("so/gfx90a", amd("gfx90a"), "", NULL);
}

static void test_parsers(void) {
  int sm;
  char v;
  EXPECT(rt_parse_nv_target("sm_90a", &sm, &v) == 0 && sm == 90 && v == 'a');
  EXPECT(rt_parse_nv_target("sm_100f", &sm, &v) == 0 && sm == 100 && v == 'f');
  EXPECT(rt_parse_nv_target("sm_86", &sm, &v) == 0 && sm == 86 && v == 0);
  EXPECT(rt_parse_nv_target("sm_9", &sm, &v) != 0);
  EXPECT(rt_parse_nv_target("sm_90x", &sm, &v) != 0);
  EXPECT(rt_parse_nv_target("gfx90a", &sm, &v) != 0);
  EXPECT(rt_parse_nv_target(NULL, &sm, &v) != 0);

  struct rt_amd_target t;
  EXPECT(rt_parse_amd_target("gfx90a:xnack-:sramecc+", &t) == 0 &&
         strcmp(t.processor, "gfx90a") == 0 && t.xnack == RT_FEATURE_OFF &&
         t.sramecc == RT_FEATURE_ON);
  EXPECT(rt_parse_amd_target("gfx942", &t) == 0 && t.xnack == RT_FEATURE_ANY &&
         t.sramecc == RT_FEATURE_ANY);
  EXPECT(rt_parse_amd_target("gfx10-3-generic", &t) == 0);
  EXPECT(rt_parse_amd_target("gfx90a:xnack", &t) != 0);
  EXPECT(rt_parse_amd_target("gfx90a:foo+", &t) != 0);
  EXPECT(rt_parse_amd_target("gfx90a:", &t) != 0);
  EXPECT(rt_parse_amd_target("gfx-not-an-arch", &t) != 0);
  EXPECT(rt_parse_amd_target("gfx", &t) != 0);
  EXPECT(rt_parse_amd_target("sm_90", &t) != 0);
  EXPECT(rt_parse_amd_target("gfx90A", &t) != 0);
}

static void test_describe(void) {
  struct fatbin_entry e[16];
  char storage[16][48];
  size_t n = parse_archive("hsaco/gfx90a cubin/sm_90 so/host ptx/sm_90 cubin/sm_80 "
                           "hsaco/gfx942:xnack- ptx/sm_80",
                           e, 16, storage);
  char buf[256] = "";
  rt_describe_targets(e, n, buf, sizeof buf);
  EXPECT(strcmp(buf, "sm_90 sm_80 gfx90a gfx942:xnack- host") == 0);
  char small[8] = "";
  rt_describe_targets(e, n, small, sizeof small);
  EXPECT(strlen(small) < sizeof small);

  char arch[32];
  struct rt_device d = amd("gfx90a:sramecc+:xnack-");
  rt_suggest_arch(&d, arch, sizeof arch);
  EXPECT(strcmp(arch, "gfx90a") == 0);
  d = nvidia(8, 9);
  rt_suggest_arch(&d, arch, sizeof arch);
  EXPECT(strcmp(arch, "sm_89") == 0);
}

int main(void) {
  test_nvidia();
  test_amd();
  test_parsers();
  test_describe();
  if (failures)
    printf("%d failures\n", failures);
  else
    printf("all selection cases passed\n");
  return failures ? 1 : 0;
}
