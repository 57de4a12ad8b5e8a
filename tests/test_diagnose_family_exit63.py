"""How diagnose reads a process's own error whose text names what to fix, where no family of the job's machinery
explains it (round 63, session 22, fixer g3): DDP's reducer finding parameters that got no gradient, printed by a
trainer's logger instead of a traceback, and an HTTP server refusing a download.
Round 77 (session 27) added torch 1.0 DDP's _queue_reduction refused by pybind (the reducer's fix words). Each
test reads the shape from lines
other than the corpus case's own (another logger, rank, status, URL), and a near shape that must NOT be read that way.
Format strings are torch's reducer.cpp, urllib's and requests' (sources beside each test); hosts and paths are made
up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

# --- DDP's reducer: parameters that received no gradient (lead rule AW) ---------------------------------------------
# torch/csrc/distributed/c10d/reducer.cpp, Reducer::ensure_prior_reduction_finished: "Expected to have finished
# reduction in the prior iteration before starting a new one. This error indicates that your module has parameters
# that were not used in producing loss. ..." then "Parameter indices which did not receive grad for rank N: ..."
_UNUSED = ("Expected to have finished reduction in the prior iteration before starting a new one. This error indicates "
           "that your module has parameters that were not used in producing loss. You can enable unused parameter "
           "detection by passing the keyword argument `find_unused_parameters=True` to "
           "`torch.nn.parallel.DistributedDataParallel`, and by \n"
           "making sure all `forward` function outputs participate in calculating loss.\n"
           "Parameter indices which did not receive grad for rank 1: 12 13 14\n"
           " In addition, you can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or DETAIL to "
           "print out information about which particular parameters did not receive gradient on this rank as part of "
           "this error\n")


def test_unused_parameters_logged_by_a_trainer_name_the_ddp_setting_not_a_rank(tmp_path):
    """Lead rule AW: a trainer's logger (not a traceback) records DDP's reducer error that parameters got no gradient,
    naming rank 1's indices: the module and DDP setting every rank shares, culprits [], cause unknown, and the fix is
    the unused-parameter one (find_unused_parameters=True, TORCH_DISTRIBUTED_DEBUG=DETAIL), not a generic one."""
    text = "2024-03-01 10:00:00 [ERROR] trainer.engine - Exception: " + _UNUSED
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "find_unused_parameters=True" in v["fix"] and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v
    assert "unused parameters" in v["fix"], v


def test_a_reducer_bookkeeping_assert_keeps_its_own_fix(tmp_path):
    """The near shape: DDP's reducer refusing a variable marked ready twice (a backward run twice or reentrant
    checkpointing) is its bookkeeping, not unused parameters: the fix stays the backward's, and says nothing of
    parameters outside the loss."""
    text = ("2024-03-01 10:00:00 [ERROR] trainer.engine - Exception: Expected to mark a variable ready only once. This "
            "error is caused by one of the following reasons: 1) Use of a module parameter outside the `forward` "
            "function.\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [], v
    assert "use_reentrant=False" in v["fix"] and "take no part in the loss" not in v["fix"], v


# Round 67 (ms-swift-3446): the same reducer wordings under ONE rank's own tag, its traceback the only one shown
_READY_TWICE = ("[rank3]: Traceback (most recent call last):\n"
                '[rank3]:   File "/work/sft.py", line 77, in <module>\n'
                "[rank3]:     loss.backward()\n"
                "[rank3]: RuntimeError: Expected to mark a variable ready only once. This error is caused by one of "
                "the following reasons: 1) Use of a module parameter outside the `forward` function. 2) Reused "
                "parameters in multiple reentrant backward passes.\n"
                "[rank3]: Parameter at index 41 with name module.blocks.5.attn.qkv.weight has been marked as ready "
                "twice. This means that multiple autograd engine  hooks have fired for this particular parameter "
                "during this iteration.\n")


def test_a_variable_marked_ready_twice_under_one_ranks_tag_names_no_rank(tmp_path):
    """Lead rule AW (round 67): DDP's reducer refusing a parameter marked ready twice, in the only traceback shown and
    under [rank3]'s own tag, comes from the module and DDP setting every rank runs (reentrant checkpointing): no rank
    named -- not rule A's lone own exception -- cause unknown, the fix the reducer's (use_reentrant=False)."""
    d = _report(tmp_path, _READY_TWICE)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "use_reentrant=False" in v["fix"] and "static_graph" in v["fix"], v


def test_unused_parameters_under_one_ranks_tag_name_no_rank(tmp_path):
    """The other module-wide wording, parameters that got no gradient, under [rank1]'s own tag: nobody named either."""
    text = "".join(f"[rank1]: {ln}\n" for ln in ("RuntimeError: " + _UNUSED).splitlines())
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "find_unused_parameters=True" in v["fix"], v


