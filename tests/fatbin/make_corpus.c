/* make_corpus.c: writes the fuzzer's seed corpus (tests/fatbin/corpus/).
 *
 *   fatbin_make_corpus DIR
 *
 * Seeds are small but reach every reader path: a blob in each compression
 * mode with objects whose ELF headers and PTX pass fatbin_check_object (the
 * compressed ones with frames that have dictionaries: the two cubins, the
 * two PTX and the two hsaco are near-duplicates), an empty archive, a
 * version 1 archive as the first gpucc wrote it, and an ELF relocatable
 * object whose .gpucc_fatbin section holds two blobs with padding between
 * them; the version 3 blobs carry kernel lines. Run it again (and commit
 * the result) when the format changes; the seeds are deterministic. The
 * v2-*.blob seeds were written by the version 2 writer and stay as they
 * are: old archives the reader must keep reading. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fatbin.h"

static void die(const char *what) {
  fprintf(stderr, "fatbin_make_corpus: %s\n", what);
  exit(1);
}

static void save(const char *dir, const char *name, const void *data, size_t size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    die(path);
}

/* A 64-byte ELF header followed by a few bytes of "code". */
static unsigned char *elf(unsigned machine, unsigned osabi, unsigned abiv, unsigned type,
                          unsigned flags, size_t *size) {
  *size = sizeof(Elf64_Ehdr) + 48;
  unsigned char *p = calloc(1, *size);
  Elf64_Ehdr h = {0};
  memcpy(h.e_ident, ELFMAG, SELFMAG);
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_ident[EI_DATA] = ELFDATA2LSB;
  h.e_ident[EI_VERSION] = EV_CURRENT;
  h.e_ident[EI_OSABI] = (unsigned char)osabi;
  h.e_ident[EI_ABIVERSION] = (unsigned char)abiv;
  h.e_type = (Elf64_Half)type;
  h.e_machine = (Elf64_Half)machine;
  h.e_flags = flags;
  memcpy(p, &h, sizeof h);
  for (size_t i = sizeof h; i < *size; i++)
    p[i] = (unsigned char)(i * 13 + machine);
  return p;
}

static void *write_blob(const struct fatbin_entry *e, size_t n, enum fatbin_compress mode,
                        size_t *size) {
  /* Kernel lines: one per module, one for a target alone, a name that
   * needs escaping, a block shape and none. */
  static const struct fatbin_kernel kernels[] = {
      {"kernels", "transpose", NULL, 256, {16, 16, 1}, 4096},
      {"kernels", "transpose", "gfx90a", 256, {16, 16, 1}, 4160},
      {"kernels", "scale by %2", NULL, 1024, {0, 0, 0}, 0},
  };
  static const struct fatbin_meta meta = {"0.1.0", "22.1.8", "-O3 --offload-arch=sm_80,sm_90",
                                          kernels, sizeof kernels / sizeof kernels[0]};
  void *blob;
  char err[256];
  if (fatbin_write_ex(e, n, &meta, mode, &blob, size, err, sizeof err) != 0)
    die(err);
  return blob;
}

/* The first format: stored ustar, version 1 manifest, header version 1. */
static void *v1_blob(size_t *size) {
  static const char manifest[] =
      "gpucc-fatbin 1\n"
      "module=m vendor=nvidia target=sm_90 format=ptx size=28 file=m/sm_90.ptx\n";
  static const char ptx[] = ".version 7.8\n.target sm_90\n"; /* 28 bytes with NUL */
  static unsigned char tar[8192];
  size_t used = 0;
  struct archive *a = archive_write_new();
  if (!a || archive_write_set_format_ustar(a) != ARCHIVE_OK ||
      archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
      archive_write_open_memory(a, tar, sizeof tar, &used) != ARCHIVE_OK)
    die("libarchive");
  const char *names[2] = {"MANIFEST", "m/sm_90.ptx"};
  const void *data[2] = {manifest, ptx};
  size_t sizes[2] = {sizeof manifest - 1, sizeof ptx};
  for (int i = 0; i < 2; i++) {
    struct archive_entry *ae = archive_entry_new();
    archive_entry_set_pathname(ae, names[i]);
    archive_entry_set_filetype(ae, AE_IFREG);
    archive_entry_set_perm(ae, 0644);
    archive_entry_set_size(ae, (la_int64_t)sizes[i]);
    if (archive_write_header(a, ae) != ARCHIVE_OK ||
        archive_write_data(a, data[i], sizes[i]) != (la_ssize_t)sizes[i])
      die("libarchive entry");
    archive_entry_free(ae);
  }
  if (archive_write_close(a) != ARCHIVE_OK || archive_write_free(a) != ARCHIVE_OK)
    die("libarchive close");
  *size = FATBIN_HEADER_SIZE + used;
  unsigned char *blob = calloc(1, *size);
  memcpy(blob, FATBIN_MAGIC, FATBIN_MAGIC_SIZE);
  blob[8] = 1;
  for (int i = 0; i < 8; i++)
    blob[16 + i] = (unsigned char)((uint64_t)used >> (8 * i));
  memcpy(blob + FATBIN_HEADER_SIZE, tar, used);
  return blob;
}

