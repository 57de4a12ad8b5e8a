"""A deterministic synthetic MNIST: drawn digits written as IDX files. No download, ever.

Each digit class is a few strokes (polylines in a unit box, like a seven-segment display
with curves). A sample is its class's strokes with every control point jittered, then a
random affine map (rotation, scale, shear, shift), rendered at a random pen width into a
28x28 uint8 image with a soft edge and pixel noise. The same ``seed`` and sizes give the
same bytes on every machine, so a dataset can be regenerated instead of shipped.

The files land in ``<dir>/MNIST/raw/`` with torchvision's names, so the trainer reads them
through exactly the code path it uses for real MNIST (``reference_train.idx``).
"""

from __future__ import annotations

import fcntl
import math
import os
from pathlib import Path

import torch

from reference_train.idx import find_split, write_idx

SIZE = 28


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 8) -> list[tuple[float, float]]:
    return [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
             cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


# Strokes per class in a unit box, y pointing down. Angles: 0 = right, 90 = down.
TEMPLATES: dict[int, list[list[tuple[float, float]]]] = {
    0: [_arc(0.5, 0.5, 0.28, 0.42, 0, 360, 12)],
    1: [[(0.35, 0.25), (0.55, 0.08), (0.55, 0.92)]],
    2: [_arc(0.5, 0.32, 0.25, 0.22, 180, 380, 6) + [(0.22, 0.9), (0.8, 0.9)]],
    3: [_arc(0.48, 0.3, 0.24, 0.2, 200, 450, 6), _arc(0.48, 0.7, 0.26, 0.21, 270, 520, 6)],
    4: [[(0.65, 0.92), (0.65, 0.08), (0.2, 0.65), (0.85, 0.65)]],
    5: [[(0.75, 0.1), (0.3, 0.1), (0.27, 0.45)] + _arc(0.5, 0.66, 0.27, 0.24, 220, 500, 7)],
    6: [[(0.68, 0.1), (0.3, 0.55)] + _arc(0.5, 0.68, 0.22, 0.22, 180, 540, 10)],
    7: [[(0.2, 0.1), (0.8, 0.1), (0.42, 0.92)]],
    8: [_arc(0.5, 0.3, 0.2, 0.2, 0, 360, 10), _arc(0.5, 0.7, 0.24, 0.21, 0, 360, 10)],
    9: [_arc(0.5, 0.32, 0.22, 0.22, 0, 360, 10), [(0.72, 0.32), (0.62, 0.92)]],
}


def _segments(label: int) -> torch.Tensor:
    segs = []
    for stroke in TEMPLATES[label]:
        segs += [(a, b) for a, b in zip(stroke[:-1], stroke[1:])]
    return torch.tensor(segs, dtype=torch.float32)  # (S, 2 ends, 2 coords)


def _render(segs: torch.Tensor, width: torch.Tensor) -> torch.Tensor:
    """Soft-edged strokes for a batch: (B, S, 2, 2) segments -> (B, 28, 28) in [0, 1].
    Intensity falls off with the distance from a pixel to its nearest segment."""
    ys, xs = torch.meshgrid(torch.arange(SIZE, dtype=torch.float32), torch.arange(SIZE, dtype=torch.float32),
                            indexing="ij")
    p = torch.stack([xs.flatten(), ys.flatten()], 1)[None, :, None, :]  # (1, 784, 1, 2)
    a, b = segs[:, None, :, 0], segs[:, None, :, 1]  # (B, 1, S, 2)
    ab = b - a
    t = ((p - a) * ab).sum(-1) / (ab * ab).sum(-1).clamp_min(1e-6)
    closest = a + t.clamp(0, 1)[..., None] * ab
    d = (p - closest).norm(dim=-1).min(dim=2).values  # (B, 784)
    return (1.0 - (d - width[:, None] / 2).clamp(0, 1.2) / 1.2).reshape(-1, SIZE, SIZE)


def _uniform(g: torch.Generator, n: int, lo: float, hi: float) -> torch.Tensor:
    return lo + (hi - lo) * torch.rand(n, generator=g)


def draw_batch(label: int, n: int, g: torch.Generator) -> torch.Tensor:
    """``n`` 28x28 uint8 images of ``label`` drawn with the randomness of ``g``."""
    base = _segments(label)
    segs = base[None] + 0.035 * torch.randn(n, 1, 1, 2, generator=g)  # a small whole-stroke drift
    segs = segs + 0.03 * torch.randn(segs.shape, generator=g) - 0.5
    ang, sc, sh = torch.deg2rad(_uniform(g, n, -15, 15)), _uniform(g, n, 0.78, 1.0), _uniform(g, n, -0.25, 0.25)
    rot = torch.stack([torch.stack([ang.cos(), -ang.sin()], -1), torch.stack([ang.sin(), ang.cos()], -1)], -2)
    shear = torch.zeros(n, 2, 2)
    shear[:, 0, 0], shear[:, 0, 1], shear[:, 1, 1] = 1.0, sh, 1.0
    m = (rot @ shear) * (sc * 20)[:, None, None]
    shift = 13.5 + _uniform(g, 2 * n, -2, 2).reshape(n, 1, 1, 2)
    segs = torch.einsum("nij,nskj->nski", m, segs) + shift
    img = _render(segs, _uniform(g, n, 1.4, 2.6)) * _uniform(g, n, 0.75, 1.0)[:, None, None]
    img = img + 0.08 * torch.rand(n, SIZE, SIZE, generator=g) * (img > 0.05)
    return (img.clamp(0, 1) * 255).round().to(torch.uint8)


def draw(label: int, g: torch.Generator) -> torch.Tensor:
    return draw_batch(label, 1, g)[0]


def generate(n: int, seed: int, chunk: int = 256) -> tuple[torch.Tensor, torch.Tensor]:
    """``n`` images and uint8 labels; the same (n, seed) gives the same bytes."""
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 10, (n,), generator=g, dtype=torch.int64)
    images = torch.zeros(n, SIZE, SIZE, dtype=torch.uint8)
    for digit in range(10):
        idx = (labels == digit).nonzero().flatten()
        for start in range(0, len(idx), chunk):
            part = idx[start:start + chunk]
            images[part] = draw_batch(digit, len(part), g)
    return images, labels.to(torch.uint8)


def default_dir(n_train: int, n_test: int, seed: int) -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ncclDoctor"
    return base / f"synthetic-mnist-{n_train}-{n_test}-s{seed}"


def ensure(root: str | os.PathLike, n_train: int = 4096, n_test: int = 1024, seed: int = 0) -> Path:
    """Write the dataset under ``root/MNIST/raw`` unless it is there already.

    Several ranks may call this at once: a file lock lets one write while the others
    wait, and every file is written whole, so no rank ever reads half a file."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if find_split(root, "train") and find_split(root, "test"):
                return root
            raw = root / "MNIST" / "raw"
            for split, n, s in (("train", n_train, seed), ("t10k", n_test, seed + 1)):
                images, labels = generate(n, s)
                write_idx(raw / f"{split}-labels-idx1-ubyte", labels)
                write_idx(raw / f"{split}-images-idx3-ubyte", images)  # written last: its presence means done
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return root
