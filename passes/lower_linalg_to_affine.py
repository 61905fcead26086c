"""`mlc-lower-linalg-to-affine`: linalg ops on memrefs become affine loop nests,
tiled so that each tile's data stays in the L1 cache.

Upstream `convert-linalg-to-affine-loops`, then `affine-loop-tile` on every
loop band. The default tile is the largest power of two T for which three T×T
blocks of f32 (a matmul's blocks of A, B and C) fit in `cache-size-kib`:
32 for a 32 KiB L1 (3 · 32² · 4 B = 12 KiB; 64 would need 48 KiB).

`tile-sizes` overrides it, outermost loop first; the last size repeats for
deeper loops (upstream would tile them by 4). Keep tile sizes multiples of
`mlc-vectorize`'s vector size: the vectorizer widens a tile's loop without a
remainder, so a tile of 24 with vectors of 16 writes into the next tile.
"""

import dataclasses

from torch_mlir import ir

from ..errors import UserError
from .registry import Pass, register, run_upstream


def default_tile_size(cache_kib: int, element_bytes: int = 4) -> int:
    """The largest power of two T whose three T×T tiles of `element_bytes` fit in the cache."""
    tile = 1
    while 3 * (2 * tile) ** 2 * element_bytes <= cache_kib * 1024:
        tile *= 2
    return tile


def parse_tile_sizes(text: str) -> list[int]:
    try:
        sizes = [int(size) for size in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise UserError(f"option 'tile-sizes' of pass 'mlc-lower-linalg-to-affine' expects positive integers "
                        f"separated by commas, got '{text}'")
    return sizes


def _deepest_nest(module: ir.Operation) -> int:
    """How many affine.for ops the deepest loop nest has."""
    deepest = 0

    def visit(op):
        nonlocal deepest
        depth, current = 0, op
        while current.name == "affine.for":
            depth, current = depth + 1, current.parent
        deepest = max(deepest, depth)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return deepest


@register
class LowerLinalgToAffine(Pass):
    """Lowers linalg ops on memrefs to affine loop nests tiled for the L1 cache."""

    name = "mlc-lower-linalg-to-affine"
    tile_sizes: str = dataclasses.field(
        default="",
        metadata={"help": "tile sizes, outermost loop first, e.g. 32,32,64; the last repeats (empty: from cache-size-kib)"},
    )
    cache_size_kib: int = dataclasses.field(
        default=32, metadata={"help": "the L1 data cache, in KiB, that the default tile size fits"}
    )

    def __post_init__(self):
        if self.cache_size_kib < 1:
            raise UserError(f"option 'cache-size-kib' of pass '{self.name}' must be positive, got {self.cache_size_kib}")
        _ = self.sizes  # malformed tile sizes are an error when the pipeline is built

    @property
    def sizes(self) -> list[int]:
        return parse_tile_sizes(self.tile_sizes) if self.tile_sizes else [default_tile_size(self.cache_size_kib)]

    def run(self, module: ir.Operation) -> None:
        run_upstream(module, ["func.func(convert-linalg-to-affine-loops)"])
        depth = _deepest_nest(module)
        if depth == 0:
            return
        sizes = (self.sizes + self.sizes[-1:] * depth)[:depth]
        run_upstream(module, [f"func.func(affine-loop-tile{{tile-sizes={','.join(map(str, sizes))}}})"])
