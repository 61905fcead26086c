/* A row's softmax in place, as torch's attention takes it: softmax_row. Included by
 * mlc_attention.h. */

#ifndef MLC_SOFTMAX_ROW_H_
#define MLC_SOFTMAX_ROW_H_

#include <math.h>
#include <stddef.h>

#include "vector_math.h"

enum { SOFTMAX_DONE = 0, SOFTMAX_NAN = 1, SOFTMAX_ALL_MINUS_INF = 2 };

/* The softmax of row * scale + mask in place (mask: n values one apart, or NULL for
 * none; scale 1: the row as it is); SOFTMAX_NAN when it is NaN and SOFTMAX_ALL_MINUS_INF
 * when every score is -inf, both left for the caller to fill. In vectors of `lanes`
 * (vector_math.h, VECTOR_ROW_FUNCTIONS): GCC left the lanes of the max and of the sum
 * scalar, and the row's softmax took 2 cycles an element (17 us of a BERT-base head's
 * 44, Intel Xeon); on AVX2, in vectors of 16, 4.6 ns an element (AMD EPYC, Zen 3). The
 * scale and the mask join the max's pass: as passes of their own, in the attention's
 * baseline code, each stored the row 16 bytes at a time, and the max's 64-byte loads
 * waited on those stores (perf, BERT-base int8, AMD EPYC Zen 5: 19 % of the softmax's
 * samples on that loop). x * scale + mask may round once (FMA) where the passes rounded
 * twice; with a scale of 1 or a power of two, as 1 / sqrt(64), the two are equal. */
#define SOFTMAX_ROW(declaration, floats, ints, lanes, exp)                                 \
  declaration(float* row, size_t n, float scale, const float* mask) {                      \
    floats peaks = (floats){0} - INFINITY;                                                 \
    const floats scales = (floats){0} + scale;                                             \
    size_t j = 0;                                                                          \
    for (; j + (lanes) <= n; j += (lanes)) {                                               \
      floats x, m;                                                                         \
      LOAD_VECTOR(x, row + j);                                                             \
      x *= scales;                                                                         \
      if (mask) {                                                                          \
        LOAD_VECTOR(m, mask + j);                                                          \
        x += m;                                                                            \
      }                                                                                    \
      STORE_VECTOR(row + j, x);                                                            \
      peaks = SELECT_LANES(ints, x > peaks, x, peaks); /* NaN is never greater: ignored */ \
    }                                                                                      \
    float peak = -INFINITY;                                                                \
    for (int l = 0; l < (lanes); ++l) peak = peaks[l] > peak ? peaks[l] : peak;            \
    for (; j < n; ++j) {                                                                   \
      row[j] = mask ? row[j] * scale + mask[j] : row[j] * scale;                           \
      peak = row[j] > peak ? row[j] : peak;                                                \
    }                                                                                      \
    if (peak == -INFINITY) { /* each score is -inf or NaN */                               \
      for (j = 0; j < n; ++j)                                                              \
        if (row[j] != -INFINITY) return SOFTMAX_NAN;                                       \
      return SOFTMAX_ALL_MINUS_INF;                                                        \
    }                                                                                      \
    /* NaN anywhere, or +inf (inf - inf), make x - peak NaN. */                            \
    const floats peak_lanes = (floats){0} + peak;                                          \
    floats sums = {0};                                                                     \
    ints nans = {0};                                                                       \
    for (j = 0; j + (lanes) <= n; j += (lanes)) {                                          \
      floats x;                                                                            \
      LOAD_VECTOR(x, row + j);                                                             \
      x -= peak_lanes;                                                                     \
      nans |= x != x;                                                                      \
      const floats e = exp(x);                                                             \
      STORE_VECTOR(row + j, e);                                                            \
      sums += e;                                                                           \
    }                                                                                      \
    float sum = 0.0f;                                                                      \
    int nan = 0;                                                                           \
    for (int l = 0; l < (lanes); ++l) sum += sums[l], nan |= nans[l];                      \
    for (; j < n; ++j) {                                                                   \
      const float x = row[j] - peak;                                                       \
      nan |= x != x;                                                                       \
      row[j] = exp_nonpositive(x);                                                         \
      sum += row[j];                                                                       \
    }                                                                                      \
    if (nan || peak != peak) return SOFTMAX_NAN;                                           \
    const float inverse = 1.0f / sum;                                                      \
    for (j = 0; j < n; ++j) row[j] *= inverse;                                             \
    return SOFTMAX_DONE;                                                                   \
  }
VECTOR_ROW_FUNCTIONS(SOFTMAX_ROW, softmax_row, int, (float* row, size_t n, float scale, const float* mask),
                     (row, n, scale, mask))

#endif /* MLC_SOFTMAX_ROW_H_ */
