/* An int8 matrix-vector product on AVX2: y[0:n] = x[0:k] . W[0:k, 0:n] in exact int32,
 * x a quantized row (-127..127), W int8 packed once. mlc's plugin runs it for a single
 * quantized row (an LLM's int8 decode step) on a CPU without VNNI, where MKL's int8 GEMM
 * sums pairs of byte products in 16 bits with saturation (matmul_library.exact_int8) and
 * IREE's code ran the row's quantizing steps as dispatches of their own.
 *
 * vpmaddubsw multiplies unsigned bytes by signed ones and adds each pair in 16 bits,
 * saturating. With the unsigned bytes |w| (at most 128) and the signed x * sign(w) (within
 * -127..127), each product is w x and a pair's sum at most 2 x 128 x 127 = 32512: exact.
 * vpmaddwd by ones then adds the pairs into int32 lanes, four k to a column.
 *
 * Layout (gemv_s8_avx2_pack): groups of 64 columns, one after another; in a group, for
 * each 4 k (k rounded up to 4, zeros past k), 8 registers of 32 bytes: lane l of register r
 * holds column 64 g + 8 r + l's 4 k, in order. So a group streams from memory in one
 * sequence into 8 registers of sums; zeros past n.
 *
 * Each step prefetches the bytes GEMV_S8_AVX2_AHEAD past it. The 5 instructions per 32 bytes
 * leave fewer of the stream's loads in flight than a plain read has: on an AMD EPYC (Zen 3),
 * two threads over 200 MB of GPT-2's 768x3072 blocks, alternated in one process, read
 * 23.9-26.3 GB/s without it, 26.8-28.9 with 1 KB ahead (a plain byte sum 26.2-28.6); 512
 * and 2048 bytes read about as fast as 1024. The f32 and bf16 row kernels (gemv_avx2.h),
 * with 1 and 2.5 instructions per 32 bytes, gained 0-5 %, and do not prefetch. */

#ifndef MLC_GEMV_S8_AVX2_H_
#define MLC_GEMV_S8_AVX2_H_

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "round_up.h"

#define GEMV_S8_AVX2_TARGET __attribute__((target("avx2")))

enum { GEMV_S8_AVX2_AHEAD = 1024 };

static int gemv_s8_avx2_available(void) { return __builtin_cpu_supports("avx2"); }

static size_t gemv_s8_avx2_packed_bytes(size_t n, size_t k) {
  return round_up(n, 64) * round_up(k, 4);
}

static void gemv_s8_avx2_pack(const int8_t* w, size_t ldw, size_t n, size_t k, int8_t* packed) {
  const size_t k4 = round_up(k, 4), groups = round_up(n, 64) / 64;
  for (size_t g = 0; g < groups; ++g)
    for (size_t kk = 0; kk < k4; kk += 4)
      for (size_t column = 64 * g; column < 64 * (g + 1); ++column)
        for (size_t e = 0; e < 4; ++e, ++packed) *packed = kk + e < k && column < n ? w[(kk + e) * ldw + column] : 0;
}

/* y = x . W, W packed by gemv_s8_avx2_pack (32-byte aligned), x padded with zeros to a
 * multiple of 4 bytes. */
GEMV_S8_AVX2_TARGET static void gemv_s8_avx2_packed(const int8_t* x, const int8_t* packed, int32_t* y, size_t k,
                                                    size_t n) {
  const size_t k4 = round_up(k, 4), groups = round_up(n, 64) / 64;
  const __m256i ones = _mm256_set1_epi16(1);
  for (size_t g = 0; g < groups; ++g) {
    __m256i acc[8];
    for (int r = 0; r < 8; ++r) acc[r] = _mm256_setzero_si256();
    const int8_t* b = packed + g * 64 * k4;
    for (size_t kk = 0; kk < k4; kk += 4, b += 256) {
      int32_t four;
      memcpy(&four, x + kk, 4);
      const __m256i x4 = _mm256_set1_epi32(four);
      for (int line = 0; line < 4; ++line) _mm_prefetch((const char*)b + GEMV_S8_AVX2_AHEAD + 64 * line, _MM_HINT_T0);
#pragma GCC unroll 8
      for (int r = 0; r < 8; ++r) {
        const __m256i w = _mm256_load_si256((const __m256i*)(b + 32 * r));
        const __m256i pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(w), _mm256_sign_epi8(x4, w));
        acc[r] = _mm256_add_epi32(acc[r], _mm256_madd_epi16(pairs, ones));
      }
    }
    int32_t sums[64];
    for (int r = 0; r < 8; ++r) _mm256_storeu_si256((__m256i*)(sums + 8 * r), acc[r]);
    const size_t count = n - 64 * g < 64 ? n - 64 * g : 64;
    memcpy(y + 64 * g, sums, count * sizeof(int32_t));
  }
}

#endif /* MLC_GEMV_S8_AVX2_H_ */
