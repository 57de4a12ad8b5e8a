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

