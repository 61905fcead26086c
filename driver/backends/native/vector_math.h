/* Float functions the plugin's loops apply to each element, written so that the
 * compiler vectorizes them (no calls, no branches: selects): exp of x <= 0 (softmax),
 * and GELU's two forms (erf, tanh). Included by mlc_matmul.c and mlc_attention.h. */

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

/* GELU's erf(x / sqrt 2) = x P(x^2) / Q(x^2) for x clamped to +-GELU_ERF_END (where erf is
 * 1 in float, as the rational is), the quotient clamped to [-1, 1]: degrees 6 and 4, the
 * coefficients from fit_gelu_erf.py, lowest degree first. gelu_avx512.h computes the same
 * on AVX-512 with 1 / Q from rcp14 and a Newton step. Within 1.0e-6 of the exact GELU
 * with FMA, 1.3e-6 without (the AVX2 and generic builds: each step rounded twice). */
#define GELU_ERF_END 5.5437f
static const float GELU_ERF_P[7] = {0.7978845238685608f, 0.0706857442855835f, 0.00894030462950468f,
                                    0.0003271976311225444f, 6.269171990425093e-06f, -4.326266278553703e-08f,
                                    2.201308579863337e-10f};
static const float GELU_ERF_Q[5] = {1.0f, 0.2552572786808014f, 0.028750117868185043f, 0.0017942041158676147f,
                                    5.975554449832998e-05f};

/* 0.5 x (1 + erf(x / sqrt 2)); NaN stays NaN through 0.5 x. */
static inline float gelu_erf(float x) {
  const float a = x < -GELU_ERF_END ? -GELU_ERF_END : x > GELU_ERF_END ? GELU_ERF_END : x;
  const float t = a * a;
  float p = GELU_ERF_P[6], q = GELU_ERF_Q[4];
  for (int i = 5; i >= 0; --i) p = p * t + GELU_ERF_P[i];
  for (int i = 3; i >= 0; --i) q = q * t + GELU_ERF_Q[i];
  float erf = a * p / q;
  erf = erf < -1.0f ? -1.0f : erf > 1.0f ? 1.0f : erf;
  const float half = 0.5f * x;
  return half + half * erf;
}

/* tanh(x) = sign(x) (1 - e) / (1 + e), e = exp(-2|x|): within a few ulp of 1 - |tanh|. */
static inline float tanh_approx(float x) {
  const float a = x < 0.0f ? -x : x;
  const float e = exp_nonpositive(-2.0f * a);
  const float y = (1.0f - e) / (1.0f + e);
  return x < 0.0f ? -y : y;
}

/* 16 floats (and 16 int32), which GCC's vector extension compiles to one AVX-512
 * register. Loops whose lanes GCC does not vectorize on its own use them: a sum or a
 * max over a row (GCC may not reassociate them), and exp over a row of scores. Without
 * AVX-512 GCC makes no vector code of them at all: on AVX2 a softmax's max over 16 lanes
 * became 16 scalar compares and branches, and its exp went through the stack (4.6 ns an
 * element on an AMD EPYC, Zen 3). Such loops are therefore written once for any width
 * (VECTOR_ROW_FUNCTIONS) and built for 16 lanes on AVX-512, 8 on AVX2 (float_x8, one
 * AVX2 register) and 4 elsewhere (float_x4, one SSE register). */
typedef float float_x16 __attribute__((vector_size(64)));
typedef float float_x8 __attribute__((vector_size(32)));
typedef float float_x4 __attribute__((vector_size(16)));
/* Functions of these vectors are always inlined into their caller's clone, so GCC's note
 * that a 64-byte vector passed without AVX-512 changes the ABI never applies. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef int32_t int_x16 __attribute__((vector_size(64)));
typedef int32_t int_x8 __attribute__((vector_size(32)));
typedef int32_t int_x4 __attribute__((vector_size(16)));

#define LOAD_VECTOR(v, p) memcpy(&(v), (p), sizeof(v))
#define STORE_VECTOR(p, v) memcpy((p), &(v), sizeof(v))
/* Lanes of a where mask (a comparison's -1), else of b; `ints` the int vector of a's width. */
#define SELECT_LANES(ints, mask, a, b) ((__typeof__(a))((((ints)(a)) & (mask)) | (((ints)(b)) & ~(mask))))

/* exp_nonpositive of each lane of a vector of floats `floats` (ints: its int32 vector),
 * with the same arithmetic: rint as x + 1.5 * 2^23 - 1.5 * 2^23, which rounds alike (to
 * even) where |x * log2(e)| < 2^22, and here it is below 127. */
#define EXP_NONPOSITIVE_LANES(name, floats, ints)                            \
  static inline __attribute__((always_inline)) floats name(floats x) {       \
    const floats lowest = (floats){0} - 87.33654f;                           \
    const ints below = x < lowest;                                           \
    x = SELECT_LANES(ints, below, lowest, x);                                \
    const floats n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f; \
    const floats r = x - n * 0.693359375f + n * 2.12194440e-4f;              \
    floats p = r * 1.9875691500e-4f + 1.3981999507e-3f;                      \
    p = p * r + 8.3334519073e-3f;                                            \
    p = p * r + 4.1665795894e-2f;                                            \
    p = p * r + 1.6666665459e-1f;                                            \
    p = p * r + 5.0000001201e-1f;                                            \
    p = p * r * r + r + 1.0f;                                                \
    const ints bits = (__builtin_convertvector(n, ints) + 127) << 23;        \
    const floats e = p * (floats)bits;                                       \
    return (floats)((ints)e & ~below);                                       \
  }
EXP_NONPOSITIVE_LANES(exp_nonpositive_x16, float_x16, int_x16)
EXP_NONPOSITIVE_LANES(exp_nonpositive_x8, float_x8, int_x8)
EXP_NONPOSITIVE_LANES(exp_nonpositive_x4, float_x4, int_x4)

/* A function of rows built for three widths: `body(declaration, floats, ints, lanes, exp)`
 * defines a function that begins with `declaration` (attributes, result and name) in
 * vectors of `lanes` floats, with `ints` and `exp` of that width. It is built as name_x16
 * for AVX-512, name_x8 for AVX2 and FMA, name_x4 for any x86-64 CPU, and `name` calls the
 * widest this CPU has. */
#define VECTOR_ROW_FUNCTIONS(body, name, result, parameters, arguments)                              \
  body(__attribute__((target("avx512f"))) static result name##_x16, float_x16, int_x16, 16,          \
       exp_nonpositive_x16)                                                                          \
  body(__attribute__((target("avx2,fma"))) static result name##_x8, float_x8, int_x8, 8,             \
       exp_nonpositive_x8)                                                                           \
  body(static result name##_x4, float_x4, int_x4, 4, exp_nonpositive_x4)                             \
  static result name parameters {                                                                    \
    if (__builtin_cpu_supports("avx512f")) return name##_x16 arguments;                              \
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return name##_x8 arguments; \
    return name##_x4 arguments;                                                                      \
  }
#endif  // MLC_VECTOR_MATH_H_
