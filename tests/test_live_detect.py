"""The live verdict logic on synthetic progress sequences (pure functions, no processes):
what the stall clock counts, what the threshold learns, how each hang kind is named; and how
``attach`` tells a dead rank (one plain child process, SIGKILLed, for /proc's zombie status)."""

from __future__ import annotations

import os

from ncclDoctor.live.detect import RankView, Settings, StragglerTally, Tracker, classify


def views(state: dict[int, tuple[int, int]], age: float = 0.0, alive=True) -> dict[int, RankView]:
    return {r: RankView(r, pid=100 + r, host="n0", pgs={"0": c}, age_s=age, alive=alive) for r, c in state.items()}


def drive(tracker: Tracker, seq: list[dict[int, tuple[int, int]]], dt: float = 0.5, t0: float = 0.0):
    out = []
    for i, st in enumerate(seq):
        out.append(tracker.observe(t0 + i * dt, views(st)))
    return out


def test_all_ranks_paused_outside_collectives_never_stall():
    # a 60 s checkpoint on every rank: nobody inside a collective, so the stall clock never runs
    seq = [{0: (k, k), 1: (k, k)} for k in range(10)] + [{0: (10, 10), 1: (10, 10)}] * 120
    states = drive(Tracker(Settings(stall_after_s=5)), seq)
    assert {s.state for s in states} == {"ok"}


def test_one_rank_missing_becomes_waiting_then_hang_and_names_it():
    tr = Tracker(Settings(floor_s=15, warn_after_s=5))
    seq = [{0: (k, k), 1: (k, k)} for k in range(20)] + [{0: (21, 20), 1: (20, 20)}] * 40
    states = drive(tr, seq)
    first_wait = next(i for i, s in enumerate(states) if s.state == "waiting")
    first_hang = next(i for i, s in enumerate(states) if s.state == "hang")
    assert (first_hang - 20) * 0.5 >= 15 > (first_wait - 20) * 0.5 >= 5
    assert states[first_hang].waiting_on == [1] and states[first_hang].seq == 21
    v = classify(states[first_hang], views(seq[-1]))
    assert (v.kind, v.culprits, v.victims, v.seq) == ("missing", [1], [0], 21)


def test_a_busy_culprit_holds_the_verdict_to_the_cap_and_an_idle_one_does_not():
    """Rank 0 checkpoints alone (main thread busy, ~90% CPU) while rank 1 waits in the barrier:
    waiting, not a hang, up to 4x the threshold; the same stall with rank 0 asleep is a hang at it."""
    def run(cpu_rate: float, settings: Settings) -> list:
        tr = Tracker(settings)
        out = []
        for i in range(200):  # 100 s, stalled from i = 10 on
            t = i * 0.5
            counters = {0: (k := min(i, 10), k), 1: (k + 1, k) if i >= 10 else (k, k)}
            vs = views(counters)
            vs[0].cpu_s = cpu_rate * t
            vs[1].cpu_s = 0.0
            out.append(tr.observe(t, vs))
        return out

    def first(states, state):
        return next((i - 10) * 0.5 for i, s in enumerate(states) if s.state == state)

    busy = run(0.9, Settings(floor_s=15))
    assert first(busy, "hang") == 60.0  # 4 x the 15 s floor
    assert busy[50].state == "waiting" and busy[50].waiting_on == [0] and busy[50].busy[0] > 0.8
    assert first(run(0.01, Settings(floor_s=15)), "hang") == 15.0  # asleep: called at the threshold
    assert first(run(0.9, Settings(stall_after_s=15)), "hang") == 15.0  # --stall-after is the user's word


def test_threshold_learns_from_stalls_that_resolved():
    tr = Tracker(Settings(floor_s=15, factor=10))
    # ranks routinely wait 4 s inside a collective for a slow peer, then the group moves on
    seq = []
    for k in range(30):
        seq += [{0: (k + 1, k), 1: (k, k)}] * 8 + [{0: (k + 1, k + 1), 1: (k + 1, k + 1)}]
    drive(tr, seq)
    assert tr.threshold("0") >= 35  # 10 x ~4 s, far above the 15 s floor
    assert Tracker(Settings(stall_after_s=7)).threshold("0") == 7


