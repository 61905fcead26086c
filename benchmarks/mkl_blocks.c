/* How to split a library matmul between two threads: blocks of rows or blocks of
 * columns, f32 (cblas_sgemm) and bf16 (cblas_gemm_bf16bf16f32, AMX where the CPU has
 * it), sequential MKL on each thread, as mlc's plugin runs on IREE's two workers.
 * Prints the fastest of 7 rounds of 3 calls per variant, in ms (README, Targets).
 *
 *   V=.venv; cc -O2 benchmarks/mkl_blocks.c -I$V/include $V/lib/libmkl_intel_lp64.so.2 \
 *     $V/lib/libmkl_sequential.so.2 $V/lib/libmkl_core.so.2 -lm -ldl -lpthread \
 *     -Wl,-rpath,$V/lib -o /tmp/mkl_blocks && /tmp/mkl_blocks
 */
#include <mkl_cblas.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { F32_ROWS, F32_COLUMNS, BF16_ROWS, BF16_COLUMNS, VARIANTS };
static const char* NAMES[VARIANTS] = {"f32 rows", "f32 columns", "bf16 rows", "bf16 columns"};

typedef struct {
  int m, n, k, variant, part;
  const float *a, *b;
  const MKL_BF16 *a16, *b16;
  float* c;
} job_t;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* This thread's half: rows as [offset, offset + size) of M, or columns of N in
 * multiples of 16, as passes/library_matmuls.py splits them. */
static void* run(void* argument) {
  const job_t* j = argument;
  int by_rows = j->variant == F32_ROWS || j->variant == BF16_ROWS;
  int total = by_rows ? j->m : j->n;
  int first = by_rows ? (total + 1) / 2 : ((total + 1) / 2 + 15) / 16 * 16;
  int offset = j->part ? first : 0, size = j->part ? total - first : first;
  int m = by_rows ? size : j->m, n = by_rows ? j->n : size;
  long a_at = by_rows ? (long)offset * j->k : 0, b_at = by_rows ? 0 : offset;
  long c_at = by_rows ? (long)offset * j->n : offset;
  if (j->variant <= F32_COLUMNS)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, j->k, 1, j->a + a_at, j->k, j->b + b_at, j->n, 0,
                j->c + c_at, j->n);
  else
    cblas_gemm_bf16bf16f32(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, j->k, 1, j->a16 + a_at, j->k,
                           j->b16 + b_at, j->n, 0, j->c + c_at, j->n);
  return NULL;
}

int main(void) {
  static const int shapes[][3] = {{64, 768, 3072}, {128, 768, 3072}, {128, 3072, 768}, {197, 768, 3072},
                                  {197, 768, 768}, {128, 768, 2304}, {64, 512, 2048}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
    float *a = malloc(4L * m * k), *b = malloc(4L * k * n), *c = malloc(4L * m * n);
    MKL_BF16 *a16 = malloc(2L * m * k), *b16 = malloc(2L * k * n);
    for (long i = 0; i < (long)m * k; i++) a[i] = 1, a16[i] = 0x3f80; /* 1.0 */
    for (long i = 0; i < (long)k * n; i++) b[i] = 0.5f, b16[i] = 0x3f00; /* 0.5 */
    double best[VARIANTS] = {1e9, 1e9, 1e9, 1e9};
    for (int round = 0; round < 8; round++) {
      for (int v = 0; v < VARIANTS; v++) {
        double start = now();
        for (int call = 0; call < 3; call++) {
          pthread_t threads[2];
          job_t jobs[2];
          for (int p = 0; p < 2; p++) {
            jobs[p] = (job_t){m, n, k, v, p, a, b, a16, b16, c};
            pthread_create(&threads[p], NULL, run, &jobs[p]);
          }
          for (int p = 0; p < 2; p++) pthread_join(threads[p], NULL);
        }
        double t = (now() - start) / 3;
        if (round > 0 && t < best[v]) best[v] = t; /* the first round warms up */
      }
    }
    printf("%dx%dx%d:", m, k, n);
    for (int v = 0; v < VARIANTS; v++) printf("  %s %.3f", NAMES[v], best[v] * 1e3);
    printf("\n");
    free(a), free(b), free(c), free(a16), free(b16);
  }
  return 0;
}
