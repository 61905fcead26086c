/* q(x) = clamp(round-half-even(x / sx), -127, 127) of a row on AVX-512, as int8 (its bits
 * exclusive-or `flip`), exactly as the portable loop computes it. Included by
 * mlc_matmul.c, which runs it where the CPU has AVX-512F, BW and VL.
 *
 * Why: GCC leaves the portable loop scalar (nearbyintf and the narrowing to bytes), and
 * the quotient's vdivps bounds it even when vectorized. Quantizing BERT-base's 128x3072
 * rows took 0.17 ms on one thread, half of fc2's whole library call. Here each lane is
 * t = x times 1 / sx, which differs from the quotient x / sx by three roundings at most.
 * Rounding both to an integer gives the same unless t lies within them of a
 * half-integer: such a vector (about one in 500 on random rows) is divided instead. NaN
 * lanes are NaN either way, and an infinite sx gives 1 / sx = 0 and inf * 0 = NaN, as
 * inf / inf. */

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define QUANTIZE_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

static int quantize_avx512_available(void) {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}

/* Lanes of x / sx (from t, its product form) rounded to the nearest integer, ties to
 * even, clamped to -127..127 as the portable loop does (NaN to -127: vcvtps2dq makes NaN
 * INT32_MIN). Past |t| = 128 both forms clamp alike, and below it the three roundings
 * move t by at most 3 * 128 * 2^-24 < 2^-14: a lane that far from a half-integer rounds
 * alike. |t| is never infinite: |x| <= 127 sx, and an infinite x makes sx infinite. */
QUANTIZE_AVX512_TARGET static inline __m512i quantize_lanes(__m512 x, __m512 reciprocal, __m512 sx) {
  __m512 t = _mm512_mul_ps(x, reciprocal);
  __m512 rounded = _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512 off = _mm512_abs_ps(_mm512_sub_ps(t, rounded)); /* <= 0.5 */
  if (_mm512_cmp_ps_mask(off, _mm512_set1_ps(0.5f - 0x1p-14f), _CMP_GE_OQ))
    rounded = _mm512_roundscale_ps(_mm512_div_ps(x, sx), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return _mm512_max_epi32(_mm512_cvtps_epi32(rounded), _mm512_set1_epi32(-127));
}

QUANTIZE_AVX512_TARGET static void quantize_avx512(const float* x, size_t k, float sx, uint8_t* q, uint8_t flip) {
  const __m512 scale = _mm512_set1_ps(sx), reciprocal = _mm512_set1_ps(1.0f / sx);
  const __m128i flips = _mm_set1_epi8((char)flip);
  size_t i = 0;
  for (; i + 16 <= k; i += 16) {
    const __m128i bytes = _mm512_cvtsepi32_epi8(quantize_lanes(_mm512_loadu_ps(x + i), reciprocal, scale));
    _mm_storeu_si128((__m128i*)(q + i), _mm_xor_si128(bytes, flips));
  }
  if (i < k) {
    const __mmask16 tail = (__mmask16)((1u << (k - i)) - 1);
    const __m128i bytes =
        _mm512_cvtsepi32_epi8(quantize_lanes(_mm512_maskz_loadu_ps(tail, x + i), reciprocal, scale));
    _mm_mask_storeu_epi8(q + i, tail, _mm_xor_si128(bytes, flips));
  }
}