def test_silence_from_every_rank_is_never_a_hang():
    tr = Tracker(Settings(stall_after_s=2))
    for i in range(20):
        st = tr.observe(i * 0.5, views({0: (5, 4), 1: (5, 4)}, age=i * 0.5))
    assert st.state != "hang"


def test_desync_names_the_rank_with_the_odd_collective():
    vs = views({0: (6, 5), 1: (6, 5), 2: (6, 5)})
    entries = {r: [{"collective_seq_id": 6, "process_group": ["0", "default_pg"], "profiling_name": "gloo:all_reduce",
                    "input_sizes": [[4]]}] for r in (0, 1)}
    entries[2] = [{"collective_seq_id": 6, "process_group": ["0", "default_pg"], "profiling_name": "gloo:broadcast",
                   "input_sizes": [[4]]}]
    tr = Tracker(Settings(stall_after_s=1))
    st = [tr.observe(t, vs) for t in (0, 1, 2, 3)][-1]
    v = classify(st, vs, entries)
    assert (v.kind, v.culprits, v.victims) == ("desync", [2], [0, 1])
    assert "broadcast" in v.ops[2] and "all_reduce" in v.ops[0]


def test_every_rank_inside_same_collective_is_transport_side():
    vs = views({0: (6, 5), 1: (6, 5)})
    tr = Tracker(Settings(stall_after_s=1))
    st = [tr.observe(t, vs) for t in (0, 1, 2)][-1]
    assert st.state == "hang"
    v = classify(st, vs, {})
    assert (v.kind, v.culprits, v.victims) == ("inside", [], [0, 1])


def test_frozen_and_dead_ranks():
    vs = views({0: (6, 5), 1: (5, 5)})
    vs[1].age_s = 30.0  # its watcher stopped; pid alive
    tr = Tracker(Settings(stall_after_s=1))
    st = [tr.observe(t, vs) for t in (0, 1, 2)][-1]
    assert classify(st, vs).kind == "frozen" and classify(st, vs).culprits == [1]
    vs[1].alive = False
    v = classify(st, vs)
    assert (v.kind, v.culprits, v.victims) == ("died", [1], [0])


def test_straggler_is_the_rank_others_wait_for_while_progress_goes_on():
    tally = StragglerTally()
    for k in range(40):
        vs = views({0: (k + 1, k), 1: (k + 1, k), 2: (k, k)})
        tally.observe("0", vs, [0, 1], progressed=True)
    assert [s["rank"] for s in tally.stragglers()] == [2]
    even = StragglerTally()
    for k in range(40):  # the laggard alternates: nobody is consistently last
        r = k % 3
        vs = views({i: (k + 1, k) if i != r else (k, k) for i in range(3)})
        even.observe("0", vs, [i for i in range(3) if i != r], progressed=True)
    assert even.stragglers() == []


def test_nccl_ras_client_speaks_protocol_2_and_gives_up_when_nothing_listens():
    # a stand-in for NCCL's RAS thread (no GPU here): it checks what our client sends
    import socket
    import threading

    from ncclDoctor.live.evidence import nccl_ras

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    got = []

    def serve():
        conn, _ = srv.accept()
        with conn:
            got.append(conn.recv(100))
            conn.sendall(b"SERVER PROTOCOL 2\n")
            got.append(conn.recv(100))
            conn.sendall(b"Communicator ranks have different AllReduce operation counts\n")

    t = threading.Thread(target=serve)
    t.start()
    text = nccl_ras(f"127.0.0.1:{srv.getsockname()[1]}", timeout_s=2)
    t.join(5)
    srv.close()
    assert got[0] == b"CLIENT PROTOCOL 2\n" and b"VERBOSE STATUS\n" in got[1] and b"TIMEOUT 2\n" in got[1]
    assert "different AllReduce operation counts" in text
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    assert nccl_ras(f"127.0.0.1:{free}", timeout_s=1) is None


