/* check_test.c: fatbin_check_object and fatbin_verify, on hand-made headers.
 *
 * The ELF headers here carry the exact e_flags real tools write: ptxas 13.0
 * gives 0x6005a04 for sm_90 and 0x6006402 for sm_100 with EI_ABIVERSION 8
 * (the sm in bits 8-15), older ptxas put the sm in the low byte with
 * EI_ABIVERSION 7; LLVM 22 gives an hsaco for gfx90a e_flags 0x53f (xnack
 * and sramecc "any", code object v5, EI_ABIVERSION 3). Each check is tried
 * with the right label and with a wrong one, so that a check that never
 * fails would be noticed. Real objects from gpucc are checked by tool_test.sh. */
#include <elf.h>

#include "test_util.h"

static unsigned char ehdr[sizeof(Elf64_Ehdr)];

static const unsigned char *make_ehdr(unsigned machine, unsigned osabi, unsigned abiversion,
                                      unsigned type, uint32_t flags) {
  Elf64_Ehdr h = {0};
  memcpy(h.e_ident, ELFMAG, SELFMAG);
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_ident[EI_DATA] = ELFDATA2LSB;
  h.e_ident[EI_VERSION] = EV_CURRENT;
  h.e_ident[EI_OSABI] = (unsigned char)osabi;
  h.e_ident[EI_ABIVERSION] = (unsigned char)abiversion;
  h.e_type = (Elf64_Half)type;
  h.e_machine = (Elf64_Half)machine;
  h.e_version = EV_CURRENT;
  h.e_flags = flags;
  memcpy(ehdr, &h, sizeof h);
  return ehdr;
}

/* Checks data against an entry built from the other arguments; returns
 * fatbin_check_object's result and leaves its message in last_err. */
static char last_err[256];
static int check(enum fatbin_vendor v, enum fatbin_format f, const char *target,
                 const char *features, const void *data, size_t size) {
  struct fatbin_entry e = {"k", v, target, f, data, size, features};
  last_err[0] = '\0';
  int r = fatbin_check_object(&e, data, size, last_err, sizeof last_err);
  CHECK(r == 0 || strncmp(last_err, "fatbin: ", 8) == 0);
  return r;
}

static int cubin(const char *target, unsigned abiversion, uint32_t flags) {
  return check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_CUBIN, target, NULL,
               make_ehdr(190, 41, abiversion, ET_EXEC, flags), sizeof ehdr);
}

static int hsaco(const char *target, const char *features, unsigned abiversion,
                 uint32_t flags) {
  return check(FATBIN_VENDOR_AMD, FATBIN_FORMAT_HSACO, target, features,
               make_ehdr(224, 64, abiversion, ET_DYN, flags), sizeof ehdr);
}

