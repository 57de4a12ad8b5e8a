"""The field's formats: nccl-tests (text, JSON), NCCL RAS (text, JSON), DCGM diag JSON.

Fixtures in tests/fixtures/field follow each producer's source (README there). The parsers
are checked on their numbers; ``diagnose`` is checked end to end (findings a user reads).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ncclDoctor import fieldformats
from ncclDoctor.diagnose import diagnose
from ncclDoctor.fieldformats import nccl_tests

FIX = Path(__file__).parent / "fixtures" / "field"


def load(name: str) -> dict:
    data = (FIX / name).read_bytes()
    fmt = fieldformats.sniff(data[:8192], name)
    return fmt, fieldformats.parse(fmt, data)


def test_sniff_names_every_format_and_nothing_else():
    got = {p.name: fieldformats.sniff(p.read_bytes()[:8192]) for p in FIX.iterdir() if p.suffix in (".txt", ".json")}
    assert got == {
        "nccl_tests_all_reduce_2x8_h100.txt": "nccl-tests",
        "nccl_tests_old_format_wrong.txt": "nccl-tests",
        "nccl_tests_one_rank_jobs.txt": "nccl-tests",
        "nccl_tests_pasted_8x_h100_slow.txt": "nccl-tests",
        "nccl_tests_all_gather.json": "nccl-tests-json",
        "ras_status_mismatch.txt": "ras",
        "ras_status.json": "ras-json",
        "dcgm_diag_r2.json": "dcgm",
    }
    assert fieldformats.sniff(b'{"entries": []}') is None and fieldformats.sniff(b"[rank0]: NCCL WARN x") is None


def test_nccl_tests_text_current_format():
    _, doc = load("nccl_tests_all_reduce_2x8_h100.txt")
    (t,) = doc["tests"]
    assert t["collective"] == "all_reduce" and len(t["devices"]) == 16 and t["devices"][8]["host"] == "node-1"
    assert t["config"] == {
        "nthreads": 1,
        "ngpus": 1,
        "min_bytes": 1 << 20,
        "max_bytes": 1 << 30,
        "warmup": 1,
        "iters": 20,
    }
    assert [r["size"] for r in t["rows"]] == [1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20, 1 << 30]
    assert (
        nccl_tests.busbw_by_size(t)[1 << 30] == 369.9 and nccl_tests.busbw_by_size(t, in_place=False)[1 << 30] == 368.4
    )
    assert t["rows"][0]["root"] == -1 and t["out_of_bounds"] == 0 and not nccl_tests.wrong_rows(t)
    points = [r[s]["busbw_gbps"] for r in t["rows"] for s in ("out_of_place", "in_place")]
    assert t["avg_busbw_gbps"] == pytest.approx(sum(points) / len(points), abs=1e-3)  # nccl-tests' footer: every point


def test_nccl_tests_old_format_error_column_and_failed_check():
    _, doc = load("nccl_tests_old_format_wrong.txt")
    (t,) = doc["tests"]
    assert t["collective"] is None and t["rows"][0]["root"] is None and len(t["devices"]) == 2
    assert [r["size"] for r in nccl_tests.wrong_rows(t)] == [16 << 20, 16 << 20]  # out-of-place and in-place
    assert t["out_of_bounds_failed"] is True


def test_nccl_tests_json():
    _, doc = load("nccl_tests_all_gather.json")
    (t,) = doc["tests"]
    assert t["collective"] == "all_gather" and t["rows"][-1]["out_of_place"]["busbw_gbps"] == 155.9
    assert t["min_bw_failed"] is True and t["out_of_bounds"] == 0


def test_ras_text_dead_and_lagging():
    _, doc = load("ras_status_mismatch.txt")
    assert doc["nccl_version"] == "2.27.5"
    assert doc["dead"] == [{"rank": None, "pid": 77412, "host": "gpu-node-3", "comm": None}]
    assert doc["missing"] == [{"rank": None, "pid": 70118, "host": "gpu-node-2", "comm": None}]
    (lag,) = doc["lagging"]
    assert lag["op"] == "AllReduce" and lag["launched"] == 4126 and lag["others"] == 4127
    assert lag["ranks"] == [{"rank": 13, "pid": 66231, "host": "gpu-node-1"}]


def test_ras_json_missing_lagging_errors():
    _, doc = load("ras_status.json")
    assert [(d["rank"], d["host"]) for d in doc["dead"]] == [(6, "10.1.0.2")] and doc["missing"] == []
    (lag,) = doc["lagging"]
    assert (lag["op"], lag["launched"], lag["others"], [r["rank"] for r in lag["ranks"]]) == (
        "AllReduce",
        905,
        912,
        [2],
    )
    assert [(e["rank"], e["error"]) for e in doc["errors"]] == [(4, "async_error 6")]


def test_dcgm_json():
    _, doc = load("dcgm_diag_r2.json")
    bad = [(t["name"], t["entity"], t["status"]) for t in doc["tests"] if t["status"] != "Pass"]
    assert bad == [("memory", "GPU 3", "Fail"), ("pcie", "GPU 1", "Warn")]
    assert doc["gpus"]["GPU 3"]["serial"] == "1652323000003"


def test_malformed_json_is_a_note_not_a_crash(tmp_path):
    p = tmp_path / "ras.json"
    p.write_text('{"nccl_version": "2.28.9", "communicators": [ {"hash": 0x12 } ]')  # 2.28.9 emitted bare hex
    rep = diagnose([str(p)])
    assert rep.exit_code in (0, 1) and any("field output" in str(e) for f in rep.findings for e in f.evidence)


def codes(rep) -> dict[str, list]:
    out: dict[str, list] = {}
    for f in rep.findings:
        out.setdefault(f.code, []).append(f)
    return out


def test_diagnose_turns_field_outputs_into_findings():
    rep = diagnose([str(FIX)])
    c = codes(rep)
    assert {"FLD001", "FLD002", "FLD003", "FLD010", "FLD011", "FLD012", "FLD013", "FLD020", "FLD021"} <= set(c)
    assert c["FLD011"][0].nodes == ["gpu-node-2"] and "pid 70118" in c["FLD011"][0].message
    lag = {f.message for f in c["FLD012"]}
    assert any("rank 13 on gpu-node-1 (pid 66231)" in m and "4126" in m for m in lag)
    assert any("rank 2 on 10.1.0.1 (pid 51002)" in m and "905" in m for m in lag)
    assert any(f.ranks == [6] and f.nodes == ["10.1.0.2"] for f in c["FLD010"])
    (fail,) = c["FLD020"]
    assert "memory" in fail.message and "GPU 3" in fail.message and "row remapping failed" in fail.message
    formats = sorted(o["format"] for o in rep.results["field"])
    assert formats == ["dcgm"] + ["nccl-tests"] * 4 + ["nccl-tests-json", "ras", "ras-json"]
    assert rep.exit_code == 1


def test_healthy_nccl_tests_log_has_no_field_finding():
    rep = diagnose([str(FIX / "nccl_tests_all_reduce_2x8_h100.txt")])
    assert not [f for f in rep.findings if f.code.startswith("FLD")]
    assert rep.results["field"][0]["tests"][0]["ranks"] == 16


def _report(busbw: dict[int, float], backend: str = "nccl"):
    from ncclDoctor.report.model import Report

    rows = [{"size": s, "busbw_gbps": b} for s, b in busbw.items()]
    table = {"collective": "all_reduce", "backend": backend, "world_size": 16, "rows": rows}
    return Report(command="check", results={"collectives": {"all_reduce": table}, "all_reduce": table})


@pytest.mark.parametrize(
    "name,table,size,busbw",
    [
        ("nccl_tests_all_reduce_2x8_h100.txt", "all_reduce", 1 << 30, 369.9),  # in place, like torch's all_reduce
        ("nccl_tests_all_gather.json", "all_gather", 1 << 30, 155.9),  # out of place, like all_gather_single
    ],
)
def test_nccl_tests_output_is_a_baseline(name, table, size, busbw):
    from ncclDoctor.analysis import baseline as bl

    doc = bl.load_baseline(FIX / name)
    assert doc["backend"] == "nccl" and doc["world_size"] == 16
    assert bl.baseline_series(doc)[(table, "all")][size] == busbw


def test_check_baseline_from_nccl_tests_flags_a_regression():
    from ncclDoctor.ci import Gates, judge

    rep = _report({1 << 20: 38.0, 64 << 20: 150.0, 1 << 30: 368.0})  # 64M at half the nccl-tests busbw
    judge(rep, Gates(baseline=str(FIX / "nccl_tests_all_reduce_2x8_h100.txt")).prepare())
    (f,) = [f for f in rep.findings if f.code == "BW102"]
    assert "64 MiB" in f.message or "67108864" in str(f.evidence)
    compared = [r for r in rep.results["baseline"]["rows"] if r["change_pct"] is not None]
    assert {r["size"] for r in compared} == {1 << 20, 64 << 20, 1 << 30}


def test_a_gloo_run_against_an_nccl_tests_baseline_is_not_compared():
    from ncclDoctor.ci import Gates, judge

    rep = _report({1 << 20: 0.05}, backend="gloo")
    judge(rep, Gates(baseline=str(FIX / "nccl_tests_all_reduce_2x8_h100.txt")).prepare())
    assert [f.code for f in rep.findings] == ["BW103"] and "backend nccl" in rep.findings[0].message


# A table pasted from the middle of an nccl-tests run (columns as in src/util.cu), no preamble.
EXCERPT = """\
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
    16777216       4194304  bfloat16    none      -1    108.8  154.20   77.10      0    98.19  170.86   85.43      0
    33554432       8388608  bfloat16    none      -1    183.0  183.33   91.66      0    156.1  214.95  107.48      0
