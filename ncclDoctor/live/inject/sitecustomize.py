"""ncclDoctor's injected ``sitecustomize`` (``ncclDoctor run`` puts this directory first on PYTHONPATH).

Every Python process of the job imports it at start-up. It does two things, in this order:

1. chains to the ``sitecustomize`` that would have run without us (the next one on ``sys.path``,
   e.g. Debian's ``/etc/python3.X/sitecustomize.py`` or the user's own), reporting its errors the
   way ``site`` does, so the job behaves as before;
2. in a torchrun *worker* only (``RANK`` and ``LOCAL_RANK`` set, ``NCD_LIVE_DIR`` set, not a
   child of an already prepared worker such as a DataLoader or compile worker), loads
   ``_ncd_live_watcher`` which registers the stack-dump signal and starts the publisher once
   the job imports ``torch.distributed``.

Nothing here may raise into the job: every step is inside ``try/except``.
"""

import os
import sys


def _chain() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        import importlib.machinery
        import importlib.util

        rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
        if spec is None or spec.loader is None:
            return
        mod = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = mod
        spec.loader.exec_module(mod)
    except Exception as exc:  # what site.py itself does with a failing sitecustomize
        try:
            sys.stderr.write(f"Error in sitecustomize; set PYTHONVERBOSE for traceback:\n{type(exc).__name__}: {exc}\n")
        except Exception:
            pass


def _is_worker() -> bool:
    env = os.environ
    if not env.get("NCD_LIVE_DIR") or "RANK" not in env or "LOCAL_RANK" not in env:
        return False
    if env.get("NCD_LIVE_ACTIVE_PID"):  # a process started by a prepared worker inherits RANK
        return False
    argv = getattr(sys, "orig_argv", sys.argv) or []
    return "--multiprocessing-fork" not in argv


def _activate() -> None:
    try:
        if not _is_worker():
            return
        os.environ["NCD_LIVE_ACTIVE_PID"] = str(os.getpid())
        import _ncd_live_watcher

        _ncd_live_watcher.install()
    except Exception:
        pass


_chain()
_activate()