static void test_cubin(void) {
  /* ELF ABI version 8 (ptxas 13): sm in bits 8-15. */
  CHECK(cubin("sm_90", 8, 0x6005a04) == 0);
  CHECK(cubin("sm_80", 8, 0x6005004) == 0);
  CHECK(cubin("sm_100", 8, 0x6006402) == 0);
  CHECK(cubin("sm_90a", 8, 0x6005a04) == 0); /* ptxas 13 sets no bit for "a" */
  CHECK(cubin("sm_80", 8, 0x6005a04) == -1 && strstr(last_err, "is for sm_90"));
  CHECK(cubin("sm_100", 8, 0x6006402 | 0x8) == -1 && strstr(last_err, "sm_100a"));
  CHECK(cubin("sm_100a", 8, 0x6006402 | 0x8) == 0);
  /* ELF ABI version 7 (CUDA before 12.8): sm in the low byte. */
  CHECK(cubin("sm_80", 7, 0x500550) == 0);
  CHECK(cubin("sm_90", 7, 0x500550) == -1 && strstr(last_err, "is for sm_80"));
  CHECK(cubin("sm_90", 7, 0x5a055a | 0x800) == -1 && strstr(last_err, "sm_90a"));
  CHECK(cubin("sm_90a", 7, 0x5a055a | 0x800) == 0);
  /* Not an NVIDIA object, or not filed as one. */
  CHECK(check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_CUBIN, "sm_90", NULL,
              make_ehdr(224, 64, 3, ET_DYN, 0x53f), sizeof ehdr) == -1 &&
        strstr(last_err, "e_machine 224, not EM_CUDA"));
  CHECK(check(FATBIN_VENDOR_AMD, FATBIN_FORMAT_CUBIN, "sm_90", NULL,
              make_ehdr(190, 41, 8, ET_EXEC, 0x6005a04), sizeof ehdr) == -1 &&
        strstr(last_err, "filed under vendor amd"));
  CHECK(cubin("gfx90a", 8, 0x6005a04) == -1 && strstr(last_err, "not an NVIDIA target"));
  CHECK(check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_CUBIN, "sm_90", NULL, "text", 4) == -1 &&
        strstr(last_err, "not an ELF"));
  make_ehdr(190, 41, 8, ET_EXEC, 0x6005a04);
  CHECK(check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_CUBIN, "sm_90", NULL, ehdr,
              sizeof ehdr - 1) == -1 &&
        strstr(last_err, "not an ELF"));
  ehdr[EI_CLASS] = ELFCLASS32;
  CHECK(check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_CUBIN, "sm_90", NULL, ehdr, sizeof ehdr) ==
            -1 &&
        strstr(last_err, "64-bit"));
}

static void test_hsaco(void) {
  /* Code object v5 (EI_ABIVERSION 3), two-bit feature fields. */
  CHECK(hsaco("gfx90a", NULL, 3, 0x53f) == 0);
  CHECK(hsaco("gfx942", NULL, 3, 0x54c) == 0);
  CHECK(hsaco("gfx90a", NULL, 3, 0x54c) == -1 && strstr(last_err, "is for gfx942"));
  CHECK(hsaco("gfx90a:xnack-", NULL, 3, 0x53f) == -1 &&
        strstr(last_err, "xnack any") && strstr(last_err, "off wanted"));
  CHECK(hsaco("gfx90a:xnack-", NULL, 3, 0x63f) == 0);
  CHECK(hsaco("gfx90a:xnack+", NULL, 3, 0x63f) == -1);
  CHECK(hsaco("gfx90a:xnack+:sramecc-", NULL, 3, 0x83f | 0x300) == 0);
  CHECK(hsaco("gfx90a", "+sramecc", 3, 0xd3f) == 0);
  CHECK(hsaco("gfx90a", "+sramecc", 3, 0x53f) == -1 && strstr(last_err, "sramecc any"));
  CHECK(hsaco("gfx90a", "-xnack,+sramecc", 3, 0xe3f) == 0);
  CHECK(hsaco("gfx90a:xnack-", "+xnack", 3, 0x63f) == -1 && strstr(last_err, "disagree"));
  CHECK(hsaco("gfx90a", NULL, 3, 0x03f) == 0); /* features unsupported: fine for "any" */
  /* Code object v3 (EI_ABIVERSION 1): one bit each, no "any". */
  CHECK(hsaco("gfx90a:xnack+", NULL, 1, 0x13f) == 0);
  CHECK(hsaco("gfx90a:xnack-", NULL, 1, 0x13f) == -1 && strstr(last_err, "xnack on"));
  CHECK(hsaco("gfx90a", NULL, 1, 0x33f) == 0);
  /* Processor table and the rest of the header. */
  CHECK(hsaco("gfx1100", NULL, 3, 0x041) == 0);
  CHECK(hsaco("gfx9-generic", NULL, 4, 0x1000051) == 0);
  CHECK(hsaco("gfx9999", NULL, 3, 0x53f) == -1 && strstr(last_err, "unknown AMD processor"));
  CHECK(check(FATBIN_VENDOR_AMD, FATBIN_FORMAT_HSACO, "gfx90a", NULL,
              make_ehdr(224, 0, 3, ET_DYN, 0x53f), sizeof ehdr) == -1 &&
        strstr(last_err, "not HSA"));
}

static int ptx(const char *target, const char *features, const char *text) {
  return check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_PTX, target, features, text,
               strlen(text) + 1);
}

