"""torch RPC's TensorPipe agents whose pipes to a peer are reset on their very first request (round 75 showed it):
the agent numbers its outgoing requests from 0 over its whole life, so a reset on request #0 (or on the response to
it) is init_rpc's start-up exchange with worker 0 -- lead rule AQ (3) as round 75's adjudication of pytorch-85607
reads it: network_setup, no worker named, the reporting workers innocent. A reset on a later request is a mid-run
peer gone (rule O), and a worker's own error shown in the lines is read by its own family. Names, numbers and sites
are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_SITE = "(this error originated at tensorpipe/transport/shm/connection_impl.cc:152)"


def _send(agent: int, req: int, peer: int = 0) -> str:
    return (f"[W tensorpipe_agent.cpp:726] RPC agent for {agent} encountered error when sending outgoing request "
            f"#{req} to {peer}: async error on socket: Connection reset by peer {_SITE}\n")


def _resp(agent: int, peer: int = 0) -> str:
    return (f"[W tensorpipe_agent.cpp:940] RPC agent for {agent} encountered error when reading incoming response "
            f"from {peer}: async error on socket: Connection reset by peer {_SITE}\n")


_CUT = 'Traceback (most recent call last):\n  File "rpc_main.py", line 61, in <module>\n    run()\n'


def test_resets_on_the_first_request_are_the_rpc_start_up(tmp_path):
    """pytorch-85607's shape with other workers: several agents reset on request #0 to worker 0 or its response,
    then a cut traceback: init_rpc's start-up exchange failing, network_setup, nobody accused; the fix names init_rpc,
    the transports and the open-files limit."""
    text = _send(4, 0) + _resp(9) + _send(12, 0) + _resp(21) + _CUT
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "init_rpc" in v["fix"] and "_transports" in v["fix"] and "ulimit -n" in v["fix"], v


def test_a_reset_on_a_later_request_or_beside_a_worker_error_is_not_the_start_up(tmp_path):
    """The near shapes: a reset on a later request (#57) among them, or only response reads with no first request
    shown, are a call in the middle of the run (rule O: the peer went away), and a worker's own exception beside them
    is read by its own family: none of them is the RPC start-up's network_setup."""
    for text in (_send(4, 0) + _send(12, 57) + _CUT,
                 _resp(9) + _resp(21) + _CUT,
                 _send(4, 0) + _send(12, 0) + 'Traceback (most recent call last):\n  File "rpc_main.py", line 61, in '
                 '<module>\n    run()\nValueError: bad shape for the batch\n'):
        v = _report(tmp_path, text)["verdict"]
        assert v["cause"] != "network_setup", (text, v)
