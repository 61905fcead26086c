"""torch's view and shape ops that mlc converts itself (strict mode): diagonal,
diag_embed, outer, pixel_shuffle's collapse/split_dim, slice_scatter, 1-D
reflection/replication padding and unfold, compiled for llvm-cpu with
`allow_fallback=False` and compared with eager (floats to 1e-5, integers exactly).
"""

import pytest
import torch
import torch.nn.functional as F
from conftest import compile_and_compare

pytestmark = pytest.mark.iree


def floats(*shape):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(0))


def ints(*shape):
    return torch.randint(-50, 50, shape, generator=torch.Generator().manual_seed(0))


CASES = {
    "diagonal": (lambda x: torch.diagonal(x), (floats(3, 4),)),
    "diagonal_offset_negative_dims": (lambda x: torch.diagonal(x, 1, -1, 0), (floats(4, 2, 3),)),
    "diagonal_below_int64": (lambda x: torch.diagonal(x, -2, 1, 2), (ints(2, 5, 3),)),
    "trace": (lambda x: torch.trace(x), (floats(4, 4),)),
    "diag_embed": (lambda x: torch.diag_embed(x), (floats(2, 3),)),
    "diag_embed_offset_negative_dims": (lambda x: torch.diag_embed(x, -1, -1, 0), (floats(2, 3),)),
    "diag_vector_offset_int64": (lambda x: torch.diag(x, 2), (ints(3),)),
    "diagflat": (lambda x: torch.diagflat(x, -1), (floats(2, 2),)),
    "outer": (lambda a, b: torch.outer(a, b), (floats(3), floats(4))),
    "outer_int64": (lambda a, b: torch.outer(a, b), (ints(3), ints(2))),
    "pixel_shuffle": (lambda x: F.pixel_shuffle(x, 2), (floats(1, 8, 2, 3),)),
    "pixel_unshuffle_int64": (lambda x: F.pixel_unshuffle(x, 2), (ints(1, 2, 4, 6),)),
    "channel_shuffle": (lambda x: F.channel_shuffle(x, 3), (floats(2, 6, 2, 2),)),
    "slice_scatter_step": (lambda x, s: torch.slice_scatter(x, s, 1, 1, -1, 2), (floats(2, 6), floats(2, 2))),
    "slice_scatter_negative_dim_int64": (lambda x, s: torch.slice_scatter(x, s, -2, 2), (ints(4, 3), ints(2, 3))),
    "select_scatter": (lambda x, s: torch.select_scatter(x, s, 0, -1), (floats(3, 4), floats(4))),
    "reflect_pad1d": (lambda x: F.pad(x, (2, 1), mode="reflect"), (floats(2, 3, 4),)),
    "replicate_pad1d_int64": (lambda x: F.pad(x, (1, 3), mode="replicate"), (ints(2, 3),)),
    "reflect_pad2d": (lambda x: F.pad(x, (1, 2, 2, 0), mode="reflect"), (floats(1, 2, 3, 4),)),
    "replicate_pad3d": (lambda x: F.pad(x, (1, 0, 0, 2, 1, 1), mode="replicate"), (floats(1, 1, 2, 3, 2),)),
    "unfold": (lambda x: x.unfold(0, 3, 2), (floats(5, 2),)),
    "unfold_last_dim_int64": (lambda x: x.unfold(-1, 2, 1), (ints(2, 4),)),
    "unfold_overlapping_middle": (lambda x: x.unfold(1, 2, 3), (floats(2, 7, 3),)),
    "addr": (lambda m, a, b: torch.addr(m, a, b, beta=0.5, alpha=2.0), (floats(3, 4), floats(3), floats(4))),
}


@pytest.mark.parametrize("name", CASES)
def test_view_op_matches_eager(name):
    fn, inputs = CASES[name]
    compile_and_compare(fn, *inputs, target="llvm-cpu", allow_fallback=False)
