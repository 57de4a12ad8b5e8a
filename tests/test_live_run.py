"""``ncclDoctor run`` and ``attach`` on real torchrun/gloo jobs whose script (fixtures/userjobs/
ddp_loop.py) knows nothing of ncclDoctor: the verdict names the culprit, the job is otherwise
unchanged, bad input is one line and exit code 2. Each job runs a few seconds of steps; on a
loaded 2-core machine torchrun's start and exit dominate."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli_env, run_cli

pytestmark = [pytest.mark.integration, pytest.mark.slow]

JOB = str(ROOT / "tests" / "fixtures" / "userjobs" / "ddp_loop.py")
TORCHRUN = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]


def live_run(tmp_path: Path, *job_args: str, opts: tuple[str, ...] = (), env=None, timeout: float = 400):
    out = tmp_path / "run"
    p = run_cli("run", "--out", str(out), *opts, "--", *TORCHRUN, JOB, *job_args, timeout=timeout, env=env)
    p.told = told(p, out)
    rep = json.loads((out / "report.json").read_text()) if (out / "report.json").is_file() else None
    return p, rep, out


def told(p: subprocess.CompletedProcess, out: Path, n: int = 2500) -> str:
    """What a failed assertion shows: the tail of ncclDoctor's stderr and of each rank's own log,
    where a worker's last words (a C++ ``terminate called ...`` before a SIGABRT) are kept whole."""
    parts = [p.stderr[-n:]]
    for log in sorted((out / "ranks").glob("rank*.log")):
        parts.append(f"--- {log.name} (last {n} chars) ---\n" + log.read_text(errors="replace")[-n:])
    return "\n".join(parts)


def codes(rep) -> list[str]:
    return [f["code"] for f in rep["findings"]]


def reap(proc: subprocess.Popen) -> None:
    """Kill a process and everything under it: torchrun starts its workers in their own sessions,
    so killing its process group alone would leave them hung for ever."""
    import psutil

    try:
        kids = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        kids = []
    for p in [*kids]:
        try:
            p.kill()
        except psutil.Error:
            pass
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)
    psutil.wait_procs(kids, timeout=30)


def test_rank_that_never_issues_its_collective_is_named_in_seconds(tmp_path):
    p, rep, out = live_run(tmp_path, "--steps", "100000", "--fault", "hang", "--fault-step", "10",
                           opts=("--stall-after", "4", "--on-hang", "kill"))
    assert p.returncode == 4, p.told
    assert codes(rep)[0] == "LIVE001", rep["findings"]
    f = rep["findings"][0]
    assert f["ranks"] == [1] and "never issued collective" in f["message"]
    v = rep["results"]["live"]["verdicts"][0]
    assert v["culprits"] == [1] and v["victims"] == [0] and 4 <= v["stalled_s"] < 8
    assert "ddp_loop.py" in (out / "stacks" / "rank1.txt").read_text()  # the culprit's own stack: the sleep
    assert "HANG after" in p.stderr
    d = run_cli("diagnose", str(out), "--out", str(tmp_path / "diag"), "--json")
    assert d.returncode in (0, 1, 4) and "LIVE001" in d.stdout, d.stderr[-2000:]


def test_different_collective_at_the_same_sequence_number_is_a_desync(tmp_path):
    p, rep, _ = live_run(tmp_path, "--steps", "100000", "--fault", "desync", "--fault-step", "5",
                         opts=("--stall-after", "4", "--on-hang", "kill"))
    assert p.returncode == 4, p.told
    assert codes(rep)[0] == "LIVE002"
    ops = rep["results"]["live"]["verdicts"][0]["ops"]
    assert "all_reduce" in ops["0"] and "broadcast" in ops["1"]


def test_rank_holding_the_gil_is_frozen_and_still_gives_a_stack(tmp_path):
    p, rep, out = live_run(tmp_path, "--steps", "100000", "--fault", "gil", "--fault-step", "5",
                           opts=("--stall-after", "4", "--on-hang", "kill"))
    assert p.returncode == 4, p.told
    assert codes(rep)[0] == "LIVE004" and rep["findings"][0]["ranks"] == [1]
    stacks = [out / "stacks" / n for n in ("rank1.py-spy.txt", "rank1.signal.txt")]
    assert any(s.is_file() and "ddp_loop.py" in s.read_text() for s in stacks)
    assert (out / "fr" / "rank1.json").is_file()  # torch's C++ worker server answered without the GIL


