/* gpucc_fatbin_show.c: `list` and `info`, what a program carries.
 *
 * `list` prints one table per file, one row per object of every blob, with
 * the columns MODULE VENDOR TARGET FORMAT SIZE STORED after a header line,
 * and NOTES when an object's own bytes say more than its entry (a SPIR-V
 * module's capabilities: fatbin_object_notes); scripts (tests/e2e among
 * them) read the first four columns, so they stay first. `info` prints
 * everything the manifest records, as "key value" lines indented under
 * each archive and object, and where each compressed object's frame and
 * its dictionary's lie in the payload, which is what it takes to decode
 * one with the zstd tool (docs/fatbin.md, section 5).
 * Modules and kernels are shown as the program spells them, in MLIR's
 * quotes where their objects carry them mangled (support/symname.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/symname.h"
#include "fatbin_private.h"
#include "gpucc_fatbin.h"

/* ---- list ------------------------------------------------------------------------ */

#define TOOL_COLUMNS 7

struct tool_row {
  char *cell[TOOL_COLUMNS];
};

struct tool_table {
  struct tool_row *rows;
  size_t count, cap;
};

static char *tool_dup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(tool_xmalloc(n), s, n);
}

/* A module or kernel name as the program spells it ("my mod" for
 * __gpucc__my_20mod). */
static char *tool_shown(const char *sym) {
  char *s = symname_display(sym, 1);
  if (!s)
    return tool_dup("?");
  return s;
}

static char *tool_num(size_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%zu", v);
  return tool_dup(buf);
}

/* What object i's bytes say of it (fatbin_object_notes); "" when nothing. */
static char *tool_notes(const struct fatbin *fb, size_t i) {
  char notes[1024];
  fatbin_object_notes(fb, i, notes, sizeof notes);
  return tool_dup(notes);
}

static int tool_collect(const struct tool_blob *b, void *ud) {
  struct tool_table *t = ud;
  for (size_t i = 0; i < fatbin_count(b->fb); i++) {
    const struct fatbin_entry *e = fatbin_get(b->fb, i);
    const struct fatbin_object_info *in = fatbin_get_info(b->fb, i);
    if (t->count == t->cap) {
      t->cap = t->cap ? t->cap * 2 : 16;
      struct tool_row *r = realloc(t->rows, t->cap * sizeof *r);
      if (!r)
        return tool_error("out of memory");
      t->rows = r;
    }
    t->rows[t->count++] = (struct tool_row){{
        tool_shown(e->module),
        tool_dup(fatbin_vendor_name(e->vendor)),
        tool_dup(e->target),
        tool_dup(fatbin_format_name(e->format)),
        tool_num(e->size),
        tool_num(in->stored_size),
        tool_notes(b->fb, i),
    }};
  }
  return 0;
}

/* Prints the rows in aligned columns; sizes are right-aligned like numbers.
 * NOTES, last and unpadded, only when some object has notes. */
static void tool_print_table(const struct tool_table *t) {
  static const char *const head[TOOL_COLUMNS] = {"MODULE", "VENDOR", "TARGET", "FORMAT",
                                                 "SIZE",   "STORED", "NOTES"};
  int notes = 0;
  for (size_t i = 0; i < t->count; i++)
    notes |= t->rows[i].cell[6][0] != '\0';
  int w[6];
  for (int c = 0; c < 6; c++) {
    size_t m = strlen(head[c]);
    for (size_t i = 0; i < t->count; i++) {
      size_t l = strlen(t->rows[i].cell[c]);
      m = l > m ? l : m;
    }
    w[c] = (int)m;
  }
  printf("%-*s  %-*s  %-*s  %-*s  %*s  %*s%s%s\n", w[0], head[0], w[1], head[1], w[2],
         head[2], w[3], head[3], w[4], head[4], w[5], head[5], notes ? "  " : "",
         notes ? head[6] : "");
  for (size_t i = 0; i < t->count; i++) {
    char *const *c = t->rows[i].cell;
    printf("%-*s  %-*s  %-*s  %-*s  %*s  %*s%s%s\n", w[0], c[0], w[1], c[1], w[2], c[2], w[3],
           c[3], w[4], c[4], w[5], c[5], notes && c[6][0] ? "  " : "", notes ? c[6] : "");
  }
}

static void tool_table_free(struct tool_table *t) {
  for (size_t i = 0; i < t->count; i++)
    for (int c = 0; c < TOOL_COLUMNS; c++)
      free(t->rows[i].cell[c]);
  free(t->rows);
}

