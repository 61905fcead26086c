/* An int8 matrix product on AVX-512 VNNI: C = (A + 128) B in exact int32, for
 * mlc_gemm_s8_quantizing's rows (quantized by the plugin itself, stored + 128) and a
 * constant weight B packed once. The caller subtracts 128 times B's column sums, which
 * vnni_s8_pack writes after the packed weight. Included by mlc_matmul.c.
 *
 * Why mlc's own, on CPUs with VNNI but without AMX (AMD's Zen 4; Intel's before Sapphire
 * Rapids): IREE's int8 kernel multiplies 16-bit pairs (vpdpwssd), 32 multiply-adds an
 * instruction, and reached that instruction's peak on BERT-base's shapes (about 112
 * GMAC/s a core); vpdpbusd multiplies unsigned by signed bytes, 64 an instruction, at
 * the same rate (229 GMAC/s a core measured; AMD EPYC, Zen 4). MKL's int8 GEMM there ran
 * slower than its own f32 GEMM.
 *
 * Layout. A: rows `lda` bytes apart, at least K rounded up to 4 (what lies past K is
 * multiplied by zeros). B, packed by vnni_s8_pack: for each VNNI_S8_COLUMNS columns, for
 * each 4 k, 256 bytes: four groups of 16 columns, each column's 4 k together (vpdpbusd's
 * form), zeros past K and N; then each column's sum over K (int32), from the next 64 bytes.
 * Each step multiplies up to VNNI_S8_ROWS rows by 64 columns, in 24 registers. */

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "gemv_s8_vnni.h" /* gemv_s8_available and gemv_s8_fits: the same instructions, the same bound */
#include "round_up.h"

#define VNNI_S8_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))

enum { VNNI_S8_ROWS = 6, VNNI_S8_COLUMNS = 64, VNNI_S8_GROUP = 4 * VNNI_S8_COLUMNS };

/* The bytes of the packed weight, without its column sums. */
static size_t vnni_s8_packed_size(size_t n, size_t k) {
  return round_up(n, VNNI_S8_COLUMNS) * round_up(k, 4);
}

/* The column sums of a packed weight. */
static const int32_t* vnni_s8_column_sums(const int8_t* packed, size_t n, size_t k) {
  return (const int32_t*)(packed + round_up(vnni_s8_packed_size(n, k), 64));
}

/* The bytes vnni_s8_pack writes. */
static size_t vnni_s8_packed_bytes(size_t n, size_t k) {
  return round_up(vnni_s8_packed_size(n, k), 64) + round_up(n * sizeof(int32_t), 64);
}

/* B (k x n, row stride ldb) into vnni_s8_packed_bytes(n, k) bytes, as the header says. */
static void vnni_s8_pack(const int8_t* b, size_t ldb, size_t n, size_t k, int8_t* packed) {
  const size_t groups = round_up(k, 4) / 4;
  memset(packed, 0, vnni_s8_packed_bytes(n, k));
  int32_t* sums = (int32_t*)vnni_s8_column_sums(packed, n, k);
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) {
      const size_t panel = j / VNNI_S8_COLUMNS, column = j % VNNI_S8_COLUMNS;
      packed[(panel * groups + kk / 4) * VNNI_S8_GROUP + column * 4 + kk % 4] = b[kk * ldb + j];
      sums[j] += b[kk * ldb + j];
    }
}

/* C[0:rows, 0:64] (int32, ldc apart) = A[0:rows] times one packed panel of 64 columns,
 * over `groups` groups of 4 k; rows at most VNNI_S8_ROWS. Inlined with `rows` a
 * constant (vnni_s8_panel), so the accumulators stay in registers. */
VNNI_S8_TARGET __attribute__((always_inline)) static inline void vnni_s8_tile(const uint8_t* a, size_t lda,
                                                                             const int8_t* panel, size_t groups,
                                                                             int32_t* c, size_t ldc, const int rows) {
  __m512i acc[VNNI_S8_ROWS][4];
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r)
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) acc[r][q] = _mm512_setzero_si512();
  for (size_t g = 0; g < groups; ++g) {
    const int8_t* b = panel + g * VNNI_S8_GROUP;
    _mm_prefetch((const char*)b + 8 * VNNI_S8_GROUP, _MM_HINT_T0);
    _mm_prefetch((const char*)b + 8 * VNNI_S8_GROUP + 64, _MM_HINT_T0);
    _mm_prefetch((const char*)b + 8 * VNNI_S8_GROUP + 128, _MM_HINT_T0);
    _mm_prefetch((const char*)b + 8 * VNNI_S8_GROUP + 192, _MM_HINT_T0);
    const __m512i b0 = _mm512_load_si512(b), b1 = _mm512_load_si512(b + 64);
    const __m512i b2 = _mm512_load_si512(b + 128), b3 = _mm512_load_si512(b + 192);
#pragma GCC unroll 6
    for (int r = 0; r < rows; ++r) {
      int32_t four;
      memcpy(&four, a + r * lda + 4 * g, 4);
      const __m512i x = _mm512_set1_epi32(four);
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], x, b0);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], x, b1);
      acc[r][2] = _mm512_dpbusd_epi32(acc[r][2], x, b2);
      acc[r][3] = _mm512_dpbusd_epi32(acc[r][3], x, b3);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r)
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) _mm512_storeu_si512(c + r * ldc + 16 * q, acc[r][q]);
}

/* vnni_s8_tile for 1 to VNNI_S8_ROWS rows, each count its own code. */
VNNI_S8_TARGET static void vnni_s8_panel(const uint8_t* a, size_t lda, const int8_t* panel, size_t groups,
                                         int32_t* c, size_t ldc, size_t rows) {
  switch (rows) {
    case 1: vnni_s8_tile(a, lda, panel, groups, c, ldc, 1); break;
    case 2: vnni_s8_tile(a, lda, panel, groups, c, ldc, 2); break;
    case 3: vnni_s8_tile(a, lda, panel, groups, c, ldc, 3); break;
    case 4: vnni_s8_tile(a, lda, panel, groups, c, ldc, 4); break;
    case 5: vnni_s8_tile(a, lda, panel, groups, c, ldc, 5); break;
    default: vnni_s8_tile(a, lda, panel, groups, c, ldc, 6); break;
  }
}

/* C[0:rows, 0:count] (ldc apart; count a multiple of 64, rows at most VNNI_S8_ROWS) =
 * (A + 128) B over columns [j, j + count) of the packed weight (j a multiple of 64). */
VNNI_S8_TARGET static void vnni_s8_columns(const uint8_t* a, size_t lda, size_t rows, const int8_t* packed, size_t j,
                                           size_t count, size_t k, int32_t* c, size_t ldc) {
  const size_t groups = round_up(k, 4) / 4;
  for (size_t jj = 0; jj < count; jj += VNNI_S8_COLUMNS)
    vnni_s8_panel(a, lda, packed + (j + jj) / VNNI_S8_COLUMNS * groups * VNNI_S8_GROUP, groups, c + jj, ldc, rows);
}