static void test_ptx(void) {
  static const char text[] = "//\n// Generated by LLVM NVPTX Back-End\n//\n\n.version 7.8\n"
                             ".target sm_90\n.address_size 64\n";
  CHECK(ptx("sm_90", NULL, text) == 0);
  CHECK(ptx("sm_90", "+ptx78", text) == 0);
  CHECK(ptx("sm_90", "+ptx80", text) == -1 && strstr(last_err, "version 7.8"));
  CHECK(ptx("sm_80", NULL, text) == -1 && strstr(last_err, "is for sm_90"));
  CHECK(ptx("sm_90a", NULL, text) == -1);
  CHECK(ptx("sm_90a", NULL, ".version 8.0\n.target sm_90a, debug\n") == 0);
  CHECK(ptx("sm_90", NULL, ".version 8.0\n// .target sm_90\n") == -1 &&
        strstr(last_err, "no .target"));
  CHECK(ptx("sm_90", "+ptx80", ".target sm_90\n") == -1 && strstr(last_err, "no .version"));
  CHECK(check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_PTX, "sm_90", NULL, text,
              sizeof text - 1) == -1 &&
        strstr(last_err, "NUL-terminated"));
}

static void test_so(void) {
  CHECK(check(FATBIN_VENDOR_HOST, FATBIN_FORMAT_SO, "host", NULL,
              make_ehdr(EM_X86_64, 0, 0, ET_DYN, 0), sizeof ehdr) == 0);
  CHECK(check(FATBIN_VENDOR_HOST, FATBIN_FORMAT_SO, "host", NULL,
              make_ehdr(EM_X86_64, 0, 0, ET_EXEC, 0), sizeof ehdr) == -1 &&
        strstr(last_err, "not a shared object"));
  CHECK(check(FATBIN_VENDOR_HOST, FATBIN_FORMAT_SO, "host", NULL,
              make_ehdr(EM_AARCH64, 0, 0, ET_DYN, 0), sizeof ehdr) == -1 &&
        strstr(last_err, "e_machine 183"));
  CHECK(check(FATBIN_VENDOR_NVIDIA, FATBIN_FORMAT_SO, "host", NULL,
              make_ehdr(EM_X86_64, 0, 0, ET_DYN, 0), sizeof ehdr) == -1);
}

/* A shared object whose headers place things: one loadable segment over the
 * whole image, one PROGBITS section in it and one NOBITS section beyond it.
 * The layout check refuses each way of placing something outside the file. */
enum { LAYOUT_SIZE = 512 };
static unsigned char image[LAYOUT_SIZE];
static Elf64_Phdr *layout_phdr(void) { return (Elf64_Phdr *)(image + sizeof(Elf64_Ehdr)); }
static Elf64_Shdr *layout_shdr(int i) {
  return (Elf64_Shdr *)(image + 256) + i;
}
static void make_layout(void) {
  memset(image, 0, sizeof image);
  memcpy(image, make_ehdr(EM_X86_64, 0, 0, ET_DYN, 0), sizeof ehdr);
  Elf64_Ehdr *h = (Elf64_Ehdr *)image;
  h->e_phoff = sizeof(Elf64_Ehdr);
  h->e_phentsize = sizeof(Elf64_Phdr);
  h->e_phnum = 1;
  h->e_shoff = 256;
  h->e_shentsize = sizeof(Elf64_Shdr);
  h->e_shnum = 3;
  h->e_shstrndx = 0;
  *layout_phdr() = (Elf64_Phdr){.p_type = PT_LOAD, .p_offset = 0, .p_filesz = LAYOUT_SIZE,
                                .p_memsz = LAYOUT_SIZE + 64};
  *layout_shdr(1) = (Elf64_Shdr){.sh_type = SHT_PROGBITS, .sh_offset = 128, .sh_size = 64};
  *layout_shdr(2) = (Elf64_Shdr){.sh_type = SHT_NOBITS, .sh_offset = 4096, .sh_size = 4096};
}
static int layout(size_t size) {
  return check(FATBIN_VENDOR_HOST, FATBIN_FORMAT_SO, "host", NULL, image, size);
}

