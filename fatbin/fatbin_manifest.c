/* fatbin_manifest.c: the MANIFEST text, written and parsed in one place.
 *
 * Versions 2 and 3 (docs/fatbin.md has the full grammar):
 *
 *   gpucc-fatbin 3
 *   archive gpucc=0.1.0 llvm=22.1.8 compress=size flags=-O3%20-g
 *   object module=k vendor=nvidia target=sm_90 format=cubin features=+ptx78
 *          size=3864 sha256=<64 hex digits> file=k/sm_90.cubin frame=2
 *          offset=512 stored=310 dict=1                 (one line per object)
 *
 *   kernel module=k name=transpose threads=256 block=16,16,1 shared=4096
 *          [target=gfx942]                           (one line per kernel)
 *
 * dict= (the frame holding the dictionary of the object's frame) is new in
 * version 3; a version 2 manifest never had it, and its key is ignored
 * there like any unknown key. Kernel lines came later within version 3:
 * readers that predate them skip them as a kind of line they do not know,
 * which is all an older runtime can do with them anyway.
 *
 * A line is a kind word and space-separated key=value fields. Values are
 * percent-escaped (bytes <= ' ', >= 0x7f and '%' itself), so any flag text
 * fits. Readers ignore keys and line kinds they do not know, which is how
 * later versions add information without breaking old runtimes; objects of
 * an unknown vendor or format are skipped for the same reason. Version 1
 * lines have no kind word and no escaping: each line is an object with
 * module= vendor= target= format= size= file=.
 *
 * Parsing works on a private copy of the text, split and unescaped in place,
 * so entry strings point into it and nothing else is allocated per field. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_private.h"

/* ---- writing ---------------------------------------------------------------- */

static int fatbin_put(struct fatbin_buf *b, const char *s) {
  return fatbin_buf_add(b, s, strlen(s));
}

/* Appends " key=value" with value escaped. */
static int fatbin_put_field(struct fatbin_buf *b, const char *key, const char *value) {
  static const char hex[] = "0123456789ABCDEF";
  if (fatbin_put(b, " ") || fatbin_put(b, key) || fatbin_put(b, "="))
    return -1;
  for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
    if (*p <= ' ' || *p >= 0x7f || *p == '%') {
      char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
      if (fatbin_buf_add(b, esc, 3))
        return -1;
    } else if (fatbin_buf_add(b, p, 1)) {
      return -1;
    }
  }
  return 0;
}

static int fatbin_put_size(struct fatbin_buf *b, const char *key, size_t v) {
  char num[32];
  snprintf(num, sizeof num, "%zu", v);
  return fatbin_put_field(b, key, num);
}

static int fatbin_put_u64(struct fatbin_buf *b, const char *key, uint64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%" PRIu64, v);
  return fatbin_put_field(b, key, num);
}

/* "kernel module=... name=... [target=...] [threads=N] [block=X,Y,Z] shared=N" */
static int fatbin_put_kernel(struct fatbin_buf *b, const struct fatbin_kernel *k) {
  int r = fatbin_put(b, "kernel");
  r |= fatbin_put_field(b, "module", k->module);
  r |= fatbin_put_field(b, "name", k->name);
  if (k->target)
    r |= fatbin_put_field(b, "target", k->target);
  if (k->threads)
    r |= fatbin_put_u64(b, "threads", k->threads);
  if (k->block[0]) {
    char shape[40];
    snprintf(shape, sizeof shape, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, k->block[0],
             k->block[1], k->block[2]);
    r |= fatbin_put_field(b, "block", shape);
  }
  r |= fatbin_put_u64(b, "shared", k->shared);
  return r | fatbin_put(b, "\n");
}

