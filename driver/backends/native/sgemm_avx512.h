/* An f32 matrix product on AVX-512 FMA: C = A B for rows of A (several, or a decode
 * step's one) and a constant weight B packed once. Included by mlc_matmul.c.
 *
 * Why mlc's own: on AMD's Zen 4, MKL's f32 GEMM ran BERT-base's and ViT-B/16's shapes at
 * 65-70 GFLOP/s a core, slower than IREE's mmt4d kernel (85-97), which uses a fixed
 * 16x16x1 tile. This kernel keeps 6 rows by 64 columns in 24 registers and reads B's
 * 64 columns as 4 aligned loads a k: 195-200 GFLOP/s on the two cores (C harness).
 * Whether it or MKL or IREE's kernel runs a shape is measured per shape on the machine
 * (driver/backends/matmul_choice.py).
 *
 * Layout of the packed B (sgemm_avx512_pack): K in blocks of SGEMM_AVX512_KC; for each
 * block, for each panel of 64 columns, kc x 64 floats, each k's 64 columns together,
 * zeros past N. A block of kc x 64 floats (64 KB) stays in L2 while every row of A
 * passes over it. */

#ifndef MLC_SGEMM_AVX512_H_
#define MLC_SGEMM_AVX512_H_

#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#define SGEMM_AVX512_TARGET __attribute__((target("avx512f")))

enum { SGEMM_AVX512_ROWS = 6, SGEMM_AVX512_COLUMNS = 64, SGEMM_AVX512_KC = 256 };

static int sgemm_avx512_available(void) { return __builtin_cpu_supports("avx512f"); }

static size_t sgemm_avx512_panels(size_t n) { return (n + SGEMM_AVX512_COLUMNS - 1) / SGEMM_AVX512_COLUMNS; }

/* The bytes of the packed weight. */
static size_t sgemm_avx512_packed_bytes(size_t n, size_t k) {
  return sgemm_avx512_panels(n) * SGEMM_AVX512_COLUMNS * k * sizeof(float);
}

/* B (k x n, row stride ldb) into sgemm_avx512_packed_bytes(n, k), as the header says. */
static void sgemm_avx512_pack(const float* b, size_t ldb, size_t n, size_t k, float* packed) {
  const size_t panels = sgemm_avx512_panels(n);
  for (size_t k0 = 0; k0 < k; k0 += SGEMM_AVX512_KC) {
    const size_t kc = k - k0 < SGEMM_AVX512_KC ? k - k0 : SGEMM_AVX512_KC;
    for (size_t panel = 0; panel < panels; ++panel) {
      const size_t j0 = panel * SGEMM_AVX512_COLUMNS, width = n - j0 < SGEMM_AVX512_COLUMNS ? n - j0 : SGEMM_AVX512_COLUMNS;
      for (size_t kk = 0; kk < kc; ++kk, packed += SGEMM_AVX512_COLUMNS) {
        memcpy(packed, b + (k0 + kk) * ldb + j0, width * sizeof(float));
        memset(packed + width, 0, (SGEMM_AVX512_COLUMNS - width) * sizeof(float));
      }
    }
  }
}

/* out[c][r] = in[r][c] for a block of 16 x 16 floats, rows ld_in and ld_out apart: 64
 * shuffles, where element by element the keys' transpose took a third of their scores'
 * time (perf, BERT-base's attention, AMD EPYC Zen 5). */
SGEMM_AVX512_TARGET static void sgemm_avx512_transpose16(const float* in, size_t ld_in, float* out, size_t ld_out) {
  __m512 r[16], t[16];
  for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(in + i * ld_in);
  for (int i = 0; i < 8; ++i) { /* pairs of rows interleaved */
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) { /* each 128-bit lane: one column of four rows */
    r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  for (int i = 0; i < 4; ++i) { /* then the lanes, twice */
    t[i] = _mm512_shuffle_f32x4(r[i], r[4 + i], 0x88);
    t[4 + i] = _mm512_shuffle_f32x4(r[i], r[4 + i], 0xDD);
    t[8 + i] = _mm512_shuffle_f32x4(r[8 + i], r[12 + i], 0x88);
    t[12 + i] = _mm512_shuffle_f32x4(r[8 + i], r[12 + i], 0xDD);
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0x88);
    r[8 + i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0xDD);
    r[4 + i] = _mm512_shuffle_f32x4(t[4 + i], t[12 + i], 0x88);
    r[12 + i] = _mm512_shuffle_f32x4(t[4 + i], t[12 + i], 0xDD);
  }
  for (int i = 0; i < 16; ++i) _mm512_storeu_ps(out + i * ld_out, r[i]);
}

