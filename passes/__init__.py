"""How the IR changes: mlc's passes, each in its own module, and their registry."""

# Importing a pass's module registers the pass, and the lowerings and folders it defines
# (op_registry.py). Python runs this file before any module of the package, so the
# registry's tables are full before anyone (a pass, graph.folds_to_constant) asks, and
# the registry needs to import no pass: asking it makes no import circle.
from . import (  # noqa: F401
    attention_output_views,
    attention_views,
    bufferize,
    conv_tiles,
    conv_to_matmul,
    convert_layout,
    convert_torch_to_mlc,
    decompose_linalg,
    fold_batchnorm,
    fold_constants,
    form_attention,
    form_dispatch_regions,
    form_gelu,
    form_update_slice,
    fuse,
    guard_nested_pads,
    guard_reduction_rereads,
    guard_unit_slices,
    library_layer_norms,
    library_matmuls,
    lower_linalg_to_affine,
    lower_to_linalg,
    lower_to_llvm,
    lower_torch_fallback,
    matvec_to_reduction,
    merge_sibling_matmuls,
    move_row_transposes,
    outline_library_dispatches,
    quantize_int8,
    reduce_precision,
    simplify,
    sink_reshapes,
    vectorize,
)
from .registry import PASSES, Pass, PassFailure, create, register

__all__ = ["PASSES", "Pass", "PassFailure", "create", "register"]
