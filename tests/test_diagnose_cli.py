"""`ncclDoctor diagnose` as a user runs it: exit codes, bad input, stdin, run directories.
The CLI's logic runs in-process (`run_cli_here`); bad input and stdin in real subprocesses."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ncclDoctor.diagnose import diagnose
from ncclDoctor.findings import Severity
from ncclDoctor.report.model import Report
from ncclDoctor.report.write import write_run_dir
from tests.conftest import ROOT, cli_env, run_cli, run_cli_here

LOGS = Path(__file__).parent / "fixtures" / "logs"
TIMEOUT_LINE = ("[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective "
                "operation timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) "
                "ran for 600001 milliseconds before timing out.\n")


def test_cli_exit_1_json_and_run_dir(tmp_path):
    out = tmp_path / "run"
    p = run_cli_here("diagnose", str(LOGS / "desync_broadcast"), "--json", "--out", str(out), timeout=120)
    assert p.returncode == 1, p.stderr
    rep = json.loads(p.stdout)
    assert rep["command"] == "diagnose" and rep["verdict"] == "fail" and rep["exit_code"] == 1
    assert "LOG002" in {f["code"] for f in rep["findings"]}
    assert json.loads((out / "report.json").read_text())["findings"] == rep["findings"]
    md = (out / "report.md").read_text()
    assert "## Diagnosis" in md and "Per-rank timeline" in md and "rank 3" in md


def test_cli_table_output_names_culprit(tmp_path):
    p = run_cli_here("diagnose", str(LOGS / "srun_prefix"), "--out", str(tmp_path / "r"), timeout=120)
    assert p.returncode == 1
    assert "LOG001" in p.stdout and "culprit (high)" in p.stdout and "Traceback" not in p.stderr


def test_cli_exit_0_when_nothing_is_wrong(tmp_path):
    log = tmp_path / "ok.log"
    log.write_text("step 1 loss 2.3\nstep 2 loss 2.1\n")
    p = run_cli_here("diagnose", str(log), "--json", "--out", str(tmp_path / "r"), timeout=120)
    assert p.returncode == 0, p.stdout
    assert [f["code"] for f in json.loads(p.stdout)["findings"]] == ["LOG031"]


# NCCL INFO lines of tests/fixtures/logs/socket_fallback without its errno lines: a
# warning (LOG019, socket transport) and an info (LOG020, settings from the environment).
SOCKET_INFO = """node5:240:240 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0
node5:240:240 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.
node5:240:240 [0] NCCL INFO NET/IB : No device found.
node5:240:240 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>
"""


@pytest.mark.parametrize("lines, codes, exits", [
    # input with a warning at worst: only --fail-on warning/info make it fail
    (SOCKET_INFO, ["LOG019", "LOG020"], {None: 0, "error": 0, "warning": 1, "info": 1}),
    # an info at worst: only --fail-on info makes it fail
    (SOCKET_INFO.splitlines(True)[0], ["LOG020", "LOG031"], {None: 0, "error": 0, "warning": 0, "info": 1}),
])
def test_cli_fail_on_threshold(tmp_path, lines, codes, exits):
    log = tmp_path / "node0.log"
    log.write_text(lines)
    for fail_on, want in exits.items():
        p = run_cli_here("diagnose", str(log), "--json", "--out", str(tmp_path / f"r-{fail_on}"),
                         *(["--fail-on", fail_on] if fail_on else []), timeout=120)
        rep = json.loads(p.stdout)
        assert [f["code"] for f in rep["findings"]] == codes
        assert (p.returncode, rep["exit_code"]) == (want, want), (fail_on, p.stderr)
    p = run_cli_here("diagnose", str(log), "--fail-on", "bogus", timeout=120)
    assert p.returncode == 2 and "'bogus'" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_cli_usage_errors_are_one_line(tmp_path):
    p = run_cli("diagnose", str(tmp_path / "nope.log"), timeout=120)
    assert p.returncode == 2 and "no such file or directory" in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    p = run_cli("diagnose", timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "Missing argument" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_cli_reads_stdin(tmp_path):
    p = subprocess.run([sys.executable, "-m", "ncclDoctor", "diagnose", "-", "--json", "--out", str(tmp_path / "r")],
                       input=TIMEOUT_LINE, capture_output=True, text=True, timeout=120, env=cli_env())
    assert p.returncode == 1, p.stderr
    f = next(f for f in json.loads(p.stdout)["findings"] if f["code"] == "LOG005")
    assert f["ranks"] == [0] and "<stdin>:1:" in f["evidence"][0]


def _bad_inputs(d: Path) -> dict[str, Path]:
    d.mkdir()
    files = {}
    files["binary"] = d / "core.bin"
    rng = random.Random(1)
    files["binary"].write_bytes(b"\x7fELF\x02\x01\x01\x00" + rng.randbytes(20000))  # a core file's start
    files["empty"] = d / "empty.log"
    files["empty"].write_bytes(b"")
    # incompressible text after the timeout line, so cutting the .gz loses a real part of it
    good = TIMEOUT_LINE.encode() + bytes(32 + b % 95 for b in rng.randbytes(400_000)) + b"\n"
    full = gzip.compress(good)
    files["truncated_gz"] = d / "rank0.log.gz"
    files["truncated_gz"].write_bytes(full[: len(full) * 2 // 3])
    files["not_gzip"] = d / "fake.gz"
    files["not_gzip"].write_bytes(b"plain text, not gzip\n")
    files["bad_utf8"] = d / "rank1.log"
    files["bad_utf8"].write_bytes(b"\xff\xfe\x80 " + TIMEOUT_LINE.replace("rank0]", "rank1]").replace("Rank 0]",
            "Rank 1]").encode("utf-8") + b"\xc3\x28\n")
    files["broken_link"] = d / "rank2.log"
    os.symlink(d / "does-not-exist", files["broken_link"])
    return files


def test_bad_inputs_are_notes_and_the_rest_is_analysed(tmp_path):
    files = _bad_inputs(tmp_path / "in")
    report = diagnose([str(tmp_path / "in")], fail_on=Severity.ERROR)
    notes = {i["path"]: i["notes"] for i in report.results["diagnose"]["inputs"]}
    assert any("binary" in n for n in notes[str(files["binary"])])
    assert notes[str(files["empty"])] == ["empty file"]
    assert any("truncated gzip" in n for n in notes[str(files["truncated_gz"])])
    assert any("gzip" in n for n in notes[str(files["not_gzip"])])
    assert notes[str(files["broken_link"])] == ["a broken symbolic link"]
    assert notes[str(files["bad_utf8"])] == []
    lg = next(f for f in report.findings if f.code == "LOG030")
    assert str(files["truncated_gz"]) in lg.message
    # the truncated gz still gave rank 0's timeout; the invalid UTF-8 file gave rank 1's
    assert next(f for f in report.findings if f.code == "LOG005").ranks == [0, 1]


def _assert_unreadable_noted(rep: dict, path: str) -> None:
    (inp,) = [i for i in rep["results"]["diagnose"]["inputs"] if i["path"] == path]
    assert inp["kind"] == "skipped" and "cannot read: Permission denied" in inp["notes"], inp
    (f,) = [f for f in rep["findings"] if f["code"] == "LOG030"]
    assert path in f["message"] or any(path in str(e) for e in f["evidence"]), f


def test_unreadable_file_as_an_unprivileged_user():
    """A real EACCES from open(): mode 000 does not stop root, so as root the command
    runs as nobody (setpriv); otherwise as ourselves. Never skipped."""
    import shutil
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="ncclDoctor-unreadable-"))  # not under root's 0700 pytest dir
    try:
        d.chmod(0o777)
        (d / "rank1.log").write_text(TIMEOUT_LINE.replace("rank0", "rank1"))
        f = d / "rank0.log"
        f.write_text(TIMEOUT_LINE)
        f.chmod(0)
        prefix = []
        if os.geteuid() == 0:
            assert shutil.which("setpriv"), "setpriv (util-linux) is needed to drop root for this test"
            prefix = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
        argv = [*prefix, sys.executable, "-m", "ncclDoctor", "diagnose", str(d), "--json", "--out", str(d / "r")]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=cli_env(HOME=str(d)), cwd=str(d))
        assert "Traceback" not in p.stderr, p.stderr
        rep = json.loads(p.stdout)
        _assert_unreadable_noted(rep, str(f))
        assert "LOG005" in [x["code"] for x in rep["findings"]], rep["findings"]  # the readable file still counts
        assert p.returncode == 1
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_unreadable_file_in_process(tmp_path, monkeypatch):
    """The same branch without a second user: the input's opener raises EACCES."""
    from ncclDoctor.diagnose import load

    f = tmp_path / "rank0.log"
    f.write_text(TIMEOUT_LINE)
    real = load._file_input

    def denied(path, named=False):
        inp = real(path, named)

        def opener():
            raise PermissionError(13, "Permission denied", path)

        inp.opener = opener
        return inp

    monkeypatch.setattr(load, "_file_input", denied)
    _assert_unreadable_noted(diagnose([str(f)]).to_dict(), str(f))


