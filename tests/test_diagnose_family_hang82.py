"""Waits round 82 showed read wrongly or too thinly: store waits at set-up, a wait for key '0', kernel receive
timeouts and a blocked watchdog (rules AI (1), G, Y, BP (2), P, BN (1), AB (2), watchdog_blocked's table row).

- A bare timeout raised right under a traceback's code line constructing the gloo group ("pg = ProcessGroupGloo(
  prefix_store, ...)", "backend_class = ProcessGroupGloo(") -- a cut "RuntimeError: Connection timed", a
  "DistStoreError: wait timeout after N ms, keys: ..." -- with no gloo connect text and no peer address: the
  constructor's exchange of the peers' addresses through the store timed out (rule AI (1)): store_rendezvous, nobody
  named, the fix naming MASTER_ADDR reachable from every node and GLOO_SOCKET_IFNAME. Round 82's colossalai-2500
  (new_group's gloo CPU group) and vllm-ascend-2248 (under a vLLM worker's logger record head). gloo's own connect
  failure naming a peer, or the same exception under another call's frame, is not read so.
- A connected process's store read timing out naming key '0' alone ("Wait timeout for key(s): 0", Horovod's HTTP
  rendezvous store under a gloo::IoException's terminate, horovod-2015): rank 0, which publishes that key, never got
  there (rules G, Y): rank_missing, culprit 0, the waiting rank innocent; Horovod's gloo timeout in the fix. A wait
  naming another key is not read so.
- DeepEP's kernel receive timeouts alone ("dispatch NVL receiver timeout ... head == tail", deepep-60): no sender's or
  forwarder's timeout with data still remaining, no SeqNum, no process exiting -- cause unknown, nobody named (rule
  BP (2)); beside a forwarder's own timeout they stay the transport stall (round 81's deepep-137).
- A watchdog timeout that ran many times its limit (nemo-speech-8441): the fix says the watchdog thread was stuck and
  names a py-spy dump of every rank.

Not fixed here (see the round's report): pytorch-lightning-5646 (an unprefixed validation bar before ranks 2, 3 and 17
time out in a BROADCAST is rule I's rank 0, as test_diagnose_family_hang's test of that shape holds) and
ms-swift-9188 (an untagged waitForInput timeout with its c10d header is the agent's rendezvous, as
test_diagnose_family_fabric's and crossrank72's tests hold).
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import watchdog_line

_C10D = "/env/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py"
_NEW_GROUP = ("Traceback (most recent call last):\n"
              "  File \"train.py\", line 169, in main\n"
              "    cpu_group = dist.new_group(ranks, backend='gloo')\n"
              f"  File \"{_C10D}\", line 2974, in new_group\n"
              "    pg = _new_process_group_helper(\n"
              f"  File \"{_C10D}\", line 703, in _new_process_group_helper\n"
              "    pg = ProcessGroupGloo(prefix_store, rank, world_size, timeout=timeout)\n")


def test_a_bare_timeout_under_the_gloo_groups_construction_is_its_store_exchange(tmp_path):
    vllm = "(VllmWorker rank=0 pid=4189097) ERROR 08-06 22:23:09 [multiproc_executor.py:487] "
    for text in (_NEW_GROUP + "RuntimeError: Connection timed\n",
                 _NEW_GROUP + "RuntimeError: [Errno 110] Connection timed out\n",
                 vllm + f"  File \"{_C10D}\", line 1744, in _new_process_group_helper\n"
                 + vllm + "    backend_class = ProcessGroupGloo(\n\n"
                 + vllm + "torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: "
                 "/default_pg/0//54//cpu//0/2\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), (text, v)
        for word in ("GLOO_SOCKET_IFNAME", "MASTER_ADDR reachable from every node", "ProcessGroupGloo"):
            assert word in v["fix"] + v["summary"], (word, v)


def test_a_timeout_under_another_call_or_with_glooss_own_peer_text_is_not_read_so(tmp_path):
    # the same exception under a collective's frame, not the gloo group's construction
    other = _NEW_GROUP.replace("    pg = ProcessGroupGloo(prefix_store, rank, world_size, timeout=timeout)\n",
                               "    work = group.allreduce([tensor], opts)\n")
    v = _verdict(tmp_path, other + "RuntimeError: Connection timed\n")
    assert "ProcessGroupGloo" not in v["summary"], v
    # gloo's own connect failure naming its peer stays gloo's transport reading (rule L), not the store exchange
    v = _verdict(tmp_path, _NEW_GROUP + "RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:799] "
                 "connect [10.0.0.5]:38261: Connection timed out\n")
    assert "the constructor reads every peer's address" not in v["summary"], v


_HVD = "[1]<stderr>:"


def test_a_store_wait_for_key_0_names_rank_0_and_spares_the_waiting_rank(tmp_path):
    text = (f"Tue Jun  9 20:10:40 2020{_HVD}terminate called after throwing an instance of 'gloo::IoException'\n"
            f"Tue Jun  9 20:10:40 2020{_HVD}  what():  [horovod/common/gloo/http_store.cc:53] "
            "[horovod/common/gloo/http_store.cc:53] Wait timeout for key(s): 0\n"
            f"Tue Jun  9 20:10:40 2020{_HVD}*** Received signal 6 ***\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [0]) and 1 not in _accused(d), v
    assert "HOROVOD_GLOO_TIMEOUT_SECONDS" in v["fix"] and "--gloo-timeout-seconds" in v["fix"], v


def test_a_store_wait_for_another_key_is_not_rank_0s(tmp_path):
    text = (f"{_HVD}terminate called after throwing an instance of 'gloo::IoException'\n"
            f"{_HVD}  what():  [horovod/common/gloo/http_store.cc:53] Wait timeout for key(s): 3\n")
    d = _report(tmp_path, text)
    assert 0 not in _accused(d), d["verdict"]


_NVL = "DeepEP dispatch NVL receiver timeout, channel: {ch}, RDMA: 1, nvl: 0, src NVL: 2, head: {h}, tail: {h}\n"


def test_deepep_receive_timeouts_alone_are_unknown(tmp_path):
    text = "".join(_NVL.format(ch=ch, h=40 + ch) for ch in range(4)) + (
        "terminate called after throwing an instance of 'c10::Error'\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "NVSHMEM_DEBUG=INFO" in v["fix"] and "stacks of every rank" in v["fix"], v


def test_deepep_receive_timeouts_beside_a_forwarders_own_timeout_stay_a_transport_stall(tmp_path):
    text = "".join(_NVL.format(ch=ch, h=40 + ch) for ch in range(2)) + "".join(
        f"DeepEP dispatch forwarder timeout (RDMA meta), channel: {ch}, RDMA: 0, nvl: 1, src RDMA lane: 2, dst NVL: 0, "
        "meta: 0, 0, 0, 0\n" for ch in range(2))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "transport_stall", v


def test_a_watchdog_that_ran_hours_past_its_timeout_names_the_stuck_watchdog_thread(tmp_path):
    text = "".join(watchdog_line(r, seq, "ALLREDUCE", 25625613, 1800000, style="1.x", at=458)
                   for r, seq in ((0, 96117), (0, 96125), (7, 64088)))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("watchdog_blocked", []), v
    assert "The watchdog thread was stuck: py-spy dump --native of every rank" in v["fix"], v
    # an ordinary timeout (ran for about its limit) is not read so
    v = _verdict(tmp_path, "".join(watchdog_line(r, 5, "ALLREDUCE", 1800512, 1800000, style="1.x", at=458)
                                   for r in (1, 2, 3)))
    assert v["cause"] != "watchdog_blocked", v


def test_torchruns_own_store_wait_of_exactly_300_s_names_its_exit_barrier(tmp_path):
    """Rule Y's first sentence: an untagged c10d waitForInput pair (its [W... socket.cpp] header kept, no rank tag) is
    torchrun's agent waiting on its own store -- store_rendezvous; a wait of exactly 300000 ms is the agent's exit
    barrier (exit_barrier_timeout=300), so the fix says so and sends the reader to the node still running (round 82's
    ms-swift-9188). Another timeout, or a rank's own tagged read, gets no exit-barrier words."""
    def pair(prefix: str, ms: int) -> str:
        sock = "SocketImpl(fd=69, addr=[node-b]:53306, remote=[node-a]:29506)"
        return (f"{prefix}[W422 22:28:29.860078039 socket.cpp:469] [c10d] waitForInput: poll for socket {sock} "
                "returned 0, likely a timeout\n"
                f"{prefix}[W422 22:28:29.866319649 socket.cpp:494] [c10d] waitForInput: socket {sock} timed out "
                f"after {ms}ms\n")
    v = _verdict(tmp_path, pair("", 300000))
    assert v["cause"] == "store_rendezvous" and "exit barrier" in v["fix"] and "destroy_process_group" in v["fix"], v
    for near in (pair("", 600000), pair("[rank5]:", 300000)):
        assert "exit barrier" not in _verdict(tmp_path, near)["fix"]
