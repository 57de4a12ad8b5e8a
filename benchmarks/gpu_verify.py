"""One prepared run that verifies every GPU path of ncclDoctor (issue #17).

    python benchmarks/gpu_verify.py OUTDIR [--budget-s 420] [--rehearse] [--only NAME,...]

Made for the day a GPU machine is lent for a few minutes with no second try: it runs the
real CLI and small jobs as subprocesses (so it survives refactors of the internals),
steps in order of value, each with its own timeout; a failing or timed-out step never
stops the rest. Everything lands under OUTDIR:

    OUTDIR/gpu_verify.json   every step: status (pass/fail/skipped/error), reason, the
                             checks made (ok / not ok / n/a, with detail), figures, evidence
    OUTDIR/summary.txt       the one-screen summary that is also printed at the end
    OUTDIR/runs/<step>/      run directories, job outputs, logs (tar them to bring back)
    OUTDIR/cache/            synthetic MNIST (generated once, shared by steps 4 and 5)

The JSON is rewritten whole after every step, so a run killed from outside still leaves
the steps done so far. Exit status: 0 whenever the run completed (even with failed
steps: read the JSON); 2 on bad usage.

Steps (``STEPS`` below; the GPU figures are what one H200 should take, well inside the caps):

 0 preflight   torch/CUDA/NCCL as the job's python sees them, nvidia-smi -L, the CLI starts
 1 check       ``ncclDoctor check --backend nccl``, one rank per GPU (NCCL refuses two ranks
               on one device): busbw table, #wrong 0, NVML facts in report.json, md/html render.
               With ONE GPU the all_reduce is a 1-rank job: it proves the nccl path end to end
               (communicator, device binding, CUDA tensors, timing with synchronize, the result
               check on the GPU, NVML facts, rendering) but moves no data between GPUs: busbw is
               0 by definition (factor 2(n-1)/n) and algbw is NCCL's local launch/copy speed.
               No link (NVLink, PCIe P2P, network) is measured.
 2 bare        the same sizes as a bare torchrun all_reduce loop on nccl
               (benchmarks/bare_allreduce.py), run twice: bandwidth ratio check/bare
 3 env         ``ncclDoctor env`` on the real NVML: every GPU rule's facts read, no NVML query
               error; the driver recorded as a replay snapshot (a future test fixture) and
               the replay checked equal to the live facts
 4 train       reference trainer, nccl, ``--amp``, SyncBatchNorm: accuracy after one epoch
 5 sweep       ``sweep-workers --pin-memory both``: both pin_memory values measured
 6 monitor     ``ncclDoctor.monitor``'s CUDA-event ``gpu_s``: present in the trainer's records,
               and equal to a known GPU spin (benchmarks/gpu_jobs/monitor_job.py)
 7 flight      the NCCL Flight Recorder mechanisms ``run`` relies on, read directly
               (benchmarks/gpu_jobs/fr_job.py): which recorder holds nccl entries, poll cost,
               a GPU-side stall seen as "enqueued, not completed", the dump pipe, and
               ``ncclDoctor diagnose`` reading the dump torch wrote
 8 run         ``ncclDoctor run`` on a tiny nccl job (skipped with "ncclDoctor run not
               available" while ``ncclDoctor run --help`` fails): overhead per step against
               plain torchrun, a GPU-side stall classified, FR evidence in the run directory
 9 oversub     ``check --nproc-per-node <GPUs+1>``, backend auto: nccl picked; a clean failure, not a hang

Without a GPU the steps that need one are "skipped: no GPU (torch.cuda.is_available() is
False)"; env and preflight still run, nothing starts torchrun, and it takes seconds.
``--rehearse`` runs every step on CPU/gloo instead (2 gloo ranks, small sizes), with the
GPU-only checks marked n/a: it exercises this script's own plumbing and parsing here,
so the GPU day does not find a bug in it. docs/gpu-verify.md has the device command.
"""

from __future__ import annotations

import argparse
import contextlib
import html.parser
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
JOBS = ROOT / "benchmarks" / "gpu_jobs"
PY = sys.executable
NO_GPU = "no GPU (torch.cuda.is_available() is False)"
NO_RUN = "ncclDoctor run not available"
GPU_SIZES = ("8", "128M", 2, 5, 20)  # check's nccl defaults: -b -e -f -w -n (nccl-tests' canonical)
CPU_SIZES = ("1K", "1M", 4, 2, 5)
ACCURACY_FLOOR = 0.6  # chance is 0.1; the CPU test of the trainer asserts the same floor


class Skip(Exception):
    """The step does not apply here; the message is the reason."""