def test_50mb_single_line_stays_bounded(tmp_path):
    big = tmp_path / "rank0.log"
    with open(big, "wb") as fh:
        fh.write(b"x NCCL WARN start of a huge line ")
        chunk = b"y" * (1 << 20)
        for _ in range(50):
            fh.write(chunk)
        fh.write(b"\n" + TIMEOUT_LINE.encode())
    # VmHWM, not ru_maxrss: after fork+exec ru_maxrss still counts the forking parent's
    # pages (pytest with torch imported reads ~250 MB before this process does anything)
    code = ("from ncclDoctor.diagnose import diagnose; "
            f"r = diagnose([{str(big)!r}]); "
            "print(sorted(f.code for f in r.findings)); "
            "print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')) // 1024)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=cli_env(),
                       cwd=str(ROOT))
    assert p.returncode == 0, p.stderr
    codes, rss_mb = p.stdout.strip().splitlines()
    assert "LOG005" in codes and "LOG030" in codes  # the line after it was still read; the cut was noted
    assert int(rss_mb) < 200, f"peak RSS {rss_mb} MB for a 50 MB line"


def test_malicious_pickle_is_refused_not_run(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    dump = tmp_path / "comm_lib_trace_rank_0"
    dump.write_bytes(pickle.dumps({"version": "2.10", "entries": [Evil()]}, protocol=2))
    report = diagnose([str(dump)])
    assert not marker.exists()
    notes = report.results["diagnose"]["inputs"][0]["notes"]
    assert any("posix.system" in n or "os.system" in n for n in notes), notes
    assert "LOG030" in {f.code for f in report.findings}


def test_run_directory_input(tmp_path):
    """An ncclDoctor run directory (written by the real writer) plus its logs/."""
    from ncclDoctor.rules.codes.run import HANG

    prior = Report(command="check")
    prior.add(HANG.finding("rank 1 never entered phase smoke", ranks=[1], nodes=["node-a"]))
    from ncclDoctor.rules.codes.live import LIVE_DIED

    prior.add(LIVE_DIED.finding("rank 0 exited with exit code 1", ranks=[0]))
    prior.conclude()
    run = tmp_path / "check-run"
    write_run_dir(prior, run)
    (run / "logs").mkdir()
    (run / "logs" / "rank0.log").write_text(TIMEOUT_LINE)
    report = diagnose([str(run)])
    codes = {f.code for f in report.findings}
    assert {"LOG040", "LOG005"} <= codes
    assert any("RUN003" in f.message for f in report.findings if f.code == "LOG040")
    kinds = {i["path"]: i["kind"] for i in report.results["diagnose"]["inputs"]}
    assert kinds[str(run / "report.json")] == "run_report"
    # The rendered views are the report again, not logs: read, their rules' own words ("connection
    # closed by peer" in LIVE005's why) became a socket-error finding (seen on a real `run` directory).
    assert not {str(run / "report.md"), str(run / "report.html")} & set(kinds)
    assert "LOG012" not in codes


def test_log_starting_with_a_dict_is_still_a_log(tmp_path):
    log = tmp_path / "rank0.log"
    log.write_text("{'loss': 2.31, 'learning_rate': 1e-05, 'epoch': 0.1}\n" + TIMEOUT_LINE)
    report = diagnose([str(log)])
    assert report.results["diagnose"]["inputs"][0]["kind"] == "log"
    assert "LOG005" in {f.code for f in report.findings}


def test_torchrun_error_file_orders_the_first_failure(tmp_path):
    """A real error.json written by torch's @record (TORCHELASTIC_ERROR_FILE) carries an
    epoch timestamp: the rank's exception is placed before the other ranks' timeouts."""
    err = tmp_path / "run" / "attempt_0" / "1" / "error.json"
    err.parent.mkdir(parents=True)
    code = ("from torch.distributed.elastic.multiprocessing.errors import record\n"
            "@record\ndef main():\n    raise ValueError('bad batch shape on this rank')\nmain()\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env=cli_env(TORCHELASTIC_ERROR_FILE=str(err)))
    assert p.returncode != 0 and err.exists(), p.stderr[-500:]
    import datetime as dt

    stamp = int(json.loads(err.read_text())["message"]["extraInfo"]["timestamp"])
    later = dt.datetime.fromtimestamp(stamp + 600, dt.timezone.utc)  # log stamps are read as UTC
    victim = tmp_path / "run" / "attempt_0" / "0" / "stderr.log"
    victim.parent.mkdir(parents=True)
    victim.write_text(later.strftime("%Y-%m-%d %H:%M:%S,000 ") + TIMEOUT_LINE)
    report = diagnose([str(tmp_path / "run")])
    ff = next(f for f in report.findings if f.code == "LOG003")
    assert ff.ranks == [1] and "exception" in ff.message and "confidence: high" in ff.evidence
    assert "bad batch shape" in " ".join(map(str, ff.evidence))


def test_named_pipe_is_read_but_a_fifo_inside_a_directory_is_skipped(tmp_path):
    """`ncclDoctor diagnose <(zcat job.log.gz)` passes a pipe; a FIFO found while walking a
    directory would block forever, so it is noted and skipped."""
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(TIMEOUT_LINE), daemon=True)
    writer.start()
    report = diagnose([str(fifo)])
    writer.join(timeout=10)
    assert "LOG005" in {f.code for f in report.findings}
    d = tmp_path / "dir"
    d.mkdir()
    os.mkfifo(d / "stray.fifo")
    report = diagnose([str(d)])
    assert report.results["diagnose"]["inputs"][0]["notes"] == ["not a regular file"]


def test_cli_select_ignore_and_junit(tmp_path):
    junit = tmp_path / "diag.xml"
    p = run_cli_here("diagnose", str(LOGS / "desync_broadcast"), "--json", "--out", str(tmp_path / "r"),
                     "--ignore", "LOG005,LOG009", "--junit", str(junit), timeout=120)
    rep = json.loads(p.stdout)
    assert [f["code"] for f in rep["findings"]] == ["LOG002"] and p.returncode == 1
    assert rep["config"]["gates"]["suppressed"] == {"LOG005": 1, "LOG009": 1}
    assert "LOG002" in junit.read_text()
    p = run_cli_here("diagnose", str(LOGS / "desync_broadcast"), "--json", "--out", str(tmp_path / "r2"),
                     "--select", "LOG019", timeout=120)
    assert json.loads(p.stdout)["findings"] == [] and p.returncode == 0
    # what --select keeps, not only what it drops
    p = run_cli_here("diagnose", str(LOGS / "desync_broadcast"), "--json", "--out", str(tmp_path / "r3"),
                     "--select", "LOG002", timeout=120)
    rep = json.loads(p.stdout)
    assert [f["code"] for f in rep["findings"]] == ["LOG002"] and p.returncode == 1
    assert rep["config"]["gates"]["suppressed"] == {"LOG005": 1, "LOG009": 1}
    (f,) = rep["findings"]
    assert f["ranks"] == [3], f  # the desync's odd rank, as test_diagnose_corpus expects


def test_a_bug_in_the_verdict_loses_nothing_else_and_exits_70(tmp_path, monkeypatch):
    """A detector that raises (round 51: a launcher name missing from a table, KeyError) leaves the findings, the
    timeline and the written report; the verdict says it stopped, LOG033 names the error, the exit code is 70."""
    import ncclDoctor.diagnose as D

    def broken(*args, **kwargs):
        raise KeyError("mpiexec (some launcher)")

    monkeypatch.setattr(D, "verdict", broken)
    log = tmp_path / "job.log"
    log.write_text(TIMEOUT_LINE + "export NCCL_TIMEOUT=1800\n")
    out = tmp_path / "r"
    p = run_cli_here("diagnose", str(log), "--json", "--out", str(out), timeout=120)
    assert p.returncode == 70, p.stderr
    assert "Traceback" not in p.stderr
    rep = json.loads(p.stdout)
    codes = {f["code"] for f in rep["findings"]}
    assert {"LOG033", "LOG005"} <= codes, codes  # the watchdog timeout read is still reported
    assert any(c.startswith("ENV") for c in codes), codes  # so is the nonexistent NCCL_TIMEOUT in the log
    stopped = next(f for f in rep["findings"] if f["code"] == "LOG033")
    assert "KeyError" in stopped["message"] and "some launcher" in stopped["message"]
    d = rep["results"]["diagnose"]
    assert d["verdict"]["cause"] == "unknown" and d["verdict"]["culprits"] == [] and d["ranks"]
    assert json.loads((out / "report.json").read_text())["exit_code"] == 70

    monkeypatch.setenv("NCCLDOCTOR_DEBUG", "1")  # a developer gets the traceback instead
    with pytest.raises(KeyError):
        diagnose([str(log)])
