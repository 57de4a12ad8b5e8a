"""Exit codes and the exceptions that map to them.

One table, used by every command and printed in the README:

====  ==================  ==========================================================
code  name                meaning
====  ==================  ==========================================================
0     OK                  healthy: no finding at or above ``--fail-on``
1     FINDINGS            findings at or above ``--fail-on`` (default: error)
2     USAGE               bad arguments, options, config or input files
3     COULD_NOT_RUN       the probe could not run: torchrun failed to launch, the
                          rendezvous or process-group init failed or timed out
4     FAULT               the probe ran and a rank hung, crashed or returned wrong
                          data; the culprit is named in the report
70    INTERNAL            a bug in ncclDoctor (one line; NCCLDOCTOR_DEBUG=1 shows the traceback);
                          in diagnose's verdict the report is still written (LOG033)
130   INTERRUPTED         interrupted (Ctrl-C / SIGTERM); the partial report is written
====  ==================  ==========================================================
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0
    FINDINGS = 1
    USAGE = 2
    COULD_NOT_RUN = 3
    FAULT = 4
    INTERNAL = 70
    INTERRUPTED = 130


class DoctorError(Exception):
    """An expected failure with a one-line message for the user."""

    exit_code = ExitCode.USAGE


class UsageError(DoctorError):
    exit_code = ExitCode.USAGE


class CouldNotRun(DoctorError):
    exit_code = ExitCode.COULD_NOT_RUN
