/* fatbin_private.h: what the fatbin sources share, not part of the API.
 *
 * Little-endian byte access, error plumbing, and the three pieces that the
 * writer and the reader both build on: the tar walker (fatbin_tar.c), the
 * manifest syntax (fatbin_manifest.c) and the zstd frames (fatbin_zstd.c to
 * read, fatbin_zstd_write.c to write).
 * The library never prints, so each failure ends in fatbin_error, which
 * fills the caller's buffer and returns -1 so that call sites read
 * `return fatbin_error(...)`. */
#ifndef GPUCC_FATBIN_PRIVATE_H
#define GPUCC_FATBIN_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

/* Caps that keep a hostile blob from turning into a huge allocation. The
 * writer stays within them, so a blob it wrote always reads back. A frame
 * of version 2 holds members up to 256 MiB of content or one larger member;
 * from version 3 on it holds one member. */
#define FATBIN_MAX_MANIFEST_SIZE ((size_t)16 << 20)
#define FATBIN_MAX_FRAME_SIZE (FATBIN_MAX_OBJECT_SIZE + 4096)
/* zstd levels of the two compressed modes, and the largest window (128 MiB,
 * what every zstd decoder accepts without being told otherwise). */
#define FATBIN_LEVEL_FAST 3
#define FATBIN_LEVEL_SIZE 19
#define FATBIN_MAX_WINDOW_LOG 27
/* Choosing which objects of a family are dictionaries for the others
 * (fatbin_write.c) compresses every pair once, at this level and on at most
 * this many leading bytes of each member: estimates, whatever the mode. */
#define FATBIN_LEVEL_TRIAL 1
#define FATBIN_TRIAL_BYTES ((size_t)1 << 20)
#define FATBIN_TAR_BLOCK 512

/* ---- the vendor table (fatbin_vendors.c, one row per vendor) -------------
 *
 * Everything the library knows of a vendor is its row: its name in
 * manifests, its object formats, and how an object of each format is
 * checked against its entry. Shared code (names, checks, the tool) loops
 * over the rows; no other file names a vendor. Adding a vendor is its row
 * file and a line in fatbin_vendors.c (a test build may link a list of its
 * own, with ids beyond the enum's). */

/* The ELF header fields the checks use. */
struct fatbin_ehdr {
  unsigned osabi, abiversion, type, machine;
  uint32_t flags;
};

/* One object format. */
struct fatbin_format_row {
  enum fatbin_format format; /* its id: archives sort by it, so it never changes */
  const char *name;          /* "cubin": in manifests and member names */
  int text;                  /* NUL-terminated text a driver loads as such (PTX) */
  /* An ELF format: the e_machine its objects must have (0: any) and its
   * name in messages ("EM_CUDA"). The shared check reads the header, checks
   * the layout and the machine before calling `check`. NULL: not ELF. */
  const char *elf_machine_name;
  unsigned elf_machine;
  /* The format's own checks of data against e; h is the ELF header of an
   * ELF format, NULL otherwise. Returns 0, or -1 with err set. */
  int (*check)(const struct fatbin_entry *e, const unsigned char *d, size_t size,
               const struct fatbin_ehdr *h, char *err, size_t errlen);
};

struct fatbin_vendor_row {
  enum fatbin_vendor vendor; /* its id in entries and archives' order */
  const char *name;          /* "nvidia": in manifests and listings */
  const struct fatbin_format_row *formats;
  size_t nformats;
};

/* The vendors this library knows, NULL-terminated (fatbin_vendors.c). */
extern const struct fatbin_vendor_row *const fatbin_vendors[];
extern const struct fatbin_vendor_row fatbin_vendor_nvidia, fatbin_vendor_amd,
    fatbin_vendor_host, fatbin_vendor_vulkan;
/* The row of a vendor id, or NULL. */
const struct fatbin_vendor_row *fatbin_vendor_find(enum fatbin_vendor v);
/* The row of a format id and, in *vendor, the vendor it belongs to (when
 * vendor is not NULL); NULL when no vendor has it. */
const struct fatbin_format_row *fatbin_format_find(enum fatbin_format f,
                                                   const struct fatbin_vendor_row **vendor);

/* What object i's own bytes say beyond its entry, in a few words, for
 * `gpucc-fatbin list` ("caps: Shader,Int64" for a SPIR-V module); "" when
 * its format has nothing to add or the bytes say nothing readable. The
 * formats that have something to say are listed in fatbin_notes.c, each
 * with its function in its row file: */
void fatbin_object_notes(const struct fatbin *fb, size_t i, char *buf, size_t len);
/* a SPIR-V module's OpCapability list (fatbin_vulkan.c). */
void fatbin_spirv_notes(const unsigned char *d, size_t size, char *buf, size_t len);

/* Checks that an ELF file's headers, segments and sections lie within its
 * size bytes (fatbin_elf_layout.c); d holds at least an Elf64_Ehdr. */
