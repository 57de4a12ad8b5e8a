"""How a process that has loaded torch ends once its work is written: without the
interpreter's teardown of torch (seconds of CPU per process on a busy host).

Used by the probe worker (after its records) and by the ``ncclDoctor`` CLI (after the
report, when torch is loaded). Standard library only, like the rest of ``probes``.
"""

from __future__ import annotations

import logging
import os
import sys


def leave(code: int) -> None:
    """Shut logging down and flush stdout/stderr (what a normal exit would do first), then
    ``os._exit``: no atexit handlers, no module teardown."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
