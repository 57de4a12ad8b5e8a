"""How diagnose reads torchrun's elastic agent when its lines are all there is (round 68, session 25): the agent's
"Worker group FAILED. N/M attempts left; will restart worker group" and its closing signals with no pid skipped (a
worker failed; which one, its record cut from the paste says: unknown, nobody named), and a launch command asking for
more than one node (--nnodes=2, an elastic range 1:2), under which the record's local_rank names no global rank (lead
rule A's multi-node limit). Each test reads the shape from lines other than the corpus cases' own, and a near shape that
must NOT be read that way. Pids, paths and hosts are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_AGENT = "I0517 08:41:02.330000 51177 torch/distributed/elastic/agent/server/api.py:{n}] [default] {what}\n"


def _record(local: int = 1, code: int = 1, pid: int = 61204) -> str:
    return (f"E0517 08:41:02.310000 51177 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: "
            f"{code}) local_rank: {local} (pid: {pid}) of binary: /opt/env/bin/python3\n")


def _group_failed(left: int = 2, total: int = 3) -> str:
    return (_AGENT.format(n=889, what=f"Worker group FAILED. {left}/{total} attempts left; will restart worker group")
            + _AGENT.format(n=699, what="Stopping worker group")
            + _AGENT.format(n=677, what="Rendezvous'ing worker group"))


def test_the_agents_worker_group_failed_alone_is_a_workers_failure_not_shown(tmp_path):
    """The agent restarts its group after 'Worker group FAILED. 2/3 attempts left', and nothing else fails in the
    lines: a worker failed, its record (which rank, how) is not in them -- unknown, nobody named, not 'nothing
    failed'; the fix asks for the record and the worker's own traceback (@record)."""
    d = _report(tmp_path, "epoch 3: loss 0.412\n" + _group_failed())
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "@record" in v["fix"] and "max_restarts" in v["fix"], v


def test_the_agents_worker_group_failed_beside_its_record_leaves_the_record_to_name_the_worker(tmp_path):
    """The near shape: the same 'Worker group FAILED' after the agent's own record of the failed worker on one node
    ('failed (exitcode: 1) local_rank: 1'): the record names the worker (rule A), not read as a failure unnamed."""
    d = _report(tmp_path, _record() + _group_failed())
    v = d["verdict"]
    assert v["culprits"] == [1] and "worker group FAILED" not in v["summary"], v


def _closing(pids) -> str:
    return "".join(f"[2025-02-11 17:20:0{i},118] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending "
                   f"process {p} closing signal SIGTERM\n" for i, p in enumerate(pids))


def test_the_agents_closing_signals_with_no_pid_skipped_are_still_a_workers_failure(tmp_path):
    """The agent SIGTERMs pids 8801-8804 one after the other (the worker that exited is not located among them), no
    death signal it received: it stops the workers still running after one exited -- unknown, nobody named, the fix
    pointing at the record's Root Cause; not 'nothing failed'."""
    d = _report(tmp_path, "> initializing model parallel with size 8\n" + _closing([8801, 8802, 8803, 8804]))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "Root Cause" in v["fix"] and "had already exited" not in v["summary"], v


def test_the_agents_closing_signals_after_its_own_death_signal_stay_a_stop_from_outside(tmp_path):
    """The near shape: the same closing signals after the agent's own 'Received Signals.SIGTERM death signal': the
    job was stopped from outside (signal), not read as a worker's failure."""
    head = ("[2025-02-11 17:20:00,001] torch.distributed.elastic.agent.server.api: [WARNING] Received "
            "Signals.SIGTERM death signal, shutting down workers\n")
    v = _report(tmp_path, head + _closing([8801, 8802, 8803, 8804]))["verdict"]
    assert v["cause"] == "signal" and not v["culprits"], v


def _launch(nnodes: str) -> str:
    return (f"$ torchrun --rdzv_backend=c10d --rdzv_endpoint=trainhost:29400 --nnodes={nnodes} --nproc_per_node=1 "
            "train.py\n")


def test_a_local_rank_under_a_launch_asking_for_several_nodes_names_no_global_rank(tmp_path):
    """torchrun launched with --nnodes=1:2 (and with --nnodes=2): each node's agent numbers its workers from
    local_rank 0, so the record's 'local_rank: 0' names no global rank -- nobody accused (rule A's multi-node
    limit)."""
    for nnodes in ("1:2", "2"):
        d = _report(tmp_path, _launch(nnodes) + _record(local=0))
        v = d["verdict"]
        assert v["cause"] == "unknown" and not v["culprits"] and not _accused(d), (nnodes, v)


