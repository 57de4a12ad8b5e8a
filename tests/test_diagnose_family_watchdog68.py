"""How diagnose reads round 68's watchdog-family cases (session 25): a rank's own NCCL error beside another rank's
timeout in its first send/recv batch is the first failure shown, not connection set-up (rules AU (1), AN (1):
pippy-1146); every rank of a known world timed out inside broadcasts at different SeqNums, none missing (rule B:
alcf-nccl-tests' VAE run); and NCCL_DEBUG_SUBSYS=COLL's trace showing the one rank without a watchdog line issuing
the timed-out collective (rule B: SOAP-9). Each test reads the shape from lines other than the corpus case's own
(other ranks, sizes, SeqNums), and a near shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _wd(rank: int, seq: int, op: str, numel: str, enq: int | None = None, done: int | None = None,
        ran: int = 600041) -> str:
    """torch 2.4+'s watchdog timeout and its status line, under torchrun's '[rankN]:' tag."""
    enq = seq if enq is None else enq
    done = seq - 1 if done is None else done
    return (f"[rank{rank}]:[E1101 15:32:04.27625435{rank} ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught "
            f"collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, {numel}, Timeout(ms)=600000) ran for "
            f"{ran} milliseconds before timing out.\n"
            f"[rank{rank}]:[E1101 15:32:04.27661166{rank} ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) "
            f"Rank {rank}] Exception (either an error or timeout) detected by watchdog at work: {seq}, last enqueued "
            f"NCCL work: {enq}, last completed NCCL work: {done}.\n")


# --- a rank's own NCCL error beside a first-collective timeout ------------------------------------------------------
_P2P = "NumelIn=18446744073709551615, NumelOut=18446744073709551615"


def test_a_ranks_own_nccl_internal_error_beside_a_first_p2p_timeout_is_the_first_failure(tmp_path):
    """Rank 1 raises ncclInternalError on its own (an empty Last error) while rank 0 times out in its very first op
    (SeqNum 1, a COALESCED send/recv batch, nothing completed): the error shown is the first failure (rules AU (1),
    AN (1)), nccl_internal with rank 1 named and rank 0 not accused -- not the connection set-up that a tiny first
    timeout alone suggests."""
    text = ("[rank1]: ncclInternalError: Internal check failed.\n[rank1]: Last error:\n\n"
            + _wd(0, 1, "COALESCED", _P2P, 1, -1))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "nccl_internal" and _accused(d) == {1}, v
    assert "NCCL_DEBUG=INFO" in v["fix"], v["fix"]


def test_every_rank_shown_in_a_tiny_first_collective_with_no_own_error_stays_connection_set_up(tmp_path):
    """The near shape: no rank fails on its own, and every rank of a four-rank world (NCCL's nranks) times out inside
    the first, tiny all-reduce: that is still connection set-up (rule H), nobody named."""
    init = "".join(f"node1:{4100 + r}:{4200 + r} [{r}] NCCL INFO comm 0x5561d{r} rank {r} nranks 4 cudaDev {r} "
                   f"busId {r}1000 commId 0x9f2 - Init COMPLETE\n" for r in range(4))
    text = init + "".join(_wd(r, 1, "ALLREDUCE", "NumelIn=1, NumelOut=1", 1, -1) for r in range(4))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v


# --- every rank of a known world inside broadcasts at different SeqNums ---------------------------------------------
def _init(n: int) -> str:
    return "".join(f"gpu{r // 4}:{7100 + r}:{7200 + r} [{r % 4}] NCCL INFO comm 0x55a{r} rank {r} nranks {n} cudaDev "
                   f"{r % 4} busId {r % 4}7000 commId 0x1b2c - Init COMPLETE\n" for r in range(n))


def _wd23(rank: int, seq: int, op: str, numel: str, enq: int, done: int) -> str:
    """torch 2.3's watchdog timeout and its "Timeout at NCCL work" status line, under the '[rankN]:' tag."""
    return (f"[rank{rank}]:[E ProcessGroupNCCL.cpp:563] [Rank {rank}] Watchdog caught collective operation timeout: "
            f"WorkNCCL(SeqNum={seq}, OpType={op}, {numel}, Timeout(ms)=600000) ran for 60003{rank} milliseconds "
            f"before timing out.\n[rank{rank}]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank {rank}] Timeout at NCCL work: "
            f"{seq}, last enqueued NCCL work: {enq}, last completed NCCL work: {done}.\n")


def _drifted(op: str) -> str:
    """Four ranks of a four-rank world: rank 2 timed out in #11 (the last it enqueued), ranks 0 and 3 in #12
    (enqueued #13), rank 1 far ahead in #30 -- each inside the collective its own watchdog names."""
    at = {0: (12, 13), 1: (30, 30), 2: (11, 11), 3: (12, 13)}
    return _init(4) + "".join(_wd23(r, seq, op, "NumelIn=640, NumelOut=640", enq, seq - 1)
                              for r, (seq, enq) in sorted(at.items()))


def test_every_rank_inside_broadcasts_at_different_seqnums_is_a_stall_not_a_rank_behind(tmp_path):
    """Lead rule B over broadcasts: every rank of a four-rank world (NCCL's nranks) timed out by its own watchdog,
    each inside a BROADCAST it had enqueued, at SeqNums 11 to 30. A broadcast does not hold its ranks in step, so the
    rank at the lowest SeqNum is stuck inside its own broadcast, not missing from the others': transport_stall,
    nobody named (round 68's alcf-nccl-tests VAE run)."""
    d = _report(tmp_path, _drifted("BROADCAST"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("transport_stall", []) and not _accused(d), v


def test_an_external_net_plugin_is_named_in_the_stalls_fix(tmp_path):
    """The same stall with NCCL's set-up lines showing an external net plugin (aws-ofi-nccl over libfabric): the fix
    says to rerun without the plugin, which tells the plugin's data path from the rest."""
    plugin = ("gpu0:7100:7200 [0] NCCL INFO NET/OFI Using aws-ofi-nccl 1.7.4\n"
              "gpu0:7100:7200 [0] NCCL INFO Using network AWS Libfabric\n")
    d = _report(tmp_path, plugin + _drifted("BROADCAST"))
    v = d["verdict"]
    assert v["cause"] == "transport_stall" and "without the plugin" in v["fix"], v
    assert "without the plugin" not in _report(tmp_path, _drifted("BROADCAST"))["verdict"]["fix"]


def test_all_reduces_at_different_seqnums_still_name_the_rank_behind(tmp_path):
    """The near shapes: the same SeqNums in ALLREDUCEs (their ranks finish together, so the rank that never enqueued
    #12 is the one the others wait for: named, as before), and the broadcasts with a rank of the world not shown
    (rank 1's lines missing: rule E, a rank not shown may be the one the others wait for -- no stall, nobody named)."""
    d = _report(tmp_path, _drifted("ALLREDUCE"))
    assert d["verdict"]["cause"] == "rank_missing" and 2 in _accused(d), d["verdict"]
    text = "".join(line + "\n" for line in _drifted("BROADCAST").splitlines()
                   if "[rank1]" not in line and " rank 1 nranks" not in line)
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] != "transport_stall" and not _accused(d), d["verdict"]


# --- NCCL's collective trace showing the rank without a watchdog line inside the collective -------------------------
def _traced(op_count: int, op: str = "AllGather", tied: bool = True) -> str:
    """A two-rank world: the process on device 0 (pid 51200) traced by NCCL_DEBUG_SUBSYS=COLL issuing a collective at
    ``op_count`` on its 2-rank communicator; rank 1 (pid 51201, tied to its pid by its own NCCL line when ``tied``)
    timed out in ALLGATHER #40961, nothing later enqueued."""
    trace = (f"trn-a:51200:51200 [0] NCCL INFO {op}: opCount {op_count:x} sendbuff 0x7f10a2000400 recvbuff "
             "0x7f10a2000800 count 8 datatype 0 op 0 root 0 comm 0x2b7c900 [nranks=2] stream 0x3a11c40\n")
    own = "trn-a:51201:51490 [1] NCCL INFO comm 0x6f1e200 rank 1 nranks 2 cudaDev 1 busId 81000 - Abort COMPLETE\n"
    wd = _wd(1, 40961, "ALLGATHER", "NumelIn=2, NumelOut=4", 40961, 40960)
    return trace + wd + (own if tied else "")


def test_the_collective_trace_of_the_rank_without_a_timeout_puts_it_inside(tmp_path):
    """Lead rule B: rank 1 timed out in ALLGATHER #40961 of a two-rank world; the other process of the world's
    communicator is shown by NCCL's own trace issuing AllGather at opCount 40961 (hex a001): both ranks were inside
    it, none missing -- transport_stall, nobody named (round 68's SOAP-9)."""
    d = _report(tmp_path, _traced(40961))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("transport_stall", []) and not _accused(d), v


def test_a_trace_short_of_the_collective_or_of_an_unknown_process_proves_nobody_inside(tmp_path):
    """The near shapes: the trace's last opCount short of the timed-out collective (the process never issued it), a
    different collective at that count, or no NCCL line tying rank 1 to its pid (the trace may be rank 1's own): no
    stall is concluded, the rank not shown stays rule B's missing one."""
    for text in (_traced(40959), _traced(40961, "Broadcast"), _traced(40961, tied=False)):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "rank_missing" and not _accused(d), d["verdict"]
