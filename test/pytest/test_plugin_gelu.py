"""The plugin's GELU (erf form), a rational erf without exp: on AVX-512
(native/gelu_avx512.h) and as the portable loop (vector_math.h's gelu_erf, built for AVX2
and for any x86-64). A C program on the plugin's source compares each with GELU in double,
over [-12, 12] and at the values where a clamp or a sign decides the result."""

import pytest
from test_library_matmuls import _run_plugin_check
from test_precision import cpu_flags

from mlc.driver.backends import matmul_library

pytestmark = pytest.mark.skipif(not matmul_library.available()[0],
                                reason=f"mlc's matmul plugin cannot be built here: {matmul_library.available()[1]}")

GELU_CHECK = r"""
#include "mlc_matmul.c" /* first: it defines _GNU_SOURCE */
#include <stdio.h>

static double exact(double x) { return 0.5 * x * erfc(-x / sqrt(2.0)); }

/* The wrong results of one row function (off by more than `bound`), and its largest error
 * over [-12, 12]. */
static size_t check(void (*gelu_row)(float*, size_t), double bound, double* largest) {
  enum { N = 1001 }; /* 62 vectors of 16 and a tail of 9 */
  static float row[N], x[N];
  size_t wrong = 0;
  *largest = 0.0;
  for (int block = 0; block < 2000; ++block) {
    for (int j = 0; j < N; ++j) x[j] = (float)(-12.0 + 24.0 * (block * (double)N + j) / (2000.0 * N));
    memcpy(row, x, sizeof row);
    gelu_row(row, N);
    for (int j = 0; j < N; ++j) {
      const double error = fabs(row[j] - exact(x[j]));
      *largest = error > *largest ? error : *largest;
      wrong += !(error <= bound);
    }
  }
  /* past the clamps the result is x and 0 exactly; NaN stays NaN; a tail of one */
  const float special[] = {5.5437f, 6.0f, 1e30f, -5.5437f, -6.0f, -1e30f, NAN, 0.0f, 1e-30f, -1e-30f};
  memcpy(row, special, sizeof special);
  gelu_row(row, sizeof special / sizeof special[0]);
  wrong += row[0] != special[0] || row[1] != 6.0f || row[2] != 1e30f;
  wrong += row[3] != 0.0f || row[4] != 0.0f || row[5] != 0.0f || !isnan(row[6]) || row[7] != 0.0f;
  wrong += fabsf(row[8] - 5e-31f) > 1e-37f || fabsf(row[9] + 5e-31f) > 1e-37f;
  row[0] = -1.0f;
  gelu_row(row, 1);
  wrong += fabs(row[0] - exact(-1.0)) > bound || row[1] != 6.0f; /* the tail writes one */
  return wrong;
}

int main(void) {
  double largest;
  const size_t portable = check(gelu_erf_row_portable, 1.3e-6, &largest); /* no FMA */
  printf("portable: %zu wrong, largest error %.3g;", portable, largest);
  if (gelu_avx512_available()) {
    const size_t avx512 = check(gelu_erf_row_avx512, 1.05e-6, &largest);
    printf(" avx512: %zu wrong, largest error %.3g", avx512, largest);
  }
  printf("\n");
  return 0;
}
"""


def test_gelu_is_within_a_millionth_of_the_exact_one(tmp_path):
    """Each row function this CPU runs is close to GELU in double at 2,002,000 points of
    [-12, 12]: the AVX-512 one (FMA) within 1.05e-6, the portable loop (its AVX2 build
    where the CPU has AVX2: no FMA, each step rounded twice) within 1.3e-6; PyTorch's own
    CPU GELU is within 1.17e-6 there. x past +5.5437 stays x, past -5.5437 is 0, NaN stays
    NaN, and a row's tail reads and writes only its own elements."""
    printed = _run_plugin_check(tmp_path, "gelu_check", GELU_CHECK)
    assert printed.startswith("portable: 0 wrong,"), printed
    assert "avx512: 0 wrong," in printed or "avx512f" not in cpu_flags(), printed
