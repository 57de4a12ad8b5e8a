"""The shape of the check pipeline, checked: stage modules import in any order without a
cycle, the launch layer knows nothing of the probes, the probes import no ncclDoctor."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests._source import tree
from tests.conftest import ROOT, cli_env

PKG = ROOT / "ncclDoctor"


def _modules(folder: Path, prefix: str) -> dict[str, Path]:
    found = {}
    for f in sorted(folder.rglob("*.py")):
        parts = f.relative_to(folder).with_suffix("").parts
        name = ".".join([prefix, *parts[:-1]] + ([] if parts[-1] == "__init__" else [parts[-1]]))
        found[name] = f
    return found


def _imports(path: Path, package: str) -> set[str]:
    """Every module path this file imports, at any level (lazy imports included)."""
    out: set[str] = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if node.level == 0 else package.rsplit(".", node.level - 1)[0] + "." + node.module
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


CHECK = _modules(PKG / "check", "ncclDoctor.check")


@pytest.mark.parametrize("module", sorted(CHECK))
def test_each_check_module_imports_first_in_a_fresh_interpreter(module):
    res = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120,
                         env=cli_env())
    assert res.returncode == 0, res.stderr[-2000:]


def test_check_modules_form_no_import_cycle():
    graph = {m: {i for i in _imports(p, m) if i in CHECK and i != m} for m, p in CHECK.items()}
    graph = {m: deps - {"ncclDoctor.check"} for m, deps in graph.items()}  # the package imports its stages
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in graph[m]:
            assert state.get(d) != 1, "import cycle: " + " -> ".join([*path, m, d])
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])
    assert graph["ncclDoctor.check.analyse"] <= {"ncclDoctor.check.options"}  # pure: no launch, no store


def test_the_launch_layer_knows_nothing_of_the_probes():
    for name, path in _modules(PKG / "launch", "ncclDoctor.launch").items():
        imports = _imports(path, name)
        assert not {i for i in imports if i.startswith(("probes", "ncclDoctor.check"))}, name
        if name in ("ncclDoctor.launch.supervisor", "ncclDoctor.launch.evidence", "ncclDoctor.launch.store"):
            code = path.read_text()
            for phase in ('"inventory"', '"smoke"', '"all_reduce"', '"structure"'):
                assert phase not in code, f"{name} names the probe phase {phase}"


def test_probes_import_only_torch_and_the_standard_library():
    allowed_third_party = {"torch", "psutil", "pynvml"}  # psutil and pynvml guarded: used where installed
    for name, path in _modules(ROOT / "probes", "probes").items():
        for mod in _imports(path, name):
            top = mod.split(".")[0]
            assert top == "probes" or top in sys.stdlib_module_names or top in allowed_third_party, (name, mod)