"""


def test_an_excerpt_that_starts_at_the_column_header_is_read():
    assert fieldformats.sniff(EXCERPT.encode()) == "nccl-tests"
    stripped = "".join(line.removeprefix("#") for line in EXCERPT.splitlines(keepends=True))  # Markdown ate it
    assert fieldformats.sniff(stripped.encode()) == "nccl-tests"
    (t,) = fieldformats.parse("nccl-tests", EXCERPT.encode())["tests"]
    assert [r["size"] for r in t["rows"]] == [16777216, 33554432] and t["rows"][1]["in_place"]["busbw_gbps"] == 107.48
    name, why = nccl_tests.infer_collective(t)
    assert name is None and "all_gather or alltoall" in why  # redop none: the two are indistinguishable


def test_a_pasted_run_without_its_program_name_is_inferred_and_judged_against_its_platform():
    """Markdown stripped every '#', the output predates the root column, and no line names the
    program: the bus factor (1.75 = 2(n-1)/n for 8 ranks) says all_reduce, the device lines say
    8x H100 on one host, so Azure's ND H100 v5 floor applies, and 311 GB/s is below it."""
    fmt, doc = load("nccl_tests_pasted_8x_h100_slow.txt")
    (t,) = doc["tests"]
    assert fmt == "nccl-tests" and len(t["devices"]) == 8 and t["rows"][0]["root"] is None
    assert nccl_tests.infer_collective(t)[0] == "all_reduce"
    rep = diagnose([str(FIX / "nccl_tests_pasted_8x_h100_slow.txt")])
    (bw,) = codes(rep)["BW301"]
    assert "311.2 GB/s" in bw.message and "68%" in bw.message and bw.nodes == ["ndv5-07"]
    summary = rep.results["field"][0]["tests"][0]
    assert summary["expected"]["platform"]["id"] == "azure-nd-h100-v5"
    assert [r["expected_pct"] for r in summary["rows"]] == [64.9, 66.5, 67.3, 67.7]
    v = rep.results["diagnose"]["verdict"]
    assert v["cause"] == "none" and "BW301" in v["summary"]  # the next step points at it, never "nothing failed"