int fatbin_manifest_build(struct fatbin_buf *b, const struct fatbin_entry *const *sorted,
                          const struct fatbin_placement *where, size_t n,
                          const struct fatbin_meta *meta, enum fatbin_compress mode,
                          const struct fatbin_kernel *const *kernels, size_t nkernels) {
  char line[64];
  snprintf(line, sizeof line, "gpucc-fatbin %d\narchive", FATBIN_VERSION);
  int r = fatbin_put(b, line);
  if (meta && meta->gpucc_version)
    r |= fatbin_put_field(b, "gpucc", meta->gpucc_version);
  if (meta && meta->llvm_version)
    r |= fatbin_put_field(b, "llvm", meta->llvm_version);
  r |= fatbin_put_field(b, "compress", fatbin_compress_name(mode));
  if (meta && meta->flags)
    r |= fatbin_put_field(b, "flags", meta->flags);
  r |= fatbin_put(b, "\n");
  for (size_t i = 0; i < n && r == 0; i++) {
    const struct fatbin_entry *e = sorted[i];
    const struct fatbin_placement *w = &where[i];
    char hash[2 * FATBIN_SHA256_SIZE + 1];
    fatbin_sha256_hex(w->sha256, hash);
    r |= fatbin_put(b, "object");
    r |= fatbin_put_field(b, "module", e->module);
    r |= fatbin_put_field(b, "vendor", fatbin_vendor_name(e->vendor));
    r |= fatbin_put_field(b, "target", e->target);
    r |= fatbin_put_field(b, "format", fatbin_format_name(e->format));
    if (e->features && *e->features)
      r |= fatbin_put_field(b, "features", e->features);
    r |= fatbin_put_size(b, "size", e->size);
    r |= fatbin_put_field(b, "sha256", hash);
    char *file = fatbin_member_path(e);
    r |= !file || fatbin_put_field(b, "file", file);
    free(file);
    if (w->frame) {
      r |= fatbin_put_size(b, "frame", w->frame);
      r |= fatbin_put_size(b, "offset", w->offset);
      r |= fatbin_put_size(b, "stored", w->stored);
    }
    if (w->dict)
      r |= fatbin_put_size(b, "dict", w->dict);
    r |= fatbin_put(b, "\n");
  }
  for (size_t i = 0; i < nkernels && r == 0; i++)
    r |= fatbin_put_kernel(b, kernels[i]);
  return r ? -1 : 0;
}

/* ---- kernel lines, both ways ------------------------------------------------- */

int fatbin_kernel_check(const struct fatbin_kernel *k, char *err, size_t errlen) {
  if (!fatbin_name_ok(k->module))
    return fatbin_error(err, errlen, "fatbin: kernel of invalid module name '%s'",
                        k->module ? k->module : "(null)");
  if (!k->name || !*k->name)
    return fatbin_error(err, errlen, "fatbin: kernel without a name in module '%s'",
                        k->module);
  if (k->target && !fatbin_name_ok(k->target))
    return fatbin_error(err, errlen, "fatbin: kernel '%s' has invalid target name '%s'",
                        k->name, k->target);
  int set = (k->block[0] != 0) + (k->block[1] != 0) + (k->block[2] != 0);
  if (set != 0 && set != 3)
    return fatbin_error(err, errlen,
                        "fatbin: kernel '%s' has block shape %" PRIu32 ",%" PRIu32 ",%" PRIu32
                        " (all three sizes, or none)",
                        k->name, k->block[0], k->block[1], k->block[2]);
  return 0;
}

int fatbin_kernel_cmp(const struct fatbin_kernel *a, const struct fatbin_kernel *b) {
  int c = strcmp(a->module, b->module);
  if (c == 0)
    c = strcmp(a->name, b->name);
  if (c == 0 && a->target != b->target)
    c = !a->target ? -1 : !b->target ? 1 : strcmp(a->target, b->target);
  return c;
}

/* ---- parsing ----------------------------------------------------------------- */

/* Parses a decimal number with no sign and no overflow. */
static int fatbin_parse_size(const char *s, size_t *out) {
  size_t v = 0;
  if (!*s)
    return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (SIZE_MAX - d) / 10)
      return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

