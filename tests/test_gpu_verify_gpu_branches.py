"""The GPU-only branches of benchmarks/gpu_verify.py, driven here without a GPU.

On the GPU day there is no second try, and no CPU run ever enters these branches. So each
step function runs here with a context that says "one CUDA device" and with ``Step.run``
answering as the real commands would: it writes the files they write (report.json,
result.json, monitor records, the Flight Recorder job's JSON line) in the shapes they have
on nccl. What is faked is only what cannot exist here (a GPU and its outputs); the step
functions, their parsing and their checks are the real ones. Every step must pass on
healthy outputs, and the checks that guard a GPU claim must fail on a broken one.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _verify():
    spec = importlib.util.spec_from_file_location("gpu_verify", ROOT / "benchmarks" / "gpu_verify.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


gv = _verify()
DRIVER = "580.159.04"


def _gpus(n: int = 1) -> dict:
    from ncclDoctor.facts.gpu import collect_gpu_facts
    from ncclDoctor.facts.nvml_replay import NvmlReplay

    snap = json.loads((ROOT / "tests" / "fixtures" / "nvml" / "healthy_8x_h100.json").read_text())
    snap["driver"], snap["devices"] = DRIVER, snap["devices"][:n]
    return collect_gpu_facts(nvml=NvmlReplay(snap))


def _check_report(world: int = 1, wrong: int = 0) -> dict:
    """report.json of `check --backend nccl` with one rank per GPU (only the keys gpu_verify reads)."""
    sizes = gv.size_list(*gv.GPU_SIZES[:3])
    rows = [{"size": s, "time_us": 10.0 + s / 1e5, "algbw_gbps": s / 1e3 / (10.0 + s / 1e5),
             "busbw_gbps": 0.0 if world == 1 else s / 1e3 / (10.0 + s / 1e5), "wrong": wrong} for s in sizes]
    one = [{"code": "RUN006", "severity": "warning", "message": "World size is 1"}] if world == 1 else []
    return {"verdict": "warn" if one else "pass", "findings": one,  # as the H200 run's report said
            "results": {"smoke": {"wrong": 0}, "all_reduce": {"backend": "nccl", "world_size": world, "rows": rows,
                                                              "peak_busbw_gbps": max(r["busbw_gbps"] for r in rows)}},
            "ranks": [{"rank": r, "device": f"cuda:{r}", "nccl": "2.27.7", "driver": DRIVER} for r in range(world)],
            "host": {"gpus": _gpus(world)}, "config": {"backend": "nccl"}}


def _write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))


def _arg(argv: list[str], name: str) -> Path:
    return Path(argv[argv.index(name) + 1])


def _job_dir(argv: list[str]) -> str:
    return next(a for a in argv if a.endswith("/fr"))


def _monitor(run_dir: Path, n: int = 30, gpu: bool = True) -> None:
    recs = [{"kind": "step", "warmup": i < 5, "step_s": 0.004, **({"gpu_s": 0.0035} if gpu else {})} for i in range(n)]
    _write(run_dir / "monitor" / "rank-0.jsonl", "\n".join(map(json.dumps, recs)) + "\n")


def _fr_line(inside: bool = True, dump: bool = True) -> dict:
    status = {"0": {"last_enqueued_collective": "11", "last_completed_collective": "10" if inside else "11",
                    "last_started_collective": "10"}}
    rec = {"available": True, "entries": 10, "names": ["nccl:all_reduce"], "states": ["completed"]}
    return {"recorder": rec, "cpu_recorder": {"available": True, "entries": 0, "names": []}, "poll_us": 8.2,
            "poll_us_median": 7.9, "stall": {"during": {"pg_status": status, "work_completed": not inside,
                                                        "after_s": 1.0},
                                             "pipe": {"pipe_is_fifo": True, "dump_written": dump,
                                                      "dump_entries": 11 if dump else 0, "dump_after_s": 1.1}}}


class FakeRuns:
    """``Step.run`` for a healthy one-GPU machine; ``broken`` names labels whose output is broken."""

    def __init__(self, broken: set[str] = frozenset(), gpus: int = 1):
        self.broken, self.gpus = set(broken), gpus

    def __call__(self, st, argv, label, timeout=None, env=None):
        argv = [str(a) for a in argv]
        out = getattr(self, label.rstrip("01"), lambda a: "")(argv) or ""
        st.evidence["commands"].append({"label": label, "argv": argv[1:], "rc": 0})
        return gv.Proc(argv, 0 if label != "check_oversub" else 1, out, "", 0.1, False)

    def check(self, argv):
        rep = _check_report(self.gpus, wrong=1 if "check" in self.broken else 0)
        run_dir = _arg(argv, "--out")
        _write(run_dir / "report.json", rep)
        _write(run_dir / "report.md", "# check\n## all_reduce (nccl)\n| size (B) | time |\n")
        _write(run_dir / "report.html", "<!DOCTYPE html><html><body><table></table></body></html>")

    def report_html(self, argv):
        _write(_arg(argv, "-o"), "<!DOCTYPE html><html><body><table></table><img src='x'></body></html>")

    def bare(self, argv):
        sizes = [int(s) for s in argv[argv.index(str(ROOT / "benchmarks" / "bare_allreduce.py")) + 1].split(",")]
        slower = 2.0 if "bare" in self.broken else 1.0  # broken: the check twice as slow as bare
        per_rank = [(10.0 + s / 1e5) / slower for s in sizes]
        return json.dumps({"sizes": sizes, "time_us": [per_rank] * self.gpus, "world": self.gpus})

    def env(self, argv):
        rep = {"findings": [{"code": "GPU008", "severity": "info", "message": "persistence off"}],
               "host": {"gpus": _gpus(self.gpus)}}
        _write(_arg(argv, "--out") / "report.json", rep)

    env_replay = env

    def nvml_record(self, argv):
        _write(Path(argv[-1]), {"driver": DRIVER, "devices": []})
        return json.dumps({"recorded": True, "replay_equal": "env" not in self.broken, "differences": []})

    def train(self, argv):
        _write(_arg(argv, "--result-json"), {"accuracy": 0.93, "backend": "nccl", "steps": 64, "amp": True,
                                             "sync_batchnorm": "train" not in self.broken, "world_size": 1})
        _monitor(_arg(argv, "--monitor-dir"), gpu="monitor" not in self.broken)

    def sweep(self, argv):
        run_dir = _arg(argv, "--out")
        rows = []
        for w in (0, 2):
            for pin in (False, True):
                folder = run_dir / "configs" / f"w{w}-pin{int(pin)}"
                _monitor(folder)
                rows.append({"label": folder.name, "num_workers": w, "pin_memory": pin, "status": "ok",
                             "samples_per_s": 0 if pin and "sweep" in self.broken else 1000.0 + pin,
                             "folder": str(folder)})
        _write(run_dir / "report.json", {"findings": [], "results": {"sweep": {"rows": rows,
                                                                             "recommendation": {"label": "w2-pin1"}}}})

    def monitor_job(self, argv):
        steady = [20.4 if "monitor" not in self.broken else 30.0] * 27
        return json.dumps({"cuda": True, "monitor_cuda": True, "direct_ms": 20.1, "gpu_ms": [20.0] * 3 + steady,
                           "step_ms": [1.0] * 30, "warmup": [True] * 3 + [False] * 27})

    def fr_job(self, argv):
        line = _fr_line(inside="flight" not in self.broken)
        dump = Path(_job_dir(argv)) / "nccl_trace_rank_0"
        _write(dump, "pickle bytes")
        line["stall"]["pipe"]["dump"] = str(dump)
        return json.dumps(line)

    def diagnose(self, argv):
        rep = {"findings": [{"code": "LOG031"}],
               "results": {"diagnose": {"inputs": [{"path": argv[3], "kind": "fr", "rank_hint": 0, "notes": []}]}}}
        _write(_arg(argv, "--out") / "report.json", rep)

    def run_help(self, argv):
        return "Usage: ncclDoctor run [OPTIONS] -- TORCHRUN...\n --out --stall-after --on-hang\n"

    def plain_job(self, argv):
        return json.dumps({"steps": 150, "mean_step_ms": 10.2, "median_step_ms": 10.1})

    def run_steady(self, argv):
        return json.dumps({"steps": 150, "mean_step_ms": 10.3, "median_step_ms": 10.2})

    def run_stall(self, argv):
        run_dir = _arg(argv, "--out")
        code = "LIVE007" if "run" in self.broken else "LIVE003"
        _write(run_dir / "report.json", {"findings": [{"code": code, "title": "Every rank is inside the same collective"
                                                       if code == "LIVE003" else "no progress"}]})
        _write(run_dir / "ranks" / "rank0.fr.json", {"entries": [{"profiling_name": "nccl:all_reduce"}]})

    def check_oversub(self, argv):
        rep = _check_report(self.gpus)
        rep["verdict"], rep["findings"] = "fail", [{"code": "GPU001"}, {"code": "RUN001"}]
        _write(_arg(argv, "--out") / "report.json", rep)


def _run_all(tmp_path, monkeypatch, broken=frozenset(), gpus: int = 1) -> dict:
    fake = FakeRuns(broken, gpus)
    monkeypatch.setattr(gv.Step, "run", lambda self, *a, **k: fake(self, *a, **k))
    ctx = gv.Ctx(tmp_path, 600, False)
    ctx.machine.update({"cuda_available": True, "device_count": gpus, "torch": "2.11.0+cu130"})
    return {name: gv.execute(ctx, name, title, cap, fn) for name, title, cap, fn in gv.STEPS if name != "preflight"}


def test_every_gpu_branch_passes_on_healthy_outputs(tmp_path, monkeypatch):
    res = _run_all(tmp_path, monkeypatch)
    for name, r in res.items():
        assert r["status"] == "pass", (name, r["reason"], [c for c in r["checks"] if c["ok"] is not True])
        assert any(c["ok"] is True for c in r["checks"]), name
    assert res["check"]["figures"]["world"] == 1
    assert any("1 rank" in n for n in res["check"]["notes"])
    assert res["bare"]["figures"]["bw_ratio_check_over_bare_ge_1MiB"] == 1.0
    assert res["sweep"]["figures"]["pin_true_over_false"] == {"w0": 1.001, "w2": 1.001}
    assert res["monitor"]["figures"]["monitor_vs_direct"] == pytest.approx(20.4 / 20.1 - 1, abs=1e-3)
    assert res["run"]["figures"]["overhead_ratio"] == pytest.approx(10.2 / 10.1, abs=1e-3)
    assert {c["name"]: c["ok"] for c in res["flight"]["checks"]}["diagnose reads the dump"] is True


def test_several_gpus_take_the_busbw_branches(tmp_path, monkeypatch):
    res = _run_all(tmp_path, monkeypatch, gpus=2)
    for name, r in res.items():
        assert r["status"] == "pass", (name, r["reason"], [c for c in r["checks"] if c["ok"] is not True])
    names = [c["name"] for c in res["check"]["checks"]]
    assert "busbw > 0 at every size" in names and "one rank per GPU" in names
    assert "busbw within +-10% of bare (sizes >= 1 MiB, median ratio)" in [c["name"] for c in res["bare"]["checks"]]


@pytest.mark.parametrize("step,check", [
    ("check", "#wrong 0 (smoke and every size)"),
    ("bare", "1 rank: algbw at least 2/3 of bare (sizes >= 1 MiB, median ratio)"),
    ("env", "NVML replay equals the live driver"),
    ("train", "SyncBatchNorm in the model"),
    ("sweep", "both pin_memory values measured"),
    ("monitor", "gpu_s in every steady step (trainer)|monitor gpu_s equals the CUDA-event spin time (+-10%)"),
    ("flight", "GPU stall: collective enqueued, not completed (inside)"),
    ("run", "GPU-side stall classified inside the collective"),
])
def test_a_broken_gpu_output_fails_its_check(tmp_path, monkeypatch, step, check):
    res = _run_all(tmp_path, monkeypatch, broken={step})
    r = res[step]
    assert r["status"] == "fail", (step, r["checks"])
    assert [c["name"] for c in r["checks"] if c["ok"] is False] == check.split("|")


def test_check_step_fails_on_a_finding_other_than_the_one_rank_warning(tmp_path, monkeypatch):
    # The H200 image exported NCCL_VERSION and check warned ENV001 on it: a finding the verification
    # must show as a failure (it was a false positive, now fixed), while RUN006 alone is expected.
    real = FakeRuns.check

    def check_with_env001(self, argv):
        real(self, argv)
        path = _arg(argv, "--out") / "report.json"
        rep = json.loads(path.read_text())
        rep["findings"].append({"code": "ENV001", "severity": "warning", "message": "NCCL_VERSION=2.28.3-1"})
        path.write_text(json.dumps(rep))

    monkeypatch.setattr(FakeRuns, "check", check_with_env001)
    res = _run_all(tmp_path, monkeypatch)
    bad = [c for c in res["check"]["checks"] if c["ok"] is False]
    assert [c["name"] for c in bad] == ["exit code 0, verdict pass (one GPU: only RUN006)"], bad
    assert bad[0]["detail"]["unexpected"] == ["ENV001"]
