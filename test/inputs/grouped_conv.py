"""A grouped 3x3 convolution at RegNet's sizes: in mlc's -O2 plan (NHWC, fused with
its ReLU) IREE's CPU code generation needs more than its 32 KB stack limit."""

import torch


class GroupedConv(torch.nn.Sequential):
    def __init__(self):
        torch.manual_seed(0)
        super().__init__(torch.nn.Conv2d(48, 48, 3, stride=2, padding=1, groups=6), torch.nn.ReLU())
