"""Round 106's serving-engine and linker shapes (session 43; rules J, V (2), AF (2)).

- vLLM's custom all-reduce CUDACHECK relayed by a serving wrapper without its "Cuda error" words (dynamo-787:
  "VLLM: Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'" from every TP worker at once): a CUDA
  error of the kernel every worker runs alike -- cuda_error, nobody accused; the fix names disabling the custom
  all-reduce and --enforce-eager. The same "Failed: path:line 'msg'" naming C++ source (not .cu/.cuh) is no CUDA
  error, DeepEP's "Failed: Assertion error" keeps its reading, and the custom all-reduce's peer-access message keeps
  its P2P fix.
- nccl-tests stopped by the dynamic linker's "undefined symbol: ncclRedOpCreatePreMulSum" on every process
  (msccl-16): config, nobody; the fix now says it is an NCCL version mismatch between build and runtime. Torch's
  own library missing an NCCL symbol keeps its wheel fix, without those words.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_MISMATCH = "NCCL version mismatch between build and runtime"


def _relayed(n: int, line: int, msg: str, stamp: str = "2025-06-02T11:08:14") -> str:
    return "".join(f"{stamp}.{100 + i * 7:03d}Z  INFO engine::worker: VLLM: Failed: /src/vllm/csrc/"
                   f"custom_all_reduce.cuh:{line} '{msg}'\n" for i in range(n))


# --- vLLM's custom all-reduce check relayed without "Cuda error" ----------------------------------------------------
def test_relayed_custom_allreduce_check_on_every_worker_is_cuda_error_of_nobody(tmp_path):
    text = ("Capturing CUDA graph shapes: 100%|##########| 35/35 [01:02<00:00,  1.80s/it]\n"
            + _relayed(4, 341, "invalid argument"))
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc and v["culprits"] == [], v
    assert "--disable-custom-all-reduce" in v["fix"] and "--enforce-eager" in v["fix"], v


def test_relayed_custom_allreduce_check_six_workers_other_message(tmp_path):
    v, acc = _verdict(tmp_path, _relayed(6, 402, "invalid resource handle", stamp="2025-01-17T22:40:51"))
    assert v["cause"] == "cuda_error" and not acc, v
    assert "disable vLLM custom all-reduce" in v["fix"], v


def test_failed_print_naming_cpp_source_is_no_cuda_error(tmp_path):
    v, acc = _verdict(tmp_path, "worker: Failed: /opt/src/kernels/gemm.cpp:91 'invalid argument'\n"
                                "worker: Failed: /opt/src/kernels/gemm.cpp:91 'invalid argument'\n")
    assert v["cause"] != "cuda_error" and not acc, v


def test_deep_ep_assertion_keeps_its_reading(tmp_path):
    v, acc = _verdict(tmp_path, "RuntimeError: Failed: Assertion error csrc/deep_ep.cpp:32 'num_ranks > "
                                "NUM_MAX_NVL_PEERS or low_latency_mode'\n")
    assert v["cause"] == "config" and not acc, v
    assert "--enforce-eager" not in v["fix"], v


def test_custom_allreduce_peer_access_keeps_its_p2p_fix(tmp_path):
    text = "".join("Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:307 'peer access is not supported "
                   "between these two devices'\n" for _ in range(3))
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "NCCL_P2P_DISABLE=1" in v["fix"] and "--enforce-eager" not in v["fix"], v


# --- nccl-tests' undefined NCCL symbol ------------------------------------------------------------------------------
def test_nccl_tests_undefined_symbol_names_the_version_mismatch(tmp_path):
    line = ("/opt/bench/nccl-tests/build/reduce_scatter_perf: symbol lookup error: /opt/bench/nccl-tests/build/"
            "reduce_scatter_perf: undefined symbol: ncclRedOpCreatePreMulSum\n")
    v, acc = _verdict(tmp_path, line * 3)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert _MISMATCH in v["fix"] and "ldd /opt/bench/nccl-tests/build/reduce_scatter_perf" in v["fix"], v


def test_torch_library_undefined_nccl_symbol_keeps_its_wheel_fix(tmp_path):
    v, acc = _verdict(tmp_path, "python: symbol lookup error: /opt/venv/lib/python3.10/site-packages/torch/lib/"
                                "libtorch_cuda.so: undefined symbol: ncclCommRegister\n")
    assert v["cause"] == "config" and not acc, v
    assert _MISMATCH not in v["fix"], v
