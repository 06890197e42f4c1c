/* fatbin.h: gpucc's fat-binary archive, the one file format gpucc owns.
 *
 * One archive ("blob") holds every device object compiled from one
 * gpu.module: a cubin and a PTX per NVIDIA target, an hsaco per AMD target, a
 * shared object for the host target. The driver writes it (fatbin_write_ex)
 * and embeds it in the host object, in the ELF section ".gpucc_fatbin"; the
 * runtime reads its index (fatbin_open), picks one object and inflates only
 * that object's frame and its dictionary (fatbin_read_object). The format is
 * specified in docs/fatbin.md; in short:
 *
 *   offset 0   8 bytes  magic "GPUCCFAT"
 *   offset 8   u32 LE   format version: 3 is written, 1 to 3 are read
 *   offset 12  u32 LE   flags: FATBIN_FLAG_ZSTD, or 0 (version 1: always 0)
 *   offset 16  u64 LE   size in bytes of the payload that follows
 *   offset 24  payload  a ustar archive (written with libarchive, read by
 *                       our own reader, fatbin_tar.c),
 *                       stored as it is, or (FATBIN_FLAG_ZSTD) as a sequence
 *                       of zstd frames, one per object, whose contents
 *                       (each decoded with the dictionary the manifest
 *                       names for it, if any) concatenated are it;
 *                       zero bytes pad the blob to a multiple of 8
 *
 * The first tar member is MANIFEST, a text file naming every object with
 * its target, features, size and SHA-256, and the gpucc and LLVM versions and
 * code-affecting flags of the build. The objects follow as members
 * "<module>/<target>.<format>", in a fixed order with fixed metadata, so the
 * same objects and metadata always give byte-identical blobs.
 *
 * Nothing in this library prints: errors come back as -1 and a message in
 * the caller's buffer (err, errlen; err may be NULL). It is two libraries:
 * the reader (gpucc_fatbin_read: everything but fatbin_write*) needs libzstd
 * alone, because the runtime, static one included, links it; the writer
 * (gpucc_fatbin) adds libarchive. Neither links MLIR/LLVM. */
#ifndef GPUCC_FATBIN_H
#define GPUCC_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAGIC "GPUCCFAT"
#define FATBIN_MAGIC_SIZE 8
#define FATBIN_HEADER_SIZE 24
#define FATBIN_VERSION 3     /* the version written */
#define FATBIN_VERSION_MIN 1 /* the oldest version read */
#define FATBIN_FLAG_ZSTD 1u  /* header flag: the payload is zstd frames */
#define FATBIN_SECTION ".gpucc_fatbin"
/* The largest object the writer accepts and the reader inflates. */
#define FATBIN_MAX_OBJECT_SIZE ((size_t)1 << 30)
#define FATBIN_SHA256_SIZE 32

/* Vendor and format ids. What each means (its name in manifests, which
 * vendor owns a format, how an object is checked) is its vendor's row in
 * the library's vendor table (fatbin_vendors.c), not code that switches on
 * the ids. The numbers are part of the format: the writer orders an
 * archive's objects by vendor id, so they never change. A test build may
 * link rows with ids beyond these. */
enum fatbin_vendor {
  FATBIN_VENDOR_NVIDIA,
  FATBIN_VENDOR_AMD,
  FATBIN_VENDOR_HOST,
  FATBIN_VENDOR_VULKAN, /* any Vulkan device (fatbin_vulkan.c) */
};

enum fatbin_format {
  FATBIN_FORMAT_CUBIN, /* NVIDIA ELF from ptxas */
  FATBIN_FORMAT_PTX,   /* NUL-terminated PTX text, for driver JIT */
  FATBIN_FORMAT_HSACO, /* AMD code object (ELF shared object) */
  FATBIN_FORMAT_SO,    /* native shared object for the host target */
  /* The host target's kernels of every gpu.module of a program in one
   * shared object (one link, not one per module), each module's symbols
   * behind a prefix of its own. One module's archive carries it; it is
   * never chosen itself: each module's SO_REF names it. */
  FATBIN_FORMAT_SO_LIB,
  /* A host module's kernels in an SO_LIB: the text "<library's SHA-256,
   * hex> <symbol prefix>\n" (FATBIN_SO_REF_*). Chosen like an SO. */
  FATBIN_FORMAT_SO_REF,
  /* A SPIR-V module for Vulkan compute in gpucc's kernel ABI
   * (docs/architecture.md, "The spirv target"). */
  FATBIN_FORMAT_SPIRV,
};

/* An SO_REF's text: 64 hex digits, a space, the prefix, a newline. */
#define FATBIN_SO_REF_MAX_PREFIX 64
#define FATBIN_SO_REF_MAX_SIZE (2 * FATBIN_SHA256_SIZE + 1 + FATBIN_SO_REF_MAX_PREFIX + 1)
/* Module i's symbol prefix in an SO_LIB ("__gpucc_m3."): the lowering
 * renames the module's definitions so, the driver records it. */
