"""Small but real models: the ones mlc's end-to-end tests, demo and benchmarks use.

Each factory returns a model in eval mode with seeded random weights, and
`EXAMPLE_INPUTS` gives its example input shapes.
"""

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, features=64, hidden=256, classes=32):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(nn.functional.gelu(self.fc1(x)))


class ConvBlock(nn.Module):
    """conv3x3 + BatchNorm + ReLU."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class CNN(nn.Module):
    """Three conv+BN+ReLU blocks with a residual add, global pooling and a classifier."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = ConvBlock(3, 16)
        self.body = ConvBlock(16, 16)
        self.down = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        x = self.stem(x)
        x = x + self.body(x)
        x = self.down(x)
        return self.head(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


class TransformerBlock(nn.Module):
    """Pre-norm encoder block: multi-head attention, LayerNorm, GELU MLP, residuals."""

    def __init__(self, dim=128, heads=4, hidden=512):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attention = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attention(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


def seeded(cls):
    """A factory for `cls` in eval mode with seeded weights and non-trivial BatchNorm statistics."""

    def factory():
        torch.manual_seed(0)
        model = cls().eval()
        for module in model.modules():  # non-trivial BatchNorm statistics
            if isinstance(module, nn.BatchNorm2d):
                module.running_mean.uniform_(-0.5, 0.5)
                module.running_var.uniform_(0.5, 1.5)
        return model

    factory.__name__ = f"make_{cls.__name__.lower()}"
    return factory


make_mlp = seeded(MLP)
make_cnn = seeded(CNN)
make_transformer_block = seeded(TransformerBlock)

EXAMPLE_INPUTS = {
    "mlp": [(8, 64)],
    "cnn": [(2, 3, 32, 32)],
    "transformer_block": [(2, 16, 128)],
}
FACTORIES = {"mlp": make_mlp, "cnn": make_cnn, "transformer_block": make_transformer_block}
