/* An int8 matrix product on AMX: C = A B in exact int32, for mlc_gemm_s8_quantizing's
 * rows (A, quantized by the plugin itself) and a constant weight B packed once into AMX's
 * tiles. Included by mlc_matmul.c.
 *
 * Why mlc's own: MKL's int8 GEMM (cblas_gemm_s8u8s32) runs BERT-base's 128x768x768 in
 * 0.17 ms a call, where PyTorch's oneDNN takes 0.09 (Intel Xeon, 2 cores): MKL multiplies
 * unsigned by signed bytes, so each call shifts A by 128 and corrects by B's column sums
 * afterwards, and it wants its own copy of A. tdpbssd multiplies signed by signed, so A is
 * read as quantize_row wrote it, in place, and the product needs no correction.
 *
 * Layout. A: rows amx_s8_row_stride(k) bytes apart, the row count and K padded with zeros
 * to multiples of AMX_S8_ROWS and AMX_S8_DEPTH (the plugin allocates it so). B, packed by
 * amx_s8_pack: for each 16 columns, for each 64 k, one tile of 16 rows of 64 bytes, row
 * r holding k = 4r..4r+3 of each of the 16 columns (tdpbssd's form), zeros past K and N.
 * Each step multiplies 32 rows by 32 columns: two tiles of A, two of B, four of C. */

#ifndef MLC_AMX_S8_H_
#define MLC_AMX_S8_H_

#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "round_up.h"

#define AMX_S8_TARGET __attribute__((target("amx-tile,amx-int8")))

enum { AMX_S8_ROWS = 32, AMX_S8_COLUMNS = 32, AMX_S8_DEPTH = 64, AMX_S8_TILE_BYTES = 1024 };

/* Linux gives a process AMX's state only on request (arch_prctl). */
enum { ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18 };

/* Whether MKL_ENABLE_INSTRUCTIONS, where set, allows AMX: the one switch that holds MKL
 * and this kernel below AMX together. The levels below AVX512_E4, the first with AMX, as
 * matmul_library.BELOW_AMX lists them (MKL ignores any other value). */
static int amx_s8_allowed_by_environment(void) {
  static const char* const below_amx[] = {"SSE4_2",    "AVX",       "AVX2",      "AVX2_E1",  "AVX512",
                                          "AVX512_E1", "AVX512_E2", "AVX512_E3", "AVX512_MIC"};
  const char* limit = getenv("MKL_ENABLE_INSTRUCTIONS");
  for (size_t i = 0; limit && i < sizeof below_amx / sizeof *below_amx; ++i)
    if (strcasecmp(limit, below_amx[i]) == 0) return 0;
  return 1;
}

/* Whether this CPU and kernel run the kernel: AMX-TILE and AMX-INT8 (CPUID leaf 7, EDX
 * bits 24 and 25), the tiles' state granted, and not held off by the environment.
 * Asked once. */
static _Atomic int amx_s8_state = -1; /* unknown, else the answer */

static int amx_s8_available(void) {
  int known = atomic_load(&amx_s8_state);
  if (known >= 0) return known;
  unsigned eax, ebx, ecx, edx;
  int ok = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx >> 24 & 1) && (edx >> 25 & 1) &&
           amx_s8_allowed_by_environment() && syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0;
  atomic_store(&amx_s8_state, ok);
  return ok;
}

/* The bytes between A's rows for depth k: K rounded up to whole steps, and one cache line
 * more where that is a multiple of 8 lines, so that a tile's 16 rows do not share a few
 * of L1's sets (128x3072x384 on one thread: 1285 -> 1514 GMAC/s, Intel Xeon). */
static size_t amx_s8_row_stride(size_t k) {
  const size_t stride = round_up(k, AMX_S8_DEPTH);
  return stride % (8 * 64) == 0 ? stride + 64 : stride;
}

/* The bytes amx_s8_pack writes for n columns of depth k. */
static size_t amx_s8_packed_size(size_t n, size_t k) {
  return round_up(n, AMX_S8_COLUMNS) * round_up(k, AMX_S8_DEPTH);
}

/* B (k x n, row stride ldb) into tiles, as the header says. */
static void amx_s8_pack(const int8_t* b, size_t ldb, size_t n, size_t k, int8_t* packed) {
  const size_t steps = round_up(k, AMX_S8_DEPTH) / AMX_S8_DEPTH;
  const size_t column_tiles = round_up(n, AMX_S8_COLUMNS) / 16;
  memset(packed, 0, amx_s8_packed_size(n, k));
  for (size_t t = 0; t < column_tiles; ++t)
    for (size_t s = 0; s < steps; ++s) {
      int8_t* tile = packed + (t * steps + s) * AMX_S8_TILE_BYTES;
      for (size_t r = 0; r < 16; ++r)
        for (size_t e = 0; e < 4; ++e) {
          const size_t kk = s * AMX_S8_DEPTH + 4 * r + e;
          for (size_t c = 0; c < 16 && kk < k && t * 16 + c < n; ++c) tile[r * 64 + c * 4 + e] = b[kk * ldb + t * 16 + c];
        }
    }
}

