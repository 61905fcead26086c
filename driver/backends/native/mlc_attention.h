/* mlc_attention: softmax(q k^T * scale + mask) v of each head, for mlc.attention on the
 * library (passes/lower_to_linalg/attention.py). Included by mlc_matmul.c.
 *
 * The dispatch calls it once for all its heads, which it shares among the plugin's
 * threads (team.h). For each head, MKL or mlc's AVX-512 kernel, whichever measured
 * faster for the shape (attention_on_own_kernel), computes the scores [M, N] into a
 * buffer of the thread's own, the mask is added and each row's softmax taken there, and
 * the same kernel multiplies them by the value (a single query row: single_row_scores and
 * single_row_output; at bf16, gemm_bf16.h or MKL's bf16 GEMM on AMX). The
 * scores never leave the cache, where as steps they went through memory three times
 * (four dispatches).
 *
 * The softmax follows torch's: a row holding NaN, or +inf, or only -inf, is NaN; with
 * ZERO_MASKED_ROWS, a row whose scores (the mask added) are all -inf is zero (torch's
 * attention: every key masked, or the scores overflowed). With ZERO_MASKED_TAIL the
 * keys past the last one attended to are known zeros, and not read (attended_keys). exp is
 * vector_math.h's, built for each vector width (softmax_row.h, VECTOR_ROW_FUNCTIONS). */

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "amx_s8.h"
#include "attention_row_avx2.h"
#include "gemm_bf16.h"
#include "round_up.h"
#include "sgemm_avx512.h"
#include "softmax_row.h"
#include "team.h"
#include "vector_math.h"

typedef struct {
  size_t offset, heads, outer_stride, head_stride, row_stride;
} mlc_attention_view_t;

typedef struct {
  const float* q;
  size_t q_offset, q_stride;
  const float* k;
  size_t k_offset, k_stride;
  const float* v;
  size_t v_offset, v_stride;
  const float* mask;
  size_t mask_offset, mask_stride;
  float* out;
  size_t out_offset, out_stride;
  size_t heads, m, n, d, dv;
  size_t mask_heads, mask_outer_stride, mask_head_stride, mask_row_stride, mask_column_stride;
  mlc_attention_view_t views[4]; /* query, key, value, output */
  size_t scale_bits, flags;
} mlc_attention_params_t;

/* Where head h's row i of an operand starts: offset + (h / heads) * outer_stride +
 * (h % heads) * head_stride + i * row_stride; its elements are one apart (a dense
 * operand, or a view of the tensor that a slice, transpose or reshape of it made:
 * passes/attention_views.py). The output's view says where a head's rows are written:
 * dense, or where the transpose after the attention would have moved them
 * (passes/attention_output_views.py). */
static const float* view_rows(const float* base, size_t offset, const mlc_attention_view_t* view, size_t head) {
  return base + offset + view->offset + (head / view->heads) * view->outer_stride +
         (head % view->heads) * view->head_stride;
}

/* ATTENTION_BF16_PRODUCTS: the model runs at precision bf16, and where the CPU has
 * AVX-512-BF16 the two products of several query rows multiply bf16 (gemm_bf16.h). */
enum { ATTENTION_HAS_MASK = 1, ATTENTION_ZERO_MASKED_ROWS = 2, ATTENTION_BF16_PRODUCTS = 4, ATTENTION_ZERO_MASKED_TAIL = 8 };

/* A buffer of the calling thread's that grows as needed: slot 0 holds a head's scores,
 * 1 the bf16 rows of its products (gemm_bf16.h), 2 the packed operand of a product (bf16
 * pairs, or f32 panels of sgemm_avx512.h). */
enum { ATTENTION_SCORES, ATTENTION_ROWS_BF16, ATTENTION_PACKED, ATTENTION_BUFFERS };

static void* attention_buffer(int slot, size_t bytes) {
  static __thread void* buffers[ATTENTION_BUFFERS];
  static __thread size_t capacity[ATTENTION_BUFFERS];
  if (bytes > capacity[slot]) {
    free(buffers[slot]);
    const size_t rounded = round_up(bytes, 64);
    buffers[slot] = aligned_alloc(64, rounded);
    capacity[slot] = buffers[slot] ? rounded : 0;
  }
  return buffers[slot];
}