def test_a_local_rank_under_a_one_node_launch_is_that_rank(tmp_path):
    """The near shape: the same record under --nnodes=1 (or 1:1): a single-node job, the local rank is the rank."""
    for nnodes in ("1", "1:1"):
        d = _report(tmp_path, _launch(nnodes) + _record(local=0))
        assert d["verdict"]["culprits"] == [0], (nnodes, d["verdict"])


_TB = ('Traceback (most recent call last):\n'
       '  File "/srv/env/bin/torchrun", line 8, in <module>\n'
       '    sys.exit(main())\n'
       '  File "/srv/env/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 250, in launch_agent\n'
       '    result = agent.run()\n')


def test_a_cut_traceback_in_the_agents_worker_set_up_points_at_the_rendezvous(tmp_path):
    """torchrun's own traceback cut at the agent's _invoke_run calling _initialize_workers (it rendezvouses and starts
    the workers): unknown, nobody named -- not store_rendezvous, no rendezvous error shown -- the fix pointing at
    the rendezvous endpoint every node must reach and the exception text the paste cut."""
    tb = _TB + ('  File "/srv/env/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py", '
                'line 860, in _invoke_run\n    self._initialize_workers(self._worker_group)\n')
    d = _report(tmp_path, tb)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "--rdzv_endpoint" in v["fix"] and "LOGLEVEL=INFO" in v["fix"], v


def test_a_cut_traceback_in_a_scripts_own_initialize_workers_is_not_the_agents(tmp_path):
    """The near shape: the same call in the script's own file (not torch's agent/server/api.py): no agent set-up
    read, no rendezvous advice."""
    tb = _TB + ('  File "/srv/job/pool.py", line 40, in _invoke_run\n'
                '    self._initialize_workers(self._worker_group)\n')
    v = _report(tmp_path, tb)["verdict"]
    assert v["cause"] == "unknown" and "--rdzv_endpoint" not in v["fix"], v


def _agent_tb(frame_file: str, func: str, error: str) -> str:
    return ('Traceback (most recent call last):\n'
            '  File "/opt/env/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py", line 727, '
            'in run\n    result = self._invoke_run(role)\n'
            '  File "/opt/env/lib/python3.10/site-packages/myframework/launcher/agent.py", line 88, in _invoke_run\n'
            '    self._initialize_workers(self._worker_group)\n'
            f'  File "{frame_file}", line 540, in {func}\n    self._assign_worker_ranks(\n'
            f'{error}\n')


def test_a_torch_agent_call_refused_for_its_arguments_is_a_version_mismatch(tmp_path):
    """torch's agent (agent/server/api.py) calls a hook, and the installed override refuses its arguments ('takes 3
    positional arguments but 4 were given', 'got an unexpected keyword argument'): a framework's agent written for
    another torch -- config, no rank, the fix matching the versions."""
    api = "/opt/env/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py"
    for err in ("TypeError: _assign_worker_ranks() takes 4 positional arguments but 5 were given",
                "TypeError: _assign_worker_ranks() got an unexpected keyword argument 'use_agent_store'"):
        d = _report(tmp_path, _agent_tb(api, "_rendezvous", err))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (err, v)
        assert "torch version" in v["fix"] and "_assign_worker_ranks" in v["fix"], v


def test_the_same_call_refused_in_the_scripts_own_code_is_not_read_as_torchs(tmp_path):
    """The near shape: the same TypeError raised right under the script's own frame (train.py), torch's agent only
    further up: not torch's launcher code calling an override -- not read as a torch version mismatch."""
    err = "TypeError: _assign_worker_ranks() takes 4 positional arguments but 5 were given"
    v = _report(tmp_path, _agent_tb("/work/job/train.py", "build", err))["verdict"]
    assert "torch's elastic launcher code called" not in v["summary"], v


def test_the_agents_lines_beside_a_cut_traceback_leave_that_traceback_to_speak(tmp_path):
    """The near shape: the agent's closing signals with no pid skipped, then a worker's traceback that the paste cuts
    before its error: the cut traceback is the failure shown (unread._cut_traceback), not the agent's lines alone."""
    tb = ('Traceback (most recent call last):\n  File "/work/job/train.py", line 12, in <module>\n    main()\n'
          '  File "/work/job/train.py", line 9, in main\n    step(batch)\n')
    v = _report(tmp_path, _closing([8801, 8802, 8803]) + tb)["verdict"]
    assert v["cause"] == "unknown" and "stops inside" in v["summary"], v
