"""IDX files (the MNIST format), read and written without torchvision.

Layout, as torchvision lays it out: ``<root>/MNIST/raw/{train,t10k}-{images-idx3,labels-idx1}-ubyte``,
raw or ``.gz``. ``find_split`` also accepts the ``raw`` folder itself or a folder holding the
four files directly, so a user can point ``--data-dir`` at whatever they downloaded.

Header (big-endian): two zero bytes, a type byte (0x08 = uint8), a dimension count byte,
then one uint32 per dimension; the data follows, row-major. Images are magic 2051
(uint8, 3 dims: count, rows, cols), labels 2049 (uint8, 1 dim). See
shared/knowledge/mnist_data.md for torchvision's reader this mirrors.
"""

from __future__ import annotations

import gzip
import os
import struct
from pathlib import Path

import torch

# IDX type byte -> (torch dtype, bytes per element). MNIST only uses uint8.
TYPES = {0x08: (torch.uint8, 1), 0x09: (torch.int8, 1), 0x0B: (torch.int16, 2), 0x0C: (torch.int32, 4),
         0x0D: (torch.float32, 4), 0x0E: (torch.float64, 8)}
SPLITS = {"train": "train", "test": "t10k"}


class IdxError(ValueError):
    """A file that is not a valid IDX file (the message names the file and the problem)."""


def _open(path: Path):
    return gzip.open(path, "rb") if path.name.endswith(".gz") else open(path, "rb")


def read_idx(path: str | os.PathLike) -> torch.Tensor:
    path = Path(path)
    try:
        with _open(path) as fh:
            data = fh.read()
    except (OSError, EOFError) as exc:
        raise IdxError(f"{path}: cannot read: {exc}") from None
    if len(data) < 4:
        raise IdxError(f"{path}: {len(data)} bytes is too short for an IDX header")
    zero, type_code, ndim = struct.unpack(">HBB", data[:4])
    if zero != 0 or type_code not in TYPES or ndim == 0:
        raise IdxError(f"{path}: not an IDX file (magic {data[:4].hex()})")
    dtype, size = TYPES[type_code]
    header = 4 + 4 * ndim
    dims = struct.unpack(">" + "I" * ndim, data[4:header])
    count = 1
    for d in dims:
        count *= d
    if len(data) - header != count * size:
        raise IdxError(f"{path}: header says {dims} ({count * size} bytes) but {len(data) - header} bytes follow")
    if size == 1:
        return torch.frombuffer(bytearray(data[header:]), dtype=dtype).reshape(dims)
    # multi-byte IDX values are big-endian; torch.frombuffer reads native order
    import array

    arr = array.array({2: "h", 4: "i" if dtype == torch.int32 else "f", 8: "d"}[size], data[header:])
    if struct.pack("=H", 1) == struct.pack("<H", 1):
        arr.byteswap()
    return torch.tensor(arr.tolist(), dtype=dtype).reshape(dims)


def write_idx(path: str | os.PathLike, tensor: torch.Tensor) -> Path:
    """Write a uint8 tensor as IDX (gzip when the name ends with .gz), whole: temp + rename."""
    path = Path(path)
    if tensor.dtype != torch.uint8:
        raise ValueError(f"write_idx writes uint8 only, got {tensor.dtype}")
    header = struct.pack(">HBB", 0, 0x08, tensor.dim()) + struct.pack(">" + "I" * tensor.dim(), *tensor.shape)
    body = header + tensor.contiguous().numpy().tobytes() if _has_numpy() else header + bytes(tensor.flatten().tolist())
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(tmp, "wb") as fh:
        fh.write(body)
    os.replace(tmp, path)
    return path


def _has_numpy() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _candidates(root: Path) -> list[Path]:
    return [root / "MNIST" / "raw", root / "raw", root]


def find_split(root: str | os.PathLike, split: str) -> tuple[Path, Path] | None:
    """(images, labels) paths of ``split`` ('train' or 'test') under ``root``, or None."""
    stem = SPLITS[split]
    for folder in _candidates(Path(root)):
        found = []
        for kind in ("images-idx3-ubyte", "labels-idx1-ubyte"):
            name = f"{stem}-{kind}"
            hit = next((folder / n for n in (name, name + ".gz") if (folder / n).is_file()), None)
            found.append(hit)
        if all(found):
            return found[0], found[1]
    return None


def load_split(root: str | os.PathLike, split: str) -> tuple[torch.Tensor, torch.Tensor]:
    """Images (N, 28, 28) uint8 and labels (N,) int64 of a split, checked for consistency."""
    paths = find_split(root, split)
    if paths is None:
        raise FileNotFoundError(f"no MNIST {split} files ({SPLITS[split]}-images-idx3-ubyte[.gz]) under "
                                f"{root}/MNIST/raw, {root}/raw or {root}")
    images, labels = read_idx(paths[0]), read_idx(paths[1])
    if images.dim() != 3 or images.dtype != torch.uint8:
        raise IdxError(f"{paths[0]}: expected uint8 images with 3 dimensions, got {images.dtype} {tuple(images.shape)}")
    if labels.dim() != 1 or labels.dtype != torch.uint8:
        raise IdxError(f"{paths[1]}: expected uint8 labels with 1 dimension, got {labels.dtype} {tuple(labels.shape)}")
    if len(images) != len(labels):
        raise IdxError(f"{paths[0]} has {len(images)} images but {paths[1]} has {len(labels)} labels")
    return images, labels.long()
