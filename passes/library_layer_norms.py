"""`mlc-library-layer-norms`: LayerNorms run on mlc's matmul plugin (`library`).

A transformer's LayerNorms sit between library calls. The executable then runs on
IREE's local-sync driver, since the plugin carries the heavy work on its own threads,
so IREE ran each LayerNorm on the calling thread alone, in three passes over memory:
70 us for BERT-base's 128x768 rows (Intel Xeon, AVX-512, 2 cores), and 120 at int8,
where the output projection's bias and residual add joined it. On the plugin
(driver/backends/native/mlc_layer_norm.h) the rows are shared among the plugin's
threads and each is read three times from L1: 21 us. As a dispatch of its own
(`library` declines fusion), the adds before it become an epilogue, which the matmul's
library call takes (mlc-library-matmuls{epilogues}).

Marked: each mlc.layer_norm of f32 and static shape with at least one dimension
normalized and one not (rows of the normalized ones). Runs before `mlc-fuse`, for
targets with the plugin.
"""

from torch_mlir import ir

from ..dialects.normalization_ops import LayerNormOp
from ..dialects.op_base import bool_attr, int_attr, normalize_axis
from .graph import ops_of
from .registry import Pass, register


def _runs_on_library(op: LayerNormOp) -> bool:
    input_type = op.input.type
    if str(input_type.element_type) != "f32" or not input_type.has_static_shape or input_type.rank < 2:
        return False
    return normalize_axis(int_attr(op, "axis"), input_type.rank) > 0


@register
class LibraryLayerNorms(Pass):
    """Marks f32 LayerNorms of static shape to run on mlc's matmul plugin (`library`)."""

    name = "mlc-library-layer-norms"

    def run(self, module):
        for op in ops_of(module, LayerNormOp):
            if bool_attr(op, "library"):
                continue
            if _runs_on_library(op):
                op.attributes["library"] = ir.BoolAttr.get(True)
                self.count("layer norms on the library")
            else:
                self.count("layer norms left to IREE")