static int fatbin_hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Undoes the writer's escaping in place. %00 is refused: values are C
 * strings. */
static int fatbin_unescape(char *s) {
  char *w = s;
  for (const char *p = s; *p; p++) {
    if (*p != '%') {
      *w++ = *p;
      continue;
    }
    int hi = fatbin_hex_digit(p[1]), lo = hi < 0 ? -1 : fatbin_hex_digit(p[2]);
    if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
      return -1;
    *w++ = (char)(hi << 4 | lo);
    p += 2;
  }
  *w = '\0';
  return 0;
}

static int fatbin_parse_sha256(const char *s, unsigned char out[FATBIN_SHA256_SIZE]) {
  if (strlen(s) != 2 * FATBIN_SHA256_SIZE)
    return -1;
  for (int i = 0; i < FATBIN_SHA256_SIZE; i++) {
    int hi = fatbin_hex_digit(s[2 * i]), lo = fatbin_hex_digit(s[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return -1;
    out[i] = (unsigned char)(hi << 4 | lo);
  }
  return 0;
}

/* The keys a line may carry; a NULL slot after splitting means "absent". */
enum fatbin_key {
  K_MODULE, K_VENDOR, K_TARGET, K_FORMAT, K_SIZE, K_FILE, /* version 1 */
  K_FEATURES, K_SHA256, K_FRAME, K_OFFSET, K_STORED,      /* objects, version 2 */
  K_DICT,                                                 /* objects, version 3 */
  K_GPUCC, K_LLVM, K_COMPRESS, K_FLAGS,                   /* the archive line */
  K_NAME, K_THREADS, K_BLOCK, K_SHARED,                   /* kernels (and module, target) */
  K_COUNT
};
static const char *const fatbin_keys[K_COUNT] = {
    "module", "vendor", "target", "format",   "size",  "file",
    "features", "sha256", "frame", "offset",  "stored", "dict",
    "gpucc",  "llvm",   "compress", "flags",
    "name",   "threads", "block", "shared",
};

/* Splits the key=value fields of a line (already NUL-terminated) into f. */
static int fatbin_split(char *p, size_t lineno, unsigned version, char *f[K_COUNT],
                        char *err, size_t errlen) {
  for (int k = 0; k < K_COUNT; k++)
    f[k] = NULL;
  while (*p) {
    if (*p == ' ') {
      p++;
      continue;
    }
    char *tok = p;
    while (*p && *p != ' ')
      p++;
    if (*p)
      *p++ = '\0';
    char *eq = strchr(tok, '=');
    if (!eq)
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: '%s' is not key=value",
                          lineno, tok);
    *eq = '\0';
    for (int k = 0; k < K_COUNT; k++) {
      if (strcmp(tok, fatbin_keys[k]) != 0)
        continue;
      if (f[k])
        return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: '%s=' given twice",
                            lineno, tok);
      if (version >= 2 && fatbin_unescape(eq + 1) != 0)
        return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: bad escape in '%s='",
                            lineno, tok);
      f[k] = eq + 1;
    }
    /* Keys this reader does not know are skipped: later versions may add some. */
  }
  return 0;
}

static int fatbin_require(char *f[K_COUNT], const enum fatbin_key *keys, size_t n,
                          size_t lineno, char *err, size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    if (!f[keys[i]] || !*f[keys[i]])
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu lacks '%s='", lineno,
                          fatbin_keys[keys[i]]);
  }
  return 0;
}

