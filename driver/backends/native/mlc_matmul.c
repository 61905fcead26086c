/* mlc's matmul library: an IREE system executable plugin whose imports run a block
 * of columns of a matmul on MKL's sequential GEMMs: `mlc_sgemm` f32 x f32 -> f32, and
 * `mlc_gemm_bf16` bf16 x bf16 -> f32 and `mlc_gemm_s8` int8 x int8 -> int32 (MKL runs
 * both on AMX where the CPU has it, and asks Linux for the AMX state itself).
 *
 * mlc's `mlc-library-matmuls` pass emits the calls: each of a dispatch's workgroups
 * passes all of A and its columns of B and C (`iree_codegen.ukernel.generic`, each
 * buffer with its offset and the stride of its outer dimension), so IREE's worker threads share the matmul and MKL runs one
 * thread per call; a constant weight's blocks are packed once, at their first call
 * (`mlc_sgemm_packed`, `mlc_gemm_bf16_packed`, `mlc_gemm_s8_packed`). A single row runs on mlc's own kernels instead, which read B as it lies:
 * AVX-512-BF16 for bf16 (gemv_bf16.h), VNNI for int8 (gemv_s8_vnni.h). `mlc_matvec_s8_quantizing`
 * takes an f32 row and quantizes it itself (mlc.quantized_matmul of an LLM's decode step;
 * on a CPU without VNNI, on AVX2: gemv_s8_avx2.h);
 * `mlc_gemm_s8_quantizing` does so for several rows, with an epilogue, on mlc's own AMX or
 * VNNI kernel (amx_s8.h, vnni_s8.h) where the CPU has one, else on AVX2 (gemm_s8_avx2.h). An f32 or bf16 product by a
 * constant weight (several rows, or a single one) runs on mlc's own AVX-512 kernels
 * (sgemm_avx512.h, gemm_bf16.h; a single row on a CPU with AVX2 but not AVX-512:
 * gemv_avx2.h) where the compiler measured them faster and says so (EPILOGUE_OWN_KERNEL).
 * `mlc_attention` runs one head of mlc.attention: scores, softmax and output in one call
 * (mlc_attention.h), and `mlc_layer_norm` the rows of an mlc.layer_norm (mlc_layer_norm.h).
 * Load it with `--executable_plugin=libmlc_matmul.so`. */

#define _GNU_SOURCE /* sched_getaffinity (team.h) */
#include <math.h>
#include <mkl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "amx_s8.h"
#include "gelu_avx512.h"
#include "gemm_s8_avx2.h"
#include "gemv_bf16.h"
#include "gemv_s8_avx2.h"
#include "gemv_s8_vnni.h"
#include "iree_executable_plugin.h"
#include "team.h"
#include "mlc_attention.h"
#include "mlc_layer_norm.h"
#include "packed_memory.h"
#include "quantize_avx512.h"
#include "round_up.h"
#include "sgemm_avx512.h"
#include "gemv_avx2.h"
#include "vector_math.h"
#include "vnni_s8.h"

/* The parameters IREE packs for each import: each buffer as (base, offset in
 * elements, stride of its outer dimension), then M, N and K. The elements are the
 * import's: f32, bf16 (MKL_BF16, the upper 16 bits of an f32) or int8, and C is f32,
 * or int32 for int8. */
typedef struct {
  const void* a;
  size_t a_offset, a_stride;
  const void* b;
  size_t b_offset, b_stride;
  void* c;
  size_t c_offset, c_stride;
  size_t m, n, k;
} mlc_gemm_params_t;

/* A single row of C comes as a vector, whose stride is 1; MKL wants ldc >= n. */
static MKL_INT c_stride(size_t m, size_t n, size_t stride) { return (MKL_INT)(m == 1 ? n : stride); }

static int sgemm_block(void* params_ptr) {
  const mlc_gemm_params_t* p = (const mlc_gemm_params_t*)params_ptr;
  if (p->m == 0 || p->n == 0) return 0;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (MKL_INT)p->m, (MKL_INT)p->n, (MKL_INT)p->k, 1.0f,
              (const float*)p->a + p->a_offset, (MKL_INT)p->a_stride, (const float*)p->b + p->b_offset,
              (MKL_INT)p->b_stride, 0.0f, (float*)p->c + p->c_offset, c_stride(p->m, p->n, p->c_stride));
  return 0;
}

/* Constant weights packed once. MKL's sgemm packs its block of B into its own layout at
 * every call; with the few rows of a transformer's matmuls that is a large part of the
 * call (Intel Xeon, two threads on blocks of columns: 128x768x3072 2.67 ms packing at each
 * call, 1.51 packed once; bf16 0.62 and 0.52). `mlc_sgemm_packed` (`mlc_gemm_bf16_packed`)
 * is called for a block of a constant weight with a fingerprint of its values, computed by
 * the compiler: the first call packs the block (`cblas_sgemm_pack`), later calls with the
 * same fingerprint and shape reuse it (`cblas_sgemm_compute`). The fingerprint, not the address, is the key: IREE may load
 * another executable's constants where an unloaded one's were. MKL's layout cannot be
 * made at compile time: it holds offsets that depend on where the buffer lies.
 *
 * Packed blocks live as long as the process, in 2 MiB pages (packed_memory.h), for
 * weights of up to a twelfth of the machine's memory together (MKL's packed blocks touch
 * about 1.4 times the weight's bytes, and a test suite runs a process per core); past
 * that, blocks are packed at each call as by mlc_sgemm (a process that loads many models
 * keeps the first ones packed). MLC_PACKED_WEIGHTS_LIMIT (bytes of weights) sets another
 * limit; 0 packs at every call. */
enum { PACKED_SLOTS = 4096 };

static size_t packed_limit(void) {
  static size_t limit = (size_t)-1;
  if (limit == (size_t)-1) {
    const char* set = getenv("MLC_PACKED_WEIGHTS_LIMIT");
    limit = set ? (size_t)strtoull(set, NULL, 10)
                : (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE) / 12;
  }
  return limit;
}

/* What a packed block holds: f32 for cblas_sgemm_compute, bf16 for
 * cblas_gemm_bf16bf16f32_compute, int8 for cblas_gemm_s8u8s32_compute followed by the
 * block's column sums (int32, at the next multiple of 64 bytes; see product_s8), or int8
 * in AMX's tiles for mlc's own kernel (amx_s8.h), or int8 in vpdpbusd's form with its
 * column sums for mlc's VNNI kernel (vnni_s8.h), or int8 widened to vpmaddwd's 16-bit pairs
 * for its AVX2 kernel (gemm_s8_avx2.h), or a bf16 weight widened to f32 for
 * cblas_sgemm_compute (gemm_bf16_widened). */
typedef enum {
  PACKED_F32,
  PACKED_BF16,
  PACKED_S8,
  PACKED_S8_AMX,
  PACKED_S8_VNNI,
  PACKED_F32_AVX512,
  PACKED_S8_ROW,
  PACKED_BF16_AVX512,
  PACKED_S8_ROW_AVX2,
  PACKED_S8_AVX2,
  PACKED_BF16_AS_F32
} packed_kind_t;

static const size_t PACKED_ELEMENT_BYTES[] = {sizeof(float), sizeof(MKL_BF16), sizeof(int8_t), sizeof(int8_t),
                                              sizeof(int8_t), sizeof(float),  sizeof(int8_t), sizeof(uint16_t),
                                              sizeof(int8_t), sizeof(int8_t), sizeof(float)};

/* The bytes of a packed block, without int8's column sums. */
static size_t packed_size(packed_kind_t kind, size_t m, size_t n, size_t k) {
  const MKL_INT mm = (MKL_INT)m, nn = (MKL_INT)n, kk = (MKL_INT)k;
  switch (kind) {
    case PACKED_F32:
    case PACKED_BF16_AS_F32: return cblas_sgemm_pack_get_size(CblasBMatrix, mm, nn, kk);
    case PACKED_BF16: return cblas_gemm_bf16bf16f32_pack_get_size(CblasBMatrix, mm, nn, kk);
    case PACKED_S8_AMX: return amx_s8_packed_size(n, k);
    case PACKED_S8_VNNI: return vnni_s8_packed_bytes(n, k);
    case PACKED_F32_AVX512: return sgemm_avx512_packed_bytes(n, k);
    case PACKED_S8_ROW: return gemv_s8_packed_bytes(n, k);
    case PACKED_BF16_AVX512: return gemm_bf16_packed_words(n, k) * sizeof(uint32_t);
    case PACKED_S8_ROW_AVX2: return gemv_s8_avx2_packed_bytes(n, k);
    case PACKED_S8_AVX2: return gemm_s8_avx2_packed_bytes(n, k);
    default: return round_up(cblas_gemm_s8u8s32_pack_get_size(CblasBMatrix, mm, nn, kk), 64);
  }
}

static void column_sums(const int8_t* b, size_t k, size_t n, size_t stride, int32_t* sums);
static void widen_bf16(const uint16_t* a, size_t lda, size_t m, size_t k, float* out);

/* Packs b (k x n, row stride ldb) into `packed`, of packed_size bytes (and n int32 more for
 * MKL's int8). 0, or 1 out of memory. */
