"""ENV rule texts: distributed environment variables (NCCL_*, TORCH_NCCL_*, GLOO_*) and nccl.conf.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.rules.env``, ``ncclDoctor.rules.env_values``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

NEVER_EXISTED = rule(
    "ENV001",
    "warning",
    "Variable that nothing reads",
    why="""
The variable is set, but no version of NCCL or torch has ever read it, so it changes
nothing. NCCL_TIMEOUT is the classic: blogs recommend it, NCCL has no such setting.
A job that relies on it keeps the default behaviour it was meant to change.
""",
    fix="""
Remove it. For the collective timeout pass init_process_group(timeout=timedelta(...));
for InfiniBand transport timeouts use NCCL_IB_TIMEOUT (and NCCL_IB_RETRY_CNT).
""",
    example="""
bad:   export NCCL_TIMEOUT=1800000
good:  dist.init_process_group("nccl", timeout=datetime.timedelta(minutes=30))
""",
)


DEPRECATED = rule(
    "ENV002",
    "warning",
    "Deprecated alias of another variable",
    why="""
The name still works as a fallback, but it is an old alias: torch logs a deprecation
warning, the current name wins when both are set, and aliases get removed. The
NCCL_-prefixed torch settings (NCCL_BLOCKING_WAIT, NCCL_ASYNC_ERROR_HANDLING,
NCCL_DESYNC_DEBUG) are read by torch, not by NCCL.
""",
    fix="Rename it to the replacement shown in the message.",
)


REMOVED = rule(
    "ENV003",
    "warning",
    "Variable removed from NCCL",
    why="The variable was read by an old NCCL release and is ignored by current ones.",
    fix="Remove it, or use the replacement shown in the message.",
)


DEBUG_KNOB = rule(
    "ENV004",
    "info",
    "Debugging knob set",
    why="""
NCCL's guide lists this among the debugging variables that "should not be used in
production nor retained in scripts": keeping them set can cost bandwidth, or cause
crashes and hangs. Some are worse than others: NCCL_DEBUG=TRACE logs every call,
NCCL_PROTO forcing LL128 where it is unsupported can corrupt data, a forced NCCL_ALGO
fails on NCCL >= 2.24 when the algorithm is not available.
""",
    fix="Unset it unless you are debugging right now, and say why in the job script if you keep it.",
)


UNKNOWN = rule(
    "ENV005",
    "warning",
    "Unknown variable name",
    why="""
Nothing in NCCL, torch or gloo is known to read this name, so it most likely does
nothing: a typo (NCCL_BUFFLE_SIZE for NCCL_BUFFSIZE) or a name copied from a blog.
NCCL also has undocumented parameters, so a name without a close match is reported as
information only.
""",
    fix="Correct the name (see the suggestion), or remove it.",
)


BAD_VALUE = rule(
    "ENV006",
    "error",
    "Value out of range or not accepted",
    why="""
NCCL and torch parse these values strictly: a value outside the documented range or
set is ignored ("Invalid value ..., using default"), rejected at init, or passed to the
hardware where a few bits of it are kept. Either way the job does not run with the
setting you wrote.
""",
    fix="Use a value from the range or list shown in the message, or unset the variable.",
)


SYNTAX = rule(
    "ENV007",
    "warning",
    "List syntax that does not mean what it looks like",
    why="""
NCCL_SOCKET_IFNAME and NCCL_IB_HCA match names by prefix unless the list starts with
'=' (exact) and exclude with a leading '^' ('^=' for both); so NCCL_IB_HCA=mlx5_1 also
selects mlx5_10 ... mlx5_19. GLOO_SOCKET_IFNAME takes exact names only, so NCCL's
syntax there names an interface that does not exist.
""",
    fix="Write '=name' for an exact match in NCCL lists ('^=name' to exclude one), and plain names in "
        "GLOO_SOCKET_IFNAME.",
)


CONTRADICTION = rule(
    "ENV008",
    "warning",
    "Settings that contradict each other",
    why="""
Two settings say opposite things, or one makes the other meaningless. Only one of them
takes effect, and which one can change between versions; the job script then documents
a configuration that is not the one running.
""",
    fix="Keep the setting you mean and remove the other.",
)


IB_TIMEOUT_WINDOW = rule(
    "ENV010",
    "warning",
    "InfiniBand retry window against the collective timeout",
    why="""
When a link dies, NCCL reports it (with the peer's address) only after the InfiniBand
retry window: 4.096 us x 2^NCCL_IB_TIMEOUT per try, times NCCL_IB_RETRY_CNT. If that
window is as long as torch's collective timeout, torch's watchdog fires first with a
bare "Watchdog caught collective operation timeout" and the error that would have named
the broken link never appears; with NCCL_IB_TIMEOUT=0 a dead link is never reported.
""",
    fix="""
Keep 4.096 us x 2^NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT well below the timeout given to
init_process_group (default 10 min for nccl): NCCL's defaults (20 and 7) give ~30 s.
""",
)


SHARED_DEBUG_FILE = rule(
    "ENV011",
    "warning",
    "NCCL_DEBUG_FILE shared by several processes",
    why="""
NCCL creates and overwrites the file named by NCCL_DEBUG_FILE in every process. Without
%p (process id) and %h (host name) in the name, the ranks on a node, or on nodes sharing
a file system, write the same file: "the output may be lost or corrupted" (NCCL's
guide). /dev/stdout and /dev/stderr are fine.
""",
    fix="Use a per-process name such as NCCL_DEBUG_FILE=/tmp/nccl.%h.%p.log (an absolute path).",
)


CONF_LINE = rule(
    "ENV012",
    "warning",
    "nccl.conf line that NCCL reads differently",
    why="""
NCCL reads its conf files (NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf) as raw
NAME=VALUE lines: it trims nothing, removes no quotes and knows no 'export'. A line
written like shell, such as 'export NCCL_DEBUG=INFO' or 'NCCL_DEBUG = INFO', defines a
variable with another name, so the setting silently does nothing.
""",
    fix="Write the line as NAME=VALUE with no spaces, quotes or 'export'.",
)