/* B given as its n x k transpose (row stride ldt: B[kk][j] = t[j * ldt + kk]) into
 * sgemm_avx512_packed_bytes(n, k), the same layout: attention's keys, whose scores are
 * q k^T (mlc_attention.h). Whole panels go 16 x 16 at a time. */
SGEMM_AVX512_TARGET static void sgemm_avx512_pack_transposed(const float* t, size_t ldt, size_t n, size_t k,
                                                             float* packed) {
  const size_t panels = sgemm_avx512_panels(n);
  for (size_t k0 = 0; k0 < k; k0 += SGEMM_AVX512_KC) {
    const size_t kc = k - k0 < SGEMM_AVX512_KC ? k - k0 : SGEMM_AVX512_KC;
    for (size_t panel = 0; panel < panels; ++panel, packed += kc * SGEMM_AVX512_COLUMNS) {
      const size_t j0 = panel * SGEMM_AVX512_COLUMNS, width = n - j0 < SGEMM_AVX512_COLUMNS ? n - j0 : SGEMM_AVX512_COLUMNS;
      size_t kk = 0;
      if (width == SGEMM_AVX512_COLUMNS)
        for (; kk + 16 <= kc; kk += 16)
          for (size_t j = 0; j < SGEMM_AVX512_COLUMNS; j += 16)
            sgemm_avx512_transpose16(t + (j0 + j) * ldt + k0 + kk, ldt, packed + kk * SGEMM_AVX512_COLUMNS + j,
                                     SGEMM_AVX512_COLUMNS);
      for (; kk < kc; ++kk) {
        float* row = packed + kk * SGEMM_AVX512_COLUMNS;
        for (size_t j = 0; j < width; ++j) row[j] = t[(j0 + j) * ldt + k0 + kk];
        memset(row + width, 0, (SGEMM_AVX512_COLUMNS - width) * sizeof(float));
      }
    }
  }
}

/* C[0:rows, columns of `mask`] (+)= A[0:rows, 0:kc] times one packed panel of kc x 64,
 * starting from zero where `first`; rows at most SGEMM_AVX512_ROWS. `mask` holds the
 * columns that exist, 16 to a quarter. Inlined with `rows` a constant (sgemm_avx512_panel),
 * so the accumulators stay in registers. */
SGEMM_AVX512_TARGET __attribute__((always_inline)) static inline void sgemm_avx512_tile(
    const float* a, size_t lda, const float* panel, size_t kc, float* c, size_t ldc, int first,
    const __mmask16 mask[4], const int rows) {
  __m512 acc[SGEMM_AVX512_ROWS][4];
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r)
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q)
      acc[r][q] = first ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(mask[q], c + r * ldc + 16 * q);
  for (size_t kk = 0; kk < kc; ++kk) {
    const float* b = panel + kk * SGEMM_AVX512_COLUMNS;
    _mm_prefetch((const char*)(b + 8 * SGEMM_AVX512_COLUMNS), _MM_HINT_T0);
    _mm_prefetch((const char*)(b + 8 * SGEMM_AVX512_COLUMNS) + 64, _MM_HINT_T0);
    _mm_prefetch((const char*)(b + 8 * SGEMM_AVX512_COLUMNS) + 128, _MM_HINT_T0);
    _mm_prefetch((const char*)(b + 8 * SGEMM_AVX512_COLUMNS) + 192, _MM_HINT_T0);
    const __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
    const __m512 b2 = _mm512_load_ps(b + 32), b3 = _mm512_load_ps(b + 48);
#pragma GCC unroll 6
    for (int r = 0; r < rows; ++r) {
      const __m512 x = _mm512_set1_ps(a[r * lda + kk]);
      acc[r][0] = _mm512_fmadd_ps(x, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(x, b1, acc[r][1]);
      acc[r][2] = _mm512_fmadd_ps(x, b2, acc[r][2]);
      acc[r][3] = _mm512_fmadd_ps(x, b3, acc[r][3]);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < rows; ++r)
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) _mm512_mask_storeu_ps(c + r * ldc + 16 * q, mask[q], acc[r][q]);
}