/* A relocatable ELF file: null section, .gpucc_fatbin holding sec, .shstrtab. */
static unsigned char *elf_with_section(const unsigned char *sec, size_t sec_size,
                                       size_t *size) {
  static const char strtab[] = "\0.gpucc_fatbin\0.shstrtab";
  size_t sec_off = sizeof(Elf64_Ehdr);
  size_t str_off = (sec_off + sec_size + 7) & ~(size_t)7;
  size_t sh_off = (str_off + sizeof strtab + 7) & ~(size_t)7;
  *size = sh_off + 3 * sizeof(Elf64_Shdr);
  unsigned char *d = calloc(1, *size);
  size_t hsize;
  unsigned char *h = elf(EM_X86_64, 0, 0, ET_REL, 0, &hsize);
  memcpy(d, h, sizeof(Elf64_Ehdr));
  free(h);
  Elf64_Ehdr *eh = (Elf64_Ehdr *)d;
  eh->e_shoff = sh_off;
  eh->e_ehsize = sizeof(Elf64_Ehdr);
  eh->e_shentsize = sizeof(Elf64_Shdr);
  eh->e_shnum = 3;
  eh->e_shstrndx = 2;
  memcpy(d + sec_off, sec, sec_size);
  memcpy(d + str_off, strtab, sizeof strtab);
  Elf64_Shdr sh[3] = {{0}};
  sh[1] = (Elf64_Shdr){.sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
                       .sh_offset = sec_off, .sh_size = sec_size, .sh_addralign = 8};
  sh[2] = (Elf64_Shdr){.sh_name = 15, .sh_type = SHT_STRTAB, .sh_offset = str_off,
                       .sh_size = sizeof strtab, .sh_addralign = 1};
  memcpy(d + sh_off, sh, sizeof sh);
  return d;
}

int main(int argc, char **argv) {
  if (argc != 2)
    die("usage: fatbin_make_corpus DIR");
  const char *dir = argv[1];
  static const char ptx80[] = ".version 7.8\n.target sm_80\n.address_size 64\n";
  static const char ptx90[] = ".version 7.8\n.target sm_90\n.address_size 64\n";
  size_t s80, s90, s90a, s942, sso;
  unsigned char *c80 = elf(190, 41, 8, ET_EXEC, 0x6005004, &s80);
  unsigned char *c90 = elf(190, 41, 8, ET_EXEC, 0x6005a04, &s90);
  unsigned char *h90a = elf(224, 64, 3, ET_DYN, 0x53f, &s90a);
  unsigned char *h942 = elf(224, 64, 3, ET_DYN, 0x64c, &s942);
  unsigned char *so = elf(EM_X86_64, 0, 0, ET_DYN, 0, &sso);
  const struct fatbin_entry e[] = {
      {"kernels", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, c80, s80, "+ptx78"},
      {"kernels", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, c90, s90, "+ptx78"},
      {"kernels", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_PTX, ptx80, sizeof ptx80, "+ptx78"},
      {"kernels", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, ptx90, sizeof ptx90, "+ptx78"},
      {"kernels", FATBIN_VENDOR_AMD, "gfx90a", FATBIN_FORMAT_HSACO, h90a, s90a, NULL},
      {"kernels", FATBIN_VENDOR_AMD, "gfx942:xnack-", FATBIN_FORMAT_HSACO, h942, s942, "-xnack"},
      {"kernels", FATBIN_VENDOR_HOST, "host", FATBIN_FORMAT_SO, so, sso, NULL},
  };
  size_t n = sizeof e / sizeof e[0], size, size2;
  static const char *const names[] = {"v3-none.blob", "v3-fast.blob", "v3-size.blob"};
  for (int m = FATBIN_COMPRESS_NONE; m <= FATBIN_COMPRESS_SIZE; m++) {
    void *blob = write_blob(e, n, (enum fatbin_compress)m, &size);
    save(dir, names[m], blob, size);
    free(blob);
  }
  void *blob = write_blob(NULL, 0, FATBIN_COMPRESS_SIZE, &size);
  save(dir, "v3-empty.blob", blob, size);
  free(blob);
  blob = v1_blob(&size);
  save(dir, "v1.blob", blob, size);
  free(blob);

  /* Two blobs in one section, 16 zero bytes between them. */
  unsigned char *b1 = write_blob(e, n, FATBIN_COMPRESS_SIZE, &size);
  unsigned char *b2 = write_blob(&e[4], 1, FATBIN_COMPRESS_NONE, &size2);
  unsigned char *sec = calloc(1, size + 16 + size2);
  memcpy(sec, b1, size);
  memcpy(sec + size + 16, b2, size2);
  size_t esize;
  unsigned char *obj = elf_with_section(sec, size + 16 + size2, &esize);
  save(dir, "elf-two-blobs.o", obj, esize);
  free(obj);
  free(sec);
  free(b1);
  free(b2);
  free(c80);
  free(c90);
  free(h90a);
  free(h942);
  free(so);
  return 0;
}
