"""Convolutions whose windows do not reach the end of their padded input: stride 2 from
two frames (or rows) to one, and trailing rows no window reads. mlc hands IREE only
the extent the windows read; with the whole padded input, IREE 3.13 folded the unit
output dimension into an invalid linalg.generic ("inferred input/output operand #1 has
shape's dimension #2 to be 4, but found 3": torchvision's r3d_18). At -O0 the
convolutions reach IREE as linalg's named ops, where IREE failed."""

import pytest
import torch
from conftest import Family

ops = Family("convolution windows", opt_level=0)
for name, layer, shape in [
    ("conv3d_two_frames_to_one", lambda: torch.nn.Conv3d(8, 16, 3, 2, 1), (1, 8, 2, 7, 7)),
    ("conv3d_trailing_rows", lambda: torch.nn.Conv3d(4, 8, 3, 2, 0), (1, 4, 4, 8, 8)),
    ("conv3d_depthwise_one_frame", lambda: torch.nn.Conv3d(4, 4, 3, 2, 1, groups=4), (1, 4, 2, 5, 5)),
    ("conv3d_grouped_one_frame", lambda: torch.nn.Conv3d(4, 8, 3, 2, 1, groups=2), (1, 4, 2, 5, 5)),
    ("conv2d_two_rows_to_one", lambda: torch.nn.Conv2d(8, 16, 3, 2, 1), (1, 8, 2, 7)),
    ("conv2d_trailing_rows", lambda: torch.nn.Conv2d(8, 16, 3, 2, 0), (2, 8, 8, 8)),
    ("conv2d_dilated_depthwise", lambda: torch.nn.Conv2d(4, 4, 3, 2, 2, dilation=2, groups=4), (1, 4, 9, 9)),
    ("conv2d_grouped_one_row", lambda: torch.nn.Conv2d(8, 8, 3, 2, 1, groups=2), (1, 8, 2, 7)),
]:
    ops.case(name, lambda m, x: m(x), lambda shape=shape: torch.randn(*shape), module=layer)


@pytest.mark.iree
@pytest.mark.parametrize("case", ops.params())
def test_matches_eager(case):
    ops.check(case)


@pytest.mark.iree
@pytest.mark.parametrize("group", ops.group_params())
def test_the_cases_compile_as_one_module(group):
    ops.check_group(group)