def test_another_error_under_one_ranks_tag_still_names_that_rank(tmp_path):
    """The near shape: the same rank's traceback ending in an error of its own data (a KeyError), not the reducer's:
    rule A's lone own exception still names rank 3."""
    text = _READY_TWICE.split("[rank3]: RuntimeError")[0] + "[rank3]: KeyError: 'input_ids'\n"
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [3]), v


# --- An HTTP server refusing a download ----------------------------------------------------------------------------
# urllib/request.py's HTTPDefaultErrorHandler: raise HTTPError(req.full_url, code, msg, hdrs, fp), printed "HTTP Error
# 403: Forbidden"; requests' Response.raise_for_status: "404 Client Error: Not Found for url: URL"
def test_a_ranks_download_refused_by_its_server_says_download_once(tmp_path):
    """Lead rule A: one rank's own traceback (an mpirun tag) ends in urllib's HTTPError 403 while fetching a dataset:
    that rank is named, cause unknown (no class covers a download), and the fix names the status and downloading the
    dataset once before launch -- not the job's network."""
    text = ("[1,3]<stderr>:Traceback (most recent call last):\n"
            '[1,3]<stderr>:  File "train.py", line 40, in <module>\n'
            "[1,3]<stderr>:    ds = datasets.FashionMNIST('data', download=True)\n"
            '[1,3]<stderr>:  File "/usr/lib/python3.8/urllib/request.py", line 649, in http_error_default\n'
            "[1,3]<stderr>:    raise HTTPError(req.full_url, code, msg, hdrs, fp)\n"
            "[1,3]<stderr>:urllib.error.HTTPError: HTTP Error 403: Forbidden\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [3]), v
    assert "HTTP Error 403 Forbidden" in v["fix"] and "download the dataset once before launch" in v["fix"], v


def test_requests_not_found_reads_its_own_status(tmp_path):
    """requests' wording of a 404 under a launcher's rank prefix: the fix says the URL is gone, not a 403's refusal."""
    text = ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "prep.py", line 12, in fetch\n'
            "[rank2]:     r.raise_for_status()\n"
            "[rank2]: requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://data.example.org/a\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown" and "HTTP Error 404 Not Found" in v["fix"] and "URL is gone" in v["fix"], v


def test_an_error_naming_a_port_number_is_no_http_status(tmp_path):
    """The near shape: a rank's own error whose text holds a three-digit number (a tensor size, a port) but no HTTP
    client's status is not read as a refused download."""
    text = ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "train.py", line 12, in step\n'
            "[rank2]: RuntimeError: Error 403 in layer 12: size mismatch\n")
    v = _report(tmp_path, text)["verdict"]
    assert "download" not in v["fix"], v


# --- torch.distributed.checkpoint's CheckpointException (lead rule J) ----------------------------------------------
# torch/distributed/checkpoint/api.py, CheckpointException.__str__: f"CheckpointException ranks:{self._failures.keys()}"
# then per rank f"Traceback (most recent call last): (RANK {rank})", its frames and its exception; utils._DistWrapper
# gathers the failures of each rank's step (reduce_scatter / all_gather / all_reduce) and raises it on every rank.
def _dcp_load(printer: int, failed: int, tail: str = "") -> str:
    p = f"[rank{printer}]: "
    return (f"{p}Traceback (most recent call last):\n"
            f'{p}  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/state_dict_loader.py", '
            "line 240, in _load_state_dict\n"
            f'{p}    central_plan: LoadPlan = distW.reduce_scatter("plan", local_step, global_step)\n'
            f'{p}  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/utils.py", line 201, in '
            "reduce_scatter\n"
            f"{p}    raise result\n"
            f"{p}torch.distributed.checkpoint.api.CheckpointException: CheckpointException "
            f"ranks:dict_keys([{failed}])\n"
            f"{p}Traceback (most recent call last): (RANK {failed})\n"
            f'{p}  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/default_planner.py", '
            "line 240, in create_local_plan\n"
            f"{p}    return create_default_local_load_plan(\n" + tail)


