"""The README and docs/ say what the tool does: every command, rule and exit code is there.

docs/rules.md is generated from the rule registry (`python -m ncclDoctor.docs`); the
test fails when it is stale and prints the command that regenerates it. The README's
exit-code table must equal ncclDoctor.errors.ExitCode, row for row.
"""

from __future__ import annotations

import re
from pathlib import Path

from ncclDoctor import docs
from ncclDoctor.errors import ExitCode
from ncclDoctor.findings import load_all_rules

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))


def _all_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in [README, *PAGES])


def test_rules_page_is_current():
    current = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert current == docs.generate(), f"docs/rules.md is stale: run `{docs.REGENERATE}` and commit it"


def test_the_generator_lists_a_rule_with_its_text():
    rules = load_all_rules()
    page = docs.render_rules({"ENV001": rules["ENV001"]})
    assert "### ENV001" in page and rules["ENV001"].title in page and "[ENV001](#env001)" in page
    assert " ".join(rules["ENV001"].fix.split()) in page


def test_every_rule_code_is_documented():
    text = _all_text()
    missing = [c for c in load_all_rules() if not re.search(rf"\b{c}\b", text)]
    assert not missing, f"rule codes in no page: {missing}; run `{docs.REGENERATE}`"


def test_every_command_is_documented():
    import typer.main

    from ncclDoctor.cli import app

    names = sorted(typer.main.get_command(app).commands)
    assert len(names) >= 8
    text = _all_text()
    missing = [n for n in names if f"ncclDoctor {n}" not in text]
    assert not missing, f"commands no page mentions as `ncclDoctor NAME`: {missing}"
    readme = README.read_text(encoding="utf-8")
    assert not [n for n in names if f"`ncclDoctor {n}" not in readme], "every command needs a row in the README's table"


def _readme_exit_rows() -> list[tuple[int, str]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return [(int(m.group(1)), m.group(2)) for m in re.finditer(r"^\| (\d+) \| ([A-Z_]+) \|", section, re.M)]


def test_readme_exit_code_table_equals_errors_exitcode():
    assert _readme_exit_rows() == [(int(c), c.name) for c in ExitCode]


def test_relative_links_resolve():
    broken = []
    for page in [README, *PAGES]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_readme_stays_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 160, "move detail into docs/"