static int pack(packed_kind_t kind, const void* b, size_t ldb, size_t m, size_t n, size_t k, void* packed) {
  const MKL_INT mm = (MKL_INT)m, nn = (MKL_INT)n, kk = (MKL_INT)k, ld = (MKL_INT)ldb;
  switch (kind) {
    case PACKED_F32:
      cblas_sgemm_pack(CblasRowMajor, CblasBMatrix, CblasNoTrans, mm, nn, kk, 1.0f, b, ld, packed);
      break;
    case PACKED_BF16:
      cblas_gemm_bf16bf16f32_pack(CblasRowMajor, CblasBMatrix, CblasNoTrans, mm, nn, kk, b, ld, packed);
      break;
    case PACKED_S8: {
      cblas_gemm_s8u8s32_pack(CblasRowMajor, CblasBMatrix, CblasNoTrans, mm, nn, kk, b, ld, packed);
      int32_t* sums = (int32_t*)((char*)packed + packed_size(kind, m, n, k));
      memset(sums, 0, n * sizeof(int32_t));
      column_sums(b, k, n, ldb, sums);
      break;
    }
    case PACKED_S8_AMX:
      amx_s8_pack(b, ldb, n, k, packed);
      break;
    case PACKED_S8_VNNI:
      vnni_s8_pack(b, ldb, n, k, packed);
      break;
    case PACKED_F32_AVX512:
      sgemm_avx512_pack(b, ldb, n, k, packed);
      break;
    case PACKED_S8_ROW:
      gemv_s8_pack(b, ldb, n, k, packed);
      break;
    case PACKED_BF16_AVX512:
      if (gemm_bf16_available())
        gemm_bf16_pack_bf16(b, ldb, n, k, packed);
      else
        gemm_bf16_pack_bf16_portable(b, ldb, n, k, packed);
      break;
    case PACKED_S8_ROW_AVX2:
      gemv_s8_avx2_pack(b, ldb, n, k, packed);
      break;
    case PACKED_S8_AVX2:
      gemm_s8_avx2_pack(b, ldb, n, k, packed);
      break;
    case PACKED_BF16_AS_F32: {
      float* widened = malloc(k * n * sizeof(float));
      if (!widened) return 1;
      widen_bf16(b, ldb, k, n, widened);
      cblas_sgemm_pack(CblasRowMajor, CblasBMatrix, CblasNoTrans, mm, nn, kk, 1.0f, widened, nn, packed);
      free(widened);
      break;
    }
  }
  return 0;
}

typedef struct {
  uint64_t fingerprint;
  packed_kind_t kind;
  size_t m, n, k;
  void* packed; /* NULL: free slot */
} packed_block_t;

static packed_block_t packed_blocks[PACKED_SLOTS];
static size_t packed_bytes; /* of the weights kept packed, as they came */
static pthread_mutex_t packed_lock = PTHREAD_MUTEX_INITIALIZER;

static int same_key(const packed_block_t* b, uint64_t fingerprint, packed_kind_t kind, size_t m, size_t n, size_t k) {
  return b->fingerprint == fingerprint && b->kind == kind && b->m == m && b->n == n && b->k == k;
}

static const void* find_packed(uint64_t fingerprint, packed_kind_t kind, size_t m, size_t n, size_t k) {
  const void* found = NULL;
  pthread_mutex_lock(&packed_lock);
  for (size_t i = fingerprint % PACKED_SLOTS, probes = 0; probes < PACKED_SLOTS && packed_blocks[i].packed;
       i = (i + 1) % PACKED_SLOTS, ++probes) {
    if (same_key(&packed_blocks[i], fingerprint, kind, m, n, k)) {
      found = packed_blocks[i].packed;
      break;
    }
  }
  pthread_mutex_unlock(&packed_lock);
  return found;
}

/* The packed block for this key: found, or packed now and kept (another thread may have
 * kept the same meanwhile: then its copy wins); NULL past the limit or out of memory. */
static const void* packed_block(uint64_t fingerprint, packed_kind_t kind, const void* b, size_t ldb, size_t m,
                                size_t n, size_t k) {
  const void* found = find_packed(fingerprint, kind, m, n, k);
  if (found) return found;
  const size_t bytes = k * n * PACKED_ELEMENT_BYTES[kind];
  pthread_mutex_lock(&packed_lock);
  const int room = packed_bytes + bytes <= packed_limit();
  pthread_mutex_unlock(&packed_lock);
  if (!room) return NULL;
  const size_t packed_bytes_needed = packed_size(kind, m, n, k) + (kind == PACKED_S8 ? n * sizeof(int32_t) : 0);
  void* packed = packed_alloc(packed_bytes_needed);
  if (!packed) return NULL;
  if (pack(kind, b, ldb, m, n, k, packed)) {
    packed_unalloc(packed, packed_bytes_needed);
    return NULL;
  }
  pthread_mutex_lock(&packed_lock);
  size_t i = fingerprint % PACKED_SLOTS, probes = 0;
  for (; probes < PACKED_SLOTS && packed_blocks[i].packed; i = (i + 1) % PACKED_SLOTS, ++probes)
    if (same_key(&packed_blocks[i], fingerprint, kind, m, n, k)) break;
  const void* result = packed;
  if (probes == PACKED_SLOTS || packed_bytes + bytes > packed_limit()) {
    result = NULL; /* full */
  } else if (packed_blocks[i].packed) {
    result = packed_blocks[i].packed; /* kept by another thread meanwhile */
  } else {
    packed_blocks[i] = (packed_block_t){fingerprint, kind, m, n, k, packed};
    packed_bytes += bytes;
    packed = NULL;
  }
  pthread_mutex_unlock(&packed_lock);
  if (packed) packed_unalloc(packed, packed_bytes_needed);
  return result;
}

/* mlc_sgemm's parameters, then the fingerprint of B's values (below 2^63: an index). */
typedef struct {
  mlc_gemm_params_t gemm;
  size_t fingerprint;
} mlc_sgemm_packed_params_t;

static int sgemm_packed_block(void* params_ptr) {
  const mlc_sgemm_packed_params_t* p = (const mlc_sgemm_packed_params_t*)params_ptr;
  const mlc_gemm_params_t* g = &p->gemm;
  if (g->m == 0 || g->n == 0) return 0;
  const float* b = (const float*)g->b + g->b_offset;
  const void* packed = packed_block(p->fingerprint, PACKED_F32, b, g->b_stride, g->m, g->n, g->k);
  if (!packed) return sgemm_block(params_ptr);
  cblas_sgemm_compute(CblasRowMajor, CblasNoTrans, CblasPacked, (MKL_INT)g->m, (MKL_INT)g->n, (MKL_INT)g->k,
                      (const float*)g->a + g->a_offset, (MKL_INT)g->a_stride, (const float*)packed, (MKL_INT)g->n, 0.0f,
                      (float*)g->c + g->c_offset, c_stride(g->m, g->n, g->c_stride));
  return 0;
}

/* Whether MLC_F32_KERNEL=mkl holds mlc's own f32 kernel off: what the compiler chose
 * for it then runs on MKL (the check that both give the same products). */
static int f32_on_mkl(void) {
  static int on_mkl = -1;
  if (on_mkl < 0) {
    const char* set = getenv("MLC_F32_KERNEL");
    on_mkl = set != NULL && strcasecmp(set, "mkl") == 0;
  }
  return on_mkl;
}

/* Whether mlc's own kernel runs these m rows here: any rows where the CPU runs the
 * AVX-512 kernel of the kind (`avx512`), a single row where it has AVX2 (gemv_avx2.h). */
static int own_kernel_runs(int avx512, size_t m) { return avx512 || (m == 1 && gemv_avx2_available()); }

/* mlc_sgemm_packed on mlc's own kernel (sgemm_avx512.h), its weight packed once in that
 * kernel's layout (a single row too, which then streams it: sgemm_avx512_row, or
 * sgemv_avx2_packed on a CPU with AVX2 but not AVX-512); on MKL where the CPU runs
 * neither, MLC_F32_KERNEL=mkl holds it off, or the weight cannot be kept packed. */
static int sgemm_own_kernel_block(void* params_ptr) {
  const mlc_sgemm_packed_params_t* p = (const mlc_sgemm_packed_params_t*)params_ptr;
  const mlc_gemm_params_t* g = &p->gemm;
  if (g->m == 0 || g->n == 0) return 0;
  const int avx512 = sgemm_avx512_available();
  if (!own_kernel_runs(avx512, g->m) || f32_on_mkl()) return sgemm_packed_block(params_ptr);
  const float* b = (const float*)g->b + g->b_offset;
  /* Keyed without the row count, as AMX's tiles are: the decode step's row and each
   * prefill's rows read one packed copy. */
  const float* packed = packed_block(p->fingerprint, PACKED_F32_AVX512, b, g->b_stride, 0, g->n, g->k);
  if (!packed) return sgemm_packed_block(params_ptr);
  if (avx512)
    sgemm_avx512((const float*)g->a + g->a_offset, g->a_stride, g->m, packed, g->n, g->k, (float*)g->c + g->c_offset,
                 (size_t)c_stride(g->m, g->n, g->c_stride));
  else
    sgemv_avx2_packed((const float*)g->a + g->a_offset, packed, g->n, g->k, (float*)g->c + g->c_offset);
  return 0;
}

static int gemm_bf16_block(void* params_ptr) {
  const mlc_gemm_params_t* p = (const mlc_gemm_params_t*)params_ptr;
  if (p->m == 0 || p->n == 0) return 0;
  if (p->m == 1 && gemv_bf16_suits(p->n) && gemv_bf16_available()) {
    gemv_bf16((const uint16_t*)p->a + p->a_offset, (const uint16_t*)p->b + p->b_offset, p->b_stride,
              (float*)p->c + p->c_offset, p->k, p->n);
    return 0;
  }
  cblas_gemm_bf16bf16f32(CblasRowMajor, CblasNoTrans, CblasNoTrans, (MKL_INT)p->m, (MKL_INT)p->n, (MKL_INT)p->k,
                         1.0f, (const MKL_BF16*)p->a + p->a_offset, (MKL_INT)p->a_stride,
                         (const MKL_BF16*)p->b + p->b_offset, (MKL_INT)p->b_stride, 0.0f,
                         (float*)p->c + p->c_offset, c_stride(p->m, p->n, p->c_stride));
  return 0;
}

/* bf16 rows (m x k, row stride lda) to f32, exactly: a bf16 is an f32's upper 16 bits. */
__attribute__((target_clones("avx2", "default"))) static void widen_bf16(const uint16_t* a, size_t lda, size_t m,
                                                                          size_t k, float* out) {
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < k; ++j) {
      const uint32_t bits = (uint32_t)a[i * lda + j] << 16;
      memcpy(&out[i * k + j], &bits, sizeof bits);
    }
}

