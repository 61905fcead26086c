/* A bf16 matrix product on AVX-512-BF16: C = A B summed in f32, A and B bf16. Included
 * by mlc_matmul.c, for attention's two products at bf16 (mlc_attention.h) and for bf16
 * matmuls by a constant weight, packed once (mlc_matmul.c, gemm_bf16_own_kernel_block).
 *
 * Why: on AMD's Zen 4, MKL runs no AVX-512-BF16 code, and IREE's bf16 microkernel (a
 * 16x16x2 tile) ran ViT-B/16's matmuls at about 190 GFLOP/s a core; this kernel ran the
 * same shapes at 210-225 on one core (C harness). Attention's products at bf16
 * multiplied f32 on MKL's AVX2 code: ViT-B/16's 12 x 197 x 197 x 64 heads at about 125
 * GFLOP/s on two cores, 11 % of the model's time at bf16 (perf).
 *
 * vdpbf16ps adds the products of a pair of bf16 into each f32 lane. So B is packed as
 * pairs: for each panel of 64 columns, for each pair of k (k rounded up to even, the
 * missing k zero), 64 columns of two bf16 each (a 32-bit word per column: k even in its
 * low half). A's rows are bf16, read a pair of k (32 bits) at a time and broadcast; a
 * row of odd k must be followed by a zero (gemm_bf16_rows writes one). The tile keeps 6
 * rows by 64 columns in 24 registers, as sgemm_avx512.h does. A panel (64 columns, all
 * of k: 96 KB at k 768, 384 KB at 3072) stays in L2 while every row of A passes over
 * it, so B is read from memory once: row strips outside panels read GPT-2's LM head
 * (77 MB) once per strip, and took 55 ms in GPT-2's call where IREE's kernel took 49.
 * There is no blocking of k. */

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define GEMM_BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

enum { GEMM_BF16_ROWS = 6, GEMM_BF16_COLUMNS = 64 };

/* Pairs of k whose panel rows each step prefetches ahead (2 KB), as sgemm_avx512.h does:
 * a weight read from memory, 2 threads, Intel Xeon, 768x3072: 1 row 16.1 -> 19.9 GB/s,
 * 4 rows 11.6 -> 17.7, 8 rows 9.5 -> 13.2 (C harness); the hardware's prefetch alone
 * kept too few lines in flight. */
enum { GEMM_BF16_AHEAD = 8 };

/* Whether this CPU runs it (attention multiplies f32 where not). */
static int gemm_bf16_available(void) {
  return __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}

static size_t gemm_bf16_pairs(size_t k) { return (k + 1) / 2; }

static size_t gemm_bf16_panels(size_t n) { return (n + GEMM_BF16_COLUMNS - 1) / GEMM_BF16_COLUMNS; }

/* The 32-bit words of B packed (k x n). */
static size_t gemm_bf16_packed_words(size_t n, size_t k) {
  return gemm_bf16_panels(n) * GEMM_BF16_COLUMNS * gemm_bf16_pairs(k);
}

/* 16 floats to bf16, rounded to nearest even (NaN stays NaN), in `lanes` of them (the
 * rest zero). */
GEMM_BF16_TARGET static inline __m256i gemm_bf16_round16(const float* x, __mmask16 lanes) {
  return (__m256i)_mm512_cvtneps_pbh(_mm512_maskz_loadu_ps(lanes, x));
}

static __mmask16 gemm_bf16_lanes(size_t have) { return have >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << have) - 1u); }

/* A pair of bf16, read where it lies (2-byte aligned). */
typedef uint32_t gemm_bf16_pair_t __attribute__((aligned(2), may_alias));

/* Rows of f32 (m x k, row stride lda) as A: m rows of 2 gemm_bf16_pairs(k) bf16. */
GEMM_BF16_TARGET static void gemm_bf16_rows(const float* a, size_t lda, size_t m, size_t k, uint16_t* out) {
  const size_t pairs = gemm_bf16_pairs(k);
  for (size_t i = 0; i < m; ++i) {
    uint16_t* row = out + i * 2 * pairs;
    for (size_t c = 0; c < k; c += 16) {
      const __mmask16 lanes = gemm_bf16_lanes(k - c);
      _mm256_mask_storeu_epi16(row + c, lanes, gemm_bf16_round16(a + i * lda + c, lanes));
    }
    if (k % 2) row[k] = 0;
  }
}

/* B given as its transpose (the rows of bt, n x k with row stride ldbt, are B's
 * columns: attention's key), packed. Each column's k are adjacent in bt, so a column
 * converts as a row and its words are spread 64 apart. */
