"""The injected sitecustomize on its own (no torchrun): it chains to the one it shadows, activates
only in a worker's environment, never in a worker's children, never breaks start-up, and the
publisher sends Flight Recorder counters once a process group exists."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ncclDoctor.live.launch import INJECT_DIR


def py(code: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout)


def base_env(tmp_path: Path, user_site: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "LOCAL_RANK", "NCD_LIVE_ACTIVE_PID")}
    env["PYTHONPATH"] = os.pathsep.join([str(INJECT_DIR), str(user_site)])
    env["NCD_LIVE_DIR"] = str(tmp_path / "run")
    env.update(extra)
    return env


def user_site(tmp_path: Path, body: str) -> Path:
    d = tmp_path / "usersite"
    d.mkdir(exist_ok=True)
    (d / "sitecustomize.py").write_text(body)
    return d


def test_chains_to_the_shadowed_sitecustomize_and_stays_out_of_non_workers(tmp_path):
    site = user_site(tmp_path, "import os\nos.environ['USER_SITE_RAN'] = '1'\n")
    p = py("import os; print(os.environ.get('USER_SITE_RAN'))", base_env(tmp_path, site))
    assert p.stdout.strip() == "1", p.stderr
    assert not (tmp_path / "run" / "live").exists()  # no RANK: not a torchrun worker


def test_activates_in_a_worker_but_not_in_its_children(tmp_path):
    site = user_site(tmp_path, "")
    code = ("import os, subprocess, sys; print(os.environ.get('NCD_LIVE_ACTIVE_PID') == str(os.getpid()));"
            "subprocess.run([sys.executable, '-c', 'pass'], check=True)")
    p = py(code, base_env(tmp_path, site, RANK="3", LOCAL_RANK="1", NCD_LIVE_SIGNAL="SIGRTMIN"))
    assert p.stdout.strip() == "True", p.stderr
    boots = list((tmp_path / "run" / "live").glob("boot.rank*.json"))
    assert [b.name for b in boots] == ["boot.rank3.json"]  # the child inherited RANK but stayed out
    assert json.loads(boots[0].read_text())["local_rank"] == 1


def test_a_failing_user_sitecustomize_is_reported_like_site_does_and_the_job_runs(tmp_path):
    site = user_site(tmp_path, "raise RuntimeError('user site broke')\n")
    p = py("print('job ran')", base_env(tmp_path, site, RANK="0", LOCAL_RANK="0"))
    assert p.returncode == 0 and p.stdout.strip() == "job ran"
    assert "Error in sitecustomize" in p.stderr and "user site broke" in p.stderr


def test_tee_passes_every_byte_and_the_exit_code_through_and_keeps_a_per_rank_copy(tmp_path):
    site = user_site(tmp_path, "")
    # print() (buffered), a raw write, stderr, a child that inherits the fds, and binary bytes
    code = ("import os, subprocess, sys; print('out one'); sys.stderr.write('err one\\n'); sys.stderr.flush();"
            "os.write(1, b'raw \\xff\\x00 bytes\\n'); subprocess.run([sys.executable, '-c', 'print(\\'child\\')']);"
            "print('out two'); sys.exit(7)")
    runs = {}
    for tee in ("0", "1"):
        env = base_env(tmp_path, site, RANK="2", LOCAL_RANK="0", NCD_LIVE_TEE=tee, NCD_LIVE_SIGNAL="SIGRTMIN")
        runs[tee] = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=120)
    plain, teed = runs["0"], runs["1"]
    assert teed.returncode == plain.returncode == 7
    assert teed.stdout == plain.stdout and b"raw \xff\x00 bytes" in teed.stdout and b"child" in teed.stdout
    assert teed.stderr == plain.stderr == b"err one\n"
    log = (tmp_path / "run" / "ranks" / "rank2.log").read_bytes()
    assert sorted(log.splitlines()) == sorted((plain.stdout + plain.stderr).splitlines())
    assert not (tmp_path / "run" / "ranks" / "rank0.log").exists()


@pytest.mark.integration
def test_publisher_sends_counters_after_init_process_group(tmp_path):
    site = user_site(tmp_path, "")
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.bind(("127.0.0.1", 0))
    rx.settimeout(60)
    env = base_env(tmp_path, site, RANK="0", LOCAL_RANK="0", WORLD_SIZE="1", MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=str(_free_port()), NCD_LIVE_ADDR=f"127.0.0.1:{rx.getsockname()[1]}",
                   NCD_LIVE_POLL_S="0.1", NCD_LIVE_SOCK_DIR=str(tmp_path))
    # the worker stays up until the test has seen a record of all three done with the group's membership (or 60 s): a
    # fixed sleep was a window a loaded machine could miss (seen once at load 8-10: every record {} before the goodbye);
    # membership is re-read at most once a second, so the first record with the counters may still carry none (CI, once)
    go = tmp_path / "go"
    code = ("import os, time, torch, torch.distributed as dist; dist.init_process_group('gloo');"
            "[dist.all_reduce(torch.ones(1)) for _ in range(3)]; t = time.monotonic()\n"
            f"while not os.path.exists({str(go)!r}) and time.monotonic() - t < 60: time.sleep(0.05)")
    p = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    records = []
    err = b""
    try:
        while not records or not records[-1].get("exiting"):
            records.append(json.loads(rx.recv(65536)))
            if records[-1].get("pgs", {}).get("0") == [3, 3] and records[-1].get("groups"):
                go.touch()
    finally:
        err = p.communicate(timeout=120)[1]
        rx.close()
    assert p.returncode == 0
    # some record after the collectives shows all three completed (on failure: every record's counters, backend and
    # the worker's stderr -- the fresh-clone run of session 32 saw every record {} for the whole 60 s, once)
    # the session 38 fresh-clone run, under heavy other load, saw it again: the message is a string now (a tuple's repr
    # was cut to its first six records), with each distinct (counters, backend) and how often, and the last records
    done = [r for r in records if r.get("pgs", {}).get("0") == [3, 3]]
    seen = Counter((json.dumps(r.get("pgs"), sort_keys=True), r.get("backend")) for r in records)
    assert done and done[-1]["backend"] == "gloo", (f"{len(records)} records; distinct (pgs, backend): "
                                                    f"{seen.most_common(12)}; last: {records[-3:]}; worker stderr: "
                                                    f"{err.decode(errors='replace')[-2000:]}")
    assert done[-1]["groups"] == {"0": [0]}, [(r.get("pgs"), r.get("groups")) for r in records]
    assert records[-1]["exiting"] is True and records[-1]["pgs"] == {}  # its goodbye


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gdb_injection_into_a_stopped_process_returns_at_once_and_leaves_it_alive(tmp_path):
    """A SIGSTOPped target's pending stop cuts gdb's first call short; gdb used to go on and run
    Python without the GIL, and the target died of SIGSEGV. Now the call is unwound and nothing
    else runs."""
    import shutil
    import signal
    import time

    from ncclDoctor.live import inject_gdb

    if not shutil.which("gdb"):
        pytest.skip("gdb not installed")
    target = subprocess.Popen([sys.executable, "-S", "-c", "import time; time.sleep(120)"])
    try:
        time.sleep(1.0)
        os.kill(target.pid, signal.SIGSTOP)
        started = time.monotonic()
        got = inject_gdb.inject(target.pid, tmp_path / "out.json", timeout_s=20)
        took = time.monotonic() - started
        os.kill(target.pid, signal.SIGCONT)
        time.sleep(0.5)
        assert target.poll() is None, f"the target died (rc {target.returncode})"
        assert got is None and took < 20 + 2 * inject_gdb._GRACE_S
    finally:
        target.kill()
        target.wait(timeout=30)


def _target(beat: Path, gil_thread: bool = False) -> subprocess.Popen:
    """A process whose main thread waits with the GIL released (as a rank blocked in a collective),
    while a second thread appends a byte to ``beat`` every 50 ms, so that a frozen or dead
    interpreter shows; with ``gil_thread``, a third thread holds the GIL in read() for ever."""
    hold = ("import ctypes\nr, w = os.pipe()\nthreading.Thread(target=ctypes.PyDLL('libc.so.6').read, "
            "args=(r, ctypes.create_string_buffer(1), 1), daemon=True).start()\n") if gil_thread else ""
    code = ("import os, threading, time\n"
            f"fd = os.open({str(beat)!r}, os.O_WRONLY | os.O_CREAT | os.O_APPEND)\n"
            "def tick():\n    while True:\n        os.write(fd, b'x'); time.sleep(0.05)\n"
            "threading.Thread(target=tick, daemon=True).start()\n" + hold + "threading.Event().wait()\n")
    return subprocess.Popen([sys.executable, "-S", "-c", code])


def _beats(beat: Path, over_s: float = 1.0) -> int:
    import time

    before = beat.stat().st_size
    time.sleep(over_s)
    return beat.stat().st_size - before


def test_gdb_call_still_running_at_the_deadline_is_finished_not_cut(tmp_path):
    """CI's flake (2026-12-01): the deadline fell while gdb's PyRun_SimpleString ran, gdb was
    interrupted and unwound the call's registers but not the GIL it held, and the worker froze or
    died of SIGSEGV. Here the injected code runs until 2.5 s past a 3 s deadline: it must be let
    finish, and the target must run on (before the fix: no answer, and the ticking thread froze). The call
    ends at a moment fixed before gdb starts (CLOCK_MONOTONIC is the same in both processes), so a slow
    attach on a loaded machine cannot make it end before the deadline; 3 s is for that attach (a 1 s deadline
    fell before gdb's first call at a load average of 8, and the gate rightly refused it)."""
    import shutil
    import time

    from ncclDoctor.live import inject_gdb

    if not shutil.which("gdb"):
        pytest.skip("gdb not installed")
    beat = tmp_path / "beat"
    target = _target(beat)
    deadline_s, past_s = 3.0, 2.5
    try:
        time.sleep(1.0)
        started = time.monotonic()
        slow = (f"import json, time\nwhile time.monotonic() < {started + deadline_s + past_s!r}: sum(range(1000))\n"
                "json.dump({'fr': None, 'stacks': 'finished'}, open(PATH, 'w'))\n")
        got = inject_gdb.inject(target.pid, tmp_path / "out.json", timeout_s=deadline_s, script=slow)
        took = time.monotonic() - started
        beats = _beats(beat)
        assert target.poll() is None, f"the target died (rc {target.returncode})"
        assert beats >= 5, "the target's interpreter froze after the injection"
        assert got == {"fr": None, "stacks": "finished"}, got
        assert deadline_s + past_s <= took < deadline_s + 2 * inject_gdb._GRACE_S, took
    finally:
        target.kill()
        target.wait(timeout=30)


def test_gdb_detaches_without_a_call_when_another_thread_holds_the_gil(tmp_path):
    """PyGILState_Ensure would wait for ever (a thread holds the GIL in C code, which py-spy shows
    idle): gdb sees the holder before its first call and detaches at once, with the reason."""
    import shutil
    import time

    from ncclDoctor.live import inject_gdb

    if not shutil.which("gdb"):
        pytest.skip("gdb not installed")
    target = _target(tmp_path / "beat", gil_thread=True)
    try:
        time.sleep(1.0)
        started = time.monotonic()
        got = inject_gdb.inject(target.pid, tmp_path / "out.json", timeout_s=20)
        took = time.monotonic() - started
        assert got is None and took < 10, took  # not the 20 s deadline
        assert "another thread holds the GIL" in (tmp_path / "out.why").read_text()
        assert not (tmp_path / "out.json").exists()
        assert target.poll() is None, f"the target died (rc {target.returncode})"
    finally:
        target.kill()
        target.wait(timeout=30)


def test_gdb_past_its_deadline_before_the_first_call_calls_nothing(tmp_path):
    """The deadline falls while gdb attaches (0.1 s: gdb takes longer to start): it detaches at
    its gate, before any call, and the target runs on unchanged."""
    import shutil
    import time

    from ncclDoctor.live import inject_gdb

    if not shutil.which("gdb"):
        pytest.skip("gdb not installed")
    beat = tmp_path / "beat"
    target = _target(beat)
    try:
        time.sleep(1.0)
        got = inject_gdb.inject(target.pid, tmp_path / "out.json", timeout_s=0.1)
        log = (tmp_path / "out.gdb.log").read_text()
        assert got is None and inject_gdb.GATE in log and inject_gdb.CALLING not in log, log[-2000:]
        assert target.poll() is None and _beats(beat) >= 5
    finally:
        target.kill()
        target.wait(timeout=30)
