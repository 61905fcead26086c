"""A small U-Net: convolutions, max pooling, nearest upsampling and a skip concat,
the ops of the GPU targets' failures (Vulkan's i64 positions, CUDA's casts)."""

import torch
import torch.nn.functional as F


class SmallUNet(torch.nn.Module):
    def __init__(self):
        torch.manual_seed(0)
        super().__init__()
        self.down = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.middle = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.up = torch.nn.Conv2d(16, 4, 3, padding=1)

    def forward(self, x):
        skip = F.relu(self.down(x))
        low = F.relu(self.middle(F.max_pool2d(skip, 2)))
        return self.up(torch.cat([skip, F.interpolate(low, scale_factor=2, mode="nearest")], 1))