GEMM_BF16_TARGET static void gemm_bf16_pack_transposed(const float* bt, size_t ldbt, size_t n, size_t k,
                                                       uint32_t* packed) {
  const size_t pairs = gemm_bf16_pairs(k), panels = gemm_bf16_panels(n);
  uint32_t words[pairs];
  for (size_t j = 0; j < panels * GEMM_BF16_COLUMNS; ++j) {
    uint32_t* panel = packed + (j / GEMM_BF16_COLUMNS) * GEMM_BF16_COLUMNS * pairs + j % GEMM_BF16_COLUMNS;
    if (j < n) {
      gemm_bf16_rows(bt + j * ldbt, 0, 1, k, (uint16_t*)words);
      for (size_t p = 0; p < pairs; ++p) panel[p * GEMM_BF16_COLUMNS] = words[p];
    } else {
      for (size_t p = 0; p < pairs; ++p) panel[p * GEMM_BF16_COLUMNS] = 0;
    }
  }
}

/* 16 bf16 of a row (low half of `both`) and 16 of the next (high half) as 16 words,
 * each a column's pair. */
GEMM_BF16_TARGET static inline __m512i gemm_bf16_interleave(__m512i both) {
  const __m512i order = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6,
                                         21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
  return _mm512_permutexvar_epi16(order, both);
}

/* B (k x n, row stride ldb, bf16: a constant weight) packed: rows 2p and 2p + 1
 * interleaved, 16 columns at a time. */
GEMM_BF16_TARGET static void gemm_bf16_pack_bf16(const uint16_t* b, size_t ldb, size_t n, size_t k, uint32_t* packed) {
  const size_t pairs = gemm_bf16_pairs(k), panels = gemm_bf16_panels(n);
  for (size_t panel = 0; panel < panels; ++panel) {
    uint32_t* out = packed + panel * GEMM_BF16_COLUMNS * pairs;
    for (size_t p = 0; p < pairs; ++p, out += GEMM_BF16_COLUMNS) {
      const uint16_t* first = b + 2 * p * ldb;
      for (size_t q = 0; q < GEMM_BF16_COLUMNS; q += 16) {
        const size_t j = panel * GEMM_BF16_COLUMNS + q;
        const __mmask16 lanes = j < n ? gemm_bf16_lanes(n - j) : 0;
        const __m256i low = _mm256_maskz_loadu_epi16(lanes, first + j);
        const __m256i high = 2 * p + 1 < k ? _mm256_maskz_loadu_epi16(lanes, first + ldb + j) : _mm256_setzero_si256();
        _mm512_storeu_si512(out + q, gemm_bf16_interleave(_mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1)));
      }
    }
  }
}

/* gemm_bf16_pack_bf16 in plain C, for a CPU without AVX-512 (gemv_avx2.h reads it). */
static void gemm_bf16_pack_bf16_portable(const uint16_t* b, size_t ldb, size_t n, size_t k, uint32_t* packed) {
  const size_t pairs = gemm_bf16_pairs(k), panels = gemm_bf16_panels(n);
  for (size_t panel = 0; panel < panels; ++panel)
    for (size_t p = 0; p < pairs; ++p)
      for (size_t j = panel * GEMM_BF16_COLUMNS; j < (panel + 1) * GEMM_BF16_COLUMNS; ++j, ++packed) {
        const uint32_t low = j < n ? b[2 * p * ldb + j] : 0;
        const uint32_t high = j < n && 2 * p + 1 < k ? b[(2 * p + 1) * ldb + j] : 0;
        *packed = low | high << 16;
      }
}

/* B (k x n, row stride ldb, f32: attention's value) packed as gemm_bf16_pack_bf16,
 * rounded to bf16 on the way. */
GEMM_BF16_TARGET static void gemm_bf16_pack(const float* b, size_t ldb, size_t n, size_t k, uint32_t* packed) {
  const size_t pairs = gemm_bf16_pairs(k), panels = gemm_bf16_panels(n);
  for (size_t panel = 0; panel < panels; ++panel) {
    const size_t j0 = panel * GEMM_BF16_COLUMNS;
    uint32_t* out = packed + panel * GEMM_BF16_COLUMNS * pairs;
    for (size_t p = 0; p < pairs; ++p, out += GEMM_BF16_COLUMNS) {
      const float* first = b + 2 * p * ldb;
      for (size_t q = 0; q < GEMM_BF16_COLUMNS; q += 16) {
        const size_t j = j0 + q;
        const __mmask16 lanes = j < n ? gemm_bf16_lanes(n - j) : 0;
        const __m512 low = _mm512_maskz_loadu_ps(lanes, first + j);
        const __m512 high = 2 * p + 1 < k ? _mm512_maskz_loadu_ps(lanes, first + ldb + j) : _mm512_setzero_ps();
        const __m512i both = (__m512i)_mm512_cvtne2ps_pbh(high, low);
        _mm512_storeu_si512(out + q, gemm_bf16_interleave(both));
      }
    }
  }
}