def test_a_checkpoint_load_failing_in_dcps_plan_names_no_rank_not_even_the_printer(tmp_path):
    """Lead rule J: rank 1 prints DCP's CheckpointException naming rank 3's planning step, its error cut: a step
    every rank runs on the same checkpoint failed -- neither the printer (rank 1) nor rank 3 is named, cause unknown,
    and the fix is DCP's (the per-rank tracebacks, the state_dict against the checkpoint, the storage)."""
    d = _report(tmp_path, _dcp_load(1, 3))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "CheckpointException" in v["summary"] and "rank 3" in v["summary"], v
    assert "checkpoint state_dict keys must match" in v["fix"] and "write permissions" in v["fix"], v


def test_the_inner_error_of_a_checkpoint_exception_is_not_the_printers_own(tmp_path):
    """The same shape with rank 3's inner error shown under rank 1's prefix: it is rank 3's error re-printed, not
    rank 1 failing on its own (no lone first failure accused), and the summary quotes it."""
    tail = "[rank1]: RuntimeError: Missing key in checkpoint state_dict: model.layers.0.weight.\n"
    d = _report(tmp_path, _dcp_load(1, 3, tail))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "Missing key in checkpoint state_dict" in v["summary"], v


def test_a_plain_traceback_without_dcps_rank_header_is_still_the_ranks_own(tmp_path):
    """The near shape: a plain traceback (no '(RANK N)' header, no CheckpointException) under rank 1's prefix ending
    in its own RuntimeError stays rank 1's own first failure (lead rule A), not DCP's gathered failure."""
    text = ("[rank1]: Traceback (most recent call last):\n"
            '[rank1]:   File "train.py", line 80, in load\n'
            "[rank1]:     model.load_state_dict(sd)\n"
            "[rank1]: RuntimeError: Missing key in checkpoint state_dict: model.layers.0.weight.\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["culprits"] == [1] and "CheckpointException" not in v["summary"], v


# --- torch 1.0's DDP reducer: _queue_reduction refusing a gradient bucket (lead rule AW, round 77) ------------------
# torch 1.0's torch/nn/parallel/distributed.py, _queue_reduction(bucket_idx): dist._queue_reduction(self.process_group,
# grads_batch, self.device_ids), a pybind binding whose refusal is pybind's "incompatible function arguments" text
def _pybind_refusal(binding: str, args: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "nmt/train.py", line 301, in <module>\n'
            "    trainer.step(batch)\n"
            '  File "/opt/py36/lib/python3.6/site-packages/torch/nn/parallel/distributed.py", line 421, in '
            "reduction_fn_nccl\n"
            f"    self.device_ids)\n"
            f"TypeError: {binding}(): incompatible function arguments. The following argument types are supported:\n"
            f"    1. ({args}) -> Tuple[torch.distributed.Work, at::Tensor]\n\n"
            "Invoked with: <torch.distributed.ProcessGroupNCCL object at 0x7f11aa0e3d50>, [[None, tensor([1., 2.], "
            "device='cuda:1')]], [1]\n")


def test_ddps_queue_reduction_refused_in_backward_gets_the_unused_parameter_fix(tmp_path):
    """Round 77's xlm-109 shape: torch 1.0 DDP's own dist._queue_reduction call, refused by pybind for a bucket
    holding a parameter that got no gradient: rule AW's reducer error -- the module every rank runs, nobody named,
    cause unknown -- and the fix says what the reducer refused (unused parameters, find_unused_parameters=True after
    upgrading torch, device_ids)."""
    d = _report(tmp_path, _pybind_refusal("_queue_reduction", "process_group: torch.distributed.ProcessGroup, "
                                          "grads_batch: List[List[at::Tensor]], devices: List[int]"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    for word in ("_queue_reduction", "find_unused_parameters=True", "torch >= 1.1", "device_ids"):
        assert word in v["fix"], (word, v["fix"])


def test_another_bindings_refusal_gets_no_reducer_fix(tmp_path):
    """The near shape: another pybind binding refusing its arguments (_broadcast_coalesced) is not DDP's bucket
    reduction: none of the reducer's unused-parameter fix is given."""
    d = _report(tmp_path, _pybind_refusal("_broadcast_coalesced", "process_group: torch.distributed.ProcessGroup, "
                                          "tensors: List[at::Tensor], buffer_size: int"))
    v = d["verdict"]
    assert "_queue_reduction" not in v["fix"] and "find_unused_parameters" not in v["fix"], v["fix"]
