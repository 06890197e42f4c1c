/* test_host_printf.c: gpuccHostPrintf, gpu.printf on the CPU, against the C
 * library's snprintf.
 *
 * A kernel hands over what CUDA's vprintf gets: the format and a pointer to
 * the arguments packed as a C struct at natural alignment, floats promoted to
 * double and small integers to int. Each case here builds that struct, calls
 * gpuccHostPrintf with stdout redirected to a temporary file, and compares
 * what was written with snprintf of the same format and values. Also: text
 * longer than any internal buffer, no arguments, whole lines from concurrent
 * threads, and printf from GPU threads running as fibers (small stacks).
 * Bad formats (what no gpu.printf can pass: strings, %n, unknown
 * conversions, huge widths) print the `<bad format>` marker, and random
 * formats over random bytes never crash (run under ASan as well). */
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "host_test.h"

static unsigned g_failures;

/* Runs fn(arg) with fd 1 on a temporary file; returns what was written
 * there (malloc'ed, NUL-terminated). */
static char *capture(void (*fn)(void *), void *arg) {
  fflush(stdout);
  FILE *tmp = tmpfile();
  CHECK(tmp);
  int saved = dup(1);
  CHECK(saved >= 0 && dup2(fileno(tmp), 1) == 1);
  fn(arg);
  fflush(stdout);
  CHECK(dup2(saved, 1) == 1);
  close(saved);
  CHECK(fseek(tmp, 0, SEEK_END) == 0);
  long size = ftell(tmp);
  CHECK(size >= 0);
  rewind(tmp);
  char *text = calloc((size_t)size + 1, 1);
  CHECK(text && fread(text, 1, (size_t)size, tmp) == (size_t)size);
  fclose(tmp);
  return text;
}

struct call {
  const char *format;
  const void *args;
  int ret;
};

static void call_printf(void *arg) {
  struct call *c = arg;
  c->ret = gpuccHostPrintf(c->format, c->args);
}

/* What gpuccHostPrintf(format, args) writes, and its return value in *ret. */
static char *host_printf(const char *format, const void *args, int *ret) {
  struct call c = {format, args, 0};
  char *text = capture(call_printf, &c);
  *ret = c.ret;
  return text;
}

/* Compares gpuccHostPrintf(format, args) with snprintf(format, ...): the
 * variadic arguments are the same values as the struct's fields. */
__attribute__((format(printf, 2, 4))) static void expect(int line, const char *format,
                                                         const void *args, ...) {
  va_list ap;
  va_start(ap, args);
  int need = vsnprintf(NULL, 0, format, ap);
  va_end(ap);
  char *want = malloc((size_t)need + 1);
  CHECK(want);
  va_start(ap, args);
  vsnprintf(want, (size_t)need + 1, format, ap);
  va_end(ap);
  int ret;
  char *got = host_printf(format, args, &ret);
  if (strcmp(got, want) != 0 || ret != need) {
    g_failures++;
    /* At most 300 characters of each: some cases print thousands. */
    fprintf(stderr, "line %d: format \"%s\"\n  got  (%d) \"%.300s\"\n  want (%d) \"%.300s\"\n",
            line, format, ret, got, need, want);
  }
  free(got);
  free(want);
}
#define EXPECT(format, args, ...) expect(__LINE__, format, args, __VA_ARGS__)

/* expect() for a format built at run time (one int argument). */
static void host_printf_vs(int line, const char *format, const void *args, int value) {
  char want[8192];
  int need = snprintf(want, sizeof want, format, value); /* NOLINT: built format */
  CHECK(need >= 0 && (size_t)need < sizeof want);
  int ret;
  char *got = host_printf(format, args, &ret);
  if (strcmp(got, want) != 0 || ret != need) {
    g_failures++;
    fprintf(stderr, "line %d: got (%d) \"%.300s\"\n  want (%d) \"%.300s\"\n", line, ret, got,
            need, want);
  }
  free(got);
}

