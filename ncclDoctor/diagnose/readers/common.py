"""Helpers the line readers share (parse.LineParser and its family mixins): rank and size arithmetic,
the regexes and distances no single family owns."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.signatures import _int

MAX_PIDS = 4096


@dataclass
class Stack:
    """The frames read so far of the Python traceback the parser is in. ``LineParser`` starts a new one at every
    "Traceback (most recent call last)" header, so nothing a reader keeps of one stack (its save frame, its
    process-start frame, its packages) is read with a later stack's exception; new per-traceback state goes here."""

    frame: tuple[int, str] = (-99, "")  # the last frame's line and file (crash reader: frame_file)
    caller_file: str = ""  # the file of the frame right above it, where consecutive (crash reader: caller_file)
    code: str = ""  # that frame's code line, the line under it (crash reader: frame_code)
    func: str = ""  # that frame's function ("init_process_group": crash reader, frame_func)
    load_at: int = -99  # the line of the last frame of torch.load's deserializer (torch/serialization.py)
    save: tuple[int, str, str] = (-99, "", "")  # the last save function's frame: line, function, file (save_rename)
    mp: tuple[int, str] = (-99, "")  # the last process-start frame (trackers.R_MP_FRAME): line, kind (parse._mp_kind)
    # the installed packages (site-packages/<pkg>/) of its frames, outermost first (crash reader: tb_pkgs)
    pkgs: list[str] = field(default_factory=list)
    # the first frame's file outside site-packages (the job's own script or module; crash reader: tb_script), not
    # Python's own library nor a console entry point (parse._NOT_JOB_FILE: review a of round 110, #4)
    script: str = ""
    # the first such frame of Python's own library or a console entry point (runpy, bin/llamafactory-cli,
    # "<string>"): the job's command shown, its own code not (crash reader: tb_entry)
    entry: str = ""
    # a frame of DataParallel's own machinery (torch/nn/parallel/data_parallel.py, parallel_apply.py, replicate.py,
    # scatter_gather.py; not DDP's distributed.py): one process driving every GPU, its replicas threads of it
    dp: bool = False
    # a frame of a training step running (a backward pass, an optimizer's or trainer's step; S.R_STEP_FRAME): the job
    # was past its start-up when this traceback's error came
    step: bool = False
    # the last frame of Horovod's start-up broadcast (hvd.broadcast_parameters / broadcast_optimizer_state /
    # broadcast_variables: S.R_HVD_BCAST_FRAME), its function (parse: a "has been shut down" raised under it)
    hvd_bcast: str = ""


def _fmt(ranks: list[int]) -> str:
    return " and ".join(map(str, ranks)) if len(ranks) > 1 else f"{ranks[0]} and another rank"


def _numel(v: str | None) -> int | None:
    """NumelIn/NumelOut; 18446744073709551615 (2^64-1, a coalesced op) means 'not applicable'."""
    n = _int(v)
    return None if n is None or n >= 1 << 63 else n


_UNIT = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def _bytes(size: str) -> float:
    """ "21.98 GiB" -> bytes."""
    n, _, unit = size.partition(" ")
    return float(n) * _UNIT.get(unit, 1) if n.replace(".", "", 1).isdigit() else 0.0


def _pid_gap(closed: list[int]) -> tuple[int | None, int | None]:
    """The pid and local rank of the worker torchrun's agent did not stop, when its clean-up lines say them: the agent
    starts local ranks 0..n-1 one after the other (their pids ascend), and after one fails it stops the others
    ("Sending process P closing signal SIGTERM"). When the stopped pids are consecutive but for exactly one missing
    pid inside their run, that pid is the failed worker and its place in the run its local rank. None when the
    stopped pids leave no gap (the failed one may be before or after them), or more than one."""
    pids = sorted(set(closed))
    if len(pids) < 2 or pids[-1] - pids[0] != len(pids):
        return None, None
    gap = next(p for p in range(pids[0], pids[-1]) if p not in pids)
    return gap, gap - pids[0]