int fatbin_check_elf_layout(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                            char *err, size_t errlen);
/* Formats a message into err (when err and errlen allow) and returns -1
 * (fatbin_common.c, with the header, name and buffer helpers below). */
int fatbin_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Byte-wise accessors: blobs and ELF images are little-endian whatever the host
 * is, and need not be aligned in memory. */
static inline uint16_t fatbin_le16(const unsigned char *p) {
  return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}
static inline uint32_t fatbin_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static inline uint64_t fatbin_le64(const unsigned char *p) {
  return (uint64_t)fatbin_le32(p) | (uint64_t)fatbin_le32(p + 4) << 32;
}
static inline void fatbin_put_le32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}
static inline void fatbin_put_le64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* The fixed header of a blob. */
struct fatbin_header {
  uint32_t version, flags;
  uint64_t payload_size;
};

/* Reads a blob header at data. Returns 1 with *h set when the magic matches
 * and size covers the header, 0 otherwise. Does not judge the version:
 * callers word that error themselves. */
int fatbin_read_header(const void *data, size_t size, struct fatbin_header *h);
int fatbin_version_known(uint32_t version);

/* Module, target and feature names: printable ASCII without ' ', '=', '/',
 * and not "." or "..", so that they are safe as path components of
 * extracted files and unambiguous in the manifest. */
int fatbin_name_ok(const char *s);
/* The tar member name of an object, malloc'ed (NULL when out of memory):
 * "<module>/<target>.<format>" when ustar can hold it, else
 * FATBIN_LONG_NAME_DIR "/<sha256 of that path>.<format>" (docs/fatbin.md,
 * section 2). In fatbin_member_path.c, not with the helpers above in
 * fatbin_common.c: it reads the vendor table (the format's name), which
 * rows built on fatbin_common.c make up. */
char *fatbin_member_path(const struct fatbin_entry *e);
#define FATBIN_LONG_NAME_DIR "long"

/* ---- tar (fatbin_tar.c) -------------------------------------------------- */

/* One tar member found in a buffer. */
struct fatbin_member {
  char *name;                /* owned */
  const unsigned char *data; /* inside the walked buffer, never copied */
  size_t size;
  size_t header_pos; /* offset of its header in the buffer */
  size_t data_pos;   /* offset of its data: just past its header */
  int claimed;       /* named by a manifest line */
};

struct fatbin_members {
  struct fatbin_member *at;      /* in archive order */
  struct fatbin_member **sorted; /* by name, once the walk is done */
  size_t n, cap;
};

/* Lists the members of the ustar archive (or fragment: a buffer cut at a
 * member boundary, without the end-of-archive records) in buf, with our own
 * reader (no libarchive: the runtime uses it). Only plain files with
 * distinct names are accepted. Fills *ms (zero-initialized by the caller),
 * which the caller releases with fatbin_members_free even on failure. */
int fatbin_tar_walk(const unsigned char *buf, size_t size, struct fatbin_members *ms,
                    char *err, size_t errlen);
void fatbin_members_free(struct fatbin_members *ms);
/* The member called name, or NULL (bsearch over the sorted index). */
struct fatbin_member *fatbin_members_find(const struct fatbin_members *ms,
                                          const char *name);

/* ---- zstd frames (fatbin_zstd.c, fatbin_zstd_write.c) ------------------------ */

struct fatbin_frame {
  size_t pos, size;  /* compressed bytes in the payload */
  size_t content;    /* size of its content, from its header */
};

/* Lists the frames of a compressed payload without inflating any: each must
 * be a zstd frame (not a skippable one) that records its content size.
 * *frames is malloc'ed (free it even on failure). */
int fatbin_zstd_frames(const unsigned char *p, size_t size, struct fatbin_frame **frames,
                       size_t *n, char *err, size_t errlen);
/* A zstd decoding context (ZSTD_DCtx), NULL when out of memory. Creating
 * one costs more than inflating a small frame, so the reader keeps one per
 * open archive for reuse. */
struct ZSTD_DCtx_s;
struct ZSTD_DCtx_s *fatbin_zstd_decoder(void);
void fatbin_zstd_decoder_free(struct ZSTD_DCtx_s *dctx); /* NULL is allowed */
/* Inflates frame f of payload p with dctx (which nobody else may use
 * meanwhile) into a fresh buffer of f->content bytes, which must not exceed
 * `cap`. The frame's checksum, when it has one, is checked. With dict
 * (dict_size bytes; NULL: none), the frame is decoded with that raw-content
 * dictionary before its first byte, as ZSTD_DCtx_refPrefix and
 * `zstd -d -D` do. */
int fatbin_zstd_inflate(struct ZSTD_DCtx_s *dctx, const unsigned char *p,
                        const struct fatbin_frame *f, size_t cap, const unsigned char *dict,
                        size_t dict_size, unsigned char **out, char *err, size_t errlen);

