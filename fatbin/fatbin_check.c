/* fatbin_check.c: does an object's content match its manifest entry?
 *
 * `gpucc-fatbin verify` asks this of every object, so that a cubin filed
 * under sm_90 that was really built for sm_80, or an hsaco built with xnack
 * on for a target that says xnack-, is caught before a user meets it as a
 * driver error. Only ELF headers (and the PTX directives) are read:
 *
 *  - cubin: EM_CUDA (190). The sm is in e_flags: in the low byte when
 *    EI_ABIVERSION is 7 (ELFABIVERSION_CUDA_V1, every CUDA before 12.8),
 *    in bits 8-15 otherwise (ABI 8, e.g. 0x6005a04 for sm_90 from ptxas
 *    13.0); the accelerator bit (0x800 in ABI 7, 0x8 in ABI 8) requires an
 *    "a" target. This is how LLVM's ELFObjectFile::getNVPTXCPUName decodes
 *    it. ptxas 13 sets no accelerator bit for sm_90a, so its absence proves
 *    nothing.
 *  - hsaco: EM_AMDGPU (224), OS ABI AMDGPU_HSA; e_flags & 0xff is the gfx
 *    processor (EF_AMDGPU_MACH_*); xnack and sramecc are one bit each in
 *    code object v3 (EI_ABIVERSION 1), two-bit fields (unsupported, any, off,
 *    on) from v4 on (EI_ABIVERSION >= 2). A target id or feature that asks
 *    for on or off needs exactly that; asking nothing accepts "any" or
 *    "unsupported" (and either bit in v3).
 *  - ptx: NUL-terminated text whose `.target` is the target and whose
 *    `.version X.Y` matches a "+ptxXY" feature.
 *  - so, solib: an ELF shared object for the machine this library was built
 *    for; soref: "<64 hex digits> <prefix>\n".
 *
 * Every ELF object must also be whole: its headers, segments and sections
 * within its size (fatbin_elf_layout.c).
 *
 * Only 64-bit little-endian ELF is accepted, as everywhere in gpucc. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_private.h"

#define FATBIN_EM_CUDA 190
#define FATBIN_EM_AMDGPU 224
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

/* The ELF header fields the checks use. */
struct fatbin_ehdr {
  unsigned osabi, abiversion, type, machine;
  uint32_t flags;
};

static int fatbin_read_ehdr(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                            struct fatbin_ehdr *h, char *err, size_t errlen) {
  if (size < sizeof(Elf64_Ehdr) || memcmp(d, ELFMAG, SELFMAG) != 0)
    return fatbin_error(err, errlen, "fatbin: %s %s of module '%s' is not an ELF file",
                        e->target, fatbin_format_name(e->format), e->module);
  if (d[EI_CLASS] != ELFCLASS64 || d[EI_DATA] != ELFDATA2LSB)
    return fatbin_error(err, errlen,
                        "fatbin: %s %s of module '%s' is not a 64-bit little-endian ELF file",
                        e->target, fatbin_format_name(e->format), e->module);
  h->osabi = d[EI_OSABI];
  h->abiversion = d[EI_ABIVERSION];
  h->type = fatbin_le16(d + offsetof(Elf64_Ehdr, e_type));
  h->machine = fatbin_le16(d + offsetof(Elf64_Ehdr, e_machine));
  h->flags = fatbin_le32(d + offsetof(Elf64_Ehdr, e_flags));
  return fatbin_check_elf_layout(e, d, size, err, errlen);
}

static int fatbin_want_machine(const struct fatbin_entry *e, const struct fatbin_ehdr *h,
                               unsigned want, const char *want_name, char *err,
                               size_t errlen) {
  if (h->machine == want)
    return 0;
  return fatbin_error(err, errlen,
                      "fatbin: %s %s of module '%s' has e_machine %u, not %s (%u)", e->target,
                      fatbin_format_name(e->format), e->module, h->machine, want_name, want);
}

