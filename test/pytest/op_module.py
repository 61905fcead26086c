"""A torch function as an `nn.Module`, the form `mlc.compile` and `torch.export` take:
the op-level tests compile one expression at a time."""

import torch


class Apply(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)