/* Whether MKL's bf16 GEMM multiplies on AMX here: AMX-BF16 and AMX-TILE (CPUID leaf 7,
 * EDX bits 22 and 24), and not held below AMX by MKL_ENABLE_INSTRUCTIONS. There a head's
 * two products take MKL's GEMM on rows rounded to bf16 as gemm_bf16.h rounds them (Intel
 * Xeon, model 207): in a C harness on one thread ViT-B/16's scores, 197x64 by 64x197, took
 * 47-49 us with the rounding, against 101-104 on gemm_bf16.h with its packing; in
 * `compiled.profile`, alternated three times, ViT-B/16's attention at bf16 took 10.6-12.0
 * ms a call against 18.6-21.5, BERT-base's 4.4-4.9 against 6.8-7.4. Asked once. */
static _Atomic int attention_amx_state = -1;

static int attention_on_amx(void) {
  int known = atomic_load(&attention_amx_state);
  if (known >= 0) return known;
  unsigned eax, ebx, ecx, edx;
  const int ok = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx >> 22 & 1) && (edx >> 24 & 1) &&
                 amx_s8_allowed_by_environment();
  atomic_store(&attention_amx_state, ok);
  return ok;
}

/* A (m x k, row stride lda) times B (k x n) or, `b_transposed`, B given as its n x k
 * transpose, both rounded to bf16 as gemm_bf16_rows rounds (rows of 2 * pairs words),
 * summed in f32 by MKL's bf16 GEMM: c = scale * a b. */
static int amx_bf16_product(const float* a, size_t lda, const float* b, size_t ldb, int b_transposed, size_t m,
                            size_t n, size_t k, float scale, float* c, size_t ldc) {
  const size_t a_words = 2 * gemm_bf16_pairs(k), b_rows = b_transposed ? n : k, b_columns = b_transposed ? k : n;
  const size_t b_words = 2 * gemm_bf16_pairs(b_columns);
  uint16_t* a16 = (uint16_t*)attention_buffer(ATTENTION_ROWS_BF16, m * a_words * 2);
  uint16_t* b16 = (uint16_t*)attention_buffer(ATTENTION_PACKED, b_rows * b_words * 2);
  if (!a16 || !b16) return 1;
  gemm_bf16_rows(a, lda, m, k, a16);
  gemm_bf16_rows(b, ldb, b_rows, b_columns, b16);
  cblas_gemm_bf16bf16f32(CblasRowMajor, CblasNoTrans, b_transposed ? CblasTrans : CblasNoTrans, (MKL_INT)m,
                         (MKL_INT)n, (MKL_INT)k, scale, (const MKL_BF16*)a16, (MKL_INT)a_words,
                         (const MKL_BF16*)b16, (MKL_INT)b_words, 0.0f, c, (MKL_INT)ldc);
  return 0;
}

/* The scores (m x n) at bf16: scale * (q k^T), each product of bf16 summed in f32. */
static int bf16_scores(const float* q, size_t q_stride, const float* k, size_t k_stride, size_t m, size_t n,
                       size_t d, float scale, float* scores) {
  if (attention_on_amx()) return amx_bf16_product(q, q_stride, k, k_stride, 1, m, n, d, scale, scores, n);
  uint16_t* rows = (uint16_t*)attention_buffer(ATTENTION_ROWS_BF16, m * gemm_bf16_pairs(d) * 4);
  uint32_t* packed = (uint32_t*)attention_buffer(ATTENTION_PACKED, gemm_bf16_packed_words(n, d) * 4);
  if (!rows || !packed) return 1;
  gemm_bf16_rows(q, q_stride, m, d, rows);
  gemm_bf16_pack_transposed(k, k_stride, n, d, packed);
  gemm_bf16(rows, 2 * gemm_bf16_pairs(d), m, packed, n, d, scale, scores, n);
  return 0;
}

/* The output (m x dv) at bf16: the weights (m x n) times v, each product of bf16 summed in f32. */
static int bf16_output(const float* weights, size_t m, size_t n, const float* v, size_t v_stride, size_t dv,
                       float* out, size_t out_stride) {
  if (attention_on_amx()) return amx_bf16_product(weights, n, v, v_stride, 0, m, dv, n, 1.0f, out, out_stride);
  uint16_t* rows = (uint16_t*)attention_buffer(ATTENTION_ROWS_BF16, m * gemm_bf16_pairs(n) * 4);
  uint32_t* packed = (uint32_t*)attention_buffer(ATTENTION_PACKED, gemm_bf16_packed_words(dv, n) * 4);
  if (!rows || !packed) return 1;
  gemm_bf16_rows(weights, n, m, n, rows);
  gemm_bf16_pack(v, v_stride, dv, n, packed);
  gemm_bf16(rows, 2 * gemm_bf16_pairs(n), m, packed, dv, n, 1.0f, out, out_stride);
  return 0;
}

