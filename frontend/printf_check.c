/* printf_check.c: gpu.printf formats checked against their arguments.
 *
 * A device printf trusts its format as C's does: "%s" with an i32 makes the
 * host backend (and CUDA's vprintf) read a string at that address, "%d" with
 * an i64 shifts every later argument by four bytes. MLIR's verifier looks at
 * none of that, so we do what -Wformat does, at compile time, and make every
 * mismatch an error: a device has no console to show a garbled line on, and
 * the mistakes C only warns about (%hd of an i64) are the ones that print the
 * wrong numbers. The one mismatch every GPU program makes on purpose, %d of
 * an index, is made right instead (see below). The check sees the argument
 * types as written, so it runs before normalization promotes i8/i16 to i32
 * and f16/bf16 to f64.
 *
 * What each conversion takes, with C's LP64 sizes (NVPTX, AMDGPU and x86-64
 * agree on them):
 *   %d %i %o %u %x %X, no length, hh or h   an integer of at most 32 bits
 *   the same with l, ll, z, j or t          i64 or index
 *   %d %i %o %u %x %X, no length            also i64 or index: the format is
 *                                           rewritten to %lld (...), so that
 *                                           the whole value prints, with one
 *                                           warning per format (-Wformat's).
 *                                           Programs print thread ids (index)
 *                                           with %d; upstream's lowering
 *                                           takes it.
 *   %c                                      an integer of at most 32 bits
 *   %f %F %e %E %g %G %a %A, no length or l f16, bf16, f32 or f64
 *   %p                                      i64 or index (gpu.printf has
 *                                           no pointer operands; an address
 *                                           is an index, e.g. from
 *                                           memref.extract_aligned_pointer_as_index)
 *   a '*' width or precision                an integer of at most 32 bits
 * Refused: %s and %ls (there are no strings on the device), %n (it writes
 * through a pointer), %lc (wide characters), L (long double), positional
 * arguments, unknown conversions, flags or a precision that C leaves
 * undefined for the conversion, widths and precisions over 1 MiB (larger
 * than CUDA's whole printf buffer; the host runtime refuses them too), and
 * a count of arguments other than the format takes. The format is what the
 * device sees: up to its first NUL. */
#include "diag.h"
#include "frontend.h"

#include <limits.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest width or precision; the same bound as runtime/host_printf.c. */
#define FIELD_MAX (1L << 20)
/* Longest conversion text quoted in a message. */
#define QUOTE_MAX 40

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T, LEN_BIG_L };
static const char *const length_text[] = {"", "hh", "h", "l", "ll", "z", "j", "t", "L"};

/* What an argument must be. */
enum want { WANT_INT, WANT_LONG, WANT_DOUBLE, WANT_ADDRESS };
static const char *const want_text[] = {
    "an integer of at most 32 bits (int)",
    "a 64-bit integer or index",
    "a floating-point value (f16, bf16, f32 or f64)",
    "a 64-bit integer or index (an address)",
};

/* One conversion, as written. */
struct conv {
  const char *text; /* from its '%' */
  int len;          /* through its conversion character */
  int hash, zero;   /* flags C restricts */
  int star_width, star_precision, has_precision;
  enum length length;
  char c; /* the conversion character, '\0' at the end of the format */
};

/* The most conversions of one format that get an "ll" (see widen). */
#define WIDEN_MAX 64

/* The state of one gpu.printf's check. */
struct check {
  MlirOperation op;
  intptr_t nargs, next; /* operands, and the next one to take */
  int nconv;            /* conversions so far (1-based in messages) */
  /* Offsets in the format of the conversion characters that get "ll". */
  size_t widen[WIDEN_MAX];
  int nwiden;
};

/* An error about the form of a conversion; it names the argument that the
 * conversion's value would have been. */
static int conv_error(struct check *k, const struct conv *c, const char *why) {
  int n = c->len < QUOTE_MAX ? c->len : QUOTE_MAX;
  long arg = (long)k->next + 1 + c->star_width + c->star_precision;
  return ir_error_at(k->op, "gpu.printf: conversion %d '%.*s%s' (argument %ld) %s", k->nconv,
                           n, c->text, c->len > QUOTE_MAX ? "..." : "", arg, why);
}

/* A decimal width or precision; *bad is set when it exceeds FIELD_MAX. */
static const char *parse_number(const char *p, const char *end, int *bad) {
  long v = 0;
  for (; p < end && *p >= '0' && *p <= '9'; p++) {
    v = v * 10 + (*p - '0');
    if (v > FIELD_MAX) {
      *bad = 1;
      v = FIELD_MAX; /* keep reading the digits, without overflow */
    }
  }
  return p;
}