/* Whether the environment variable `name` is "mkl" (any case), asked once into `state`. */
static int set_to_mkl(const char* name, _Atomic int* state) {
  int known = atomic_load(state);
  if (known < 0) {
    const char* set = getenv(name);
    known = set != NULL && strcasecmp(set, "mkl") == 0;
    atomic_store(state, known);
  }
  return known;
}

/* Whether MLC_BF16_KERNEL=mkl keeps MKL's bf16 GEMM where the CPU has no bf16 instructions,
 * which gemm_bf16_packed_block otherwise replaces by its f32 GEMM on widened operands. */
static int bf16_on_mkl(void) {
  static _Atomic int state = -1;
  return set_to_mkl("MLC_BF16_KERNEL", &state);
}

/* C = A B for bf16 rows A on a weight packed as f32 (PACKED_BF16_AS_F32): the rows widened
 * into a buffer of the call's own, then MKL's f32 GEMM. The same products as a bf16 GEMM
 * summing in f32 (each bf16 product is exact in f32). 0, or 1 out of memory (nothing done). */
static int gemm_bf16_widened(const mlc_gemm_params_t* g, const float* packed) {
  float* rows = malloc(g->m * g->k * sizeof(float));
  if (!rows) return 1;
  widen_bf16((const uint16_t*)g->a + g->a_offset, g->a_stride, g->m, g->k, rows);
  cblas_sgemm_compute(CblasRowMajor, CblasNoTrans, CblasPacked, (MKL_INT)g->m, (MKL_INT)g->n, (MKL_INT)g->k, rows,
                      (MKL_INT)g->k, packed, (MKL_INT)g->n, 0.0f, (float*)g->c + g->c_offset,
                      c_stride(g->m, g->n, g->c_stride));
  free(rows);
  return 0;
}

/* mlc_gemm_bf16 on a bf16 weight packed once (as mlc_sgemm_packed); a single row still
 * goes to the row kernel, which reads the weight as it lies. Where the CPU has no bf16
 * instructions (AVX-512-BF16), MKL's bf16 GEMM widens to f32 itself and took 12-16 %
 * longer than its f32 GEMM (AMD EPYC, Zen 3: 128x768x3072 5.29 against 4.66 ms): there
 * the weight is packed widened to f32, twice the bytes, and the rows widened at each call. */
static int gemm_bf16_packed_block(void* params_ptr) {
  const mlc_sgemm_packed_params_t* p = (const mlc_sgemm_packed_params_t*)params_ptr;
  const mlc_gemm_params_t* g = &p->gemm;
  if (g->m == 0 || g->n == 0) return 0;
  const MKL_BF16* b = (const MKL_BF16*)g->b + g->b_offset;
  /* The flag matmul_library.bf16_widened reads, so kernel_of names what runs. */
  const int bf16_instructions = __builtin_cpu_supports("avx512bf16");
  const packed_kind_t kind = bf16_instructions || bf16_on_mkl() ? PACKED_BF16 : PACKED_BF16_AS_F32;
  const void* packed = g->m == 1 ? NULL : packed_block(p->fingerprint, kind, b, g->b_stride, g->m, g->n, g->k);
  if (!packed) return gemm_bf16_block(params_ptr);
  if (kind == PACKED_BF16_AS_F32) return gemm_bf16_widened(g, packed) ? gemm_bf16_block(params_ptr) : 0;
  cblas_gemm_bf16bf16f32_compute(CblasRowMajor, CblasNoTrans, CblasPacked, (MKL_INT)g->m, (MKL_INT)g->n,
                                 (MKL_INT)g->k, 1.0f, (const MKL_BF16*)g->a + g->a_offset, (MKL_INT)g->a_stride,
                                 packed, (MKL_INT)g->n, 0.0f, (float*)g->c + g->c_offset,
                                 c_stride(g->m, g->n, g->c_stride));
  return 0;
}

/* mlc_gemm_bf16_packed on mlc's own kernel (gemm_bf16.h), its weight packed once in that
 * kernel's layout, a single row too: it then streams the panels in the order it reads
 * them, where gemv_bf16 reads the weight as it lies (AMD EPYC, one core, 100 MB of
 * Llama's shapes: 18-21 GB/s packed against 10-15 as it lies; a plain read 21-23); a
 * single row on gemv_bf16_avx2_packed where the CPU has AVX2 but not AVX-512-BF16. On
 * MKL where the CPU runs neither, MLC_F32_KERNEL=mkl holds mlc's kernels off, K is
 * odd (A's rows are read as they lie, a pair of k at a time) or the weight cannot be
 * kept packed. */
static int gemm_bf16_own_kernel_block(void* params_ptr) {
  const mlc_sgemm_packed_params_t* p = (const mlc_sgemm_packed_params_t*)params_ptr;
  const mlc_gemm_params_t* g = &p->gemm;
  if (g->m == 0 || g->n == 0) return 0;
  const int avx512 = gemm_bf16_available();
  if (!own_kernel_runs(avx512, g->m) || f32_on_mkl() || g->k % 2) return gemm_bf16_packed_block(params_ptr);
  const uint16_t* b = (const uint16_t*)g->b + g->b_offset;
  const uint32_t* packed = packed_block(p->fingerprint, PACKED_BF16_AVX512, b, g->b_stride, 0, g->n, g->k);  /* any rows */
  if (!packed) return gemm_bf16_packed_block(params_ptr);
  if (avx512)
    gemm_bf16((const uint16_t*)g->a + g->a_offset, g->a_stride, g->m, packed, g->n, g->k, 1.0f,
              (float*)g->c + g->c_offset, g->c_stride);
  else
    gemv_bf16_avx2_packed((const uint16_t*)g->a + g->a_offset, packed, g->n, g->k, (float*)g->c + g->c_offset);
  return 0;
}

/* MKL multiplies int8 only as unsigned A by signed B, and at full speed only without
 * offsets: with an A offset of -128 its AMX GEMM ran 5-8x slower, and its column offset
 * is added in float (inexact past 2^24). So A + 128 goes in unsigned, and the exact
 * int32 sum (A + 128) B is corrected here by 128 times each column sum of B. */
/* Built for AVX-512 and AVX2 beside the baseline, chosen when loaded: scalar, the sums
 * took as long as the GEMM itself. */
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default"))) static void column_sums(
    const int8_t* b, size_t k, size_t n, size_t stride, int32_t* sums) {
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) sums[j] += b[kk * stride + j];
}

/* A + 128 as unsigned bytes, rows packed together (k apart); NULL out of memory. */
static uint8_t* shifted_rows(const int8_t* a, size_t lda, size_t m, size_t k) {
  uint8_t* shifted = malloc(m * k);
  if (shifted)
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < k; ++j) shifted[i * k + j] = (uint8_t)(a[i * lda + j] ^ 0x80);
  return shifted;
}

/* (A + 128) B - 128 * (column sums of B) = A B. Built for AVX-512 and AVX2 beside the
 * baseline, as every pass over a product here: scalar, it took a fifth of the GEMM's time. */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void unshift(int32_t* c, size_t ldc, size_t m,
                                                                                    size_t n, const int32_t* sums) {
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) c[i * ldc + j] -= 128 * sums[j];
}

/* C = (A + 128) B in int32, with A given as shifted_rows made it (rows lda apart), and B
 * as it lies (row stride ldb) or `packed` once (packed_block: its column sums follow
 * MKL's layout). Returns B's column sums, 128 times which C must lose to be A B: the
 * packed block's, or computed into `scratch` (n int32); NULL out of memory. */
static const int32_t* product_shifted_s8_uncorrected(const uint8_t* shifted, size_t lda, const int8_t* b, size_t ldb,
                                                     const void* packed, int32_t* c, size_t ldc, size_t m, size_t n,
                                                     size_t k, int32_t* scratch) {
  const MKL_INT32 no_offset = 0;
  if (packed) {
    cblas_gemm_s8u8s32_compute(CblasRowMajor, CblasNoTrans, CblasPacked, CblasFixOffset, (MKL_INT)m, (MKL_INT)n,
                               (MKL_INT)k, 1.0f, shifted, (MKL_INT)lda, 0, packed, (MKL_INT)n, 0, 0.0f, c, (MKL_INT)ldc,
                               &no_offset);
    return (const int32_t*)((const char*)packed + packed_size(PACKED_S8, m, n, k));
  }
  if (!scratch) return NULL;
  memset(scratch, 0, n * sizeof(int32_t));
  column_sums(b, k, n, ldb, scratch);
  cblas_gemm_s8u8s32(CblasRowMajor, CblasNoTrans, CblasNoTrans, CblasFixOffset, (MKL_INT)m, (MKL_INT)n, (MKL_INT)k,
                     1.0f, shifted, (MKL_INT)lda, 0, b, (MKL_INT)ldb, 0, 0.0f, c, (MKL_INT)ldc, &no_offset);
  return scratch;
}

/* C = (A + 128) B - 128 * (column sums of B) = A B in exact int32, as above. 0, or 1
 * out of memory. */
static int product_shifted_s8(const uint8_t* shifted, const int8_t* b, size_t ldb, const void* packed, int32_t* c,
                              size_t ldc, size_t m, size_t n, size_t k) {
  int32_t* scratch = packed ? NULL : malloc(n * sizeof(int32_t));
  const int32_t* sums = product_shifted_s8_uncorrected(shifted, k, b, ldb, packed, c, ldc, m, n, k, scratch);
  if (sums) unshift(c, ldc, m, n, sums);
  free(scratch);
  return sums == NULL;
}

/* Whether MLC_INT8_KERNEL=mkl holds mlc's own int8 kernels (gemv_s8_vnni.h, amx_s8.h,
 * vnni_s8.h) off, for MKL's int8 GEMM: to compare them, or to rule them out. Asked once. */