/* The f32 scores (m x n) on MKL's sgemm: scale * (q k^T). */
static void mkl_scores(const float* q, size_t q_stride, const float* k, size_t k_stride, size_t m, size_t n, size_t d,
                       float scale, float* scores) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (MKL_INT)m, (MKL_INT)n, (MKL_INT)d, scale, q, (MKL_INT)q_stride,
              k, (MKL_INT)k_stride, 0.0f, scores, (MKL_INT)n);
}

/* The f32 output (m x dv) on MKL's sgemm: the weights (m x n) times v. */
static void mkl_output(const float* weights, size_t m, size_t n, const float* v, size_t v_stride, size_t dv, float* out,
                       size_t out_stride) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (MKL_INT)m, (MKL_INT)dv, (MKL_INT)n, 1.0f, weights,
              (MKL_INT)n, v, (MKL_INT)v_stride, 0.0f, out, (MKL_INT)out_stride);
}

/* The f32 scores (m x n) on mlc's own AVX-512 kernel: q k^T, the keys packed at the call
 * (the caller scales them). */
static int own_scores(const float* q, size_t q_stride, const float* k, size_t k_stride, size_t m, size_t n,
                      size_t d, float* scores) {
  float* packed = (float*)attention_buffer(ATTENTION_PACKED, sgemm_avx512_packed_bytes(n, d));
  if (!packed) return 1;
  sgemm_avx512_pack_transposed(k, k_stride, n, d, packed);
  sgemm_avx512(q, q_stride, m, packed, n, d, scores, n);
  return 0;
}

/* The f32 output (m x dv) on mlc's own AVX-512 kernel: the weights (m x n) times v, v
 * packed at the call. */
static int own_output(const float* weights, size_t m, size_t n, const float* v, size_t v_stride, size_t dv,
                      float* out, size_t out_stride) {
  float* packed = (float*)attention_buffer(ATTENTION_PACKED, sgemm_avx512_packed_bytes(dv, n));
  if (!packed) return 1;
  sgemm_avx512_pack(v, v_stride, dv, n, packed);
  sgemm_avx512(weights, n, m, packed, dv, n, out, out_stride);
  return 0;
}

/* A single query row (a decode step's) takes these two loops, not MKL: MKL's GEMM hands
 * a single row to its GEMV, which on an AMD EPYC (Zen 4) runs MKL's generic code
 * (mkl_blas_def_xsgemv: 10 % of GPT-2's int8 decode step in perf, 0.6 ms a step). */

/* Lane r of the result: the sum of the 16 lanes of acc[r]. Pairs of vectors are added
 * lane pair by lane pair, four times (30 shuffles and 15 adds), where summing each
 * vector's lanes one by one took 16 dependent adds a key: 13 us of a Llama decode
 * step's 12 heads of 128 keys, against 4 this way (AMD EPYC, keys in cache). */
static inline __attribute__((always_inline)) float_x16 lane_sums16(float_x16 acc[16]) {
  static const int_x16 even = {0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30};
  static const int_x16 odd = {1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31};
  static const int_x16 pairs_low = {0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29};
  static const int_x16 pairs_high = {2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31};
  static const int_x16 quads_low = {0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27};
  static const int_x16 quads_high = {4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31};
  static const int_x16 halves_low = {0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23};
  static const int_x16 halves_high = {8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31};
  float_x16 two[8], four[4], eight[2];
  for (int i = 0; i < 8; ++i) /* lane 2t + e: a partial sum of vector 2i + e */
    two[i] = __builtin_shuffle(acc[2 * i], acc[2 * i + 1], even) + __builtin_shuffle(acc[2 * i], acc[2 * i + 1], odd);
  for (int i = 0; i < 4; ++i) /* lane 4t + e: of vector 4i + e */
    four[i] = __builtin_shuffle(two[2 * i], two[2 * i + 1], pairs_low) +
              __builtin_shuffle(two[2 * i], two[2 * i + 1], pairs_high);
  for (int i = 0; i < 2; ++i) /* lane 8t + e: of vector 8i + e */
    eight[i] = __builtin_shuffle(four[2 * i], four[2 * i + 1], quads_low) +
               __builtin_shuffle(four[2 * i], four[2 * i + 1], quads_high);
  return __builtin_shuffle(eight[0], eight[1], halves_low) + __builtin_shuffle(eight[0], eight[1], halves_high);
}