def test_the_table_of_a_field_output_is_in_every_view():
    from ncclDoctor.report import markdown
    from ncclDoctor.report.console import table_lines
    from ncclDoctor.report.views import field_tables

    rep = diagnose([str(FIX / "nccl_tests_all_reduce_2x8_h100.txt")])
    (t,) = field_tables(rep.results)
    assert t.title.startswith("all_reduce_perf in ") and "16 ranks on 2 host(s)" in t.title
    assert t.rows[-1] == [1073741824, "369.150", "ok"]  # no reference applies: no % column
    assert "several platforms match" in t.note
    assert any(line.split() == ["1073741824", "369.150", "ok"] for line in table_lines(t))
    assert "369.150" in markdown.render_markdown(rep)


@pytest.mark.parametrize("n,ratio,redop,root,want", [
    (8, 1.75, "sum", -1, "all_reduce"),
    (8, 0.875, "sum", -1, "reduce_scatter"),
    (4, 1.0, "sum", 0, None),  # rooted: broadcast or reduce
    (0, 1.5, "sum", -1, "all_reduce"),  # no device lines: only all_reduce's factor exceeds 1
    (0, 1.0, "sum", -1, None),  # all_reduce on 2 ranks or sendrecv
])
def test_infer_collective_from_the_bus_factor(n, ratio, redop, root, want):
    side = {"time_us": 10.0, "algbw_gbps": 100.0, "busbw_gbps": 100.0 * ratio, "wrong": 0, "error": None}
    row = {"size": 1 << 20, "count": 1 << 18, "type": "float", "redop": redop, "root": root,
           "out_of_place": side, "in_place": side}
    assert nccl_tests.infer_collective({"rows": [row], "devices": [{}] * n})[0] == want


def test_nccl_tests_patterns_stay_linear_on_a_run_of_integers_that_is_no_row():
    """A long run of small integers that is not a result row -- DDP's list of the parameter indices that got no
    gradient ("0 1 2 ... 99"), hard-wrapped, then "..." -- must be rejected in linear time: a figure pattern that
    could split "123" as "1"+"23" backtracked exponentially on it (round 77's gliner-165 under the paste test's
    120-column wrap hung it). 26 numbers took ~8 CPU seconds that way; 1 s is ~1000x the linear cost. Timed in CPU
    seconds, which other load does not inflate."""
    import re
    import time

    line = " " + " ".join(str(i) for i in range(64, 90)) + " ..."
    for name in dir(nccl_tests):
        rx = getattr(nccl_tests, name)
        if not isinstance(rx, re.Pattern):
            continue
        t0 = time.process_time()
        rx.search(line)
        assert time.process_time() - t0 < 1.0, name
    assert not nccl_tests.headless("\n".join([line] * 3))
    # the figure pattern still reads every figure form a row prints
    row = ("     1048576        262144     float     sum      -1    123.4    8.50   15.94  1e-06    120.    8.73"
           "   16.38    N/A")
    assert nccl_tests._ROW.match(row)