/* Output of the compressor: one frame at a time, appended to a buffer, with
 * the compressed size of each piece written (`marks`), so that every member's
 * share of the frame is known. */
struct fatbin_buf {
  unsigned char *data;
  size_t len, cap;
};
int fatbin_buf_reserve(struct fatbin_buf *b, size_t extra);
int fatbin_buf_add(struct fatbin_buf *b, const void *data, size_t n);

/* (fatbin_zstd_write.c, writer only.) Compresses content (size bytes) as
 * one frame appended to out, flushing at each of the npieces piece ends
 * (ascending offsets into content, the last being size), and stores each
 * piece's compressed bytes in stored[]. With dict (dict_size bytes; NULL:
 * none), the frame is compressed against that raw-content dictionary
 * (ZSTD_CCtx_refPrefix), which the reader must then pass to
 * fatbin_zstd_inflate. */
int fatbin_zstd_frame(struct fatbin_buf *out, const unsigned char *content, size_t size,
                      const unsigned char *dict, size_t dict_size, int level,
                      const size_t *ends, size_t *stored, size_t npieces, char *err,
                      size_t errlen);
/* (Writer only.) Size estimates: fatbin_trial_size says how many bytes
 * content would take compressed at FATBIN_LEVEL_TRIAL against dict (NULL:
 * none), both cut to FATBIN_TRIAL_BYTES, or SIZE_MAX when zstd fails. A
 * trial (NULL when out of memory) keeps its compressor and buffer from
 * call to call. */
struct fatbin_trial;
struct fatbin_trial *fatbin_trial_new(void);
size_t fatbin_trial_size(struct fatbin_trial *t, const unsigned char *content, size_t size,
                         const unsigned char *dict, size_t dict_size);
void fatbin_trial_free(struct fatbin_trial *t); /* NULL is allowed */

/* ---- the manifest (fatbin_manifest.c) ----------------------------------- */

/* Where the writer put one object. */
struct fatbin_placement {
  unsigned frame; /* 0: not compressed */
  unsigned dict;  /* frame whose content is its frame's dictionary; 0: none */
  size_t offset, stored;
  unsigned char sha256[FATBIN_SHA256_SIZE];
};

/* Appends the manifest (of version FATBIN_VERSION) for the sorted entries
 * to b, with a kernel line for each of the nkernels sorted kernels (the
 * order of fatbin_kernel_cmp). */
int fatbin_manifest_build(struct fatbin_buf *b, const struct fatbin_entry *const *sorted,
                          const struct fatbin_placement *where, size_t n,
                          const struct fatbin_meta *meta, enum fatbin_compress mode,
                          const struct fatbin_kernel *const *kernels, size_t nkernels);

/* Kernel lines, the same rules for the writer and the reader, so that what
 * one accepts the other does: the module a valid name, the kernel's name
 * non-empty, the target absent or a valid name, a block shape all zeros or
 * all positive. Returns 0, or -1 with err set. */
int fatbin_kernel_check(const struct fatbin_kernel *k, char *err, size_t errlen);
/* Their order: module, name, then target, the line without one first; 0
 * only for the same (module, name, target), which may appear once. */
int fatbin_kernel_cmp(const struct fatbin_kernel *a, const struct fatbin_kernel *b);

/* The manifest as parsed: entries in manifest order; their strings point
 * into `text`, which parsing splits and unescapes in place. */
struct fatbin_manifest {
  char *text; /* owned */
  struct fatbin_entry *entries;
  struct fatbin_object_info *infos;
  size_t count, skipped;
  struct fatbin_meta meta; /* meta.kernels is `kernels`, sorted */
  const char *compress;
  struct fatbin_kernel *kernels; /* owned */
  size_t nkernels, kernels_cap;
};

/* Parses len bytes of manifest text of the given format version. The
 * object lines' files are checked for syntax only; binding them to the
 * payload is the reader's job. Release with fatbin_manifest_free, even on
 * failure. */
int fatbin_manifest_parse(const unsigned char *text, size_t len, unsigned version,
                          struct fatbin_manifest *m, char *err, size_t errlen);
void fatbin_manifest_free(struct fatbin_manifest *m);

/* SHA-256 blocks with the x86 SHA extensions (fatbin_sha256_x86.c): whether
 * this CPU has them, and nblocks 64-byte blocks mixed into h with them (k:
 * the 64 round constants). fatbin_sha256 picks them when usable. */
int fatbin_sha256_x86_usable(void);
void fatbin_sha256_x86_blocks(uint32_t h[8], const unsigned char *p, size_t nblocks,
                              const uint32_t k[64]);

/* SHA-256 by the portable code alone, whatever the CPU (for tests). */
void fatbin_sha256_portable(const void *data, size_t size, unsigned char out[FATBIN_SHA256_SIZE]);

/* Whether fatbin_sha256 uses the x86 SHA extensions on this machine. */
int fatbin_sha256_accelerated(void);

#endif
