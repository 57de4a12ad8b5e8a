"""How diagnose reads round 69's collective calls (session 25): a backend refusing a collective it does not implement
('ProcessGroupNCCL does not support gather', rules AV, BA (3), BB (4)), the job's own prints showing two processes
handing different sizes to one all_gather (rules D, BB (2)), and a framework's line announcing a failed call above a
traceback the paste cuts before its exception (rules AB (2), AN (1): the fix asks for the full traceback). Each test
reads the shape from lines other than the round's own (other backends, ops, labels, devices, frameworks), and a near
shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_C10D = "/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py"


# --- a backend refusing a collective it does not implement -----------------------------------------------------------
def test_a_backend_refusing_a_collective_it_lacks_is_invalid_usage(tmp_path):
    """A rank's traceback through reduce_scatter into c10d, ending in gloo's refusal of the op (and the Backend base
    class's wording for another op): the same call on the same torch build on every rank -- invalid_usage, nobody
    named, the fix naming another collective, a gloo group or a torch upgrade."""
    for msg in ("RuntimeError: ProcessGroupGloo does not support reduce_scatter",
                "RuntimeError: Backend nccl does not support allgather_into_tensor_coalesced"):
        text = ("[rank3]: Traceback (most recent call last):\n"
                '[rank3]:   File "/home/u/proj/sharded.py", line 77, in step\n'
                "[rank3]:     dist.reduce_scatter(out, chunks)\n"
                f'[rank3]:   File "{_C10D}", line 3310, in reduce_scatter\n'
                "[rank3]:     work = group.reduce_scatter([output], [input_list], opts)\n"
                f"[rank3]: {msg}\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), (msg, v)
        assert "does not support" in v["fix"] and "gloo" in v["fix"] and "upgrade PyTorch" in v["fix"], v["fix"]


def test_another_library_not_supporting_an_input_is_not_a_backend_refusal(tmp_path):
    """The near shape: a kernel library's own 'does not support' of the rank's input (no process group, no backend)
    is not c10d refusing a collective: not the backend reading."""
    text = ("Traceback (most recent call last):\n"
            '  File "/home/u/proj/model.py", line 51, in forward\n'
            "    out = flash_attn_func(q, k, v)\n"
            "RuntimeError: FlashAttention does not support head dimension 320\n")
    v = _verdict(tmp_path, text)
    assert "backend refused" not in v["summary"], v


# --- the job's own prints of what it hands to a collective ------------------------------------------------------------
def _prints(label: str, a: tuple[str, int], b: tuple[str, int]) -> str:
    return (f"{label}: tensor([0.1250, 0.5000], device='{a[0]}') torch.Size([{a[1]}, 16])\n"
            "epoch 3 step 120 loss 0.4312\n"
            f"{label}: tensor([0.3750, 0.2500], device='{b[0]}') torch.Size([{b[1]}, 16])\n")


def test_prints_of_different_sizes_handed_to_one_all_gather_are_a_desync(tmp_path):
    """Two processes print the tensor they hand to all_gather (their own label, their device, its shape): cuda:2 holds
    512 rows, cuda:3 509 -- one collective issued with different sizes (rules D, BB (2)): desync, nobody named (a
    device is no rank), the fix padding to one size or gathering the sizes first."""
    d = _report(tmp_path, _prints("embeddings pre all_gather", ("cuda:2", 512), ("cuda:3", 509)))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), v
    assert "pad" in v["fix"] and "all_gather_object" in v["fix"], v["fix"]


def test_prints_of_one_size_of_results_or_of_one_device_are_no_desync(tmp_path):
    """The near shapes: the same size on both devices, different sizes printed after the gather (its output), a
    gather_object's inputs (any size), and one device printing two sizes at two calls: not a desync."""
    for text in (_prints("embeddings pre all_gather", ("cuda:2", 512), ("cuda:3", 512)),
                 _prints("embeddings after all_gather", ("cuda:2", 512), ("cuda:3", 509)),
                 _prints("preds before gather_object", ("cuda:2", 512), ("cuda:3", 509)),
                 _prints("embeddings pre all_gather", ("cuda:2", 512), ("cuda:2", 509))):
        v = _verdict(tmp_path, text)
        assert v["cause"] != "desync", (text, v)


# --- a failed call announced above a traceback the paste cuts ---------------------------------------------------------
_ANNOUNCED = ("2025-03-04 09:12:41 ERROR 81233 [executor_base.py:96] Error executing method load_model. This might "
              "cause deadlock in distributed execution.\n")
_CUT_TB = ("2025-03-04 09:12:41 ERROR 81233 [executor_base.py:96] Traceback (most recent call last):\n"
           '2025-03-04 09:12:41 ERROR 81233 [executor_base.py:96]   File "/opt/venv/lib/python3.11/site-packages/'
           'engine/worker.py", line 210, in load_model\n'
           "2025-03-04 09:12:41 ERROR 81233 [executor_base.py:96]     self.model_runner.load_model()\n"
           '2025-03-04 09:12:41 ERROR 81233 [executor_base.py:96]   File "/opt/venv/lib/python3.11/site-packages/'
           'engine/runner.py", line 1022, in load_model\n'
           "2025-03-04 09:12:41 ERROR 81233 [executor_base.py:96]     weights = recv_dict(src=self.driver_rank)\n")


def test_a_failed_call_announced_above_a_cut_traceback_asks_for_the_full_traceback(tmp_path):
    """A serving engine's logger announcing that a method raised, its traceback after it cut inside the frames: the
    error itself was not pasted (rules AB (2), AN (1)) -- unknown, nobody named, the fix asking for the full traceback
    and every rank's log, the first error in time."""
    d = _report(tmp_path, _ANNOUNCED + _CUT_TB)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "full traceback" in v["fix"] and "first error" in v["fix"], v["fix"]


def test_a_failed_call_announced_with_no_cut_traceback_below_keeps_its_own_fix(tmp_path):
    """The near shapes: the announcement alone, and a traceback above it that the lines go on after (the input does
    not stop inside it): the unknown announcement's fix, not the cut traceback's."""
    for text in (_ANNOUNCED, _CUT_TB + "epoch 1 step 3\n" + _ANNOUNCED):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "unknown" and "Paste the full traceback" not in v["fix"], (text, v)