static void run_printf(void) {
  {
    struct { int a, b; unsigned c, d; } s = {-42, 17, 4000000000u, 0xbeefu};
    EXPECT("%d %i %u %x\n", &s, s.a, s.b, s.c, s.d);
    EXPECT("[%5d|%-5i|%05u|%+d|% d|%#x|%X|%o|%#o]", &(struct { int a, b; unsigned c; int d, e;
           unsigned f, g, h, i; }){7, -7, 42, 5, 5, 255, 255, 8, 8}, 7, -7, 42u, 5, 5, 255u, 255u,
           8u, 8u);
  }
  {
    /* 64-bit integers, after an int: 4 bytes of padding before each. */
    struct { int a; long b; int c; long long d; int e; unsigned long f; } s = {
        1, -1234567890123L, 2, 9000000000000000000LL, 3, 18000000000000000000UL};
    EXPECT("%d %ld %d %lld %d %lu", &s, s.a, s.b, s.c, s.d, s.e, s.f);
    EXPECT("%d %20ld|%-20lld|%d %lx", &(struct { int a; long b; long long c; int d; long e; }){
           -1, -5L, 6LL, 9, 0x123456789abcL}, -1, -5L, 6LL, 9, 0x123456789abcL);
  }
  {
    /* Floats reach vprintf as doubles. */
    float f = 1.5f;
    struct { double f; int i; double g; } s = {f, 3, -0.125};
    EXPECT("%f %d %f", &s, f, 3, -0.125);
    struct { double a, b, c, d; } w = {3.14159265358979, 2.5, -1234.5678, 0.1};
    EXPECT("%f|%.3f|%10.2f|%-10.1f|%+.0f", &(struct { double a, b, c, d, e; }){w.a, w.a, w.c,
           w.d, w.b}, w.a, w.a, w.c, w.d, w.b);
    EXPECT("%e %.2e %E %g %G %.3g %g %g", &(struct { double a, b, c, d, e, f, g, h; }){
           12345.678, 1e-10, 6.02e23, 0.0001234, 1e20, 3.14159, 100000.0, 1e6},
           12345.678, 1e-10, 6.02e23, 0.0001234, 1e20, 3.14159, 100000.0, 1e6);
    EXPECT("%a %.2A", &(struct { double a, b; }){1.0, -0.75}, 1.0, -0.75);
  }
  {
    EXPECT("%c%c%c %3c|%-3c|", &(struct { int a, b, c, e, f; }){'a', 'b', 'c', 'q', 'r'}, 'a',
           'b', 'c', 'q', 'r');
  }
  {
    int x = 0;
    struct { void *a; int b; void *c; } s = {&x, 9, NULL};
    EXPECT("%p %d %p", &s, (void *)&x, 9, (void *)NULL);
  }
  {
    struct { int a; } s = {100};
    EXPECT("%d%% done, 100%%", &s, 100);
    /* Small integers are promoted to int; %hd and %hhu narrow again. */
    EXPECT("%hd %hhu %hx", &(struct { int a, b, c; }){70000, 300, -1}, 70000, 300, -1);
    EXPECT("%zu %jd %td", &(struct { size_t a; intmax_t b; ptrdiff_t c; }){
           (size_t)1 << 40, (intmax_t)-7, (ptrdiff_t)-8}, (size_t)1 << 40, (intmax_t)-7,
           (ptrdiff_t)-8);
  }
  {
    /* Width and precision from the arguments; a negative width is the `-`
     * flag, a negative precision is none. */
    EXPECT("[%*d|%-*d|%*d|%.*f|%*.*d|%.*f]", &(struct { int a, b, c, d, e, f, g; double h;
           int i, j, k, l; double m; }){6, 42, 5, -3, -4, 7, 2, 3.14159, 8, 3, 77, -2, 1.5}, 6,
           42, 5, -3, -4, 7, 2, 3.14159, 8, 3, 77, -2, 1.5);
    /* A precision at the largest allowed (1 MiB). */
    EXPECT("%.*d|", &(struct { int b, c; }){1 << 20, 1}, 1 << 20, 1);
  }
  {
    /* Longer than any fixed buffer the implementation might use. */
    char *big = malloc(5010);
    CHECK(big);
    for (int i = 0; i < 5000; i++)
      big[i] = (char)('a' + i % 26);
    strcpy(big + 5000, "> %d");
    struct { int n; } s = {1};
    host_printf_vs(__LINE__, big, &s, 1);
    EXPECT("%1000d|%-700.3f|", &(struct { int a; double b; }){5, 2.5}, 5, 2.5);
    free(big);
  }
  {
    /* No arguments (args may be NULL), and an empty format. */
    int ret;
    char *got = host_printf("plain text 100%% sure\n", NULL, &ret);
    if (strcmp(got, "plain text 100% sure\n") != 0) {
      fprintf(stderr, "no arguments: got \"%s\"\n", got);
      g_failures++;
    }
    free(got);
    got = host_printf("", NULL, &ret);
    if (got[0] || ret != 0) {
      fprintf(stderr, "empty format: got \"%s\" (%d)\n", got, ret);
      g_failures++;
    }
    free(got);
  }
  CHECK(g_failures == 0);
}

