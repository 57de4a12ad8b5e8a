"""Review 104's findings on round 104's diagnose changes, fixed in s42-y2: each reviewer's input (varied) reads right,
and the shape the original fix was for still reads as that fix meant.

- (1) finding 1: a serving engine's "vLLM/sglang is using nccl==X" line is printed once per process at start-up; the
  NCCL-init fix for a native crash needs that line right above the crash (sglang-28299), not hours of serving between.
- (1) findings 3, 8: the Duplicate GPU fix's Ray words need Ray in the lines (ray-48012's Ray Train workers); a plain
  torchrun / accelerate launch gets one GPU per rank and no Ray words.
- (1) finding 4: ssh refused on localhost names the ssh-less single-node launch only where every unreachable host is
  this node; localhost beside other hosts is a several-node launch.
- (1) finding 7: the Inductor cache's fix names Inductor's own cache to clear, not TORCHINDUCTOR_CACHE_DIR twice.
- (2) finding 3 (lead's ruling): one rank's JIT cache fault under its node's /tmp keeps the reading it had (that rank
  named, by its own text); a shared cache path (~/.triton, /root/.triton, a non-/tmp path) or two ranks alike stay
  config (pytorch-173679).
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SEGV = ("Fatal Python error: Segmentation fault\n\n"
         "Thread 0x00007f1c3a7fe640 (most recent call first):\n"
         '  File ".../vllm/worker/model_runner.py", line 1500 in execute_model\n')
_INIT_WORDS = "had just loaded NCCL"


# --- (1) finding 1: the engine's NCCL line long before the crash -----------------------------------------------------
def test_engine_nccl_line_hours_before_a_segfault_gets_no_init_fix(tmp_path):
    serving = ("INFO 06-15 19:57:40 model_runner.py:1060] Loading model weights took 14.99 GB\n"
               "INFO 06-15 19:58:10 api_server.py:200] Started server process\n"
               "INFO 06-15 20:10:11 metrics.py:351] Avg prompt throughput: 120.1 tokens/s, ... Running: 4 reqs\n"
               "INFO 06-15 22:10:11 metrics.py:351] Avg prompt throughput: 110.1 tokens/s, ... Running: 6 reqs\n")
    for engine in ("INFO 06-15 19:57:34 pynccl.py:63] vLLM is using nccl==2.21.5\n",
                   "[2026-06-15 19:57:34 TP0] sglang is using nccl==2.28.9\n"):
        for between in (serving, serving[:serving.index("INFO 06-15 20:10")], "x\n" * 40):
            v, acc = _verdict(tmp_path, engine + between + _SEGV)
            assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
            assert _INIT_WORDS not in v["fix"] and "ncclCommInitRank" not in v["fix"], (between, v)


def test_engine_nccl_line_right_above_the_segfault_keeps_the_init_fix(tmp_path):
    # round 104's sglang-28299: the crash on the next line; another TP process's line interleaved is still init
    for between in ("", "[2026-06-15 19:57:34 TP5] Init torch distributed begin.\n"):
        v, acc = _verdict(tmp_path, "[2026-06-15 19:57:33 TP5] Init torch distributed begin.\n"
                                    "[2026-06-15 19:57:34 TP0] sglang is using nccl==2.28.9\n" + between + _SEGV)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert _INIT_WORDS + " 2.28.9" in v["fix"] and "ncclCommInitRank" in v["fix"], v


# --- (1) findings 3, 8: Ray words only under Ray ----------------------------------------------------------------------
def _dup(prefix: str = "", frame: str = "") -> str:
    return (f"{prefix}[rank1]: Traceback (most recent call last):\n"
            + (f'{prefix}[rank1]:   File "{frame}", line 33, in __execute\n' if frame else "")
            + f"{prefix}[rank1]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:1970, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5\n"
            f"{prefix}[rank1]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
            f"{prefix}[rank1]: Last error:\n"
            f"{prefix}[rank1]: Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000\n")


def test_duplicate_gpu_under_torchrun_gets_no_ray_words(tmp_path):
    for text in (_dup(), _dup(frame="/opt/venv/lib/python3.10/site-packages/accelerate/state.py"),
                 "[default1]:Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000\n"
                 "[default0]:array = [1, 2]\n"):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
        assert "one GPU per rank" in v["fix"] and "set_device" in v["fix"], v
        assert "resources_per_worker" not in v["fix"] and "Ray" not in v["fix"], v


def test_duplicate_gpu_under_ray_names_rays_gpu_share(tmp_path):
    for text in (_dup(prefix="(RayTrainWorker pid=4123, ip=10.0.0.5) "),
                 _dup(prefix="(RayTrainWorker pid=77) "),
                 "(pid=812) Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 3b000\n"):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
        assert "resources_per_worker={'GPU': 1}" in v["fix"] and "one GPU per rank" in v["fix"], v


# --- (1) finding 4: localhost beside other hosts ------------------------------------------------------------------
def test_ssh_refused_on_localhost_and_other_hosts_is_no_single_node_launch(tmp_path):
    for other in ("worker-3", "10.0.0.7"):
        v, acc = _verdict(tmp_path, "localhost: ssh: connect to host localhost port 22: Connection refused\n"
                                    f"{other}: ssh: connect to host {other} port 22: Connection refused\n")
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "on one node the launcher needs no ssh" not in v["fix"] and "--standalone" not in v["fix"], v
        assert "passwordless ssh to localhost" in v["fix"] and "sshd" in v["fix"], v


def test_ssh_refused_on_localhost_alone_keeps_the_single_node_launch(tmp_path):
    v, acc = _verdict(tmp_path, "localhost: ssh: connect to host localhost port 22: Connection refused\n"
                                "127.0.0.1: ssh: connect to host 127.0.0.1 port 22: Connection refused\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "on one node the launcher needs no ssh" in v["fix"] and "--num_gpus" in v["fix"], v


# --- (2) finding 3 and (1) finding 7: the JIT cache -----------------------------------------------------------------
def _jit(rank: int, path: str, why: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/opt/venv/lib/python3.12/site-packages/triton/runtime/build.py", line 80, in '
            "_load_module_from_path\n"
            f"[rank{rank}]:     mod = importlib.util.module_from_spec(spec)\n"
            f"[rank{rank}]: torch._inductor.exc.InductorError: ImportError: {path}: {why}\n")


_IND = "/tmp/torchinductor_bob/triton/0/AB/cuda_utils.cpython-311-x86_64-linux-gnu.so"


def test_one_ranks_fault_on_its_nodes_tmp_cache_names_that_rank(tmp_path):
    for rank, path, why in ((5, _IND, "cannot read file data: Stale file handle"),
                            (3, _IND, "cannot read file data: Input/output error"),
                            (1, "/tmp/triton_cache/ZZ9/cuda_utils.cpython-310-x86_64-linux-gnu.so",
                             "cannot read file data: Stale file handle")):
        v, acc = _verdict(tmp_path, _jit(rank, path, why))
        assert (v["cause"], v["culprits"]) == ("unknown", [rank]), v
        assert f"rank {rank}" in v["summary"] and "TORCHINDUCTOR_CACHE_DIR" not in v["fix"], v


def test_shared_cache_or_two_ranks_alike_stay_config(tmp_path):
    why = "cannot read file data: Stale file handle"
    for text in (_jit(5, "/home/u/.triton/cache/ZZ9/cuda_utils.cpython-310-x86_64-linux-gnu.so", why),
                 _jit(9, "/root/.triton/cache/XU5D/cuda_utils.cpython-310-x86_64-linux-gnu.so", why)
                 + _jit(13, "/root/.triton/cache/XU5D/cuda_utils.cpython-310-x86_64-linux-gnu.so", why),
                 _jit(2, _IND, why) + _jit(5, _IND, why)):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def test_inductor_cache_fix_names_inductors_cache_to_clear(tmp_path):
    why = "cannot read file data: Stale file handle"
    v, acc = _verdict(tmp_path, _jit(2, _IND, why) + _jit(5, _IND, why))
    assert v["cause"] == "config", v
    assert v["fix"].count("TORCHINDUCTOR_CACHE_DIR") == 1 and "rm -rf /tmp/torchinductor_bob" in v["fix"], v
    assert "clear the Triton cache" not in v["fix"], v
    v, acc = _verdict(tmp_path, _jit(5, "/home/u/.triton/cache/ZZ9/cuda_utils.cpython-310-x86_64-linux-gnu.so", why))
    assert "TRITON_CACHE_DIR on a node-local disk" in v["fix"] and "clear the Triton cache" in v["fix"], v