int tool_cmd_list(int argc, char **argv) {
  char **files;
  int n = tool_files(argc, argv, "list", &files);
  if (n < 0)
    return 2;
  int rc = 0, first = 1;
  for (int i = 0; i < n; i++) {
    struct tool_table t = {0};
    if (tool_each_blob(files[i], tool_collect, &t) != 0) {
      rc = 1;
    } else {
      if (n > 1)
        printf("%s%s:\n", first ? "" : "\n", files[i]);
      tool_print_table(&t);
      first = 0;
    }
    tool_table_free(&t);
  }
  free(files);
  return tool_flush() | rc;
}

/* ---- info ------------------------------------------------------------------------- */

static const char *tool_or(const char *s, const char *fallback) { return s ? s : fallback; }

/* What a launch of the kernel may be (the manifest's kernel line). */
static void tool_describe_kernel(const struct fatbin_kernel *k) {
  char *name = tool_shown(k->name), *module = tool_shown(k->module);
  printf("  kernel       %s\n", name);
  printf("    module     %s\n", module);
  free(name);
  free(module);
  printf("    target     %s\n", tool_or(k->target, "all"));
  if (k->threads)
    printf("    threads    at most %" PRIu32 " per block\n", k->threads);
  else
    printf("    threads    not recorded\n");
  if (k->block[0])
    printf("    block      (%" PRIu32 ", %" PRIu32 ", %" PRIu32 ") only\n", k->block[0],
           k->block[1], k->block[2]);
  else
    printf("    block      any shape\n");
  printf("    shared     %" PRIu64 " bytes of its own\n", k->shared);
}

static int tool_describe(const struct tool_blob *b, void *ud) {
  const struct fatbin *fb = b->fb;
  const struct fatbin_meta *meta = fatbin_get_meta(fb);
  size_t n = fatbin_count(fb), raw = 0;
  for (size_t i = 0; i < n; i++)
    raw += fatbin_get(fb, i)->size;
  size_t blob = fatbin_blob_size(fb);

  printf("%sarchive %zu of '%s' (offset %zu, %zu bytes)\n", b->index > 1 ? "\n" : "",
         b->index, b->path, b->offset, blob);
  printf("  version      %u\n", fatbin_version(fb));
  printf("  compression  %s%s\n", tool_or(fatbin_compress_mode(fb), "none"),
         fatbin_is_compressed(fb) ? " (zstd frames)" : " (stored)");
  printf("  gpucc        %s\n", tool_or(meta->gpucc_version, "unknown"));
  printf("  llvm         %s\n", tool_or(meta->llvm_version, "unknown"));
  printf("  flags        %s\n",
         meta->flags ? (*meta->flags ? meta->flags : "(none)") : "unknown");
  printf("  objects      %zu, %zu bytes, archive %zu bytes", n, raw, blob);
  if (raw > 0)
    printf(" (%.2fx)", (double)blob / (double)raw);
  printf("\n");
  if (fatbin_skipped(fb))
    printf("  skipped      %zu objects of a kind this gpucc-fatbin does not know\n",
           fatbin_skipped(fb));
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *e = fatbin_get(fb, i);
    const struct fatbin_object_info *in = fatbin_get_info(fb, i);
    printf("  object       %s\n", in->file);
    char *module = tool_shown(e->module);
    printf("    module     %s\n", module);
    free(module);
    printf("    vendor     %s\n", fatbin_vendor_name(e->vendor));
    printf("    target     %s\n", e->target);
    printf("    format     %s\n", fatbin_format_name(e->format));
    printf("    features   %s\n", tool_or(e->features, "none"));
    printf("    size       %zu\n", e->size);
    if (in->frame) {
      printf("    stored     %zu (frame %u, offset %zu of %zu)\n", in->stored_size, in->frame,
             in->offset, in->frame_size);
      /* Where to cut the frames out of the payload for `zstd -d -D`. */
      printf("    frame      %u, payload offset %zu, %zu bytes\n", in->frame, in->frame_pos,
             in->frame_stored);
      if (in->dict)
        printf("    dictionary frame %u, payload offset %zu, %zu bytes\n", in->dict,
               in->dict_pos, in->dict_stored);
      else
        printf("    dictionary none\n");
    } else {
      printf("    stored     %zu\n", in->stored_size);
    }
    if (in->has_sha256) {
      char hex[2 * FATBIN_SHA256_SIZE + 1];
      fatbin_sha256_hex(in->sha256, hex);
      printf("    sha256     %s\n", hex);
    } else {
      printf("    sha256     not recorded\n");
    }
  }
  for (size_t i = 0; i < meta->nkernels; i++)
    tool_describe_kernel(&meta->kernels[i]);
  (void)ud;
  return 0;
}

int tool_cmd_info(int argc, char **argv) {
  char **files;
  int n = tool_files(argc, argv, "info", &files);
  if (n < 0)
    return 2;
  int rc = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0)
      printf("\n");
    rc |= tool_each_blob(files[i], tool_describe, NULL);
  }
  free(files);
  return tool_flush() | rc;
}