/* Parses the conversion at p ('%', not "%%"). Returns the character after
 * it, or NULL after reporting what is wrong with its form. */
static const char *parse_conv(struct check *k, const char *p, const char *end, struct conv *c) {
  memset(c, 0, sizeof *c);
  c->text = p++;
  int too_big = 0;
  for (; p < end && *p && strchr("-+ #0", *p); p++) {
    c->hash |= *p == '#';
    c->zero |= *p == '0';
  }
  if (p < end && *p == '*') {
    c->star_width = 1;
    p++;
  } else {
    const char *digits = p;
    p = parse_number(p, end, &too_big);
    if (p < end && *p == '$' && p > digits) {
      c->len = (int)(p + 1 - c->text);
      return conv_error(k, c, "is a positional argument, which gpu.printf does not support"), NULL;
    }
  }
  if (p < end && *p == '.') {
    c->has_precision = 1;
    p++;
    if (p < end && *p == '*') {
      c->star_precision = 1;
      p++;
    } else {
      p = parse_number(p, end, &too_big);
    }
  }
  if (p + 1 < end && (p[0] == 'h' || p[0] == 'l') && p[1] == p[0]) {
    c->length = p[0] == 'h' ? LEN_HH : LEN_LL;
    p += 2;
  } else if (p < end && *p && strchr("hlzjtL", *p)) {
    const char *m = strchr("hlzjtL", *p);
    static const enum length lengths[] = {LEN_H, LEN_L, LEN_Z, LEN_J, LEN_T, LEN_BIG_L};
    c->length = lengths[m - "hlzjtL"];
    p++;
  }
  c->c = p < end ? *p++ : '\0';
  c->len = (int)(p - c->text);
  if (!c->c)
    return conv_error(k, c, "is cut off by the end of the format"), NULL;
  if (too_big)
    return conv_error(k, c, "has a width or precision over 1048576 (the device's printf buffer)"),
           NULL;
  return p;
}

/* Takes the next argument, which must be `want`. `what` says what takes it
 * ("" for the conversion itself, "the '*' width of "...). Returns 0 or -1
 * (reported). */
static int take_arg(struct check *k, const struct conv *c, enum want want, const char *what) {
  int n = c->len < QUOTE_MAX ? c->len : QUOTE_MAX;
  if (k->next >= k->nargs)
    return ir_error_at(k->op,
                             "gpu.printf: %sconversion %d '%.*s' has no argument: the format takes "
                             "more than the %ld given",
                             what, k->nconv, n, c->text, (long)k->nargs);
  MlirType t = mlirValueGetType(mlirOperationGetOperand(k->op, k->next));
  intptr_t arg = ++k->next;
  unsigned width = mlirTypeIsAIndex(t) ? 64 : mlirTypeIsAInteger(t) ? mlirIntegerTypeGetWidth(t) : 0;
  int fits;
  switch (want) {
  case WANT_INT:
    fits = width >= 1 && width <= 32;
    break;
  case WANT_LONG:
  case WANT_ADDRESS:
    fits = width == 64;
    break;
  default:
    fits = mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) || mlirTypeIsAF64(t);
    break;
  }
  if (fits)
    return 0;
  char type[128];
  ir_type_text(t, type, sizeof type);
  return ir_error_at(k->op, "gpu.printf: %sconversion %d '%.*s' takes %s, but argument %ld is '%s'",
                           what, k->nconv, n, c->text, want_text[want], (long)arg, type);
}

/* What the conversion's value must be, or -1 after reporting why it takes
 * none that gpu.printf can pass. */
static int conv_want(struct check *k, const struct conv *c) {
  char why[160];
  switch (c->c) {
  case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
    if (c->length == LEN_BIG_L)
      break;
    if (c->hash && strchr("diu", c->c))
      return conv_error(k, c, "has the '#' flag, which C leaves undefined for it");
    return c->length <= LEN_H ? WANT_INT : WANT_LONG;
  case 'c':
    if (c->length == LEN_L)
      return conv_error(k, c, "prints a wide character, which the device cannot");
    if (c->length != LEN_NONE)
      break;
    if (c->hash || c->has_precision)
      return conv_error(k, c, "has a '#' flag or a precision, which C leaves undefined for it");
    return WANT_INT;
  case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
    if (c->length == LEN_BIG_L)
      return conv_error(k, c, "takes a long double, which gpu.printf cannot pass");
    if (c->length != LEN_NONE && c->length != LEN_L)
      break;
    return WANT_DOUBLE;
  case 'p':
    if (c->length != LEN_NONE)
      break;
    if (c->hash || c->has_precision)
      return conv_error(k, c, "has a '#' flag or a precision, which C leaves undefined for it");
    return WANT_ADDRESS;
  case 's':
    return conv_error(k, c, "takes a string, and there are no strings on the device");
  case 'n':
    return conv_error(k, c, "writes through a pointer, which gpu.printf cannot pass");
  case '%':
    return conv_error(k, c, "has flags, a width, a precision or a length; write '%%' alone");
  default:
    return conv_error(k, c, "is not a printf conversion");
  }
  snprintf(why, sizeof why, "has the length modifier '%s', which '%%%c' does not take",
           length_text[c->length], c->c);
  return conv_error(k, c, why);
}

