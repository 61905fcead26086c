/* An int8 matrix product on AVX2: C = A B in exact int32, for mlc_gemm_s8_quantizing's rows
 * (quantized by the plugin itself, -127..127, widened to 16 bits) and a constant int8 weight
 * B packed once, widened to 16 bits. Included by mlc_matmul.c.
 *
 * Why mlc's own, on CPUs with AVX2 but neither VNNI nor AMX (AMD's Zen 2 and 3, Intel's
 * client cores): there several int8 rows ran as IREE's steps (quantize, multiply, rescale),
 * and BERT-base's int8 call took longer than its f32 one (AMD EPYC, Zen 3: 202 against 155
 * ms), since MKL's int8 GEMM saturates without VNNI. AVX2 has no byte dot product that is
 * exact for signed rows: vpmaddubsw adds byte pairs in 16 bits with saturation. vpmaddwd
 * multiplies 16-bit pairs into int32, exactly, 16 multiply-adds an instruction; in a C
 * harness a tile of it in L1 ran 78 GMAC/s on one Zen 3 core, where f32 FMAs ran 51. The
 * weight is widened once, when packed; each call's rows when quantized.
 *
 * Layout. A: rows `lda` int16 apart, K rounded up to 2 (zeros past K). B, packed by
 * gemm_s8_avx2_pack: for each GEMM_S8_AVX2_COLUMNS columns, for each pair of k, the 16
 * columns' (k, k + 1) int16 pairs, in order (vpmaddwd's form); zeros past K and N. Each
 * step multiplies up to GEMM_S8_AVX2_ROWS rows by 16 columns in 12 registers. */

#ifndef MLC_GEMM_S8_AVX2_H_
#define MLC_GEMM_S8_AVX2_H_

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define GEMM_S8_AVX2_TARGET __attribute__((target("avx2")))

enum { GEMM_S8_AVX2_ROWS = 6, GEMM_S8_AVX2_COLUMNS = 16 };

static int gemm_s8_avx2_available(void) { return __builtin_cpu_supports("avx2"); }

static size_t gemm_s8_avx2_pairs(size_t k) { return (k + 1) / 2; }

static size_t gemm_s8_avx2_panels(size_t n) { return (n + GEMM_S8_AVX2_COLUMNS - 1) / GEMM_S8_AVX2_COLUMNS; }

/* The bytes gemm_s8_avx2_pack writes. */
static size_t gemm_s8_avx2_packed_bytes(size_t n, size_t k) {
  return gemm_s8_avx2_panels(n) * GEMM_S8_AVX2_COLUMNS * gemm_s8_avx2_pairs(k) * 2 * sizeof(int16_t);
}

/* B (k x n int8, row stride ldb) into gemm_s8_avx2_packed_bytes(n, k) bytes, as the header says. */
static void gemm_s8_avx2_pack(const int8_t* b, size_t ldb, size_t n, size_t k, int16_t* packed) {
  const size_t pairs = gemm_s8_avx2_pairs(k);
  for (size_t panel = 0; panel < gemm_s8_avx2_panels(n); ++panel)
    for (size_t pair = 0; pair < pairs; ++pair)
      for (size_t column = 0; column < GEMM_S8_AVX2_COLUMNS; ++column)
        for (size_t e = 0; e < 2; ++e, ++packed) {
          const size_t kk = 2 * pair + e, j = panel * GEMM_S8_AVX2_COLUMNS + column;
          *packed = kk < k && j < n ? b[kk * ldb + j] : 0;
        }
}

/* C[0:rows, 0:16] (int32, ldc apart) = A[0:rows] times one packed panel, over `pairs`
 * pairs of k; rows at most GEMM_S8_AVX2_ROWS. Inlined with `rows` a constant
 * (gemm_s8_avx2_panel), so the accumulators stay in registers. */
GEMM_S8_AVX2_TARGET __attribute__((always_inline)) static inline void gemm_s8_avx2_tile(
    const int16_t* a, size_t lda, const int16_t* panel, size_t pairs, int32_t* c, size_t ldc, const int rows) {
  __m256i acc[GEMM_S8_AVX2_ROWS][2];
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  for (size_t pair = 0; pair < pairs; ++pair) {
    const int16_t* b = panel + pair * 2 * GEMM_S8_AVX2_COLUMNS;
    const __m256i b0 = _mm256_load_si256((const __m256i*)b), b1 = _mm256_load_si256((const __m256i*)(b + 16));
#pragma GCC unroll 6
    for (int r = 0; r < rows; ++r) {
      int32_t two;
      memcpy(&two, a + r * lda + 2 * pair, 4);
      const __m256i x = _mm256_set1_epi32(two);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(x, b0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(x, b1));
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r) {
    _mm256_storeu_si256((__m256i*)(c + r * ldc), acc[r][0]);
    _mm256_storeu_si256((__m256i*)(c + r * ldc + 8), acc[r][1]);
  }
}

/* gemm_s8_avx2_tile for 1 to GEMM_S8_AVX2_ROWS rows, each count its own code. */
GEMM_S8_AVX2_TARGET static void gemm_s8_avx2_panel(const int16_t* a, size_t lda, const int16_t* panel, size_t pairs,
                                                   int32_t* c, size_t ldc, size_t rows) {
  switch (rows) {
    case 1: gemm_s8_avx2_tile(a, lda, panel, pairs, c, ldc, 1); break;
    case 2: gemm_s8_avx2_tile(a, lda, panel, pairs, c, ldc, 2); break;
    case 3: gemm_s8_avx2_tile(a, lda, panel, pairs, c, ldc, 3); break;
    case 4: gemm_s8_avx2_tile(a, lda, panel, pairs, c, ldc, 4); break;
    case 5: gemm_s8_avx2_tile(a, lda, panel, pairs, c, ldc, 5); break;
    default: gemm_s8_avx2_tile(a, lda, panel, pairs, c, ldc, 6); break;
  }
}

/* C[0:rows, 0:count] (ldc apart; count a multiple of 16, rows at most GEMM_S8_AVX2_ROWS) =
 * A B over columns [j, j + count) of the packed weight (j a multiple of 16). */
GEMM_S8_AVX2_TARGET static void gemm_s8_avx2_columns(const int16_t* a, size_t lda, size_t rows, const int16_t* packed,
                                                     size_t j, size_t count, size_t k, int32_t* c, size_t ldc) {
  const size_t pairs = gemm_s8_avx2_pairs(k);
  for (size_t jj = 0; jj < count; jj += GEMM_S8_AVX2_COLUMNS)
    gemm_s8_avx2_panel(a, lda, packed + (j + jj) / GEMM_S8_AVX2_COLUMNS * pairs * 2 * GEMM_S8_AVX2_COLUMNS, pairs,
                       c + jj, ldc, rows);
}

#endif /* MLC_GEMM_S8_AVX2_H_ */
