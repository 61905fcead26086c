/* Float functions the plugin's loops apply to each element, written so that the
 * compiler vectorizes them (no calls, no branches: selects): exp of x <= 0 (softmax),
 * erf and tanh (GELU's two forms). Included by mlc_matmul.c and mlc_attention.h. */

#ifndef MLC_VECTOR_MATH_H_
#define MLC_VECTOR_MATH_H_

#include <stdint.h>
#include <string.h>

/* exp(x) for x <= 0, 0 below -87.3 (where expf underflows to denormals): Cephes' expf,
 * within 2 ulp. */
static inline float exp_nonpositive(float x) {
  const float below = x < -87.33654f ? 0.0f : 1.0f;
  x = x < -87.33654f ? -87.33654f : x;
  const float n = __builtin_rintf(x * 1.44269504088896341f);
  const float r = x - n * 0.693359375f + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t bits = ((int32_t)n + 127) << 23;
  float scale;
  memcpy(&scale, &bits, sizeof scale);
  return p * scale * below;
}

/* erf(x): Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7, odd. */
static inline float erf_approx(float x) {
  const float a = x < 0.0f ? -x : x;
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  float p = 1.061405429f;
  p = p * t - 1.453152027f;
  p = p * t + 1.421413741f;
  p = p * t - 0.284496736f;
  p = p * t + 0.254829592f;
  const float y = 1.0f - p * t * exp_nonpositive(-a * a);
  return x < 0.0f ? -y : y;
}

/* tanh(x) = sign(x) (1 - e) / (1 + e), e = exp(-2|x|): within a few ulp of 1 - |tanh|. */
static inline float tanh_approx(float x) {
  const float a = x < 0.0f ? -x : x;
  const float e = exp_nonpositive(-2.0f * a);
  const float y = (1.0f - e) / (1.0f + e);
  return x < 0.0f ? -y : y;
}

/* 16 floats (and 16 int32), which GCC's vector extension compiles to one AVX-512
 * register, two AVX2 registers or four SSE ones, as each target clone's instruction set
 * has them. Loops whose lanes GCC does not vectorize on its own use them: a sum or a
 * max over a row (GCC may not reassociate them), and exp over a row of scores. */
typedef float float_x16 __attribute__((vector_size(64)));
/* Functions of these vectors are always inlined into their caller's clone, so GCC's note
 * that a 64-byte vector passed without AVX-512 changes the ABI never applies. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef int32_t int_x16 __attribute__((vector_size(64)));

#define LOAD16(v, p) memcpy(&(v), (p), sizeof(v))
#define STORE16(p, v) memcpy((p), &(v), sizeof(v))
/* Lanes of a where mask (a comparison's -1), else of b. */
#define SELECT16(mask, a, b) ((float_x16)((((int_x16)(a)) & (mask)) | (((int_x16)(b)) & ~(mask))))

/* exp_nonpositive of each lane, with the same arithmetic: rint as x + 1.5 * 2^23 - 1.5 *
 * 2^23, which rounds alike (to even) where |x * log2(e)| < 2^22, and here it is below 127. */
static inline __attribute__((always_inline)) float_x16 exp_nonpositive_x16(float_x16 x) {
  const float_x16 lowest = (float_x16){0} - 87.33654f;
  const int_x16 below = x < lowest;
  x = SELECT16(below, lowest, x);
  const float_x16 n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  const float_x16 r = x - n * 0.693359375f + n * 2.12194440e-4f;
  float_x16 p = r * 1.9875691500e-4f + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int_x16 bits = (__builtin_convertvector(n, int_x16) + 127) << 23;
  const float_x16 e = p * (float_x16)bits;
  return (float_x16)((int_x16)e & ~below);
}
#endif  // MLC_VECTOR_MATH_H_
