"""Wordings round 76 showed diagnose not reading: a rank's unique-id wait cut right after "retrieving ncclUniqueId"
(rule G's wait for rank 0); DeepSpeed's cross-rank check "disagreement between rank0 and rankN" (a desync with no
majority: rules AH (1), BF (2), D); NCCL's symmetric-memory allocator finding no room ("No suitable space found ...
within limit": NCCL's own limit, nccl_internal, no rank); Ray's "Worker exits unexpectedly. Worker exits with an exit
code None" (its worker-death report, the K8s pod-memory hint only a pointer for the fix, not host_oom); torch's
"Error(s) in loading state_dict" (a state-dict fix, the cause left unread). Each with a near shape that must not be
read that way. Hosts, ranks, sizes and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_DDP_TB = ('[rank2]: Traceback (most recent call last):\n'
           '[rank2]:   File "/home/u/proj/train.py", line 88, in main\n'
           '[rank2]:     model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device])\n'
           '[rank2]:   File "/opt/env/lib/python3.11/site-packages/torch/distributed/utils.py", line 269, in '
           '_verify_param_shape_across_processes\n'
           '[rank2]:     return dist._verify_params_across_processes(process_group, tensors, logger)\n')


def test_a_unique_id_wait_cut_after_its_id_is_rule_g(tmp_path):
    """fastclip-1's shape with other numbers: rank 2's DistBackendError ends at "retrieving ncclUniqueId" (the paste
    cut there): the same store read of the id rank 0 publishes -- rank_missing, rank 0 named, rank 2 not accused."""
    text = _DDP_TB + ("[rank2]: torch.distributed.DistBackendError: [2] is setting up NCCL communicator and retrieving "
                      "ncclUniqueId\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [0]) and 2 not in _accused(d), v
    assert "py-spy" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v


def test_a_unique_id_line_going_on_in_other_words_is_not_the_wait(tmp_path):
    """The near shape: the same words followed by other text on the line (no "from [N]", not the line's end) are not
    torch's raised wait: not read as rule G's."""
    text = _DDP_TB + ("[rank2]: torch.distributed.DistBackendError: [2] is setting up NCCL communicator and retrieving "
                      "ncclUniqueId took longer than expected\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "rank_missing", v


_DS = ("  File \"/opt/env/lib/python3.10/site-packages/deepspeed/runtime/utils.py\", line 912, in "
       "assert_ints_same_as_other_ranks\n"
       "    raise RuntimeError(f\"disagreement between rank0 and rank{dist.get_rank()}: \"\n")


def test_deepspeed_rank0_disagreement_is_a_desync_with_nobody_named(tmp_path):
    """llamafactory-4428's shape with other ids: DeepSpeed's check that a rank's parameter ids match rank 0's fails on
    rank 3: the ranks were about to issue different gathers -- desync, nobody named or proven innocent."""
    text = _DS + ("RuntimeError: disagreement between rank0 and rank3: rank0: [-1201, 3302, 4405], "
                  "rank3: [-1201, 4405]\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), v
    assert "set_z3_leaf_modules" in v["fix"] and "ZeRO-2" in v["fix"], v


def test_the_echoed_raise_line_alone_is_not_the_disagreement(tmp_path):
    """The near shape: the traceback's echo of the raise statement, with the exception line not pasted, shows no
    check failing on any rank: not read as a desync."""
    v = _report(tmp_path, "Traceback (most recent call last):\n" + _DS)["verdict"]
    assert v["cause"] != "desync", v


def _space(size: str = "0x1a00000000", limit: str = "0x2000000000") -> str:
    return (f"[1] nccl/src/allocator.cc:229 (ncclSpaceAlloc) NCCL WARN Allocation failed. No suitable space found to "
            f"accommodate size={size} within limit={limit}\n"
            "[1] NCCL INFO nccl/src/dev_runtime.cc:602 (symMemoryObtain) -> 3\n"
            "[1] NCCL INFO nccl/src/dev_runtime.cc:901 (ncclDevrWindowRegisterInGroup) -> 3\n"
            "[1] NCCL INFO nccl/src/group.cc:79 (ncclAsyncJobMain) -> 3 [Async thread]\n")


def test_symmetric_space_exhausted_is_nccl_internal_with_no_rank(tmp_path):
    """nccl-2331's shape with other sizes: NCCL's own symmetric-space allocator finds no room for a window: its own
    limit (ncclInternalError), no rank at fault; the fix deregisters or reuses windows."""
    d = _report(tmp_path, _space())
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not _accused(d), v
    assert "ncclCommWindowDeregister" in v["fix"] and "NCCL_WIN_ENABLE=0" in v["fix"], v


def test_a_plain_allocation_failure_stays_a_system_resource(tmp_path):
    """The near shape: NCCL's host allocation failing without the symmetric-space words is still the system-resource
    family (host memory), not NCCL's own range."""
    text = "[1] NCCL WARN Failed to malloc 67108864 bytes: Allocation failed\n"
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "nccl_internal", v


def _ray(detail: str) -> str:
    return ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "        class_name: TaskRunner\n        pid: 40412\n"
            "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit "
            f"detail: {detail}\n")