/* sgemm_avx512_tile for 1 to SGEMM_AVX512_ROWS rows, each count its own code. */
SGEMM_AVX512_TARGET static void sgemm_avx512_panel(const float* a, size_t lda, const float* panel, size_t kc,
                                                   float* c, size_t ldc, int first, const __mmask16 mask[4],
                                                   size_t rows) {
  switch (rows) {
    case 1: sgemm_avx512_tile(a, lda, panel, kc, c, ldc, first, mask, 1); break;
    case 2: sgemm_avx512_tile(a, lda, panel, kc, c, ldc, first, mask, 2); break;
    case 3: sgemm_avx512_tile(a, lda, panel, kc, c, ldc, first, mask, 3); break;
    case 4: sgemm_avx512_tile(a, lda, panel, kc, c, ldc, first, mask, 4); break;
    case 5: sgemm_avx512_tile(a, lda, panel, kc, c, ldc, first, mask, 5); break;
    default: sgemm_avx512_tile(a, lda, panel, kc, c, ldc, first, mask, 6); break;
  }
}

/* Columns of each panel that exist: 16 to a quarter. */
static void sgemm_avx512_mask(size_t width, __mmask16 mask[4]) {
  for (int q = 0; q < 4; ++q) {
    const size_t have = width > 16u * q ? width - 16u * q : 0;
    mask[q] = have >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << have) - 1u);
  }
}

/* Panels a row strip passes over before the next K block: 2 panels of 64 columns keep
 * C's 6 x 128 block in L1 between K blocks. */
enum { SGEMM_AVX512_CHUNK = 2 };

/* C (1 x n) = one row of A times the packed B, which it streams in the order it lies:
 * each K block's panels one after another. The order for several rows (a strip of
 * panels through every K block) jumps a K block ahead every 128 KB; on a decode step's
 * weights, read once from memory, this order read Llama's 85 matvecs (400 MB) at 28.6
 * GB/s against 26.8 (AMD EPYC, two threads, C harness), MKL's sgemm at 18.6. */
SGEMM_AVX512_TARGET static void sgemm_avx512_row(const float* a, const float* packed, size_t n, size_t k, float* c) {
  const size_t panels = sgemm_avx512_panels(n);
  for (size_t k0 = 0; k0 < k; k0 += SGEMM_AVX512_KC) {
    const size_t kc = k - k0 < SGEMM_AVX512_KC ? k - k0 : SGEMM_AVX512_KC;
    const float* block = packed + k0 * panels * SGEMM_AVX512_COLUMNS;
    for (size_t panel = 0; panel < panels; ++panel) {
      const size_t j = panel * SGEMM_AVX512_COLUMNS;
      __mmask16 mask[4];
      sgemm_avx512_mask(n - j, mask);
      sgemm_avx512_panel(a + k0, 0, block + panel * kc * SGEMM_AVX512_COLUMNS, kc, c + j, 0, k0 == 0, mask, 1);
    }
  }
}

/* C (m x n, ldc apart) = A (m x k, lda apart) times the packed B. */
SGEMM_AVX512_TARGET static void sgemm_avx512(const float* a, size_t lda, size_t m, const float* packed, size_t n,
                                             size_t k, float* c, size_t ldc) {
  if (m == 1) {
    sgemm_avx512_row(a, packed, n, k, c);
    return;
  }
  const size_t panels = sgemm_avx512_panels(n);
  for (size_t p0 = 0; p0 < panels; p0 += SGEMM_AVX512_CHUNK) {
    const size_t p1 = p0 + SGEMM_AVX512_CHUNK < panels ? p0 + SGEMM_AVX512_CHUNK : panels;
    for (size_t k0 = 0; k0 < k; k0 += SGEMM_AVX512_KC) {
      const size_t kc = k - k0 < SGEMM_AVX512_KC ? k - k0 : SGEMM_AVX512_KC;
      const float* block = packed + k0 * panels * SGEMM_AVX512_COLUMNS;
      for (size_t i = 0; i < m; i += SGEMM_AVX512_ROWS) {
        const size_t rows = m - i < SGEMM_AVX512_ROWS ? m - i : SGEMM_AVX512_ROWS;
        for (size_t panel = p0; panel < p1; ++panel) {
          const size_t j = panel * SGEMM_AVX512_COLUMNS;
          __mmask16 mask[4];
          sgemm_avx512_mask(n - j, mask);
          sgemm_avx512_panel(a + i * lda + k0, lda, block + panel * kc * SGEMM_AVX512_COLUMNS, kc, c + i * ldc + j,
                             ldc, k0 == 0, mask, rows);
        }
      }
    }
  }
}

#endif  /* MLC_SGEMM_AVX512_H_ */