def test_verdict_records_become_findings_with_their_codes():
    from ncclDoctor.live.report import verdict_finding

    base = {"pg": "0", "seq": 6, "stalled_s": 20.0, "threshold_s": 15.0, "culprits": [], "victims": [0, 1],
            "enqueued": {"0": 6, "1": 6}, "completed": {"0": 5, "1": 5}, "ops": {}, "evidence_s": 0.1,
            "evidence": {}, "hosts": {"0": "n0", "1": "n1"}, "pids": {"0": 10, "1": 11}, "frames": {}}
    inside = verdict_finding({**base, "kind": "inside"})
    assert inside.code == "LIVE003" and "every rank is inside collective #6" in inside.message
    recovered = verdict_finding({**base, "kind": "missing", "culprits": [1], "victims": [0], "recovered_after_s": 7.0})
    assert recovered.code == "LIVE008" and recovered.severity.value == "warning" and recovered.ranks == [1]
    assert "moved on" in recovered.message


def test_per_rank_tail_comes_from_the_tee_files_and_the_publisher_cost_is_a_share_of_a_core(tmp_path):
    from ncclDoctor.live.report import output_tail, publisher_cost

    (tmp_path / "ranks").mkdir()
    (tmp_path / "output.log").write_text("agent line\n[rank1]: warning from torch\nrank 0 says hi\n")
    (tmp_path / "ranks" / "rank0.log").write_text("rank 0 says hi\n")
    (tmp_path / "ranks" / "rank10.log").write_text("a\nb\n")
    tail = output_tail(tmp_path / "output.log", lines=1)
    assert tail["all"] == ["rank 0 says hi"] and tail["per_rank"] == {"0": ["rank 0 says hi"], "10": ["b"]}
    (tmp_path / "ranks" / "rank0.log").unlink()
    (tmp_path / "ranks" / "rank10.log").unlink()
    assert output_tail(tmp_path / "output.log")["per_rank"] == {"1": ["[rank1]: warning from torch"]}  # no tee files
    cost = publisher_cost({1: {"cpu_s": 0.05, "polls": 200}}, 0.5)
    assert cost == {"1": {"cpu_s": 0.05, "polls": 200, "share_of_core": 0.0005}}


def test_a_dead_rank_is_reported_in_its_own_words_not_torchruns_traceback_hint():
    """pytorch/examples' multigpu_torchrun.py asks for nccl; on a CPU-only torch rank 0 dies in
    init_process_group. torchrun's record says only 'To enable traceback see: <url>' (no @record);
    the rank's own output ends with the exception, which is what LIVE005 must quote."""
    from ncclDoctor.live.report import failure_findings

    root = {"rank": 0, "local_rank": 0, "host": "localhost", "pid": 21518, "exitcode": 1, "signal": None,
            "first_line": "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"}
    tail = {"per_rank": {"0": [
        "Traceback (most recent call last):",
        '  File "/x/distributed_c10d.py", line 2181, in _new_process_group_helper',
        '    raise RuntimeError("Distributed package doesn\'t have NCCL built in")',
        "RuntimeError: Distributed package doesn't have NCCL built in",
    ], "1": ["rank 1 still fine"]}}
    (f,) = failure_findings({"root_cause": root, "others": []}, [], tail)
    assert f.code == "LIVE005" and f.ranks == [0]
    assert f.message.endswith("exited with exit code 1: RuntimeError: Distributed package doesn't have NCCL built in")
    (bare,) = failure_findings({"root_cause": root, "others": []}, [], {"per_rank": {}})
    assert bare.message.endswith("exited with exit code 1")  # torchrun's hint is no reason