static int int8_on_mkl(void) {
  static _Atomic int state = -1;
  return set_to_mkl("MLC_INT8_KERNEL", &state);
}

/* C = A B in exact int32 (A m x k with row stride lda, B k x n with ldb, C with ldc): a
 * single row on the VNNI kernel where it runs, else MKL as above. 0, or 1 out of memory. */
static int product_s8(const int8_t* a, size_t lda, const int8_t* b, size_t ldb, int32_t* c, size_t ldc, size_t m,
                      size_t n, size_t k) {
  if (m == 1 && gemv_s8_fits(k) && gemv_s8_available() && !int8_on_mkl()) {
    gemv_s8_vnni(a, b, ldb, c, k, n);
    return 0;
  }
  uint8_t* shifted = shifted_rows(a, lda, m, k);
  const int failed = shifted ? product_shifted_s8(shifted, b, ldb, NULL, c, ldc, m, n, k) : 1;
  free(shifted);
  return failed;
}

static int gemm_s8_block(void* params_ptr) {
  const mlc_gemm_params_t* p = (const mlc_gemm_params_t*)params_ptr;
  if (p->m == 0 || p->n == 0) return 0;
  return product_s8((const int8_t*)p->a + p->a_offset, p->a_stride, (const int8_t*)p->b + p->b_offset, p->b_stride,
                    (int32_t*)p->c + p->c_offset, (size_t)c_stride(p->m, p->n, p->c_stride), p->m, p->n, p->k);
}

/* mlc_gemm_s8 on an int8 weight packed once with its column sums (as mlc_sgemm_packed);
 * a single row still goes to the VNNI row kernel. */
static int gemm_s8_packed_block(void* params_ptr) {
  const mlc_sgemm_packed_params_t* p = (const mlc_sgemm_packed_params_t*)params_ptr;
  const mlc_gemm_params_t* g = &p->gemm;
  if (g->m == 0 || g->n == 0) return 0;
  const int8_t* b = (const int8_t*)g->b + g->b_offset;
  const void* packed = g->m == 1 ? NULL : packed_block(p->fingerprint, PACKED_S8, b, g->b_stride, g->m, g->n, g->k);
  uint8_t* shifted = packed ? shifted_rows((const int8_t*)g->a + g->a_offset, g->a_stride, g->m, g->k) : NULL;
  if (!shifted) return gemm_s8_block(params_ptr);
  const int failed = product_shifted_s8(shifted, b, g->b_stride, packed, (int32_t*)g->c + g->c_offset,
                                        (size_t)c_stride(g->m, g->n, g->c_stride), g->m, g->n, g->k);
  free(shifted);
  return failed;
}

/* Epilogues: C = post(A B + bias + residual), where the IREE region after the product
 * held only these (passes/library_matmuls.py folds them into the call): the bias [N] a
 * linear layer adds, the residual [M, N] of a skip connection, and GELU (erf or tanh)
 * after them. The product is computed as by mlc_sgemm(_packed) or mlc_gemm_bf16(_packed),
 * and the epilogue is one pass over its block while it is in cache, where IREE's
 * dispatch read it from memory again. Parameters: A, B, bias, residual and C (each base,
 * offset, row stride), M, N, K, B's fingerprint (EPILOGUE_PACKED), and the flags. */
typedef uint32_t float_bits_t __attribute__((may_alias));

enum {
  EPILOGUE_BIAS = 1,
  EPILOGUE_RESIDUAL = 2,
  EPILOGUE_GELU_ERF = 4,
  EPILOGUE_GELU_TANH = 8,
  EPILOGUE_PACKED = 16,
  EPILOGUE_TO_BF16 = 32, /* C is bf16: the f32 result rounded to nearest even, as mlc's cast */
  EPILOGUE_OWN_KERNEL = 64,  /* with EPILOGUE_PACKED: the product on mlc's own kernel (sgemm_avx512.h, gemm_bf16.h) */
};

typedef struct {
  const void* a;
  size_t a_offset, a_stride;
  const void* b;
  size_t b_offset, b_stride;
  const float* bias;
  size_t bias_offset, bias_stride;
  const float* residual;
  size_t residual_offset, residual_stride;
  float* c;
  size_t c_offset, c_stride;
  size_t m, n, k, fingerprint, flags;
} mlc_gemm_epilogue_params_t;

__attribute__((target_clones("avx512f", "avx2", "default"))) static void add_row(float* row, const float* terms,
                                                                                    size_t n) {
  for (size_t j = 0; j < n; ++j) row[j] += terms[j];
}

__attribute__((target_clones("avx2", "default"))) static void gelu_erf_row_portable(float* row, size_t n) {
  for (size_t j = 0; j < n; ++j) row[j] = gelu_erf(row[j]);
}

static void gelu_erf_row(float* row, size_t n) {
  if (gelu_avx512_available())
    gelu_erf_row_avx512(row, n);
  else
    gelu_erf_row_portable(row, n);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) static void gelu_tanh_row(float* row, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    const float x = row[j];
    row[j] = 0.5f * x * (1.0f + tanh_approx(0.79788456080286536f * (x + 0.044715f * x * x * x)));
  }
}

/* post(row) of a row of n columns: the activation the flags name, if any. */
static void activation_row(size_t flags, float* row, size_t n) {
  if (flags & EPILOGUE_GELU_ERF) gelu_erf_row(row, n);
  if (flags & EPILOGUE_GELU_TANH) gelu_tanh_row(row, n);
}

/* post(row + bias + residual) of row i of the block. */
static void epilogue_row(const mlc_gemm_epilogue_params_t* p, size_t i, float* row) {
  if (p->flags & EPILOGUE_BIAS) add_row(row, p->bias + p->bias_offset, p->n);
  if (p->flags & EPILOGUE_RESIDUAL) add_row(row, p->residual + p->residual_offset + i * p->residual_stride, p->n);
  activation_row(p->flags, row, p->n);
}

/* A row to bf16, rounded to nearest even on the bits, a NaN to 0x7FC0: mlc's cast
 * (passes/lower_to_linalg/data.py, _f32_to_bf16_bits), so the call gives the bits that
 * IREE's region after it gave. */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void to_bf16_row(const float* row, uint16_t* out,
                                                                                        size_t n) {
  const float_bits_t* bits = (const float_bits_t*)row;
  for (size_t j = 0; j < n; ++j) {
    const uint32_t rounded = (bits[j] + 0x7fffu + ((bits[j] >> 16) & 1u)) >> 16;
    out[j] = row[j] != row[j] ? (uint16_t)0x7fc0 : (uint16_t)rounded;
  }
}

/* The product's parameters, as mlc_sgemm_packed takes them. */
static mlc_sgemm_packed_params_t product_params(const mlc_gemm_epilogue_params_t* p) {
  return (mlc_sgemm_packed_params_t){{p->a, p->a_offset, p->a_stride, p->b, p->b_offset, p->b_stride, p->c,
                                      p->c_offset, p->c_stride, p->m, p->n, p->k},
                                     p->fingerprint};
}

/* The product on `packed` or `plain` (as mlc_sgemm_packed and mlc_sgemm take it), then the
 * epilogue. With EPILOGUE_TO_BF16 the product goes to f32 rows of the call's own, and each
 * row, its epilogue applied, to C in bf16 while it is in cache: at bf16 the region after
 * a product ended in the cast for the next product (ViT-B/16: bias, GELU and the cast of
 * 197x3072 took 1.1 ms a layer in IREE's code). */
static int with_epilogue(const mlc_gemm_epilogue_params_t* p, int (*packed)(void*), int (*plain)(void*)) {
  mlc_gemm_epilogue_params_t f32 = *p;
  float* rows = NULL;
  if (p->flags & EPILOGUE_TO_BF16) {
    rows = malloc(p->m * p->n * sizeof(float));
    if (!rows) return 1;
    f32.c = rows;
    f32.c_offset = 0;
    f32.c_stride = p->n;
  }
  mlc_sgemm_packed_params_t product = product_params(&f32);
  const int failed = p->flags & EPILOGUE_PACKED ? packed(&product) : plain(&product.gemm);
  for (size_t i = 0; !failed && i < p->m; ++i) {
    float* row = f32.c + f32.c_offset + i * f32.c_stride;
    epilogue_row(&f32, i, row);
    if (rows) to_bf16_row(row, (uint16_t*)p->c + p->c_offset + i * p->c_stride, p->n);
  }
  free(rows);
  return failed;
}

static int sgemm_epilogue_block(void* params_ptr) {
  const mlc_gemm_epilogue_params_t* p = (const mlc_gemm_epilogue_params_t*)params_ptr;
  return with_epilogue(p, p->flags & EPILOGUE_OWN_KERNEL ? sgemm_own_kernel_block : sgemm_packed_block, sgemm_block);
}

static int gemm_bf16_epilogue_block(void* params_ptr) {
  const mlc_gemm_epilogue_params_t* p = (const mlc_gemm_epilogue_params_t*)params_ptr;
  return with_epilogue(p, p->flags & EPILOGUE_OWN_KERNEL ? gemm_bf16_own_kernel_block : gemm_bf16_packed_block,
                       gemm_bf16_block);
}

/* The parameters of mlc_matvec_s8_quantizing: the f32 row x, the int8 weight's block of
 * columns, their f32 scales, the f32 result's block; then M (1), N, K and the fingerprint
 * of a constant weight's values (0: none, the weight read as it lies). */
typedef struct {
  const float* x;
  size_t x_offset, x_stride;
  const int8_t* w;
  size_t w_offset, w_stride;
  const float* scale;
  size_t scale_offset, scale_stride;
  float* y;
  size_t y_offset, y_stride;
  size_t m, n, k, fingerprint;
} mlc_quantized_row_params_t;

enum { QUANTIZED_LEVELS = 127 }; /* symmetric: -127..127 (passes/quantize_int8.py) */

