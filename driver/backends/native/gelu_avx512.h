/* GELU (erf form) of a row on AVX-512, without a division: vector_math.h's erf_approx
 * computes t = 1 / (1 + p |x|) with a division, and vdivps on 16 lanes bounds the whole
 * loop (BERT-base's 128x3072 GELU after fc1 took 0.13-0.18 ms a thread per layer, about
 * 22 cycles per 16 lanes). Here t is vrcp14ps refined by one Newton step (relative error
 * about 2^-28, below float's rounding), and exp(-x^2) scales by vscalefps; the rest is
 * erf_approx and exp_nonpositive's arithmetic, lane by lane, so the two agree to an ulp
 * or two. The plugin runs it where the CPU has AVX-512F, gelu_erf_row elsewhere. */

#include <immintrin.h>
#include <stddef.h>

#define GELU_AVX512_TARGET __attribute__((target("avx512f")))

static int gelu_avx512_available(void) { return __builtin_cpu_supports("avx512f"); }

/* exp(v) for v <= 0 (exp_nonpositive's Cephes polynomial), 0 below -87.3. */
GELU_AVX512_TARGET static inline __m512 gelu_exp_nonpositive(__m512 v) {
  const __mmask16 below = _mm512_cmp_ps_mask(v, _mm512_set1_ps(-87.33654f), _CMP_LT_OQ);
  v = _mm512_max_ps(v, _mm512_set1_ps(-87.33654f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(v, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), v);
  r = _mm512_fmadd_ps(n, _mm512_set1_ps(2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_maskz_mov_ps((__mmask16)~below, _mm512_scalef_ps(p, n));
}

/* 0.5 x (1 + erf(x / sqrt(2))) of 16 lanes. */
GELU_AVX512_TARGET static inline __m512 gelu_erf_16(__m512 x) {
  const __m512 z = _mm512_mul_ps(x, _mm512_set1_ps(0.70710678118654752f));
  /* |z| at most 16, where erf is 1 in float: d stays finite, so t does (rcp14 of an
   * infinite d is 0, and 0 * (2 - inf * 0) would be NaN); a NaN z takes 16, and x keeps it. */
  const __m512 a = _mm512_min_ps(_mm512_abs_ps(z), _mm512_set1_ps(16.0f));
  const __m512 d = _mm512_fmadd_ps(a, _mm512_set1_ps(0.3275911f), _mm512_set1_ps(1.0f));
  __m512 t = _mm512_rcp14_ps(d);
  t = _mm512_mul_ps(t, _mm512_fnmadd_ps(d, t, _mm512_set1_ps(2.0f))); /* t (2 - d t) */
  __m512 p = _mm512_set1_ps(1.061405429f);
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-1.453152027f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.421413741f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-0.284496736f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.254829592f));
  const __m512 e = gelu_exp_nonpositive(_mm512_mul_ps(_mm512_sub_ps(_mm512_setzero_ps(), a), a));
  const __m512 y = _mm512_fnmadd_ps(_mm512_mul_ps(p, t), e, _mm512_set1_ps(1.0f)); /* erf(|z|) */
  const __mmask16 negative = _mm512_cmp_ps_mask(z, _mm512_setzero_ps(), _CMP_LT_OQ);
  const __m512 erf = _mm512_mask_sub_ps(y, negative, _mm512_setzero_ps(), y);
  return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), x), _mm512_add_ps(erf, _mm512_set1_ps(1.0f)));
}

GELU_AVX512_TARGET static void gelu_erf_row_avx512(float* row, size_t n) {
  size_t j = 0;
  for (; j + 16 <= n; j += 16) _mm512_storeu_ps(row + j, gelu_erf_16(_mm512_loadu_ps(row + j)));
  if (j < n) {
    const __mmask16 rest = (__mmask16)((1u << (n - j)) - 1);
    _mm512_mask_storeu_ps(row + j, rest, gelu_erf_16(_mm512_maskz_loadu_ps(rest, row + j)));
  }
}