/* ---- one call, one unbroken piece of output ---- */

#define LINES 300
/* 32 dots; three make the 96 characters line_ok wants. */
#define PAD "................................"
static void *print_lines(void *arg) {
  int id = (int)(intptr_t)arg;
  for (int i = 0; i < LINES; i++) {
    struct { int id, i; } s = {id, i};
    gpuccHostPrintf("thread %d line %d " PAD PAD PAD " end\n", &s);
  }
  return NULL;
}

static int line_ok(const char *line) {
  int id, i;
  char pad[200], end[8];
  return sscanf(line, "thread %d line %d %199s %7s", &id, &i, pad, end) == 4 &&
         strlen(pad) == 96 && strcmp(end, "end") == 0;
}

static void check_lines(const char *text, unsigned want) {
  unsigned lines = 0, bad = 0;
  char *copy = strdup(text);
  CHECK(copy);
  for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    lines++;
    if (!line_ok(l) && bad++ < 5)
      fprintf(stderr, "broken line: \"%s\"\n", l);
  }
  free(copy);
  if (lines != want || bad)
    fprintf(stderr, "%u lines (want %u), %u broken\n", lines, want, bad);
  CHECK(lines == want && bad == 0);
}

static void four_threads(void *unused) {
  (void)unused;
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    CHECK(pthread_create(&t[i], NULL, print_lines, (void *)(intptr_t)i) == 0);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
}

static void run_atomic_lines(void) {
  char *text = capture(four_threads, NULL);
  check_lines(text, 4 * LINES);
  free(text);
}

/* ---- from GPU threads: fibers on 64 KiB stacks, across a barrier ---- */

static void printing_thread(void **params, struct gpucc_host_ctx *ctx) {
  (void)params;
  struct { int id, i; } s = {(int)host_linear_tid(ctx), (int)host_linear_block(ctx)};
  gpuccHostPrintf("thread %d line %d " PAD PAD PAD " end\n", &s);
  gpuccHostBarrier(ctx);
  s.i += 100;
  gpuccHostPrintf("thread %d line %d " PAD PAD PAD " end\n", &s);
}

static void kernel_grid(void *unused) {
  (void)unused;
  unsigned grid[3] = {4, 1, 1}, block[3] = {64, 1, 1};
  host_run(printing_thread, NULL, 0, grid, block, 0, NULL);
}

static void run_in_kernel(void) {
  char *text = capture(kernel_grid, NULL);
  check_lines(text, 2 * 4 * 64);
  free(text);
}

/* ---- formats that no gpu.printf can pass ---- */

/* gpuccHostPrintf(format, args) must write exactly `want`. */
static void expect_text(int line, const char *format, const void *args, const char *want) {
  int ret;
  char *got = host_printf(format, args, &ret);
  if (strcmp(got, want) != 0 || ret != (int)strlen(want)) {
    g_failures++;
    fprintf(stderr, "line %d: format \"%s\"\n  got  (%d) \"%.300s\"\n  want \"%s\"\n", line,
            format ? format : "(null)", ret, got, want);
  }
  free(got);
}
#define EXPECT_TEXT(format, args, want) expect_text(__LINE__, format, args, want)

