/* mlc_layer_norm: torch's LayerNorm of each row, (x - mean) / sqrt(var + epsilon) *
 * weight + bias with the variance biased, for an mlc.layer_norm on the library
 * (passes/library_layer_norms.py). Included by mlc_matmul.c.
 *
 * Why here and not in IREE's code: a transformer's LayerNorms sit between library
 * calls, and the executable runs on IREE's local-sync driver (the plugin carries the
 * heavy work), so IREE ran them on one thread, in three passes over memory: 70 us for
 * BERT-base's 128x768 (Intel Xeon, AVX-512), 120 with its residual adds at int8. Here
 * the rows are shared among the plugin's threads (team.h), and each row is read three
 * times while it sits in L1: its sum, its squared deviations, the result.
 *
 * Sums run in the CPU's lanes of f32 (16 on AVX-512, 8 on AVX2: VECTOR_ROW_FUNCTIONS)
 * over chunks of ROW_CHUNK elements, each chunk's total added in double, so a long row
 * (a GroupNorm's group of 32x64x64) loses no more than a short one. A row holding NaN or
 * an infinity is NaN, as in torch. */

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "vector_math.h"

typedef struct {
  const float* x;
  size_t x_offset, x_stride;
  const float* weight;
  size_t weight_offset, weight_stride;
  const float* bias;
  size_t bias_offset, bias_stride;
  float* out;
  size_t out_offset, out_stride;
  size_t rows, n, epsilon_bits; /* epsilon: the bits of an f32 */
} mlc_layer_norm_params_t;

enum {
  ROW_CHUNK = 256,                   /* elements summed in f32 before the total takes them in double */
  LAYER_NORM_PART_ELEMENTS = 16384,  /* the least work worth a part of its own (a helper's hand-off) */
};

/* Four vectors of partial sums, so that each add waits on the one four before it (an
 * add's latency is four cycles): TERM(x) of each vector x of the chunk, then of its
 * elements left over (TERM of a float), into `chunk`. */
#define SUM_CHUNK(row, start, end, TERM, floats, lanes)       \
  do {                                                        \
    floats partial[4] = {{0}, {0}, {0}, {0}};                 \
    size_t j = (start);                                       \
    for (; j + 4 * (lanes) <= (end); j += 4 * (lanes))        \
      for (int a = 0; a < 4; ++a) {                           \
        floats x;                                             \
        LOAD_VECTOR(x, (row) + j + (lanes) * a);              \
        partial[a] += TERM(x);                                \
      }                                                       \
    for (; j + (lanes) <= (end); j += (lanes)) {              \
      floats x;                                               \
      LOAD_VECTOR(x, (row) + j);                              \
      partial[0] += TERM(x);                                  \
    }                                                         \
    for (; j < (end); ++j) chunk += TERM((row)[j]);           \
    partial[0] += partial[1] + partial[2] + partial[3];       \
    for (int l = 0; l < (lanes); ++l) chunk += partial[0][l]; \
  } while (0)

/* The sum of TERM over a row (of n elements at `row`), each chunk of ROW_CHUNK elements
 * in f32 vectors and the chunks' totals in double: the body of the two functions below. */
#define ROW_SUM_OF(TERM, floats, lanes)                               \
  double total = 0.0;                                                 \
  for (size_t start = 0; start < n; start += ROW_CHUNK) {             \
    const size_t end = start + ROW_CHUNK < n ? start + ROW_CHUNK : n; \
    float chunk = 0.0f;                                               \
    SUM_CHUNK(row, start, end, TERM, floats, lanes);                  \
    total += chunk;                                                   \
  }                                                                   \
  return total;

/* The sum of a row. */
#define ROW_VALUE(x) (x)
#define ROW_TOTAL(declaration, floats, ints, lanes, exp) \
  declaration(const float* row, size_t n) { ROW_SUM_OF(ROW_VALUE, floats, lanes) }
VECTOR_ROW_FUNCTIONS(ROW_TOTAL, row_total, double, (const float* row, size_t n), (row, n))

/* The sum of (row[j] - mean)^2. */
#define SQUARED_DEVIATION(x) (((x) - mean) * ((x) - mean))
#define ROW_SQUARED_DEVIATIONS(declaration, floats, ints, lanes, exp) \
  declaration(const float* row, size_t n, float mean) { ROW_SUM_OF(SQUARED_DEVIATION, floats, lanes) }
VECTOR_ROW_FUNCTIONS(ROW_SQUARED_DEVIATIONS, row_squared_deviations, double, (const float* row, size_t n, float mean),
                     (row, n, mean))

/* out[j] = (row[j] - mean) * rstd * weight[j] + bias[j]. */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void normalize_row(
    const float* row, size_t n, float mean, float rstd, const float* weight, const float* bias, float* out) {
  for (size_t j = 0; j < n; ++j) out[j] = (row[j] - mean) * rstd * weight[j] + bias[j];
}

static void layer_norm_rows(const mlc_layer_norm_params_t* p, size_t first, size_t end) {
  float epsilon;
  const uint32_t bits = (uint32_t)p->epsilon_bits;
  memcpy(&epsilon, &bits, sizeof epsilon);
  const float* weight = p->weight + p->weight_offset;
  const float* bias = p->bias + p->bias_offset;
  for (size_t i = first; i < end; ++i) {
    const float* row = p->x + p->x_offset + i * p->x_stride;
    const float mean = (float)(row_total(row, p->n) / (double)p->n);
    const float variance = (float)(row_squared_deviations(row, p->n, mean) / (double)p->n);
    const float rstd = 1.0f / sqrtf(variance + epsilon);
    normalize_row(row, p->n, mean, rstd, weight, bias, p->out + p->out_offset + i * p->out_stride);
  }
}

/* Part `part` of `parts` is an even share of the rows. */
static void layer_norm_part(void* params, size_t part, size_t parts) {
  const mlc_layer_norm_params_t* p = (const mlc_layer_norm_params_t*)params;
  layer_norm_rows(p, p->rows * part / parts, p->rows * (part + 1) / parts);
}

/* All rows of an mlc.layer_norm, in parts of at least LAYER_NORM_PART_ELEMENTS shared
 * among the plugin's threads: a small one runs on the calling thread alone, as does one
 * on an IREE task worker (as a matmul there: the other workers have IREE's work). */
static int mlc_layer_norm(void* params_ptr, void* context, void* reserved) {
  (void)context;
  (void)reserved;
  mlc_layer_norm_params_t* p = (mlc_layer_norm_params_t*)params_ptr;
  size_t parts = on_iree_worker() ? 1 : p->rows * p->n / LAYER_NORM_PART_ELEMENTS;
  const size_t most = 4 * team_threads();  /* enough for a late helper to take its share */
  parts = parts > most ? most : parts;
  parts = parts > p->rows ? p->rows : parts;
  team_run(layer_norm_part, p, parts > 1 ? parts : 1);
  return 0;
}