def test_a_root_cause_whose_own_error_is_a_lost_peer_gives_way_to_the_worker_killed_by_a_signal():
    """torchrun dates a worker killed by SIGKILL when its monitor notices (no error file), which on a loaded host can
    be after the peer that lost it raised gloo's "Connection closed by peer": its "Root Cause" is then that victim.
    Seen on this machine at load 6 (tests/test_live_outside.py, rank 1 killed, rank 0 listed first)."""
    from ncclDoctor.live.report import failure_findings

    root = {"rank": 0, "local_rank": 0, "host": "localhost", "pid": 4101, "exitcode": 1, "signal": None,
            "first_line": None}
    killed = {"rank": 2, "local_rank": 2, "host": "localhost", "pid": 4103, "exitcode": -9, "signal": "SIGKILL",
              "first_line": None}
    stopped = {"rank": 1, "local_rank": 1, "host": "localhost", "pid": 4102, "exitcode": -15, "signal": "SIGTERM",
               "first_line": None}
    lost = ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
            "[127.0.0.1]:41227 This is typically caused by a remote worker crashing.")
    tail = {"per_rank": {"0": ["Traceback (most recent call last):", lost]}}
    (f,) = failure_findings({"root_cause": root, "others": [stopped, killed]}, [], tail)
    assert f.ranks == [2] and "signal SIGKILL" in f.message and "pid 4103" in f.message, f.message
    assert "rank 0's exit first" in f.message and "a victim" in f.message
    # its own error is no lost peer: torchrun's root cause stands
    own = {"per_rank": {"0": ["ValueError: bad batch shape (3, 224)"]}}
    (g,) = failure_findings({"root_cause": root, "others": [stopped, killed]}, [], own)
    assert g.ranks == [0] and "ValueError" in g.message
    # only SIGTERMed survivors beside it (torchrun's own stop): the root cause stands
    (h,) = failure_findings({"root_cause": root, "others": [stopped]}, [], tail)
    assert h.ranks == [0]


def test_with_no_torchrun_record_the_watchers_record_of_vanished_pids_names_the_first_to_die():
    """torchrun's agent crashed before its record (or printed none): the ranks the watcher saw vanish stand in.
    A rank whose own error is a peer lost, or that ended by SIGTERM or exit 0, is no cause; one with no goodbye
    (killed) comes before one that exited through its interpreter; the earliest poll wins; ties are all named."""
    from ncclDoctor.live.report import failure_findings

    none = {"root_cause": None, "others": [], "agent_crash": "json.decoder.JSONDecodeError: Expecting value"}
    lost = {"per_rank": {"0": ["RuntimeError: [pair.cc:534] Connection closed by peer [127.0.0.1]:41227"]}}

    def g(rank, t, **exit_):
        return {"rank": rank, "pid": 700 + rank, "local_rank": rank, "host": "vm", "t": t,
                "exit": exit_ or {"seen": "gone"}}

    both = {"0": g(0, 6.5), "1": g(1, 6.5)}
    (f,) = failure_findings(none, [], lost, both, set(), failed=True)
    assert f.code == "LIVE005" and f.ranks == [1], f.message
    assert "agent crashed" in f.message and "rerun to see the signal" in f.message
    assert "rank 0 vanished too (its own last error is a peer lost) -- victims" in f.message, f.message
    assert failure_findings(none, [], lost, both, set(), failed=False) == []  # the job succeeded: nothing died
    assert failure_findings({"root_cause": None, "others": []}, [], lost, {}, set(), failed=True) == []
    # no peer-lost words anywhere: both vanished in one poll, neither said goodbye -- both named, not one guessed
    (tie,) = failure_findings(none, [], {"per_rank": {}}, both, set(), failed=True)
    assert tie.ranks == [0, 1] and "cannot tell which went first" in tie.message
    # torchrun said it stopped rank 0's pid ("Sending process 700 closing signal SIGTERM", logged before the record
    # its agent then failed to print): rank 0 was alive when rank 1 died
    (stop,) = failure_findings({**none, "stopped_pids": [700]}, [], {"per_rank": {}}, both, set(), failed=True)
    assert stop.ranks == [1] and "rank 0 vanished too (torchrun stopped it)" in stop.message, stop.message
    # rank 0 said goodbye (it exited through its interpreter): the rank with none was killed
    (bye,) = failure_findings(none, [], {"per_rank": {}}, both, {0}, failed=True)
    assert bye.ranks == [1]
    # the zombie's wait status, caught: SIGTERM is torchrun's stop, not a cause; an earlier poll goes first
    caught = {"0": g(0, 6.0, seen="zombie", signal="SIGTERM"), "1": g(1, 6.5, seen="zombie", signal="SIGSEGV"),
              "2": g(2, 7.0)}
    (z,) = failure_findings({"root_cause": None, "others": []}, [], {"per_rank": {}}, caught, set(), failed=True)
    assert z.ranks == [1] and "killed by SIGSEGV" in z.message and "no torchrun failure record" in z.message
    assert "rank 0 vanished too (it ended by SIGTERM)" in z.message and "agent crashed" not in z.message