/* Every tile 16 rows of 64 bytes: C in 0-3, A in 4-5, B in 6-7. A constant, not built
 * on the stack: GCC 12 does not see ldtilecfg read its operand (GCC PR 114098), and
 * dropped the stores of such a local in one build (the instruction then faults). */
typedef struct {
  uint8_t palette, start_row, reserved[14];
  uint16_t bytes_per_row[16];
  uint8_t rows[16];
} __attribute__((packed, aligned(64))) amx_tile_config_t;

static const amx_tile_config_t AMX_TILES = {
    .palette = 1,
    .bytes_per_row = {64, 64, 64, 64, 64, 64, 64, 64},
    .rows = {16, 16, 16, 16, 16, 16, 16, 16},
};

AMX_S8_TARGET static void amx_s8_configure(void) { _tile_loadconfig(&AMX_TILES); }

/* B's tiles are fetched AMX_S8_PREFETCH_STEPS steps ahead: a tile load from memory
 * stalls the products behind it, and the packed weight of a model's matmul is in
 * memory or far in L3 when its call starts (each matmul's weight once per call). Past
 * a block's last step, the first tile's lines are its second 16 columns' (already read)
 * and the second's are the next block's first tiles; past the packed weight's end,
 * nothing (a prefetch never faults). Interleaved in one process, 8 to 12
 * rounds (Intel Xeon model 207, 2 threads): BERT-base s128 int8 35.3 -> 32.9 ms, ViT-B/16
 * 51.7 -> 47.8, GPT-2 s128 54.1 -> 49.0 in hours when other tenants held the L3, and
 * no change (19.3 against 19.2 ms) when BERT's weights stayed there. One step ahead
 * and four did the same as two. */
enum { AMX_S8_PREFETCH_STEPS = 2 };

AMX_S8_TARGET static inline void amx_s8_prefetch(const int8_t* tile, size_t b_step) {
  for (size_t line = 0; line < 16; ++line) {
    _mm_prefetch((const char*)tile + 64 * line, _MM_HINT_T0);
    _mm_prefetch((const char*)tile + b_step + 64 * line, _MM_HINT_T0);
  }
}

/* C (rows ldc int32 apart) = A B for 32 rows of A from `a` and the 32 columns whose tiles
 * start at `b` (the second 16's `b_step` bytes on), over `steps` steps of 64 k. Tiles are
 * not renamed: a load waits for the products that read its tile before. Each load comes
 * just before the first product that needs it, so the next step's first loads overlap
 * this step's last products (128x768x384 on one thread: 1555 -> 1665 GMAC/s, Intel Xeon;
 * all four loads first, as before, serialized loads and products). */
AMX_S8_TARGET static void amx_s8_block(const int8_t* a, size_t lda, const int8_t* b, size_t b_step, size_t steps,
                                       int32_t* c, size_t ldc) {
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (size_t s = 0; s < steps; ++s) {
    amx_s8_prefetch(b + (s + AMX_S8_PREFETCH_STEPS) * AMX_S8_TILE_BYTES, b_step);
    _tile_loadd(4, a + s * AMX_S8_DEPTH, lda);
    _tile_loadd(6, b + s * AMX_S8_TILE_BYTES, 64);
    _tile_dpbssd(0, 4, 6);
    _tile_loadd(7, b + b_step + s * AMX_S8_TILE_BYTES, 64);
    _tile_dpbssd(1, 4, 7);
    _tile_loadd(5, a + 16 * lda + s * AMX_S8_DEPTH, lda);
    _tile_dpbssd(2, 5, 6);
    _tile_dpbssd(3, 5, 7);
  }
  const size_t row_bytes = ldc * sizeof(int32_t);
  _tile_stored(0, c, row_bytes);
  _tile_stored(1, c + 16, row_bytes);
  _tile_stored(2, c + 16 * ldc, row_bytes);
  _tile_stored(3, c + 16 * ldc + 16, row_bytes);
}

/* C = A B for 32 rows of A from `a` and columns [j, j + count) of `packed` (j a multiple
 * of 32), into c (32 rows of ldc int32, the columns from c[0]). The caller configures
 * the tiles (amx_s8_configure) and releases them (amx_s8_release). */
AMX_S8_TARGET static void amx_s8_columns(const int8_t* a, size_t lda, const int8_t* packed, size_t j, size_t count,
                                         size_t k, int32_t* c, size_t ldc) {
  const size_t steps = round_up(k, AMX_S8_DEPTH) / AMX_S8_DEPTH;
  const size_t tile_column = steps * AMX_S8_TILE_BYTES; /* bytes between 16-column tiles */
  for (size_t jj = 0; jj < count; jj += AMX_S8_COLUMNS)
    amx_s8_block(a, lda, packed + ((j + jj) / 16) * tile_column, tile_column, steps, c + jj, ldc);
}

/* Gives the tile state back, so that the thread's context switches save no AMX state. */
AMX_S8_TARGET static void amx_s8_release(void) { _tile_release(); }

#endif  // MLC_AMX_S8_H_
