"""LOG rules used by ``ncclDoctor.diagnose.conclude``: the texts live in ``ncclDoctor.rules.codes.log``."""

from __future__ import annotations

from ncclDoctor.rules.codes.log import (  # noqa: F401  (re-exported for conclude.py as R.*)
    ALL_JOINED,
    CHILD_FAILED,
    CULPRIT,
    DATALOADER,
    DESYNC,
    FIRST_FAILURE,
    GLOO,
    HEARTBEAT,
    IB_COMPLETION,
    MISSING_LOGS,
    NCCL_ERROR,
    NCCL_WARN,
    NOTHING_FOUND,
    OOM,
    PRIOR,
    SETTINGS,
    SOCKET,
    SOCKET_FALLBACK,
    STORE,
    TIMEOUTS,
    UNREADABLE,
)
