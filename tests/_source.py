"""The checkout's Python files, read and parsed once per session.

Several tests walk the same trees with `ast` (test_imports: every shipped file; test_rules_registry:
every ncclDoctor file and the test modules FIRING names; test_layout: check/, launch/, probes/).
Parsing ncclDoctor/ alone costs about 1 CPU-s here, so each file is parsed once and the tree
shared; the tests only read it (ast.walk, get_source_segment), never change it.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> tuple[str, ast.Module]:
    """PATH's text and its syntax tree (a SyntaxError names PATH)."""
    text = Path(path).read_text(encoding="utf-8")
    return text, ast.parse(text, filename=str(path))


def tree(path: Path) -> ast.Module:
    return parsed(Path(path))[1]