def test_attach_names_the_first_gone_rank_unless_torchruns_agent_crashed_and_said_whom_it_stopped():
    """attach with no torchrun record: the first rank gone, as before (review 106 (live) finding 1: the agent-crash
    fallback named every gone rank when there was no record at all); with the agent's crash and its "Sending process
    PID closing signal", the rank it did not stop."""
    from ncclDoctor.live.attach import died_finding

    def workers():
        return [{"rank": 0, "pid": 10, "gone_s": 1.0, "exit": {}}, {"rank": 1, "pid": 11, "gone_s": 1.0, "exit": {}},
                {"rank": 2, "pid": 12, "gone_s": 2.0, "exit": {}}]

    assert died_finding(workers(), {}).ranks == [0, 1]  # the first poll's, as before: nothing tells them apart
    crash = {"agent_crash": "json.decoder.JSONDecodeError: Expecting value", "stopped": [10, 12]}
    f = died_finding(workers(), crash)
    assert f.ranks == [1] and "agent crashed" in f.message and "rerun to see the signal" in f.message, f.message


def test_torchrun_stopped_by_a_signal_is_no_agent_crash():
    """torchrun told to stop (a scheduler's SIGTERM, Ctrl-C) ends in elastic's SignalException through the agent, with
    no "Root Cause": that is no crash of the agent (review 106 (live) finding 2)."""
    from ncclDoctor.launch.evidence import agent_crash

    tb = ("Traceback (most recent call last):\n"
          '  File "/x/torch/distributed/elastic/agent/server/api.py", line 924, in _invoke_run\n'
          "    time.sleep(monitor_interval)\n")
    stop = "torch.distributed.elastic.multiprocessing.api.SignalException: Process 29089 got signal: 15\n"
    assert agent_crash(tb + stop) is None
    assert agent_crash(tb + "KeyboardInterrupt\n") is None
    assert agent_crash(tb + "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n").startswith(
        "json.decoder.JSONDecodeError")


def test_a_rank_that_aborted_after_it_began_to_exit_is_said_to_have_died_in_the_teardown():
    """torch 2.13's gloo teardown aborts a rank now and then after its work ("terminate called without an active
    exception", SIGABRT): the teardown is named only when the rank's goodbye (its exit handler) had arrived and it
    raised nothing of its own; an abort mid-run, a SIGKILL at exit or an exception keep the plain LIVE005."""
    from ncclDoctor.live.collector import Beat
    from ncclDoctor.live.report import TEARDOWN_NOTE, exiting_ranks, failure_findings

    aborted = {"rank": 1, "local_rank": 1, "host": "localhost", "pid": 665, "exitcode": -6, "signal": "SIGABRT",
               "first_line": "Signal 6 (SIGABRT) received by PID 665"}
    beats = {0: Beat({"rank": 0, "pgs": {"0": [40, 40]}}, 1.0), 1: Beat({"rank": 1, "pgs": {}, "exiting": True}, 1.0)}
    assert exiting_ranks(beats) == {1}
    (f,) = failure_findings({"root_cause": aborted, "others": []}, [], {"per_rank": {}}, None, exiting_ranks(beats))
    assert f.code == "LIVE005" and f.ranks == [1] and f.message.endswith(TEARDOWN_NOTE)
    assert "destroy_process_group" in f.message
    (mid,) = failure_findings({"root_cause": aborted, "others": []}, [], {"per_rank": {}}, None, {0})
    assert TEARDOWN_NOTE not in mid.message  # no goodbye from rank 1: it died while still working
    killed = {**aborted, "exitcode": -9, "signal": "SIGKILL"}
    (k,) = failure_findings({"root_cause": killed, "others": []}, [], {"per_rank": {}}, None, {1})
    assert TEARDOWN_NOTE not in k.message  # a SIGKILL comes from outside (the OOM killer), not the teardown
    raised = {"per_rank": {"1": ["RuntimeError: CUDA error: an illegal memory access was encountered"]}}
    (e,) = failure_findings({"root_cause": aborted, "others": []}, [], raised, None, {1})
    assert TEARDOWN_NOTE not in e.message and "illegal memory access" in e.message


