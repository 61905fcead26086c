/* Single rows on AVX2 and FMA: y (1 x n) = x times a constant weight packed once, in f32
 * (the layout of sgemm_avx512.h) or bf16 (the layout of gemm_bf16.h), summed in f32.
 * Included by mlc_matmul.c, after those two headers.
 *
 * Why: a CPU without AVX-512 (AMD's Zen 2 and 3, Intel's client cores) ran an LLM's
 * decode step on MKL or on IREE's kernel. For bf16 neither has code there: on an AMD
 * EPYC (Zen 3) MKL's bf16 GEMM read a row's weight at 0.6 GB/s and IREE's kernel took
 * 6.0 ms for 1x3072x768, this one 0.26; f32 rows were 15-20 % slower on IREE's kernel
 * (README, Generating text: on an AMD EPYC with AVX2 only). A decode step is bound by
 * reading its weights. These read the packed copy in the order it lies, one panel of 64 columns (8
 * registers of sums) after another. No software prefetch: the packed copy is one
 * sequence, and on an AMD EPYC (Zen 3) prefetching 8 rows ahead, as the AVX-512 kernels
 * do, read no faster (C harness, 768x3072 copies: 12-13 GB/s without on one core, 10-11
 * with).
 * Several rows stay on MKL here (compute, not the weight's bytes, bounds them).
 *
 * bf16 is widened in registers: a packed word holds one column's k and k + 1 (k in the
 * low half), and a bf16 is the upper half of an f32, so the word shifted left 16 is the
 * f32 of k and the word with its low half cleared that of k + 1: two FMAs per word.
 * The products are exact in f32, as vdpbf16ps's; the sums' order differs from it. */

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define GEMV_AVX2_TARGET __attribute__((target("avx2,fma")))

static int gemv_avx2_available(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

/* Lanes of the 8 registers of a 64-column panel that exist, `width` columns of it. */
GEMV_AVX2_TARGET static inline void gemv_avx2_masks(size_t width, __m256i mask[8]) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int q = 0; q < 8; ++q)
    mask[q] = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)width - 8 * q), lane);
}

/* The panel's sums: zero where `first`, else y's (masked where the panel is narrower). */
GEMV_AVX2_TARGET static inline void gemv_avx2_start(const float* y, size_t width, int first, __m256 acc[8]) {
  __m256i mask[8];
  gemv_avx2_masks(width, mask);
  for (int q = 0; q < 8; ++q)
    acc[q] = first ? _mm256_setzero_ps() : width >= 64 ? _mm256_loadu_ps(y + 8 * q) : _mm256_maskload_ps(y + 8 * q, mask[q]);
}

GEMV_AVX2_TARGET static inline void gemv_avx2_finish(float* y, size_t width, const __m256 acc[8]) {
  __m256i mask[8];
  gemv_avx2_masks(width, mask);
  for (int q = 0; q < 8; ++q) {
    if (width >= 64)
      _mm256_storeu_ps(y + 8 * q, acc[q]);
    else
      _mm256_maskstore_ps(y + 8 * q, mask[q], acc[q]);
  }
}

/* y = x . B, B packed by sgemm_avx512_pack: K blocks of SGEMM_AVX512_KC, each block's
 * panels one after another, each panel's k rows of 64 floats together. */
GEMV_AVX2_TARGET static void sgemv_avx2_packed(const float* x, const float* packed, size_t n, size_t k, float* y) {
  const size_t panels = sgemm_avx512_panels(n);
  for (size_t k0 = 0; k0 < k; k0 += SGEMM_AVX512_KC) {
    const size_t kc = k - k0 < SGEMM_AVX512_KC ? k - k0 : SGEMM_AVX512_KC;
    const float* block = packed + k0 * panels * SGEMM_AVX512_COLUMNS;
    for (size_t panel = 0; panel < panels; ++panel) {
      const size_t j = panel * SGEMM_AVX512_COLUMNS, width = n - j;
      const float* b = block + panel * kc * SGEMM_AVX512_COLUMNS;
      __m256 acc[8];
      gemv_avx2_start(y + j, width, k0 == 0, acc);
      for (size_t kk = 0; kk < kc; ++kk, b += SGEMM_AVX512_COLUMNS) {
        const __m256 xk = _mm256_broadcast_ss(x + k0 + kk);
#pragma GCC unroll 8
        for (int q = 0; q < 8; ++q) acc[q] = _mm256_fmadd_ps(xk, _mm256_load_ps(b + 8 * q), acc[q]);
      }
      gemv_avx2_finish(y + j, width, acc);
    }
  }
}

/* The f32 of a bf16 broadcast. */
GEMV_AVX2_TARGET static inline __m256 gemv_avx2_bf16(uint16_t value) {
  return _mm256_castsi256_ps(_mm256_set1_epi32((int)((uint32_t)value << 16)));
}

/* y = x . B for a bf16 row x of even k, B packed by gemm_bf16_pack_bf16(_portable): per
 * panel of 64 columns, per pair of k, a word per column. */
GEMV_AVX2_TARGET static void gemv_bf16_avx2_packed(const uint16_t* x, const uint32_t* packed, size_t n, size_t k,
                                                   float* y) {
  const size_t pairs = gemm_bf16_pairs(k), panels = gemm_bf16_panels(n);
  const __m256i high = _mm256_set1_epi32((int)0xFFFF0000u);
  for (size_t panel = 0; panel < panels; ++panel) {
    const size_t j = panel * GEMM_BF16_COLUMNS;
    const uint32_t* b = packed + panel * GEMM_BF16_COLUMNS * pairs;
    __m256 acc[8];
    gemv_avx2_start(y + j, n - j, 1, acc);
    for (size_t p = 0; p < pairs; ++p, b += GEMM_BF16_COLUMNS) {
      const __m256 even = gemv_avx2_bf16(x[2 * p]), odd = gemv_avx2_bf16(x[2 * p + 1]);
#pragma GCC unroll 8
      for (int q = 0; q < 8; ++q) {
        const __m256i words = _mm256_loadu_si256((const __m256i*)(b + 8 * q));
        acc[q] = _mm256_fmadd_ps(even, _mm256_castsi256_ps(_mm256_slli_epi32(words, 16)), acc[q]);
        acc[q] = _mm256_fmadd_ps(odd, _mm256_castsi256_ps(_mm256_and_si256(words, high)), acc[q]);
      }
    }
    gemv_avx2_finish(y + j, n - j, acc);
  }
}
