/* An int8 matrix-vector product on AVX-512 VNNI: y[0:n] = x[0:k] . W[0:k, 0:n] in exact
 * int32, W row-major with row stride `ldw`. mlc's plugin runs it for a single row (an LLM's
 * decode step), where MKL's int8 GEMM is slow (it packs B at every call). Whether it or
 * IREE's kernel runs a shape is measured (matmul_choice.py): on a 2-core Xeon it ran
 * GPT-2's 768x2304 in 0.086 ms against IREE's 0.138 and tied on 768x768, 768x3072 and
 * 3072x768.
 *
 * vpdpbusd multiplies unsigned bytes by signed ones, four consecutive k per int32 lane.
 * W is read as it lies: four rows at a time, flipped to unsigned (w + 128) and interleaved
 * so that each lane holds one column's four k; x is broadcast four bytes at a time. The
 * sum is then sum((w + 128) x) = sum(w x) + 128 sum(x), and 128 sum(x) is one number for
 * the whole vector. Exact while k * 255 * 128 fits in int32 (gemv_s8_fits). */

#ifndef MLC_GEMV_S8_VNNI_H_
#define MLC_GEMV_S8_VNNI_H_

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "round_up.h"

#define GEMV_S8_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))

/* Whether this CPU runs the kernel (the plugin falls back to MKL where not). */
static int gemv_s8_available(void) { return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw"); }

/* Whether k rows keep the flipped sum inside int32. */
static int gemv_s8_fits(size_t k) { return k <= 65535; }

/* Rows prefetched ahead of the four being read: a short row (768 columns) defeats the
 * hardware's prefetcher. One core read GPT-2's blocks from memory at 11-18 GB/s with it,
 * 8-13 without (a plain read streams 14). */
enum { GEMV_S8_AHEAD = 8 };

/* Four rows of 64 columns, flipped to unsigned and interleaved so that each int32 lane
 * holds one column's four k, into the four accumulators of those columns: the unpacks
 * work within 128-bit lanes, so element 4 l + e of acc[q] is column 16 l + 4 q + e. */
GEMV_S8_TARGET __attribute__((always_inline)) static inline void gemv_s8_step(const int8_t* row, size_t ldw,
                                                                             __mmask64 columns, __m512i x4,
                                                                             __m512i acc[4]) {
  const __m512i flip = _mm512_set1_epi8((char)0x80);
  for (int r = 0; r < 4; ++r) _mm_prefetch((const char*)(row + (GEMV_S8_AHEAD + r) * ldw), _MM_HINT_T0);
  __m512i r0 = _mm512_xor_si512(_mm512_maskz_loadu_epi8(columns, row), flip);
  __m512i r1 = _mm512_xor_si512(_mm512_maskz_loadu_epi8(columns, row + ldw), flip);
  __m512i r2 = _mm512_xor_si512(_mm512_maskz_loadu_epi8(columns, row + 2 * ldw), flip);
  __m512i r3 = _mm512_xor_si512(_mm512_maskz_loadu_epi8(columns, row + 3 * ldw), flip);
  __m512i lo01 = _mm512_unpacklo_epi8(r0, r1), hi01 = _mm512_unpackhi_epi8(r0, r1);
  __m512i lo23 = _mm512_unpacklo_epi8(r2, r3), hi23 = _mm512_unpackhi_epi8(r2, r3);
  acc[0] = _mm512_dpbusd_epi32(acc[0], _mm512_unpacklo_epi16(lo01, lo23), x4);
  acc[1] = _mm512_dpbusd_epi32(acc[1], _mm512_unpackhi_epi16(lo01, lo23), x4);
  acc[2] = _mm512_dpbusd_epi32(acc[2], _mm512_unpacklo_epi16(hi01, hi23), x4);
  acc[3] = _mm512_dpbusd_epi32(acc[3], _mm512_unpackhi_epi16(hi01, hi23), x4);
}

/* Writes the 64 sums of acc (in gemv_s8_step's order) less `offset` to the first
 * `count` columns of y. */
GEMV_S8_TARGET static void gemv_s8_store(const __m512i acc[4], int32_t* y, size_t count, int32_t offset) {
  int32_t lanes[64];
  for (int q = 0; q < 4; ++q) _mm512_storeu_si512(lanes + 16 * q, acc[q]);
  for (int q = 0; q < 4; ++q)
    for (int i = 0; i < 16; ++i) {
      size_t column = 16 * (size_t)(i / 4) + 4 * (size_t)q + (size_t)(i % 4);
      if (column < count) y[column] = lanes[16 * q + i] - offset;
    }
}

GEMV_S8_TARGET static __m512i gemv_s8_four(const int8_t* x) {
  int32_t four;
  memcpy(&four, x, 4);
  return _mm512_set1_epi32(four);
}

GEMV_S8_TARGET static void gemv_s8_vnni(const int8_t* x, const int8_t* w, size_t ldw, int32_t* y, size_t k,
                                        size_t n) {
  const size_t k4 = k / 4 * 4, full = n / 64;
  int32_t sum = 0;
  for (size_t kk = 0; kk < k4; ++kk) sum += x[kk];
  /* Whole groups of 64 columns, CHUNK groups at a time, read row by row (each row's
   * columns lie together: 5-25 % faster than one group down all rows), summed in an
   * aligned buffer (in y, unaligned, 3072x768 took twice as long). */
  enum { CHUNK = 16 };
  __m512i sums[CHUNK][4];
  for (size_t first = 0; first < full; first += CHUNK) {
    const size_t groups = full - first < CHUNK ? full - first : CHUNK;
    for (size_t g = 0; g < groups; ++g)
      for (int q = 0; q < 4; ++q) sums[g][q] = _mm512_setzero_si512();
    for (size_t kk = 0; kk < k4; kk += 4) {
      const __m512i x4 = gemv_s8_four(x + kk);
      for (size_t g = 0; g < groups; ++g) gemv_s8_step(w + kk * ldw + 64 * (first + g), ldw, ~(__mmask64)0, x4, sums[g]);
    }
    for (size_t g = 0; g < groups; ++g) gemv_s8_store(sums[g], y + 64 * (first + g), 64, 128 * sum);
  }
  if (n > 64 * full) { /* the last n % 64 columns, masked, down all rows */
    const size_t last = n - 64 * full;
    __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                      _mm512_setzero_si512()};
    for (size_t kk = 0; kk < k4; kk += 4)
      gemv_s8_step(w + kk * ldw + 64 * full, ldw, ((__mmask64)1 << last) - 1, gemv_s8_four(x + kk), acc);
    gemv_s8_store(acc, y + 64 * full, last, 128 * sum);
  }
  for (size_t kk = k4; kk < k; ++kk) /* the last k % 4 rows */
    for (size_t c = 0; c < n; ++c) y[c] += x[kk] * w[kk * ldw + c];
}

