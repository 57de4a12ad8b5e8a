"""Settings from [tool.ncclDoctor] / ncclDoctor.toml: discovery, precedence, validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from ncclDoctor.config import check_options, load_config, split_codes
from ncclDoctor.errors import UsageError


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_nearest_pyproject_with_our_table_is_found_from_a_subdirectory(tmp_path, monkeypatch):
    monkeypatch.delenv("NCCLDOCTOR_NO_CONFIG", raising=False)
    _write(tmp_path / "pyproject.toml",
           '[tool.ncclDoctor]\nfail-on = "warning"\nbaseline = "ci/base.json"\nselect = ["ENV", "BW"]\n')
    _write(tmp_path / "sub" / "pyproject.toml", '[project]\nname = "not-ours"\n')  # no table: keep looking up
    cfg = load_config(cwd=tmp_path / "sub")
    assert cfg.path == tmp_path / "pyproject.toml"
    assert cfg.get("fail_on") == "warning" and cfg.get("select") == ["ENV", "BW"]
    assert cfg.get("baseline") == str(tmp_path / "ci" / "base.json")  # relative to the file, not the cwd


def test_ncclDoctor_toml_wins_over_pyproject_in_the_same_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("NCCLDOCTOR_NO_CONFIG", raising=False)
    _write(tmp_path / "pyproject.toml", '[tool.ncclDoctor]\nfail-on = "warning"\n')
    _write(tmp_path / "ncclDoctor.toml", 'fail-on = "info"\n')
    assert load_config(cwd=tmp_path).get("fail_on") == "info"
    assert load_config(cwd=tmp_path, no_config=True).values == {}
    monkeypatch.setenv("NCCLDOCTOR_NO_CONFIG", "1")
    assert load_config(cwd=tmp_path).values == {}
    assert load_config(tmp_path / "pyproject.toml").get("fail_on") == "warning"  # --config wins over the env


def test_command_line_overrides_the_file(tmp_path):
    cfg = load_config(_write(tmp_path / "ncclDoctor.toml",
                             'fail-on = "warning"\nmin-busbw = 5\nmax-regression = 20\nignore = ["ENV004"]\nmax-bytes '
                             '= 1024\niters = 3\n'))
    opts = check_options({"fail_on": "error", "min_busbw": None, "ignore": [], "select": ["env,bw", "RUN"]}, cfg)
    assert opts.fail_on == "error" and opts.max_bytes == "1024" and opts.iters == 3
    g = opts.gates
    assert (g.min_busbw_gbps, g.max_regression_pct, g.ignore, g.select) == (5, 20.0, ["ENV004"], ["ENV", "BW", "RUN"])
    assert g.config_file == str(tmp_path / "ncclDoctor.toml")


@pytest.mark.parametrize("text, needle", [
    ("fial-on = 'warning'\n", "unknown key 'fial-on'"),
    ("select = 'ENV'\n", "select must be a list of strings"),
    ("iters = 2.5\n", "iters must be an integer"),
    ("min-busbw = true\n", "min-busbw must be a number"),
    ("fail-on = \n", "not valid TOML"),
])
def test_bad_settings_name_the_file_and_the_key(tmp_path, text, needle):
    path = _write(tmp_path / "ncclDoctor.toml", text)
    with pytest.raises(UsageError) as exc:
        load_config(path)
    assert needle in str(exc.value) and str(path) in str(exc.value)


def test_bad_values_from_the_file_fail_before_the_run(tmp_path):
    cfg = load_config(_write(tmp_path / "ncclDoctor.toml", 'fail-on = "fatal"\n'))
    with pytest.raises(UsageError, match="unknown --fail-on 'fatal'"):
        check_options({}, cfg)
    cfg = load_config(_write(tmp_path / "ncclDoctor.toml", 'baseline = "missing.json"\n'))
    with pytest.raises(UsageError, match="missing.json: no such file"):
        check_options({}, cfg)


def test_launch_timeout_from_the_file_and_the_command_line(tmp_path):
    """`launch-timeout` is read as `timeout` is: a number, overridden by --launch-timeout, validated by the plan."""
    from ncclDoctor.check.options import plan

    cfg = load_config(_write(tmp_path / "ncclDoctor.toml", "timeout = 20\nlaunch-timeout = 300\n"))
    opts = check_options({"launch_timeout": None}, cfg)
    assert (opts.timeout, opts.launch_timeout) == (20, 300)
    assert check_options({"launch_timeout": 15.0}, cfg).launch_timeout == 15.0
    assert plan(opts, {"torch": {}}, {}).deadlines["launch"] == 300.0
    with pytest.raises(UsageError, match="launch-timeout must be a number"):
        load_config(_write(tmp_path / "bad" / "ncclDoctor.toml", 'launch-timeout = "5m"\n'))
    zero = check_options({}, load_config(_write(tmp_path / "zero" / "ncclDoctor.toml", "launch-timeout = 0\n")))
    with pytest.raises(UsageError, match="--launch-timeout must be a positive number of seconds, got 0"):
        plan(zero, {"torch": {}}, {})


def test_missing_explicit_config_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        load_config(tmp_path / "nope.toml")


def test_split_codes():
    assert split_codes(["env, BW101", "RUN", ""]) == ["ENV", "BW101", "RUN"]


def test_broken_pyproject_is_ours_only_when_it_holds_our_table(tmp_path, monkeypatch):
    monkeypatch.delenv("NCCLDOCTOR_NO_CONFIG", raising=False)
    _write(tmp_path / "a" / "pyproject.toml", "[project\nname = 1\n")
    assert load_config(cwd=tmp_path / "a").path is None
    _write(tmp_path / "b" / "pyproject.toml", '[tool.ncclDoctor]\nfail-on = "warning\n')
    with pytest.raises(UsageError, match="not valid TOML"):
        load_config(cwd=tmp_path / "b")
