"""Round 96's network set-up, NCCL system error and open-file limit cases (fix brief f6), each read by the shape of
its lines, and a near shape that keeps its old reading.

- NCCL's set-up lines flattened onto one line by a paste and cut from their host:pid:tid ("[0] NCCL INFO
  NCCL_IB_HCA set to mlx5_0:1,... [0] NCCL INFO NET/IB : No device found. ... [0] NCCL INFO Using network Socket"):
  each message is read as a line of its own, a prefix-less INFO line still gives its transport facts, NCCL's own
  "NCCL_IB_HCA set to X" is the job's setting, and an NCCL_IB_HCA naming RDMA devices beside IB finding none shows
  the fabric meant for the job even with nothing failing: network_setup, no rank (lead rules Z, AX (1), K's last
  sentence; llamafactory-6111). NCCL_IB_DISABLE=0 alone, an NCCL_IB_HCA that only leaves devices out (^mlx5_0), or IB
  in use stay none.
- NCCL's "unhandled system error" retyped with its "d" dropped ("NCCL error in: .../ProcessGroupNCCL.cpp:272,
  unhanled system error") after the check's own head is the same ncclSystemError: nccl_system, no rank (rules J,
  AC (4); pytorch-23363). The misspelled words without NCCL's head are no NCCL line.
- A bare "OSError: [Errno 24] Too many open files" stays unknown with nobody named and now carries the fd-limit
  remedy (ulimit -n, the file_system sharing strategy, fewer workers: rule BZ (1); masktextspotterv3-51); with the
  DataLoader's sharing frames above it it stays dataloader_shm.
"""
from __future__ import annotations

from tests.conftest import child_failed, failure_record, nccl_info
from tests.conftest import verdict_accused as _verdict


# --- 1. an NCCL_IB_HCA naming devices, IB finding none, NCCL on sockets ---------------------------------------------
def _flat(dev: int, hca: str, ip: str, disable: bool = True, net: str = "Socket") -> str:
    """One process's set-up lines pasted flattened onto one line, without host:pid:tid."""
    parts = ([f"[{dev}] NCCL INFO NCCL_IB_DISABLE set by environment to 0."] if disable else []) + [
        f"[{dev}] NCCL INFO NCCL_IB_HCA set to {hca}",
        f"[{dev}] NCCL INFO NET/IB : No device found.",
        f"[{dev}] NCCL INFO NET/Socket : Using [0]eth1:{ip}<0>",
        f"[{dev}] NCCL INFO Using non-device net plugin version 0",
        f"[{dev}] NCCL INFO Using network {net}"]
    return " ".join(parts) + "\n"


def test_flattened_setup_with_hca_named_and_no_ib_device_is_network_setup(tmp_path):
    for text in (_flat(3, "mlx5_2:1,mlx5_3:1", "192.168.7.12"),
                 _flat(1, "mlx5_0,mlx5_1,mlx5_4,mlx5_5", "10.2.0.8", disable=False),
                 _flat(0, "bnxt_re0:1,bnxt_re1:1", "172.16.3.4"),
                 "[rank5]: " + _flat(5, "mlx5_6:1", "10.9.9.9")):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not acc, (text, v)
        assert "/dev/infiniband" in v["fix"] and "NCCL_DEBUG_SUBSYS=INIT,NET" in v["fix"], v["fix"]


def test_hca_named_on_separate_prefixed_lines_reads_the_same(tmp_path):
    text = "".join(nccl_info("gpu-b7", 4410, 2, t) for t in (
        "NCCL_IB_HCA set to mlx5_1:1,mlx5_2:1", "NET/IB : No device found.",
        "NET/Socket : Using [0]eth0:10.40.1.7<0>", "Using network Socket"))
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not acc, v


