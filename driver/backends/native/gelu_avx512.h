/* GELU (erf form) of a row on AVX-512, without exp or a division: erf(x / sqrt 2) is
 * x P(x^2) / Q(x^2), degrees 6 and 4 (fit_gelu_erf.py derives the coefficients), with
 * 1 / Q by vrcp14ps refined by one Newton step (relative error about 2^-28, below float's
 * rounding). Where vector_math.h's erf_approx (Abramowitz and Stegun 7.1.26) goes through
 * exp and a reciprocal, about 36 vector operations per 16 lanes (4.5 ns on an AMD EPYC
 * Zen 5), this is 22 (2.4 ns); GELU after fc1 was 4.4 % of BERT-base's int8 call.
 * Largest error against the exact GELU: 1.0e-6 (PyTorch's own CPU GELU: 1.2e-6; the
 * A&S form: 4.7e-7), at |x| near 5 where the result's own rounding is 4.8e-7; the two
 * forms differ by that much. x is clamped to +-5.5437 (erf(3.92), 1 in float, and the
 * rational gives 1 there), the quotient to [-1, 1]; NaN stays NaN through 0.5 x. The
 * plugin runs it where the CPU has AVX-512F, gelu_erf_row elsewhere. */

#include <immintrin.h>
#include <stddef.h>

#define GELU_AVX512_TARGET __attribute__((target("avx512f")))

static int gelu_avx512_available(void) { return __builtin_cpu_supports("avx512f"); }

/* 0.5 x (1 + erf(x / sqrt(2))) of 16 lanes. */
GELU_AVX512_TARGET static inline __m512 gelu_erf_16(__m512 x) {
  const __m512 a = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-5.5437f)), _mm512_set1_ps(5.5437f));
  const __m512 t = _mm512_mul_ps(a, a);
  __m512 p = _mm512_set1_ps(2.201308579863337e-10f);
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-4.326266278553703e-08f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(6.269171990425093e-06f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.0003271976311225444f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.00894030462950468f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.0706857442855835f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.7978845238685608f));
  __m512 q = _mm512_set1_ps(5.975554449832998e-05f);
  q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(0.0017942041158676147f));
  q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(0.028750117868185043f));
  q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(0.2552572786808014f));
  q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(1.0f));
  __m512 r = _mm512_rcp14_ps(q); /* q >= 1 */
  r = _mm512_mul_ps(r, _mm512_fnmadd_ps(q, r, _mm512_set1_ps(2.0f))); /* r (2 - q r) */
  __m512 erf = _mm512_mul_ps(_mm512_mul_ps(a, p), r);
  erf = _mm512_min_ps(_mm512_max_ps(erf, _mm512_set1_ps(-1.0f)), _mm512_set1_ps(1.0f));
  const __m512 half = _mm512_mul_ps(_mm512_set1_ps(0.5f), x);
  return _mm512_fmadd_ps(half, erf, half);
}

GELU_AVX512_TARGET static void gelu_erf_row_avx512(float* row, size_t n) {
  size_t j = 0;
  for (; j + 16 <= n; j += 16) _mm512_storeu_ps(row + j, gelu_erf_16(_mm512_loadu_ps(row + j)));
  if (j < n) {
    const __mmask16 rest = (__mmask16)((1u << (n - j)) - 1);
    _mm512_mask_storeu_ps(row + j, rest, gelu_erf_16(_mm512_maskz_loadu_ps(rest, row + j)));
  }
}
