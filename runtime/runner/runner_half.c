/* runner_half.c: f16 and bf16, and vector.print of them.
 *
 * MLIR passes these types as their 16 bits. Every f16 and bf16 value is
 * exactly a float, so the conversions below lose nothing; upstream prints
 * the float, so printF16(0x3c00) is "1" and a negative NaN is "-nan". The
 * NaN payload and sign are kept (upstream shifts the bits the same way). */
#include <string.h>

#include "runner.h"

static float float_from_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

float rt_f16_to_float(uint16_t bits) {
  uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) /* infinity or NaN: all float exponent bits */
    return float_from_bits(sign | 0x7f800000 | mantissa << 13);
  if (exponent != 0) /* normal: rebias from 15 to 127 */
    return float_from_bits(sign | (exponent + 127 - 15) << 23 | mantissa << 13);
  /* zero or subnormal, mantissa * 2^-24: a normal float, computed exactly */
  float magnitude = (float)mantissa * 0x1p-24f;
  return sign ? -magnitude : magnitude;
}

float rt_bf16_to_float(uint16_t bits) {
  /* bf16 is the upper half of a float. */
  return float_from_bits((uint32_t)bits << 16);
}

RT_EXPORT void printF16(uint16_t bits) {
  fprintf(stdout, "%g", rt_f16_to_float(bits));
}

RT_EXPORT void printBF16(uint16_t bits) {
  fprintf(stdout, "%g", rt_bf16_to_float(bits));
}
