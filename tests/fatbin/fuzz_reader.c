/* fuzz_reader.c: libFuzzer target over everything that reads a fat binary.
 *
 * The input is treated as a file gpucc-fatbin or the runtime could be handed:
 * an ELF file or a bare blob. Every blob found is opened, every entry,
 * info and metadata string touched, and every object small enough read,
 * hashed and checked (fatbin_verify), as `gpucc-fatbin verify` does. The
 * sanitizers (ASan, UBSan; built with -fsanitize=fuzzer,address,undefined)
 * turn any out-of-bounds access or undefined behaviour into a finding.
 *
 * Two properties are asserted on top of "no crash": an archive that opens
 * and reads can be written again with fatbin_write_ex and reads back the
 * same, kernel lines included (writer and reader agree on every input the
 * reader accepts), and a
 * blob the writer produced from it opens. Objects above 1 MiB and frames
 * (with their dictionary's frame) above 4 MiB are left unread: the reader
 * allows up to FATBIN_MAX_OBJECT_SIZE, and inflating that much on every run
 * would only make the fuzzer slow.
 *
 * Build and run: see docs/fatbin.md ("Fuzzing"); CTest runs it for 60 s. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

#define FUZZ_MAX_OBJECT (1u << 20)
#define FUZZ_MAX_FRAME (4u << 20)
#define FUZZ_MAX_REWRITE 64

static volatile unsigned fuzz_sink;

static void fuzz_touch(const char *s) {
  if (s)
    fuzz_sink += (unsigned)strlen(s);
}

/* Writes what fb holds again and checks that it reads back the same. */
static void fuzz_rewrite(const struct fatbin *fb, const void **data, size_t n) {
  struct fatbin_entry *e = calloc(n ? n : 1, sizeof *e);
  if (!e)
    return;
  for (size_t i = 0; i < n; i++) {
    e[i] = *fatbin_get(fb, i);
    e[i].data = data[i];
  }
  void *blob;
  size_t size;
  char err[256];
  if (fatbin_write_ex(e, n, fatbin_get_meta(fb), FATBIN_COMPRESS_FAST, &blob, &size, err,
                      sizeof err) != 0) {
    /* Two manifest lines may name different members for the same
     * (module, target, format); the writer refuses that, and only that. */
    if (!strstr(err, "duplicate object")) {
      fprintf(stderr, "rewrite refused: %s\n", err);
      abort();
    }
    free(e);
    return;
  }
  struct fatbin *again;
  if (fatbin_open(blob, size, &again, err, sizeof err) != 0) {
    fprintf(stderr, "rewritten blob does not open: %s\n", err);
    abort();
  }
  if (fatbin_count(again) != n)
    abort();
  /* The kernel lines read back in the same (sorted) order. */
  const struct fatbin_meta *m1 = fatbin_get_meta(fb), *m2 = fatbin_get_meta(again);
  if (m1->nkernels != m2->nkernels)
    abort();
  for (size_t k = 0; k < m1->nkernels; k++) {
    const struct fatbin_kernel *a = &m1->kernels[k], *b = &m2->kernels[k];
    if (strcmp(a->module, b->module) != 0 || strcmp(a->name, b->name) != 0 ||
        !a->target != !b->target || (a->target && strcmp(a->target, b->target) != 0) ||
        a->threads != b->threads || memcmp(a->block, b->block, sizeof a->block) != 0 ||
        a->shared != b->shared)
      abort();
  }
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *a = fatbin_get(again, i);
    size_t j = 0;
    while (j < n && !(strcmp(e[j].module, a->module) == 0 &&
                      strcmp(e[j].target, a->target) == 0 && e[j].format == a->format))
      j++;
    const void *got;
    size_t got_size;
    void *to_free;
    if (j == n || e[j].size != a->size ||
        fatbin_read_object(again, i, &got, &got_size, &to_free, err, sizeof err) != 0)
      abort();
    if (got_size != e[j].size || (got_size && memcmp(got, e[j].data, got_size) != 0))
      abort();
    free(to_free);
  }
  fatbin_close(again);
  free(blob);
  free(e);
}

static int fuzz_visit(const void *blob, size_t size, void *ud) {
  (void)ud;
  struct fatbin *fb;
  char err[512];
  if (fatbin_open(blob, size, &fb, err, sizeof err) != 0)
    return 0;
  const struct fatbin_meta *meta = fatbin_get_meta(fb);
  fuzz_touch(meta->gpucc_version);
  fuzz_touch(meta->llvm_version);
  fuzz_touch(meta->flags);
  fuzz_touch(fatbin_compress_mode(fb));
  fuzz_sink += fatbin_version(fb) + (unsigned)fatbin_skipped(fb);
  /* Kernel lines, and the lookup the runtime makes of each (for the first
   * objects only: it is a bisection per call). */
  for (size_t k = 0; k < meta->nkernels; k++) {
    const struct fatbin_kernel *kl = &meta->kernels[k];
    fuzz_touch(kl->module);
    fuzz_touch(kl->name);
    fuzz_touch(kl->target);
    fuzz_sink += kl->threads + kl->block[0] + kl->block[1] + kl->block[2] + (unsigned)kl->shared;
    for (size_t i = 0; i < fatbin_count(fb) && i < 4; i++)
      fuzz_sink += fatbin_find_kernel(fb, i, kl->name) != NULL;
  }

  size_t n = fatbin_count(fb);
  const void **data = calloc(n ? n : 1, sizeof *data);
  void **owned = calloc(n ? n : 1, sizeof *owned);
  int all_read = data && owned && n <= FUZZ_MAX_REWRITE;
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *e = fatbin_get(fb, i);
    const struct fatbin_object_info *in = fatbin_get_info(fb, i);
    fuzz_touch(e->module);
    fuzz_touch(e->target);
    fuzz_touch(e->features);
    fuzz_touch(in->file);
    if (e->size > FUZZ_MAX_OBJECT || in->frame_size > FUZZ_MAX_FRAME ||
        in->dict_size > FUZZ_MAX_FRAME - in->frame_size || !data || !owned) {
      all_read = 0;
      continue;
    }
    (void)fatbin_verify(fb, i, err, sizeof err);
    size_t got;
    if (fatbin_read_object(fb, i, &data[i], &got, &owned[i], err, sizeof err) != 0) {
      all_read = 0;
      continue;
    }
    if (got != e->size)
      abort();
    const unsigned char *p = data[i];
    for (size_t k = 0; k < got; k++)
      fuzz_sink += p[k];
  }
  if (all_read)
    fuzz_rewrite(fb, data, n);
  for (size_t i = 0; owned && i < n; i++)
    free(owned[i]);
  free(owned);
  free(data);
  fatbin_close(fb);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[512];
  fuzz_sink += (unsigned)fatbin_probe(data, size) + (unsigned)fatbin_is_blob(data, size);
  (void)fatbin_find_blobs(data, size, fuzz_visit, NULL, err, sizeof err);
  /* The runtime opens what mgpuModuleLoad gets without looking for ELF. */
  struct fatbin *fb;
  if (fatbin_open(data, size, &fb, err, sizeof err) == 0)
    fatbin_close(fb);
  return 0;
}
