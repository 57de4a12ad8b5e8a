"""The reference trainer: IDX round trips, the synthetic set, and a real 2-rank run that learns."""

from __future__ import annotations

import gzip
import json
import struct
import subprocess
import sys

import pytest
import torch

from reference_train import idx, synthetic
from tests.conftest import ROOT, cli_env


def _hand_made(folder, n=5, gz=False):
    """IDX files written byte by byte from the format description, not by our writer."""
    folder.mkdir(parents=True, exist_ok=True)
    pixels = bytes((i * 7 + j) % 256 for i in range(n) for j in range(28 * 28))
    labels = bytes(i % 10 for i in range(n))
    files = {
        "train-images-idx3-ubyte": struct.pack(">IIII", 2051, n, 28, 28) + pixels,
        "train-labels-idx1-ubyte": struct.pack(">II", 2049, n) + labels,
    }
    for name, body in files.items():
        if gz:
            with gzip.open(folder / (name + ".gz"), "wb") as fh:
                fh.write(body)
        else:
            (folder / name).write_bytes(body)
    return pixels, labels


@pytest.mark.parametrize("gz", [False, True])
def test_idx_reads_hand_made_files_in_torchvision_layout(tmp_path, gz):
    pixels, labels = _hand_made(tmp_path / "MNIST" / "raw", gz=gz)
    images, ys = idx.load_split(tmp_path, "train")
    assert images.shape == (5, 28, 28) and images.dtype == torch.uint8
    assert bytes(images.flatten().tolist()) == pixels
    assert ys.tolist() == list(labels)


@pytest.mark.parametrize("name", ["x-images-idx3-ubyte", "x-images-idx3-ubyte.gz"])
def test_idx_writer_round_trips(tmp_path, name):
    t = torch.randint(0, 256, (3, 4, 5), dtype=torch.uint8)
    idx.write_idx(tmp_path / name, t)
    assert torch.equal(idx.read_idx(tmp_path / name), t)
    raw = (gzip.open if name.endswith(".gz") else open)(tmp_path / name, "rb").read()
    assert raw[:16] == struct.pack(">IIII", 0x0803, 3, 4, 5)  # the header a C reader expects


def test_idx_rejects_bad_files(tmp_path):
    (tmp_path / "bad").write_bytes(b"\x01\x02\x03\x04" + b"\x00" * 10)
    with pytest.raises(idx.IdxError, match="not an IDX file"):
        idx.read_idx(tmp_path / "bad")
    (tmp_path / "short").write_bytes(struct.pack(">II", 2049, 10) + b"\x00" * 3)
    with pytest.raises(idx.IdxError, match="10 bytes"):
        idx.read_idx(tmp_path / "short")


def test_idx_rejects_image_label_count_mismatch(tmp_path):
    raw = tmp_path / "raw"
    _hand_made(raw, n=4)
    (raw / "train-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, 3) + bytes(3))
    with pytest.raises(idx.IdxError, match="4 images but"):
        idx.load_split(tmp_path, "train")


def test_synthetic_is_deterministic_and_covers_every_digit():
    a, la = synthetic.generate(200, seed=3)
    b, lb = synthetic.generate(200, seed=3)
    c, _ = synthetic.generate(200, seed=4)
    assert torch.equal(a, b) and torch.equal(la, lb)
    assert not torch.equal(a, c)
    assert set(la.tolist()) == set(range(10))
    assert 10 < a.float().mean() < 100  # strokes on a dark background, like MNIST


def test_trainer_bad_data_is_one_line_and_exit_2(tmp_path):
    raw = tmp_path / "MNIST" / "raw"
    _hand_made(raw)
    (raw / "train-images-idx3-ubyte").write_bytes(b"garbage!")
    p = subprocess.run([sys.executable, "-m", "reference_train", "--data-dir", str(tmp_path)], capture_output=True,
                       text=True, timeout=120, env=cli_env(), cwd=str(ROOT))
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and "not an IDX file" in p.stderr


def test_trainer_learns_on_synthetic_data_under_torchrun(tmp_path):
    """Two real ranks over gloo, one short epoch: accuracy well above chance (10%)."""
    from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv

    args = ["--data-dir", str(tmp_path / "data"), "--synthetic-train", "2048", "--synthetic-test", "512",
            "--batch-size", "32",
            "--result-json", str(tmp_path / "result.json"), "--checkpoint", str(tmp_path / "ckpt.pt"), "--monitor-dir",
            str(tmp_path / "run")]
    argv = torchrun_argv(LaunchSpec(nproc_per_node=2, module="reference_train", log_dir=str(tmp_path / "logs")), args)
    p = subprocess.run(argv, capture_output=True, text=True, timeout=240, env=cli_env(OMP_NUM_THREADS="1"),
                       cwd=str(ROOT))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["world_size"] == 2 and result["steps"] == 2048 // 2 // 32
    assert result["data"].startswith("synthetic")
    assert result["accuracy"] > 0.6, result
    state = torch.load(tmp_path / "ckpt.pt")
    assert "layer1.1.running_mean" in state["model"]  # BatchNorm, as in the seeds
    assert sorted(p.name for p in (tmp_path / "run" / "monitor").iterdir()) == ["rank-0.jsonl", "rank-1.jsonl"]


def test_idx_reads_big_endian_multibyte_types(tmp_path):
    # IDX stores multi-byte values big-endian (type 0x0C = int32)
    (tmp_path / "i32").write_bytes(struct.pack(">HBBI", 0, 0x0C, 1, 3) + struct.pack(">iii", 1, -2, 70000))
    assert idx.read_idx(tmp_path / "i32").tolist() == [1, -2, 70000]


def test_a_rank_that_finds_the_synthetic_set_half_written_waits_for_it(tmp_path):
    """Ranks share --data-dir: one writes the synthetic set under the folder's lock, train files
    first. Another used to see those train files, take the folder for real MNIST, and exit on the
    test files not yet written (once in 15 runs of the torchrun test below); it must wait instead."""
    import fcntl
    import threading
    import time

    from reference_train import train
    from reference_train.__main__ import parse_args

    root = tmp_path / "data"
    root.mkdir()
    images, labels = synthetic.generate(64, 0)
    with open(root / ".lock", "w") as lock:  # the writing rank, half way
        fcntl.flock(lock, fcntl.LOCK_EX)
        idx.write_idx(root / "MNIST" / "raw" / "train-labels-idx1-ubyte", labels)
        idx.write_idx(root / "MNIST" / "raw" / "train-images-idx3-ubyte", images)
        got: dict = {}

        def reader():
            try:
                got["sets"] = train.datasets(parse_args(["--data-dir", str(root), "--synthetic-train", "64",
                                                         "--synthetic-test", "32"]))
            except Exception as exc:  # the failure this test is about, shown in the assertion
                got["error"] = exc

        t = threading.Thread(target=reader, daemon=True)
        t.start()
        time.sleep(1.0)
        assert t.is_alive() and not got, got  # waiting for the lock, not failing on the missing test split
        test_images, test_labels = synthetic.generate(32, 1)
        idx.write_idx(root / "MNIST" / "raw" / "t10k-labels-idx1-ubyte", test_labels)
        idx.write_idx(root / "MNIST" / "raw" / "t10k-images-idx3-ubyte", test_images)
        fcntl.flock(lock, fcntl.LOCK_UN)
    t.join(timeout=60)
    tr, te, source = got["sets"]
    assert (len(tr), len(te)) == (64, 32) and source.startswith("synthetic"), source
