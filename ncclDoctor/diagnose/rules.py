"""LOG rules used by ``ncclDoctor.diagnose.conclude``: the texts live in ``ncclDoctor.rules.codes.log``."""

from __future__ import annotations

from ncclDoctor.rules.codes.log import (  # noqa: F401  (re-exported for conclude.py as R.*)
    CULPRIT, DESYNC, FIRST_FAILURE, ALL_JOINED, TIMEOUTS, NCCL_ERROR, IB_COMPLETION, SOCKET, STORE,
    GLOO, HEARTBEAT, DATALOADER, OOM, CHILD_FAILED, SOCKET_FALLBACK, SETTINGS, NCCL_WARN,
    UNREADABLE, NOTHING_FOUND, MISSING_LOGS, PRIOR,
)