/* The row's scores: scale * (q . k_j) for each of the n keys, 16 keys at a time. On a CPU
 * with AVX2 but not AVX-512, attention_row_avx2.h's loops run instead (single_row_on_avx2). */
__attribute__((target_clones("avx512f", "default"))) static void single_row_scores(
    const float* q, const float* k, size_t k_stride, size_t n, size_t d, float scale, float* scores) {
  const size_t whole = d / 16 * 16;
  size_t j = 0;
  for (; j + 16 <= n; j += 16) {
    float_x16 acc[16];
    for (int r = 0; r < 16; ++r) acc[r] = (float_x16){0};
    for (size_t c = 0; c < whole; c += 16) {
      float_x16 a;
      LOAD_VECTOR(a, q + c);
      for (int r = 0; r < 16; ++r) {
        float_x16 b;
        LOAD_VECTOR(b, k + (j + r) * k_stride + c);
        acc[r] += a * b;
      }
    }
    float_x16 sums = lane_sums16(acc);
    for (size_t c = whole; c < d; ++c)
      for (int r = 0; r < 16; ++r) sums[r] += q[c] * k[(j + r) * k_stride + c];
    sums *= scale;
    STORE_VECTOR(scores + j, sums);
  }
  for (; j < n; ++j) {
    const float* key = k + j * k_stride;
    float_x16 products = {0};
    size_t c = 0;
    for (; c < whole; c += 16) {
      float_x16 a, b;
      LOAD_VECTOR(a, q + c);
      LOAD_VECTOR(b, key + c);
      products += a * b;
    }
    float sum = 0.0f;
    for (int l = 0; l < 16; ++l) sum += products[l];
    for (; c < d; ++c) sum += q[c] * key[c];
    scores[j] = scale * sum;
  }
}

/* The row's output: the sum of p_j v_j over the n values, 64 columns at a time in
 * registers, each value row read once. */
__attribute__((target_clones("avx512f", "default"))) static void single_row_output(
    const float* p, const float* v, size_t v_stride, size_t n, size_t dv, float* out) {
  size_t c = 0;
  for (; c + 64 <= dv; c += 64) {
    float_x16 sums[4] = {{0}, {0}, {0}, {0}};
    for (size_t j = 0; j < n; ++j) {
      const float_x16 weight = (float_x16){0} + p[j];
      for (int b = 0; b < 4; ++b) {
        float_x16 x;
        LOAD_VECTOR(x, v + j * v_stride + c + 16 * b);
        sums[b] += weight * x;
      }
    }
    for (int b = 0; b < 4; ++b) STORE_VECTOR(out + c + 16 * b, sums[b]);
  }
  for (; c < dv; ++c) {
    float sum = 0.0f;
    for (size_t j = 0; j < n; ++j) sum += p[j] * v[j * v_stride + c];
    out[c] = sum;
  }
}

/* Whether a single query row takes attention_row_avx2.h's loops: AVX2 and FMA, no AVX-512. */
static int single_row_on_avx2(void) {
  return !__builtin_cpu_supports("avx512f") && attention_row_avx2_available();
}

/* With ATTENTION_ZERO_MASKED_TAIL, the keys and values past the last key that any query
 * of a head attends to (its mask not -inf) are zeros, as a generator's cache slots not
 * yet written are (driver/tools/generate.py): their scores are scale * (q . 0) - inf =
 * -inf and their weights 0, so the head reads only the keys before them. A decode step
 * at position 40 of a cache of 1024 then reads 48 keys, not 1024 (the keys the head
 * reads are rounded up to 16, single_row_scores' blocks and two of attention_row_avx2.h's,
 * so each key's score sums as it does over all n). Where a query row is not finite, q . 0
 * is NaN and so is its row over all n: a row whose scores read are all -inf is checked for
 * that (finish_row). */
