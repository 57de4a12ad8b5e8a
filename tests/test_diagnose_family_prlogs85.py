"""PyTorch PR logs round 85 showed read wrong: a store reset in TCPStore's constructor, and a process group torn down
while a peer still waited (rules L, Y, AS (1), N, O, B).

- c10d's store socket warning "[c10d] recvValue failed on SocketImpl(...): Connection reset by peer" whose own C++
  frames (printed under it, "Exception raised from recvBytes") go through c10d::TCPStore::TCPStore ->
  TCPStore::waitForWorkers -> incrementValueBy: the very first request on a freshly made store connection, while the
  store is being constructed at start-up, which the client does not retry. The store connection failing at set-up is
  store_rendezvous with nobody at fault (rules L, Y, as rule AS (1) reads a rendezvous reset at set-up), not rule N's
  exit-time warning of a store host gone (pytorch-pr129985; it was read as the store's host dying, cause unknown).
  NOT read so: the same reset under TCPStore::check() (the heartbeat monitor's poll at teardown, rule N: harmless
  alone -- near shape below), and the constructor's ping() that the client retries ("failed to connect/validate ...
  retrying", round 78's vllm-18362, in the corpus).
- ProcessGroupNCCL's INFO "[Rank 1] NCCL watchdog thread terminated normally" (printed only when the group's
  destructor stops its watchdog: that process was leaving) and, at or after it, another rank's collective wait timing
  out under NCCL_BLOCKING_WAIT (torch 1.x logs "[Rank 0] Wrote aborted communicator id to store: NCCLABORTEDCOMM:..."
  only in that wait's timeout path, before its "Caught collective operation timeout", which a paste may cut): the
  leaving rank exited early, the waiting rank its victim -- early_exit (the class's definition; rule O reads a peer
  gone mid-run the same way; pytorch-pr46010, read as nothing failing). NOT read so: every rank's watchdog terminated
  with nothing waiting (a clean end -- near shape below), a timeout stamped before the teardown, a rank that both left
  and timed out, or any error, signal or exit record shown (their own readings decide).
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text

_RESET = ("[trainer4411|3]:W0701 13:41:43.421574  4776 TCPStore.cpp:182] [c10d] recvValue failed on SocketImpl(fd=24, "
          "addr=[node-a]:51320, remote=[node-b]:29500): Connection reset by peer\n"
          "[trainer4411|3]:Exception raised from recvBytes at /opt/pytorch/torch/csrc/distributed/c10d/Utils.hpp:669 "
          "(most recent call first):\n")


def _frames(*fns: str) -> str:
    return "".join(f"[trainer4411|3]:#{i + 8} {fn} from /opt/conda/lib/python3.10/site-packages/torch/lib/"
                   f"libtorch_cpu.so:8480{i}637\n" for i, fn in enumerate(fns))


def test_store_reset_in_the_constructor_is_the_store_connection_at_setup(tmp_path):
    d = diagnose_text(tmp_path, _RESET + _frames(
        "c10d::TCPStore::incrementValueBy(std::string const&, long)", "c10d::TCPStore::waitForWorkers()",
        "c10d::TCPStore::TCPStore(std::string, c10d::TCPStoreOptions const&)"))
    v = d["verdict"]
    assert v["cause"] == "store_rendezvous", v
    assert v["culprits"] == [] and not accused(d)
    assert "MASTER_ADDR" in v["fix"] and "TCPStore" in v["fix"]


def test_store_reset_under_the_heartbeat_poll_keeps_its_reading(tmp_path):
    v = diagnose_text(tmp_path, _RESET + _frames(
        "c10d::TCPStore::check(std::vector<std::string> const&)",
        "c10d::ProcessGroupNCCL::heartbeatMonitor()"))["verdict"]
    assert v["cause"] != "store_rendezvous", v
    assert v["culprits"] == []


_INIT = ("I1002 15:18:48.539551 1822062 ProcessGroupNCCL.cpp:528] [Rank {r}] NCCL watchdog thread started!\n"
         "I1002 15:18:48.539533 1821946 ProcessGroupNCCL.cpp:492] [Rank {r}] ProcessGroupNCCL initialized with "
         "following options:\nNCCL_ASYNC_ERROR_HANDLING: 0\nNCCL_BLOCKING_WAIT: 1\nTIMEOUT(ms): 1000\n")


def _done(r: int, t: str) -> str:
    return f"I1002 15:18:{t} 1822035 ProcessGroupNCCL.cpp:530] [Rank {r}] NCCL watchdog thread terminated normally\n"


def test_group_destroyed_while_a_peer_waits_is_early_exit(tmp_path):
    text = (_INIT.format(r=0) + _done(2, "51.080338")
            + "I1002 15:18:52.161218 1821930 ProcessGroupNCCL.cpp:385] [Rank 0] Wrote aborted communicator id to "
              "store: NCCLABORTEDCOMM:a0e17500002836080c8384c500000001\n"
            + "I1002 15:18:52.161238 1821930 ProcessGroupNCCL.cpp:388] [Rank 0] Caught coll\n")
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "early_exit", v
    assert v["culprits"] == [2] and 0 not in accused(d)
    assert "barrier before exit" in v["fix"]


def test_every_rank_tearing_down_with_nothing_waiting_is_no_early_exit(tmp_path):
    d = diagnose_text(tmp_path, _INIT.format(r=0) + _done(0, "51.080338") + _done(1, "51.090338"))
    v = d["verdict"]
    assert v["cause"] != "early_exit", v
    assert not accused(d)
