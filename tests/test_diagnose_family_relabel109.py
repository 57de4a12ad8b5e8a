"""Two shapes round 109 showed whose older corpus cases said otherwise, read as the lead ruled in session 46 (rules
AU (2), AT (1), AF (2), Q, A): each varied (other local ranks, pids, paths, hosts) reads right, and a near shape keeps
its reading.

- A bare "RuntimeError: CUDA error: invalid device ordinal" (no traceback above it) beside a launcher's record of one
  local rank failing (exit 1) and the agent's SIGTERM of the others (round 109's mlp-maps-21; round 23's
  simpletuner-40 relabelled): rule AU (2)'s launch error, config, nobody, "whether or not the launch setting is shown"
  -- also where a launcher's tag on every line names the recorded rank; the fix names nproc_per_node / num_processes
  against the GPUs visible, CUDA_VISIBLE_DEVICES and set_device(local_rank). Near shapes: a visible GPU failing with
  another CUDA error (an illegal memory access) under the same record stays cuda_error with that rank (rule AU (2)'s
  last clause), and so does an ordinal raised under the process's own frames (an index its code computed).
- NCCL unable to load the driver's NVML library ("Failed to open libnvidia-ml.so.1", as a WARN or as the Last error
  of torch's ncclSystemError; round 109's nccl-tests-320, round 30's llamafactory-6161 relabelled): rule AT (1)'s
  unloadable driver library, like libcuda.so -- config, nobody. Near shapes: NCCL failing another system call (a
  shared-memory segment, an NVML call once the library is loaded) stays nccl_system.
"""
from __future__ import annotations

from tests.conftest import corpus_case_verdict
from tests.conftest import verdict_accused as _verdict

_ORDINAL = ("RuntimeError: CUDA error: invalid device ordinal\n"
            "CUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might "
            "be incorrect.\n"
            "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n")
_ILLEGAL = ("RuntimeError: CUDA error: an illegal memory access was encountered\n"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
            "might be incorrect.\n"
            "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n")


def _record(lr: int, pid: int, killed: list[int], binary: str) -> str:
    out = [f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {p} closing signal SIGTERM"
           for p in killed]
    out.append(f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: {lr} "
               f"(pid: {pid}) of binary: {binary}")
    return "\n".join(out) + "\n"


_SHAPES = (  # (the failed local rank, its pid, the pids torn down, the interpreter, a project print between)
    (1, 68316, [68315], "/mnt/data/local-disk2/software/anaconda3/envs/mlp_maps/bin/python", "data/trained/sport1\n"),
    (3, 4117, [4114, 4115, 4116], "/usr/bin/python3", ""),
    (2, 90022, [90020, 90021, 90023], "/home/u7/.venv/bin/python3.10", "loading config configs/zju/313.yaml\n"),
)


# --- invalid device ordinal beside a launcher's record of one local rank ---------------------------------------------
def test_bare_ordinal_beside_a_one_rank_record_is_the_launch_nobody_named(tmp_path):
    for lr, pid, killed, binary, said in _SHAPES:
        v, acc = _verdict(tmp_path, _ORDINAL + said + _record(lr, pid, killed, binary))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (lr, v)
        assert "Keep --num_processes / nproc_per_node no more than the GPUs visible" in v["fix"], v
        assert "set --nproc_per_node to the number of GPUs visible (torch.cuda.device_count())" in v["fix"], v
        assert "torch.cuda.set_device(local_rank) with local_rank < visible GPU count" in v["fix"], v
        assert "CUDA_VISIBLE_DEVICES" in v["fix"], v
        assert "the launcher's record of the one worker that failed" in v["summary"], v
    # near shape: a visible GPU failing with another CUDA error under the same record keeps that rank (rule AU (2))
    for lr, pid, killed, binary, said in _SHAPES:
        v, acc = _verdict(tmp_path, _ILLEGAL + said + _record(lr, pid, killed, binary))
        assert (v["cause"], v["culprits"]) == ("cuda_error", [lr]) and acc == {lr}, (lr, v)


def test_bare_ordinal_tagged_by_the_recorded_rank_is_the_launch_too(tmp_path):
    for lr, pid, killed, binary, _ in _SHAPES:
        tagged = "".join(f"[rank{lr}]: {x}\n" for x in _ORDINAL.splitlines())
        v, acc = _verdict(tmp_path, tagged + _record(lr, pid, killed, binary))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (lr, v)
        assert "nproc_per_node" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v
    # near shape: the ordinal raised under the process's own frames (an index its code computed) keeps its rank
    lr, pid, killed, binary, _ = _SHAPES[1]
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/w/eval.py", line 88, in <module>\n'
                                "    out = out.to(f'cuda:{args.eval_gpu}')\n"
                                + _ORDINAL + _record(lr, pid, killed, binary))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [lr]), v