/* C[0:rows, columns of `mask`] = alpha A[0:rows] times one packed panel of `pairs` pairs;
 * rows at most GEMM_BF16_ROWS. Inlined with `rows` a constant (gemm_bf16_panel). */
GEMM_BF16_TARGET __attribute__((always_inline)) static inline void gemm_bf16_tile(
    const uint16_t* a, size_t lda, const uint32_t* panel, size_t pairs, float alpha, float* c, size_t ldc,
    const __mmask16 mask[4], const int rows) {
  const __m512 scale = _mm512_set1_ps(alpha);
  __m512 acc[GEMM_BF16_ROWS][4];
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r)
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) acc[r][q] = _mm512_setzero_ps();
  for (size_t p = 0; p < pairs; ++p) {
    const uint32_t* b = panel + p * GEMM_BF16_COLUMNS;
    _mm_prefetch((const char*)(b + GEMM_BF16_AHEAD * GEMM_BF16_COLUMNS), _MM_HINT_T0);
    _mm_prefetch((const char*)(b + GEMM_BF16_AHEAD * GEMM_BF16_COLUMNS) + 64, _MM_HINT_T0);
    _mm_prefetch((const char*)(b + GEMM_BF16_AHEAD * GEMM_BF16_COLUMNS) + 128, _MM_HINT_T0);
    _mm_prefetch((const char*)(b + GEMM_BF16_AHEAD * GEMM_BF16_COLUMNS) + 192, _MM_HINT_T0);
    const __m512bh b0 = (__m512bh)_mm512_loadu_si512(b), b1 = (__m512bh)_mm512_loadu_si512(b + 16);
    const __m512bh b2 = (__m512bh)_mm512_loadu_si512(b + 32), b3 = (__m512bh)_mm512_loadu_si512(b + 48);
#pragma GCC unroll 6
    for (int r = 0; r < rows; ++r) {
      const __m512bh x = (__m512bh)_mm512_set1_epi32((int)*(const gemm_bf16_pair_t*)(a + r * lda + 2 * p));
      acc[r][0] = _mm512_dpbf16_ps(acc[r][0], x, b0);
      acc[r][1] = _mm512_dpbf16_ps(acc[r][1], x, b1);
      acc[r][2] = _mm512_dpbf16_ps(acc[r][2], x, b2);
      acc[r][3] = _mm512_dpbf16_ps(acc[r][3], x, b3);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r)
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) _mm512_mask_storeu_ps(c + r * ldc + 16 * q, mask[q], _mm512_mul_ps(scale, acc[r][q]));
}

/* gemm_bf16_tile for 1 to GEMM_BF16_ROWS rows, each count its own code. */
GEMM_BF16_TARGET static void gemm_bf16_panel(const uint16_t* a, size_t lda, const uint32_t* panel, size_t pairs,
                                             float alpha, float* c, size_t ldc, const __mmask16 mask[4], size_t rows) {
  switch (rows) {
    case 1: gemm_bf16_tile(a, lda, panel, pairs, alpha, c, ldc, mask, 1); break;
    case 2: gemm_bf16_tile(a, lda, panel, pairs, alpha, c, ldc, mask, 2); break;
    case 3: gemm_bf16_tile(a, lda, panel, pairs, alpha, c, ldc, mask, 3); break;
    case 4: gemm_bf16_tile(a, lda, panel, pairs, alpha, c, ldc, mask, 4); break;
    case 5: gemm_bf16_tile(a, lda, panel, pairs, alpha, c, ldc, mask, 5); break;
    default: gemm_bf16_tile(a, lda, panel, pairs, alpha, c, ldc, mask, 6); break;
  }
}

/* C (m x n, ldc apart, f32) = alpha A (m rows of bf16, lda apart: gemm_bf16_rows, or as
 * they lie for even k) times B packed (gemm_bf16_pack*). */
GEMM_BF16_TARGET static void gemm_bf16(const uint16_t* a, size_t lda, size_t m, const uint32_t* packed, size_t n,
                                       size_t k, float alpha, float* c, size_t ldc) {
  const size_t pairs = gemm_bf16_pairs(k), panels = gemm_bf16_panels(n);
  for (size_t panel = 0; panel < panels; ++panel) {
    const size_t j = panel * GEMM_BF16_COLUMNS;
    __mmask16 mask[4];
    for (int q = 0; q < 4; ++q) mask[q] = n > j + 16u * q ? gemm_bf16_lanes(n - j - 16u * q) : 0;
    for (size_t i = 0; i < m; i += GEMM_BF16_ROWS) {
      const size_t rows = m - i < GEMM_BF16_ROWS ? m - i : GEMM_BF16_ROWS;
      gemm_bf16_panel(a + i * lda, lda, packed + panel * GEMM_BF16_COLUMNS * pairs, pairs, alpha, c + i * ldc + j, ldc,
                      mask, rows);
    }
  }
}
