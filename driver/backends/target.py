"""The target interface: a way from linalg on tensors to something that runs.

A `Target` is what a back end declares once (IREE's llvm-cpu, vulkan-spirv and cuda in
iree.py, mlir-cpu in jit.py): how it compiles, how it loads, what it needs, and how
the graph passes must treat it. A compilation binds it to the user's options once
(`Target.bind`): the options are checked there, and every later stage asks the
`BoundTarget`, never the registry or the target's name again.
"""

import dataclasses
import types
from collections.abc import Callable, Mapping

from ...errors import UserError

# Options every target takes: promises about the inputs the caller will pass, which a
# target may use to do less work and may ignore. `zero-masked-tail`: an attention's keys
# and values past the last key its queries attend to are zeros (mlc.generator's caches),
# used where attention runs on mlc's matmul plugin (llvm-cpu: mlc-form-attention).
PROMISES = ("zero-masked-tail",)


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    description: str
    needs: str  # what running it needs, for --list-targets
    compile: Callable[..., bytes]  # (linalg module, target options, ExecutableCache or None) -> artifact
    load: Callable[..., Callable]  # (artifact, parameters=None, driver=None) -> function of numpy arrays
    can_run: Callable[[], tuple[bool, str]]  # (whether this machine can run it, why not)
    is_iree: bool = True  # the artifact is a .vmfb (dispatch counts, iree-run-module)
    options: tuple[str, ...] = ()  # target options it accepts, e.g. ("cuda-sm",)
    check_values: Callable[[Mapping], None] | None = None  # raises UserError on a bad option value
    dispatch_regions: bool = True  # takes mlc's fusion groups as IREE dispatch regions
    external_params: bool = False  # can keep large weights in an IREE parameter archive (load(artifact, parameters=path))
    runs_alone: tuple[str, ...] = ()  # mlc ops its compiler takes only in a dispatch of their own (mlc-fuse{isolate})
    split_reductions_alone: bool = False  # reductions over axes not in one run fuse with nothing (mlc-fuse's option)
    grouped_convolutions_alone: bool = False  # grouped, not depthwise, convolutions fuse with nothing (mlc-fuse's option)
    matmuls_take_no_producers: bool = False  # a matmul's group takes none of its producers (mlc-fuse's option)
    guard_broadcast_reads: bool = False  # mlc-guard-reduction-rereads{broadcasts}: IREE's SPIR-V and CPU code
    left_outside: tuple[str, ...] = ()  # mlc ops left out of every group, for IREE to place (mlc-fuse{outside})
    # Whether, given the options, a single int8 row runs whole (mlc-quantize-int8{whole-rows})
    quantized_rows: Callable[[Mapping], bool] | None = None
    # Whether, given the options, int8 matmuls of several rows run whole too (mlc-quantize-int8{whole-matrices})
    quantized_matrices: Callable[[Mapping], bool] | None = None
    # int8 weights multiply bf16 activations (mlc-quantize-int8{weight-only}): bf16 products
    # are fast there and int8 ones are not
    int8_weights_only: bool = False
    # Whether, given the options, attention and LayerNorm run on mlc's matmul plugin
    # (mlc-form-attention{library}, mlc-library-layer-norms)
    ops_on_library: Callable[[Mapping], bool] | None = None
    # Given the options, the most output pixels of a convolution run as im2col + matmul
    # (mlc-conv-to-matmul{max-pixels}); None: the pass's default
    conv_matmul_pixels: Callable[[Mapping], int | None] | None = None
    # Passes of its own on the lowered module, chosen from it and the target options, and
    # what to report of the choice (its `runtime_driver`, where it decides the driver):
    # (linalg module, options, weights inside the executable, the model's matmul FLOPs)
    # -> (pipeline elements, Report fields)
    target_passes: Callable[..., tuple[list[str], dict]] | None = None
    flags: tuple[str, ...] = ()  # iree-compile's flags for it (IREE targets)
    # The runtime driver for a model of this many matmul FLOPs (None: unknown), given the
    # options; None for a target that has no runtime drivers to choose from.
    runtime_driver: Callable[[float | None, Mapping], str] | None = None
    profiles: bool = False  # IREE's CPU profiler can time its dispatches (Compiled.profile)
    # load's function keeps results in IREE's memory on request (`keep=`) and takes them back
    # as inputs (Compiled.run_resident); its `.read` copies one to a numpy array
    keeps_results: bool = False
    # The `precision`s it computes right (pipelines.PRECISIONS): each narrow one is checked
    # against f32 eager on the target before it is listed here.
    precisions: tuple[str, ...] = ("f32",)

    def bind(self, options: Mapping | None = None) -> "BoundTarget":
        """This target with `options` checked, for one compilation."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options) - set(PROMISES))
        if unknown:
            accepted = ", ".join(self.options) or "none"
            raise UserError(f"target '{self.name}' has no option {', '.join(map(repr, unknown))} (options: {accepted})")
        for promise in PROMISES:
            if not isinstance(options.get(promise, False), bool):
                raise UserError(f"target '{self.name}': {promise} must be true or false, got {options[promise]!r}")
        if self.check_values is not None:
            self.check_values(options)
        return BoundTarget(self, types.MappingProxyType(options))

@dataclasses.dataclass(frozen=True)
class BoundTarget:
    """A target and the options of one compilation, checked. It answers for the target
    (`bound.runs_alone`, `bound.is_iree`, ...) and does what needs the options."""

    target: Target
    options: Mapping

    def __getattr__(self, name):  # the target's own fields: name, is_iree, runs_alone, ...
        return getattr(self.target, name)

    @property
    def whole_quantized_rows(self) -> bool:
        """Whether a single int8 row runs whole here (mlc-quantize-int8{whole-rows})."""
        return self.target.quantized_rows is not None and self.target.quantized_rows(self.options)

    @property
    def whole_quantized_matrices(self) -> bool:
        """Whether int8 matmuls of several rows run whole here too (mlc-quantize-int8{whole-matrices})."""
        return self.target.quantized_matrices is not None and self.target.quantized_matrices(self.options)

    @property
    def library_ops(self) -> bool:
        """Whether attention and LayerNorm run whole on mlc's matmul plugin here
        (mlc-form-attention{library}, mlc-library-layer-norms)."""
        return self.target.ops_on_library is not None and self.target.ops_on_library(self.options)

    @property
    def zero_masked_tail(self) -> bool:
        """Whether the caller promises that the keys and values past the last key an
        attention's queries attend to are zeros (the `zero-masked-tail` promise, which
        mlc.generator makes for its caches: mlc-form-attention{zero-masked-tail})."""
        return bool(self.options.get("zero-masked-tail", False))

    @property
    def conv_matmul_pixels(self) -> int | None:
        """The most output pixels of a convolution run as im2col + matmul here; None: the pass's default."""
        return None if self.target.conv_matmul_pixels is None else self.target.conv_matmul_pixels(self.options)

    def compile(self, module, cache=None) -> bytes:
        return self.target.compile(module, dict(self.options), cache)

    def passes(self, module, weights_fixed: bool = True, flops: float | None = None) -> tuple[list[str], dict]:
        """The target's own passes on the lowered module, and what to report of them.
        `weights_fixed`: the executable runs with the module's weight values (inside it,
        or in a WeightStore, keyed by their bytes), not an archive of the user's, which
        could be swapped for another after compiling; `flops`: the model's matmul and
        convolution work (None: unknown)."""
        if self.target.target_passes is None:
            return [], {}
        return self.target.target_passes(module, dict(self.options), weights_fixed, flops)

    def driver_for(self, flops: float | None) -> str | None:
        """The runtime driver that runs a model of `flops` best (IREE targets)."""
        return None if self.target.runtime_driver is None else self.target.runtime_driver(flops, self.options)

    def load(self, artifact: bytes, parameters=None, driver=None):
        """The artifact's `main` as a function of numpy arrays."""
        return self.target.load(artifact, parameters=parameters, driver=driver)
