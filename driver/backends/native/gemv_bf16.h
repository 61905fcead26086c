/* A bf16 matrix-vector product on AVX-512-BF16: y[0:n] = x[0:k] . W[0:k, 0:n] summed in f32,
 * W row-major with row stride `ldw`. mlc's plugin runs it for a single row (an LLM's decode
 * step), which is bound by reading W: MKL's bf16 GEMM (which packs B at every call) and IREE's
 * kernel (which reads W through its data-tiled layout) read GPT-2's 3072x768 at 17-22 GB/s in a
 * decode step, where the machine streams 26-31 (README, Generating text).
 *
 * vdpbf16ps sums the products of pairs of bf16 into f32 lanes. W is read as it lies, two rows at
 * a time, interleaved so that each lane holds one column's two k (unpacks within 128-bit lanes:
 * element 4 l + e of the low half is column 8 l + e, of the high half column 8 l + 4 + e), and x
 * is broadcast two k at a time. The sums are kept in an aligned buffer of up to CHUNK columns
 * while W is read four rows at a time, each row's columns together, with the rows AHEAD
 * prefetched. One core read 768x3072 at 12-13 GB/s from memory this way, where a plain read
 * streams 15.7; one pair of rows per step and no prefetch read it at 8-10. */

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define GEMV_BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512bf16")))

/* Whether this CPU runs the kernel (the plugin falls back to MKL where not). */
static int gemv_bf16_available(void) {
  return __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw");
}

/* Whether it reads a block of n columns faster than MKL: a wide block (GPT-2's LM head,
 * 2 x 25136 columns of 768 rows) MKL read at 31 GB/s in a decode step, this kernel at
 * 25; every narrower block of GPT-2's (768 to 1536 columns) it read 0-35 % faster. */
static int gemv_bf16_suits(size_t n) { return n <= 8192; }

enum {
  GEMV_BF16_CHUNK = 2048, /* columns summed at once: 8 KiB of f32 sums, 4 KiB of a row */
  GEMV_BF16_AHEAD = 8,    /* rows prefetched ahead: a short row (768 columns) defeats the hardware's */
};

/* Four rows' 32 columns (masked) into the sums of those columns, kept interleaved; rows
 * kk, kk + 1 pair with x01 and kk + 2, kk + 3 with x23. */
GEMV_BF16_TARGET __attribute__((always_inline)) static inline void gemv_bf16_step(const uint16_t* row, size_t ldw,
                                                                                 __mmask32 columns, __m512bh x01,
                                                                                 __m512bh x23, float* sums) {
  for (int r = 0; r < 4; ++r) _mm_prefetch((const char*)(row + (GEMV_BF16_AHEAD + r) * ldw), _MM_HINT_T0);
  const __m512i r0 = _mm512_maskz_loadu_epi16(columns, row), r1 = _mm512_maskz_loadu_epi16(columns, row + ldw);
  const __m512i r2 = _mm512_maskz_loadu_epi16(columns, row + 2 * ldw);
  const __m512i r3 = _mm512_maskz_loadu_epi16(columns, row + 3 * ldw);
  __m512 lo = _mm512_load_ps(sums), hi = _mm512_load_ps(sums + 16);
  lo = _mm512_dpbf16_ps(lo, (__m512bh)_mm512_unpacklo_epi16(r0, r1), x01);
  hi = _mm512_dpbf16_ps(hi, (__m512bh)_mm512_unpackhi_epi16(r0, r1), x01);
  lo = _mm512_dpbf16_ps(lo, (__m512bh)_mm512_unpacklo_epi16(r2, r3), x23);
  hi = _mm512_dpbf16_ps(hi, (__m512bh)_mm512_unpackhi_epi16(r2, r3), x23);
  _mm512_store_ps(sums, lo);
  _mm512_store_ps(sums + 16, hi);
}

/* The f32 value of a bf16 (the upper 16 bits of an f32, as MKL_BF16 holds it). */
static inline float gemv_bf16_to_f32(uint16_t value) {
  uint32_t bits = (uint32_t)value << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

GEMV_BF16_TARGET static __m512bh gemv_bf16_pair(const uint16_t* x) {
  uint32_t pair;
  memcpy(&pair, x, 4);
  return (__m512bh)_mm512_set1_epi32((int)pair);
}

GEMV_BF16_TARGET static void gemv_bf16(const uint16_t* x, const uint16_t* w, size_t ldw, float* y, size_t k,
                                       size_t n) {
  const size_t k4 = k / 4 * 4;
  float sums[GEMV_BF16_CHUNK] __attribute__((aligned(64)));
  for (size_t first = 0; first < n; first += GEMV_BF16_CHUNK) {
    const size_t count = n - first < GEMV_BF16_CHUNK ? n - first : GEMV_BF16_CHUNK;
    const size_t groups = (count + 31) / 32, last = count - 32 * (groups - 1);
    const __mmask32 tail = last == 32 ? ~(__mmask32)0 : ((__mmask32)1 << last) - 1;
    memset(sums, 0, groups * 32 * sizeof(float));
    for (size_t kk = 0; kk < k4; kk += 4) {
      const __m512bh x01 = gemv_bf16_pair(x + kk), x23 = gemv_bf16_pair(x + kk + 2);
      const uint16_t* row = w + kk * ldw + first;
      for (size_t g = 0; g + 1 < groups; ++g) gemv_bf16_step(row + 32 * g, ldw, ~(__mmask32)0, x01, x23, sums + 32 * g);
      gemv_bf16_step(row + 32 * (groups - 1), ldw, tail, x01, x23, sums + 32 * (groups - 1));
    }
    for (size_t c = 0; c < count; ++c) { /* out of the interleaved order */
      const size_t group = c / 32, in = c % 32, lane = in / 8, half = in % 8 / 4, e = in % 4;
      y[first + c] = sums[32 * group + 16 * half + 4 * lane + e];
    }
  }
  for (size_t kk = k4; kk < k; ++kk) { /* the last k % 4 rows */
    const float value = gemv_bf16_to_f32(x[kk]);
    for (size_t c = 0; c < n; ++c) y[c] += value * gemv_bf16_to_f32(w[kk * ldw + c]);
  }
}