/* The weight packed once for a single row (gemv_s8_vnni_packed): flipped and interleaved
 * as gemv_s8_step does at every call, and laid out in the order the product reads it, so
 * that it streams from memory as one sequence. As it lies, the product reads 1 KB of
 * each row, rows a row's length apart: on an AMD EPYC (Zen 4, 2 threads, 48 copies read
 * in turn, C harness) 3072x1024 streamed at 9.7-14 GB/s as it lies and 22-31 packed,
 * 768x2048 at 11-16 and 21-27. Layout: chunks of GEMV_S8_GROUPS groups of 64 columns
 * (fewer in the last); in a chunk, for each 4 rows, each group's 256 bytes, acc[q]'s 64
 * bytes for q = 0..3 (gemv_s8_store's order). Rows past k and columns past n are zeros:
 * the row's bytes past k are zeros too (gemv_s8_vnni_packed's caller pads it). */
enum { GEMV_S8_GROUPS = 4 };

static size_t gemv_s8_packed_bytes(size_t n, size_t k) { return round_up(n, 64) * round_up(k, 4); }

static void gemv_s8_pack(const int8_t* w, size_t ldw, size_t n, size_t k, int8_t* packed) {
  const size_t k4 = round_up(k, 4), groups = round_up(n, 64) / 64;
  for (size_t g0 = 0; g0 < groups; g0 += GEMV_S8_GROUPS) {
    const size_t count = groups - g0 < GEMV_S8_GROUPS ? groups - g0 : GEMV_S8_GROUPS;
    for (size_t kk = 0; kk < k4; kk += 4)
      for (size_t g = g0; g < g0 + count; ++g)
        for (size_t q = 0; q < 4; ++q)
          for (size_t i = 0; i < 16; ++i)
            for (size_t e = 0; e < 4; ++e, ++packed) {
              const size_t column = 64 * g + 16 * (i / 4) + 4 * q + i % 4;
              *packed = kk + e < k && column < n ? (int8_t)(w[(kk + e) * ldw + column] ^ 0x80) : 0;
            }
  }
}

/* `count` groups of 64 columns, each 4 rows' bytes `count` * 256 apart. */
GEMV_S8_TARGET __attribute__((always_inline)) static inline void gemv_s8_packed_chunk(
    const int8_t* x, const int8_t* packed, size_t k4, int32_t* y, size_t n, int32_t offset, const size_t count) {
  __m512i acc[GEMV_S8_GROUPS][4];
  for (size_t g = 0; g < count; ++g)
    for (int q = 0; q < 4; ++q) acc[g][q] = _mm512_setzero_si512();
  for (size_t kk = 0; kk < k4; kk += 4, packed += count * 256) {
    const __m512i x4 = gemv_s8_four(x + kk);
    for (size_t g = 0; g < count; ++g)
      for (int q = 0; q < 4; ++q)
        acc[g][q] = _mm512_dpbusd_epi32(acc[g][q], _mm512_load_si512((const void*)(packed + 256 * g + 64 * q)), x4);
  }
  for (size_t g = 0; g < count; ++g) gemv_s8_store(acc[g], y + 64 * g, n - 64 * g < 64 ? n - 64 * g : 64, offset);
}

/* y[0:n] = x . W as gemv_s8_vnni computes it, W packed by gemv_s8_pack (64-byte aligned)
 * and x padded with zeros to a multiple of 4 bytes. */
GEMV_S8_TARGET static void gemv_s8_vnni_packed(const int8_t* x, const int8_t* packed, int32_t* y, size_t k, size_t n) {
  const size_t k4 = round_up(k, 4), groups = round_up(n, 64) / 64;
  int32_t sum = 0;
  for (size_t kk = 0; kk < k; ++kk) sum += x[kk];
  for (size_t g0 = 0; g0 < groups; g0 += GEMV_S8_GROUPS, packed += GEMV_S8_GROUPS * 256 * (k4 / 4)) {
    if (groups - g0 >= GEMV_S8_GROUPS) {
      gemv_s8_packed_chunk(x, packed, k4, y + 64 * g0, n - 64 * g0, 128 * sum, GEMV_S8_GROUPS);
    } else {
      gemv_s8_packed_chunk(x, packed, k4, y + 64 * g0, n - 64 * g0, 128 * sum, groups - g0);
    }
  }
}

#endif  /* MLC_GEMV_S8_VNNI_H_ */