def test_sigkilled_rank_is_named_and_the_job_exit_code_kept(tmp_path):
    plain_rc = 1  # torchrun's exit code when a worker dies
    p, rep, out = live_run(tmp_path, "--steps", "100000", "--fault", "kill", "--fault-step", "5")
    assert p.returncode == plain_rc, p.told
    died = [f for f in rep["findings"] if f["code"] == "LIVE005"]
    assert died and died[0]["ranks"] == [1], (rep["findings"], p.told)
    if "Root Cause (first observed failure)" in (out / "output.log").read_text(errors="replace"):
        assert "SIGKILL" in died[0]["message"], died[0]
    else:  # torchrun's agent crashed before its record (the race the next test makes certain)
        assert "torchrun's own agent crashed" in died[0]["message"], died[0]


def test_sigkilled_rank_is_named_when_torchruns_agent_crashes_before_its_record(tmp_path):
    """CI stop 55: rank 1 killed from outside, rank 0 SIGTERMed by torchrun while it wrote its @record error file
    about the lost peer; torchrun's agent died reading that file (JSONDecodeError) and printed no failure record,
    and the report had no finding at all. The fault ``killtorn`` makes that race certain: the watcher's record of
    the vanished pids then names rank 1, rank 0 is a victim, and the agent's crash is said."""
    from ncclDoctor.launch.evidence import agent_crash

    p, rep, out = live_run(tmp_path, "--steps", "100000", "--fault", "killtorn", "--fault-step", "150")
    assert p.returncode == 1, p.told
    assert "JSONDecodeError" in (agent_crash((out / "output.log").read_text(errors="replace")) or ""), p.told
    died = [f for f in rep["findings"] if f["code"] == "LIVE005"]
    assert died and died[0]["ranks"] == [1], (rep["findings"], p.told)
    assert "torchrun's own agent crashed" in died[0]["message"] and "rank 0 vanished too (" in died[0]["message"]
    assert "rank 0 " not in died[0]["message"].split(". ")[0], died[0]["message"]


def test_normal_job_with_a_pause_and_a_user_sitecustomize_is_unchanged(tmp_path):
    user = tmp_path / "usersite"
    user.mkdir()
    marker = tmp_path / "marker"
    (user / "sitecustomize.py").write_text(
        f"import os\nopen({str(marker)!r} + '.' + str(os.getpid()), 'w').write(os.environ.get('RANK', 'agent'))\n")
    env = cli_env()
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(user)])
    # every rank pauses 8 s outside any collective (a checkpoint); the threshold is 3 s
    p, rep, out = live_run(tmp_path, "--steps", "60", "--fault", "pause", "--fault-step", "20", "--pause-s", "8",
                           opts=("--stall-after", "3"), env=env)
    assert p.returncode == 0, p.told
    assert not [c for c in codes(rep) if c.startswith("LIVE")], rep["findings"]
    assert sorted(m.read_text() for m in tmp_path.glob("marker.*")).count("0") == 1  # the user's sitecustomize ran
    assert {"0", "1", "agent"} <= {m.read_text() for m in tmp_path.glob("marker.*")}
    for r in (0, 1):
        assert f"rank {r} done 60 steps" in p.stdout
    log = (out / "output.log").read_text()
    assert all(line in log for line in p.stdout.splitlines() if "done" in line)
    for r in (0, 1):  # each rank's own output, teed into the run directory
        own = (out / "ranks" / f"rank{r}.log").read_text()
        assert f"rank {r} done 60 steps" in own and f"rank {1 - r} done" not in own
        assert rep["results"]["live"]["output_tail"]["per_rank"][str(r)][-1].startswith(f"rank {r} done")
    assert rep["results"]["live"]["job_returncode"] == 0 and rep["results"]["live"]["exit_status"] == 0
    assert rep["exit_code"] == 0  # the report's own code: nothing found
    import jsonschema

    from ncclDoctor.report.model import schema_text

    jsonschema.validate(rep, json.loads(schema_text()))
    assert rep["results"]["live"]["timeline"]["0"], "progress was watched"


def test_a_20_s_checkpoint_on_one_rank_with_default_settings_is_no_false_alarm(tmp_path):
    # rank 0 saves for 20 s while rank 1 waits in the barrier: past the 15 s default floor, but the
    # culprit's main thread is working, so the verdict is held back (to 60 s) and never comes
    p, rep, _ = live_run(tmp_path, "--steps", "40", "--fault", "pause0", "--fault-rank", "0", "--fault-step", "20",
                         "--pause-s", "20")
    assert p.returncode == 0, p.told
    assert not [c for c in codes(rep) if c.startswith("LIVE")], rep["findings"]
    assert "busy outside collectives" in p.stderr  # said while it waited
    assert "HANG" not in p.stderr


