/* fatbin_amd.c: the AMD row of the vendor table: the hsaco code object and
 * how it is checked against its entry.
 *
 *  - hsaco: EM_AMDGPU (224), OS ABI AMDGPU_HSA; e_flags & 0xff is the gfx
 *    processor (EF_AMDGPU_MACH_*); xnack and sramecc are one bit each in
 *    code object v3 (EI_ABIVERSION 1), two-bit fields (unsupported, any, off,
 *    on) from v4 on (EI_ABIVERSION >= 2). A target id or feature that asks
 *    for on or off needs exactly that; asking nothing accepts "any" or
 *    "unsupported" (and either bit in v3). */
#include <string.h>

#include "fatbin_private.h"

#define FATBIN_OSABI_AMDGPU_HSA 64

/* EF_AMDGPU_MACH values, from LLVM 22's BinaryFormat/ELF.h. */
static const struct {
  const char *name;
  unsigned mach;
} fatbin_amd_mach[] = {
    {"gfx600", 0x020},  {"gfx601", 0x021},  {"gfx700", 0x022},  {"gfx701", 0x023},
    {"gfx702", 0x024},  {"gfx703", 0x025},  {"gfx704", 0x026},  {"gfx801", 0x028},
    {"gfx802", 0x029},  {"gfx803", 0x02a},  {"gfx810", 0x02b},  {"gfx900", 0x02c},
    {"gfx902", 0x02d},  {"gfx904", 0x02e},  {"gfx906", 0x02f},  {"gfx908", 0x030},
    {"gfx909", 0x031},  {"gfx90c", 0x032},  {"gfx1010", 0x033}, {"gfx1011", 0x034},
    {"gfx1012", 0x035}, {"gfx1030", 0x036}, {"gfx1031", 0x037}, {"gfx1032", 0x038},
    {"gfx1033", 0x039}, {"gfx602", 0x03a},  {"gfx705", 0x03b},  {"gfx805", 0x03c},
    {"gfx1035", 0x03d}, {"gfx1034", 0x03e}, {"gfx90a", 0x03f},  {"gfx1100", 0x041},
    {"gfx1013", 0x042}, {"gfx1150", 0x043}, {"gfx1103", 0x044}, {"gfx1036", 0x045},
    {"gfx1101", 0x046}, {"gfx1102", 0x047}, {"gfx1200", 0x048}, {"gfx1250", 0x049},
    {"gfx1151", 0x04a}, {"gfx942", 0x04c},  {"gfx1201", 0x04e}, {"gfx950", 0x04f},
    {"gfx9-generic", 0x051},    {"gfx10-1-generic", 0x052}, {"gfx10-3-generic", 0x053},
    {"gfx11-generic", 0x054},   {"gfx1152", 0x055},         {"gfx1153", 0x058},
    {"gfx12-generic", 0x059},   {"gfx1251", 0x05a},         {"gfx9-4-generic", 0x05f},
};

/* Feature states, as target ids and e_flags know them. */
enum fatbin_state { ST_ANY, ST_ON, ST_OFF, ST_UNSUPPORTED };
static const char *const fatbin_state_name[] = {"any", "on", "off", "unsupported"};

/* Looks for "name+"/"name-" among the ':'-separated parts of a target id
 * and for "+name"/"-name" among the ','-separated features. */
static int fatbin_wanted(const struct fatbin_entry *e, const char *name,
                         enum fatbin_state *out) {
  enum fatbin_state from_target = ST_ANY, from_features = ST_ANY;
  size_t n = strlen(name);
  for (const char *p = strchr(e->target, ':'); p; p = strchr(p + 1, ':')) {
    if (strncmp(p + 1, name, n) == 0 && (p[1 + n] == '+' || p[1 + n] == '-'))
      from_target = p[1 + n] == '+' ? ST_ON : ST_OFF;
  }
  for (const char *p = e->features; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n + 1 && (p[0] == '+' || p[0] == '-') && strncmp(p + 1, name, n) == 0)
      from_features = p[0] == '+' ? ST_ON : ST_OFF;
    p += len + (end != NULL);
  }
  if (from_target != ST_ANY && from_features != ST_ANY && from_target != from_features)
    return -1;
  *out = from_target != ST_ANY ? from_target : from_features;
  return 0;
}