/* True when conversion c, an integer one without a length, meets a 64-bit
 * argument (i64 or index) and so is to print it whole as %ll<c>. */
static int widens(const struct check *k, const struct conv *c) {
  if (c->length != LEN_NONE || !strchr("diouxX", c->c) || k->next >= k->nargs ||
      k->nwiden == WIDEN_MAX)
    return 0;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(k->op, k->next));
  return mlirTypeIsAIndex(t) || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64);
}

/* The format with "ll" before each conversion character in k->widen. */
static void set_widened_format(MlirOperation op, MlirStringRef s, const struct check *k) {
  char *out = malloc(s.length + 2 * (size_t)k->nwiden);
  if (!out)
    BUG("out of memory");
  size_t n = 0, from = 0;
  for (int i = 0; i < k->nwiden; i++) {
    memcpy(out + n, s.data + from, k->widen[i] - from);
    n += k->widen[i] - from;
    out[n++] = 'l';
    out[n++] = 'l';
    from = k->widen[i];
  }
  memcpy(out + n, s.data + from, s.length - from);
  n += s.length - from;
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetInherentAttributeByName(op, mlirStringRefCreateFromCString("format"),
                                          mlirStringAttrGet(ctx, mlirStringRefCreate(out, n)));
  free(out);
}

static int check_printf(MlirOperation op) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("format"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return 0; /* the verifier's business */
  MlirStringRef s = mlirStringAttrGetValue(a);
  const char *p = s.data, *end = s.data + s.length;
  const char *nul = memchr(p, '\0', s.length);
  if (nul)
    end = nul;
  struct check k = {.op = op, .nargs = mlirOperationGetNumOperands(op)};
  while (p < end) {
    if (*p != '%') {
      p++;
      continue;
    }
    if (p + 1 < end && p[1] == '%') {
      p += 2;
      continue;
    }
    struct conv c;
    k.nconv++;
    if (!(p = parse_conv(&k, p, end, &c)))
      return -1;
    int want = conv_want(&k, &c);
    if (want < 0)
      return -1;
    if (c.star_width && take_arg(&k, &c, WANT_INT, "the '*' width of ") != 0)
      return -1;
    if (c.star_precision && take_arg(&k, &c, WANT_INT, "the '*' precision of ") != 0)
      return -1;
    if (want == WANT_INT && widens(&k, &c)) {
      k.widen[k.nwiden++] = (size_t)(c.text + c.len - 1 - s.data);
      want = WANT_LONG;
    }
    if (take_arg(&k, &c, (enum want)want, "") != 0)
      return -1;
  }
  if (k.next < k.nargs)
    return ir_error_at(op, "gpu.printf: %ld arguments, but the format takes %ld (argument %ld is unused)",
                             (long)k.nargs, (long)k.next, (long)k.next + 1);
  if (k.nwiden) {
    /* One warning per format, as -Wformat gives: the program is right to
     * want the value, only the spelling is C's 32-bit one. */
    ir_warning_at(op, "gpu.printf: %d conversion%s without a length modifier take%s a 64-bit "
                            "integer or index; printed whole, as %%ll%c [-Wformat]",
                        k.nwiden, k.nwiden > 1 ? "s" : "", k.nwiden > 1 ? "" : "s",
                        s.data[k.widen[0]]);
    set_widened_format(op, s, &k);
  }
  return 0;
}

struct walk {
  int failed;
};

static MlirWalkResult check_one(MlirOperation op, void *ud) {
  struct walk *w = ud;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length == strlen("gpu.printf") && memcmp(name.data, "gpu.printf", name.length) == 0 &&
      check_printf(op) != 0)
    w->failed = 1;
  return MlirWalkResultAdvance;
}

int frontend_check_printf(MlirModule module) {
  struct walk w = {0};
  mlirOperationWalk(mlirModuleGetOperation(module), check_one, &w, MlirWalkPreOrder);
  return w.failed ? -1 : 0;
}