/* sx of a row (below): its largest magnitude over 127. Written for the vectorizer and
 * built for x86-64-v4 and AVX2 beside the baseline (a clone for "arch=skylake-avx512" is
 * chosen only on that very CPU, by model, not by its instructions: on Sapphire Rapids it
 * ran the AVX2 clone). The largest magnitude is an unsigned max over the bits of |x|
 * (NaN's set to 0: ignored, as by fmaxf), which GCC vectorizes where it leaves a float
 * max reduction scalar (128x3072: 480 -> 40 us, Intel Xeon). */
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default"))) static float row_scale(const float* x,
                                                                                             size_t k) {
  const float_bits_t* bits = (const float_bits_t*)x;
  uint32_t peak_bits = 0;
  for (size_t i = 0; i < k; ++i) {
    const uint32_t magnitude = bits[i] & 0x7fffffffu;
    const uint32_t kept = magnitude & (0u - (uint32_t)(magnitude <= 0x7f800000u)); /* NaN -> 0 */
    peak_bits = kept > peak_bits ? kept : peak_bits;
  }
  float peak;
  memcpy(&peak, &peak_bits, sizeof peak);
  return fmaxf(peak, 1.17549435e-38f * QUANTIZED_LEVELS) / QUANTIZED_LEVELS;
}

/* q(x) = round-half-even(x / sx) in -127..127, each byte exclusive-or `flip`; the clamp is
 * two compares, as fmaxf and fminf, NaN included. quantize_avx512 computes the same. */
__attribute__((target_clones("avx2", "default"))) static void quantize_portable(const float* x, size_t k, float sx,
                                                                                 uint8_t* q, uint8_t flip) {
  for (size_t i = 0; i < k; ++i) {
    float v = nearbyintf(x[i] / sx);
    v = v >= -QUANTIZED_LEVELS ? v : -QUANTIZED_LEVELS;
    v = v <= QUANTIZED_LEVELS ? v : QUANTIZED_LEVELS;
    q[i] = (uint8_t)(int8_t)v ^ flip;
  }
}

/* q(x) of k values by the scale sx into q, its bits exclusive-or `flip`. */
static void quantize_by(const float* x, size_t k, float sx, uint8_t* q, uint8_t flip) {
  if (quantize_avx512_available())
    quantize_avx512(x, k, sx, q, flip);
  else
    quantize_portable(x, k, sx, q, flip);
}

/* q(x) of one row into q, its bits exclusive-or `flip` (0x80: q + 128 as unsigned, the form
 * MKL multiplies); returns its sx. This pass over the rows is part of every int8 matmul's
 * call. */
static float quantize_row(const float* x, size_t k, uint8_t* q, uint8_t flip) {
  const float sx = row_scale(x, k);
  quantize_by(x, k, sx, q, flip);
  return sx;
}

__attribute__((target_clones("avx2", "default"))) static void widen_bytes(const int8_t* restrict q, size_t k,
                                                                          int16_t* restrict wide) {
  for (size_t i = 0; i < k; ++i) wide[i] = q[i];
}

/* quantize_row into int16 (the rows of gemm_s8_avx2.h), through a buffer on the stack: a
 * row widened in place, its bytes and words overlapping, took longer than quantizing it
 * (128x3072 on one Zen 3 core: 0.27-0.51 ms, where from a buffer of its own 0.018). */
static float quantize_row_wide(const float* x, size_t k, int16_t* wide) {
  enum { CHUNK = 4096 };
  int8_t q[CHUNK];
  const float sx = row_scale(x, k);
  for (size_t first = 0; first < k; first += CHUNK) {
    const size_t count = k - first < CHUNK ? k - first : CHUNK;
    quantize_by(x + first, count, sx, (uint8_t*)q, 0);
    widen_bytes(q, count, wide + first);
  }
  return sx;
}

/* Whether a single int8 row reads its weight's packed copy (gemv_s8_pack) or the weight as
 * it lies: measured on each block's first calls, ROW_TRIALS each way in turn, then fixed
 * (the faster of each way's fastest call). Both sum exactly, so the choice changes no
 * result. On an AMD EPYC (Zen 4) the packed copy streams 1.5-3x faster (GPT-2's int8
 * decode step: 9.6-10.0 -> 6.3-7.1 ms per token); on an Intel Xeon the weight as it lies
 * already read at 26-28 GB/s, and a packed copy measured slower in the decode step
 * (README, Measured). A block chosen to read the weight as it lies keeps its packed copy
 * (kept blocks are never freed: another thread may be reading one). */
enum { ROW_TRIALS = 8, ROW_SLOTS = 4096 };

typedef struct {
  uint64_t fingerprint; /* 0: free slot */
  int calls;            /* trials so far; 2 * ROW_TRIALS: decided */
  int packed_won;
  uint64_t fastest[2]; /* ns: as it lies, packed */
} row_layout_t;

static row_layout_t row_layouts[ROW_SLOTS];
static pthread_mutex_t row_layout_lock = PTHREAD_MUTEX_INITIALIZER;

/* The block's entry, or the free slot where it goes; NULL when the table is full. Under
 * row_layout_lock. */
static row_layout_t* row_layout_slot(uint64_t fingerprint) {
  for (size_t i = fingerprint % ROW_SLOTS, probes = 0; probes < ROW_SLOTS; i = (i + 1) % ROW_SLOTS, ++probes)
    if (row_layouts[i].fingerprint == fingerprint || !row_layouts[i].fingerprint) return &row_layouts[i];
  return NULL;
}

/* This call's way for the block (1: packed), and through `trial` whether it is timed. The
 * call that packed the copy is not timed (the copy is still in cache), nor any call once
 * the table is full (packed). */
static int row_layout_pick(uint64_t fingerprint, int* trial) {
  pthread_mutex_lock(&row_layout_lock);
  row_layout_t* layout = row_layout_slot(fingerprint);
  int packed = 1;
  *trial = 0;
  if (layout && !layout->fingerprint) {
    *layout = (row_layout_t){fingerprint, 0, 0, {UINT64_MAX, UINT64_MAX}};
  } else if (layout) {
    *trial = layout->calls < 2 * ROW_TRIALS;
    packed = *trial ? layout->calls % 2 == 0 : layout->packed_won;
  }
  pthread_mutex_unlock(&row_layout_lock);
  return packed;
}

static void row_layout_record(uint64_t fingerprint, int packed, uint64_t ns) {
  pthread_mutex_lock(&row_layout_lock);
  row_layout_t* layout = row_layout_slot(fingerprint);
  if (layout && layout->fingerprint == fingerprint && layout->calls < 2 * ROW_TRIALS) {
    if (ns < layout->fastest[packed]) layout->fastest[packed] = ns;
    if (++layout->calls == 2 * ROW_TRIALS) layout->packed_won = layout->fastest[1] <= layout->fastest[0];
  }
  pthread_mutex_unlock(&row_layout_lock);
}

/* The int32 sums q . W of a single quantized row on the VNNI kernel, the weight's packed
 * copy or as it lies, whichever measured faster for the block (row_layout_pick), or on
 * MKL (MLC_INT8_KERNEL=mkl). 0, or 1 out of memory. */
static int row_sums_vnni(const mlc_quantized_row_params_t* p, const int8_t* q, int32_t* sums) {
  const int8_t* w = p->w + p->w_offset;
  const int8_t* packed = p->fingerprint && gemv_s8_fits(p->k) && gemv_s8_available() && !int8_on_mkl()
                             ? (const int8_t*)packed_block(p->fingerprint, PACKED_S8_ROW, w, p->w_stride, 1, p->n, p->k)
                             : NULL;
  int failed = 0, trial = 0;
  if (packed && row_layout_pick(p->fingerprint, &trial)) {
    const uint64_t start = now_ns();
    gemv_s8_vnni_packed(q, packed, sums, p->k, p->n);
    if (trial) row_layout_record(p->fingerprint, 1, now_ns() - start);
  } else {
    const uint64_t start = now_ns();
    failed = product_s8(q, p->k, w, p->w_stride, sums, p->n, 1, p->n, p->k);
    if (trial) row_layout_record(p->fingerprint, 0, now_ns() - start);
  }
  return failed;
}

/* Whether a single quantized row runs as row_sums_avx2 does: on a CPU without VNNI, unless
 * MLC_INT8_KERNEL=mkl holds mlc's kernels off (MKL then saturates: the compiler emits
 * the call only where that cannot happen, matmul_library.exact_int8_rows). */
static int gemv_avx2_instead(void) { return !gemv_s8_available() && !int8_on_mkl(); }

/* q . W summed exactly in int32, the weight as it lies: where no packed copy can be
 * kept, or the CPU has no AVX2. Built for AVX2 beside the baseline. */
__attribute__((target_clones("avx2", "default"))) static void row_sums_exact(const int8_t* q, const int8_t* w,
                                                                              size_t ldw, int32_t* sums, size_t k,
                                                                              size_t n) {
  memset(sums, 0, n * sizeof(int32_t));
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) sums[j] += (int32_t)q[kk] * w[kk * ldw + j];
}

/* The sums on a CPU without VNNI: the AVX2 kernel on the weight's packed copy
 * (gemv_s8_avx2.h), else row_sums_exact. 0 (nothing here runs out of memory). */
static int row_sums_avx2(const mlc_quantized_row_params_t* p, const int8_t* q, int32_t* sums) {
  const int8_t* w = p->w + p->w_offset;
  const int8_t* packed = p->fingerprint && gemv_s8_avx2_available() && gemv_s8_fits(p->k)
                             ? (const int8_t*)packed_block(p->fingerprint, PACKED_S8_ROW_AVX2, w, p->w_stride, 1,
                                                           p->n, p->k)
                             : NULL;
  if (packed)
    gemv_s8_avx2_packed(q, packed, sums, p->k, p->n);
  else
    row_sums_exact(q, w, p->w_stride, sums, p->k, p->n);
  return 0;
}

