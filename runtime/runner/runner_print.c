/* runner_print.c: vector.print's scalar output.
 *
 * vector.print lowers to calls of these, one per element and punctuation:
 * `( 1, 2, 3 )` is printOpen, printI64(1), printComma, ... printClose,
 * printNewline. They write to stdout's buffer without flushing, as
 * upstream's do, so their output and printMemref's keep their order.
 * Floats use "%g" (f32 promoted to double): "1", "0.1", "1e+30", "inf",
 * "-nan", "-0". */
#include <inttypes.h>
#include <stdlib.h>

#include "runner.h"

RT_EXPORT void printI64(int64_t i) { fprintf(stdout, "%" PRId64, i); }
RT_EXPORT void printU64(uint64_t u) { fprintf(stdout, "%" PRIu64, u); }
RT_EXPORT void printF32(float f) { fprintf(stdout, "%g", f); }
RT_EXPORT void printF64(double d) { fprintf(stdout, "%g", d); }
RT_EXPORT void printString(const char *s) { fputs(s, stdout); }
RT_EXPORT void printOpen(void) { fputs("( ", stdout); }
RT_EXPORT void printClose(void) { fputs(" )", stdout); }
RT_EXPORT void printComma(void) { fputs(", ", stdout); }
RT_EXPORT void printNewline(void) { fputc('\n', stdout); }

/* A failed cf.assert in host code (frontend/host_assert.c): the message on
 * stderr with where the assertion is, after what the program printed so far
 * (LLVM's own lowering puts() it to stdout and aborts, so with stdout on a
 * pipe both the message and earlier output were lost), then abort(), as C's
 * assert does. */
RT_EXPORT void gpuccAssertFailed(const char *message, const char *file, uint32_t line) {
  fflush(stdout);
  fprintf(stderr, "%s:%u: Assertion failed: %s\n", file, line, message);
  fflush(stderr);
  abort();
}

/* The value the entry function returned, printed as mlir-runner prints it
 * with -e and --entry-point-result (frontend/entry.c calls these from the
 * main it writes): integers in decimal, f32 as "%e", then a newline. */
RT_EXPORT void gpuccPrintEntryResultI64(int64_t v) { fprintf(stdout, "%" PRId64 "\n", v); }
RT_EXPORT void gpuccPrintEntryResultF32(float v) { fprintf(stdout, "%e\n", (double)v); }
