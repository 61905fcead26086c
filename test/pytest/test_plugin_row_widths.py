"""The plugin's row loops at every vector width (native/vector_math.h, VECTOR_ROW_FUNCTIONS):
attention's softmax and LayerNorm's two sums are built for 16 lanes (AVX-512), 8 (AVX2 and
FMA) and 4 (any x86-64 CPU), and a model runs only the widest its CPU has. A C program on
the plugin's source runs each width this CPU can against sums in double, so the widths a
CI machine would never pick are checked too."""

import pytest
from test_library_matmuls import _run_plugin_check

from mlc.driver.backends import matmul_library

pytestmark = pytest.mark.skipif(not matmul_library.available()[0],
                                reason=f"mlc's matmul plugin cannot be built here: {matmul_library.available()[1]}")

ROW_WIDTHS_CHECK = r"""
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "team.h"
#include "mlc_layer_norm.h"
#include "softmax_row.h"

typedef int (*softmax_fn)(float*, size_t, float, const float*);
typedef double (*total_fn)(const float*, size_t);
typedef double (*deviations_fn)(const float*, size_t, float);

static float uniform(unsigned* state) { /* -8 .. 8 */
  *state = *state * 1103515245u + 12345u;
  return (float)((*state >> 8) & 0xffff) / 65536.0f * 16.0f - 8.0f;
}

/* The softmax's outcome and weights as mlc_attention.h defines them, in double. */
static int reference_softmax(const float* x, size_t n, double* weights) {
  int all_minus_inf = 1, nan = 0;
  double peak = -INFINITY, sum = 0.0;
  for (size_t j = 0; j < n; ++j) {
    all_minus_inf &= x[j] == -INFINITY;
    nan |= x[j] != x[j] || x[j] == INFINITY;
    if (x[j] > peak) peak = x[j];
  }
  if (all_minus_inf) return SOFTMAX_ALL_MINUS_INF;
  if (nan) return SOFTMAX_NAN;
  for (size_t j = 0; j < n; ++j) sum += weights[j] = exp((double)x[j] - peak);
  for (size_t j = 0; j < n; ++j) weights[j] /= sum;
  return SOFTMAX_DONE;
}

int main(void) {
  const softmax_fn softmax[3] = {softmax_row_x4, softmax_row_x8, softmax_row_x16};
  const total_fn total[3] = {row_total_x4, row_total_x8, row_total_x16};
  const deviations_fn deviations[3] = {row_squared_deviations_x4, row_squared_deviations_x8,
                                       row_squared_deviations_x16};
  const int runs[3] = {1, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
                       __builtin_cpu_supports("avx512f")};
  /* each width's tails: a part of one vector, of four, and rows past ROW_CHUNK (256) */
  const size_t lengths[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 197, 300, 1000};
  enum { PLAIN, A_NAN, AN_INF, ALL_MINUS_INF, SOME_MINUS_INF, CASES };
  size_t checked = 0, wrong = 0;
  unsigned state = 1;
  float x[1000], row[1000], mask[1000], scores[1000];
  double weights[1000];
  for (int width = 0; width < 3; ++width) {
    if (!runs[width]) continue;
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; ++l) {
      const size_t n = lengths[l];
      for (int c = 0; c < CASES; ++c) {
        for (size_t j = 0; j < n; ++j) x[j] = c == ALL_MINUS_INF ? -INFINITY : uniform(&state);
        const size_t at = (state >> 4) % n; /* anywhere: in a vector or in the tail */
        if (c == A_NAN) x[at] = NAN;
        if (c == AN_INF) x[at] = INFINITY;
        if (c == SOME_MINUS_INF) x[at] = x[n - 1 - at] = -INFINITY;
        /* the row alone (scale 1, no mask), then scaled with a mask added, as attention's
         * own kernel gives its rows: the reference takes x * scale + mask rounded once */
        for (int masked = 0; masked < 2; ++masked) {
          const float scale = masked ? 0.3f : 1.0f;
          for (size_t j = 0; j < n; ++j) {
            mask[j] = uniform(&state) / 4.0f;
            scores[j] = masked ? (float)((double)x[j] * scale + mask[j]) : x[j];
          }
          memcpy(row, x, n * sizeof(float));
          const int expected = reference_softmax(scores, n, weights);
          const int got = softmax[width](row, n, scale, masked ? mask : NULL);
          int bad = got != expected;
          for (size_t j = 0; expected == SOFTMAX_DONE && j < n; ++j) bad |= fabs(row[j] - weights[j]) > 2e-6;
          checked += 1, wrong += bad;
        }
        if (c != PLAIN) continue;
        double sum = 0.0, magnitude = 0.0, squares = 0.0, square_magnitude = 0.0;
        for (size_t j = 0; j < n; ++j) sum += x[j], magnitude += fabs(x[j]);
        const float mean = (float)(sum / n);
        for (size_t j = 0; j < n; ++j) {
          const double d = (double)x[j] - mean;
          squares += d * d, square_magnitude += d * d;
        }
        checked += 2;
        wrong += fabs(total[width](x, n) - sum) > 1e-6 * magnitude;
        wrong += fabs(deviations[width](x, n, mean) - squares) > 1e-6 * square_magnitude;
      }
    }
  }
  printf("%zu of %zu wrong at widths%s%s%s\n", wrong, checked, runs[0] ? " 4" : "", runs[1] ? " 8" : "",
         runs[2] ? " 16" : "");
  return 0;
}
"""


def test_row_loops_agree_with_double_sums_at_every_width_this_cpu_runs(tmp_path):
    """Each width's softmax, of a row alone and of a row scaled with a mask added (as the
    attention's own kernel gives its rows), gives the reference's outcome (done, NaN for a
    NaN or +inf, all -inf) and weights within 2e-6, and its LayerNorm sums the
    reference's within 1e-6 of the row's magnitude, over lengths that leave every kind of
    tail."""
    printed = _run_plugin_check(tmp_path, "row_widths_check", ROW_WIDTHS_CHECK)
    assert printed.startswith("0 of ") and int(printed.split()[2]) > 200 and " 4" in printed, printed
