"""Every third-party import in the shipped code is declared in pyproject.toml.

A fresh virtual environment has only what pyproject declares. `import click` once reached
users that way: typer >= 0.2x vendors click and stopped depending on it, so the command
failed before printing anything, while CI passed in a Python that happened to have click.

The walk reads every .py under ncclDoctor/, probes/ and reference_train/ with `ast` (nothing
is imported), keeps absolute imports that are neither stdlib (sys.stdlib_module_names) nor
first-party, and requires each to be a module of a [project].dependencies distribution, or
guarded: inside a `try` whose handler catches ImportError (the optional-import idiom), or
under `if TYPE_CHECKING:`. An import inside a function is checked like any other: a lazy
import of an undeclared module still fails when the function runs.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from tests._source import tree

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - 3.9/3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("ncclDoctor", "probes", "reference_train")
FIRST_PARTY = set(SHIPPED)
# Distributions whose import name differs from the distribution name.
MODULES_OF = {"nvidia-ml-py": {"pynvml"}, "pyyaml": {"yaml"}, "pillow": {"PIL"}}
_GUARDS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def declared_modules(pyproject: Path) -> set[str]:
    """Top-level module names the [project].dependencies distributions provide."""
    deps = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    mods: set[str] = set()
    for spec in deps:
        dist = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec).group(0).lower().replace("_", "-")
        mods |= MODULES_OF.get(dist, {dist.replace("-", "_")})
    return mods


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(n, ast.Name) and n.id in _GUARDS for n in names)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(node: ast.AST, guarded: bool = False):
    """(module, lineno, guarded) for every absolute import under ``node``."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, node.lineno, guarded
        return
    if isinstance(node, ast.ImportFrom):
        if node.level == 0 and node.module:
            yield node.module, node.lineno, guarded
        return
    if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
        for child in node.body:
            yield from _imports(child, True)
        for child in [*node.handlers, *node.orelse, *node.finalbody]:
            yield from _imports(child, guarded)
        return
    if isinstance(node, ast.If) and _is_type_checking(node):
        return
    for child in ast.iter_child_nodes(node):
        yield from _imports(child, guarded)


def undeclared_imports(files: list[Path], declared: set[str], root: Path = ROOT) -> list[str]:
    """'path:line: module' for every unguarded third-party import not in ``declared``."""
    bad = []
    for path in files:
        for module, line, guarded in _imports(tree(path)):
            top = module.split(".")[0]
            if guarded or top in sys.stdlib_module_names or top in FIRST_PARTY or top in declared:
                continue
            bad.append(f"{path.relative_to(root)}:{line}: {module}")
    return bad


def shipped_files() -> list[Path]:
    return sorted(p for d in SHIPPED for p in (ROOT / d).rglob("*.py"))


def test_every_third_party_import_is_declared():
    files = shipped_files()
    assert len(files) > 50, "the walk found too few files: is ROOT right?"
    bad = undeclared_imports(files, declared_modules(ROOT / "pyproject.toml"))
    hint = "undeclared third-party imports (declare them in pyproject or guard with try/except ImportError):\n"
    assert not bad, hint + "\n".join(bad)


def test_declared_modules_maps_distribution_names():
    mods = declared_modules(ROOT / "pyproject.toml")
    assert {"torch", "typer", "rich", "psutil", "pynvml", "matplotlib"} <= mods
    assert "click" not in mods and "nvidia_ml_py" not in mods


def test_a_planted_click_import_fails(tmp_path):
    """The regression this test exists for: `import click` with typer >= 0.2x."""
    (tmp_path / "ncclDoctor").mkdir()
    planted = tmp_path / "ncclDoctor" / "cli.py"
    planted.write_text("import typer\nimport click\n\ndef f():\n    import yaml\n")
    bad = undeclared_imports([planted], declared_modules(ROOT / "pyproject.toml"), root=tmp_path)
    assert bad == ["ncclDoctor/cli.py:2: click", "ncclDoctor/cli.py:5: yaml"]


def test_guarded_imports_pass(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "try:\n    import click\nexcept ImportError:\n    click = None\n"
        "def f():\n    try:\n        import numpy\n    except (ValueError, ModuleNotFoundError):\n        pass\n"
        "if TYPE_CHECKING:\n    import pandas\n"
        "from . import sibling\nimport ncclDoctor.errors, json\n"
        "try:\n    import yaml\nexcept ValueError:\n    pass\n"
    )
    assert undeclared_imports([src], {"torch"}, root=tmp_path) == ["m.py:16: yaml"]
