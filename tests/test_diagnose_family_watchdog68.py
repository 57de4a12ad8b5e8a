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
