"""Models with torch ops mlc does not convert, for the --allow-fallback and --coverage tests."""

import torch


class Polar(torch.nn.Module):
    """mlc converts linear, tanh, polar and view_as_real; torch-mlir lowers the complex product between them."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.linear = torch.nn.Linear(9, 9)

    def forward(self, x):
        y = torch.tanh(self.linear(x))
        return torch.view_as_real(torch.polar(y, x).square()).sum(-1) + y


class Mixed(Polar):
    """Also kthvalue (torch-mlir lowers it to tm_tensor.topk, which IREE's CPU
    backend rejects) and erfinv (neither mlc nor torch-mlir lowers it)."""

    def forward(self, x):
        y = super().forward(x)
        return torch.kthvalue(y, 2, 1).values + torch.erfinv(y * 0.5).sum(1)


class Erfinv(torch.nn.Module):
    """erfinv: neither mlc nor torch-mlir lowers it."""

    def forward(self, x):
        return torch.erfinv(torch.tanh(x))


class Bessel(torch.nn.Module):
    """special_bessel_j0: torch-mlir has no op for it (it imports as torch.operator)."""

    def forward(self, x):
        return torch.special.bessel_j0(x) + torch.relu(x)


class BigDet(torch.nn.Module):
    """linalg_det of 33x33: larger than mlc's LU (up to 32x32), and the fallback refuses it
    (torch-mlir's lowering of it is known wrong)."""

    def forward(self, x):
        return torch.linalg.det(torch.tanh(x))
