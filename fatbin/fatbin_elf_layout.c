/* fatbin_elf_layout.c: is an ELF file whole?
 *
 * fatbin_check_object reads an object's identity (machine, chip, features)
 * from its ELF header; this checks that the rest of the file is where the
 * header says it is, so that an object a tool cut short or lost bytes of
 * is refused before a driver or the dynamic loader reads past its end
 * (the dynamic loader maps a truncated shared object and faults with SIGBUS
 * on the missing pages; a cubin or hsaco cut short is a driver error far
 * from its cause). Checked: the program and section header tables lie in
 * the file with their standard entry sizes; every segment's and every
 * section's file bytes lie in the file (SHT_NOBITS sections have none); a
 * loadable segment's memory size covers its file size; the section-name
 * table index names a section. Damage inside those bounds (a flipped bit
 * in code) is not detectable from the layout and is not claimed to be. */
#include <elf.h>
#include <stddef.h>

#include "fatbin_private.h"

/* True when [off, off + len) lies within size bytes. */
static int fatbin_within(uint64_t off, uint64_t len, size_t size) {
  return off <= size && len <= size - off;
}

static int fatbin_layout_error(const struct fatbin_entry *e, char *err, size_t errlen,
                               const char *what) {
  return fatbin_error(err, errlen, "fatbin: %s %s of module '%s' is damaged: %s", e->target,
                      fatbin_format_name(e->format), e->module, what);
}

int fatbin_check_elf_layout(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                            char *err, size_t errlen) {
  uint64_t phoff = fatbin_le64(d + offsetof(Elf64_Ehdr, e_phoff));
  uint64_t shoff = fatbin_le64(d + offsetof(Elf64_Ehdr, e_shoff));
  unsigned phentsize = fatbin_le16(d + offsetof(Elf64_Ehdr, e_phentsize));
  unsigned phnum = fatbin_le16(d + offsetof(Elf64_Ehdr, e_phnum));
  unsigned shentsize = fatbin_le16(d + offsetof(Elf64_Ehdr, e_shentsize));
  unsigned shnum = fatbin_le16(d + offsetof(Elf64_Ehdr, e_shnum));
  unsigned shstrndx = fatbin_le16(d + offsetof(Elf64_Ehdr, e_shstrndx));
  if (phnum && (phentsize != sizeof(Elf64_Phdr) ||
                !fatbin_within(phoff, (uint64_t)phnum * sizeof(Elf64_Phdr), size)))
    return fatbin_layout_error(e, err, errlen, "its program headers lie outside the file");
  if (shnum && (shentsize != sizeof(Elf64_Shdr) ||
                !fatbin_within(shoff, (uint64_t)shnum * sizeof(Elf64_Shdr), size)))
    return fatbin_layout_error(e, err, errlen, "its section headers lie outside the file");
  if (shnum && shstrndx != SHN_UNDEF && shstrndx >= shnum)
    return fatbin_layout_error(e, err, errlen, "its section-name table index is out of range");
  for (unsigned i = 0; i < phnum; i++) {
    const unsigned char *p = d + phoff + (uint64_t)i * sizeof(Elf64_Phdr);
    uint32_t type = fatbin_le32(p + offsetof(Elf64_Phdr, p_type));
    uint64_t off = fatbin_le64(p + offsetof(Elf64_Phdr, p_offset));
    uint64_t filesz = fatbin_le64(p + offsetof(Elf64_Phdr, p_filesz));
    uint64_t memsz = fatbin_le64(p + offsetof(Elf64_Phdr, p_memsz));
    if (!fatbin_within(off, filesz, size))
      return fatbin_layout_error(e, err, errlen, "a segment's bytes lie outside the file");
    if (type == PT_LOAD && memsz < filesz)
      return fatbin_layout_error(e, err, errlen, "a loadable segment is smaller than its bytes");
  }
  for (unsigned i = 0; i < shnum; i++) {
    const unsigned char *s = d + shoff + (uint64_t)i * sizeof(Elf64_Shdr);
    uint32_t type = fatbin_le32(s + offsetof(Elf64_Shdr, sh_type));
    uint64_t off = fatbin_le64(s + offsetof(Elf64_Shdr, sh_offset));
    uint64_t len = fatbin_le64(s + offsetof(Elf64_Shdr, sh_size));
    if (type != SHT_NOBITS && type != SHT_NULL && !fatbin_within(off, len, size))
      return fatbin_layout_error(e, err, errlen, "a section's bytes lie outside the file");
  }
  return 0;
}