static int fatbin_check_feature(const struct fatbin_entry *e, const struct fatbin_ehdr *h,
                                const char *name, uint32_t v3_bit, unsigned v4_shift,
                                char *err, size_t errlen) {
  enum fatbin_state want, have;
  if (fatbin_wanted(e, name, &want) != 0)
    return fatbin_error(err, errlen,
                        "fatbin: %s of module '%s': target and features disagree on %s",
                        e->target, e->module, name);
  if (h->abiversion == 1) {
    have = h->flags & v3_bit ? ST_ON : ST_OFF;
  } else {
    static const enum fatbin_state v4[] = {ST_UNSUPPORTED, ST_ANY, ST_OFF, ST_ON};
    have = v4[h->flags >> v4_shift & 3];
  }
  int ok = want == ST_ANY ? h->abiversion == 1 || have == ST_ANY || have == ST_UNSUPPORTED
                          : have == want;
  if (ok)
    return 0;
  return fatbin_error(err, errlen,
                      "fatbin: hsaco of module '%s' filed as %s has %s %s (e_flags 0x%x), "
                      "%s wanted",
                      e->module, e->target, name, fatbin_state_name[have],
                      (unsigned)h->flags, fatbin_state_name[want]);
}

static int fatbin_check_hsaco(const struct fatbin_entry *e, const unsigned char *d,
                              size_t size, const struct fatbin_ehdr *hp, char *err,
                              size_t errlen) {
  (void)d;
  (void)size;
  const struct fatbin_ehdr h = *hp;
  if (h.osabi != FATBIN_OSABI_AMDGPU_HSA)
    return fatbin_error(err, errlen, "fatbin: hsaco of module '%s' has OS ABI %u, not HSA",
                        e->module, h.osabi);
  char proc[32];
  size_t plen = strcspn(e->target, ":");
  if (plen >= sizeof proc)
    return fatbin_error(err, errlen, "fatbin: '%s' is not an AMD target", e->target);
  memcpy(proc, e->target, plen);
  proc[plen] = '\0';
  unsigned want = 0, mach = h.flags & 0xff;
  const char *have = NULL;
  for (size_t i = 0; i < sizeof fatbin_amd_mach / sizeof fatbin_amd_mach[0]; i++) {
    if (strcmp(fatbin_amd_mach[i].name, proc) == 0)
      want = fatbin_amd_mach[i].mach;
    if (fatbin_amd_mach[i].mach == mach)
      have = fatbin_amd_mach[i].name;
  }
  if (!want)
    return fatbin_error(err, errlen, "fatbin: unknown AMD processor '%s'", proc);
  if (mach != want)
    return fatbin_error(err, errlen,
                        "fatbin: hsaco of module '%s' filed as %s is for %s (e_flags 0x%x)",
                        e->module, e->target, have ? have : "an unknown processor",
                        (unsigned)h.flags);
  /* Code object v2 (EI_ABIVERSION 0) spelled features differently; gpucc
   * never writes it, so there is nothing more to compare. */
  if (h.abiversion == 0)
    return 0;
  if (fatbin_check_feature(e, &h, "xnack", 0x100, 8, err, errlen) ||
      fatbin_check_feature(e, &h, "sramecc", 0x200, 10, err, errlen))
    return -1;
  return 0;
}

static const struct fatbin_format_row fatbin_amd_formats[] = {
    {FATBIN_FORMAT_HSACO, "hsaco", 0, "EM_AMDGPU", 224, fatbin_check_hsaco},
};

const struct fatbin_vendor_row fatbin_vendor_amd = {
    FATBIN_VENDOR_AMD, "amd", fatbin_amd_formats,
    sizeof fatbin_amd_formats / sizeof fatbin_amd_formats[0]};
