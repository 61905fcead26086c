"""The optimization levels: named pipelines from mlc's graph to linalg.

    O0  lowering only
    O1  + constant folding and algebraic simplification
    O2  + BatchNorm folding, NHWC layout and fusion into IREE dispatches (default)

`get("O2")` returns a fresh `Pipeline` whose graph passes can be listed,
dropped, reordered and extended from Python, with pass names, pipeline text or
the user's own `Pass` instances.
"""

import dataclasses
from typing import Protocol

from ..errors import UserError
from ..passes.registry import Pass

LOWERING = ["mlc-lower-to-linalg", "canonicalize", "cse"]
# Fusion groups survive lowering and become IREE dispatch regions.
# An attention on mlc's plugin then writes its rows where a transpose after it puts them.
LOWERING_WITH_FUSION = ["mlc-lower-to-linalg{keep-fusion-groups=true}", "mlc-form-dispatch-regions",
                        "mlc-attention-output-views", "canonicalize", "cse"]
# For IREE, last: where IREE forms the dispatches, its code for a reduction read through
# two maps in one dispatch is wrong (passes/guard_reduction_rereads.py), and a one-element
# slice reshaped past its source's rank (passes/guard_unit_slices.py) and a computed value
# padded twice by two values (passes/guard_nested_pads.py) fail to compile.
FOR_IREE = ["mlc-guard-reduction-rereads", "mlc-guard-unit-slices", "mlc-guard-nested-pads"]

# What matmuls multiply in: f32 as the model, bf16 summing in f32, or int8 summing in
# int32 (opt-in).
PRECISIONS = ("f32", "bf16", "int8")
O1_PASSES = ["mlc-fold-constants", "mlc-simplify", "cse"]
O2_PASSES = [
    "mlc-fold-batchnorm",
    "mlc-fold-constants",
    "mlc-matvec-to-reduction",
    "mlc-convert-layout{layout=nhwc}",
    "mlc-conv-to-matmul",
    "mlc-fold-constants",
    "mlc-form-update-slice",
    "mlc-move-row-transposes",
    "mlc-sink-reshapes",
    "mlc-simplify",
    "mlc-form-gelu",
    "cse",
    "mlc-fuse",
]
LEVELS = {
    "O0": ("lowering only", []),
    "O1": ("constant folding and simplification, then lowering", O1_PASSES),
    "O2": ("O1 plus BatchNorm folding, NHWC layout and fusion into IREE dispatches", O2_PASSES),
}


class TargetTraits(Protocol):
    """What a pipeline asks of the target it compiles for (the driver's bound target)."""

    runs_alone: tuple[str, ...]  # mlc ops its compiler takes only in a dispatch of their own
    split_reductions_alone: bool  # a reduction over axes not in one run takes no producer into its group
    grouped_convolutions_alone: bool  # a grouped convolution, not depthwise, takes no consumer into its group
    matmuls_take_no_producers: bool  # a matmul's group takes none of its producers (IREE's data tiling)
    guard_broadcast_reads: bool  # a reduction's value read broadcast goes through a barrier (mlc-guard-reduction-rereads)
    left_outside: tuple[str, ...]  # mlc ops it wants outside every fusion group
    dispatch_regions: bool  # it takes fusion groups as IREE dispatch regions
    whole_quantized_rows: bool  # a single int8 row runs whole (mlc-quantize-int8{whole-rows})
    whole_quantized_matrices: bool  # int8 matmuls of several rows too (mlc-quantize-int8{whole-matrices})
    int8_weights_only: bool  # int8 weights multiply bf16 activations (mlc-quantize-int8{weight-only})
    library_ops: bool  # attention and LayerNorm run whole on mlc's matmul plugin
    zero_masked_tail: bool  # attention's keys past the last one attended to are zeros (mlc-form-attention's option)
    conv_matmul_pixels: int | None  # mlc-conv-to-matmul's max-pixels for its CPU (None: the pass's default)


def _element_name(element) -> str:
    return element.name if isinstance(element, Pass) else element.split("{")[0].split("(")[0].strip()