static int fatbin_parse_object(struct fatbin_manifest *m, char *f[K_COUNT], size_t lineno,
                               unsigned version, size_t *cap, char *err, size_t errlen) {
  static const enum fatbin_key v1[] = {K_MODULE, K_VENDOR, K_TARGET, K_FORMAT, K_SIZE, K_FILE};
  static const enum fatbin_key v2[] = {K_SHA256};
  if (fatbin_require(f, v1, sizeof v1 / sizeof v1[0], lineno, err, errlen) ||
      (version >= 2 && fatbin_require(f, v2, 1, lineno, err, errlen)))
    return -1;
  enum fatbin_vendor vendor;
  enum fatbin_format format;
  if (fatbin_vendor_parse(f[K_VENDOR], &vendor) || fatbin_format_parse(f[K_FORMAT], &format)) {
    m->skipped++; /* a kind of object this reader does not know */
    return 0;
  }
  if (!fatbin_name_ok(f[K_MODULE]) || !fatbin_name_ok(f[K_TARGET]) ||
      (f[K_FEATURES] && *f[K_FEATURES] && !fatbin_name_ok(f[K_FEATURES])))
    return fatbin_error(err, errlen,
                        "fatbin: MANIFEST line %zu: bad module, target or features name",
                        lineno);
  size_t size;
  if (fatbin_parse_size(f[K_SIZE], &size) != 0)
    return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: bad size '%s'", lineno,
                        f[K_SIZE]);
  if (size > FATBIN_MAX_OBJECT_SIZE)
    return fatbin_error(err, errlen,
                        "fatbin: MANIFEST line %zu: object of %zu bytes, more than the "
                        "%zu allowed",
                        lineno, size, FATBIN_MAX_OBJECT_SIZE);
  struct fatbin_object_info info = {.file = f[K_FILE], .stored_size = size};
  if (f[K_SHA256]) {
    if (fatbin_parse_sha256(f[K_SHA256], info.sha256) != 0)
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: bad sha256 '%s'", lineno,
                          f[K_SHA256]);
    info.has_sha256 = 1;
  }
  if (version >= 2 && (f[K_FRAME] || f[K_OFFSET] || f[K_STORED])) {
    size_t frame;
    static const enum fatbin_key placed[] = {K_FRAME, K_OFFSET, K_STORED};
    if (fatbin_require(f, placed, 3, lineno, err, errlen))
      return -1;
    if (fatbin_parse_size(f[K_FRAME], &frame) || frame == 0 || frame > 0xffffffffu ||
        fatbin_parse_size(f[K_OFFSET], &info.offset) ||
        fatbin_parse_size(f[K_STORED], &info.stored_size))
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: bad frame, offset or stored",
                          lineno);
    info.frame = (unsigned)frame;
  }
  if (version >= 3 && f[K_DICT]) {
    size_t dict;
    if (!info.frame || fatbin_parse_size(f[K_DICT], &dict) || dict == 0 ||
        dict > 0xffffffffu)
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: bad dict '%s'", lineno,
                          f[K_DICT]);
    info.dict = (unsigned)dict;
  }

  if (m->count == *cap) {
    size_t ncap = *cap ? *cap * 2 : 8;
    struct fatbin_entry *e = realloc(m->entries, ncap * sizeof *e);
    if (e)
      m->entries = e;
    struct fatbin_object_info *in = e ? realloc(m->infos, ncap * sizeof *in) : NULL;
    if (!in)
      return fatbin_error(err, errlen, "fatbin: out of memory");
    m->infos = in;
    *cap = ncap;
  }
  m->entries[m->count] = (struct fatbin_entry){
      .module = f[K_MODULE],
      .vendor = vendor,
      .target = f[K_TARGET],
      .format = format,
      .size = size,
      .features = f[K_FEATURES] && *f[K_FEATURES] ? f[K_FEATURES] : NULL,
  };
  m->infos[m->count] = info;
  m->count++;
  return 0;
}

/* A decimal number below 2^32 (1 or more when positive is set). */
static int fatbin_parse_u32(const char *s, int positive, uint32_t *out) {
  size_t v;
  if (fatbin_parse_size(s, &v) != 0 || v > UINT32_MAX || (positive && v == 0))
    return -1;
  *out = (uint32_t)v;
  return 0;
}

