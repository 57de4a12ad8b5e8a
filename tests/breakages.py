"""Break the product on purpose and watch the tests that claim to guard it fail.

    python tests/breakages.py                 # every breakage (about 15 minutes here)
    python tests/breakages.py select_drops_all busbw_world_size  # some of them
    python tests/breakages.py --list

Each breakage is one text replacement in one production file (the TEST_AUDIT.md rows'
mutations, and those behind the rules added since). The runner applies it, runs the
named tests with pytest (in a subprocess, so torchrun children see the edit too), puts
the file back (always, even on Ctrl-C), and prints one line per breakage: CAUGHT when
every named test failed, MISSED otherwise, with the first assertion line of each
failure. Exit code 1 if any breakage was missed. Not collected by pytest (no test_
prefix): it edits the working tree and takes minutes; docs/testing-audit.md records
its last output.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Breakage:
    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]
    what: str


B = Breakage
BREAKAGES = [
    B(
        "select_drops_all",
        "ncclDoctor/findings.py",
        "    out = []\n    for f in findings:",
        "    out = []\n    findings = [] if sel else findings\n    for f in findings:",
        (
            "tests/test_ci.py::test_select_and_ignore_by_prefix_and_code",
            "tests/test_diagnose_cli.py::test_cli_select_ignore_and_junit",
            "tests/test_findings_unit.py::test_select_keeps_by_prefix_and_ignore_wins",
        ),
        "--select drops every finding",
    ),
    B(
        "sort_by_code_only",
        "ncclDoctor/findings.py",
        "key=lambda f: (-f.severity.rank, f.code, f.message)",
        "key=lambda f: (f.code, f.message)",
        (
            "tests/test_rendered_tables.py::test_every_view_orders_findings_worst_first_not_by_code",
            "tests/test_findings_unit.py::test_sort_is_worst_first_then_code_then_message",
        ),
        "findings sorted by code only, not worst first",
    ),
    B(
        "terminal_numbers_wrong",
        "ncclDoctor/report/collectives.py",
        "{r['time_us']:>9.1f} {r['algbw_gbps']:>7.3f} {r['busbw_gbps']:>7.3f} {p}",
        "{r['time_us'] * 1000:>9.1f} {r['algbw_gbps']:>7.3f} {0:>7.3f} {p}",
        (
            "tests/test_rendered_tables.py::test_the_check_commands_own_terminal_table_equals_the_report",
            "tests/test_rendered_tables.py::test_report_command_terminal_table_equals_the_report",
            "tests/test_check.py::test_in_process_cli_flags_nonexistent_settings_and_fails_on_warning",
        ),
        "terminal table prints time x1000 and busbw 0",
    ),
    B(
        "md_html_numbers_wrong",
        "ncclDoctor/report/views.py",
        "f\"{r['time_us']:.1f}\", f\"{r['algbw_gbps']:.3f}\", f\"{r['busbw_gbps']:.3f}\"",
        'f"{0.0:.1f}", f"{r[\'algbw_gbps\']:.3f}", f"{0.0:.3f}"',
        (
            "tests/test_rendered_tables.py::test_markdown_table_equals_the_report",
            "tests/test_rendered_tables.py::test_html_table_equals_the_report",
            "tests/test_check.py::test_run_directory_holds_raw_records_and_renderings",
        ),
        "Markdown/HTML table prints time 0.0 and busbw 0.000",
    ),
    B(
        "busbw_world_size",
        "ncclDoctor/analysis/bandwidth.py",
        '"busbw_gbps": alg * mod.bus_factor(nranks),',
        '"busbw_gbps": alg * mod.bus_factor(min(nranks, 2)),',
        (
            "tests/test_faults.py::test_corrupted_result_is_counted_named_and_fails_the_run",
            "tests/test_multinode_per_node.py::test_each_node_gets_a_busbw_curve_over_the_sweep_sizes",
        ),
        "busbw computed with world size min(n, 2)",
    ),
    B(
        "exact_check_stub",
        "probes/worker.py",
        "            wrong = int((t != mod.expected(count, self.world, self.device)).sum().item())\n            iters",
        "            wrong = 0\n            iters",
        ("tests/test_faults.py::test_corrupted_result_is_counted_named_and_fails_the_run",),
        "the sweep's exact check is a stub (wrong = 0)",
    ),
    B(
        "wrong_data_not_a_fault",
        "ncclDoctor/check.py",
        "    if wrong_data and code == ExitCode.OK:",
        "    if False:",
        ("tests/test_faults.py::test_corrupted_result_is_counted_named_and_fails_the_run",),
        "wrong data exits 1 (FINDINGS) instead of FAULT 4",
    ),
    B(
        "diagnose_fail_on_ignored",
        # where the CLI's --fail-on takes effect since every command finishes through finish.finishing
        # (breaking diagnose()'s own conclude no longer reached the exit code)
        "ncclDoctor/finish.py",
        "    report.conclude(common.severity, outcome)\n",
        "    report.conclude(type(common.severity).ERROR, outcome)\n",
        ("tests/test_diagnose_cli.py::test_cli_fail_on_threshold",),
        "diagnose ignores --fail-on (always error)",
    ),
    B(
        "unreadable_not_noted",
        "ncclDoctor/diagnose/load.py",
        '        inp.notes.append(f"cannot read: {exc.strerror or exc}")\n        return None',
        "        return None",
        (
            "tests/test_diagnose_cli.py::test_unreadable_file_as_an_unprivileged_user",
            "tests/test_diagnose_cli.py::test_unreadable_file_in_process",
        ),
        "an unreadable input is dropped without a note (no LOG030)",
    ),
    B(
        "sweep_cut_not_reported",
        "ncclDoctor/sweep/core.py",
        "    if m.cut_short:\n        report.add(",
        "    if False:\n        report.add(",
        ("tests/test_sweep.py::test_max_minutes_bounds_the_sweep_and_reports_the_cut",),
        "--max-minutes cut not reported (no DL008)",
    ),
    B(
        "run001_not_added",
        "ncclDoctor/analysis/verdict.py",
        '        report.add(run_rules.LAUNCH_FAILED.finding(\n            f"torchrun exited with code',
        '        (lambda *a: None)(run_rules.LAUNCH_FAILED.finding(\n            f"torchrun exited with code',
        ("tests/test_run_rules.py::test_run001_torchrun_that_exits_before_any_rank_started",),
        "RUN001 never reported when torchrun dies before the ranks",
    ),
    B(
        "run006_not_added",
        "ncclDoctor/check.py",
        "    if p.world_size == 1:\n",
        "    if p.world_size == -1:\n",
        ("tests/test_run_rules.py::test_run006_a_single_rank_is_named_and_reads_zero_busbw",),
        "RUN006 never fires",
    ),
    B(
        "run102_names_reporting_node",
        "ncclDoctor/multinode_check.py",
        "            nodes=missing, evidence=",
        "            nodes=names, evidence=",
        ("tests/test_run_rules.py::test_run102_a_node_that_never_started_is_named",),
        "RUN102 names the nodes that reported instead of the missing one",
    ),
    B(
        "explain_blank",
        "ncclDoctor/findings.py",
        "    return rules[key]\n",
        '    return Rule(key, rules[key].severity, "", "", "")\n',
        ("tests/test_env_cli.py::test_every_new_rule_explains_itself",),
        "explain prints the headings with an empty title, why and fix",
    ),
    B(
        "nvml_double_arity",
        "ncclDoctor/facts/nvml_replay.py",
        "    def nvmlDeviceGetRetiredPages(self, h: int, cause: int) -> list[int]:",
        "    def nvmlDeviceGetRetiredPages(self, h: int) -> list[int]:",
        ("tests/test_health.py::test_the_nvml_double_takes_the_arguments_pynvml_takes",),
        "the NVML double drops an argument pynvml requires",
    ),
]


def _outcome(outcome: dict[str, tuple[str, str]], test: str) -> tuple[str, str]:
    """A named test's result; a parametrized one (``test[id]`` in pytest's summary) failed
    only when every one of its cases failed."""
    cases = [v for k, v in outcome.items() if k == test or k.startswith(test + "[")]
    if not cases:
        return "not run", ""
    passed = [v for v in cases if v[0] != "FAILED"]
    if passed:
        return passed[0][0], f"{len(passed)} of {len(cases)} cases did not fail"
    return "FAILED", cases[0][1]


def run_one(b: Breakage, timeout: float) -> tuple[bool, list[str]]:
    path = ROOT / b.file
    original = path.read_text()
    if original.count(b.old) != 1:
        return False, [f"the text to replace occurs {original.count(b.old)} times in {b.file} (the code moved?)"]
    lines = []
    try:
        path.write_text(original.replace(b.old, b.new))
        # one pytest run for all the breakage's tests: the shared real check runs once
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        t0 = time.monotonic()
        p = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *b.tests],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        summary = re.finditer(r"^(PASSED|FAILED|ERROR|SKIPPED) (\S+)(?: - (.*))?$", p.stdout, re.M)
        outcome = {m.group(2): (m.group(1), m.group(3) or "") for m in summary}
        # the first "E   ..." line of each failure's section says what the test saw
        for m in re.finditer(r"^_{3,} (\S+) _{3,}$(.*?)(?=^_{3,} |^={3,} )", p.stdout, re.M | re.S):
            first = re.search(r"^E\s+(\S.*)$", m.group(2), re.M)
            for test, (got, why) in list(outcome.items()):
                if test.endswith("::" + m.group(1)) and first and not why:
                    outcome[test] = (got, first.group(1))
        results = {t: _outcome(outcome, t) for t in b.tests}
        for test, (got, why) in results.items():
            lines.append(f"    {got} {test}" + (f"\n        {why[:240]}" if why else ""))
        caught = all(got == "FAILED" for got, _ in results.values())
        lines.append(f"    ({time.monotonic() - t0:.0f} s for the pytest run)")
    finally:
        path.write_text(original)
    return caught, lines


def main(argv: list[str]) -> int:
    if "--list" in argv:
        for b in BREAKAGES:
            print(f"{b.name:28} {b.file}: {b.what}")
        return 0
    chosen = [b for b in BREAKAGES if not argv or b.name in argv]
    missed = 0
    for b in chosen:
        caught, lines = run_one(b, timeout=600)
        missed += not caught
        print(f"{'CAUGHT' if caught else 'MISSED'} {b.name}: {b.what} ({b.file})", flush=True)
        print("\n".join(lines), flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