void fatbin_so_ref_prefix(size_t module, char *buf, size_t size);
/* Writes an SO_REF's text into buf; returns its length (no NUL counted). */
size_t fatbin_so_ref_write(const unsigned char lib_sha256[FATBIN_SHA256_SIZE], const char *prefix,
                           char buf[FATBIN_SO_REF_MAX_SIZE + 1]);
/* Reads an SO_REF: the library's hash and the prefix (NUL-terminated).
 * Returns 0, or -1 when data is not one. */
int fatbin_so_ref_read(const void *data, size_t size, unsigned char lib_sha256[FATBIN_SHA256_SIZE],
                       char prefix[FATBIN_SO_REF_MAX_PREFIX + 1]);

/* How the writer stores the objects (--fatbin-compress=none|fast|size).
 * Both compressed modes put each object in a zstd frame of its own; within
 * a family (the cubins of a module, its PTX, its hsaco) a few objects are
 * compressed alone and each other one against the closest of them, given
 * as a raw-content dictionary, so that near-duplicates (the sm_86 and sm_89
 * cubins) cost little more than one. The modes differ in the zstd level
 * only: FAST (3) costs little at build time, SIZE (19) gives the smallest
 * archives. Loading one object inflates its frame and, if it has one, its
 * dictionary's frame: at most two objects, however many the archive holds. */
enum fatbin_compress {
  FATBIN_COMPRESS_NONE, /* plain tar: objects readable in place */
  FATBIN_COMPRESS_FAST,
  FATBIN_COMPRESS_SIZE,
};
/* FAST: on the test programs it gives 0.22x of the raw objects against
 * SIZE's 0.20x, and writes 10 to 35 times faster (tests/bench/fatbin). */
#define FATBIN_COMPRESS_DEFAULT FATBIN_COMPRESS_FAST

/* One object. All strings and data are borrowed: for the writer they belong
 * to the caller; for entries of an open archive they belong to the archive
 * (and data is NULL there: the bytes come from fatbin_read_object). Callers
 * that fill the struct positionally and leave `features` out get the
 * zero value, "no features recorded". */
struct fatbin_entry {
  const char *module; /* gpu.module symbol name */
  enum fatbin_vendor vendor;
  const char *target; /* "sm_90", "gfx942:xnack-", "host" */
  enum fatbin_format format;
  const void *data;
  size_t size;
  /* Code-generation features in LLVM's spelling, comma-separated, no spaces:
   * the PTX ISA version for NVIDIA ("+ptx78"), xnack/sramecc for AMD
   * ("+xnack,-sramecc"; a feature left out means "any"). NULL or "": none. */
  const char *features;
};

/* The most threads a block of a kernel may have on every GPU gpucc targets
 * (CUDA's and HIP's limit): what a kernel is compiled for when its gpu.func
 * does not fix its block size (known_block_size), what the driver records
 * for it, and what the runtime holds launches to. Defined here, the one
 * header the lowering, the driver and the runtime all include, so that
 * they cannot disagree. */
#define GPUCC_MAX_BLOCK_THREADS 1024

/* What one kernel was compiled for, as a `kernel` line of the manifest
 * records it (docs/fatbin.md, section 3): the launches a GPU accepts. The
 * runtime refuses a launch outside them on every backend, with a message
 * naming the target that would. Strings are borrowed like entries'. */
struct fatbin_kernel {
  const char *module; /* gpu.module symbol name */
  const char *name;   /* the kernel's symbol name: any non-empty text */
  const char *target; /* NULL: every object of the module; else the objects
                         of this target only, which then ignore the line
                         without a target */
  uint32_t threads;   /* most threads per block; 0: not recorded */
  uint32_t block[3];  /* the only block shape it runs with (known_block_size),
                         or {0, 0, 0}: any shape */
  uint64_t shared;    /* bytes of workgroup memory it declares itself (its
                         attributions; at least what the object has) */
};

/* What built the archive. Strings are borrowed like entries'; any may be
 * NULL (not recorded), and any text is allowed (the manifest escapes it).
 * Callers that fill the struct positionally and leave out `kernels` record
 * none. */
struct fatbin_meta {
  const char *gpucc_version; /* "0.1.0" */
  const char *llvm_version;  /* "22.1.8" */
  const char *flags;         /* the options that affect code, one string */
  /* What each kernel was compiled for; any order (the writer sorts them by
   * module, name, then target, the line without one first). (module, name,
   * target) must be unique. Read back in that order. */
  const struct fatbin_kernel *kernels;
  size_t nkernels;
};

