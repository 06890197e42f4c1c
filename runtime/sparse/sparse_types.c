/* sparse_types.c: the data type and index type codes of the sparse ABI.
 *
 * MLIR's lowering passes CUDA's codes (library_types.h, cusparse.h) as i32;
 * these functions give their sizes and names, and read and write elements
 * for the CPU. The CPU computes in double: every f16, bf16 and f32 value is
 * exactly a double, and a sum of a few of their products rounds once when
 * stored, which is as close as a GPU's f32 accumulation gets, or closer. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sparse.h"

size_t sp_value_bytes(int dtype) {
  switch (dtype) {
  case SP_R_8I:
    return 1;
  case SP_R_16F:
  case SP_R_16BF:
    return 2;
  case SP_R_32F:
  case SP_R_32I:
  case SP_C_16F:
  case SP_C_16BF:
    return 4;
  case SP_R_64F:
  case SP_C_32F:
    return 8;
  case SP_C_64F:
    return 16;
  default:
    return 0;
  }
}

const char *sp_value_name(int dtype, char *buf, size_t len) {
  switch (dtype) {
  case SP_R_32F: return "f32";
  case SP_R_64F: return "f64";
  case SP_R_16F: return "f16";
  case SP_R_16BF: return "bf16";
  case SP_R_8I: return "i8";
  case SP_R_32I: return "i32";
  case SP_C_32F: return "complex<f32>";
  case SP_C_64F: return "complex<f64>";
  case SP_C_16F: return "complex<f16>";
  case SP_C_16BF: return "complex<bf16>";
  default:
    snprintf(buf, len, "data type %d", dtype);
    return buf;
  }
}

size_t sp_index_bytes(int itype) {
  switch (itype) {
  case SP_INDEX_16U: return 2;
  case SP_INDEX_32I: return 4;
  case SP_INDEX_64I: return 8;
  default: return 0;
  }
}

const char *sp_format_name(enum sp_format f) {
  switch (f) {
  case SP_COO: return "COO";
  case SP_COO_AOS: return "COO (AoS)";
  case SP_CSR: return "CSR";
  case SP_CSC: return "CSC";
  case SP_BSR: return "BSR";
  }
  return "?";
}

int sp_cpu_value_type(int dtype) {
  return dtype == SP_R_32F || dtype == SP_R_64F || dtype == SP_R_16F || dtype == SP_R_16BF;
}

/* bf16 is the high half of an f32: widening is a shift; narrowing rounds
 * the f32 to nearest even (so a double is rounded twice, which can differ
 * from one rounding only on exact ties of the f32), and keeps a NaN a NaN
 * (quiet) rather than letting the rounding carry turn it into infinity. */
static double bf16_load(uint16_t bits) {
  uint32_t w = (uint32_t)bits << 16;
  float f;
  memcpy(&f, &w, sizeof f);
  return f;
}

static uint16_t bf16_store(double v) {
  float f = (float)v;
  uint32_t w;
  memcpy(&w, &f, sizeof w);
  if (isnan(f))
    return (uint16_t)((w >> 16) | 0x40);
  w += 0x7fff + ((w >> 16) & 1);
  return (uint16_t)(w >> 16);
}

double sp_load(int dtype, const void *base, int64_t i) {
  switch (dtype) {
  case SP_R_32F:
    return ((const float *)base)[i];
  case SP_R_64F:
    return ((const double *)base)[i];
  case SP_R_16F:
    return (double)((const _Float16 *)base)[i];
  case SP_R_16BF:
    return bf16_load(((const uint16_t *)base)[i]);
  default:
    return 0;
  }
}

void sp_store(int dtype, void *base, int64_t i, double v) {
  switch (dtype) {
  case SP_R_32F:
    ((float *)base)[i] = (float)v;
    break;
  case SP_R_64F:
    ((double *)base)[i] = v;
    break;
  case SP_R_16F:
    /* double -> _Float16 directly: one rounding, not two through float */
    ((_Float16 *)base)[i] = (_Float16)v;
    break;
  case SP_R_16BF:
    ((uint16_t *)base)[i] = bf16_store(v);
    break;
  default:
    break;
  }
}

int64_t sp_index_load(int itype, const void *base, int64_t i) {
  switch (itype) {
  case SP_INDEX_16U:
    return ((const uint16_t *)base)[i];
  case SP_INDEX_32I:
    return ((const int32_t *)base)[i];
  default:
    return ((const int64_t *)base)[i];
  }
}

void sp_index_store(int itype, void *base, int64_t i, int64_t v) {
  switch (itype) {
  case SP_INDEX_16U:
    ((uint16_t *)base)[i] = (uint16_t)v;
    break;
  case SP_INDEX_32I:
    ((int32_t *)base)[i] = (int32_t)v;
    break;
  default:
    ((int64_t *)base)[i] = v;
    break;
  }
}
