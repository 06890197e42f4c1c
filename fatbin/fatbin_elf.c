/* fatbin_elf.c: finds the blobs inside a file image (tool and runtime side).
 *
 * An executable, shared library or relocatable object carries its blobs in
 * the section ".gpucc_fatbin", one per gpu.module, each 8-byte aligned within
 * the section, with zero bytes allowed between them (the writer's padding to
 * a multiple of 8, alignment padding, and whatever the linker adds when it
 * concatenates the sections of several objects). A file that is itself a blob is visited directly; it is read by
 * the same loop as a section, so blobs joined back to back (with `cat`, say)
 * are each visited too, and the messages for a damaged blob are the same.
 *
 * The ELF section headers are parsed by hand rather than through libelf: only
 * a few fields are needed, the runtime must not grow a dependency for them,
 * and a hand parser makes every bounds check visible. Only 64-bit
 * little-endian ELF is read, which covers every host gpucc targets. All
 * fields are decoded byte-wise so that neither the host's byte order nor the
 * alignment of the image matters. */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "fatbin_private.h"

/* What the caller wants done with each blob found. `stopped` and `result`
 * keep a visitor's early stop apart from this file's own errors. */
struct fatbin_scan {
  fatbin_visit_fn visit;
  void *ud;
  int stopped;
  int result;
};

/* Says where a blob starts, for messages. A bare blob at offset 0 (the
 * usual bare file) gets nothing, so its messages read like fatbin_open's. */
static void fatbin_where(char *buf, size_t len, int in_section, size_t pos) {
  if (in_section)
    snprintf(buf, len, " at offset %zu of section %s", pos, FATBIN_SECTION);
  else if (pos > 0)
    snprintf(buf, len, " at offset %zu", pos);
  else
    buf[0] = '\0';
}

/* Visits the blobs laid out in sec: each 8-byte aligned, zeros between. */
static int fatbin_scan_blobs(const unsigned char *sec, size_t n, int in_section,
                             struct fatbin_scan *s, char *err, size_t errlen) {
  char at[96];
  size_t pos = 0;
  while (pos < n && !s->stopped) {
    if (sec[pos] == 0) {
      pos++;
      continue;
    }
    size_t rem = n - pos;
    fatbin_where(at, sizeof at, in_section, pos);
    if (pos % 8 != 0 || rem < FATBIN_MAGIC_SIZE ||
        memcmp(sec + pos, FATBIN_MAGIC, FATBIN_MAGIC_SIZE) != 0)
      return fatbin_error(err, errlen, "fatbin: unexpected bytes%s", at);
    struct fatbin_header h;
    if (!fatbin_read_header(sec + pos, rem, &h))
      return fatbin_error(err, errlen,
                          "fatbin: truncated archive%s: %zu bytes, shorter than "
                          "the %d-byte header",
                          at, rem, FATBIN_HEADER_SIZE);
    if (!fatbin_version_known(h.version))
      return fatbin_error(err, errlen,
                          "fatbin: archive%s has unsupported version %u (this "
                          "reader knows %d to %d)",
                          at, (unsigned)h.version, FATBIN_VERSION_MIN, FATBIN_VERSION);
    if (h.payload_size > rem - FATBIN_HEADER_SIZE)
      return fatbin_error(err, errlen,
                          "fatbin: truncated archive%s: header says %llu bytes, "
                          "%zu available",
                          at, (unsigned long long)h.payload_size,
                          rem - FATBIN_HEADER_SIZE);
    size_t blob_size = FATBIN_HEADER_SIZE + (size_t)h.payload_size;
    int r = s->visit(sec + pos, blob_size, s->ud);
    if (r != 0) {
      s->stopped = 1;
      s->result = r;
    }
    pos += blob_size;
  }
  return 0;
}

/* Walks the section headers of an ELF image (already known to start with the
 * ELF magic) and handles every section named FATBIN_SECTION: counts it in
 * *found and, when s is given, scans it. Returns 0, or -1 with err set when
 * the image is not a readable 64-bit little-endian ELF file. */
