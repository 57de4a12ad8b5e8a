"""Line formats and the streaming scanner of `ncclDoctor diagnose` (pure, fast)."""

from __future__ import annotations

import io

import pytest

from ncclDoctor.diagnose import load
from ncclDoctor.diagnose.load import Input, scan_lines
from ncclDoctor.diagnose.parse import LineParser

TIMEOUT = ("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, "
           "NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.")


def parse(line: str, path: str = "x.log", hint=None):
    return LineParser(path, hint).parse(7, line)


@pytest.mark.parametrize("line, rank, pg", [
    (f"[E ProcessGroupNCCL.cpp:737] [Rank 1] {TIMEOUT}", 1, None),
    (f"[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] {TIMEOUT}", 0, None),
    (f"[rank3]:[E1206 18:44:12.7 ProcessGroupNCCL.cpp:607] [PG 1 Rank 3] {TIMEOUT}", 3, "1"),
    (f"[rank7]:[E816 01:45:40.18 ProcessGroupNCCL.cpp:607] [PG 0 (default_pg) Rank 7] {TIMEOUT}", 7, "0"),
    (f"[rank1]:[E626 06:24:44.9 ProcessGroupNCCL.cpp:616] [PG ID 0 PG GUID 0(default_pg) Rank 1] {TIMEOUT}", 1, "0"),
    (f"[80746] [rank4]:[E321 02:07:08.41 ProcessGroupNCCL.cpp:607] [Rank 4] {TIMEOUT}", 4, None),
    (f"10: [E ProcessGroupNCCL.cpp:737] {TIMEOUT}", 10, None),
    (f" 41%|████      | 395/960 [1:52:10<2:41:02, 17.1s/it][E ProcessGroupNCCL.cpp:458] [Rank 2] {TIMEOUT}", 2, None),
])
def test_watchdog_timeout_prefixes(line, rank, pg):
    ev = parse(line)
    assert ev is not None and ev.kind == "watchdog_timeout"
    assert (ev.rank, ev.pg, ev.seq, ev.op) == (rank, pg, 1580, "ALLREDUCE")
    assert (ev.numel_in, ev.numel_out, ev.data["timeout_ms"], ev.data["ran_for_ms"]) == (
        466119168, 466119168, 600000, 600060)


def test_timeout_without_numel_and_blocking_wait():
    ev = parse("[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: "
               "WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 milliseconds before "
               "timing out.")
    assert (ev.seq, ev.numel_in, ev.data["timeout_ms"]) == (469508, None, 1800000)
    ev = parse("[rank1]:[E1002 18:16:40.66 ProcessGroupNCCL.cpp:756] [Rank 1] Work WorkNCCL(SeqNum=2521, "
               "OpType=ALLREDUCE, "
               "NumelIn=160672064, NumelOut=160672064, Timeout(ms)=600000) timed out in blocking wait.")
    assert (ev.kind, ev.seq, ev.data["blocking_wait"]) == ("watchdog_timeout", 2521, True)


@pytest.mark.parametrize("line, at, enq, done", [
    ("[PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL "
     "work: 1582, last completed NCCL work: 1579.", 1580, 1582, 1579),
    ("[PG 1 Rank 0] Timeout at NCCL work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.", 1580,
     1582, 1579),
    ("[PG ID 0 PG GUID 0(default_pg) Rank 0] Collective timeout failure detected by watchdog at work sequence id: 12 "
     "PG status: last enqueued work: 12, last completed work: 11", 12, 12, 11),
])
def test_watchdog_status_wordings(line, at, enq, done):
    ev = parse(line)
    assert ev.kind == "watchdog_status"
    assert (ev.seq, ev.data["enqueued"], ev.data["completed"], ev.rank) == (at, enq, done, 0)