/* y = (q(x) . W) * sx * scale, where sx = max(max|x|, tiny * 127) / 127 and
 * q(x) = round-half-even(x / sx) in -127..127: mlc.quantized_matmul's lowering to linalg,
 * computed in the same order, so the two give the same floats. One dispatch where IREE's
 * kernel needs four before it (the largest magnitude, the scale, the quantized row and its
 * pack): a decode step's dispatches are short, and each costs its gap. */
static int matvec_s8_quantizing_block(void* params_ptr) {
  const mlc_quantized_row_params_t* p = (const mlc_quantized_row_params_t*)params_ptr;
  if (p->m != 1) return 1; /* mlc emits it for one row */
  if (p->n == 0) return 0;
  const size_t k4 = round_up(p->k, 4);
  int8_t* q = calloc(k4 ? k4 : 1, 1); /* zeros past k: gemv_s8_vnni_packed reads 4 at a time */
  int32_t* sums = malloc(p->n * sizeof(int32_t));
  if (!q || !sums) {
    free(q);
    free(sums);
    return 1;
  }
  const float sx = quantize_row(p->x + p->x_offset, p->k, (uint8_t*)q, 0);
  const int failed = gemv_avx2_instead() ? row_sums_avx2(p, q, sums) : row_sums_vnni(p, q, sums);
  const float* scale = p->scale + p->scale_offset;
  float* y = p->y + p->y_offset;
  if (!failed)
    for (size_t j = 0; j < p->n; ++j) y[j] = (float)sums[j] * sx * scale[j];
  free(q);
  free(sums);
  return failed;
}

/* The parameters of mlc_gemm_s8_quantizing: mlc_matvec_s8_quantizing's for M rows, with
 * an epilogue's bias and residual (as mlc_sgemm_epilogue's) before the result, then M, N,
 * K, the weight's fingerprint and the epilogue's flags. */
typedef struct {
  const float* x;
  size_t x_offset, x_stride;
  const int8_t* w;
  size_t w_offset, w_stride;
  const float* scale;
  size_t scale_offset, scale_stride;
  const float* bias;
  size_t bias_offset, bias_stride;
  const float* residual;
  size_t residual_offset, residual_stride;
  float* y;
  size_t y_offset, y_stride;
  size_t m, n, k, fingerprint, flags;
} mlc_quantized_gemm_params_t;

/* Which kernel runs a call of mlc_gemm_s8_quantizing: mlc's own on AMX or on VNNI for a
 * constant weight (packed once) where the CPU has them; on a CPU with neither, its AVX2
 * kernel (any weight: MKL's int8 would saturate there); else MKL. */
typedef enum { S8_ON_MKL, S8_ON_AMX, S8_ON_VNNI, S8_ON_AVX2 } s8_kernel_t;

/* A call of mlc_gemm_s8_quantizing as its column blocks see it: its parameters, and its
 * rows quantized once for all blocks, `row_stride` bytes apart, with their scales. On AMX
 * the rows are q(x) itself, as amx_s8.h reads them (zeros past K and M, to AMX_S8_DEPTH
 * and AMX_S8_ROWS); for VNNI and MKL they are q(x) + 128 (shifted_rows' form; for VNNI,
 * zeros past K to a multiple of 4); for AVX2, q(x) widened to int16 (zeros past K to a
 * multiple of 2). */
typedef struct {
  mlc_quantized_gemm_params_t call;
  const uint8_t* rows;
  size_t row_stride;
  const float* row_scales;
  s8_kernel_t kernel;
} quantized_gemm_block_t;

/* One row of the int8 product back to f32, plus the bias and the residual where not
 * NULL: y = (c - 128 * column sum) * sx * scale + bias + residual, the correction of
 * product_shifted_s8 (none where column_sums is NULL: AMX's signed product), the rescale
 * and the sums in one pass, in the order of mlc.quantized_matmul's lowering to linalg
 * (int32 sum, then times sx, then times scale, then each sum), each rounded (no FMA).
 * The sums as passes of their own (add_row), each loading the row the last one stored,
 * took 11 % of BERT-base's int8 call (perf, AMD EPYC Zen 5), most of it on the load. */
__attribute__((target_clones("avx512f", "avx2", "default"), optimize("fp-contract=off"))) static void dequantize_row(
    const int32_t* c, const int32_t* column_sums, float sx, const float* scale, const float* bias,
    const float* residual, float* y, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    float value = (float)(column_sums ? c[j] - 128 * column_sums[j] : c[j]) * sx * scale[j];
    if (bias) value += bias[j];
    if (residual) value += residual[j];
    y[j] = value;
  }
}

/* Columns [j, j + count) of rows [first, first + rows) of a block: their int32 product
 * (c, rows ldc apart, from column j; MKL's corrected by column_sums, also from j) back to
 * f32 with the bias and the residual added, then post() on each row while it is in cache. */
static void finish_columns(const quantized_gemm_block_t* block, const int32_t* c, size_t ldc,
                           const int32_t* column_sums, size_t first, size_t rows, size_t j, size_t count) {
  const mlc_quantized_gemm_params_t* p = &block->call;
  const float* bias = p->flags & EPILOGUE_BIAS ? p->bias + p->bias_offset + j : NULL;
  for (size_t i = first; i < first + rows; ++i) {
    float* row = p->y + p->y_offset + i * p->y_stride + j;
    const float* residual =
        p->flags & EPILOGUE_RESIDUAL ? p->residual + p->residual_offset + j + i * p->residual_stride : NULL;
    dequantize_row(c + (i - first) * ldc, column_sums, block->row_scales[i], p->scale + p->scale_offset + j, bias,
                   residual, row, count);
    activation_row(p->flags, row, count);
  }
}

/* The columns of the AMX kernel's product finished together: 32 rows of 128 int32 (16 KB)
 * stay in L1 between the tile stores and the epilogue. Finishing each 32-row strip whole,
 * its product (32 x 1536 int32 for BERT-base's fc1) went through L2: interleaved in one
 * process, 128 columns took 2-10 % less time on every shape (128x768x3072 with GELU
 * 0.395 -> 0.357 ms, 197x768x3072 1.065 -> 1.036; Intel Xeon, two threads), 64 columns
 * lost on fc1, and 256 were mixed. */
enum { FINISHED_COLUMNS = 128 };

/* The block on mlc's AMX kernel, 32 rows by FINISHED_COLUMNS at a time. 0, or 1 out of
 * memory. */
static int amx_quantized_block(const quantized_gemm_block_t* block, const int8_t* packed) {
  const mlc_quantized_gemm_params_t* p = &block->call;
  int32_t* c = aligned_alloc(64, AMX_S8_ROWS * FINISHED_COLUMNS * sizeof(int32_t));
  if (!c) return 1;
  for (size_t first = 0; first < p->m; first += AMX_S8_ROWS) {
    const int8_t* rows = (const int8_t*)block->rows + first * block->row_stride;
    const size_t count = p->m - first < AMX_S8_ROWS ? p->m - first : AMX_S8_ROWS;
    amx_s8_configure();
    for (size_t j = 0; j < p->n; j += FINISHED_COLUMNS) {
      const size_t columns = p->n - j < FINISHED_COLUMNS ? p->n - j : FINISHED_COLUMNS;
      amx_s8_columns(rows, block->row_stride, packed, j, round_up(columns, AMX_S8_COLUMNS), p->k, c,
                     FINISHED_COLUMNS);
      finish_columns(block, c, FINISHED_COLUMNS, NULL, first, count, j, columns);
    }
    amx_s8_release();
  }
  free(c);
  return 0;
}

/* The block on mlc's VNNI kernel: FINISHED_COLUMNS at a time, each for every
 * VNNI_S8_ROWS rows, finished while in L1 (the columns' packed weight stays in L2 for all
 * the rows). 0, or 1 out of memory. */
static int vnni_quantized_block(const quantized_gemm_block_t* block, const int8_t* packed) {
  const mlc_quantized_gemm_params_t* p = &block->call;
  int32_t* c = aligned_alloc(64, VNNI_S8_ROWS * FINISHED_COLUMNS * sizeof(int32_t));
  if (!c) return 1;
  const int32_t* sums = vnni_s8_column_sums(packed, p->n, p->k);
  for (size_t j = 0; j < p->n; j += FINISHED_COLUMNS) {
    const size_t columns = p->n - j < FINISHED_COLUMNS ? p->n - j : FINISHED_COLUMNS;
    for (size_t first = 0; first < p->m; first += VNNI_S8_ROWS) {
      const size_t count = p->m - first < VNNI_S8_ROWS ? p->m - first : VNNI_S8_ROWS;
      vnni_s8_columns(block->rows + first * block->row_stride, block->row_stride, count, packed, j,
                      round_up(columns, VNNI_S8_COLUMNS), p->k, c, FINISHED_COLUMNS);
      finish_columns(block, c, FINISHED_COLUMNS, sums + j, first, count, j, columns);
    }
  }
  free(c);
  return 0;
}

/* The block on mlc's AVX2 kernel, as on VNNI (the product signed: no column sums). 0, or
 * 1 out of memory. */
static int avx2_quantized_block(const quantized_gemm_block_t* block, const int16_t* packed) {
  const mlc_quantized_gemm_params_t* p = &block->call;
  int32_t* c = aligned_alloc(64, GEMM_S8_AVX2_ROWS * FINISHED_COLUMNS * sizeof(int32_t));
  if (!c) return 1;
  const size_t lda = block->row_stride / sizeof(int16_t);
  for (size_t j = 0; j < p->n; j += FINISHED_COLUMNS) {
    const size_t columns = p->n - j < FINISHED_COLUMNS ? p->n - j : FINISHED_COLUMNS;
    for (size_t first = 0; first < p->m; first += GEMM_S8_AVX2_ROWS) {
      const size_t count = p->m - first < GEMM_S8_AVX2_ROWS ? p->m - first : GEMM_S8_AVX2_ROWS;
      gemm_s8_avx2_columns((const int16_t*)block->rows + first * lda, lda, count, packed, j,
                           round_up(columns, GEMM_S8_AVX2_COLUMNS), p->k, c, FINISHED_COLUMNS);
      finish_columns(block, c, FINISHED_COLUMNS, NULL, first, count, j, columns);
    }
  }
  free(c);
  return 0;
}

