"""Every rule explains itself, every command has help text (sqlite-utils' habit)."""

from ncclDoctor.cli import app, main
from ncclDoctor.findings import load_all_rules


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