@pytest.mark.parametrize("line, kind, key, value", [
    ("ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
     "nccl_error", "code", "ncclSystemError"),
    ("RuntimeError: NCCL error in: /opt/ProcessGroupNCCL.cpp:1191, unhandled system error, NCCL version 2.10.3",
     "nccl_error", "code", "ncclSystemError"),
    ("NCCL error: remote process exited or there was a network error, NCCL version 2.21.5", "nccl_error", "code",
     "ncclRemoteError"),
    ("ncclUnhandledCudaError: Call to CUDA function failed.", "nccl_error", "code", "ncclUnhandledCudaError"),
    ("ncclInternalError: Internal check failed.", "nccl_error", "code", "ncclInternalError"),
    ("h:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 172.36.143.59<44206> with status=12 "
     "opcode=129 len=65536 vendor err 129 (Recv)", "ib_completion", "status", 12),
    ("h:1:2 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.1<1> with error 12, opcode 0, len 0, vendor err 129",
     "ib_completion", "status", 12),
    ("h:39964:40044 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node1<57557>",
     "socket_error", "what", "Connection closed by remote peer"),
    ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [18.25.6.30]:28048",
     "gloo_error", "peer", "18.25.6.30:28048"),
    ("RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. Unable to "
     "find address for: ib0", "gloo_error", "what", "Unable to find address for: ib0"),
    ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:144] address family mismatch", "gloo_error", "what",
     "address family mismatch"),
    ("torch.distributed.DistNetworkError: The client socket has timed out after 300000ms while trying to connect to "
     "(head-0, 29500).", "store_timeout", "endpoint", "head-0:29500"),
    ("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", "store_timeout", "rendezvous", True),
    ("[PG ID 0 PG GUID 0(default_pg) Rank 6] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making "
     "progress", "heartbeat", "stuck_s", 480),
    ("RuntimeError: DataLoader worker (pid 41233) is killed by signal: Bus error. It is possible that dataloader's "
     "workers are out of shared memory.", "dataloader", "bus_error", True),
    ("RuntimeError: DataLoader worker (pid(s) 1234, 1235) exited unexpectedly", "dataloader", "bus_error", False),
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.11 GiB",
     "cuda_oom", "tried", "2.00 GiB"),
    ("E0325 20:57:27.620000 2606 api.py:869] failed (exitcode: -9) local_rank: 5 (pid: 2630) of binary: "
     "/usr/bin/python",
     "worker_failed", "exitcode", -9),
    ("RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 5000ms for "
     "recv operation to complete", "watchdog_timeout", "backend", "gloo"),
])
def test_error_families(line, kind, key, value):
    ev = parse(line)
    assert ev is not None and ev.kind == kind
    assert ev.data[key] == value


@pytest.mark.parametrize("line, key, value", [
    ("h:240:240 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>", "network", "Socket"),
    ("h:240:240 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.1.0.1<0>", "network", "IB"),
    ("h:240:240 [0] NCCL INFO Using network Socket", "network", "Socket"),
    ("h:240:240 [0] NCCL INFO NET/IB : No device found.", "no_ib", True),
    ("h:240:240 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0", "setting",
     ("NCCL_SOCKET_IFNAME", "eth0")),
])
def test_transport_lines(line, key, value):
    ev = parse(line)
    assert ev.kind == "transport" and ev.data[key] == value


def test_rank_from_nccl_pid_and_file_name():
    p = LineParser("logs/node-b.log")
    p.parse(1, "node-b:984:1357 [3] NCCL INFO comm 0x7f01 rank 3 nranks 4 cudaDev 3 busId 9a000 - Init COMPLETE")
    ev = p.parse(2,
                 "node-b:984:1357 [3] NCCL WARN NET/IB : Got completion from peer 10.8.0.11<44206> with status=12 "
                 "opcode=129")
    assert (ev.rank, ev.host, ev.pid) == (3, "node-b", 984)
    ev = LineParser("job/rank_5.log", 5).parse(1, "ncclInternalError: Internal check failed.")
    assert ev.rank == 5 and ev.data["rank_from"] == "file name"
    assert load.rank_from_path("run/abc/attempt_0/3/stderr.log") == (3, True)
    assert load.rank_from_path("fr/comm_lib_trace_rank_12") == (12, False)


def test_timestamps_order_within_a_clock():
    a = parse(f"[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] {TIMEOUT}")
    b = parse(f"[rank0]:[E1206 18:44:13.000000000 ProcessGroupNCCL.cpp:607] [Rank 0] {TIMEOUT}")
    c = parse(f"2025-07-01 08:00:09,431 [rank1] {TIMEOUT}")
    assert b.ts - a.ts == pytest.approx(0.2847, abs=1e-3)
    assert c.ts > 1e9 > a.ts  # ISO stamps carry a year, glog stamps do not: never compared


def _scan(data: bytes, parser: LineParser | None = None, block: int | None = None, monkeypatch=None):
    if block:
        monkeypatch.setattr(load, "BLOCK", block)
    inp = Input("t.log")
    fh = io.BytesIO(data)
    head = fh.read(16)
    return list(scan_lines(fh, head, inp, parser.want_more if parser else None)), inp


@pytest.mark.parametrize("block", [None, 7, 64])
def test_scanner_line_numbers_across_blocks(block, monkeypatch):
    data = b"noise\nmore noise\nx NCCL WARN one\n\r50%|#|\rWatchdog NCCL glued\nnoise\nlast rror"
    hits, inp = _scan(data, block=block, monkeypatch=monkeypatch)
    assert hits == [(3, "x NCCL WARN one"), (4, "Watchdog NCCL glued"), (6, "last rror")]
    assert inp.lines == 6 and inp.bytes_read == len(data)