def test_ib_disable_0_alone_excluded_hcas_or_ib_in_use_stay_none(tmp_path):
    only_disable = ("[2] NCCL INFO NCCL_IB_DISABLE set by environment to 0. [2] NCCL INFO NET/IB : No device found. "
                    "[2] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0> [2] NCCL INFO Using network Socket\n")
    excluded = _flat(2, "^mlx5_0", "10.0.0.3")
    in_use = ("[4] NCCL INFO NCCL_IB_HCA set to mlx5_0:1 [4] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB "
              "eth0:10.0.0.4<0> [4] NCCL INFO Using network IB\n")
    for text in (only_disable, excluded, in_use):
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "none" and not acc, (text, v)


def test_flattened_lines_cut_at_each_message_head():
    from ncclDoctor.diagnose.ingest import nccl_pieces

    flat = _flat(3, "mlx5_2:1", "10.1.1.1")
    pieces = nccl_pieces("[rank3]: " + flat.strip())
    assert pieces is not None and len(pieces) == 6 and all(p.startswith("[rank3]: [3] NCCL INFO ") for p in pieces)
    assert nccl_pieces("[3] NCCL INFO NET/Socket : Using [0]eth0:10.1.1.1<0> [1]eth1:10.2.2.2<0>") is None
    prefixed = "h1:12:12 [0] NCCL INFO Using network Socket h2:30:30 [1] NCCL INFO NET/IB : No device found."
    assert nccl_pieces(prefixed) == ["h1:12:12 [0] NCCL INFO Using network Socket",
                                     "h2:30:30 [1] NCCL INFO NET/IB : No device found."]


# --- 2. NCCL's "unhandled system error" retyped as "unhanled" ---------------------------------------------------------
def test_retyped_unhandled_system_error_after_nccl_head_is_nccl_system(tmp_path):
    for at, head in ((272, "fail to new train...e= "), (290, "RuntimeError: "), (31, "")):
        text = (f"{head}NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:{at}, unhanled system error\n\n"
                "# node 0: 10.1.4.20\ninit_method=\"tcp://10.1.4.20:23456\"\nrank=0\nworld_size=4\n"
                "backend=\"nccl\"\n")
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not acc, (text, v)
        assert "NCCL_DEBUG=INFO" in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"], v["fix"]


def test_misspelled_words_without_nccl_head_are_no_nccl_error(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
                                "    main()\nRuntimeError: unhanled system error\n")
    assert v["cause"] == "unknown" and not acc, v  # its old reading (review 96 finding 10)


# --- 3. a bare "Too many open files" ----------------------------------------------------------------------------------
def test_bare_too_many_open_files_is_unknown_with_fd_limit_fix(tmp_path):
    for n in (2, 8):
        text = (f"python -m torch.distributed.launch --nproc_per_node={n} tools/train.py --config-file cfg.yaml\n\n"
                "OSError: [Errno 24] Too many open files\n")
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert "ulimit -n" in v["fix"] and "file_system" in v["fix"] and "num_workers" in v["fix"], v["fix"]


def test_too_many_open_files_under_loader_sharing_frames_stays_dataloader_shm(tmp_path):
    text = ("Traceback (most recent call last):\n"
            "  File \"/usr/lib/python3.8/multiprocessing/queues.py\", line 236, in _feed\n"
            "    obj = _ForkingPickler.dumps(obj)\n"
            "  File \"/usr/lib/python3.8/multiprocessing/reduction.py\", line 51, in dumps\n"
            "    cls(buf, protocol).dump(obj)\n"
            "  File \"/usr/local/lib/python3.8/dist-packages/torch/multiprocessing/reductions.py\", line 328, in "
            "reduce_storage\n"
            "    fd, size = storage._share_fd_()\n"
            "  File \"/usr/lib/python3.8/multiprocessing/resource_sharer.py\", line 48, in __init__\n"
            "    new_fd = os.dup(fd)\n"
            "OSError: [Errno 24] Too many open files\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "dataloader_shm" and not acc, v


def test_too_many_open_files_with_a_launcher_record_keeps_its_rank_and_gains_the_fix(tmp_path):
    """torchrun's record naming the rank that raised it keeps that rank (rule A), the remedy goes before its fix."""
    text = "OSError: [Errno 24] Too many open files\n" + child_failed(failure_record(0, 3, 3, 1, 7311))
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and "ulimit -n" in v["fix"], v