/* "X,Y,Z", three positive numbers. */
static int fatbin_parse_shape(char *s, uint32_t out[3]) {
  for (int d = 0; d < 3; d++) {
    char *comma = strchr(s, ',');
    if ((d < 2) != (comma != NULL))
      return -1;
    if (comma)
      *comma = '\0';
    if (fatbin_parse_u32(s, 1, &out[d]) != 0)
      return -1;
    if (comma)
      s = comma + 1;
  }
  return 0;
}

static int fatbin_parse_kernel(struct fatbin_manifest *m, char *f[K_COUNT], size_t lineno,
                               char *err, size_t errlen) {
  static const enum fatbin_key need[] = {K_MODULE, K_NAME};
  if (fatbin_require(f, need, 2, lineno, err, errlen))
    return -1;
  struct fatbin_kernel k = {.module = f[K_MODULE], .name = f[K_NAME], .target = f[K_TARGET]};
  size_t shared = 0;
  if ((f[K_THREADS] && fatbin_parse_u32(f[K_THREADS], 1, &k.threads) != 0) ||
      (f[K_BLOCK] && fatbin_parse_shape(f[K_BLOCK], k.block) != 0) ||
      (f[K_SHARED] && fatbin_parse_size(f[K_SHARED], &shared) != 0))
    return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: bad threads, block or shared",
                        lineno);
  k.shared = shared;
  char why[256];
  if (fatbin_kernel_check(&k, why, sizeof why) != 0) /* why: "fatbin: ..." */
    return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu: %s", lineno,
                        why + sizeof "fatbin: " - 1);
  if (m->nkernels == m->kernels_cap) {
    size_t ncap = m->kernels_cap ? m->kernels_cap * 2 : 8;
    struct fatbin_kernel *grown = realloc(m->kernels, ncap * sizeof *grown);
    if (!grown)
      return fatbin_error(err, errlen, "fatbin: out of memory");
    m->kernels = grown;
    m->kernels_cap = ncap;
  }
  m->kernels[m->nkernels++] = k;
  return 0;
}

static int fatbin_kernel_qsort_cmp(const void *a, const void *b) {
  return fatbin_kernel_cmp(a, b);
}

/* Sorts the kernel lines (lookups bisect them) and refuses a kernel given
 * twice for the same target, as the writer does. */
static int fatbin_finish_kernels(struct fatbin_manifest *m, char *err, size_t errlen) {
  if (m->nkernels > 0)
    qsort(m->kernels, m->nkernels, sizeof *m->kernels, fatbin_kernel_qsort_cmp);
  for (size_t i = 1; i < m->nkernels; i++) {
    const struct fatbin_kernel *k = &m->kernels[i];
    if (fatbin_kernel_cmp(&m->kernels[i - 1], k) == 0)
      return fatbin_error(err, errlen,
                          "fatbin: MANIFEST names kernel '%s' of module '%s'%s%s twice", k->name,
                          k->module, k->target ? " for target " : "", k->target ? k->target : "");
  }
  m->meta.kernels = m->kernels;
  m->meta.nkernels = m->nkernels;
  return 0;
}

static int fatbin_parse_archive(struct fatbin_manifest *m, char *f[K_COUNT]) {
  m->meta.gpucc_version = f[K_GPUCC];
  m->meta.llvm_version = f[K_LLVM];
  m->meta.flags = f[K_FLAGS];
  m->compress = f[K_COMPRESS];
  return 0;
}

/* Reads the "gpucc-fatbin N" line. */
static int fatbin_parse_version(const char *line, unsigned version, char *err,
                                size_t errlen) {
  static const char prefix[] = "gpucc-fatbin ";
  size_t n;
  if (strncmp(line, prefix, sizeof prefix - 1) != 0 ||
      fatbin_parse_size(line + sizeof prefix - 1, &n) != 0)
    return fatbin_error(err, errlen, "fatbin: MANIFEST has a bad version line '%.40s'",
                        line);
  /* Version 1 manifests carried their number for people only; from version
   * 2 on, it must agree with the header. */
  if (version >= 2 && n != version)
    return fatbin_error(err, errlen,
                        "fatbin: MANIFEST says version %zu, the header %u", n, version);
  return 0;
}