static size_t attended_keys(const mlc_attention_params_t* p, const float* mask, float scale) {
  const size_t n = p->n;
  if (!(p->flags & ATTENTION_ZERO_MASKED_TAIL) || !(p->flags & ATTENTION_HAS_MASK) || p->mask_column_stride == 0 ||
      !isfinite(scale))
    return n;
  size_t attended = 0; /* one past the last key some row attends to */
  /* The last row first: a causal mask's attends furthest, and the rows before it then
   * stop where it did. A mask broadcast over the rows is one row. */
  for (size_t i = p->mask_row_stride == 0 ? 1 : p->m; i-- > 0 && attended < n;) {
    const float* mask_row = mask + i * p->mask_row_stride;
    for (size_t j = n; j > attended; --j)
      if (mask_row[(j - 1) * p->mask_column_stride] != -INFINITY) {
        attended = j;
        break;
      }
  }
  const size_t rounded = round_up(attended, 16);
  return rounded == 0 ? (n < 16 ? n : 16) : (rounded < n ? rounded : n);
}

/* Whether the query row stays finite as the products read it: as it is, or, where they
 * multiply bf16, rounded to bf16 (nearest even), where a float within half a bf16 step of
 * the largest (its bits at least 0x7F7F8000) becomes inf. */
static int all_finite(const float* x, size_t count, int as_bf16) {
  const uint32_t first_infinite = as_bf16 ? 0x7F7F8000u : 0x7F800000u;
  for (size_t c = 0; c < count; ++c) {
    uint32_t bits;
    memcpy(&bits, x + c, sizeof bits);
    if ((bits & 0x7FFFFFFFu) >= first_infinite) return 0;
  }
  return 1;
}

/* The softmax of a row of scores times `scale`, plus `mask` (`read` values one apart, or
 * NULL), over the `read` keys of n, as torch takes it over all n: its weights, zeros
 * (ZERO_MASKED_ROWS: every score -inf), or NaN. `bf16`: the scores multiplied the query
 * rounded to bf16. */
static void finish_row(const mlc_attention_params_t* p, float* row, size_t read, float scale, const float* mask,
                       const float* q_row, int bf16) {
  int outcome = softmax_row(row, read, scale, mask);
  if (outcome == SOFTMAX_ALL_MINUS_INF && read < p->n && !all_finite(q_row, p->d, bf16))
    outcome = SOFTMAX_NAN; /* the keys not read score q . 0 = NaN */
  if (outcome == SOFTMAX_ALL_MINUS_INF && (p->flags & ATTENTION_ZERO_MASKED_ROWS)) {
    memset(row, 0, read * sizeof(float));
  } else if (outcome != SOFTMAX_DONE) {
    for (size_t j = 0; j < read; ++j) row[j] = NAN;
  }
}

/* Whether a head's two f32 products of several query rows run on mlc's own AVX-512 kernel
 * (own_scores, own_output) or on MKL's sgemm: measured once per shape in the process, on
 * scratch operands of that shape before its first call computes anything, so that every
 * call of a shape takes the same kernel. MKL runs its AVX2 code on AMD's CPUs: on a Zen 4
 * (AVX-512 on 256-bit units) mlc's kernel tied with it (BERT-base's 12 heads, one thread,
 * C harness: 613-616 us against 627-644; ViT-B/16's 1856-1935 against 1755-1847), on a
 * Zen 5 (512-bit units) it took 250-264 us against 538-627, ViT-B/16's 638-686 against
 * 1327-1434. Own kernel where the CPU runs it and it is at least ATTENTION_OWN_MARGIN faster,
 * timed on at most ATTENTION_MEASURED_ROWS query rows (each kernel's time grows with the
 * rows alike; all 8192 rows of a prefill, d 64, would take about 1.4 s at the rates above);
 * not under MLC_F32_KERNEL=mkl. MLC_ATTENTION_KERNEL=own or =mkl takes that kernel
 * unmeasured (own only where the CPU runs it): a test runs each against torch. */
enum { ATTENTION_SHAPES = 64, ATTENTION_TRIALS = 5, ATTENTION_MEASURED_ROWS = 256 };
#define ATTENTION_OWN_MARGIN 0.9

static int f32_on_mkl(void); /* mlc_matmul.c */

typedef struct {
  size_t m, n, d, dv; /* m 0: free slot */
  int own;
} attention_choice_t;

static attention_choice_t attention_choices[ATTENTION_SHAPES];
static pthread_mutex_t attention_choice_lock = PTHREAD_MUTEX_INITIALIZER;