static int fatbin_elf_walk(const unsigned char *d, size_t size,
                           struct fatbin_scan *s, size_t *found, char *err,
                           size_t errlen) {
  *found = 0;
  if (size < EI_NIDENT || d[EI_CLASS] != ELFCLASS64 || d[EI_DATA] != ELFDATA2LSB)
    return fatbin_error(err, errlen,
                        "fatbin: unsupported ELF file: only 64-bit little-endian "
                        "ELF is read");
  if (size < sizeof(Elf64_Ehdr))
    return fatbin_error(err, errlen,
                        "fatbin: truncated ELF file: header needs %zu bytes, %zu "
                        "available",
                        sizeof(Elf64_Ehdr), size);
  uint64_t shoff = fatbin_le64(d + offsetof(Elf64_Ehdr, e_shoff));
  uint16_t shentsize = fatbin_le16(d + offsetof(Elf64_Ehdr, e_shentsize));
  uint64_t shnum = fatbin_le16(d + offsetof(Elf64_Ehdr, e_shnum));
  uint32_t shstrndx = fatbin_le16(d + offsetof(Elf64_Ehdr, e_shstrndx));
  if (shoff == 0)
    return 0; /* no section headers, so no section of ours */
  if (shentsize < sizeof(Elf64_Shdr))
    return fatbin_error(err, errlen,
                        "fatbin: corrupt ELF file: section header size %u is too "
                        "small",
                        (unsigned)shentsize);
  if (shoff > size || size - shoff < shentsize)
    return fatbin_error(err, errlen,
                        "fatbin: corrupt ELF file: section headers at offset %llu "
                        "lie outside the %zu-byte file",
                        (unsigned long long)shoff, size);
  const unsigned char *sh0 = d + shoff;
  /* Extended numbering: with 0xff00 or more sections, the real count and
   * name-table index live in section header 0. */
  if (shnum == 0)
    shnum = fatbin_le64(sh0 + offsetof(Elf64_Shdr, sh_size));
  if (shstrndx == SHN_XINDEX)
    shstrndx = fatbin_le32(sh0 + offsetof(Elf64_Shdr, sh_link));
  if (shnum > (size - shoff) / shentsize)
    return fatbin_error(err, errlen,
                        "fatbin: corrupt ELF file: %llu section headers at offset "
                        "%llu lie outside the %zu-byte file",
                        (unsigned long long)shnum, (unsigned long long)shoff, size);
  if (shstrndx == SHN_UNDEF)
    return 0; /* sections without names: none can be ours */
  if (shstrndx >= shnum)
    return fatbin_error(err, errlen,
                        "fatbin: corrupt ELF file: section name table index %u out "
                        "of range",
                        (unsigned)shstrndx);

  const unsigned char *strsh = sh0 + (size_t)shstrndx * shentsize;
  uint64_t stroff = fatbin_le64(strsh + offsetof(Elf64_Shdr, sh_offset));
  uint64_t strsize = fatbin_le64(strsh + offsetof(Elf64_Shdr, sh_size));
  if (fatbin_le32(strsh + offsetof(Elf64_Shdr, sh_type)) == SHT_NOBITS ||
      stroff > size || strsize > size - stroff)
    return fatbin_error(err, errlen,
                        "fatbin: corrupt ELF file: section name table lies outside "
                        "the file");
  const unsigned char *strtab = d + stroff;

  for (size_t i = 0; i < shnum && !(s && s->stopped); i++) {
    const unsigned char *sh = sh0 + i * shentsize;
    uint32_t name = fatbin_le32(sh + offsetof(Elf64_Shdr, sh_name));
    /* The name matches only with its terminating NUL inside the table. */
    if (name > strsize || strsize - name < sizeof FATBIN_SECTION ||
        memcmp(strtab + name, FATBIN_SECTION, sizeof FATBIN_SECTION) != 0)
      continue;
    uint32_t type = fatbin_le32(sh + offsetof(Elf64_Shdr, sh_type));
    uint64_t flags = fatbin_le64(sh + offsetof(Elf64_Shdr, sh_flags));
    uint64_t off = fatbin_le64(sh + offsetof(Elf64_Shdr, sh_offset));
    uint64_t len = fatbin_le64(sh + offsetof(Elf64_Shdr, sh_size));
    if (type == SHT_NOBITS)
      return fatbin_error(err, errlen, "fatbin: section %s has no contents in the file",
                          FATBIN_SECTION);
    if (flags & SHF_COMPRESSED)
      return fatbin_error(err, errlen, "fatbin: section %s is compressed",
                          FATBIN_SECTION);
    if (off > size || len > size - off)
      return fatbin_error(err, errlen,
                          "fatbin: corrupt ELF file: section %s (%llu bytes at offset "
                          "%llu) lies outside the %zu-byte file",
                          FATBIN_SECTION, (unsigned long long)len,
                          (unsigned long long)off, size);
    ++*found;
    if (s && fatbin_scan_blobs(d + off, (size_t)len, 1, s, err, errlen))
      return -1;
  }
  return 0;
}

static int fatbin_is_elf(const unsigned char *d, size_t size) {
  return d && size >= SELFMAG && memcmp(d, ELFMAG, SELFMAG) == 0;
}

int fatbin_find_blobs(const void *data, size_t size, fatbin_visit_fn visit,
                      void *ud, char *err, size_t errlen) {
  const unsigned char *d = data;
  struct fatbin_scan s = {.visit = visit, .ud = ud};
  if (fatbin_is_elf(d, size)) {
    size_t found;
    if (fatbin_elf_walk(d, size, &s, &found, err, errlen))
      return -1;
    if (found == 0)
      return fatbin_error(err, errlen, "fatbin: ELF file has no %s section",
                          FATBIN_SECTION);
    return s.stopped ? s.result : 0;
  }
  if (d && size >= FATBIN_MAGIC_SIZE &&
      memcmp(d, FATBIN_MAGIC, FATBIN_MAGIC_SIZE) == 0) {
    /* A bare blob is scanned like a section holding just it, which gives
     * the same checks and messages; trailing zero padding is allowed too. */
    if (fatbin_scan_blobs(d, size, 0, &s, err, errlen))
      return -1;
    return s.stopped ? s.result : 0;
  }
  return fatbin_error(err, errlen,
                      "fatbin: neither an ELF file nor a gpucc fat binary");
}

int fatbin_probe(const void *data, size_t size) {
  const unsigned char *d = data;
  if (d && size >= FATBIN_MAGIC_SIZE &&
      memcmp(d, FATBIN_MAGIC, FATBIN_MAGIC_SIZE) == 0)
    return 1;
  if (!fatbin_is_elf(d, size))
    return 0;
  size_t found;
  if (fatbin_elf_walk(d, size, NULL, &found, NULL, 0))
    return 1; /* damaged: let fatbin_find_blobs say how */
  return found > 0;
}
