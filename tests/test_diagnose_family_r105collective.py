"""Round 105's collective shapes (session 42): three pastes whose lines an expert reads but diagnose skipped or
misplaced.

- torch's watchdog timeout wrapped by a paste right after the message's first word ("[E329 ...
  ProcessGroupNCCL.cpp:565] [Rank 0] Watchdog" then "caught collective operation timeout: WorkNCCL(SeqNum=2," and the
  rest of WorkNCCL(...) on the next line): the same message as one line, its rank the header's -- an early SeqNum on
  the one rank shown is rank_missing, that rank innocent (lead rules B, E, H; round 105's pytorch-123023). NOT read
  so: the lower-case "caught collective operation timeout" line with no "Watchdog" header right above it, and a
  header ending in "Watchdog" followed by another message, keep their old readings.
- torch's fingerprint check ("Detected mismatch between collectives on ranks. Rank 1 is running collective:
  CollectiveFingerPrint(...), but Rank 0 is running collective: ...") on a line of its own, its "RuntimeError" a line
  above (a debugger's "Exception has occurred: RuntimeError"): desync, culprits unknown with two ranks (lead rule D;
  round 105's qwen3-vl-1414). NOT read so: a line that only names such a mismatch without torch's report stays none.
- "CUDA error: mapping of buffer object failed" (cudaErrorMapBufferObjectFailed) raised on one rank by a library's
  own peer-to-peer exchange (not NCCL's allocator): the GPU pair's peer mapping, the platform every rank shares --
  cuda_error with culprits [] (lead rule V (2); round 105's tutel-298). NOT read so: another CUDA error (an illegal
  memory access) raised the same way on one rank keeps that rank as its culprit.
"""

from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- the watchdog's message wrapped after "Watchdog" -------------------------------------------------------------
def _wrapped_watchdog(rank: int, seq: int, op: str, timeout_ms: int, ran_ms: int, pg: bool = False) -> str:
    tag = f"[PG 0 Rank {rank}]" if pg else f"[Rank {rank}]"
    return (
        "NCCL version 2.20.5+cuda12.4\n"
        f"[E611 08:02:41.125879730 ProcessGroupNCCL.cpp:607] {tag} Watchdog\n"
        f"caught collective operation timeout: WorkNCCL(SeqNum={seq},\n"
        f"OpType={op}, NumelIn=4096, NumelOut=4096, Timeout(ms)={timeout_ms}) ran for\n"
        f"{ran_ms} milliseconds before timing out.\n"
        f"[E611 08:02:41.127459894 ProcessGroupNCCL.cpp:1664] [PG 0 Rank {rank}]\n"
        f"Exception hit in NCCL work: {seq}\n"
    )


def test_watchdog_message_wrapped_after_its_first_word_reads_as_the_timeout_of_the_headers_rank(tmp_path):
    v, acc = _verdict(tmp_path, _wrapped_watchdog(3, 1, "BROADCAST", 600000, 600117))
    assert v["cause"] == "rank_missing" and v["culprits"] == [] and not acc, v
    assert "SeqNum 1" in v["summary"] or "#1" in v["summary"], v["summary"]


def test_watchdog_message_wrapped_after_its_first_word_under_a_pg_tag_reads_the_same(tmp_path):
    v, acc = _verdict(tmp_path, _wrapped_watchdog(0, 2, "ALLGATHER", 30000, 30042, pg=True))
    assert v["cause"] == "rank_missing" and v["culprits"] == [] and not acc, v


def test_lower_case_timeout_words_without_the_watchdog_header_above_keep_their_old_reading(tmp_path):
    text = (
        "NCCL version 2.20.5+cuda12.4\n"
        "step 120 loss 2.31\n"
        "caught collective operation timeout: WorkNCCL(SeqNum=2,\n"
        "OpType=ALLREDUCE, NumelIn=10, NumelOut=10, Timeout(ms)=10000) ran for\n"
    )
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] != "rank_missing" and not acc, v


def test_watchdog_header_cut_before_another_message_is_no_timeout(tmp_path):
    text = (
        "NCCL version 2.20.5+cuda12.4\n"
        "[E611 08:02:41.125879730 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog\n"
        "thread started for the default group\n"
    )
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] not in ("rank_missing", "watchdog_timeout") and not acc, v


# --- the fingerprint check on a line of its own ------------------------------------------------------------------
def _fingerprint(rank: int, seq: int, op: str, shape: int) -> str:
    return (f"CollectiveFingerPrint(SequenceNumber={seq}, OpType={op}, TensorShape=[{shape}], "
            "TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cuda, "
            "layout=Strided (default), requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt)))")


def test_fingerprint_mismatch_below_a_debuggers_exception_line_is_a_desync(tmp_path):
    text = (
        "Exception has occurred: RuntimeError\n"
        f"Detected mismatch between collectives on ranks. Rank 5 is running collective: "
        f"{_fingerprint(5, 212, 'BROADCAST', 1024)}, but Rank 3 is running collective: "
        f"{_fingerprint(3, 212, 'BROADCAST', 768)}.Collectives differ in the following aspects:   "
        "Tensor Tensor shapes: 1024vs 768\n"
    )
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "desync" and v["culprits"] == [] and not acc, v
    assert "1024" in v["summary"] and "768" in v["summary"], v["summary"]


def test_a_line_naming_a_collective_mismatch_without_torchs_report_stays_none(tmp_path):
    text = ("collective check: no mismatch between collectives on any rank at step 10\n"
            "step 10 loss 1.92\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and not acc, v


# --- a peer buffer's mapping failed on one rank ------------------------------------------------------------------
def _op_traceback(rank: int, error: str) -> str:
    p = f"[rank{rank}]: "
    return (
        "Syncing with other peers..\n"
        f"{p}Traceback (most recent call last):\n"
        f'{p}  File "/workspace/moe/serve.py", line 211, in <module>\n'
        f"{p}    out = torch.ops.moe_ops.peer_exchange(buf, net.all_gather(handles), world_rank)\n"
        f'{p}  File "/usr/local/lib/python3.11/dist-packages/torch/_ops.py", line 1123, in __call__\n'
        f"{p}    return self._op(*args, **(kwargs or {{}}))\n"
        f"{p}RuntimeError: CUDA error: {error}\n"
        f"{p}CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
        "might be incorrect.\n"
        f"{p}For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
    )


def test_peer_buffer_mapping_failed_on_one_rank_is_the_platform_not_that_rank(tmp_path):
    for rank in (1, 6):
        v, acc = _verdict(tmp_path, _op_traceback(rank, "mapping of buffer object failed"))
        # the rank shown raising it is named as a lead only (low confidence), accused of nothing
        assert v["cause"] == "cuda_error" and v["confidence"] == "low" and not acc, v
        assert "peer access / P2P" in v["fix"] and "NCCL_P2P_DISABLE=1 does not avoid" in v["fix"], v["fix"]


def test_another_cuda_error_raised_the_same_way_keeps_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, _op_traceback(6, "an illegal memory access was encountered"))
    assert v["cause"] == "cuda_error" and v["culprits"] == [6], v