def test_attach_names_the_rank_outside_the_collective_of_a_plain_torchrun_job(tmp_path):
    log = open(tmp_path / "job.log", "wb")
    job = subprocess.Popen([*TORCHRUN, JOB, "--steps", "100000", "--fault", "hang", "--fault-step", "5"],
                           env=cli_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while b"FAULT" not in (tmp_path / "job.log").read_bytes():
            assert time.monotonic() < deadline and job.poll() is None, (tmp_path / "job.log").read_text()[-2000:]
            time.sleep(1)
        time.sleep(3)  # let rank 0 block in the next collective
        p = run_cli("attach", str(job.pid), "--out", str(tmp_path / "att"), "--watch", "2", "--json", timeout=120)
        assert job.poll() is None, "attach must not change the job"
        injected = None
        if shutil.which("gdb"):  # opt-in: the Flight Recorder from inside each worker
            injected = run_cli("attach", str(job.pid), "--inject", "--watch", "0", "--out", str(tmp_path / "inj"),
                               "--json", timeout=400)
            assert job.poll() is None, "--inject must leave the job running"
        else:
            print("gdb not installed: attach --inject not exercised")
    finally:
        reap(job)
        log.close()
    assert p.returncode == 4, p.stderr[-2000:]
    rep = json.loads(p.stdout)
    assert rep["findings"][0]["code"] == "LIVE001" and rep["findings"][0]["ranks"] == [1]
    if shutil.which("py-spy") or (Path(sys.executable).parent / "py-spy").is_file():
        assert "ddp_loop.py" in (tmp_path / "att" / "stacks" / "rank1.py-spy.txt").read_text()
    else:
        print("py-spy not installed: attach judged from /proc thread states only")
    if injected is not None:
        assert injected.returncode == 4, injected.stderr[-2000:]
        f = json.loads(injected.stdout)["findings"][0]
        assert f["code"] == "LIVE001" and f["ranks"] == [1] and "from the Flight Recorder" in f["message"]


def test_job_that_never_initialises_a_process_group_gets_a_clear_report(tmp_path):
    out = tmp_path / "run"
    p = run_cli("run", "--out", str(out), "--", *TORCHRUN, str(ROOT / "tests" / "fixtures" / "userjobs" / "no_pg.py"),
                timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "hello from rank 0" in p.stdout and "hello from rank 1" in p.stdout
    rep = json.loads((out / "report.json").read_text())
    assert codes(rep) == ["LIVE007"] and rep["exit_code"] == 0  # a warning: below the default --fail-on error



def test_a_job_shorter_than_a_poll_is_not_told_it_never_initialised_a_group(tmp_path):
    """One all_reduce and out, before the watcher's first heartbeat could carry Flight Recorder counters: each
    rank's goodbye says its Flight Recorder held a group's counters, so no LIVE007 (which the no_pg job above keeps).
    Before: LIVE007 on this job, and on the reference trainer when the suite loaded the machine (fresh clone,
    session 31)."""
    out = tmp_path / "run"
    p = run_cli("run", "--out", str(out), "--", *TORCHRUN, str(ROOT / "tests" / "fixtures" / "userjobs" /
                                                             "short_job.py"), timeout=300)
    assert p.returncode == 0, told(p, out)
    rep = json.loads((out / "report.json").read_text())
    assert "LIVE007" not in codes(rep), rep["findings"]

def test_ctrl_c_is_forwarded_and_the_partial_report_written(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "ncclDoctor", "run", "--out", str(out), "--", *TORCHRUN, JOB,
                             "--steps", "100000"], env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while not list((out / "live").glob("boot.rank*.json")) or not (out / "output.log").is_file():
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.5)
        time.sleep(5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            reap(proc)
    assert proc.returncode != 0
    rep = json.loads((out / "report.json").read_text())
    assert "RUN007" in codes(rep) and rep["interrupted"] is True
    for boot in (out / "live").glob("boot.rank*.json"):  # every worker is gone
        pid = json.loads(boot.read_text())["pid"]
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_rank_three_times_slower_is_named_as_a_straggler_without_a_hang(tmp_path):
    # 200 steps of 60 ms on rank 1: the straggler rule needs 20 polls (0.2 s) of a moving group; 400 steps gave
    # 133 samples at load 8 (27 s), so 200 give about 65, and the share it judges is a ratio, not a count
    p, rep, _ = live_run(tmp_path, "--steps", "200", "--step-ms", "20", "--fault", "slow", "--fault-rank", "1",
                         opts=("--poll", "0.2"))
    assert p.returncode == 0, p.told
    assert codes(rep) == ["LIVE006"], rep["findings"]
    assert rep["findings"][0]["ranks"] == [1] and rep["findings"][0]["severity"] == "warning"
    assert "straggler: the other ranks of group 0 were waiting for rank 1" in p.stderr  # said while it ran


def test_rank_that_aborts_while_exiting_is_said_to_have_died_in_the_teardown(tmp_path):
    # what CI stop 31 hit for real (a gloo teardown abort after the last step), made certain: rank 1 aborts once
    # its interpreter is exiting, after its goodbye
    p, rep, out = live_run(tmp_path, "--steps", "20", "--fault", "exitabort", "--fault-rank", "1")
    assert p.returncode != 0, p.told
    (f,) = [f for f in rep["findings"] if f["code"] == "LIVE005"]
    assert f["ranks"] == [1] and "SIGABRT" in f["message"], f
    assert "had begun to exit" in f["message"] and "destroy_process_group" in f["message"]
    assert "rank 1 done 20 steps" in (out / "ranks" / "rank1.log").read_text()


def test_two_nodes_report_to_one_collector_which_names_the_remote_culprit(tmp_path):
    import socket as _socket

    with _socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        rdzv = s.getsockname()[1]
    with _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        collector = s.getsockname()[1]

    def node(i: int, extra: list[str]) -> subprocess.Popen:
        # static rendezvous: node i holds rank i, so the culprit (rank 1) is on the other node
        line = [sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--nproc-per-node", "1",
                "--node-rank", str(i), "--master-addr", "127.0.0.1", "--master-port", str(rdzv), "--max-restarts", "0",
                JOB, "--steps", "100000", "--fault", "hang", "--fault-rank", "1", "--fault-step", "8"]
        return subprocess.Popen([sys.executable, "-m", "ncclDoctor", "run", "--out", str(tmp_path / f"node{i}"), *extra,
                                 "--", *line], env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    leader = node(0, ["--collector-port", str(collector), "--stall-after", "4", "--on-hang", "kill"])
    follower = node(1, ["--report-to", f"127.0.0.1:{collector}"])
    try:
        _, err = leader.communicate(timeout=400)
        follower.send_signal(signal.SIGTERM)  # its culprit sleeps for ever: stop it as a scheduler would
        follower.communicate(timeout=120)
    finally:
        for p in (leader, follower):
            if p.poll() is None:
                reap(p)
    assert leader.returncode == 4, err[-3000:]
    rep = json.loads((tmp_path / "node0" / "report.json").read_text())
    assert codes(rep)[0] == "LIVE001" and rep["findings"][0]["ranks"] == [1]
    v = rep["results"]["live"]["verdicts"][0]
    boot = json.loads((tmp_path / "node1" / "live" / "boot.rank1.json").read_text())
    assert v["pids"]["1"] == boot["pid"]  # the remote culprit's pid, from its heartbeat
    assert any("ddp_loop.py" in f for f in v["frames"]["1"])
    rep1 = json.loads((tmp_path / "node1" / "report.json").read_text())
    assert not rep1["results"]["live"]["verdicts"]  # the follower judged nothing


def test_default_on_hang_reports_and_leaves_the_job_running_until_sigterm(tmp_path):
    out = tmp_path / "run"
    err_path = tmp_path / "stderr.txt"
    with open(err_path, "wb") as err:
        cmd = [sys.executable, "-m", "ncclDoctor", "run", "--stall-after", "3", "--out", str(out), "--",
               *TORCHRUN, JOB, "--steps", "100000", "--fault", "hang", "--fault-step", "5"]
        proc = subprocess.Popen(cmd, env=cli_env(), stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 300
        while b"the job is still running" not in err_path.read_bytes():
            assert time.monotonic() < deadline and proc.poll() is None, err_path.read_text()[-3000:]
            time.sleep(0.5)
        interim = json.loads((out / "report.json").read_text())
        assert interim["results"]["live"]["job_running"] is True and codes(interim)[0] == "LIVE001"
        pids = [json.loads(b.read_text())["pid"] for b in (out / "live").glob("boot.rank*.json")]
        time.sleep(2)
        assert proc.poll() is None and all(Path(f"/proc/{pid}").exists() for pid in pids)  # left alone
        proc.send_signal(signal.SIGTERM)  # a scheduler's cancel: forwarded to torchrun
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            reap(proc)
    final = json.loads((out / "report.json").read_text())
    assert final["results"]["live"]["job_running"] is False and final["interrupted"] is True
    assert {"LIVE001", "RUN007"} <= set(codes(final)) and final["exit_code"] == 4


def test_reference_trainer_with_eval_and_checkpoint_runs_unchanged_without_false_alarm(tmp_path):
    result = tmp_path / "result.json"
    out = tmp_path / "run"
    p = run_cli("run", "--out", str(out), "--stall-after", "5", "--", *TORCHRUN, "-m", "reference_train",
                "--data-dir", str(tmp_path / "data"), "--synthetic-train", "512", "--synthetic-test", "256",
                "--epochs", "2", "--checkpoint", str(tmp_path / "ckpt.pt"), "--result-json", str(result), timeout=600)
    assert p.returncode == 0, told(p, out)
    rep = json.loads((out / "report.json").read_text())
    assert not [c for c in codes(rep) if c.startswith("LIVE")], rep["findings"]
    assert json.loads(result.read_text()) and (tmp_path / "ckpt.pt").is_file()
    assert rep["results"]["live"]["timeline"]["1"]