def test_a_goodbye_counts_even_when_the_last_beat_took_its_number_first():
    """The exit handler numbers its goodbye n+1 from the shared counter; the publisher thread, still alive at exit,
    can send a beat with that same n first (CI stop 37 lost the teardown note so). The goodbye still counts; a beat
    after it changes nothing; a new process under the same rank starts afresh."""
    from ncclDoctor.live.collector import Collector
    from ncclDoctor.live.report import exiting_ranks

    c = Collector(host="127.0.0.1")
    try:
        c.accept(1, {"rank": 1, "pid": 7, "n": 5, "pgs": {"0": [20, 20]}}, 1.0)
        c.accept(1, {"rank": 1, "pid": 7, "n": 5, "pgs": {}, "exiting": True}, 1.1)
        assert exiting_ranks(c.snapshot()) == {1}
        c.accept(1, {"rank": 1, "pid": 7, "n": 9, "pgs": {"0": [20, 20]}}, 1.2)
        assert exiting_ranks(c.snapshot()) == {1}
        c.accept(1, {"rank": 1, "pid": 8, "n": 1, "pgs": {}}, 2.0)
        assert exiting_ranks(c.snapshot()) == set()
        c.accept(0, {"rank": 0, "pid": 6, "n": 5, "pgs": {}}, 1.0)
        c.accept(0, {"rank": 0, "pid": 6, "n": 4, "pgs": {}}, 1.5)  # a late, reordered beat is still ignored
        assert c.snapshot()[0].record["n"] == 5
    finally:
        c.close()


def test_a_sigtermed_root_cause_that_raised_a_lost_peer_first_gives_way_to_the_worker_killed_by_a_signal(tmp_path):
    """The flake's shape (test_live_outside, rank 1 SIGKILLed, load 4-8), reproduced with real torchrun: rank 0
    raised gloo's lost peer under @record, whose error file dates it at the raise; torchrun noticed rank 1's death
    in a later second (it dates a killed worker when it looks), found rank 0 still tearing down and stopped it with
    SIGTERM. Its "Root Cause" is then rank 0 *with a signal*, SIGTERM, which the lost-peer rule used to take as the
    root cause's own death. The record and last line below are verbatim from that reproduction."""
    import json

    from ncclDoctor.live.report import failure_findings

    lost = ("RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error "
            "[127.0.0.1]:25002: Connection reset by peer. This is typically caused by a remote worker hanging or bugs "
            "in the application. Check the logs of the remote worker before reporting an error. GLHF! \U0001f3d6\ufe0f")
    err = tmp_path / "error.json"
    err.write_text(json.dumps({"message": {"message": lost, "extraInfo": {"timestamp": "1796194838"}}}))
    root = {"rank": 0, "local_rank": 0, "host": "localhost", "exitcode": -15, "pid": 5094, "signal": "SIGTERM",
            "time": "2026-12-02_07:00:38", "error_file": str(err), "first_line": "Traceback (most recent call last):"}
    killed = {"rank": 1, "local_rank": 1, "host": "localhost", "exitcode": -9, "pid": 5095, "signal": "SIGKILL",
              "time": "2026-12-02_07:00:39", "error_file": None,
              "first_line": "Signal 9 (SIGKILL) received by PID 5095"}
    tail = {"per_rank": {"0": ["step 200", "[rank0]: Traceback (most recent call last):", "[rank0]:     work.wait()",
                               f"[rank0]: {lost}"], "1": ["step 200"]}}
    (f,) = failure_findings({"root_cause": root, "others": [killed]}, [], tail)
    assert f.ranks == [1] and "signal SIGKILL" in f.message and "pid 5095" in f.message, f.message
    assert "rank 0's exit first" in f.message and "a victim" in f.message
    # SIGTERM before Python printed the traceback: the rank's log has no exception, its @record error file has
    (g,) = failure_findings({"root_cause": root, "others": [killed]}, [], {"per_rank": {"0": ["step 200"]}})
    assert g.ranks == [1] and "SIGKILL" in g.message, g.message
    # torchrun's record has no killed worker (listed SIGTERM, or not at all): the pid the watcher saw vanish first
    gone = {"1": {"rank": 1, "pid": 5095, "local_rank": 1, "host": "localhost", "t": 12.5,
                  "exit": {"seen": "zombie", "signal": "SIGKILL"}},
            "0": {"rank": 0, "pid": 5094, "local_rank": 0, "host": "localhost", "t": 13.0, "exit": {"seen": "gone"}}}
    for others in ([], [{**killed, "exitcode": -15, "signal": "SIGTERM"}]):
        (h,) = failure_findings({"root_cause": root, "others": others}, [], tail, gone)
        assert h.ranks == [1] and "signal SIGKILL" in h.message and "pid 5095" in h.message, h.message
        assert "watcher saw rank 1's pid 5095 vanish first" in h.message
    # ... reaped before the watcher looked: named, how it ended left unknown rather than guessed
    reaped = {**gone, "1": {**gone["1"], "exit": {"seen": "gone"}}}
    (i,) = failure_findings({"root_cause": root, "others": []}, [], tail, reaped)
    assert i.ranks == [1] and "SIGKILL" not in i.message and "SIGTERM" not in i.message.split(";")[0], i.message
    # the root cause's own pid vanished first, or no lost peer in its words, or it was itself killed: it stands
    first0 = {**gone, "0": {**gone["0"], "t": 12.0}}
    assert failure_findings({"root_cause": root, "others": []}, [], tail, first0)[0].ranks == [0]
    done = {**gone, "1": {**gone["1"], "exit": {"seen": "zombie", "exitcode": 0}}}  # rank 1 finished its work
    assert failure_findings({"root_cause": root, "others": []}, [], tail, done)[0].ranks == [0]
    own = {"per_rank": {"0": ["ValueError: bad batch shape (3, 224)"]}}
    bare = {**root, "error_file": None}
    assert failure_findings({"root_cause": bare, "others": [killed]}, [], own, gone)[0].ranks == [0]
    segv = {**root, "exitcode": -11, "signal": "SIGSEGV"}
    assert failure_findings({"root_cause": segv, "others": [killed]}, [], tail, gone)[0].ranks == [0]


