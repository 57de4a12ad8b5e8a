"""The ``ncclDoctor`` command: thin typer skins over the library, one module per command group.

``check`` (cli/check.py), ``env``, ``diagnose``, ``sweep-workers`` and ``stalls``
(cli/sweep.py), ``report`` and ``schema`` (cli/report.py), ``run`` and ``attach``
(cli/live.py), ``explain``, ``launch-spec`` and ``version`` (cli/misc.py). Each command turns options into one library \
call and
renders the result; the finishing options they share are in ``cli/common.py``.
Errors are mapped to exit codes in one place, ``main``; see ``ncclDoctor.errors``.
"""

from __future__ import annotations

import functools
import os
import sys

import typer
import typer.main

from ncclDoctor.cli import check, diagnose, env, live, misc, report, sweep  # noqa: F401  (register the commands)
from ncclDoctor.cli.app import app, err
from ncclDoctor.errors import DoctorError, ExitCode

# typer >= 0.2x vendors click (typer._click) and older typer depends on it: take the exception classes
# from whichever module typer's own BadParameter lives in, so ncclDoctor never imports click itself.
_click = sys.modules[typer.BadParameter.__module__]
_ABORTS = (getattr(_click, "Abort", typer.Abort), typer.Abort, KeyboardInterrupt)  # vendored click has no Abort

__all__ = ["app", "main"]


def _print_help(exc: Exception) -> None:
    ctx = getattr(exc, "ctx", None)
    print(ctx.get_help() if ctx else str(exc), file=sys.stderr)


@functools.cache
def _command():
    """The click command typer builds from ``app``: what ``app(...)`` builds anew on every call (it inspects
    every command's signature, ~0.05 CPU-s). Built once per process: a user's process calls ``main`` once,
    the test suite's in-process runs (`run_cli_here`) a few hundred times. ``app`` sets
    ``pretty_exceptions_enable=False``, so typer's ``__call__`` adds nothing else: an exception that escapes
    (NCCLDOCTOR_DEBUG=1) prints Python's standard traceback either way."""
    return typer.main.get_command(app)


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the app and maps every error to one line and an exit code."""
    code: int
    args = sys.argv[1:] if argv is None else argv
    live.RAW_ARGV[:] = list(args)
    if not args:  # help once, whichever typer/click prints it (typer 0.2x prints before raising NoArgsIsHelpError)
        _command().main(args=["--help"], standalone_mode=False, prog_name="ncclDoctor")
        return _exit(ExitCode.USAGE, argv)
    try:
        rv = _command().main(args=argv, standalone_mode=False, prog_name="ncclDoctor")
        code = rv if isinstance(rv, int) else 0
    except _click.UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            _print_help(exc)
        else:
            err.print(f"ncclDoctor: error: {exc.format_message()}", markup=False)
        code = ExitCode.USAGE
    except _ABORTS:
        err.print("ncclDoctor: interrupted")
        code = ExitCode.INTERRUPTED
    except DoctorError as exc:
        err.print(f"ncclDoctor: error: {exc}", markup=False)
        code = exc.exit_code
    except _click.ClickException as exc:
        err.print(f"ncclDoctor: error: {exc.format_message()}", markup=False)
        code = ExitCode.USAGE
    except Exception as exc:  # a bug in ncclDoctor: one line, traceback only on request
        if os.environ.get("NCCLDOCTOR_DEBUG"):
            raise
        err.print(
            f"ncclDoctor: internal error: {type(exc).__name__}: {exc} "
            "(set NCCLDOCTOR_DEBUG=1 for the traceback; please report it)",
            markup=False,
        )
        code = ExitCode.INTERNAL
    return _exit(code, argv)


def _exit(code: int, argv: list[str] | None) -> int:
    if argv is None:
        if "torch" in sys.modules:
            _leave(int(code))
        sys.exit(int(code))
    return int(code)


def _leave(code: int) -> None:
    """The process's end once torch is loaded (check, run, sweep-workers): every report is
    written and every child reaped by now, so skip the interpreter's teardown of torch --
    2-5 s on a busy host, after the verdict, on every node of a multi-node check."""
    from probes.teardown import leave

    leave(code)


if __name__ == "__main__":
    main()