/* "sm_90a" -> 90, 'a'. */
static int fatbin_parse_sm(const char *t, unsigned *sm, char *variant) {
  if (strncmp(t, "sm_", 3) != 0 || t[3] < '0' || t[3] > '9')
    return -1;
  char *end;
  unsigned long v = strtoul(t + 3, &end, 10);
  if (v > 255 || (end[0] && (end[1] || end[0] < 'a' || end[0] > 'z')))
    return -1;
  *sm = (unsigned)v;
  *variant = end[0];
  return 0;
}

static int fatbin_check_cubin(const struct fatbin_entry *e, const unsigned char *d,
                              size_t size, char *err, size_t errlen) {
  struct fatbin_ehdr h;
  unsigned want;
  char variant;
  if (fatbin_read_ehdr(e, d, size, &h, err, errlen) ||
      fatbin_want_machine(e, &h, FATBIN_EM_CUDA, "EM_CUDA", err, errlen))
    return -1;
  if (fatbin_parse_sm(e->target, &want, &variant) != 0)
    return fatbin_error(err, errlen, "fatbin: '%s' is not an NVIDIA target", e->target);
  int v1 = h.abiversion == 7;
  unsigned sm = v1 ? (h.flags & 0xff) : (h.flags >> 8 & 0xff);
  int accel = v1 ? (h.flags & 0x800) != 0 : (h.flags & 0x8) != 0;
  if (sm != want)
    return fatbin_error(err, errlen,
                        "fatbin: cubin of module '%s' filed as %s is for sm_%u (e_flags "
                        "0x%x, ELF ABI version %u)",
                        e->module, e->target, sm, (unsigned)h.flags, h.abiversion);
  if (accel && variant != 'a')
    return fatbin_error(err, errlen,
                        "fatbin: cubin of module '%s' filed as %s is for sm_%ua (e_flags "
                        "0x%x)",
                        e->module, e->target, sm, (unsigned)h.flags);
  return 0;
}

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
                              size_t size, char *err, size_t errlen) {
  struct fatbin_ehdr h;
  if (fatbin_read_ehdr(e, d, size, &h, err, errlen) ||
      fatbin_want_machine(e, &h, FATBIN_EM_AMDGPU, "EM_AMDGPU", err, errlen))
    return -1;
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

/* Finds `directive` at the start of a line and returns the word after it. */
static int fatbin_ptx_word(const char *text, size_t size, const char *directive, char *word,
                           size_t len) {
  size_t n = strlen(directive);
  for (size_t i = 0; i + n < size; i++) {
    if ((i > 0 && text[i - 1] != '\n') || strncmp(text + i, directive, n) != 0 ||
        (text[i + n] != ' ' && text[i + n] != '\t'))
      continue;
    size_t j = i + n, k = 0;
    while (j < size && (text[j] == ' ' || text[j] == '\t'))
      j++;
    while (j < size && k + 1 < len && text[j] && !strchr(" \t\r\n,", text[j]))
      word[k++] = text[j++];
    word[k] = '\0';
    return k > 0 ? 0 : -1;
  }
  return -1;
}

static int fatbin_check_ptx(const struct fatbin_entry *e, const unsigned char *d,
                            size_t size, char *err, size_t errlen) {
  const char *text = (const char *)d;
  char word[64];
  if (size == 0 || d[size - 1] != '\0')
    return fatbin_error(err, errlen, "fatbin: PTX of module '%s' for %s is not NUL-terminated",
                        e->module, e->target);
  if (fatbin_ptx_word(text, size, ".target", word, sizeof word) != 0)
    return fatbin_error(err, errlen, "fatbin: PTX of module '%s' for %s has no .target",
                        e->module, e->target);
  if (strcmp(word, e->target) != 0)
    return fatbin_error(err, errlen, "fatbin: PTX of module '%s' filed as %s is for %s",
                        e->module, e->target, word);
  const char *ptx = e->features ? strstr(e->features, "+ptx") : NULL;
  if (!ptx)
    return 0;
  unsigned want = (unsigned)strtoul(ptx + 4, NULL, 10), major, minor;
  char dot;
  if (fatbin_ptx_word(text, size, ".version", word, sizeof word) != 0 ||
      sscanf(word, "%u%c%u", &major, &dot, &minor) != 3 || dot != '.')
    return fatbin_error(err, errlen, "fatbin: PTX of module '%s' for %s has no .version",
                        e->module, e->target);
  if (major * 10 + minor != want)
    return fatbin_error(err, errlen,
                        "fatbin: PTX of module '%s' for %s is version %u.%u, features say "
                        "+ptx%u",
                        e->module, e->target, major, minor, want);
  return 0;
}

static int fatbin_check_so(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                           char *err, size_t errlen) {
#if defined(__x86_64__)
  const unsigned want = EM_X86_64;
#elif defined(__aarch64__)
  const unsigned want = EM_AARCH64;
#else
  const unsigned want = 0;
#endif
  struct fatbin_ehdr h;
  if (fatbin_read_ehdr(e, d, size, &h, err, errlen))
    return -1;
  if (want && fatbin_want_machine(e, &h, want, "this machine's", err, errlen))
    return -1;
  if (h.type != ET_DYN)
    return fatbin_error(err, errlen,
                        "fatbin: host object of module '%s' is not a shared object (e_type %u)",
                        e->module, h.type);
  return 0;
}

/* "<64 hex digits> <prefix>\n", the prefix a symbol's characters. */
static int fatbin_check_so_ref(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                               char *err, size_t errlen) {
  size_t hex = 2 * FATBIN_SHA256_SIZE, i = 0;
  while (i < hex && i < size && ((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'f')))
    i++;
  int ok = i == hex && size > hex + 2 && size <= FATBIN_SO_REF_MAX_SIZE && d[hex] == ' ' &&
           d[size - 1] == '\n';
  for (i = hex + 1; ok && i + 1 < size; i++)
    ok = (d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'z') ||
         (d[i] >= 'A' && d[i] <= 'Z') || d[i] == '_' || d[i] == '.';
  if (!ok)
    return fatbin_error(err, errlen, "fatbin: host library reference of module '%s' is malformed",
                        e->module);
  return 0;
}

int fatbin_check_object(const struct fatbin_entry *e, const void *data, size_t size,
                        char *err, size_t errlen) {
  static const enum fatbin_vendor vendor_of[] = {
      [FATBIN_FORMAT_CUBIN] = FATBIN_VENDOR_NVIDIA,
      [FATBIN_FORMAT_PTX] = FATBIN_VENDOR_NVIDIA,
      [FATBIN_FORMAT_HSACO] = FATBIN_VENDOR_AMD,
      [FATBIN_FORMAT_SO] = FATBIN_VENDOR_HOST,
      [FATBIN_FORMAT_SO_LIB] = FATBIN_VENDOR_HOST,
      [FATBIN_FORMAT_SO_REF] = FATBIN_VENDOR_HOST,
  };
  if (!fatbin_format_name(e->format) || !fatbin_vendor_name(e->vendor))
    return fatbin_error(err, errlen, "fatbin: object of unknown vendor or format");
  if (vendor_of[e->format] != e->vendor)
    return fatbin_error(err, errlen, "fatbin: %s of module '%s' is filed under vendor %s",
                        fatbin_format_name(e->format), e->module,
                        fatbin_vendor_name(e->vendor));
  const unsigned char *d = data;
  switch (e->format) {
  case FATBIN_FORMAT_CUBIN:
    return fatbin_check_cubin(e, d, size, err, errlen);
  case FATBIN_FORMAT_PTX:
    return fatbin_check_ptx(e, d, size, err, errlen);
  case FATBIN_FORMAT_HSACO:
    return fatbin_check_hsaco(e, d, size, err, errlen);
  case FATBIN_FORMAT_SO:
    return fatbin_check_so(e, d, size, err, errlen);
  case FATBIN_FORMAT_SO_LIB:
    return fatbin_check_so(e, d, size, err, errlen);
  case FATBIN_FORMAT_SO_REF:
    return fatbin_check_so_ref(e, d, size, err, errlen);
  }
  return fatbin_error(err, errlen, "fatbin: object of unknown format");
}