def test_exit_state_reads_a_zombies_wait_status_and_is_gone_once_reaped():
    import signal
    import subprocess
    import sys
    import time

    from ncclDoctor.live import attach

    child = subprocess.Popen([sys.executable, "-S", "-c", "import time; time.sleep(60)"])
    try:
        assert attach.exit_state(child.pid) is None
        os.kill(child.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while attach.exit_state(child.pid) is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert attach.exit_state(child.pid) == {"seen": "zombie", "signal": "SIGKILL"}  # not reaped yet
    finally:
        child.kill()
        child.wait(timeout=30)
    assert attach.exit_state(child.pid) == {"seen": "gone"}


def test_died_finding_names_the_root_cause_and_lists_who_torchrun_stopped_after_it():
    from ncclDoctor.live import attach

    def workers():
        return [{"rank": 0, "pid": 10, "gone_s": 0.3, "exit": {"seen": "gone"}},
                {"rank": 1, "pid": 11, "gone_s": 0.2, "exit": {"seen": "zombie", "signal": "SIGKILL"}},
                {"rank": 2, "pid": 12}]

    f = attach.died_finding(workers(), {})  # no record: the one not ended by SIGTERM, from its zombie status
    assert f.code == "LIVE005" and f.ranks == [1]
    assert "rank 1 (pid 11) died 0.2 s into the watch: killed by SIGKILL (its exit status in /proc)" in f.message
    assert "rank 0 (pid 10, how is unknown) ended too" in f.message and "rank 2 still running" in f.message
    rec = {"11": {"signal": "SIGKILL", "exitcode": -9, "root_cause": True},
           "10": {"signal": "SIGTERM", "exitcode": -15, "root_cause": False}}
    f = attach.died_finding(workers(), rec)  # torchrun's record decides
    assert f.ranks == [1] and "SIGKILL (torchrun's failure record)" in f.message and "killed by SIGTERM" in f.message
    unknown = [{"rank": 0, "pid": 10, "gone_s": 0.5, "exit": {"seen": "gone"}},
               {"rank": 1, "pid": 11, "gone_s": 0.2, "exit": {"seen": "gone"}}]
    assert attach.died_finding(unknown, {}).ranks == [1]  # nothing known: the first one gone
    assert attach.died_finding([{"rank": 0, "pid": 10}], {}) is None