/* The block on mlc's AVX2 kernel, its weight packed once, or for this call alone where no
 * packed copy can be kept (a weight that is not constant, or past MLC_PACKED_WEIGHTS_LIMIT). */
static int avx2_quantized_weight_block(const quantized_gemm_block_t* block) {
  const mlc_quantized_gemm_params_t* p = &block->call;
  const int8_t* w = p->w + p->w_offset;
  const void* kept = p->flags & EPILOGUE_PACKED ? packed_block(p->fingerprint, PACKED_S8_AVX2, w, p->w_stride, 0, p->n,
                                                               p->k)
                                                : NULL;
  if (kept) return avx2_quantized_block(block, kept);
  int16_t* packed = aligned_alloc(32, round_up(gemm_s8_avx2_packed_bytes(p->n, p->k), 32));
  if (!packed) return 1;
  gemm_s8_avx2_pack(w, p->w_stride, p->n, p->k, packed);
  const int failed = avx2_quantized_block(block, packed);
  free(packed);
  return failed;
}

/* The block on MKL: `shifted` rows (q(x) + 128, row_stride apart), the weight packed once
 * with EPILOGUE_PACKED. 0, or 1 out of memory. */
static int mkl_quantized_block(const quantized_gemm_block_t* block, const uint8_t* shifted, size_t row_stride) {
  const mlc_quantized_gemm_params_t* p = &block->call;
  const size_t m = p->m, n = p->n, k = p->k;
  int32_t* sums = malloc(m * n * sizeof(int32_t));
  if (!sums) return 1;
  const int8_t* w = p->w + p->w_offset;
  const void* packed = p->flags & EPILOGUE_PACKED ? packed_block(p->fingerprint, PACKED_S8, w, p->w_stride, m, n, k)
                                                  : NULL;
  int32_t* scratch = packed ? NULL : malloc(n * sizeof(int32_t));
  const int32_t* column_sums = product_shifted_s8_uncorrected(shifted, row_stride, w, p->w_stride, packed, sums, n,
                                                              m, n, k, scratch);
  if (column_sums) finish_columns(block, sums, n, column_sums, 0, m, 0, n);
  free(scratch);
  free(sums);
  return column_sums == NULL;
}

/* One block of columns of mlc.quantized_matmul of several rows, then its epilogue: the
 * int8 product on mlc's AMX, VNNI or AVX2 kernel, or on MKL, rescaled, post(y + bias +
 * residual). Where IREE ran it, these were five dispatches, two of them over the whole f32
 * product (BERT-base's 128x3072 rescale, bias and GELU took 0.75 ms of IREE's code). A
 * weight mlc's AMX and VNNI kernels cannot keep packed (past MLC_PACKED_WEIGHTS_LIMIT) goes
 * to MKL unpacked; the AVX2 kernel packs it for the call. */
static int gemm_s8_quantizing_block(void* block_ptr) {
  const quantized_gemm_block_t* block = (const quantized_gemm_block_t*)block_ptr;
  const mlc_quantized_gemm_params_t* p = &block->call;
  if (p->m == 0 || p->n == 0) return 0;
  if (block->kernel == S8_ON_MKL) return mkl_quantized_block(block, block->rows, block->row_stride);
  if (block->kernel == S8_ON_AVX2) return avx2_quantized_weight_block(block);
  const int8_t* w = p->w + p->w_offset;
  if (block->kernel == S8_ON_VNNI) {
    const void* packed = packed_block(p->fingerprint, PACKED_S8_VNNI, w, p->w_stride, 0, p->n, p->k);
    if (packed) return vnni_quantized_block(block, packed);
    quantized_gemm_block_t unpacked = *block;
    unpacked.call.flags &= ~(size_t)EPILOGUE_PACKED;
    return mkl_quantized_block(&unpacked, block->rows, block->row_stride);
  }
  /* Keyed without the row count, which the tiles do not depend on: a prompt of another
   * length (an LLM's prefill) finds the same packed weight. */
  const void* packed = packed_block(p->fingerprint, PACKED_S8_AMX, w, p->w_stride, 0, p->n, p->k);
  if (packed) return amx_quantized_block(block, packed);
  quantized_gemm_block_t unpacked = *block;
  unpacked.call.flags &= ~(size_t)EPILOGUE_PACKED;
  uint8_t* shifted = shifted_rows((const int8_t*)block->rows, block->row_stride, p->m, p->k);
  const int failed = shifted ? mkl_quantized_block(&unpacked, shifted, p->k) : 1;
  free(shifted);
  return failed;
}

/* Rows [part * m / parts, (part + 1) * m / parts) of a call quantized into its block. */
static void quantize_rows_part(void* block_ptr, size_t part, size_t parts) {
  quantized_gemm_block_t* block = (quantized_gemm_block_t*)block_ptr;
  const mlc_quantized_gemm_params_t* p = &block->call;
  uint8_t* rows = (uint8_t*)block->rows;
  float* row_scales = (float*)block->row_scales;
  for (size_t i = part * p->m / parts; i < (part + 1) * p->m / parts; ++i) {
    uint8_t* row = rows + i * block->row_stride;
    const float* x = p->x + p->x_offset + i * p->x_stride;
    row_scales[i] = block->kernel == S8_ON_AVX2 ? quantize_row_wide(x, p->k, (int16_t*)row)
                                                : quantize_row(x, p->k, row, block->kernel == S8_ON_AMX ? 0 : 0x80);
  }
}

/* The imports: each splits its columns into one block per thread of the plugin
 * (team.h) and runs each block as above; a call made on one of IREE's task workers runs
 * whole, since there the executable's workgroups share the matmul among the workers.
 * Blocks are multiples of 16 columns, at least MIN_PART_COLUMNS wide; a product of
 * fewer than SPLIT_WORK multiply-adds runs whole on the calling thread, where a helper's
 * start would cost more than its share saves. More blocks than threads (for a helper
 * that comes late) made MKL's calls slower than they saved (Intel Xeon, 2 threads,
 * packed weights: 512x1024x256 0.73 ms in 2 blocks, 0.86 in 4 or 8; 197x3072x768 2.32,
 * 2.42, 2.73). A packed weight's block is keyed by the fingerprint mixed with its first
 * column (part_key). */
enum { SPLIT_WORK = 1 << 18, MIN_PART_COLUMNS = 64 };

typedef struct {
  const void* params;
  size_t size, n;
  void (*shift)(void* copy, size_t begin, size_t count);
  int (*block)(void* params);
  _Atomic int failed;
} column_job_t;

static void column_range(size_t n, size_t part, size_t parts, size_t* begin, size_t* count) {
  const size_t block = round_up((n + parts - 1) / parts, 16);
  *begin = part * block < n ? part * block : n;
  *count = n - *begin < block ? n - *begin : block;
}

static void column_part(void* job_ptr, size_t part, size_t parts) {
  column_job_t* job = (column_job_t*)job_ptr;
  size_t begin, count;
  column_range(job->n, part, parts, &begin, &count);
  if (count == 0) return;
  _Alignas(64) unsigned char copy[256];
  memcpy(copy, job->params, job->size);
  job->shift(copy, begin, count);
  if (job->block(copy)) atomic_store(&job->failed, 1);
}

static int split_columns(const void* params, size_t size, size_t m, size_t n, size_t k,
                         void (*shift)(void*, size_t, size_t), int (*block)(void*)) {
  if (m == 0 || n == 0) return 0;
  size_t parts = (double)m * (double)n * (double)k < SPLIT_WORK || on_iree_worker() ? 1 : team_threads();
  if (parts > (n + MIN_PART_COLUMNS - 1) / MIN_PART_COLUMNS) parts = (n + MIN_PART_COLUMNS - 1) / MIN_PART_COLUMNS;
  if (parts <= 1) {
    _Alignas(64) unsigned char copy[256];
    memcpy(copy, params, size);
    return block(copy);
  }
  column_job_t job = {params, size, n, shift, block, 0};
  team_run(column_part, &job, parts);
  return atomic_load(&job.failed);
}

static void shift_gemm(void* copy, size_t begin, size_t count) {
  mlc_gemm_params_t* p = (mlc_gemm_params_t*)copy;
  p->b_offset += begin;
  p->c_offset += begin;
  p->n = count;
}

/* A block's key: the call's mixed with the block's first column (splitmix64's finalizer,
 * kept below 2^62 as the compiler's are), so that with its columns and rows it names the
 * block's values however the call was split. Not the call's key plus the column, which
 * the compiler already adds for its own workgroups' blocks. */
