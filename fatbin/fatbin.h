/* fatbin.h: gpucc's fat-binary archive, the one file format gpucc owns.
 *
 * One archive holds every device object compiled from one gpu.module: a cubin
 * and a PTX per NVIDIA target, an hsaco per AMD target, a shared object for
 * the host target. The driver writes it (fatbin_write) and embeds it in the
 * host object; the runtime reads it back (fatbin_open) and picks one object.
 *
 * On disk an archive ("blob") is a fixed 24-byte header followed by a tar
 * archive (ustar, written and read with libarchive):
 *
 *   offset 0   8 bytes  magic "GPUCCFAT"
 *   offset 8   u32 LE   format version (FATBIN_VERSION)
 *   offset 12  u32 LE   flags (0; reserved)
 *   offset 16  u64 LE   size in bytes of the tar archive that follows
 *
 * The first tar member is "MANIFEST", a text file: a first line
 * "gpucc-fatbin <version>", then one line per object of space-separated
 * key=value fields: module= vendor= target= format= size= file=. Unknown keys
 * are ignored by readers, so later versions can add fields. The objects follow,
 * named "<module>/<target>.<format>", sorted, with fixed metadata (mtime 0,
 * uid/gid 0, mode 0644) so that the same objects give byte-identical blobs.
 *
 * In an ELF file the blobs live in the section ".gpucc_fatbin", one per
 * gpu.module, each starting 8-byte aligned; zero bytes may pad between them.
 *
 * Nothing in this library prints: errors come back as a return code and a
 * message in the caller's buffer. It links libarchive only, never MLIR/LLVM,
 * because the runtime uses the reader too. */
#ifndef GPUCC_FATBIN_H
#define GPUCC_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAGIC "GPUCCFAT"
#define FATBIN_MAGIC_SIZE 8
#define FATBIN_HEADER_SIZE 24
#define FATBIN_VERSION 1
#define FATBIN_SECTION ".gpucc_fatbin"

enum fatbin_vendor { FATBIN_VENDOR_NVIDIA, FATBIN_VENDOR_AMD, FATBIN_VENDOR_HOST };

enum fatbin_format {
  FATBIN_FORMAT_CUBIN, /* NVIDIA ELF from ptxas */
  FATBIN_FORMAT_PTX,   /* NUL-terminated PTX text, for driver JIT */
  FATBIN_FORMAT_HSACO, /* AMD code object (ELF shared object) */
  FATBIN_FORMAT_SO,    /* native shared object for the host target */
};

/* One object. All strings and data are borrowed: for fatbin_write they belong
 * to the caller; for entries of an open archive they belong to the archive. */
struct fatbin_entry {
  const char *module; /* gpu.module symbol name */
  enum fatbin_vendor vendor;
  const char *target; /* "sm_90", "gfx942:xnack-", "host" */
  enum fatbin_format format;
  const void *data;
  size_t size;
};

/* Names as they appear in manifests and listings ("nvidia", "cubin", ...). */
const char *fatbin_vendor_name(enum fatbin_vendor v);
const char *fatbin_format_name(enum fatbin_format f);
/* Inverse of the above; return 0 on success, -1 for an unknown name. */
int fatbin_vendor_parse(const char *name, enum fatbin_vendor *out);
int fatbin_format_parse(const char *name, enum fatbin_format *out);

/* Writes a blob (header + tar) holding the n entries into a malloc'ed buffer
 * that the caller frees. Entries are sorted by (module, target, format) first,
 * so the order given does not matter. Returns 0, or -1 with a message in err. */
int fatbin_write(const struct fatbin_entry *entries, size_t n, void **out,
                 size_t *out_size, char *err, size_t errlen);

/* True when data starts with a blob header (magic and a known version). */
int fatbin_is_blob(const void *data, size_t size);

/* An archive read into memory. Owns copies of every entry's bytes. */
struct fatbin;

/* Parses a blob. Every size is checked against `size`; a truncated or
 * corrupted blob is an error, never a crash. On success *out owns the data
 * and must be released with fatbin_close. Returns 0, or -1 with err set. */
int fatbin_open(const void *blob, size_t size, struct fatbin **out, char *err,
                size_t errlen);
size_t fatbin_count(const struct fatbin *fb);
const struct fatbin_entry *fatbin_get(const struct fatbin *fb, size_t i);
/* Size of the whole blob (header + archive) as read. */
size_t fatbin_blob_size(const struct fatbin *fb);
void fatbin_close(struct fatbin *fb);

/* Finds the blobs of a file image: if data is an ELF file, every blob in its
 * .gpucc_fatbin section; otherwise data itself if it is a blob (and any blobs
 * that follow it, laid out as in the section). Calls visit for
 * each (stopping early if it returns non-zero, which is then returned).
 * Returns 0 when done, -1 with err set when the file is neither a readable ELF
 * with the section nor a blob. */
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