static void run_bad_formats(void) {
  /* A string or %n "argument" is a wild pointer here: never dereferenced. */
  struct { int a; void *b; int c; } s = {5, (void *)(uintptr_t)0x10, 6};
  EXPECT_TEXT("a=%d s=%s c=%d\n", &s, "a=5 s=<bad format> c=%d\n");
  EXPECT_TEXT("%ls|\n", &s, "<bad format>|\n");
  EXPECT_TEXT("%d%n\n", &s, "5<bad format>\n");
  EXPECT_TEXT("%q %d", &s, "<bad format> %d");
  EXPECT_TEXT("%1$d", &s, "<bad format>d"); /* the $ is the bad conversion */
  EXPECT_TEXT("%5%|", &s, "<bad format>|");
  EXPECT_TEXT("%Lf %lc %hf %llld", &s, "<bad format> %lc %hf %llld");
  EXPECT_TEXT("%lc", &s, "<bad format>");
  EXPECT_TEXT("%hhf", &s, "<bad format>");
  /* Repeated flags (C allows them) are passed on once each. */
  EXPECT_TEXT("%--##8x|", &(unsigned){0xabu}, "0xab    |");
  /* %p prints the address, reading nothing through it. */
  EXPECT_TEXT("%d %p %d", &s, "5 0x10 6");
  /* Cut off by the end of the format, in every part of a conversion. */
  EXPECT_TEXT("x %", &s, "x <bad format>");
  EXPECT_TEXT("x %-", &s, "x <bad format>");
  EXPECT_TEXT("x %5.", &s, "x <bad format>");
  EXPECT_TEXT("x %5.3l", &s, "x <bad format>");
  /* Widths and precisions past 1 MiB, written or from a `*`. */
  EXPECT_TEXT("%99999999999999999999999d|", &s, "<bad format>|");
  EXPECT_TEXT("%.2000000f", &s, "<bad format>");
  struct { int w, v; } star = {2147483647, 1};
  EXPECT_TEXT("[%*d]", &star, "[<bad format>]");
  star.w = -2147483647 - 1;
  EXPECT_TEXT("[%*d]", &star, "[<bad format>]");
  EXPECT_TEXT("[%.*d]", &star, "[<bad format>]");
  /* No arguments at all, and no format. */
  EXPECT_TEXT("n=%d\n", NULL, "n=<bad format>\n");
  EXPECT_TEXT(NULL, NULL, "<bad format>");
  CHECK(g_failures == 0);
}

/* Random formats over random argument bytes: whatever the output, no crash
 * and no read outside the buffer (ASan). A conversion reads at most three
 * 8-byte slots, so the buffer covers any 64-character format. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void random_formats(void *unused) {
  (void)unused;
  static const char alphabet[] = "%%%%%%-+ #0123456789.**hhlllzjtLqdiouxXcspnfFeEgGaA$\n";
  static uint64_t args[64 * 3 + 8];
  char format[65];
  for (int round = 0; round < 20000; round++) {
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
      uint64_t r = rng();
      /* Small values half of the time, so '*' widths are often accepted. */
      args[i] = r & 1 ? (r >> 1) % 40 : r;
    }
    size_t n = rng() % (sizeof format);
    for (size_t i = 0; i < n; i++)
      format[i] = alphabet[rng() % (sizeof alphabet - 1)];
    format[n] = '\0';
    CHECK(gpuccHostPrintf(format, args) >= 0);
  }
}

/* Runs random_formats with fd 1 on /dev/null: widths of up to 1 MiB make
 * too much output to keep. */
static void run_random_formats(void) {
  fflush(stdout);
  int null = open("/dev/null", O_WRONLY);
  int saved = dup(1);
  CHECK(null >= 0 && saved >= 0 && dup2(null, 1) == 1);
  random_formats(NULL);
  fflush(stdout);
  CHECK(dup2(saved, 1) == 1);
  close(saved);
  close(null);
}

static const struct rt_test tests[] = {
    {"printf", run_printf, 0, {0}, {"got"}, 0},
    {"atomic_lines", run_atomic_lines, 0, {0}, {"broken"}, 0},
    {"in_kernel", run_in_kernel, 0, {0}, {"broken"}, 0},
    {"bad_formats", run_bad_formats, 0, {0}, {"got"}, 0},
    {"random_formats", run_random_formats, 0, {0}, {0}, 0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