static size_t part_key(size_t key, size_t first_column) {
  uint64_t z = (uint64_t)key + 0x9e3779b97f4a7c15ull * (first_column + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (size_t)((z ^ (z >> 31)) >> 2);
}

static void shift_packed(void* copy, size_t begin, size_t count) {
  mlc_sgemm_packed_params_t* p = (mlc_sgemm_packed_params_t*)copy;
  shift_gemm(&p->gemm, begin, count);
  p->fingerprint = part_key(p->fingerprint, begin);
}

static void shift_epilogue(void* copy, size_t begin, size_t count) {
  mlc_gemm_epilogue_params_t* p = (mlc_gemm_epilogue_params_t*)copy;
  p->b_offset += begin;
  p->bias_offset += begin;
  p->residual_offset += begin;
  p->c_offset += begin;
  p->n = count;
  p->fingerprint = part_key(p->fingerprint, begin);
}

static void shift_quantized(void* copy, size_t begin, size_t count) {
  mlc_quantized_row_params_t* p = (mlc_quantized_row_params_t*)copy;
  p->w_offset += begin;
  p->scale_offset += begin;
  p->y_offset += begin;
  p->n = count;
  if (p->fingerprint) p->fingerprint = part_key(p->fingerprint, begin);
}

static void shift_quantized_gemm(void* copy, size_t begin, size_t count) {
  mlc_quantized_gemm_params_t* p = &((quantized_gemm_block_t*)copy)->call;
  p->w_offset += begin;
  p->scale_offset += begin;
  p->bias_offset += begin;
  p->residual_offset += begin;
  p->y_offset += begin;
  p->n = count;
  p->fingerprint = part_key(p->fingerprint, begin);
}

#define MLC_IMPORT(name, type, shift, block)                                                 \
  static int name(void* params_ptr, void* context, void* reserved) {                        \
    (void)context;                                                                           \
    (void)reserved;                                                                          \
    _Static_assert(sizeof(type) <= 256, "a block's parameters are copied into 256 bytes");   \
    const type* p = (const type*)params_ptr;                                                 \
    return split_columns(p, sizeof(type), GEMM_OF(p).m, GEMM_OF(p).n, GEMM_OF(p).k, shift, block); \
  }

#define GEMM_OF(p) (*(p))
MLC_IMPORT(mlc_sgemm, mlc_gemm_params_t, shift_gemm, sgemm_block)
MLC_IMPORT(mlc_gemm_bf16, mlc_gemm_params_t, shift_gemm, gemm_bf16_block)
MLC_IMPORT(mlc_gemm_s8, mlc_gemm_params_t, shift_gemm, gemm_s8_block)
MLC_IMPORT(mlc_sgemm_epilogue, mlc_gemm_epilogue_params_t, shift_epilogue, sgemm_epilogue_block)
MLC_IMPORT(mlc_gemm_bf16_epilogue, mlc_gemm_epilogue_params_t, shift_epilogue, gemm_bf16_epilogue_block)
MLC_IMPORT(mlc_matvec_s8_quantizing, mlc_quantized_row_params_t, shift_quantized, matvec_s8_quantizing_block)
#undef GEMM_OF
#define GEMM_OF(p) ((p)->gemm)
MLC_IMPORT(mlc_sgemm_packed, mlc_sgemm_packed_params_t, shift_packed, sgemm_packed_block)
MLC_IMPORT(mlc_gemm_bf16_packed, mlc_sgemm_packed_params_t, shift_packed, gemm_bf16_packed_block)
MLC_IMPORT(mlc_gemm_s8_packed, mlc_sgemm_packed_params_t, shift_packed, gemm_s8_packed_block)
#undef GEMM_OF
#undef MLC_IMPORT

/* The kernel of a call: for a constant weight (EPILOGUE_PACKED), mlc's AMX kernel where
 * the CPU has it, else its VNNI kernel where the CPU has that; on a CPU with neither, its
 * AVX2 kernel for any weight (MKL's int8 would saturate), unless MLC_INT8_KERNEL=mkl (the
 * compiler then leaves several rows to IREE: matmul_choice.quantized_matrices_whole); MKL
 * otherwise. Rows that
 * one VNNI strip holds (a decode step's batch) go to the VNNI kernel even where AMX is:
 * it reads each panel of the weight once, in order, where AMX's tiles compute 32 rows
 * (GPT-2's int8 decode step, Intel Xeon: 4 sequences 9.2 ms a step on AMX, 7.4 on VNNI;
 * 8 sequences, two strips, 11.9 on AMX and 13.1 on VNNI). */
static s8_kernel_t s8_kernel(const mlc_quantized_gemm_params_t* p) {
  const int constant = (p->flags & EPILOGUE_PACKED) != 0 && !int8_on_mkl();
  const int vnni = constant && gemv_s8_available() && gemv_s8_fits(p->k);
  if (vnni && p->m <= VNNI_S8_ROWS) return S8_ON_VNNI;
  if (constant && amx_s8_available()) return S8_ON_AMX;
  if (vnni) return S8_ON_VNNI;
  const int exact_on_mkl = gemv_s8_available() || amx_s8_available();
  return !exact_on_mkl && !int8_on_mkl() && gemm_s8_avx2_available() && gemv_s8_fits(p->k) ? S8_ON_AVX2 : S8_ON_MKL;
}

/* mlc_gemm_s8_quantizing: the rows quantized once, shared among the plugin's threads by
 * rows, then the columns split among them as by the other imports (each block quantizing
 * all rows itself cost BERT-base's 128x3072 rows 0.2 ms a call on each thread), on the
 * kernel s8_kernel picks. */
static int mlc_gemm_s8_quantizing(void* params_ptr, void* context, void* reserved) {
  (void)context;
  (void)reserved;
  const mlc_quantized_gemm_params_t* p = (const mlc_quantized_gemm_params_t*)params_ptr;
  if (p->m == 0 || p->n == 0) return 0;
  const s8_kernel_t kernel = s8_kernel(p);
  const int amx = kernel == S8_ON_AMX;
  const size_t row_stride = amx                     ? amx_s8_row_stride(p->k)
                            : kernel == S8_ON_VNNI ? round_up(p->k, 4)
                            : kernel == S8_ON_AVX2 ? 2 * round_up(p->k, 2)
                                                   : p->k;
  const size_t row_bytes = kernel == S8_ON_AVX2 ? 2 * p->k : p->k; /* what quantize_rows_part writes */
  const size_t rows = amx ? round_up(p->m, AMX_S8_ROWS) : p->m;
  uint8_t* quantized = aligned_alloc(64, round_up(rows * row_stride, 64));
  float* row_scales = malloc(p->m * sizeof(float));
  int failed = !quantized || !row_scales;
  if (!failed) {
    for (size_t i = 0; row_stride > row_bytes && i < p->m; ++i)
      memset(quantized + i * row_stride + row_bytes, 0, row_stride - row_bytes);
    memset(quantized + p->m * row_stride, 0, (rows - p->m) * row_stride);
    quantized_gemm_block_t block = {*p, quantized, row_stride, row_scales, kernel};
    const size_t parts = on_iree_worker() || p->m * p->k < SPLIT_WORK / 64 ? 1 : team_threads();
    team_run(quantize_rows_part, &block, parts < p->m ? parts : p->m);
    _Static_assert(sizeof(quantized_gemm_block_t) <= 256, "a block's parameters are copied into 256 bytes");
    failed = split_columns(&block, sizeof block, p->m, p->n, p->k, shift_quantized_gemm, gemm_s8_quantizing_block);
  }
  free(quantized);
  free(row_scales);
  return failed;
}

static iree_plugin_status_t plugin_load(const iree_plugin_environment_t* environment, size_t param_count,
                                        const iree_plugin_string_pair_t* params, void** out_self) {
  (void)environment;
  (void)param_count;
  (void)params;
  *out_self = NULL;  /* stateless */
  return (iree_plugin_status_t)(uintptr_t)IREE_PLUGIN_STATUS_OK;
}

static void plugin_unload(void* self) {
  (void)self;
  team_stop();
}

/* The imports, by the names mlc's executables call them (passes/library_matmuls.py). */
static const struct {
  const char* name;
  iree_plugin_import_fn_t function;
} IMPORTS[] = {
    {"mlc_sgemm", mlc_sgemm},
    {"mlc_sgemm_packed", mlc_sgemm_packed},
    {"mlc_gemm_bf16", mlc_gemm_bf16},
    {"mlc_gemm_bf16_packed", mlc_gemm_bf16_packed},
    {"mlc_gemm_s8", mlc_gemm_s8},
    {"mlc_gemm_s8_packed", mlc_gemm_s8_packed},
    {"mlc_matvec_s8_quantizing", mlc_matvec_s8_quantizing},
    {"mlc_gemm_s8_quantizing", mlc_gemm_s8_quantizing},
    {"mlc_attention", mlc_attention},
    {"mlc_layer_norm", mlc_layer_norm},
    {"mlc_sgemm_epilogue", mlc_sgemm_epilogue},
    {"mlc_gemm_bf16_epilogue", mlc_gemm_bf16_epilogue},
};

static iree_plugin_status_t plugin_resolve(void* self, const iree_plugin_resolve_params_t* params,
                                           uint32_t* out_resolution) {
  (void)self;
  *out_resolution = 0;
  int missing = 0;
  for (size_t i = 0; i < params->count; ++i) {
    if (params->out_fn_ptrs[i]) continue;  /* another plugin resolved it */
    const char* name = params->symbol_names[i];
    int optional = name[0] == '?';
    if (optional) ++name;
    size_t found = 0;
    while (found < sizeof IMPORTS / sizeof IMPORTS[0] && strcmp(name, IMPORTS[found].name) != 0) ++found;
    if (found < sizeof IMPORTS / sizeof IMPORTS[0]) {
      params->out_fn_ptrs[i] = (void*)IMPORTS[found].function;
      params->out_fn_contexts[i] = NULL;
    } else if (optional) {
      *out_resolution |= IREE_PLUGIN_RESOLUTION_MISSING_OPTIONAL;
    } else {
      missing = 1;
    }
  }
  return (iree_plugin_status_t)(uintptr_t)(missing ? IREE_PLUGIN_STATUS_NOT_FOUND : IREE_PLUGIN_STATUS_OK);
}

__attribute__((visibility("default"))) const iree_plugin_header_t** iree_hal_executable_plugin_query(
    uint32_t max_version, void* reserved) {
  (void)reserved;
  static const iree_plugin_header_t header = {
      IREE_PLUGIN_VERSION_0_1, "mlc_matmul", "mlc: f32, bf16 and int8 matmuls, f32 attention and LayerNorm on MKL (driver/backends/native/mlc_matmul.c)", 0, 0, {0}};
  static const iree_plugin_v0_t plugin = {&header, plugin_load, plugin_unload, plugin_resolve};
  return max_version >= IREE_PLUGIN_VERSION_0_1 ? (const iree_plugin_header_t**)&plugin : NULL;
}
