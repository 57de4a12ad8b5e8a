"""Every rule explains itself, every command has help text (sqlite-utils' habit)."""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ncclDoctor.cli import app, main
from ncclDoctor.findings import load_all_rules
from tests._source import parsed, tree


def test_every_rule_has_title_why_and_fix():
    rules = load_all_rules()
    assert len(rules) >= 10
    for code, r in rules.items():
        assert code[:-3].isalpha() and code[-3:].isdigit(), code
        assert r.title and len(r.why) > 30 and len(r.fix) > 10, code


def test_every_command_has_help_text():
    import typer.main

    group = typer.main.get_command(app)
    for name, cmd in group.commands.items():
        assert cmd.help and len(cmd.help) > 10, name
        for p in cmd.params:
            if p.name not in ("help",) and getattr(p, "help", None) is not None:
                assert p.help.strip(), (name, p.name)


def test_explain_prints_rule_text(capsys):
    assert main(["explain", "ENV001"]) == 0
    out = capsys.readouterr().out
    assert "ENV001" in out and "NCCL_TIMEOUT" in out and "How to fix" in out


def test_explain_unknown_code_is_usage_error(capsys):
    assert main(["explain", "ENV999"]) == 2
    err = capsys.readouterr().err
    assert "no rule with code" in err and "Traceback" not in err