static void test_layout(void) {
  make_layout();
  CHECK(layout(LAYOUT_SIZE) == 0);
  /* Cut short: the section headers (at 256..448) go first. */
  CHECK(layout(400) == -1 && strstr(last_err, "is damaged: its section headers lie outside"));
  make_layout();
  layout_phdr()->p_filesz = LAYOUT_SIZE + 1;
  CHECK(layout(LAYOUT_SIZE) == -1 && strstr(last_err, "a segment's bytes lie outside"));
  make_layout();
  layout_phdr()->p_offset = UINT64_MAX - 8; /* offset + size wraps */
  CHECK(layout(LAYOUT_SIZE) == -1 && strstr(last_err, "a segment's bytes lie outside"));
  make_layout();
  layout_phdr()->p_memsz = 8;
  CHECK(layout(LAYOUT_SIZE) == -1 && strstr(last_err, "smaller than its bytes"));
  make_layout();
  layout_shdr(1)->sh_size = LAYOUT_SIZE;
  CHECK(layout(LAYOUT_SIZE) == -1 && strstr(last_err, "a section's bytes lie outside"));
  make_layout();
  ((Elf64_Ehdr *)image)->e_phentsize = 40;
  CHECK(layout(LAYOUT_SIZE) == -1 && strstr(last_err, "program headers"));
  make_layout();
  ((Elf64_Ehdr *)image)->e_shoff = LAYOUT_SIZE - 64;
  CHECK(layout(LAYOUT_SIZE) == -1 && strstr(last_err, "section headers"));
  make_layout();
  ((Elf64_Ehdr *)image)->e_shstrndx = 3;
  CHECK(layout(LAYOUT_SIZE) == -1 && strstr(last_err, "section-name table"));
}

/* fatbin_verify puts the hash and the header checks together. */
static void test_verify(void) {
  unsigned char sm80[sizeof ehdr], sm90[sizeof ehdr];
  memcpy(sm80, make_ehdr(190, 41, 8, ET_EXEC, 0x6005004), sizeof ehdr);
  memcpy(sm90, make_ehdr(190, 41, 8, ET_EXEC, 0x6005a04), sizeof ehdr);
  struct fatbin_entry e[] = {
      {"k", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, sm80, sizeof sm80, NULL},
      {"k", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, sm80, sizeof sm80, NULL},
      {"k", FATBIN_VENDOR_NVIDIA, "sm_100", FATBIN_FORMAT_CUBIN, sm90, sizeof sm90, NULL},
  };
  for (int m = FATBIN_COMPRESS_NONE; m <= FATBIN_COMPRESS_SIZE; m++) {
    size_t size;
    unsigned char *blob = write_blob_mode(e, 3, NULL, (enum fatbin_compress)m, &size);
    struct fatbin *fb = NULL;
    char err[256];
    CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
    REQUIRE(fb);
    CHECK(fatbin_verify(fb, 0, err, sizeof err) == 0);
    CHECK(fatbin_verify(fb, 1, err, sizeof err) == -1 && strstr(err, "filed as sm_90 is for sm_80"));
    CHECK(fatbin_verify(fb, 2, err, sizeof err) == -1 && strstr(err, "is for sm_90"));
    fatbin_close(fb);
    /* A changed byte of a stored object: the hash says so. */
    if (m == FATBIN_COMPRESS_NONE) {
      unsigned char *p = NULL;
      for (size_t at = 0; !p && at + sizeof sm80 <= size; at++)
        if (memcmp(blob + at, sm80, sizeof sm80) == 0)
          p = blob + at;
      REQUIRE(p);
      p[60] ^= 1; /* past the fields the header checks read */
      CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
      CHECK(fb && fatbin_verify(fb, 0, err, sizeof err) == -1 && strstr(err, "sha256"));
      fatbin_close(fb);
    }
    free(blob);
  }
}

int main(void) {
  test_cubin();
  test_hsaco();
  test_ptx();
  test_so();
  test_layout();
  test_verify();
  return finish("check_test");
}