/* Seconds of one head's two products on scratch operands, one way (own: mlc's kernel). */
static double scratch_head_seconds(int own, const float* q, const float* k, const float* v, float* scores, float* out,
                                   size_t m, size_t n, size_t d, size_t dv) {
  const uint64_t start = now_ns();
  if (own) {
    if (own_scores(q, d, k, d, m, n, d, scores) || own_output(scores, m, n, v, dv, dv, out, dv)) return INFINITY;
  } else {
    mkl_scores(q, d, k, d, m, n, d, 1.0f, scores);
    mkl_output(scores, m, n, v, dv, dv, out, dv);
  }
  return (double)(now_ns() - start) * 1e-9;
}

/* Times both ways, alternated ATTENTION_TRIALS times after a first call of each: whether
 * mlc's kernel won by the margin (the fastest call of each). 0 where memory runs out. */
static int own_kernel_measured_faster(size_t m, size_t n, size_t d, size_t dv) {
  float* q = malloc(m * d * sizeof(float));
  float* k = malloc(n * d * sizeof(float));
  float* v = malloc(n * dv * sizeof(float));
  float* scores = malloc(m * n * sizeof(float));
  float* out = malloc(m * dv * sizeof(float));
  int own = 0;
  if (q && k && v && scores && out) {
    for (size_t i = 0; i < m * d; ++i) q[i] = (float)(i % 7) * 0.125f;
    for (size_t i = 0; i < n * d; ++i) k[i] = (float)(i % 5) * 0.25f;
    for (size_t i = 0; i < n * dv; ++i) v[i] = (float)(i % 3) * 0.5f;
    double fastest[2] = {INFINITY, INFINITY};
    for (int trial = 0; trial <= ATTENTION_TRIALS; ++trial)
      for (int way = 0; way < 2; ++way) {
        const double seconds = scratch_head_seconds(way, q, k, v, scores, out, m, n, d, dv);
        if (trial > 0 && seconds < fastest[way]) fastest[way] = seconds;
      }
    own = fastest[1] <= ATTENTION_OWN_MARGIN * fastest[0];
  }
  free(q);
  free(k);
  free(v);
  free(scores);
  free(out);
  return own;
}

/* MLC_ATTENTION_KERNEL: 1 "own", 0 "mkl", -1 unset (measured). Asked once. */
static int attention_kernel_forced(void) {
  static _Atomic int forced = -2;
  int known = atomic_load(&forced);
  if (known == -2) {
    const char* set = getenv("MLC_ATTENTION_KERNEL");
    known = set == NULL ? -1 : strcasecmp(set, "own") == 0 ? 1 : strcasecmp(set, "mkl") == 0 ? 0 : -1;
    atomic_store(&forced, known);
  }
  return known;
}

/* Whether the call's f32 products of several rows run on mlc's kernel (see above). Asked
 * by the calling thread before the heads are shared out. */
static int attention_on_own_kernel(const mlc_attention_params_t* p) {
  const int bf16 = (p->flags & ATTENTION_BF16_PRODUCTS) && gemm_bf16_available();
  if (p->m <= 1 || p->n == 0 || p->d == 0 || p->dv == 0 || bf16 || !sgemm_avx512_available() || f32_on_mkl())
    return 0;
  if (attention_kernel_forced() >= 0) return attention_kernel_forced();
  const size_t measured_rows = p->m < ATTENTION_MEASURED_ROWS ? p->m : ATTENTION_MEASURED_ROWS;
  pthread_mutex_lock(&attention_choice_lock);
  attention_choice_t* slot = NULL;
  for (size_t i = 0; i < ATTENTION_SHAPES && !slot; ++i) {
    attention_choice_t* c = &attention_choices[i];
    if (c->m == 0 || (c->m == p->m && c->n == p->n && c->d == p->d && c->dv == p->dv)) slot = c;
  }
  int own = 0;
  if (slot && slot->m != 0) {
    own = slot->own;
  } else {
    own = own_kernel_measured_faster(measured_rows, p->n, p->d, p->dv);  /* a full table: measured, not kept */
    if (slot) *slot = (attention_choice_t){p->m, p->n, p->d, p->dv, own};
  }
  pthread_mutex_unlock(&attention_choice_lock);
  return own;
}

/* Head `head` of the call: its rows of the output are head * m onwards; `own`: its f32
 * products of several rows on mlc's kernel (attention_on_own_kernel). */