def test_scanner_follows_torchrun_failure_block_across_blocks(monkeypatch):
    # torchrun prints the summary as the ChildFailedError's message: the scanner starts at that line
    block = (b"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n=====\ntrain.py FAILED\n-----\n"
             b"Failures:\n  <NO_OTHER_FAILURES>\n-----\nRoot Cause (first observed failure):\n[0]:\n"
             b"  time      : 2025-03-25_20:57:27\n  host      : trainer-0\n  rank      : 2 (local_rank: 2)\n"
             b"  exitcode  : -9 (pid: 2630)\n  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID "
             b"2630\n=====\n")
    for size in (1 << 20, 13):
        monkeypatch.setattr(load, "BLOCK", size)
        p = LineParser("torchrun.log")
        events = []
        for n, t in scan_lines(io.BytesIO(b"noise\n" + block), b"", Input("torchrun.log"), p.want_more):
            ev = p.parse(n, t)  # the scanner asks want_more after each yield: parse in step
            if ev:
                events.append(ev)
        assert [(e.kind, e.rank, e.host, e.data["exitcode"], e.data["signal"], e.data["root"]) for e in events] == [
            ("child_failed", 2, "trainer-0", -9, "SIGKILL", True)]
        assert events[0].where == "torchrun.log:16"


def test_scanner_caps_a_huge_line(monkeypatch):
    monkeypatch.setattr(load, "BLOCK", 1 << 16)
    big = b"NCCL WARN " + b"x" * (3 * load.MAX_LINE) + b"\nrank0 rror after\n"
    hits, inp = _scan(big)
    assert [n for n, _ in hits] == [1, 2]
    assert len(hits[0][1]) <= load.MAX_LINE and hits[1][1] == "rank0 rror after"
    assert any("longer than" in n for n in inp.notes)


def test_invalid_utf8_is_replaced_not_fatal():
    hits, _ = _scan(b"\xff\xfe NCCL WARN caf\xe9 \xc3\x28\n")
    assert hits and "NCCL WARN" in hits[0][1] and "\ufffd" in hits[0][1]


PATHOLOGICAL = ["y" * 65536, "a1 " * 21000, "[" * 65536, "to " * 21000, "1" * 65536, "a:1:" * 16000,
                "Work(" * 13000, "NCCL error in: " + "x" * 65000, "2024-" * 13000, " " * 65536]


def test_no_signature_regex_backtracks_on_a_capped_line():
    """Every pattern is linear on the longest line the scanner hands over (MAX_LINE): a
    quadratic one turned a 50 MB single line into minutes. 1 s is ~1000x the normal cost.
    Timed in this process's CPU seconds, which other load on the machine does not inflate (wall
    time did, at a load average of 8 on 2 cores, to 6 s for a linear pattern)."""
    import re
    import time

    from ncclDoctor.diagnose import signatures as S

    for name in dir(S):
        rx = getattr(S, name)
        rx = getattr(rx, "regex", rx)  # a prefiltered pattern (prefilter.Guarded): time the regex itself
        if not isinstance(rx, re.Pattern):
            continue
        for text in PATHOLOGICAL:
            t0 = time.process_time()
            rx.search(text[: load.MAX_LINE])
            assert time.process_time() - t0 < 1.0, (name, text[:12])


def test_no_trigger_word_holds_another():
    """A line holding a longer trigger word also holds any shorter one inside it, so the longer word finds no line
    the shorter misses: it only costs scan time (every load._CHUNK words are one more Aho-Corasick pass over the
    input)."""
    words = list(load.TRIGGERS)
    assert len(set(words)) == len(words)
    assert not [(a, b) for a in words for b in words if a != b and a in b]


def test_every_example_line_reaches_the_parser_through_the_scanner():
    """The scanner only hands over lines holding a trigger word: each signature's example
    must contain one, or pruning TRIGGERS for speed silently loses a family."""
    examples = [f"[E ProcessGroupNCCL.cpp:737] [Rank 1] {TIMEOUT}"]
    for test in (test_watchdog_status_wordings, test_error_families, test_transport_lines):
        for mark in test.pytestmark:  # the parametrize cases: (line, ...) tuples
            examples += [case[0] for case in mark.args[1]]
    data = ("noise\n" + "\n".join(examples) + "\n").encode()
    hits, _ = _scan(data)
    assert [t for _, t in hits] == examples


def test_the_launchers_rank_prefix_is_the_global_rank_not_the_groups():
    # Seen in two blind round-11 reports (FastVideo#1008, Megatron-Bridge#836): global rank 9 prints
    # "[PG ID 5 ... Rank 1]" -- rank 1 *of group 5*. Reading the tag accused rank 1 with high confidence.
    ev = parse("[rank9]:[E113 11:43:02.241131296 ProcessGroupNCCL.cpp:1899] [PG ID 5 PG GUID 55(mesh_replicate) "
               "Rank 1] Process group watchdog thread terminated with exception: CUDA error: unspecified launch "
               "failure")
    assert ev is not None and ev.rank == 9 and ev.pg == "5" and ev.data["group_rank"] == 1
    ev = parse("[PG ID 5 PG GUID 55(mesh_replicate) Rank 1] Process group watchdog thread terminated with "
               "exception: CUDA error: unspecified launch failure")
    assert ev is not None and ev.rank == 1  # nothing else names the process: the tag's rank, as before
    ev = parse("[rank3]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [PG ID 0 PG GUID 0(default_pg) Rank 3] "
               "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, "
               "NumelOut=1, Timeout(ms)=600000) ran for 600010 milliseconds before timing out.")
    assert ev is not None and ev.rank == 3 and "group_rank" not in ev.data