def test_ray_worker_exit_code_none_with_the_pod_memory_hint_is_unknown(tmp_path):
    """agent-r1-33's shape with another pid: Ray's worker-death report with no exit code and its K8s pod-memory hint:
    a process died, the cause not shown (no OOM record): unknown, nobody named; the fix points at the pod's limit."""
    d = _report(tmp_path, _ray("Worker exits unexpectedly. Worker exits with an exit code None. The worker may have "
                               "exceeded K8s pod memory limits."))
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not _accused(d), v
    assert "kubectl describe pod" in v["fix"] and "raylet.out" in v["fix"], v


def test_ray_worker_death_without_the_hint_names_no_pod_limit(tmp_path):
    """The near shape: the same report without the hint is still Ray's worker death (unknown), its fix without the
    pod's memory limit; and the hint never makes it a host OOM."""
    v = _report(tmp_path, _ray("Worker exits unexpectedly. Worker exits with an exit code 1."))["verdict"]
    assert v["cause"] == "unknown" and "raylet.out" in v["fix"] and "kubectl" not in v["fix"], v
    v = _report(tmp_path, _ray("Worker exits unexpectedly. Worker exits with an exit code None. The worker may have "
                               "exceeded K8s pod memory limits."))["verdict"]
    assert v["cause"] != "host_oom", v


_LOAD = ("Error(s) in loading state_dict for Linear:\n"
         "\tsize mismatch for weight: copying a param with shape torch.Size([0, 33]) from checkpoint, the shape in "
         "current model is torch.Size([2, 33]).\n"
         '  File "/opt/env/lib/python3.11/site-packages/torch/nn/modules/module.py", line 2584, in load_state_dict\n'
         "    raise RuntimeError(\n"
         '  File "/opt/env/lib/python3.11/site-packages/torch/distributed/checkpoint/state_dict.py", line 1203, in '
         "set_model_state_dict\n"
         "    return _load_model_state_dict(model, model_state_dict, info)\n")


def test_a_state_dict_load_refused_gets_the_state_dict_fix(tmp_path):
    """pytorch-136228's shape with other sizes: load_state_dict's size mismatch under set_model_state_dict, the
    traceback cut: unknown, nobody named (no setting shown wrong), the fix names StateDictOptions and uneven
    sharding."""
    d = _report(tmp_path, _LOAD)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "StateDictOptions" in v["fix"] and "set_model_state_dict" in v["fix"], v


def test_another_unread_error_gets_no_state_dict_fix(tmp_path):
    """The near shape: another unread error line over a cut traceback gets no state-dict advice."""
    text = _LOAD.replace("Error(s) in loading state_dict for Linear:", "Error(s) in building the Linear layer:") \
        .replace("\tsize mismatch for weight: copying a param with shape", "\tbad weight: a param with shape")
    v = _report(tmp_path, text)["verdict"]
    assert "StateDictOptions" not in v["fix"], v
