/* A single query row's two attention products on AVX2 and FMA: its scores against n keys,
 * then its weights times n values. Included by mlc_attention.h, whose single_row_scores
 * and single_row_output compute the same on AVX-512 (and where the CPU has neither).
 *
 * Why: those two are written in vectors of 16 floats (vector_math.h), one AVX-512
 * register. On AVX2 GCC makes each of them two registers, so the scores' 16 sums took 32
 * of AVX2's 16 and lived on the stack, and each weight broadcast to 16 lanes went through
 * 16 scalar stores. On an AMD EPYC (Zen 3), GPT-2's decode step (12 heads of 64, 48 keys)
 * took 42-45 us a layer for the two products and the softmax on one thread, against 6.1
 * with these (C harness); in the decode step that was 57-60 us of each layer's dispatch,
 * a tenth of the step at int8. Here blocks of 8 keys take 8 registers of sums and 64
 * columns of output 8 registers. The sums' order differs from the AVX-512 loops'. */

#ifndef MLC_ATTENTION_ROW_AVX2_H_
#define MLC_ATTENTION_ROW_AVX2_H_

#include <immintrin.h>
#include <stddef.h>

#define ATTENTION_ROW_AVX2_TARGET __attribute__((target("avx2,fma")))

static int attention_row_avx2_available(void) {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* Lane r: the sum of the 8 lanes of acc[r]. */
ATTENTION_ROW_AVX2_TARGET static inline __m256 attention_row_lane_sums8(const __m256 acc[8]) {
  const __m256 s01 = _mm256_hadd_ps(acc[0], acc[1]), s23 = _mm256_hadd_ps(acc[2], acc[3]);
  const __m256 s45 = _mm256_hadd_ps(acc[4], acc[5]), s67 = _mm256_hadd_ps(acc[6], acc[7]);
  /* lanes 0-3: the low halves' sums of acc[0..3], lanes 4-7 the high halves' (and 4..7) */
  const __m256 s0123 = _mm256_hadd_ps(s01, s23), s4567 = _mm256_hadd_ps(s45, s67);
  return _mm256_add_ps(_mm256_permute2f128_ps(s0123, s4567, 0x20), _mm256_permute2f128_ps(s0123, s4567, 0x31));
}

/* scores[j] = scale * (q . k_j) for each of the n keys (rows k_stride apart), 8 keys at a time. */
ATTENTION_ROW_AVX2_TARGET static void attention_row_scores_avx2(const float* q, const float* k, size_t k_stride,
                                                                 size_t n, size_t d, float scale, float* scores) {
  const size_t whole = d / 8 * 8;
  size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m256 acc[8];
    for (int r = 0; r < 8; ++r) acc[r] = _mm256_setzero_ps();
    for (size_t c = 0; c < whole; c += 8) {
      const __m256 a = _mm256_loadu_ps(q + c);
      for (int r = 0; r < 8; ++r) acc[r] = _mm256_fmadd_ps(a, _mm256_loadu_ps(k + (j + r) * k_stride + c), acc[r]);
    }
    float sums[8];
    _mm256_storeu_ps(sums, attention_row_lane_sums8(acc));
    for (int r = 0; r < 8; ++r) {
      for (size_t c = whole; c < d; ++c) sums[r] += q[c] * k[(j + r) * k_stride + c];
      scores[j + r] = scale * sums[r];
    }
  }
  for (; j < n; ++j) {
    const float* key = k + j * k_stride;
    __m256 acc = _mm256_setzero_ps();
    for (size_t c = 0; c < whole; c += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(q + c), _mm256_loadu_ps(key + c), acc);
    float lanes[8], sum = 0.0f;
    _mm256_storeu_ps(lanes, acc);
    for (int l = 0; l < 8; ++l) sum += lanes[l];
    for (size_t c = whole; c < d; ++c) sum += q[c] * key[c];
    scores[j] = scale * sum;
  }
}

/* out[c] = the sum of p_j v_j[c] over the n values (rows v_stride apart), 64 columns at a
 * time in registers, each value row read once per 64 columns; then 8, then one. */
ATTENTION_ROW_AVX2_TARGET static void attention_row_output_avx2(const float* p, const float* v, size_t v_stride,
                                                                 size_t n, size_t dv, float* out) {
  size_t c = 0;
  for (; c + 64 <= dv; c += 64) {
    __m256 sums[8];
    for (int b = 0; b < 8; ++b) sums[b] = _mm256_setzero_ps();
    for (size_t j = 0; j < n; ++j) {
      const __m256 weight = _mm256_broadcast_ss(p + j);
      for (int b = 0; b < 8; ++b)
        sums[b] = _mm256_fmadd_ps(weight, _mm256_loadu_ps(v + j * v_stride + c + 8 * b), sums[b]);
    }
    for (int b = 0; b < 8; ++b) _mm256_storeu_ps(out + c + 8 * b, sums[b]);
  }
  for (; c + 8 <= dv; c += 8) {
    __m256 sum = _mm256_setzero_ps();
    for (size_t j = 0; j < n; ++j)
      sum = _mm256_fmadd_ps(_mm256_broadcast_ss(p + j), _mm256_loadu_ps(v + j * v_stride + c), sum);
    _mm256_storeu_ps(out + c, sum);
  }
  for (; c < dv; ++c) {
    float sum = 0.0f;
    for (size_t j = 0; j < n; ++j) sum += p[j] * v[j * v_stride + c];
    out[c] = sum;
  }
}

#endif /* MLC_ATTENTION_ROW_AVX2_H_ */
