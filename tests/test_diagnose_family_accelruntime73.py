"""How diagnose reads round 73's accelerator runtime and GPU driver faults that name no CUDA call (lead rule AN (2)):
AWS Neuron's runtime error dump ("Failure: NRT_INVALID in nrt_load()") and its collective engine's ERROR lines
("ERROR ENC:init_metaring_algorithm ... failed to reuse global comm devmem reservation"); Intel's GPU compute runtime
aborting on its own check ("Abort was called at N line in file:"), named by a launcher's lone SIGABRT record (rules A,
I); and the xe / i915 / amdgpu kernel drivers' own faults of a GPU in dmesg (a job timeout and GT reset, a
VM_L2_PROTECTION_FAULT page fault), their Xid: a PCI address is no rank (rule AD (2)). Each test reads the shape from
lines other than the corpus case's own (other pids, devices, codes, wordings), and a near shape that must NOT be read
that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _verdict(tmp_path, text: str) -> tuple[dict, dict]:
    d = _report(tmp_path, text)
    return d, d["verdict"]


# --- AWS Neuron: the runtime's error dump and its collective engine (ENC) ----------------------------------------
def _infodump(pid: int, failure: bool) -> str:
    head = f"2025-Mar-02 10:04:11.20{pid % 10}311  {pid}:{pid + 90}  ERROR   NRT:nrt_infodump" + " " * 20
    lines = [head + "Kernel: Linux 6.8.0-1021-aws #23 SMP PREEMPT_DYNAMIC", head + "Driver version: 2.20.28.0"]
    if failure:
        lines.append(head + "Failure: NRT_TIMEOUT in nrt_execute()")
    return "\n".join(lines) + "\n"


def test_neuron_runtime_failure_dumped_by_every_process_is_a_device_error_nobody_named(tmp_path):
    """Two processes each dump the runtime's 'Failure: NRT_x in nrt_y()': the Neuron runtime refused that call on every
    process shown (rules AN (2), J): cuda_error, nobody named, the Neuron runtime's fix."""
    d, v = _verdict(tmp_path, _infodump(5120, True) + _infodump(5133, True))
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "NEURON_RT_LOG_LEVEL" in v["fix"] and "neuron-ls" in v["fix"], v["fix"]


def test_neuron_infodump_lines_without_a_failure_are_no_device_error(tmp_path):
    """The near shape: the dump's kernel and driver lines alone, at ERROR level, name no failing call."""
    d, v = _verdict(tmp_path, _infodump(5120, False) + _infodump(5133, False))
    assert v["cause"] != "cuda_error", v


def test_neuron_collective_engine_error_is_a_device_error(tmp_path):
    text = "".join(f"2025-Feb-11 08:15:42.71{i}004 {pid}:{pid + 2100} ERROR   ENC:enc_init_comm" + " " * 17
                   + f"[nec_dev {dev} ch 0] failed to allocate the proxy's ring buffers\n"
                   for i, (pid, dev) in enumerate(((7710, 2), (7713, 4))))
    d, v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "enc_init_comm" in v["summary"] and "NEURON_RT_VISIBLE_CORES" in v["fix"], v


def test_neuron_collective_engine_info_lines_are_no_device_error(tmp_path):
    """The near shape: the same engine's INFO lines (its rings being built) say nothing failed."""
    text = "".join(f"2025-Feb-11 08:15:42.71{i}004 {pid}:{pid + 2100} INFO    ENC:init_metaring_algorithm" + " " * 8
                   + f"[nec_dev {dev} ch 0] built ring 0 of 2\n" for i, (pid, dev) in enumerate(((7710, 2), (7713, 4))))
    d, v = _verdict(tmp_path, text)
    assert v["cause"] != "cuda_error", v


# --- Intel's GPU compute runtime aborting, and the launcher's one SIGABRT record ---------------------------------
def _neo(records: list[tuple[int, int]]) -> str:
    return ("2024-02-08 10:12:01,331 - composer.trainer.trainer - INFO - Epoch 3 done\n"
            "Abort was called at 112 line in file:\n"
            "./shared/source/os_interface/linux/drm_neo.cpp\n"
            + "".join(f"2024-02-08 10:12:02,904 - composer.cli.launcher - ERROR - Rank {r} crashed with exit code "
                      f"{code}.\n" for r, code in records))