/* Names as they appear in manifests and listings ("nvidia", "cubin",
 * "size"); NULL for an id no row of the vendor table has, or a mode out of
 * range. */
const char *fatbin_vendor_name(enum fatbin_vendor v);
const char *fatbin_format_name(enum fatbin_format f);
const char *fatbin_compress_name(enum fatbin_compress c);
/* Inverse of the above; return 0 on success, -1 for an unknown name. */
int fatbin_vendor_parse(const char *name, enum fatbin_vendor *out);
int fatbin_format_parse(const char *name, enum fatbin_format *out);
int fatbin_compress_parse(const char *name, enum fatbin_compress *out);
/* Whether objects of format f are NUL-terminated text that a driver loads
 * as such (PTX); 0 for binaries and unknown formats. */
int fatbin_format_is_text(enum fatbin_format f);

/* ---- writing (driver side) ------------------------------------------------
 *
 * Writes a blob holding the n entries into a malloc'ed buffer that the
 * caller frees (*out; its size in *out_size, a multiple of 8). The order of
 * the entries does not matter: they are sorted by (module, vendor, format,
 * target, with numbers in targets compared by value). Module and target
 * names must be printable ASCII without ' ', '=', '/' and not "." or "..";
 * features likewise (or NULL); (module, target, format) must be unique;
 * objects must be at most FATBIN_MAX_OBJECT_SIZE bytes. meta may be NULL.
 * Same entries, meta and mode give the same bytes (with the same libzstd).
 * Returns 0, or -1 with a message in err and *out NULL.
 *
 * What the driver passes, per gpu.module:
 *   entries  one per object, with `features` set: "+ptxNN" from the PTX ISA
 *            version chosen for the target (both its cubin and its PTX),
 *            "+xnack"/"-xnack"/"+sramecc"/"-sramecc" as the AMD target id
 *            asks (NULL for plain "gfx90a" and for host);
 *   meta     gpucc_version = PROJECT_VERSION, llvm_version = the MLIR/LLVM
 *            that lowered the code (MLIR_VERSION), flags = the options that
 *            change the objects, space-separated as on the command line
 *            ("-O3 -g -Xptxas -v"; the targets are the entries' own),
 *            kernels = one per kernel of each gpu.module, without a target:
 *            threads = the product of its known_block_size, block = that
 *            size, or threads = GPUCC_MAX_BLOCK_THREADS and any block when
 *            it has none; shared = its workgroup attributions' bytes;
 *   mode     FATBIN_COMPRESS_DEFAULT unless --fatbin-compress= says otherwise
 *            (parse its value with fatbin_compress_parse). */
int fatbin_write_ex(const struct fatbin_entry *entries, size_t n,
                    const struct fatbin_meta *meta, enum fatbin_compress mode,
                    void **out, size_t *out_size, char *err, size_t errlen);
/* fatbin_write_ex(entries, n, NULL, FATBIN_COMPRESS_DEFAULT, ...). */
int fatbin_write(const struct fatbin_entry *entries, size_t n, void **out,
                 size_t *out_size, char *err, size_t errlen);

/* ---- reading (runtime and tool side) ------------------------------------ */

/* True when data starts with a blob header (magic and a version this reader
 * knows). */
int fatbin_is_blob(const void *data, size_t size);

/* An archive's index: the manifest, parsed and checked against the payload.
 * It borrows the blob, which must stay in place until fatbin_close. */
struct fatbin;

/* Parses a blob's header and manifest; reads no object (a compressed blob
 * inflates only its small manifest frame). Every size and offset is checked
 * against the bytes present; a truncated, corrupted or hostile blob is an
 * error, never a crash or an allocation beyond a fixed cap. Trailing bytes
 * after the blob are ignored. Returns 0 with *out to release with
 * fatbin_close, or -1 with err set and *out NULL. */
int fatbin_open(const void *blob, size_t size, struct fatbin **out, char *err,
                size_t errlen);
void fatbin_close(struct fatbin *fb); /* NULL is allowed */

unsigned fatbin_version(const struct fatbin *fb);    /* 1, 2 or 3 */
size_t fatbin_blob_size(const struct fatbin *fb);    /* header + payload */
int fatbin_is_compressed(const struct fatbin *fb);   /* FATBIN_FLAG_ZSTD set */
/* The build's versions and flags, and its kernels' limits; fields NULL (0
 * kernels) where not recorded (always for version 1). Never NULL itself for
 * an open archive. */
const struct fatbin_meta *fatbin_get_meta(const struct fatbin *fb);
/* The kernel line that applies to kernel `name` of object i: the one naming
 * the object's module and target, else the one naming its module and no
 * target; NULL when there is none (nothing recorded: an older gpucc, or a
 * plain object) or i is out of range. */
