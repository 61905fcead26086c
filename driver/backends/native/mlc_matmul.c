/* mlc's matmul library: an IREE system executable plugin whose one import,
 * `mlc_sgemm`, runs a block of rows of an f32 matmul on MKL's sequential sgemm.
 *
 * mlc's `mlc-library-matmuls` pass emits the calls: each of a dispatch's workgroups
 * passes its rows of A and C (`iree_codegen.ukernel.generic`, strides of the outer
 * dimension only), so IREE's worker threads share the matmul and MKL runs one
 * thread per call. Load it with `--executable_plugin=libmlc_matmul.so`. */

#include <mkl_cblas.h>
#include <string.h>

#include "iree_executable_plugin.h"

/* The parameters IREE packs for `mlc_sgemm`: each buffer as (base, offset in
 * elements, stride of its outer dimension), then the other operands in order. */
typedef struct {
  const float* a;
  size_t a_offset, a_stride;
  const float* b;
  size_t b_offset, b_stride;
  float* c;
  size_t c_offset, c_stride;
  size_t m, n, k;
} mlc_sgemm_params_t;

static int mlc_sgemm(void* params_ptr, void* context, void* reserved) {
  (void)context;
  (void)reserved;
  const mlc_sgemm_params_t* p = (const mlc_sgemm_params_t*)params_ptr;
  if (p->m == 0 || p->n == 0) return 0;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (MKL_INT)p->m, (MKL_INT)p->n, (MKL_INT)p->k, 1.0f,
              p->a + p->a_offset, (MKL_INT)p->a_stride, p->b + p->b_offset, (MKL_INT)p->b_stride, 0.0f,
              p->c + p->c_offset, (MKL_INT)p->c_stride);
  return 0;
}

static iree_plugin_status_t plugin_load(const iree_plugin_environment_t* environment, size_t param_count,
                                        const iree_plugin_string_pair_t* params, void** out_self) {
  (void)environment;
  (void)param_count;
  (void)params;
  *out_self = NULL;  /* stateless */
  return (iree_plugin_status_t)(uintptr_t)IREE_PLUGIN_STATUS_OK;
}

static void plugin_unload(void* self) { (void)self; }

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
    if (strcmp(name, "mlc_sgemm") == 0) {
      params->out_fn_ptrs[i] = (void*)(iree_plugin_import_fn_t)mlc_sgemm;
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
      IREE_PLUGIN_VERSION_0_1, "mlc_matmul", "mlc: f32 matmuls on MKL (driver/backends/native/mlc_matmul.c)", 0, 0, {0}};
  static const iree_plugin_v0_t plugin = {&header, plugin_load, plugin_unload, plugin_resolve};
  return max_version >= IREE_PLUGIN_VERSION_0_1 ? (const iree_plugin_header_t**)&plugin : NULL;
}