def test_the_relabelled_corpus_case_reads_config(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "simpletuner-40-sdxl-local-rank1-invalid-device-ordinal")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


# --- NCCL unable to load the driver's NVML library -------------------------------------------------------------------
def _nvml_warn(host: str, pid: int, devs: tuple[int, ...]) -> str:
    out = [f"{host}:{pid}:{pid} [0] NCCL INFO NCCL version 2.26.2+cuda12.6"]
    for d in devs:
        t = pid + 19 + d
        if d == devs[0]:
            out.append(f"[2025-06-12 16:57:52] {host}:{pid}:{t} [{d}] misc/nvmlwrap.cc:74 NCCL WARN Failed to open "
                       "libnvidia-ml.so.1")
        out += [f"{host}:{pid}:{t} [{d}] NCCL INFO {f} -> 2"
                for f in ("misc/nvmlwrap.cc:200", "init.cc:355", "init.cc:1397")]
        out.append(f"{host}:{pid}:{t} [{d}] NCCL INFO group.cc:75 -> 2 [Async thread]")
    out += [f"{host}: Test NCCL failure common.cu:1119 'unhandled system error (run with NCCL_DEBUG=INFO for "
            "details) / '", f" .. {host} pid {pid}: Test failure common.cu:937"]
    return "\n".join(out) + "\n"


def _last_error(rank: int, said: str) -> str:
    return (f"[rank{rank}]:     work = group.barrier(opts=opts)\n"
            f"[rank{rank}]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
            "NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
            f"[rank{rank}]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
            "device error.\n"
            f"[rank{rank}]: Last error:\n"
            f"[rank{rank}]: {said}\n")


def test_nccl_unable_to_open_nvml_is_config_nobody(tmp_path):
    for host, pid, devs in (("gpu0301", 842624, (0, 1, 2)), ("node-a17", 5120, (0, 1)),
                            ("trainer-7c9f", 311, (0, 1, 2, 3))):
        v, acc = _verdict(tmp_path, _nvml_warn(host, pid, devs))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (host, v)
        assert "add the directory holding libnvidia-ml.so.1 to LD_LIBRARY_PATH / ldconfig" in v["fix"], v
        assert "in containers, mount the driver libraries (nvidia-container-toolkit, --gpus all)" in v["fix"], v
        assert "NCCL_DEBUG=INFO to confirm NVML loads" in v["fix"], v
    for rank in (1, 3):  # the same words as torch's Last error
        v, acc = _verdict(tmp_path, _last_error(rank, "Failed to open libnvidia-ml.so.1"))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (rank, v)
        assert "libnvidia-ml.so.1" in v["fix"], v
    # near shapes: NCCL failing another system call stays nccl_system
    v, acc = _verdict(tmp_path, _last_error(1, "Error while creating shared memory segment /dev/shm/nccl-Qw3eRt "
                                               "(size 9637888)"))
    assert v["cause"] == "nccl_system" and not acc, v
    assert "libnvidia-ml" not in v["fix"], v
    v, acc = _verdict(tmp_path, _nvml_warn("gpu0301", 842624, (0, 1)).replace(
        "NCCL WARN Failed to open libnvidia-ml.so.1", "NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: Not Found"))
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not acc, v


def test_nvml_last_error_reads_config_when_its_label_stands_far_below_the_error(tmp_path):
    # a paste re-wrapped at 80 columns (its own wrap at 112 columns kept, trailing blanks wrapped onto lines of their
    # own): the bare "Last error:" stands more than four lines below the error's head and its text on the line after
    for rank in (1, 2):
        pad = " " * 32
        text = (f"[rank{rank}]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distri\n"
                f"buted/c10d/NCCLUtils.hpp:317, un\n"
                f"handled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n{pad}\n"
                f"[rank{rank}]: ncclSystemError: System call (e.g. socket, malloc) or external library \n"
                f"call failed or device error.    \n"
                f"[rank{rank}]: Last error:{' ' * 57}\n{pad}\n"
                f"[rank{rank}]: Failed to open libnvidia-ml.so.1{' ' * 39}\n{pad}\n")
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (rank, v)
        assert "libnvidia-ml.so.1" in v["fix"], v


def test_the_relabelled_nvml_corpus_case_reads_config(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "llamafactory-6161-two-gpu-barrier-libnvidia-ml-missing")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