const struct fatbin_kernel *fatbin_find_kernel(const struct fatbin *fb, size_t i,
                                               const char *name);
/* The compression mode named in the manifest ("none", "fast", "size"), or
 * NULL when it names none (version 1). */
const char *fatbin_compress_mode(const struct fatbin *fb);

/* The objects, in archive order. Entries of a vendor or format this reader
 * does not know are skipped (a later gpucc may add some); fatbin_skipped
 * counts them. fatbin_get returns NULL for i out of range; its entry's data
 * is NULL. */
size_t fatbin_count(const struct fatbin *fb);
size_t fatbin_skipped(const struct fatbin *fb);
const struct fatbin_entry *fatbin_get(const struct fatbin *fb, size_t i);

/* How object i is stored, for tools. */
struct fatbin_object_info {
  const char *file;   /* tar member name, "<module>/<target>.<format>" */
  size_t stored_size; /* bytes it takes in the payload (compressed, with its
                         tar header) or its size when stored as it is */
  unsigned frame;     /* zstd frame holding it (1-based); 0 when stored */
  size_t offset;      /* offset of its data in that frame's content */
  size_t frame_size;  /* that frame's content size (what loading inflates) */
  int has_sha256;     /* version 1 records no hash */
  unsigned char sha256[FATBIN_SHA256_SIZE];
  /* Where that frame lies in the payload (the bytes after the header):
   * offset and compressed size. */
  size_t frame_pos, frame_stored;
  /* Version 3: the frame whose content is the dictionary its frame was
   * compressed against (`zstd -d -D`), 0 when none; that frame's content
   * size (which loading inflates too), offset and compressed size. */
  unsigned dict;
  size_t dict_size, dict_pos, dict_stored;
};
const struct fatbin_object_info *fatbin_get_info(const struct fatbin *fb, size_t i);

/* Gets object i's bytes: *data, *size. A stored object points into the blob
 * and *to_free is NULL; a compressed one is inflated (its dictionary's frame
 * first if it has one, checksums checked) into a buffer that *to_free owns:
 * free(*to_free) when done with *data. The hash is not checked here (see
 * fatbin_verify). Safe to call from several threads on the same archive.
 * Returns 0, or -1 with err set. */
int fatbin_read_object(const struct fatbin *fb, size_t i, const void **data,
                       size_t *size, void **to_free, char *err, size_t errlen);

/* Checks object i completely: reads it, compares its SHA-256 with the
 * manifest's (when recorded) and its contents with its entry
 * (fatbin_check_object). Returns 0, or -1 with the first problem in err. */
int fatbin_verify(const struct fatbin *fb, size_t i, char *err, size_t errlen);

/* Checks that data is what entry e says it is: a cubin is a 64-bit ELF with
 * e_machine EM_CUDA and the target's sm in e_flags; an hsaco is EM_AMDGPU
 * with the target's gfx processor in e_flags and xnack/sramecc bits that
 * agree with the target id and the features; PTX is NUL-terminated text
 * whose .target names the target (and .version the +ptx feature); a host
 * object is an ELF shared object for this machine. Returns 0, or -1 with
 * err set. */
int fatbin_check_object(const struct fatbin_entry *e, const void *data,
                        size_t size, char *err, size_t errlen);

/* SHA-256 of size bytes, and its lowercase hex spelling (65 bytes with NUL). */
void fatbin_sha256(const void *data, size_t size, unsigned char out[FATBIN_SHA256_SIZE]);
void fatbin_sha256_hex(const unsigned char sum[FATBIN_SHA256_SIZE],
                       char hex[2 * FATBIN_SHA256_SIZE + 1]);

/* ---- finding blobs in files ------------------------------------------------
 *
 * Finds the blobs of a file image: if data is an ELF file, every blob in its
 * .gpucc_fatbin section; otherwise data itself if it is a blob (and any blobs
 * that follow it, laid out as in the section). Calls visit for each
 * (stopping early if it returns non-zero, which is then returned). Returns 0
 * when done, -1 with err set when the file is neither a readable ELF with
 * the section nor a blob. */
typedef int (*fatbin_visit_fn)(const void *blob, size_t size, void *ud);
int fatbin_find_blobs(const void *data, size_t size, fatbin_visit_fn visit,
                      void *ud, char *err, size_t errlen);

/* Tells a tool whether data claims to carry a fat binary, so that "carries
 * none" can be told apart from "carries a broken one": 1 when data starts with
 * the blob magic (whatever its version) or is an ELF file with a .gpucc_fatbin
 * section, 0 otherwise (an ELF file without the section included). An ELF
 * file too damaged to tell gives 1, so that fatbin_find_blobs reports what is
 * wrong with it. */
int fatbin_probe(const void *data, size_t size);

#endif
