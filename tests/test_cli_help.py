"""`ncclDoctor` with no arguments prints its help once and exits 2 (usage)."""

from ncclDoctor.cli import main


def test_no_arguments_prints_the_help_once(capsys):
    assert main([]) == 2
    out = capsys.readouterr()
    assert (out.out + out.err).count("Usage:") == 1
    assert "check" in out.out
