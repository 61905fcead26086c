/* The part of IREE's executable plugin ABI (version 0.1) that mlc's plugin uses.
 *
 * IREE's runtime wheel does not ship its header
 * (runtime/src/iree/hal/local/executable_plugin.h). The ABI is a small, versioned C
 * interface; these declarations follow its documented layout field by field. */

#ifndef MLC_IREE_EXECUTABLE_PLUGIN_H_
#define MLC_IREE_EXECUTABLE_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#define IREE_PLUGIN_VERSION_0_1 0x00000001u
#define IREE_PLUGIN_STATUS_OK 0
#define IREE_PLUGIN_STATUS_NOT_FOUND 5
#define IREE_PLUGIN_RESOLUTION_MISSING_OPTIONAL 1u

typedef struct iree_status_handle_t* iree_plugin_status_t;  /* a status code, or a pointer */

typedef struct {
  uint32_t version;
  const char* name;
  const char* description;
  uint32_t features;   /* 0: a system plugin, which may call any library */
  int32_t sanitizer;   /* 0: built without a sanitizer */
  uint64_t reserved[8];
} iree_plugin_header_t;

typedef struct {
  void* self;
  iree_plugin_status_t (*ctl)(void* self, int command, const void* params, void** inout_ptr);
} iree_plugin_allocator_t;

typedef struct {
  iree_plugin_allocator_t host_allocator;
} iree_plugin_environment_t;

typedef struct {
  const char* data;
  size_t size;
} iree_plugin_string_view_t;

typedef struct {
  iree_plugin_string_view_t key;
  iree_plugin_string_view_t value;
} iree_plugin_string_pair_t;

typedef struct {
  size_t count;
  const char* const* symbol_names;  /* an optional import's name starts with '?' */
  void** out_fn_ptrs;
  void** out_fn_contexts;
} iree_plugin_resolve_params_t;

/* An import's signature: its parameters struct, the context resolve gave it, reserved. */
typedef int (*iree_plugin_import_fn_t)(void* params, void* context, void* reserved);

typedef struct {
  const iree_plugin_header_t* header;
  iree_plugin_status_t (*load)(const iree_plugin_environment_t* environment, size_t param_count,
                               const iree_plugin_string_pair_t* params, void** out_self);
  void (*unload)(void* self);
  iree_plugin_status_t (*resolve)(void* self, const iree_plugin_resolve_params_t* params,
                                  uint32_t* out_resolution);
} iree_plugin_v0_t;

#endif  /* MLC_IREE_EXECUTABLE_PLUGIN_H_ */
