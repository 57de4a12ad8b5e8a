"""Review 105's findings on round 105's diagnose fixes (9ea680a0..7a366534), fixed in worktree y1.

- review 105 (1) finding 1 = review 105 (2) finding 3: NCCL's transport/nvls.cc set-up failure ("Cuda failure
  'invalid argument'") names the driver and NCCL_NVLS_ENABLE=0 again (the NVLS block is the transport set-up
  branch's, not the peer-mapping branch's); a peer buffer's mapping failure keeps its own reading.
- review 105 (1) finding 5: the ordinal fix is one whole sentence (the launcher parenthesis beside the process count,
  then "one process per visible GPU: torch.cuda.device_count() must exceed local_rank"), and the model-parallel
  checkpoint clause is printed only where the lines show model parallelism.
- review 105 (1) finding 6: _MESH_REFUSALS' DTensor entry indented like its neighbours.

Hosts, pids, paths and times are made up.
"""
from __future__ import annotations

import inspect

import pytest

from tests.conftest import corpus_case_verdict
from tests.conftest import verdict_accused as _verdict
from tests.test_diagnose_family_r105collective import _op_traceback

NVLS_FIX = "NCCL_NVLS_ENABLE=0"


# --- review 105 (1) finding 1 / (2) finding 3: the NVLS set-up advice -------------------------------------------------
@pytest.mark.parametrize("host,line,err", [
    ("node1", 158, "invalid argument"),  # review 2's nvls2.log
    ("gpu-a17", 203, "invalid argument"),
    ("dgx03", 158, "operation not supported"),
])
def test_nvls_setup_failure_names_the_driver_and_nvls_switch(tmp_path, host, line, err):
    text = (f"{host}:1234:1234 [0] NCCL INFO NCCL version 2.26.2+cuda12.6\n"
            f"{host}:1234:1300 [0] transport/nvls.cc:{line} NCCL WARN Cuda failure '{err}'\n"
            "[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda "
            "error\n"
            "[rank0]: ncclUnhandledCudaError: Call to CUDA function failed.\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert NVLS_FIX in v["fix"] and "NVLS set-up failing" in v["fix"] and "driver" in v["fix"], v["fix"]


def test_the_nvls_corpus_case_names_nvls_again(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "pytorch-150852-nvls-invalid-arg")
    assert v["cause"] == "cuda_error" and not acc, v
    assert "NVLS set-up failing" in v["fix"] and NVLS_FIX in v["fix"], v["fix"]


@pytest.mark.parametrize("case", ["vllm-6732-nvls-cuda-failure-invalid-argument-h100",
                                  "vllm-9369-tp-nvls-cuda-initialization-error"])
def test_nvls_corpus_cases_keep_the_fabric_manager(tmp_path, case):
    v, acc = corpus_case_verdict(tmp_path, case)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "fabric manager" in v["fix"] and NVLS_FIX in v["fix"] and "driver" in v["fix"], v["fix"]


def test_a_p2p_transport_setup_failure_gets_no_nvls_advice(tmp_path):
    text = ("node1:1234:1300 [0] transport/p2p.cc:275 NCCL WARN Cuda failure 'invalid argument'\n"
            "[rank0]: ncclUnhandledCudaError: Call to CUDA function failed.\n")
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and NVLS_FIX not in v["fix"], v


def test_a_peer_mapping_failure_keeps_its_own_reading(tmp_path):
    for rank in (2, 5):
        v, acc = _verdict(tmp_path, _op_traceback(rank, "mapping of buffer object failed"))
        assert v["cause"] == "cuda_error" and v["confidence"] == "low" and not acc, v
        assert "peer access / P2P" in v["fix"] and NVLS_FIX not in v["fix"], v["fix"]


# --- review 105 (1) finding 5: the ordinal fix's sentence and its model-parallel clause -------------------------------
def _ordinal(proc: int, above: str = "", build: bool = True) -> str:
    frames = ('  File "/home/u/llama/api.py", line 103, in run\n'
              "    generator = Llama.build(\n"
              '  File "/home/u/llama/llama/generation.py", line 91, in build\n') if build else (
              '  File "/home/u/proj/train.py", line 30, in main\n')
    return (above + f"Process Process-{proc}:\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.10/multiprocessing/process.py", line 314, in _bootstrap\n'
            "    self.run()\n" + frames +
            "    torch.cuda.set_device(local_rank)\n"
            '  File "/opt/conda/lib/python3.10/site-packages/torch/cuda/__init__.py", line 355, in set_device\n'
            "    torch._C._cuda_setDevice(device)\n"
            "RuntimeError: CUDA error: invalid device ordinal\n")


WHOLE = ("start no more processes per host than that (--nproc_per_node / num_processes / the launch script's "
         "world_size and pipeline or tensor group sizes per host) -- one process per visible GPU: "
         "torch.cuda.device_count() must exceed local_rank")


@pytest.mark.parametrize("proc,above,build", [
    (2, "", False),  # no model parallelism shown: no checkpoint clause
    (3, "Loading data from /data/train\n", False),
    (4, "> initializing model parallel with size 1\n", False),  # size 1 is no model parallelism
])
def test_ordinal_without_model_parallelism_has_no_checkpoint_clause(tmp_path, proc, above, build):
    v, acc = _verdict(tmp_path, _ordinal(proc, above, build) + "Loaded in 7.03 seconds\n")
    assert v["cause"] == "config" and not acc, v
    assert WHOLE in v["fix"], v["fix"]
    assert "model parallel size" not in v["fix"] and "model-parallel" not in v["fix"], v["fix"]
    assert "local_rank (--nproc_per_node" not in v["fix"], v["fix"]


@pytest.mark.parametrize("proc,above,build,size", [
    (2, "> initializing model parallel with size 2\n", True, "2"),  # llama2-flask-api-5's shape
    (3, "> initializing model parallel with size 4\n", False, "4"),
    (2, "> initializing tensor model parallel with size 8\n", False, "8"),
    (2, "args: model_parallel_size=2\n", False, "2"),
    (2, "", True, "N"),  # Llama.build's frame alone: model-parallel, size not shown
])
def test_ordinal_with_model_parallelism_names_the_checkpoint(tmp_path, proc, above, build, size):
    v, acc = _verdict(tmp_path, _ordinal(proc, above, build) + "Loaded in 7.03 seconds\n")
    assert v["cause"] == "config" and not acc, v
    assert WHOLE in v["fix"], v["fix"]
    assert f"model parallel size {size} needs {size} GPUs" in v["fix"], v["fix"]


def test_the_llama2_flask_shape_keeps_its_fix_words(tmp_path):
    v, acc = _verdict(tmp_path, "> initializing model parallel with size 2\n> initializing ddp with size 1\n"
                      + _ordinal(2) + "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
                      "Loaded in 7.03 seconds\n")
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    for words in ("one process per visible GPU", "torch.cuda.device_count() must exceed local_rank",
                  "model parallel size 2 needs 2 GPUs"):
        assert words in v["fix"], (words, v["fix"])


# --- review 105 (1) finding 6: _MESH_REFUSALS' indentation ------------------------------------------------------------
def test_mesh_refusals_entries_are_indented_alike():
    from ncclDoctor.diagnose.verdict import usage
    src = inspect.getsource(usage)
    block = src[src.index("_MESH_REFUSALS"):]
    block = block[: block.index("\n)\n")]
    entries = [ln for ln in block.splitlines() if "(re.compile(" in ln]
    assert entries and all(ln.startswith("    (re.compile(") for ln in entries), entries
