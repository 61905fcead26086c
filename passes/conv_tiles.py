"""`mlc-conv-tiles`: IREE's tile sizes for each direct convolution, set by mlc where IREE's
own choice is slow: on x86 CPUs with AVX2 but not AVX-512.

IREE 3.13 gives a `linalg.conv_2d_nhwc_hwcf` of 8 or more input channels vector tiles of
4 output pixels by 4 output channels there: half of an 8-lane register, so each multiply
fills half a vector. Set through `iree_codegen.compilation_info` on the op (which IREE
takes in place of its heuristics), tiles of full registers ran, on an Intel Xeon compiling
for x86-64-v3:

  - ResNet-18 at 224x224, every 3x3 convolution at 4 pixels by 16 channels (two registers):
    77-82 ms -> 43-44; 8 pixels by 8 channels took 62.
  - the CNN of `benchmarks/compare.py` (16 and 32 channels), 8 pixels by 8 channels:
    7.4-8.6 ms -> 2.9; 4 by 16 took 4.0.

So: 4 pixels by 16 channels where a convolution has at least MIN_WIDE_CHANNELS output
channels, else 8 pixels by 8; eight accumulator registers either way, of AVX2's sixteen.
The work each workgroup takes (IREE's `distribution` level) is what IREE chose for a
single image: 4 rows of output, at most 64 output channels; of one image at a time where
the batch has several (IREE gave the CNN's batch of 8 whole images: 4.18-4.26 ms, against
3.83-4.11 in rows of 4, and a small batch of large images would keep few cores busy).
A convolution whose output width or channels the vector tile does not divide keeps
IREE's choice: a tile of 6 pixels by 16 channels over rows of 64 ran the CNN 5x slower.
The sweeps above were by hand (`iree_codegen.compilation_info` in the linalg module,
`iree-benchmark-module`); `benchmarks/conv_tiles.py` measures the pass through mlc.
"""

from torch_mlir import ir

from .registry import Pass, register

CONV = "linalg.conv_2d_nhwc_hwcf"
MIN_INPUT_CHANNELS = 8  # IREE already tiles a stem of 3 input channels at 8 by 8
MIN_WIDE_CHANNELS = 64
CHANNELS_PER_WORKGROUP = 64
ROWS_PER_WORKGROUP = 4
REDUCTION_CHANNELS = 8


def vector_tile(width: int, channels: int) -> tuple[int, int] | None:
    """(output pixels, output channels) of the vector tile for an output of `width`
    pixels per row and `channels` channels; None where no tile of full registers divides."""
    pixels, lanes = (4, 16) if channels >= MIN_WIDE_CHANNELS and channels % 16 == 0 else (8, 8)
    if channels % lanes:
        return None
    while width % pixels:
        pixels //= 2
    return (pixels, lanes) if pixels >= 2 else None


def compilation_info(output_shape: list[int], input_channels: int) -> str | None:
    """IREE's compilation info for a convolution of this NHWC output, or None to keep IREE's."""
    batch, rows, width, channels = output_shape
    tile = vector_tile(width, channels)
    if tile is None or input_channels < MIN_INPUT_CHANNELS or input_channels % REDUCTION_CHANNELS:
        return None
    pixels, lanes = tile
    distribution = [1 if batch > 1 else 0, min(ROWS_PER_WORKGROUP, rows), width,
                    min(channels, CHANNELS_PER_WORKGROUP), 0, 0, 0]
    return ("#iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<"
            f"distribution = {distribution}, vector_common_parallel = [1, 1, {pixels}, {lanes}, 0, 0, 0], "
            f"vector_reduction = [0, 0, 0, 0, 1, 1, {REDUCTION_CHANNELS}]>, translation_info = "
            "#iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<ConvTileAndDecomposeExpert>>>")


def _dilated(op: ir.Operation) -> bool:
    return "dilations" in op.attributes and any(d != 1 for d in ir.DenseIntElementsAttr(op.attributes["dilations"]))


@register
class ConvTiles(Pass):
    """Sets IREE's tile sizes of direct convolutions for x86 CPUs with AVX2 but not AVX-512."""

    name = "mlc-conv-tiles"

    def run(self, module):
        convolutions = []
        module.walk(lambda op: (convolutions.append(op) if op.name == CONV else None) or ir.WalkResult.ADVANCE)
        for op in convolutions:
            output = ir.RankedTensorType(op.results[0].type)
            weight = ir.RankedTensorType(op.operands[1].type)
            if not output.has_static_shape or not weight.has_static_shape or _dilated(op):
                continue
            info = compilation_info(list(output.shape), weight.shape[2])
            if info is None or "compilation_info" in op.attributes:
                continue
            module.context.allow_unregistered_dialects = True  # IREE's attributes, unregistered in mlc's context
            op.attributes["compilation_info"] = ir.Attribute.parse(info)
            self.count("convolutions tiled for AVX2")