@dataclasses.dataclass
class Pipeline:
    """A named list of graph passes, followed by the lowering to linalg."""

    name: str
    description: str
    passes: list  # pipeline text elements ("mlc-fuse", "func.func(cse)") or Pass instances
    left_outside: tuple[str, ...] = ()  # mlc ops mlc-fuse leaves outside every group, beside the target's

    def names(self, target: TargetTraits | None = None) -> list[str]:
        """The pass names, graph passes then lowering, in order."""
        return [_element_name(e) for e in self.passes + self.lowering(target)]

    def graph_passes(self, target: TargetTraits | None = None) -> list:
        """The graph passes for `target`: `mlc-fuse` given the ops the target compiles only
        alone (`runs_alone`) and those it wants outside any group (`left_outside`),
        unless the pipeline set them itself; `mlc-quantize-int8` with whole rows where
        the target runs them so (`whole_quantized_rows`), and matrices too
        (`whole_quantized_matrices`), or with bf16 activations where int8 products are
        slow (`int8_weights_only`); `mlc-form-attention{library}`,
        `mlc-move-row-transposes{into-attention}`, `mlc-attention-views` and
        `mlc-library-layer-norms` before the fusion where attention and LayerNorm run on
        mlc's matmul plugin (`library_ops`; with `zero-masked-tail` where the caller
        promised it: `zero_masked_tail`; with `bf16-products` at int8), and
        `mlc-matvec-to-reduction` after them; `mlc-conv-to-matmul` with the target's
        `max-pixels` where it has its own (`conv_matmul_pixels`), unless the pipeline
        set one."""
        passes = list(self.passes)
        pixels = getattr(target, "conv_matmul_pixels", None) if target is not None else None
        if pixels is not None:
            passes = [f"mlc-conv-to-matmul{{max-pixels={pixels}}}" if e == "mlc-conv-to-matmul" else e for e in passes]
        # Asked only at int8: the answer builds the matmul plugin.
        if target is not None and "mlc-quantize-int8" in passes:
            whole = getattr(target, "whole_quantized_rows", False)
            quantize = (["whole-rows=true"] * whole
                        + ["whole-matrices=true"] * (whole and getattr(target, "whole_quantized_matrices", False))
                        + ["weight-only=true"] * getattr(target, "int8_weights_only", False))
            if quantize:
                passes = [f"mlc-quantize-int8{{{' '.join(quantize)}}}" if e == "mlc-quantize-int8" else e
                          for e in passes]
        if target is not None and getattr(target, "library_ops", False) and "mlc-fuse" in passes:
            # A decode step's attention multiplies one query row by the key cache: as a
            # matvec it would already be a sum (mlc-matvec-to-reduction), and no attention.
            later = [e for e in passes if _element_name(e) == "mlc-matvec-to-reduction"]
            passes = [e for e in passes if _element_name(e) != "mlc-matvec-to-reduction"]
            at = passes.index("mlc-fuse")
            form = "mlc-form-attention{library=true" + " zero-masked-tail=true" * getattr(target, "zero_masked_tail", False)
            # At int8 the attentions multiply bf16: the int8 rows before them err far more.
            form += " bf16-products=true" * any(_element_name(e) == "mlc-quantize-int8" for e in passes)
            passes[at:at] = [form + "}", "mlc-move-row-transposes{into-attention=true}",
                             "mlc-attention-views", "mlc-library-layer-norms", *later]
        runs_alone, left_outside = (target.runs_alone, target.left_outside) if target is not None else ((), ())
        left_outside = tuple(dict.fromkeys(left_outside + self.left_outside))
        options = [f"isolate={','.join(runs_alone)}"] * bool(runs_alone) + [f"outside={','.join(left_outside)}"] * bool(left_outside)
        if target is not None and target.split_reductions_alone:
            options.append("split-reductions-alone=true")
        if target is not None and getattr(target, "grouped_convolutions_alone", False):
            options.append("grouped-convolutions-alone=true")
        if target is not None and getattr(target, "matmuls_take_no_producers", False):
            options.append("matmuls-take-no-producers=true")
        if not options:
            return passes
        return [f"mlc-fuse{{{' '.join(options)}}}" if e == "mlc-fuse" else e for e in passes]

    def lowering(self, target: TargetTraits | None = None) -> list[str]:
        """The lowering to linalg; fusion groups become IREE dispatch regions when
        `target` takes them (as IREE's do), and are inlined otherwise."""
        fused = any(_element_name(e) == "mlc-fuse" for e in self.passes)
        dispatch_regions = target is None or target.dispatch_regions
        lowering = LOWERING_WITH_FUSION if fused and dispatch_regions else LOWERING
        if not dispatch_regions:
            return lowering
        if target is not None and target.guard_broadcast_reads:
            return lowering + ["mlc-guard-reduction-rereads{broadcasts=true}", *FOR_IREE[1:]]
        return lowering + FOR_IREE

    def with_precision(self, precision: str) -> "Pipeline":
        """This pipeline computing its matmuls in `precision` ("f32": as it is; "bf16":
        mlc-reduce-precision before the last constant folding, which folds the casts of
        the weights, or last where the pipeline folds nothing; "int8": mlc-quantize-int8
        after the last constant folding, which makes the weights constants, and before
        the fusion, after mlc-merge-sibling-matmuls: a merged single row runs whole on
        the plugin's int8 row kernel, and merged prompt rows are quantized once for
        their siblings, where at f32 and bf16 its new shape is
        matmul_choice's to place, which measured Llama's merged bf16 gate and up on
        IREE's kernel within its margin, 8.52 against 7.45 ms per token unmerged)."""
        if precision not in PRECISIONS:
            raise UserError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
        if precision == "f32":
            return self
        names = [_element_name(e) for e in self.passes]
        last_fold = len(names) - 1 - names[::-1].index("mlc-fold-constants") if "mlc-fold-constants" in names else None
        if precision == "int8":
            if last_fold is None:
                raise UserError(f"precision 'int8' quantizes constant weights, which pipeline {self.name} does not "
                                "fold: use -O1 or -O2")
            at = names.index("mlc-fuse") if "mlc-fuse" in names else len(names)
            passes = self.passes[:at] + ["mlc-merge-sibling-matmuls", "mlc-quantize-int8"] + self.passes[at:]
        else:
            at = last_fold if last_fold is not None else len(names)
            passes = self.passes[:at] + [f"mlc-reduce-precision{{type={precision}}}"] + self.passes[at:]
        # IREE 3.13 packs a bf16 matmul for its microkernel (data tiling) only in a dispatch
        # it forms itself, not in mlc's regions: there it ran 2x slower than f32 (README, Precision).
        return Pipeline(self.name, f"{self.description}; matmuls in {precision}", passes,
                        tuple(dict.fromkeys(self.left_outside + ("matmul",))))

    def drop(self, name: str) -> "Pipeline":
        """Removes every graph pass called `name`."""
        if not any(_element_name(e) == name for e in self.passes):
            raise UserError(f"pipeline {self.name} has no pass '{name}' (its passes: {', '.join(self.names())})")
        self.passes = [e for e in self.passes if _element_name(e) != name]
        return self

    def insert(self, index: int, element) -> "Pipeline":
        self.passes.insert(index, element)
        return self

    def append(self, element) -> "Pipeline":
        self.passes.append(element)
        return self

    def move(self, name: str, index: int) -> "Pipeline":
        """Moves the first pass called `name` to position `index`."""
        position = next((i for i, e in enumerate(self.passes) if _element_name(e) == name), None)
        if position is None:
            raise UserError(f"pipeline {self.name} has no pass '{name}'")
        self.passes.insert(index, self.passes.pop(position))
        return self

    def text(self) -> str:
        """The whole pipeline as MLIR pipeline text (Pass instances with their options)."""
        return "builtin.module(" + ", ".join(
            e.text() if isinstance(e, Pass) else e for e in self.passes + self.lowering()
        ) + ")"


def get(name: str) -> Pipeline:
    """A fresh copy of a named pipeline: "O0", "O1" or "O2"."""
    name = name.upper() if name.lower() in ("o0", "o1", "o2") else name
    if name not in LEVELS:
        raise UserError(f"unknown pipeline '{name}' (known: {', '.join(LEVELS)})")
    description, passes = LEVELS[name]
    return Pipeline(name, description, list(passes))


def describe() -> str:
    """What `mlc-opt --list-pipelines` prints."""
    lines = []
    for name in LEVELS:
        pipeline = get(name)
        lines.append(f"{name}: {pipeline.description}")
        lines.append(f"    {pipeline.text()}")
    return "\n".join(lines)
