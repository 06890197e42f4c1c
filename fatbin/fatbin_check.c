/* fatbin_check.c: does an object's content match its manifest entry?
 *
 * `gpucc-fatbin verify` asks this of every object, so that a cubin filed
 * under sm_90 that was really built for sm_80, or an hsaco built with xnack
 * on for a target that says xnack-, is caught before a user meets it as a
 * driver error. Only ELF headers (and the PTX directives) are read.
 *
 * What to check is the format's, in its vendor's row (fatbin_nvidia.c,
 * fatbin_amd.c, fatbin_host.c): this file finds the row, checks that the
 * entry's vendor owns the format, and for an ELF format reads the header,
 * checks that the object is whole (its headers, segments and sections
 * within its size: fatbin_elf_layout.c) and has the row's e_machine, before
 * handing it to the row.
 *
 * Only 64-bit little-endian ELF is accepted, as everywhere in gpucc. */
#include <elf.h>
#include <string.h>

#include "fatbin_private.h"

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

int fatbin_check_object(const struct fatbin_entry *e, const void *data, size_t size,
                        char *err, size_t errlen) {
  const struct fatbin_vendor_row *owner;
  const struct fatbin_format_row *f = fatbin_format_find(e->format, &owner);
  if (!f || !fatbin_vendor_find(e->vendor))
    return fatbin_error(err, errlen, "fatbin: object of unknown vendor or format");
  if (owner->vendor != e->vendor)
    return fatbin_error(err, errlen, "fatbin: %s of module '%s' is filed under vendor %s",
                        f->name, e->module, fatbin_vendor_name(e->vendor));
  const unsigned char *d = data;
  if (!f->elf_machine_name)
    return f->check(e, d, size, NULL, err, errlen);
  struct fatbin_ehdr h;
  if (fatbin_read_ehdr(e, d, size, &h, err, errlen))
    return -1;
  if (f->elf_machine &&
      fatbin_want_machine(e, &h, f->elf_machine, f->elf_machine_name, err, errlen))
    return -1;
  return f->check(e, d, size, &h, err, errlen);
}