static int attention_head(const mlc_attention_params_t* p, size_t head, int own) {
  const size_t m = p->m;
  float scale;
  const uint32_t scale_bits = (uint32_t)p->scale_bits;
  memcpy(&scale, &scale_bits, sizeof scale);
  float* out = (float*)view_rows(p->out, p->out_offset, &p->views[3], head);
  const size_t out_stride = p->views[3].row_stride;
  if (m == 0 || p->dv == 0) return 0;
  const float* mask = p->mask + p->mask_offset + (head / p->mask_heads) * p->mask_outer_stride +
                      (head % p->mask_heads) * p->mask_head_stride;
  const size_t n = attended_keys(p, mask, scale); /* the keys read: p->n but where the tail is skipped */
  float* scores = (float*)attention_buffer(ATTENTION_SCORES, m * n * sizeof(float));
  if (!scores) return 1;
  const int bf16 = m > 1 && p->d > 0 && (p->flags & ATTENTION_BF16_PRODUCTS) && gemm_bf16_available();
  own = own && m > 1 && !bf16;
  const float* q = view_rows(p->q, p->q_offset, &p->views[0], head);
  const float* k = view_rows(p->k, p->k_offset, &p->views[1], head);
  const float* v = view_rows(p->v, p->v_offset, &p->views[2], head);
  const size_t q_stride = p->views[0].row_stride;
  if (m == 1 && single_row_on_avx2())
    attention_row_scores_avx2(q, k, p->views[1].row_stride, n, p->d, scale, scores);
  else if (m == 1)
    single_row_scores(q, k, p->views[1].row_stride, n, p->d, scale, scores);
  else if (bf16 && n > 0) {
    if (bf16_scores(q, q_stride, k, p->views[1].row_stride, m, n, p->d, scale, scores)) return 1;
  } else if (own && n > 0) {
    if (own_scores(q, q_stride, k, p->views[1].row_stride, m, n, p->d, scores)) return 1;
  } else if (n > 0)
    mkl_scores(q, q_stride, k, p->views[1].row_stride, m, n, p->d, scale, scores);
  const int masked = (p->flags & ATTENTION_HAS_MASK) != 0;
  for (size_t i = 0; i < m; ++i) {
    float* row = scores + i * n;
    const float* mask_row = masked ? mask + i * p->mask_row_stride : NULL;
    const float row_scale = own ? scale : 1.0f; /* own: as MKL's alpha scales each product */
    if (!mask_row || p->mask_column_stride == 1) {
      finish_row(p, row, n, row_scale, mask_row, q + i * q_stride, bf16);
      continue;
    }
    for (size_t j = 0; j < n; ++j) row[j] = row[j] * row_scale + mask_row[j * p->mask_column_stride];
    finish_row(p, row, n, 1.0f, NULL, q + i * q_stride, bf16);
  }
  if (n == 0) {  /* softmax over no keys: an empty sum, and torch gives zeros */
    for (size_t i = 0; i < m; ++i) memset(out + i * out_stride, 0, p->dv * sizeof(float));
    return 0;
  }
  if (m == 1 && single_row_on_avx2())
    attention_row_output_avx2(scores, v, p->views[2].row_stride, n, p->dv, out);
  else if (m == 1)
    single_row_output(scores, v, p->views[2].row_stride, n, p->dv, out);
  else if (bf16)
    return bf16_output(scores, m, n, v, p->views[2].row_stride, p->dv, out, out_stride);
  else if (own)
    return own_output(scores, m, n, v, p->views[2].row_stride, p->dv, out, out_stride);
  else
    mkl_output(scores, m, n, v, p->views[2].row_stride, p->dv, out, out_stride);
  return 0;
}

typedef struct {
  const mlc_attention_params_t* params;
  int own;
  _Atomic int failed;
} attention_job_t;

/* Part `part` is head `part`. */
static void attention_part(void* job_ptr, size_t part, size_t parts) {
  (void)parts;
  attention_job_t* job = (attention_job_t*)job_ptr;
  if (attention_head(job->params, part, job->own)) atomic_store(&job->failed, 1);
}

/* All heads of an mlc.attention, shared among the plugin's threads (team.h). */
static int mlc_attention(void* params_ptr, void* context, void* reserved) {
  (void)context;
  (void)reserved;
  const mlc_attention_params_t* p = (const mlc_attention_params_t*)params_ptr;
  attention_job_t job = {p, attention_on_own_kernel(p), 0};
  team_run(attention_part, &job, job.params->heads);
  return atomic_load(&job.failed);
}