def test_compute_runtime_abort_before_one_ranks_sigabrt_record_is_that_ranks_device_error(tmp_path):
    d, v = _verdict(tmp_path, _neo([(2, -6)]))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [2]), v
    assert "compute-runtime" in v["fix"] and "gdb" in v["fix"], v["fix"]


def test_compute_runtime_abort_names_no_rank_when_several_ranks_are_recorded_failing(tmp_path):
    """The near shapes: two ranks recorded ending by SIGABRT -- the abort is still the device runtime's error, but
    whose is not said: nobody named; and the launcher's SIGABRT record with no runtime abort above it is no device
    error at all."""
    d, v = _verdict(tmp_path, _neo([(2, -6), (5, -6)]))
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    text = "".join(ln + "\n" for ln in _neo([(2, -6)]).splitlines() if "line in file" not in ln and "neo" not in ln)
    d, v = _verdict(tmp_path, text)
    assert v["cause"] != "cuda_error", v


# --- the kernel drivers' own faults of a GPU in dmesg -----------------------------------------------------------
def test_xe_driver_job_timeout_and_gt_reset_is_a_device_error_nobody_named(tmp_path):
    pre = "[Mon Mar  9 07:02:44 2026] xe 0000:83:00.0: [drm] Tile0: GT1: "
    text = "".join(pre + s + "\n" for s in (
        "Check job timeout: seqno=2201, lrc_seqno=2201, guc_id=4, not started",
        "Timedout job: seqno=2201, lrc_seqno=2201, guc_id=4, flags=0x0 in python3 [31337]",
        "trying reset from guc_exec_queue_timedout_job [xe]", "reset started", "reset done"))
    d, v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "devcoredump" in v["fix"] and "GuC firmware" in v["fix"] and "0000:83:00.0" in v["fix"], v["fix"]
    d, v = _verdict(tmp_path, "[  811.204551] i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in python3 "
                              "[4410]\n")
    assert v["cause"] == "cuda_error" and not _accused(d), v


def test_xe_driver_start_up_lines_are_no_device_error(tmp_path):
    """The near shape: the driver loading its GuC firmware and resetting the GT at boot names no timed-out job."""
    pre = "[Mon Mar  9 07:00:01 2026] xe 0000:83:00.0: [drm] "
    text = "".join(pre + s + "\n" for s in (
        "Using GuC firmware from xe/bmg_guc_70.bin version 70.36.0", "Tile0: GT1: reset started",
        "Tile0: GT1: reset done"))
    d, v = _verdict(tmp_path, text)
    assert v["cause"] != "cuda_error", v


def _amdgpu(status: str) -> str:
    pre = "[Wed Jan 14 03:11:09 2026] amdgpu 0000:{b}:00.0: amdgpu: "
    return "".join(pre.format(b=b) + s + "\n" for b in ("1b", "9d") for s in (
        "[gfxhub] page fault (src_id:0 ring:40 vmid:3 pasid:32771)" if status != "0x00000000" else
        "  for process python3 pid 8812 thread python3 pid 8812)",
        f"VM_L2_PROTECTION_FAULT_STATUS:{status}",
        "\t Faulty UTCL2 client ID: TCP (0x8)" if status != "0x00000000" else "\t RW: 0x0"))


def test_amdgpu_page_faults_of_several_gpus_are_a_device_error_nobody_named(tmp_path):
    d, v = _verdict(tmp_path, _amdgpu("0x00841051"))
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "AMD_SERIALIZE_KERNEL=3" in v["fix"] and "rocm-smi" in v["fix"], v["fix"]


def test_amdgpu_fault_client_alone_is_read_where_the_status_line_is_cut(tmp_path):
    """The driver decodes the faulting client only for a fault: its line alone (the status line cut by a wrap) is
    the same page fault."""
    text = "".join(f"[Wed Jan 14 03:11:09 2026] amdgpu 0000:{b}:00.0: amdgpu:          Faulty UTCL2 client ID: "
                   "SQC (data) (0xa)\n" for b in ("1b", "9d"))
    d, v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v


def test_amdgpu_fault_status_of_zeroes_is_no_device_error(tmp_path):
    """The near shape: the register dump with an all-zero status and no page-fault or client line: nothing
    faulted."""
    d, v = _verdict(tmp_path, _amdgpu("0x00000000"))
    assert v["cause"] != "cuda_error", v
