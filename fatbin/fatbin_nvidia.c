/* fatbin_nvidia.c: the NVIDIA row of the vendor table: cubin and PTX, and
 * how each is checked against its entry.
 *
 *  - cubin: EM_CUDA (190). The sm is in e_flags: in the low byte when
 *    EI_ABIVERSION is 7 (ELFABIVERSION_CUDA_V1, every CUDA before 12.8),
 *    in bits 8-15 otherwise (ABI 8, e.g. 0x6005a04 for sm_90 from ptxas
 *    13.0); the accelerator bit (0x800 in ABI 7, 0x8 in ABI 8) requires an
 *    "a" target. This is how LLVM's ELFObjectFile::getNVPTXCPUName decodes
 *    it. ptxas 13 sets no accelerator bit for sm_90a, so its absence proves
 *    nothing.
 *  - ptx: NUL-terminated text whose `.target` is the target and whose
 *    `.version X.Y` matches a "+ptxXY" feature. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_private.h"

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
                              size_t size, const struct fatbin_ehdr *hp, char *err,
                              size_t errlen) {
  (void)d;
  (void)size;
  const struct fatbin_ehdr h = *hp;
  unsigned want;
  char variant;
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
                            size_t size, const struct fatbin_ehdr *h, char *err,
                            size_t errlen) {
  (void)h;
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

static const struct fatbin_format_row fatbin_nvidia_formats[] = {
    {FATBIN_FORMAT_CUBIN, "cubin", 0, "EM_CUDA", 190, fatbin_check_cubin},
    {FATBIN_FORMAT_PTX, "ptx", 1, NULL, 0, fatbin_check_ptx},
};

const struct fatbin_vendor_row fatbin_vendor_nvidia = {
    FATBIN_VENDOR_NVIDIA, "nvidia", fatbin_nvidia_formats,
    sizeof fatbin_nvidia_formats / sizeof fatbin_nvidia_formats[0]};