# --- every rule fires somewhere (ruff's test_case(Rule::X, "X.py") in spirit) -------------------
# code -> the test that makes the rule fire and asserts it (its code, and its ranks or nodes).
FIRING = {
    "BW001": "tests/test_check.py::test_subprocess_check_passes_with_two_gloo_ranks",
    "BW101": "tests/test_ci.py::test_min_busbw_floor",
    "BW102": "tests/test_ci.py::test_exit_1_baseline_regression_named_per_size",
    "BW103": "tests/test_ci.py::test_baseline_with_another_backend_is_not_compared",
    "BW104": "tests/test_ci.py::test_exit_4_fault_localized_with_min_busbw_skipped",
    "BW201": "tests/test_multinode_localhost.py::test_localhost_nodes_localize_a_slow_node",
    "BW202": "tests/test_multinode_units.py::test_structure_names_a_slow_link_and_a_slow_node_inside",
    "BW203": "tests/test_rules_firing.py::test_a_node_slow_only_with_other_slow_nodes_is_unresolved",
    "BW204": "tests/test_multinode_units.py::test_structure_names_a_slow_link_and_a_slow_node_inside",
    "BW301": "tests/test_expected.py::test_percent_of_expected_on_every_row_and_bw301_when_far_below",
    "CON001": "tests/test_consistency.py::test_the_odd_node_is_named_by_address_and_host",
    "CON002": "tests/test_consistency.py::test_every_rank_counts_but_a_node_is_named_once",
    "CON003": "tests/test_consistency.py::test_two_nodes_that_disagree_are_both_named",
    "CON004": "tests/test_consistency.py::test_interface_and_limits_are_compared",
    "CON005": "tests/test_consistency.py::test_interface_and_limits_are_compared",
    "DL001": "tests/test_monitor.py::test_analysis_names_the_input_straggler_and_its_node",
    "DL002": "tests/test_monitor.py::test_analysis_names_the_input_straggler_and_its_node",
    "DL003": "tests/test_monitor.py::test_analysis_flags_unequal_batch_counts_as_an_error",
    "DL004": "tests/test_sweep.py::test_sweep_recommends_more_workers_for_a_slow_loader_than_a_fast_one",
    "DL005": "tests/test_rules_firing.py::test_loader_workers_oversubscribe_the_cores",
    "DL006": "tests/test_rules_firing.py::test_batches_in_flight_do_not_fit_dev_shm",
    "DL007": "tests/test_sweep.py::test_sweep_recommends_more_workers_for_a_slow_loader_than_a_fast_one",
    "DL008": "tests/test_sweep.py::test_max_minutes_bounds_the_sweep_and_reports_the_cut",
    "DL009": "tests/test_sweep.py::test_max_minutes_bounds_the_sweep_and_reports_the_cut",
    "ENV001": "tests/test_check.py::test_in_process_cli_flags_nonexistent_settings_and_fails_on_warning",
    "ENV002": "tests/test_check.py::test_in_process_cli_flags_nonexistent_settings_and_fails_on_warning",
    "ENV003": "tests/test_env_cli.py::test_seed_exports_fail_with_the_expert_findings",
    "ENV004": "tests/test_ci.py::test_exit_1_from_config_file_fail_on_and_ignore",
    "ENV005": "tests/test_env_lint.py::test_seed_blog_recommendations_get_the_expert_findings",
    "ENV006": "tests/test_env_cli.py::test_seed_exports_fail_with_the_expert_findings",
    "ENV007": "tests/test_env_lint.py::test_hca_prefix_match_on_a_host_with_twelve_hcas",
    "ENV008": "tests/test_env_cli.py::test_seed_exports_fail_with_the_expert_findings",
    "ENV010": "tests/test_env_lint.py::test_ib_window_arithmetic_is_shown_against_the_torch_timeout",
    "ENV011": "tests/test_env_lint.py::test_seed_blog_recommendations_get_the_expert_findings",
    "ENV012": "tests/test_env_lint.py::test_every_env_and_net_rule_has_a_firing_fixture",
    "GPU000": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU001": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU002": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU003": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU004": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU005": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU006": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU007": "tests/test_env_cli.py::test_recorded_gpu_and_ib_faults_through_the_cli",
    "GPU008": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU009": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "GPU010": "tests/test_health.py::test_each_gpu_rule_fires_on_its_fixture",
    "LOG001": "tests/test_diagnose_cli.py::test_cli_table_output_names_culprit",
    "LOG002": "tests/test_diagnose_cli.py::test_cli_exit_1_json_and_run_dir",
    "LOG003": "tests/test_diagnose_cli.py::test_torchrun_error_file_orders_the_first_failure",
    "LOG004": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG005": "tests/test_diagnose_cli.py::test_cli_reads_stdin",
    "LOG006": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG007": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG008": "tests/test_diagnose_reasoning.py::"
              "test_untagged_seqnums_thousands_apart_with_the_same_ran_for_are_different_groups",
    "LOG009": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG010": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG011": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG012": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG013": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG014": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG015": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG016": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG017": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG018": "tests/test_diagnose_corpus.py::test_recorded_gloo_logs_and_dumps_together",
    "LOG019": "tests/test_diagnose_cli.py::test_cli_select_ignore_and_junit",
    "LOG020": "tests/test_diagnose_corpus.py::test_log_corpus_verdicts",
    "LOG021": "tests/test_rules_firing.py::test_plain_nccl_warn_and_ranks_without_logs",
    "LOG022": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG023": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG024": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG025": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG026": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG027": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG028": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG029": "tests/test_diagnose_reasoning.py::test_each_new_log_code_fires",
    "LOG030": "tests/test_diagnose_cli.py::test_bad_inputs_are_notes_and_the_rest_is_analysed",
    "LOG031": "tests/test_diagnose_cli.py::test_cli_exit_0_when_nothing_is_wrong",
    "LOG032": "tests/test_rules_firing.py::test_plain_nccl_warn_and_ranks_without_logs",
    "LOG033": "tests/test_diagnose_cli.py::test_a_bug_in_the_verdict_loses_nothing_else_and_exits_70",
    "LOG040": "tests/test_diagnose_cli.py::test_run_directory_input",
    "LIVE001": "tests/test_live_run.py::test_rank_that_never_issues_its_collective_is_named_in_seconds",
    "LIVE002": "tests/test_live_run.py::test_different_collective_at_the_same_sequence_number_is_a_desync",
    "LIVE003": "tests/test_live_detect.py::test_verdict_records_become_findings_with_their_codes",
    "LIVE004": "tests/test_live_run.py::test_rank_holding_the_gil_is_frozen_and_still_gives_a_stack",
    "LIVE005": "tests/test_live_run.py::test_sigkilled_rank_is_named_and_the_job_exit_code_kept",
    "LIVE006": "tests/test_live_run.py::test_rank_three_times_slower_is_named_as_a_straggler_without_a_hang",
    "LIVE007": "tests/test_live_run.py::test_job_that_never_initialises_a_process_group_gets_a_clear_report",
    "LIVE008": "tests/test_live_detect.py::test_verdict_records_become_findings_with_their_codes",
    "NET001": "tests/test_env_cli.py::test_check_lints_every_rank_and_merges_identical_findings",
    "NET002": "tests/test_env_cli.py::test_recorded_gpu_and_ib_faults_through_the_cli",
    "NET003": "tests/test_check.py::test_check_reports_rdma_port_health_from_sysfs",
    "NET004": "tests/test_health.py::test_port_down_and_slow_port",
    "RUN001": "tests/test_run_rules.py::test_run001_torchrun_that_exits_before_any_rank_started",
    "RUN002": "tests/test_check.py::test_nccl_on_a_cpu_machine_cannot_run",
    "RUN003": "tests/test_diagnose_cli.py::test_run_directory_input",
    "RUN004": "tests/test_ci.py::test_exit_4_fault_localized_with_min_busbw_skipped",
    "RUN005": "tests/test_faults.py::test_corrupted_result_is_counted_named_and_fails_the_run",
    "RUN006": "tests/test_run_rules.py::test_run006_a_single_rank_is_named_and_reads_zero_busbw",
    "RUN007": "tests/test_faults.py::test_ctrl_c_writes_partial_report_and_stops_everything",
    "RUN008": "tests/test_budget.py::test_a_slow_rank_ends_the_sweep_at_its_budget_as_slow_not_hung",
    "RUN103": "tests/test_failfast.py::test_an_endpoint_that_does_not_resolve_is_fatal",
    "RUN104": "tests/test_multinode_netns.py::"
              "test_missing_interface_on_one_node_stops_every_node_in_seconds_with_exit_3",
    "RUN101": "tests/test_multinode_netns.py::"
              "test_wrong_socket_interface_on_one_node_is_a_clear_finding_without_a_hang",
    "RUN102": "tests/test_run_rules.py::test_run102_a_node_that_never_started_is_named",
    "RUN105": "tests/test_multinode_netns.py::test_a_whole_node_killed_mid_phase_is_named_lost_in_seconds_not_a_hang",
    "SYS001": "tests/test_rules_firing.py::test_small_dev_shm_and_memlock_fire_on_an_nccl_node",
    "SYS002": "tests/test_rules_firing.py::test_small_dev_shm_and_memlock_fire_on_an_nccl_node",
    "SYS003": "tests/test_rules_firing.py::test_more_gloo_ranks_than_cores_is_oversubscribed",
    "SYS004": "tests/test_check.py::test_nccl_on_a_cpu_machine_cannot_run",
    "SYS005": "tests/test_rules_firing.py::test_more_nccl_ranks_than_visible_gpus",
    "SYS006": "tests/test_env_cli.py::test_real_dev_shm_is_sized_for_the_dataloader",
    "SYS007": "tests/test_failfast.py::test_shm_too_small_for_nccl_ranks_is_fatal_and_not_for_gloo",
    "FLD001": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD002": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD003": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD010": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD011": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD012": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD013": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD020": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
    "FLD021": "tests/test_fieldformats.py::test_diagnose_turns_field_outputs_into_findings",
}
# Codes that need real torchrun runs to fire and have no test yet (the audit's RUN001,
# RUN005, RUN006 and RUN102 are in FIRING now).
PENDING_AUDIT: set[str] = set()
ROOT = Path(__file__).resolve().parent.parent


