"""Fix words naming the shape's remedy, shapes round 98 showed read right but with a fix an expert would not give
(rules A, AK (2), J, K, T): the verdict stays as it was, the fix names what an expert names for that shape.

- NCCL's INFO lines of its NVLS set-up ("NVLS Bind mem ... UC handle ... MC handle ...", "NVLS multicast support is
  available") with nothing failing (nccl-tests-216): none, nobody; the fix names NCCL_NVLS_ENABLE=0 and the fabric
  manager / NVSwitch state if it hung there. INFO lines without NVLS (or saying multicast is not available) get none.
- A completion error in gloo's own ibverbs transport ("[enforce fail at .../gloo/transport/ibverbs/pair.cc:462]
  wc->status == IBV_WC_SUCCESS. 12 vs 0 ... transport retry counter exceeded", pytorch-10936): ib_fabric, nobody; the
  fix says NCCL_IB_* does not reach it and to use the nccl backend or gloo's tcp transport. NCCL's own NET/IB
  completion error gets none of those words.
- A SIGSEGV whose faulthandler stack has the crashing thread in a collective (c10d's all_reduce, a serving engine's
  pynccl ncclAllReduce: sglang-3745, vllm-15098), or whose Abseil crash-handler frames are NCCL's own functions
  (addProxyOpIfNeeded: vllm-6918): unknown, nobody; the fix names NCCL_DEBUG=INFO, the NCCL versions and the serving
  engine's isolation flags. A segfault in another frame, or in another thread than the crashing one, gets none.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_ENGINE = "--disable-custom-all-reduce"
_NCCL_FRAMES = "The backtrace is inside the NCCL library"


# --- NVLS set-up INFO lines ----------------------------------------------------------------------------------------
def test_nvls_setup_info_alone_names_nvls_off_and_the_fabric_manager(tmp_path):
    v, acc = _verdict(tmp_path, "gpu-node7:2211:2240 [2] NCCL INFO NVLS multicast support is available on dev 2\n"
                                "gpu-node7:2211:2240 [2] NCCL INFO NVLS Bind mem 0x9a0000000 UC handle 0x7f1d2cc1a0 "
                                "MC handle 0x7f1d2cc0b0 size 536870912\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "NCCL_NVLS_ENABLE=0" in v["fix"] and "fabric manager / NVSwitch" in v["fix"], v


def test_info_lines_without_nvls_get_no_nvls_words(tmp_path):
    v, acc = _verdict(tmp_path, "gpu-node7:2211:2240 [2] NCCL INFO NVLS multicast support is not available on dev 2\n"
                                "gpu-node7:2211:2240 [2] NCCL INFO comm 0x5581 rank 2 nranks 4 cudaDev 2 busId 41000 "
                                "- Init COMPLETE\n")
    assert v["cause"] == "none" and not acc, v
    assert "NCCL_NVLS_ENABLE" not in v["fix"], v


# --- gloo's ibverbs transport ---------------------------------------------------------------------------------------
def test_gloo_ibverbs_completion_error_names_gloo_transport_remedies(tmp_path):
    line = ("terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
            "  what():  [enforce fail at /src/torch/third_party/gloo/gloo/transport/ibverbs/pair.cc:470] "
            "wc->status == IBV_WC_SUCCESS. 12 vs 0. Memory region recv for slot 3: transport retry counter exceeded\n")
    v, acc = _verdict(tmp_path, line * 2)
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not acc, v
    assert "use the nccl backend instead of gloo over ibverbs" in v["fix"], v
    assert "transport retry counter exceeded" in v["fix"], v


def test_nccl_ib_completion_error_gets_no_gloo_words(tmp_path):
    v, acc = _verdict(tmp_path, "node3:771:802 [5] NCCL INFO NET/IB : Got completion from peer 10.0.0.4<33412> with "
                                "status=12 opcode=2 len=0 vendor err 129 (Send) localGid ::ffff:10.0.0.3 hca mlx5_2\n")
    assert v["cause"] == "ib_fabric" and not acc, v
    assert "gloo" not in v["fix"], v


# --- SIGSEGV inside a collective ------------------------------------------------------------------------------------
def test_segfault_in_a_c10d_collective_names_nccl_and_engine_remedies(tmp_path):
    v, acc = _verdict(tmp_path, "Fatal Python error: Segmentation fault\n\n"
                                "Thread 0x00007f11aa3ff640 (most recent call first):\n"
                                '  File "/usr/lib/python3.11/threading.py", line 975 in run\n\n'
                                "Current thread 0x00007f11bb870640 (most recent call first):\n"
                                '  File "/opt/py/torch/distributed/distributed_c10d.py", line 3107 in all_gather\n'
                                '  File "/opt/py/torch/distributed/c10d_logger.py", line 81 in wrapper\n')
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "NCCL_DEBUG=INFO" in v["fix"] and _ENGINE in v["fix"], v


def test_segfault_with_pynccl_stack_and_nccl_pc_names_nccl(tmp_path):
    p = "(RayWorkerWrapper pid=4711, ip=10.2.3.4) "
    v, acc = _verdict(tmp_path, "".join(p + x + "\n" for x in (
        "*** SIGSEGV received at time=1742000000 on cpu 7 ***",
        "PC: @     0x7f00d184f03d  (unknown)  ncclLaunchPrepare()",
        "    @     0x7f00fb1b8520  (unknown)  (unknown)",
        "Fatal Python error: Segmentation fault",
        "",
        "Stack (most recent call first):",
        '  File "/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/pynccl_wrapper.py", '
        "line 301 in ncclAllGather",
        '  File "/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/pynccl.py", line 140 in '
        "all_gather")))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "--enforce-eager" in v["fix"], v


def test_segfault_outside_a_collective_gets_no_collective_words(tmp_path):
    v, acc = _verdict(tmp_path, "Fatal Python error: Segmentation fault\n\n"
                                "Thread 0x00007f11aa3ff640 (most recent call first):\n"
                                '  File "/opt/py/torch/distributed/distributed_c10d.py", line 3107 in all_reduce\n\n'
                                "Current thread 0x00007f11bb870640 (most recent call first):\n"
                                '  File "/work/model/ops.py", line 41 in forward\n')
    assert v["cause"] == "unknown" and not acc, v
    assert _ENGINE not in v["fix"] and "crashed inside a collective" not in v["fix"], v


def test_abseil_frames_in_nccls_own_function_name_nccl(tmp_path):
    p = "(RayWorkerWrapper pid=812) "
    v, acc = _verdict(tmp_path, "".join(p + x + "\n" for x in (
        "*** SIGSEGV received at time=1722000000 on cpu 12 ***",
        "PC: @     0x7f0c7aa2944a  (unknown)  addProxyOpIfNeeded()",
        "    @     0x7f3c7fab6090  1954032864  (unknown)",
        "    @        0x100000001  (unknown)  (unknown)")))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert _NCCL_FRAMES in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v


def test_abseil_frames_in_another_function_get_no_nccl_words(tmp_path):
    p = "(RayWorkerWrapper pid=812) "
    v, acc = _verdict(tmp_path, "".join(p + x + "\n" for x in (
        "*** SIGSEGV received at time=1722000000 on cpu 12 ***",
        "PC: @     0x7f0c7aa2944a  (unknown)  flash_fwd_kernel_launch()",
        "    @     0x7f3c7fab6090  (unknown)  (unknown)")))
    assert v["cause"] == "unknown" and not acc, v
    assert _NCCL_FRAMES not in v["fix"], v

