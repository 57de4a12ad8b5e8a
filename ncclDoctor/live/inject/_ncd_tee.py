"""ncclDoctor's per-rank tee: one small process per torchrun worker (started by ``_ncd_live_watcher``).

    python -I -S _ncd_tee.py LOG_PATH OUT_FD ERR_FD

Reads the worker's stdout from ``OUT_FD`` and its stderr from ``ERR_FD`` (the read ends of two
pipes the worker now writes into) and writes every chunk, unchanged, to its own fd 1 or fd 2 (the
worker's original stdout and stderr, i.e. torchrun's, i.e. ``ncclDoctor run``'s pump) and to
``LOG_PATH`` (both streams, in order of arrival, as a terminal shows them).

A separate process rather than a thread of the worker: a rank stuck in a C call that holds the
GIL keeps its output flowing, and its last words (a faulthandler dump) reach the file.

It ignores SIGINT, SIGTERM and SIGHUP: torchrun's teardown signals the worker's process group,
and the tee must outlive the worker long enough to pass on its last output. It ends at EOF on
both pipes, i.e. when the worker and every child that inherited its stdout/stderr have exited.
If the original stdout goes away (EPIPE), that stream is still logged but no longer forwarded.
Plain Python, stdlib only, ``-I -S``: no site, no sitecustomize, no user environment.
"""

import os
import select
import signal
import sys


def _write_all(fd: int, data: bytes) -> bool:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except InterruptedError:
            continue
        except OSError:
            return False
        view = view[n:]
    return True


def main(argv: list) -> int:
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # EPIPE as an error, not a death
    log_path, src_out, src_err = argv[1], int(argv[2]), int(argv[3])
    try:
        log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError:
        log = -1
    dest = {src_out: 1, src_err: 2}
    forward = {src_out: True, src_err: True}
    open_fds = [src_out, src_err]
    while open_fds:
        try:
            ready, _, _ = select.select(open_fds, [], [])
        except InterruptedError:
            continue
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                open_fds.remove(fd)
                continue
            if forward[fd]:
                forward[fd] = _write_all(dest[fd], chunk)
            if log >= 0 and not _write_all(log, chunk):  # a full disk: keep forwarding, stop logging
                os.close(log)
                log = -1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
