"""Settings from ``[tool.ncclDoctor]`` in pyproject.toml or from an ``ncclDoctor.toml``.

Where it is found (the way ruff finds its config): ``--config FILE`` when given;
otherwise the first directory, from the current one up to the root, holding an
``ncclDoctor.toml`` (top-level keys) or a ``pyproject.toml`` with a ``[tool.ncclDoctor]``
table. In one directory ``ncclDoctor.toml`` wins. ``--no-config`` (or
``NCCLDOCTOR_NO_CONFIG=1``) ignores both. Command-line options override the file.

Keys (dashes or underscores; unknown keys are an error, exit 2). The first four and
``out`` apply to every command that writes a report (``ncclDoctor.options``); the rest
to ``check`` only::

    [tool.ncclDoctor]
    fail-on = "warning"                 # error | warning | info
    select = ["ENV", "BW", "RUN"]       # codes or prefixes to keep
    ignore = ["ENV003"]                 # codes or prefixes to drop
    junit = "reports/ncclDoctor.xml"
    min-busbw = 40.0                    # GB/s: fail when the best busbw is lower
    baseline = "ci/busbw-baseline.json" # compare with a saved run
    max-regression = 10                 # percent drop per size and node that fails
    # options of `check` (same names as on the command line)
    nproc-per-node = 8
    backend = "nccl"
    min-bytes = "8"
    max-bytes = "128M"
    step-factor = 2
    warmup = 5
    iters = 20
    timeout = 120                       # every phase's deadline (and the launch deadline, at least 60 s)
    launch-timeout = 300                # the launch deadline alone: every node and rank started and joined
    max-seconds = 300                   # the whole check's time budget (0: none)

Relative paths (baseline, junit, save-baseline, out) are relative to the config file's
directory, so a config committed to a repository means the same from any working
directory.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ncclDoctor.errors import UsageError
from ncclDoctor.options import CommonOptions, split_codes

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.9/3.10 only
    import tomli as tomllib

_STR, _INT, _NUM, _LIST = "a string", "an integer", "a number", "a list of strings"
KEYS: dict[str, str] = {
    "fail_on": _STR, "select": _LIST, "ignore": _LIST, "min_busbw": _NUM, "baseline": _STR,
    "max_regression": _NUM, "junit": _STR, "save_baseline": _STR, "out": _STR,
    "nproc_per_node": _INT, "backend": _STR, "min_bytes": _STR, "max_bytes": _STR,
    "step_factor": _INT, "warmup": _INT, "iters": _INT, "timeout": _NUM, "launch_timeout": _NUM,
    "max_seconds": _NUM,
}
PATH_KEYS = ("baseline", "junit", "save_baseline", "out")


@dataclass
class Config:
    values: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


def _typed(key: str, value: Any, where: str) -> Any:
    kind = KEYS[key]
    ok = {
        _STR: isinstance(value, str),
        _INT: isinstance(value, int) and not isinstance(value, bool),
        _NUM: isinstance(value, (int, float)) and not isinstance(value, bool),
        _LIST: isinstance(value, list) and all(isinstance(v, str) for v in value),
    }[kind]
    if kind == _STR and isinstance(value, int) and not isinstance(value, bool) and key in ("min_bytes", "max_bytes"):
        return str(value)  # `max-bytes = 1024` means 1024 bytes, as on the command line
    if not ok:
        raise UsageError(f"{where}: {key.replace('_', '-')} must be {kind}, got {value!r}")
    return value


def parse_table(table: dict[str, Any], path: Path) -> Config:
    where = str(path)
    values: dict[str, Any] = {}
    for raw, value in table.items():
        key = raw.replace("-", "_")
        if key not in KEYS:
            known = ", ".join(sorted(k.replace("_", "-") for k in KEYS))
            raise UsageError(f"{where}: unknown key {raw!r} (known: {known})")
        values[key] = _typed(key, value, where)
    for key in PATH_KEYS:
        if key in values:
            values[key] = str((path.parent / os.path.expanduser(values[key])).resolve())
    return Config(values, path)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise UsageError(f"--config {path}: no such file") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: not valid TOML ({exc})") from None


def load_file(path: Path) -> Config:
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("ncclDoctor")
        if table is None:
            return Config(path=None)
        if not isinstance(table, dict):
            raise UsageError(f"{path}: [tool.ncclDoctor] must be a table")
        return parse_table(table, path)
    return parse_table(data, path)


def find_config(start: Path) -> Path | None:
    for d in [start, *start.parents]:
        own = d / "ncclDoctor.toml"
        if own.is_file():
            return own
        py = d / "pyproject.toml"
        if py.is_file():
            try:
                if "ncclDoctor" in _read_toml(py).get("tool", {}):
                    return py
            except UsageError:
                if "tool.ncclDoctor" in py.read_text(encoding="utf-8", errors="replace"):
                    raise  # our settings are in a file that does not parse: say so
                continue  # a broken pyproject.toml without our table is not our error
    return None


def load_config(explicit: str | os.PathLike | None = None, *, no_config: bool = False,
                cwd: Path | None = None) -> Config:
    """The settings in effect: ``--config FILE``, else the nearest file, else none."""
    if explicit is not None:
        return load_file(Path(explicit))
    if no_config or os.environ.get("NCCLDOCTOR_NO_CONFIG", "") not in ("", "0"):
        return Config()
    found = find_config((cwd or Path.cwd()).resolve())
    return load_file(found) if found else Config()


def merge(cli: dict[str, Any], cfg: Config) -> dict[str, Any]:
    """Command-line values win; ``None`` (or an empty list) on the command line means unset."""
    out = dict(cfg.values)
    for k, v in cli.items():
        if v is not None and v != []:
            out[k] = v
    return out


def check_options(cli: dict[str, Any], cfg: Config) -> Any:
    """CheckOptions (with its CI gates, validated) from command-line values over the config.

    The finishing options are validated by ``ncclDoctor.options.CommonOptions``, as for every command."""
    from ncclDoctor.check import CheckOptions
    from ncclDoctor.ci import DEFAULT_MAX_REGRESSION_PCT, Gates

    cli = {**cli, "select": split_codes(cli.get("select")), "ignore": split_codes(cli.get("ignore"))}
    v = merge(cli, cfg)
    # validated once, the same way for every command, before anything is printed
    common = CommonOptions(out=v.get("out"), fail_on=v.get("fail_on", "error"), select=v.get("select") or (),
                           ignore=v.get("ignore") or (), junit=v.get("junit"))
    fail_on = common.fail_on
    gates = Gates(
        select=list(common.select),
        ignore=list(common.ignore),
        min_busbw_gbps=v.get("min_busbw"),
        baseline=v.get("baseline"),
        max_regression_pct=float(v.get("max_regression", DEFAULT_MAX_REGRESSION_PCT)),
        save_baseline=v.get("save_baseline"),
        junit=v.get("junit"),
        prometheus=cli.get("prometheus"),
        config_file=str(cfg.path) if cfg.path else None,
    ).prepare()
    names = ("nproc_per_node", "out", "min_bytes", "max_bytes", "step_factor", "warmup", "iters", "timeout",
             "launch_timeout", "max_seconds")
    return CheckOptions(
        **{k: v.get(k) for k in names},
        backend=v.get("backend", "auto"),
        fail_on=fail_on,
        inject=list(cli.get("inject") or []),
        gates=gates,
        # multi-node options come from the command line (or SLURM), not a settings file
        **{k: cli.get(k) for k in ("nnodes", "rdzv_endpoint", "rdzv_id", "local_addr", "structure_bytes")},
        ops=cli.get("ops"), expected_below_pct=cli.get("expected_below_pct"),
    )