def _innermost(rx, text: str):
    """The last of two nested launcher tags ("[rank3]: [rank7]:[E816 ...") is the process's own: the outer one was
    added by whatever collected the lines."""
    first = rx.search(text)
    if first is None or "rank" not in text[first.end():]:
        return first
    return ([first] + list(rx.finditer(text, first.end())))[-1]


# torch >= 2.2's C++ warning lines ("[W506 00:43:56.240378877 TCPStore.cpp:125] ..."), and the prefix torch
# glues to them once the default process group exists ("[rank6]:[W729 ..."; a launcher's "[rank6]: " has a blank)
# the rest of a WorkNCCL(...) text a terminal cut: key=value pieces up to its closing parenthesis, not a new line
_WORK_REST = re.compile(r"^((?:[\w=, ]|\(ms\))*?)\)")
_EARLY_GLOG = re.compile(r"\[W\d{3,4} \d\d:\d\d:\d\d\.\d{9} TCPStore\.cpp:\d+\] \[c10d\] recvValue failed on")
_TORCH_RANK_PREFIX = re.compile(r"\[rank\d{1,7}\]:\[[WEIF]\d")


# ncclGetErrorString's line as torch prints it on its own: "ncclUnhandledCudaError: Call to CUDA function failed."
_R_ERROR_STRING = re.compile(r"^\s*nccl[A-Z]\w*Error: [^:]{5,120}\.\s*$")

_ERR_NEAR = 8  # lines from a runtime's own error line to the fatal signal its process caught after it
# lines from multiprocessing's queue feeder frame (S.R_MP_FEED_FRAME) to the BrokenPipeError its pipe write raised:
# connection.py's send_bytes, _send_bytes and _send frames with their code lines (and 3.11's carets) between
_FEED_NEAR = 16
_PREAMBLE_NEAR = 4  # lines between two nccl-tests preambles printed by two processes at once (no device line between)
_UNREAD_KEEP = 16  # lines no family reads that announce a failure, kept per file
_MPI_PEER_NEAR = 24  # lines from Open MPI's "peer process has unexpectedly disconnected" to its "Peer host:"

# A glog header of ProcessGroupNCCL whose message a paste wrapped onto the next line right after its rank tag
# ("[rank0]:[E327 17:04:16.98 ProcessGroupNCCL.cpp:565] [Rank 0]" / "Watchdog caught collective operation timeout: ...")
# or after the message's first word ("... [Rank 0] Watchdog" / "caught collective operation timeout: ...": group 2)
_TAG_CUT = re.compile(r"\.cpp:\d{1,6}\] \[(?:PG [^\]]{0,80})?Rank (\d{1,7})\]( Watchdog)?\s*$")
# that message's rest on the line after a header cut after "Watchdog": its own words, lower-case, first
_WATCHDOG_REST = re.compile(r"^\s*caught collective operation timeout\b")


def _hosts_gpus(world: object) -> dict[str, list] | None:
    """DeepSpeed's resources as its runner and launcher pass them ({host: [GPU ids]}), or None if it is not that."""
    if isinstance(world, dict) and 0 < len(world) <= 4096 and all(
            isinstance(h, str) and isinstance(v, list) and all(isinstance(g, int) for g in v)
            for h, v in world.items()):
        return world
    return None


def _several_nodes(nnodes: str, multinode_args: bool) -> bool:
    """Whether torchrun's --nnodes value asks for more than one node: a number (or a MIN:MAX range) above 1, or a
    variable ($NNODES) beside the arguments only a multi-node launch needs (--node_rank, --master_addr)."""
    top = nnodes.rpartition(":")[2]
    if top.isdigit():
        return int(top) > 1
    return nnodes.startswith("$") and multinode_args


def _prefix_rank(text: str) -> int | None:
    """The rank a line's launcher prefix names (torchrun's "[rank3]:"/"[default3]:", mpirun's "[1,3]<stderr>:" and
    horovodrun's "[3]<stderr>:"), or None: which process's stack a frame line belongs to."""
    m = _innermost(S.R_RANK_TAG, text) or S.R_MPI_TAG.search(text)
    return int(m.group(1) or m.group(m.lastindex or 1)) if m else None