def test_every_rule_has_a_firing_test_or_is_pending():
    codes = set(load_all_rules())
    assert codes - set(FIRING) - PENDING_AUDIT == set(), "rules with no firing test"
    assert set(FIRING) - codes == set() and PENDING_AUDIT - codes == set(), "stale entries"
    assert set(FIRING) & PENDING_AUDIT == set()


def _test_source(node_id: str) -> str:
    """The test function's source plus the module-level assignments it or its decorators name."""
    path, name = node_id.split("::")
    text, tree = parsed(ROOT / path)  # once per module for the session: FIRING names ~20 modules for ~150 codes
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    assert fn is not None, f"{node_id}: no such test"
    names = {n.id for part in (fn, *fn.decorator_list) for n in ast.walk(part) if isinstance(n, ast.Name)}
    consts = [ast.get_source_segment(text, n) for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
              and any(isinstance(t, ast.Name) and t.id in names for t in getattr(n, "targets",
                      [getattr(n, "target", None)]))]
    decorators = [ast.get_source_segment(text, d) for d in fn.decorator_list]
    return "\n".join([*decorators, ast.get_source_segment(text, fn), *consts])


@pytest.mark.parametrize("code", sorted(FIRING))
def test_the_firing_test_exists_and_asserts_the_code(code):
    assert re.search(rf"[\"']{code}[\"']", _test_source(FIRING[code])), f"{FIRING[code]} never names {code}"


