"""How diagnose reads round 67's CUDA-family cases (session 24): a framework's error line that names the rank its CUDA
error was raised on ("... on rank N: CUDA error: ..."), the CUDA error that is an NVLink hardware fault
(cudaErrorNvlinkUncorrectable, rules A, AN (1)) -- tensorrt-llm-4816 showed both -- and ROCm's HSA runtime reporting a
GPU kernel's memory access fault, HIP's illegal memory access, from several processes alike (rules AN (2), J, AX (4):
gpt-neox-1310). Each test reads the shape from lines other than the corpus case's
own (other frameworks, ranks, wordings), and a near shape that must NOT be read that way. Hosts, pids and paths are
made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_ASYNC = ("CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might "
          "be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
          "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")


# --- a framework's line naming the rank its CUDA error was raised on ------------------------------------------------
def test_a_cuda_error_the_line_says_was_raised_on_rank_n_is_that_ranks_own(tmp_path):
    """A serving engine's own error line, "Exception in worker on rank 3: RuntimeError: CUDA error: ...", no launcher
    tag: the error is rank 3's own (rule A), read through the exception's class between the two; the uncorrectable
    NVLink error is the GPU's links failing (rule AN (1)), its fix the NVLink tools and the driver's Xid 74."""
    text = ("INFO 06-01 10:02:09 engine.py:180] capturing CUDA graphs for batch size 64\n"
            "ERROR 06-01 10:02:11 engine.py:201] Exception in worker on rank 3: RuntimeError: CUDA error: "
            "uncorrectable NVLink error detected during the execution\n" + _ASYNC)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [3]) and _accused(d) == {3}, v
    assert "nvlink" in v["fix"].lower() and "Xid 74" in v["fix"] and "fabric" in v["fix"], v["fix"]


def test_the_rank_named_in_the_line_wins_over_a_launcher_tag(tmp_path):
    """The same line under another process's launcher tag ("[rank0]: Failed to start executor on rank 5: CUDA error:
    ..."): the line itself says the error was raised on rank 5, so rank 5 is named, not the printing process."""
    text = ("[rank0]: [E] Failed to start executor on rank 5: CUDA error: uncorrectable NVLink error detected during "
            "the execution\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], _accused(d)) == ("cuda_error", {5}), d["verdict"]


def test_a_rank_named_elsewhere_in_a_cuda_error_line_is_not_the_errors_own(tmp_path):
    """The near shape: the line names another rank, but not as where the error was raised ("Broadcast from rank 5
    failed: CUDA error: ..."): the error stays the tagged process's own (rank 2), rank 5 is not named."""
    text = ("[rank2]: Broadcast from rank 5 failed: CUDA error: an illegal memory access was encountered\n"
            + "".join("[rank2]: " + x + "\n" for x in _ASYNC.splitlines()))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and _accused(d) == {2}, v
    assert "NVLink error (cudaErrorNvlinkUncorrectable)" not in v["summary"], v["summary"]


# --- ROCm's HSA runtime: a GPU kernel's memory access fault ---------------------------------------------------------
def _fault(node: int, handle: str, addr: str, why: str = "Unknown") -> str:
    return f"Memory access fault by GPU node-{node} (Agent handle: {handle}) on address {addr}. Reason: {why}.\n"


def test_several_processes_memory_access_faults_under_rocm_are_a_shared_cause(tmp_path):
    """ROCm's HSA runtime printing 'Memory access fault by GPU node-N (Agent handle: ..) on address .. Reason: ..'
    from three processes (other GPU nodes, other addresses), with 'GPU core dump failed' between, no rank tag: HIP's
    illegal memory access (rule AN (2)) hit alike by several processes -- a kernel or build they all run, nobody
    named (rules J, AX (4)); the fix names ROCm's serialising switches and the gfx build."""
    text = ("  3%|#         | 120/4000 [03:10<1:42:00, 1.58s/it]GPU core dump failed\n"
            + _fault(2, "0x5e1a2b0", "0x7f3a00201000") + "GPU core dump failed\n"
            + _fault(5, "0x5e19c40", "0x7f7c4be01000") + _fault(3, "0x60a1f10", "0x7f0d11a01000")
            + "GPU core dump failed\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "AMD_SERIALIZE_KERNEL" in v["fix"] and "HIP_LAUNCH_BLOCKING" in v["fix"] and "gfx" in v["fix"], v["fix"]
    assert "several processes" in v["summary"], v["summary"]


def test_one_ranks_own_memory_access_fault_names_that_rank(tmp_path):
    """The near shape: one process's fault under its launcher tag ('[rank2]: Memory access fault ...'), other ranks
    shown going on: that rank's own kernel failed first (rule A), it is named -- not read as a shared cause."""
    text = ("[rank0]: step 40 loss 2.113\n[rank1]: step 40 loss 2.120\n"
            "[rank2]: " + _fault(4, "0x7d5c290", "0x15098be01000", "Page not present or supervisor privilege"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and _accused(d) == {2}, v
    assert "several processes" not in v["summary"], v["summary"]


def test_words_about_a_memory_access_fault_without_the_runtimes_line_are_no_failure(tmp_path):
    """The near shape: a script's own message that mentions a memory access fault, not the HSA runtime's line (no
    'by GPU node-N (Agent handle: ..) on address'): no CUDA error is read."""
    text = ("INFO: set HSA_XNACK=1 to turn a memory access fault into a page migration on MI200\n"
            "INFO: step 10 loss 2.31\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "cuda_error", v


def test_a_memory_access_fault_whose_reason_is_ecc_is_the_gpus_memory(tmp_path):
    """The HSA runtime's reason 'ECC failure (if supported by HW)': the GPU's memory failed, not the kernel -- the fix
    leads with draining the node and testing that GPU."""
    v = _report(tmp_path, "[rank1]: " + _fault(6, "0x7d5b060", "0x14c2c7e01000", "ECC failure (if supported by HW)"))[
        "verdict"]
    assert v["cause"] == "cuda_error" and v["fix"].startswith("The GPU's memory reported an ECC failure"), v
