/* A row's softmax in place, as torch's attention takes it: softmax_row. Included by
 * mlc_attention.h. */

#ifndef MLC_SOFTMAX_ROW_H_
#define MLC_SOFTMAX_ROW_H_

#include <math.h>
#include <stddef.h>

#include "vector_math.h"

enum { SOFTMAX_DONE = 0, SOFTMAX_NAN = 1, SOFTMAX_ALL_MINUS_INF = 2 };

/* The row's softmax in place; SOFTMAX_NAN when it is NaN and SOFTMAX_ALL_MINUS_INF
 * when every score is -inf, both left for the caller to fill. In vectors of `lanes`
 * (vector_math.h, VECTOR_ROW_FUNCTIONS): GCC left the lanes of the max and of the sum
 * scalar, and the row's softmax took 2 cycles an element (17 us of a BERT-base head's
 * 44, Intel Xeon); on AVX2, in vectors of 16, 4.6 ns an element (AMD EPYC, Zen 3). */
#define SOFTMAX_ROW(declaration, floats, ints, lanes, exp)                                 \
  declaration(float* row, size_t n) {                                                      \
    floats peaks = (floats){0} - INFINITY;                                                 \
    size_t j = 0;                                                                          \
    for (; j + (lanes) <= n; j += (lanes)) {                                               \
      floats x;                                                                            \
      LOAD_VECTOR(x, row + j);                                                             \
      peaks = SELECT_LANES(ints, x > peaks, x, peaks); /* NaN is never greater: ignored */ \
    }                                                                                      \
    float peak = -INFINITY;                                                                \
    for (int l = 0; l < (lanes); ++l) peak = peaks[l] > peak ? peaks[l] : peak;            \
    for (; j < n; ++j) peak = row[j] > peak ? row[j] : peak;                               \
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
VECTOR_ROW_FUNCTIONS(SOFTMAX_ROW, softmax_row, int, (float* row, size_t n), (row, n))

#endif /* MLC_SOFTMAX_ROW_H_ */