class Terminated(BaseException):
    """SIGTERM/SIGINT from outside (the device's timeout): stop the child, write the JSON, leave."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated(f"stopped by signal {signum}")


class Proc:
    def __init__(self, argv: list[str], rc: int | None, out: str, err: str, seconds: float, timed_out: bool):
        self.argv, self.rc, self.out, self.err, self.seconds, self.timed_out = argv, rc, out, err, seconds, timed_out

    def tail(self, n: int = 1500) -> str:
        return (self.out[-n // 2:] + "\n--- stderr ---\n" + self.err[-n:]).strip()

    def json_line(self) -> dict | None:
        """The last stdout line that parses as a JSON object."""
        for line in reversed(self.out.strip().splitlines()):
            if line.startswith("{"):
                try:
                    return json.loads(line)
                except ValueError:
                    continue
        return None


class Ctx:
    """What every step shares: paths, the deadline, the machine, earlier steps' results."""

    def __init__(self, out: Path, budget_s: float, rehearse: bool):
        self.out, self.runs, self.cache = out, out / "runs", out / "cache"
        self.deadline = time.monotonic() + budget_s
        self.rehearse = rehearse
        self.machine: dict[str, Any] = {}
        self.shared: dict[str, Any] = {}

    @property
    def cuda(self) -> bool:
        return bool(self.machine.get("cuda_available")) and int(self.machine.get("device_count") or 0) > 0

    @property
    def gpus(self) -> int:
        return int(self.machine.get("device_count") or 0)

    @property
    def backend(self) -> str:
        return "nccl" if self.cuda else "gloo"

    @property
    def nproc(self) -> int:
        return self.gpus if self.cuda else 2

    def need_gpu(self) -> None:
        if not self.machine:
            raise Skip("preflight could not read torch's CUDA facts (see step preflight)")
        if not self.cuda and not self.rehearse:
            raise Skip(NO_GPU)

    def env(self, **extra: str) -> dict[str, str]:
        """The machine's environment as a user's job would get it (NCCL_* kept: preflight records them)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        env.setdefault("OMP_NUM_THREADS", "1")
        env["PYTHONUNBUFFERED"] = "1"
        env.update(extra)
        return env


class Step:
    def __init__(self, name: str, title: str, cap_s: float, ctx: Ctx):
        self.name, self.title, self.cap_s, self.ctx = name, title, cap_s, ctx
        self.dir = ctx.runs / name
        self.checks: list[dict[str, Any]] = []
        self.figures: dict[str, Any] = {}
        self.evidence: dict[str, Any] = {"commands": []}
        self.notes: list[str] = []
        self.deadline = min(time.monotonic() + cap_s, ctx.deadline)

    def check(self, name: str, ok: bool | None, detail: Any = "") -> bool:
        self.checks.append({"name": name, "ok": None if ok is None else bool(ok), "detail": detail})
        return bool(ok)

    def na(self, name: str, why: str) -> None:
        self.check(name, None, why)

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def run(self, argv: list[str], label: str, timeout: float | None = None, env: dict | None = None) -> Proc:
        """Run a command in its own process group, killed (group and all) at its timeout."""
        limit = min(self.left(), timeout or self.left())
        if limit < 3:
            raise TimeoutError(f"no time left in this step for {label}")
        self.dir.mkdir(parents=True, exist_ok=True)
        t0 = time.monotonic()
        p = subprocess.Popen([str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding="utf-8",
                             errors="replace", env=env or self.ctx.env(), cwd=str(ROOT), start_new_session=True)
        timed_out = False
        try:
            out, err = p.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            out, err = _kill_group(p)
        except BaseException:  # Terminated: children live in their own sessions, so stop them here
            _kill_group(p)
            raise
        proc = Proc([str(a) for a in argv], None if timed_out else p.returncode, out or "", err or "",
                     round(time.monotonic() - t0, 2), timed_out)
        (self.dir / f"{label}.out").write_text(proc.out)
        (self.dir / f"{label}.err").write_text(proc.err)
        self.evidence["commands"].append({"label": label, "argv": proc.argv[1:], "rc": proc.rc,
                                          "seconds": proc.seconds, "timed_out": timed_out})
        if timed_out:
            self.check(f"{label} finished within {limit:.0f} s", False, proc.tail())
        return proc


def _kill_group(p: subprocess.Popen) -> tuple[str, str]:
    """SIGTERM, then SIGKILL, to the child's process group and every descendant: torchrun starts
    its workers in sessions of their own, so the group alone would leave them on the GPU."""
    victims: list[int] = []
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        victims += [pid for pid in _descendants(p.pid) if pid not in victims]  # orphans of round 1 stay listed
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(p.pid, sig)
        for pid in victims:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        try:
            out = p.communicate(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        if _wait_gone(victims, wait):  # a pipe's EOF comes before its writer has finished exiting
            return out
    return "", "(process group did not exit after SIGKILL)"


def _wait_gone(pids: list[int], timeout: float) -> bool:
    """Whether every pid has exited (gone, or a zombie nobody reaps) within ``timeout`` s."""
    end = time.monotonic() + timeout
    while True:
        alive = []
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as fh:
                    state = fh.read().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state not in ("Z", "X"):
                alive.append(pid)
        if not alive or time.monotonic() >= end:
            return not alive
        time.sleep(0.02)


def _descendants(root: int) -> list[int]:
    """Every process below ``root``, from /proc (stdlib only); [] where /proc is missing."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def cli(*args: Any) -> list[Any]:
    return [PY, "-m", "ncclDoctor", *args]


