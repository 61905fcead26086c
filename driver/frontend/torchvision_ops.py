"""torchvision and transformers importable beside the CPU torch wheel.

The only torchvision 0.28 wheel on the package indexes is built against the CUDA
torch, so its C++ ops (`torchvision/_C.so`) do not load beside mlc's CPU torch.
torchvision expects that (its models and transforms are plain Python; `nms`,
`roi_align` and the other C++ ops then raise "Couldn't load custom C++ ops"), except
in one place: `_meta_registrations` registers fake kernels for `torchvision::nms` and
`torchvision::qnms` without checking, and that fails at import ("operator
torchvision::nms does not exist"), which breaks `import torchvision` and, through
it, `import transformers`.

`install()` adds an import hook that, once torchvision has tried its C++ ops and
failed, declares the schemas of those two ops before `_meta_registrations` runs. It
imports nothing until torchvision is imported, so it is cheap at start-up: mlc's
`.venv` runs it in every interpreter (`mlc_torchvision.pth`, written by `make venv`),
and `import mlc` runs it for an mlc installed elsewhere.
"""

import importlib.abc
import sys

_OPS_WITHOUT_CHECK = {
    "nms": "nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
    "qnms": "qnms(Tensor qdets, Tensor scores, float iou_threshold) -> Tensor",
}
_declared = []  # the torch.library.Library holding the schemas; they live as long as it does


class _DeclareBeforeMetaRegistrations(importlib.abc.MetaPathFinder):
    """Finds nothing itself: it only acts when `torchvision._meta_registrations` is looked up."""

    def find_spec(self, name, path=None, target=None):
        if name == "torchvision._meta_registrations" and not _declared:
            _declare_unless_loaded()
        return None


def _declare_unless_loaded() -> None:
    import torch
    import torchvision.extension

    if torchvision.extension._has_ops():  # a torchvision built for this torch: nothing to do
        return
    library = torch.library.Library("torchvision", "FRAGMENT")
    for schema in _OPS_WITHOUT_CHECK.values():
        library.define(schema)
    _declared.append(library)


def install() -> None:
    """Adds the hook once (idempotent: the .pth and `import mlc` may both call it)."""
    if not any(isinstance(finder, _DeclareBeforeMetaRegistrations) for finder in sys.meta_path):
        sys.meta_path.insert(0, _DeclareBeforeMetaRegistrations())