def test_rule_texts_live_only_in_rules_codes():
    """A rule(...) call outside ncclDoctor/rules/codes/ is a text the registry would not load."""
    outside = []
    for path in sorted((ROOT / "ncclDoctor").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("ncclDoctor/rules/codes/") or rel == "ncclDoctor/findings.py":
            continue
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "rule":
                outside.append(f"{rel}:{node.lineno}")
    assert outside == []


def test_rule_code_modules_are_leaves():
    """rules/codes/*.py import only ncclDoctor.findings, so explain never imports a check."""
    for path in sorted((ROOT / "ncclDoctor" / "rules" / "codes").glob("*.py")):
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
                assert node.module == "ncclDoctor.findings", f"{path.name} imports {node.module}"
            assert not isinstance(node, ast.Import), f"{path.name} imports a module"


def test_the_codes_package_alone_holds_every_moved_rule():
    """load_codes imports rules/codes/* and nothing else of ncclDoctor, and that is every rule."""
    code = ("import sys, json; from ncclDoctor.findings import load_codes; r = load_codes(); "
            "mods = sorted(m for m in sys.modules if m.startswith('ncclDoctor')); print(json.dumps([sorted(r), mods]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    codes, mods = json.loads(out.stdout)
    allowed = {"ncclDoctor", "ncclDoctor.findings", "ncclDoctor.rules", "ncclDoctor.rules.codes"}
    assert [m for m in mods if m not in allowed and not m.startswith("ncclDoctor.rules.codes.")] == []
    assert set(load_all_rules()) == set(codes) and {"BW001", "RUN101", "RUN102"} <= set(codes)


def test_env_rules_have_no_import_cycle():
    """rules.env composes env_values and network; they import the ENV texts, never rules.env back."""
    for mod in ("env_values", "network"):
        text = (ROOT / "ncclDoctor" / "rules" / f"{mod}.py").read_text(encoding="utf-8")
        assert "ncclDoctor.rules.env " not in text + " " and "from ncclDoctor.rules.env import" not in text, mod


def test_explain_shows_the_example_when_a_rule_has_one(capsys):
    assert main(["explain", "env001"]) == 0
    out = capsys.readouterr().out
    assert out.index("How to fix") < out.index("Example") and "bad:   export NCCL_TIMEOUT" in out
    assert main(["explain", "ENV002"]) == 0 and "Example" not in capsys.readouterr().out