def torchrun(nproc: int, *args: Any) -> list[Any]:
    return [PY, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={nproc}", *args]


def read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def size_list(b: str, e: str, f: int) -> list[int]:
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    parse = lambda s: int(s[:-1]) * mult[s[-1]] if s[-1] in mult else int(s)  # noqa: E731
    sizes, s = [], parse(b)
    while s <= parse(e):
        sizes.append(max(1, s // 4) * 4)
        s *= f
    return sizes


# ---------------------------------------------------------------- 0 preflight
def step_preflight(st: Step) -> None:
    p = st.run([PY, JOBS / "probe_env.py"], "probe_env", timeout=90)
    facts = p.json_line()
    if st.check("torch facts read", facts is not None, p.tail() if facts is None else ""):
        st.ctx.machine.update(facts)
        st.figures.update({k: facts.get(k) for k in ("torch", "cuda_build", "device_count", "nccl_version",
                                                     "ncclDoctor")})
        st.evidence["torch"] = facts
    if shutil.which("nvidia-smi"):
        smi = st.run(["nvidia-smi", "-L"], "nvidia_smi", timeout=30)
        st.evidence["nvidia_smi_L"] = smi.out.strip()
    else:
        st.notes.append("nvidia-smi not on PATH")
    v = st.run(cli("--help"), "cli_help", timeout=60)  # cheap: the CLI's imports, no torch
    st.check("ncclDoctor CLI starts", v.rc == 0 and "check" in v.out, "" if v.rc == 0 else v.tail())
    st.evidence["git_commit"] = _git_commit()
    st.evidence["distributed_env"] = {k: v for k, v in sorted(os.environ.items())
                                      if k.startswith(("NCCL_", "TORCH_", "CUDA_", "GLOO_", "NVIDIA_"))}
    st.notes.append(f"mode: {'GPU' if st.ctx.cuda else 'rehearsal on CPU' if st.ctx.rehearse else 'no GPU'}")


def _git_commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10,
                              cwd=str(ROOT)).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


# ---------------------------------------------------------------- 1 check
def step_check(st: Step) -> None:
    ctx = st.ctx
    ctx.need_gpu()
    b, e, f, w, n = GPU_SIZES if ctx.cuda else CPU_SIZES
    run_dir = st.dir / "run"
    p = st.run(cli("check", "--backend", ctx.backend, "--nproc-per-node", ctx.nproc, "--out", run_dir, "--json",
                   "-b", b, "-e", e, "-f", f, "-w", w, "-n", n), "check")
    rep = read_json(run_dir / "report.json")
    codes = [x.get("code") for x in (rep or {}).get("findings", [])]
    # One rank (one GPU) always warns RUN006 (busbw is 0 by definition): that warning is expected;
    # any other finding, or a verdict worse than warn, fails the step.
    expected = {"RUN006"} if int(ctx.nproc) == 1 else set()
    unexpected = [c for c in codes if c not in expected]
    verdict = (rep or {}).get("verdict")
    st.check("exit code 0, verdict pass (one GPU: only RUN006)",
             p.rc == 0 and (verdict == "pass" or (verdict == "warn" and codes and not unexpected)),
             {"rc": p.rc, "verdict": verdict, "findings": codes, "unexpected": unexpected} if rep else p.tail())
    if not st.check("report.json written", rep is not None, str(run_dir)):
        return
    st.evidence["findings"] = [{k: x.get(k) for k in ("code", "severity", "message")} for x in rep["findings"]]
    ar = rep.get("results", {}).get("all_reduce") or {}
    rows = ar.get("rows") or []
    check_table(st, rep, ar, rows, size_list(b, e, f))
    check_gpu_facts(st, rep)
    check_render(st, run_dir)
    ctx.shared["check"] = {"rows": rows, "sizes": (b, e, f, w, n), "world": ar.get("world_size")}


def check_table(st: Step, rep: dict, ar: dict, rows: list[dict], sizes: list[int]) -> None:
    ctx = st.ctx
    st.check("backend in report", ar.get("backend") == ctx.backend, ar.get("backend"))
    st.check("every size measured", [r.get("size") for r in rows] == sizes, f"{len(rows)} rows, {len(sizes)} sizes")
    smoke = rep.get("results", {}).get("smoke", {})
    bad = {r.get("size"): r.get("wrong") for r in rows if r.get("wrong") != 0}
    st.check("#wrong 0 (smoke and every size)", not bad and smoke.get("wrong") == 0, {"smoke": smoke, "bad": bad})
    world = ar.get("world_size") or 0
    algbw = [r.get("algbw_gbps") or 0 for r in rows]
    busbw = [r.get("busbw_gbps") or 0 for r in rows]
    if world == 1:
        st.check("1 rank: busbw 0 by definition, algbw > 0", all(x == 0 for x in busbw) and min(algbw, default=0) > 0,
                 "busbw = algbw x 2(n-1)/n = 0 with n = 1")
        codes = [x.get("code") for x in rep.get("findings", [])]
        st.check("the report says so (RUN006, single rank)", "RUN006" in codes, codes)
        st.notes.append("1 rank (NCCL refuses two ranks on one GPU): proves the nccl path end to end (communicator "
                        "with the device bound, CUDA tensors, synchronize-timed ops, the result check on the GPU, "
                        "NVML facts, rendering); moves no data between GPUs, so no link bandwidth is measured")
    else:
        st.check("busbw > 0 at every size", min(busbw, default=0) > 0, f"min {min(busbw, default=0)}")
    st.figures.update({"world": world, "peak_busbw_gbps": ar.get("peak_busbw_gbps"),
                       "peak_algbw_gbps": round(max(algbw, default=0), 3),
                       "time_us_smallest": rows[0].get("time_us") if rows else None,
                       "time_us_largest": rows[-1].get("time_us") if rows else None})
    keys = ("size", "time_us", "algbw_gbps", "busbw_gbps", "wrong")
    st.evidence["table"] = [{k: r.get(k) for k in keys} for r in rows]
    ranks = rep.get("ranks") or []
    devices = [r.get("device") for r in ranks]
    if ctx.cuda:
        st.check("one rank per GPU", len(set(devices)) == len(devices) == ctx.gpus
                 and all(str(d).startswith("cuda") for d in devices), devices)
        st.check("ranks report their NCCL version", all(r.get("nccl") for r in ranks), [r.get("nccl") for r in ranks])
    else:
        st.na("one rank per GPU", f"rehearsal: devices {devices}")


def check_gpu_facts(st: Step, rep: dict) -> None:
    if not st.ctx.cuda:
        st.na("NVML facts from the driver", f"rehearsal: {rep.get('host', {}).get('gpus')}")
        return
    gpus = rep.get("host", {}).get("gpus") or {}
    devs = gpus.get("devices") or []
    ok = bool(gpus.get("driver")) and gpus.get("count", 0) >= st.ctx.gpus and all(
        d.get("name") and (d.get("memory_total_bytes") or 0) > 0 for d in devs)
    st.check("NVML facts from the driver", ok, {"driver": gpus.get("driver"), "count": gpus.get("count"),
                                                 "names": [d.get("name") for d in devs],
                                                 "skipped": gpus.get("skipped")})
    errors = {d.get("index"): d.get("errors") for d in devs if d.get("errors")}
    st.check("no NVML query error", not errors, errors)
    drivers = {r.get("driver") for r in rep.get("ranks") or []}
    st.check("ranks saw the same driver", drivers == {gpus.get("driver")}, sorted(map(str, drivers)))
    st.evidence["gpus"] = gpus


class _Html(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1


def check_render(st: Step, run_dir: Path) -> None:
    md = run_dir / "report.md"
    text = md.read_text(encoding="utf-8") if md.exists() else ""
    st.check("report.md renders", "all_reduce" in text and "| size" in text, f"{len(text)} chars")
    rerender = st.dir / "rerendered.html"
    p = st.run(cli("report", run_dir, "--format", "html", "-o", rerender), "report_html", timeout=60)
    for path in (run_dir / "report.html", rerender):
        parser = _Html()
        try:
            parser.feed(path.read_text(encoding="utf-8"))
            parser.close()
        except (OSError, ValueError) as exc:
            parser.tags = {"error": str(exc)}
        st.check(f"{path.name} parses (html, table)", parser.tags.get("html") and parser.tags.get("table"),
                 {"rc": p.rc, "tables": parser.tags.get("table"), "images": parser.tags.get("img")})


# ---------------------------------------------------------------- 2 bare
def step_bare(st: Step) -> None:
    ctx = st.ctx
    ctx.need_gpu()
    chk = ctx.shared.get("check")
    if not chk or not chk["rows"]:
        raise Skip("step check produced no table to compare with")
    b, e, f, w, n = chk["sizes"]
    sizes = [r["size"] for r in chk["rows"]]
    bare = []
    for i in range(2):  # the check ran between: bare before is step 1's past, bare after is now
        p = st.run(torchrun(ctx.nproc, ROOT / "benchmarks" / "bare_allreduce.py", ",".join(map(str, sizes)), w, n,
                            ctx.backend), f"bare{i}", timeout=st.left() / (2 - i))
        data = p.json_line()
        if not st.check(f"bare run {i} ok", p.rc == 0 and data is not None, "" if data else p.tail()):
            continue
        bare.append([statistics.fmean(col) for col in zip(*data["time_us"])])
    if not bare:
        return
    compare(st, chk["rows"], bare, chk.get("world") or ctx.nproc)


def compare(st: Step, rows: list[dict], bare: list[list[float]], world: int) -> None:
    """Bandwidth ratio check/bare per size (= bare time / check time: the same for algbw and busbw)."""
    table, ratios = [], []
    for i, r in enumerate(rows):
        b_us = statistics.median(run[i] for run in bare)
        ratio = b_us / r["time_us"] if r["time_us"] else float("nan")
        table.append({"size": r["size"], "check_us": round(r["time_us"], 2), "bare_us": round(b_us, 2),
                      "bare_runs_us": [round(run[i], 2) for run in bare], "bw_ratio": round(ratio, 3)})
        if r["size"] >= 1 << 20:
            ratios.append(ratio)
    med = statistics.median(ratios) if ratios else None
    st.evidence["ratio_table"] = table
    st.figures["bw_ratio_check_over_bare_ge_1MiB"] = None if med is None else round(med, 3)
    if len(bare) == 2:
        noise = [a / b for a, b in zip(bare[0], bare[1]) if b]
        st.figures["bare_run_to_run_time_ratio_median"] = round(statistics.median(noise), 3) if noise else None
    name = "busbw within +-10% of bare (sizes >= 1 MiB, median ratio)"
    if not st.ctx.cuda:
        st.na(name, f"rehearsal on CPU: {med}; a shared CPU's timings are noise (bench_check.py measures them)")
    elif world > 1:
        st.check(name, med is not None and abs(med - 1) <= 0.10, med)
    else:
        st.notes.append("1 rank: each op is a launch-bound local operation, so the ratio measures per-op host "
                        "overhead of the probe against the bare loop, not bandwidth")
        st.check("1 rank: algbw at least 2/3 of bare (sizes >= 1 MiB, median ratio)", med is not None and med >= 2 / 3,
                 med)


# ---------------------------------------------------------------- 3 env
GPU_RULE_FACTS = {  # rule code -> the device facts it reads (None everywhere = not evaluable here)
    "GPU002": ("ecc_enabled", "ecc_uncorrected_volatile"), "GPU003": ("ecc_enabled", "ecc_uncorrected_aggregate"),
    "GPU004": ("retired_pages_pending", "remapped_rows"), "GPU005": ("throttle_reasons",), "GPU006": ("pcie",),
    "GPU007": ("nvlink",), "GPU008": ("persistence_mode",), "GPU009": ("compute_mode",), "GPU010": ("mig_enabled",),
}


def step_env(st: Step) -> None:
    ctx = st.ctx
    run_dir = st.dir / "run"
    args = ["env", "--json", "--out", run_dir] + (["--nproc-per-node", ctx.gpus] if ctx.cuda else [])
    p = st.run(cli(*args), "env", timeout=90)
    rep = read_json(run_dir / "report.json")
    st.check("env ran (exit 0 or 1), no traceback", p.rc in (0, 1) and "Traceback" not in p.err and rep is not None,
             p.tail() if rep is None or p.rc not in (0, 1) else {"rc": p.rc})
    if rep is None:
        return
    codes = sorted({x["code"] for x in rep.get("findings", [])})
    st.evidence["findings"] = [{k: x.get(k) for k in ("code", "severity", "message")} for x in rep["findings"]]
    st.figures["finding_codes"] = codes
    gpus = rep.get("host", {}).get("gpus") or {}
    if not ctx.cuda:
        st.check("GPU rules skipped with a reason (no NVML here)", "GPU000" in codes, gpus.get("skipped"))
        st.na("GPU rules evaluated on the real NVML", NO_GPU)
        st.na("NVML replay equals the live driver", NO_GPU)
        return
    devs = gpus.get("devices") or []
    st.check("NVML read (no GPU000 skip)", "GPU000" not in codes and len(devs) >= ctx.gpus, gpus.get("skipped"))
    st.check("no NVML query error", not any(d.get("errors") for d in devs), [d.get("errors") for d in devs])
    absent = {code: sorted({k for d in devs for k in keys if _absent(d.get(k))})
              for code, keys in GPU_RULE_FACTS.items()}
    st.evidence["rule_facts_absent"] = absent
    st.check("GPU rules evaluated on the real NVML", bool(devs),
             {c: f"facts absent here, rule cannot fire: {a}" if a else "facts read" for c, a in absent.items()})
    st.evidence["gpus"] = gpus
    nvml_snapshot(st, rep)


def _absent(v: Any) -> bool:
    """None (NVML: not supported, or ECC off), also inside the pcie dict."""
    return v is None or (isinstance(v, dict) and any(x is None for x in v.values()))


def nvml_snapshot(st: Step, live_rep: dict) -> None:
    snap = st.dir / "nvml_snapshot.json"
    p = st.run([PY, JOBS / "nvml_record.py", snap], "nvml_record", timeout=60)
    data = p.json_line() or {}
    st.check("NVML replay equals the live driver", data.get("replay_equal"),
             data.get("differences") or data.get("reason") or p.tail())
    if not data.get("recorded"):
        return
    replay_dir = st.dir / "replay"
    r = st.run(cli("env", "--json", "--out", replay_dir), "env_replay", timeout=60,
               env=st.ctx.env(NCCLDOCTOR_NVML_REPLAY=str(snap)))
    rep = read_json(replay_dir / "report.json") or {}
    codes = lambda x: sorted(f["code"] for f in x.get("findings", []) if f["code"].startswith("GPU"))  # noqa: E731
    st.check("env on the replay gives the same GPU findings", codes(rep) == codes(live_rep),
             {"live": codes(live_rep), "replay": codes(rep), "rc": r.rc})
    st.notes.append(f"snapshot for tests/fixtures/nvml/: runs/{st.name}/nvml_snapshot.json")


# ---------------------------------------------------------------- 4 train
def step_train(st: Step) -> None:
    ctx = st.ctx
    ctx.need_gpu()
    result, run_dir = st.dir / "result.json", st.dir / "run"
    args = ["-m", "reference_train", "--backend", ctx.backend, "--amp", "--epochs", "1", "--data-dir", ctx.cache,
            "--result-json", result, "--monitor-dir", run_dir, "--checkpoint", st.dir / "ckpt.pt"]
    if not ctx.cuda:  # rehearsal: a smaller set, so the CPU run stays short
        args += ["--synthetic-train", "2048", "--synthetic-test", "512", "--batch-size", "32"]
    p = st.run(torchrun(ctx.nproc, *args), "train")
    res = read_json(result)
    if not st.check("trainer finished", p.rc == 0 and res is not None, p.tail() if res is None else {"rc": p.rc}):
        return
    st.figures.update({k: res.get(k) for k in ("accuracy", "steps", "train_s", "last_loss", "world_size")})
    st.check(f"accuracy after one epoch > {ACCURACY_FLOOR}", (res.get("accuracy") or 0) > ACCURACY_FLOOR,
             res.get("accuracy"))
    st.check("backend", res.get("backend") == ctx.backend, res.get("backend"))
    if ctx.cuda:
        st.check("AMP active", res.get("amp") is True, res.get("amp"))
        st.check("SyncBatchNorm in the model", res.get("sync_batchnorm") is True, res.get("sync_batchnorm"))
    else:
        st.na("AMP active", f"rehearsal on CPU (amp={res.get('amp')})")
        st.na("SyncBatchNorm in the model", f"rehearsal on CPU (sync_batchnorm={res.get('sync_batchnorm')})")
    ctx.shared["train_monitor"] = run_dir


# ---------------------------------------------------------------- 5 sweep
def step_sweep(st: Step) -> None:
    ctx = st.ctx
    ctx.need_gpu()
    run_dir = st.dir / "run"
    nproc = ctx.gpus if ctx.cuda else 1
    p = st.run(cli("sweep-workers", "--nproc-per-node", nproc, "--pin-memory", "both", "--workers", "0,2", "--grid",
                   "--windows", "2", "--window-steps", "20" if ctx.cuda else "5",
                   "--warmup-steps", "5" if ctx.cuda else "2",
                   "--max-minutes", f"{max(0.5, (st.left() - 20) / 60):.1f}", "--data-dir", ctx.cache,
                   "--out", run_dir, "--json"), "sweep")
    rep = read_json(run_dir / "report.json")
    if not st.check("sweep ran (exit 0 or 1)", p.rc in (0, 1) and rep is not None, p.tail() if rep is None else p.rc):
        return
    sw = rep.get("results", {}).get("sweep") or {}
    rows = sw.get("rows") or []
    keys = ("label", "status", "samples_per_s", "spread", "data_share", "step_ms")
    st.evidence["rows"] = [{k: r.get(k) for k in keys} for r in rows]
    st.figures["recommendation"] = (sw.get("recommendation") or {}).get("label")
    st.figures["samples_per_s"] = {r.get("label"): r.get("samples_per_s") for r in rows}
    ok_pins = {r.get("pin_memory") for r in rows if r.get("status") == "ok" and (r.get("samples_per_s") or 0) > 0}
    codes = [x["code"] for x in rep.get("findings", [])]
    if ctx.cuda:
        st.check("both pin_memory values measured", ok_pins == {True, False}, sorted(map(str, ok_pins)))
        st.check("no DL004 (pin_memory no-op) on a GPU", "DL004" not in codes, codes)
        pin_effect = pin_ratios(rows)
        st.figures["pin_true_over_false"] = pin_effect
    else:
        st.check("rehearsal: pin_memory stays False on CPU (DL004)", ok_pins == {False} and "DL004" in codes, codes)
    ctx.shared["sweep_configs"] = [Path(r["folder"]) for r in rows if r.get("folder")]


def pin_ratios(rows: list[dict]) -> dict[str, float]:
    by = {(r.get("num_workers"), r.get("pin_memory")): r.get("samples_per_s") for r in rows if r.get("status") == "ok"}
    return {f"w{w}": round(by[(w, True)] / by[(w, False)], 3) for (w, pin) in by
            if pin is False and by.get((w, True)) and by[(w, False)]}


# ---------------------------------------------------------------- 6 monitor
def monitor_steps(run_dir: Path) -> list[dict]:
    steps = []
    for f in sorted((run_dir / "monitor").glob("rank-*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("kind") == "step" and not rec.get("warmup"):
                steps.append(rec)
    return steps


def step_monitor(st: Step) -> None:
    ctx = st.ctx
    ctx.need_gpu()
    sources = {"trainer": [ctx.shared["train_monitor"]] if ctx.shared.get("train_monitor") else [],
               "sweep configs": ctx.shared.get("sweep_configs") or []}
    for label, dirs in sources.items():
        steps = [rec for d in dirs for rec in monitor_steps(d)]
        if not steps:
            st.na(f"gpu_s in every steady step ({label})", "no records: that step did not run or left none")
        elif ctx.cuda:
            records_gpu_time(st, label, steps)
        else:
            st.check(f"rehearsal: no gpu_s on CPU ({label})", all("gpu_s" not in x for x in steps),
                     f"{len(steps)} steps")
    calibrated(st)


def records_gpu_time(st: Step, label: str, steps: list[dict]) -> None:
    gpu = [x.get("gpu_s") for x in steps]
    st.check(f"gpu_s in every steady step ({label})", all(isinstance(g, float) and g > 0 for g in gpu),
             f"{sum(g is not None for g in gpu)}/{len(gpu)} steps")
    ok = [g for g in gpu if g]
    if not ok:
        return
    med_gpu, med_step = statistics.median(ok), statistics.median(x["step_s"] for x in steps)
    key = label.split()[0]
    st.figures.update({f"{key}_gpu_ms_median": round(med_gpu * 1e3, 3),
                       f"{key}_step_ms_median": round(med_step * 1e3, 3)})
    st.check(f"gpu_s plausible ({label}: median <= 2 x median step_s)", med_gpu <= 2 * med_step + 1e-3,
             {"gpu_ms": med_gpu * 1e3, "step_ms": med_step * 1e3})


def calibrated(st: Step) -> None:
    p = st.run([PY, JOBS / "monitor_job.py", st.dir / "job", "--steps", "30", "--gpu-ms", "20"], "monitor_job",
               timeout=90)
    data = p.json_line()
    if not st.check("monitor job ran", p.rc == 0 and data is not None, p.tail() if data is None else ""):
        return
    steady = [g for g, w in zip(data["gpu_ms"], data["warmup"]) if not w]
    if not st.ctx.cuda:
        st.check("rehearsal: monitor has no CUDA on CPU",
                 data["monitor_cuda"] is False and all(g is None for g in steady), data["monitor_cuda"])
        return
    present = [g for g in steady if g is not None]
    st.check("gpu_s present on every steady step", len(present) == len(steady) > 0, f"{len(present)}/{len(steady)}")
    if present:
        med = statistics.median(present)
        rel = med / data["direct_ms"] - 1
        st.figures.update({"spin_direct_ms": round(data["direct_ms"], 3), "spin_monitor_ms_median": round(med, 3),
                           "monitor_vs_direct": round(rel, 4)})
        st.check("monitor gpu_s equals the CUDA-event spin time (+-10%)", abs(rel) <= 0.10,
                 {"direct_ms": data["direct_ms"], "monitor_ms": med})


# ---------------------------------------------------------------- 7 flight recorder
def step_flight(st: Step) -> None:
    ctx = st.ctx
    ctx.need_gpu()
    p = st.run([PY, JOBS / "fr_job.py", st.dir / "fr", "--backend", ctx.backend, "--stall-s", "8"], "fr_job",
               timeout=90)
    data = p.json_line()
    if not st.check("fr job ran", p.rc == 0 and data is not None, p.tail() if data is None else ""):
        return
    st.evidence["fr"] = data
    rec, stall = data.get("recorder") or {}, data.get("stall") or {}
    during, pipe = stall.get("during") or {}, stall.get("pipe") or {}
    prefix = f"{ctx.backend}:"
    st.check("the recorder holds this backend's collectives",
             (rec.get("entries") or 0) >= 10 and any(str(nm).startswith(prefix) for nm in rec.get("names") or []),
             {"entries": rec.get("entries"), "names": rec.get("names"), "error": rec.get("error")})
    poll = data.get("poll_us") if isinstance(data.get("poll_us"), (int, float)) else None
    st.figures.update({"poll_us": poll, "poll_us_median": data.get("poll_us_median")})
    st.check("status poll < 1 ms", poll is not None and poll < 1000, data.get("poll_us"))
    pg = _pg0(during.get("pg_status"))
    inside = bool(pg) and int(pg.get("last_enqueued_collective", -1)) > int(pg.get("last_completed_collective", -1))
    if ctx.cuda:
        st.evidence["cpu_recorder_with_nccl"] = data.get("cpu_recorder")
        done = during.get("work_completed")
        st.check("GPU stall: collective enqueued, not completed (inside)", inside and done is False,
                 {"pg_status": pg, "work_completed": done, "read_after_s": during.get("after_s"),
                  "error": stall.get("error")})
        st.check("dump pipe triggers a dump", pipe.get("dump_written") and (pipe.get("dump_entries") or 0) > 0, pipe)
        st.figures["dump_after_s"] = pipe.get("dump_after_s")
    else:
        st.na("GPU stall: collective enqueued, not completed (inside)", f"rehearsal on gloo: {pg}")
        st.na("dump pipe triggers a dump", f"gloo creates no pipe: {pipe.get('pipe_is_fifo')}")
    diagnose_dump(st, Path(pipe["dump"]) if pipe.get("dump") else None)


def diagnose_dump(st: Step, dump: Path | None) -> None:
    """`ncclDoctor diagnose` on the dump torch wrote: its FR reader on a real NCCL dump."""
    if dump is None or not dump.exists():
        st.na("diagnose reads the dump", "no dump was written")
        return
    out = st.dir / "diagnose"
    p = st.run(cli("diagnose", dump, "--json", "--out", out), "diagnose", timeout=60)
    rep = read_json(out / "report.json") or {}
    inputs = (rep.get("results", {}).get("diagnose") or {}).get("inputs") or [{}]
    ok = p.rc in (0, 1) and inputs[0].get("kind") == "fr" and not inputs[0].get("notes")
    st.check("diagnose reads the dump", ok, {"rc": p.rc, "input": inputs[0],
                                             "findings": [f.get("code") for f in rep.get("findings", [])]})


def _pg0(status: dict | None) -> dict | None:
    if not status:
        return None
    return status.get("0") or next(iter(status.values()), None)


# ---------------------------------------------------------------- 8 run
def step_run(st: Step) -> None:
    ctx = st.ctx
    h = st.run(cli("run", "--help"), "run_help", timeout=60)
    if h.rc != 0:
        raise Skip(NO_RUN)
    ctx.need_gpu()
    st.evidence["run_help"] = h.out[-3000:]
    out_opt = next((o for o in ("--out", "--run-dir") if o in h.out), None)

    def opts(run_dir: Path, *pairs: tuple[str, str]) -> list[Any]:
        """Only the options this version of `run` has (it is being built in parallel)."""
        have = ([(out_opt, run_dir)] if out_opt else []) + [(k, v) for k, v in pairs if k in h.out]
        return [x for pair in have for x in pair]

    job = [JOBS / "user_job.py", "--backend", ctx.backend]
    steady = job + ["--steps", "150", "--step-ms", "10"]
    plain = st.run(torchrun(1, *steady), "plain_job", timeout=60)
    under = st.run(cli("run", *opts(st.dir / "steady"), "--", *torchrun(1, *steady)), "run_steady", timeout=90)
    a, b = plain.json_line(), under.json_line()
    st.check("job runs the same under run (exit 0, its output)", under.rc == plain.rc == 0 and b is not None,
             {"plain_rc": plain.rc, "run_rc": under.rc, "out_option": out_opt, "tail": under.tail(600)})
    if a and b:
        ratio = b["median_step_ms"] / a["median_step_ms"]
        st.figures.update({"plain_step_ms": round(a["median_step_ms"], 3),
                           "run_step_ms": round(b["median_step_ms"], 3), "overhead_ratio": round(ratio, 4)})
        if ctx.cuda:
            st.check("step time under run within 5% of plain", ratio <= 1.05, ratio)
        else:
            st.na("step time under run within 5% of plain", f"rehearsal on a shared CPU: {ratio:.3f}")
    stall_dir = st.dir / "stall"
    stall_s = "45" if ctx.cuda else "3"  # rehearsal: plumbing only, a short CPU spin
    stall = job + ["--steps", "40", "--step-ms", "10", "--stall-at", "20", "--stall-s", stall_s]
    p = st.run(cli("run", *opts(stall_dir, ("--stall-after", "5"), ("--on-hang", "kill")), "--",
                   *torchrun(1, *stall)), "run_stall", timeout=100)
    check_stall(st, stall_dir, p)


def check_stall(st: Step, stall_dir: Path, p: Proc) -> None:
    rep = read_json(stall_dir / "report.json") or {}
    st.evidence["stall_findings"] = rep.get("findings")
    st.figures.update({"stall_exit": p.rc, "stall_run_s": p.seconds})
    if not st.ctx.cuda:  # a 1-rank CPU spin outside any collective: nothing a watcher must report
        st.na("stall reported (report.json with findings)", f"rehearsal: {len(rep.get('findings') or [])} findings")
        st.na("GPU-side stall classified inside the collective", "rehearsal: the stall is a CPU spin before the op")
        return
    st.check("stall reported (report.json with findings)", bool(rep.get("findings")), p.tail(800))
    inside = [f.get("code") for f in rep.get("findings", [])  # LIVE003 on branch live; the title if codes move
              if f.get("code") == "LIVE003" or "inside" in str(f.get("title", "")).lower()]
    st.check("GPU-side stall classified inside the collective", bool(inside),
             {"matched": inside, "codes": [f.get("code") for f in rep.get("findings", [])]})
    prefix = f"{st.ctx.backend}:".encode()
    files = [f for f in stall_dir.rglob("*") if f.is_file()] if stall_dir.exists() else []
    hits = [str(f.relative_to(stall_dir)) for f in files if prefix in f.read_bytes()[:4_000_000]]
    st.check(f"Flight Recorder entries ({prefix.decode()}...) in the run directory", bool(hits), hits[:20])


# ---------------------------------------------------------------- 9 oversubscribe
def step_oversub(st: Step) -> None:
    ctx = st.ctx
    ctx.need_gpu()
    if not ctx.cuda:
        raise Skip(NO_GPU)
    run_dir = st.dir / "run"  # --backend left to auto: it must pick nccl on a GPU machine
    p = st.run(cli("check", "--nproc-per-node", ctx.gpus + 1, "--out", run_dir, "--json",
                   "-b", "1M", "-e", "1M", "--timeout", "30"), "check_oversub", timeout=120)
    rep = read_json(run_dir / "report.json") or {}
    codes = [x.get("code") for x in rep.get("findings", [])]
    backend = (rep.get("config") or {}).get("backend")
    if rep:
        st.check("--backend auto picked nccl", backend == "nccl", backend)
    else:
        st.na("--backend auto picked nccl", f"no report (exit {p.rc})")
    clean = p.rc == 2 or (p.rc in (1, 3) and bool(rep))  # refused as bad usage, or ran and reported the failure
    st.check("fails cleanly (exit 1/3 with a report, or 2 with one line; no traceback)",
             clean and "Traceback" not in p.err[-3000:], {"rc": p.rc, "findings": codes, "stderr": p.err[-400:]})
    st.evidence["findings"] = [{k: x.get(k) for k in ("code", "severity", "message")} for x in rep.get("findings", [])]
    st.figures["seconds"] = p.seconds


STEPS: list[tuple[str, str, float, Callable[[Step], None]]] = [
    ("preflight", "torch, CUDA, NCCL and the CLI as the job sees them", 120, step_preflight),
    ("check", "ncclDoctor check --backend nccl, one rank per GPU", 150, step_check),
    ("bare", "the same sizes as a bare torchrun all_reduce loop", 100, step_bare),
    ("env", "ncclDoctor env on the real NVML, replay snapshot", 90, step_env),
    ("train", "reference trainer: nccl, --amp, SyncBatchNorm, accuracy", 150, step_train),
    ("sweep", "sweep-workers --pin-memory both", 150, step_sweep),
    ("monitor", "ncclDoctor.monitor CUDA-event times", 90, step_monitor),
    ("flight", "NCCL Flight Recorder: recorder, poll cost, GPU stall, dump pipe", 90, step_flight),
    ("run", "ncclDoctor run on a tiny nccl job", 200, step_run),
    ("oversub", "check (backend auto) with more ranks than GPUs fails cleanly", 120, step_oversub),
]


def run_step(ctx: Ctx, name: str, title: str, cap: float) -> tuple[Step, dict]:
    st = Step(name, title, cap, ctx)
    return st, {"name": name, "title": title, "timeout_s": round(min(cap, ctx.deadline - time.monotonic()), 1)}


def execute(ctx: Ctx, name: str, title: str, cap: float, fn: Callable[[Step], None]) -> dict:
    st, res = run_step(ctx, name, title, cap)
    t0 = time.monotonic()
    status, reason = "pass", ""
    if ctx.deadline - time.monotonic() < 10:
        status, reason = "skipped", "out of the time budget (--budget-s)"
    else:
        try:
            fn(st)
        except Skip as exc:
            status, reason = "skipped", str(exc)
        except TimeoutError as exc:
            st.check("finished in time", False, str(exc))
        except Exception:  # a bug in this script (or a shape it did not expect): record it, go on
            status, reason = "error", traceback.format_exc(limit=6)[-2000:]
    if status == "pass" and any(c["ok"] is False for c in st.checks):
        status = "fail"
        reason = "; ".join(c["name"] for c in st.checks if c["ok"] is False)
    res.update({"status": status, "reason": reason, "seconds": round(time.monotonic() - t0, 2), "checks": st.checks,
                "figures": st.figures, "notes": st.notes, "evidence": st.evidence})
    return res


def summary_text(doc: dict) -> str:
    lines = [f"gpu_verify ({doc['mode']}): {doc['wall_s']:.0f} s of {doc['budget_s']:.0f} s budget · "
             + " · ".join(f"{k} {v}" for k, v in doc["summary"].items())]
    for s in doc["steps"]:
        figs = ", ".join(f"{k}={_short(v)}" for k, v in list(s["figures"].items())[:4])
        why = s["reason"].strip().splitlines()[-1][:90] if s["reason"] else ""
        n_ok = sum(c["ok"] is True for c in s["checks"])
        head = f"  {s['status'].upper():<7} {s['name']:<9} {s['seconds']:>6.1f}s  {n_ok}/{len(s['checks'])} checks  "
        lines.append(head + (why or figs)[:110])
    return "\n".join(lines)


def _short(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)[:40]


def write_doc(ctx: Ctx, doc: dict, t0: float) -> None:
    doc["wall_s"] = round(time.monotonic() - t0, 1)
    doc["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    counts: dict[str, int] = {}
    for s in doc["steps"]:
        counts[s["status"]] = counts.get(s["status"], 0) + 1
    doc["summary"] = counts
    doc["machine"] = ctx.machine
    tmp = ctx.out / ".gpu_verify.json.tmp"
    tmp.write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, ctx.out / "gpu_verify.json")


class _Args(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (bad usage), as the CLI does
        self.exit(2, f"gpu_verify: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    ap = _Args(prog="gpu_verify", description="Verify every GPU path of ncclDoctor (see the module docstring).")
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--budget-s", type=float, default=420.0, help="wall-time budget for all steps (default 420)")
    ap.add_argument("--rehearse", action="store_true", help="run every step on CPU/gloo (plumbing check, no GPU)")
    ap.add_argument("--only", default="", help="comma-separated step names (preflight always runs)")
    args = ap.parse_args(argv)
    names = {n for n, *_ in STEPS}
    only = {x for x in args.only.split(",") if x}
    if only - names or args.budget_s <= 0:
        ap.error(f"--only takes {', '.join(sorted(names))}; --budget-s must be positive")
    ctx = Ctx(args.outdir.resolve(), args.budget_s, args.rehearse)
    ctx.runs.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    doc: dict[str, Any] = {"tool": "benchmarks/gpu_verify.py", "format": 1, "budget_s": args.budget_s, "mode": "",
                           "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "steps": []}
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGINT, _terminate)
    for name, title, cap, fn in STEPS:
        if only and name not in only and name != "preflight":
            continue
        print(f"gpu_verify: {name}: {title} ...", flush=True)
        try:
            doc["steps"].append(execute(ctx, name, title, cap, fn))
            last = doc["steps"][-1]
            print(f"gpu_verify: {name}: {last['status']} in {last['seconds']:.1f} s "
                  f"{(last['reason'].strip().splitlines() or [''])[-1][:100]}", flush=True)
        except Terminated as exc:
            doc["steps"].append({"name": name, "title": title, "status": "error", "reason": str(exc), "seconds": 0,
                                 "checks": [], "figures": {}, "notes": [], "evidence": {}})
            doc["terminated"] = str(exc)
            write_doc(ctx, doc, t0)
            break
        doc["mode"] = "gpu" if ctx.cuda else "rehearsal" if ctx.rehearse else "no-gpu"
        write_doc(ctx, doc, t0)
    text = summary_text(doc)
    (ctx.out / "summary.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"details: {ctx.out / 'gpu_verify.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
