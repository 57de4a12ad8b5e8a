"""CUDA device failures round 88 showed read by their shape (rules A, AC (1), AM (2), AT (1), AX (4), BG (4), BJ (2),
J, Q, T, V (2)): each is a CUDA call shown failing (cuda_error), and what an expert reads is whose it is (or that it
is nobody's) and the remedy that shape calls for.

- The kernel's NVRM Xid line pasted with its PCI address redacted ("NVRM: Xid (PCI:...): 145, RLW_RXPIPE ...") is still
  the driver's Xid: NVLink Xids (74, 144-150) are the GPU link's hardware, culprits [], and the fix names the NVLink
  checks (nccl-2241; the address pattern needed four characters, so the lines were read only as an unknown failure
  line). A line with a real address keeps naming that GPU.
- torch's "CUDA error: unknown error" under a rank's own tag: that rank is named (rules A, BG (4), BJ (2)) and the fix
  is what an expert gives for it -- check GPU health (nvidia-smi, dmesg / Xid), update the NVIDIA driver, and
  CUDA_LAUNCH_BLOCKING=1 since the error is reported asynchronously (mu-got-7).
- "CUDA-capable device(s) is/are busy or unavailable" raised inside torch.load's deserializer (torch/serialization.py
  frames: restoring a storage onto the GPU it was saved on) is that rank's own (rank named) and the fix leads with
  map_location ('cpu' or each rank's own device) (ms-swift-5118). The same error with no torch.load frame keeps the
  compute-mode fix alone.
- Two ranks raising the same NCCL error at the same call (same "NCCL error in: file:line, text"), one showing the
  CUDA text and the other's copy cut before its "Last error", fail alike (rules J, AM (2), AX (4)): culprits []
  (pytorch-148150). A rank whose NCCL error is another line is not counted alike.
- Transformer Engine's Userbuffers refusing "CUDA Error: operation not supported" while creating its communicator
  (userbuffers-host.cpp, initialize_ub): torch's capitalised "CUDA Error:" is a CUDA error (it was read as a settings
  check), the platform's (CUDA multicast needs a driver >= 535), culprits [], and the fix names the driver, UB_SKIPMC=1
  and turning the comm overlap off (transformerengine-991). NCCL's own 'operation not supported' keeps its cuMem fix.
- nccl-tests' "HOST: Test CUDA failure common.cu:1304 'CUDA-capable" cut before the closing quote is a CUDA failure
  (rule AT (1)); the host holds several ranks, so none is named (rule AC (1)); a text cut inside "CUDA-capable device(s)
  is/are busy or unavailable" is that error (no other CUDA string starts so), with its compute-mode fix
  (nccl-tests-369). "'no CUDA-capable" cut is not read as busy.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- NVRM Xid with its address redacted -------------------------------------------------------------------------------
def test_redacted_nvlink_xids_are_the_link_hardware_nobody_named(tmp_path):
    v, acc = _verdict(tmp_path, "kernel: NVRM: Xid (PCI:...): 145, RLW_RXPIPE Nonfatal XC0 i0 Link 11 (0x0)\n"
                                "kernel: NVRM: Xid (PCI:...): 137, RLW_RXPIPE interrupt hit on link 11: PRIV Error\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert "nvidia-smi nvlink -e" in v["fix"] and "NVLink" in v["summary"], v


def test_xid_with_an_address_still_names_its_gpu(tmp_path):
    v, _ = _verdict(tmp_path, "kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n")
    assert v["cause"] == "cuda_error" and "0000:3b:00" in v["summary"], v


# --- CUDA error: unknown error ----------------------------------------------------------------------------------------
def test_cuda_unknown_error_fix_names_gpu_health_driver_and_launch_blocking(tmp_path):
    v, acc = _verdict(tmp_path, '[rank0]:   File "/w/model/encoder.py", line 313, in forward\n'
                                "[rank0]:     attn = attn.softmax(dim=-1)\n"
                                "[rank0]: RuntimeError: CUDA error: unknown error\n"
                                "[rank0]: CUDA kernel errors might be asynchronously reported at some other API call, "
                                "so the stacktrace below might be incorrect.\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", [0]), v
    for w in ("check GPU health", "update the NVIDIA driver", "CUDA_LAUNCH_BLOCKING=1"):
        assert w.lower() in v["fix"].lower(), v


def test_illegal_memory_access_keeps_its_own_fix(tmp_path):
    v, _ = _verdict(tmp_path, "[rank0]: RuntimeError: CUDA error: an illegal memory access was encountered\n")
    assert v["cause"] == "cuda_error" and "update the NVIDIA driver" not in v["fix"], v


# --- device busy under torch.load -------------------------------------------------------------------------------------
_BUSY = "[rank0]: RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n"
_LOAD = ('[rank0]:   File "/env/lib/python3.11/site-packages/torch/serialization.py", line 601, in '
         "default_restore_location\n"
         "[rank0]:     result = fn(storage, location)\n"
         '[rank0]:   File "/env/lib/python3.11/site-packages/torch/cuda/__init__.py", line 444, in __enter__\n'
         "[rank0]:     self.prev_idx = torch.cuda._exchange_device(self.idx)\n")


def test_device_busy_inside_torch_load_names_map_location(tmp_path):
    v, _ = _verdict(tmp_path, _LOAD + _BUSY)
    assert (v["cause"], v["culprits"]) == ("cuda_error", [0]), v
    assert "map_location='cpu'" in v["fix"] and "nvidia-smi -c DEFAULT" in v["fix"], v


def test_device_busy_without_torch_load_keeps_the_compute_mode_fix(tmp_path):
    v, _ = _verdict(tmp_path, '[rank0]:   File "/w/train.py", line 9, in main\n'
                              "[rank0]:     model.cuda()\n" + _BUSY)
    assert v["cause"] == "cuda_error" and "map_location" not in v["fix"] and "nvidia-smi -c DEFAULT" in v["fix"], v


# --- two ranks' same NCCL error, one cut before its Last error --------------------------------------------------------
_AT = ("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:133, "
       "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n")
_R1 = (f"[rank1]: {_AT}"
       "[rank1]: ncclUnhandledCudaError: Call to CUDA function failed.\n"
       "[rank1]: Last error:\n"
       "[rank1]: Cuda failure 'CUDA-capable device(s) is/are busy or unavailable'\n")


def test_two_ranks_same_nccl_error_one_cut_fail_alike(tmp_path):
    v, acc = _verdict(tmp_path, _R1 + '[rank7]:   File "/w/ddp.py", line 38, in demo\n'
                                      "[rank7]:     dist.destroy_process_group()\n"
                                      f"[rank7]: {_AT}[rank7]: ncclUnhandledCudaError:\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v


def test_a_rank_with_another_nccl_error_line_is_not_alike(tmp_path):
    v, acc = _verdict(tmp_path, _R1 + "[rank7]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/"
                                      "csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error\n")
    assert v["cause"] == "cuda_error" and v["culprits"] != [], v


# --- Userbuffers: CUDA Error: operation not supported -----------------------------------------------------------------
def test_userbuffers_operation_not_supported_is_the_platform(tmp_path):
    v, acc = _verdict(tmp_path, "NVIDIA-SMI 525.105.17   Driver Version: 525.105.17   CUDA Version: 12.2\n"
                                "    te.initialize_ub(\n"
                                "RuntimeError: /src/TransformerEngine/transformer_engine/pytorch/csrc/userbuffers/"
                                "userbuffers-host.cpp:208 in function create_communicator_grouped2: CUDA Error: "
                                "operation not supported\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert "UB_SKIPMC=1" in v["fix"] and "upgrade the NVIDIA driver" in v["fix"], v


def test_nccl_operation_not_supported_keeps_its_cumem_fix(tmp_path):
    v, _ = _verdict(tmp_path, "node1:123:456 [0] transport/p2p.cc:272 NCCL WARN Cuda failure 'operation not "
                              "supported'\n")
    assert v["cause"] == "cuda_error" and "NCCL_CUMEM_ENABLE=0" in v["fix"] and "UB_SKIPMC" not in v["fix"], v


# --- nccl-tests' CUDA failure cut inside its text ---------------------------------------------------------------------
_TESTS = ("# Using devices\n"
          "#  Rank  0 Group  0 Pid 3617715 on    gpu-1-1 device  0 [0009:01:00] NVIDIA GH200 120GB\n"
          "#  Rank  1 Group  0 Pid 3617716 on    gpu-1-1 device  1 [0019:01:00] NVIDIA GH200 120GB\n"
          "#  Rank  2 Group  0 Pid 3230358 on    gpu-1-7 device  0 [0009:01:00] NVIDIA GH200 120GB\n"
          "#  Rank  3 Group  0 Pid 3230359 on    gpu-1-7 device  1 [0019:01:00] NVIDIA GH200 120GB\n")


def test_nccl_tests_cuda_failure_cut_inside_busy_is_that_error_nobody_named(tmp_path):
    v, acc = _verdict(tmp_path, _TESTS + "gpu-1-1: Test CUDA failure common.cu:1304 'CUDA-capable\n")
    assert v["cause"] == "cuda_error" and not v["culprits"] and not acc, v
    assert "nvidia-smi -c DEFAULT" in v["fix"], v


def test_nccl_tests_cuda_failure_cut_inside_another_text_is_not_busy(tmp_path):
    v, acc = _verdict(tmp_path, _TESTS + "gpu-1-1: Test CUDA failure common.cu:1304 'no CUDA-capable\n")
    assert v["cause"] == "cuda_error" and not acc and "Exclusive_Process" not in v["fix"], v