/* Handles one line of a version 2 or 3 manifest: its kind word, then
 * fields. */
static int fatbin_parse_line2(struct fatbin_manifest *m, char *line, size_t lineno,
                              unsigned version, int *seen_archive, size_t *cap, char *err,
                              size_t errlen) {
  char *f[K_COUNT];
  char *sp = strchr(line, ' ');
  char *rest = sp ? sp + 1 : line + strlen(line);
  if (sp)
    *sp = '\0';
  if (strchr(line, '='))
    return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu has no kind word", lineno);
  int is_object = strcmp(line, "object") == 0, is_archive = strcmp(line, "archive") == 0;
  int is_kernel = version >= 3 && strcmp(line, "kernel") == 0;
  if (!is_object && !is_archive && !is_kernel)
    return 0; /* a kind of line from a later version */
  if (fatbin_split(rest, lineno, version, f, err, errlen))
    return -1;
  if (is_archive) {
    if ((*seen_archive)++)
      return fatbin_error(err, errlen, "fatbin: MANIFEST has two archive lines");
    return fatbin_parse_archive(m, f);
  }
  if (is_kernel)
    return fatbin_parse_kernel(m, f, lineno, err, errlen);
  return fatbin_parse_object(m, f, lineno, version, cap, err, errlen);
}

int fatbin_manifest_parse(const unsigned char *text, size_t len, unsigned version,
                          struct fatbin_manifest *m, char *err, size_t errlen) {
  *m = (struct fatbin_manifest){0};
  if (memchr(text, '\0', len))
    return fatbin_error(err, errlen, "fatbin: MANIFEST is not text");
  if (len > FATBIN_MAX_MANIFEST_SIZE)
    return fatbin_error(err, errlen, "fatbin: MANIFEST of %zu bytes is too large", len);
  m->text = malloc(len + 1);
  if (!m->text)
    return fatbin_error(err, errlen, "fatbin: out of memory");
  memcpy(m->text, text, len);
  m->text[len] = '\0';

  char *line = m->text;
  char *nl = strchr(line, '\n');
  if (!nl)
    return fatbin_error(err, errlen, "fatbin: MANIFEST has no version line");
  *nl = '\0';
  if (fatbin_parse_version(line, version, err, errlen))
    return -1;

  /* Every line ends in '\n'; text after the last newline means the manifest
   * was cut short. */
  size_t lineno = 1, cap = 0;
  int seen_archive = 0;
  for (line = nl + 1; *line; line = nl + 1) {
    lineno++;
    nl = strchr(line, '\n');
    if (!nl)
      return fatbin_error(err, errlen, "fatbin: MANIFEST line %zu is unterminated", lineno);
    *nl = '\0';
    if (!*line)
      continue;
    if (version >= 2) {
      if (fatbin_parse_line2(m, line, lineno, version, &seen_archive, &cap, err, errlen))
        return -1;
      continue;
    }
    char *f[K_COUNT];
    if (fatbin_split(line, lineno, 1, f, err, errlen) ||
        fatbin_parse_object(m, f, lineno, 1, &cap, err, errlen))
      return -1;
  }
  if (version >= 2 && !seen_archive)
    return fatbin_error(err, errlen, "fatbin: MANIFEST has no archive line");
  return fatbin_finish_kernels(m, err, errlen);
}

void fatbin_manifest_free(struct fatbin_manifest *m) {
  free(m->text);
  free(m->entries);
  free(m->infos);
  free(m->kernels);
  *m = (struct fatbin_manifest){0};
}
