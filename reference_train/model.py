"""The ConvNet of the seed posts: two conv-BN-ReLU-pool blocks and a linear head.

On GPU the trainer converts BatchNorm to SyncBatchNorm (statistics over every rank's
batch, one extra all_reduce per BN layer per step); on CPU/gloo it keeps plain BatchNorm,
because SyncBatchNorm's kernels are CUDA-only in torch.
"""

from __future__ import annotations

from torch import nn


class ConvNet(nn.Module):
    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.layer2 = nn.Sequential(nn.Conv2d(16, 32, 5, padding=2), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(7 * 7 * 32, num_classes)

    def forward(self, x):
        out = self.layer2(self.layer1(x))
        return self.fc(out.flatten(1))
