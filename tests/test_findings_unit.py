"""findings.py as a library: severity order, worst-first sorting, --select/--ignore by
prefix, the registry and a finding's JSON round trip. Pure and fast: these are the tests
that mutation testing (docs/testing.md) runs against findings.py."""

from __future__ import annotations

import pytest

from ncclDoctor import findings as fd
from ncclDoctor.findings import Finding, Rule, Severity


def mk(code: str, sev: str = "warning", msg: str = "m") -> Finding:
    return Finding(code, Severity(sev), f"title {code}", msg, "why", "fix")


def test_severity_ranks_and_parse():
    assert [s.rank for s in (Severity.INFO, Severity.WARNING, Severity.ERROR)] == [0, 1, 2]
    assert Severity.parse("WARNING") is Severity.WARNING and Severity.parse("info") is Severity.INFO
    with pytest.raises(ValueError, match=r"unknown severity 'fatal'; expected one of: info, warning, error"):
        Severity.parse("fatal")


def test_worst_is_the_most_severe_whatever_the_order():
    assert fd.worst([]) is None
    assert fd.worst([mk("A1", "info")]) is Severity.INFO
    assert fd.worst([mk("A1", "info"), mk("B1", "error"), mk("C1", "warning")]) is Severity.ERROR
    assert fd.worst([mk("A1", "warning"), mk("B1", "info")]) is Severity.WARNING


def test_sort_is_worst_first_then_code_then_message():
    got = fd.sort_findings(
        [
            mk("ENV004", "info"),
            mk("ENV005", "warning"),
            mk("BW001", "info", "b"),
            mk("BW001", "info", "a"),
            mk("RUN005", "error"),
        ]
    )
    assert [(f.code, f.severity.value, f.message) for f in got] == [
        ("RUN005", "error", "m"),
        ("ENV005", "warning", "m"),
        ("BW001", "info", "a"),
        ("BW001", "info", "b"),
        ("ENV004", "info", "m"),
    ]


def test_select_keeps_by_prefix_and_ignore_wins():
    fs = [mk("ENV002"), mk("ENV004"), mk("BW001"), mk("RUN005")]
    codes = lambda out: [f.code for f in out]  # noqa: E731
    assert codes(fd.select(fs)) == ["ENV002", "ENV004", "BW001", "RUN005"]  # nothing given: all kept
    assert codes(fd.select(fs, select=["ENV"])) == ["ENV002", "ENV004"]
    assert codes(fd.select(fs, select=["env", "RUN"])) == ["ENV002", "ENV004", "RUN005"]  # any case, several
    assert codes(fd.select(fs, ignore=["ENV004"])) == ["ENV002", "BW001", "RUN005"]
    assert codes(fd.select(fs, select=["ENV"], ignore=["env002"])) == ["ENV004"]
    assert codes(fd.select(fs, select=["ENV"], ignore=["ENV"])) == []
    assert codes(fd.select(fs, select=[""], ignore=[""])) == codes(fs)  # empty strings select nothing away
    assert codes(fd.select(fs, select=["ENV004X"])) == []  # a prefix longer than the code matches nothing


def test_rule_finding_fills_from_the_rule_and_normalises_ranks():
    r = Rule("ZZZ901", Severity.WARNING, "Title", "Why text", "Fix text")
    f = r.finding("seen", nodes=("n1", "n0"), ranks=[3, 1, 3], evidence=({"k": 1},))
    assert (f.code, f.severity, f.title, f.message, f.why, f.fix) == (
        "ZZZ901",
        Severity.WARNING,
        "Title",
        "seen",
        "Why text",
        "Fix text",
    )
    assert f.nodes == ["n1", "n0"] and f.ranks == [1, 3] and f.evidence == [{"k": 1}]
    g = r.finding("x", severity=Severity.ERROR, fix="other fix")
    assert (
        g.severity is Severity.ERROR and g.fix == "other fix" and g.nodes == [] and g.ranks == [] and g.evidence == []
    )


def test_finding_round_trips_through_json_dicts():
    f = Rule("ZZZ902", Severity.ERROR, "T", "W", "F").finding("msg", nodes=["a (h)"], ranks=[2], evidence=["line"])
    d = f.to_dict()
    assert d == {
        "code": "ZZZ902",
        "severity": "error",
        "title": "T",
        "message": "msg",
        "why": "W",
        "fix": "F",
        "nodes": ["a (h)"],
        "ranks": [2],
        "evidence": ["line"],
    }
    assert Finding.from_dict(d) == f
    bare = Finding.from_dict({"code": "X1", "severity": "info"})
    assert (bare.title, bare.message, bare.why, bare.fix, bare.nodes, bare.ranks, bare.evidence) == (
        "",
        "",
        "",
        "",
        [],
        [],
        [],
    )


def test_registry_refuses_duplicates_and_strips_text(monkeypatch):
    monkeypatch.setattr(fd, "RULES", {})
    r = fd.rule("ZZZ903", "info", "T", why="\n  why  \n", fix=" fix\n")
    assert {"ZZZ903": r} == fd.RULES and (r.code, r.title, r.why, r.fix, r.severity) == (
        "ZZZ903",
        "T",
        "why",
        "fix",
        Severity.INFO,
    )
    with pytest.raises(ValueError, match="rule ZZZ903 registered twice"):
        fd.rule("ZZZ903", "info", "T", why="w", fix="f")


def test_explain_finds_any_case_and_hints_the_family():
    rules = fd.load_all_rules()
    assert {"ENV001", "RUN005", "LOG001"} <= set(rules)
    assert fd.explain(" run005 ") is rules["RUN005"]
    with pytest.raises(KeyError, match=r"no rule with code 'RUN999'; codes in that family: RUN001, RUN002"):
        fd.explain("RUN999")
    with pytest.raises(KeyError) as exc:
        fd.explain("QQQ1")
    assert exc.value.args == ("no rule with code 'QQQ1'",)


def test_a_fresh_process_registers_every_family():
    """load_all_rules walks the whole package: in a new interpreter (nothing imported
    yet) every family's rules must be found, not only those of modules imported first."""
    import json
    import subprocess
    import sys

    from tests.conftest import cli_env

    code = "import json; from ncclDoctor.findings import load_all_rules; print(json.dumps(sorted(load_all_rules())))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=cli_env())
    codes = json.loads(p.stdout)
    families = {c.rstrip("0123456789") for c in codes}
    assert {"ENV", "SYS", "GPU", "NET", "BW", "RUN", "CON", "LOG", "DL"} <= families, families
    assert {"RUN001", "RUN005", "RUN006", "RUN102", "LOG030"} <= set(codes)
