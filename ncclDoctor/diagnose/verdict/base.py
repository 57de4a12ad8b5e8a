"""The verdict's record and the helpers every detector family uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks, own_errors
from ncclDoctor.diagnose.signatures import R_DUP_GPU, R_NODE_LOCAL_DIR, R_RAY_PID, Event
from ncclDoctor.diagnose.state import Collected

JOB_WIDE = ("invalid_usage", "nccl_system", "network_setup", "store_rendezvous", "config", "signal", "none")


@dataclass
class Verdict:
    cause: str
    summary: str
    fix: str
    confidence: str = "medium"
    culprits: list[int] = field(default_factory=list)
    proof: list[str] = field(default_factory=list)
    job_wide: bool = False  # no single rank caused it, although the cause class may name one elsewhere
    demote: str = ""  # why a rank's "first failure" is not one (a process that died before it): lowers it to low

    def to_dict(self) -> dict[str, Any]:
        return {
            "cause": self.cause,
            "confidence": self.confidence,
            "culprits": self.culprits,
            "summary": self.summary,
            "fix": self.fix,
            "proof": self.proof[:8],
        }


# torch.distributed.launch itself shown: its FutureWarning (the benign "launch deprecated" event) or its own file
# (torch/distributed/launch.py) in a line read -- advice to leave that launcher for torchrun is only for the job that
# ran it (review 105 (1) findings 4, 8): torchrun's own "[rankN]: " prefix or OMP_NUM_THREADS banner is not it
_R_LEGACY_LAUNCH = re.compile(r"torch[/\\]distributed[/\\]launch\.py\b")


def legacy_launch_shown(c: Collected) -> bool:
    """Whether these lines show torch.distributed.launch (not torchrun): its deprecation warning or launch.py."""
    if any(b.data.get("what") == "launch deprecated" for b in c.samples.get("benign", [])):
        return True
    return any(_R_LEGACY_LAUNCH.search(e.text or "") for evs in c.samples.values() for e in evs)


def waiting_pids(c: Collected) -> set[int]:
    """The processes a watchdog timeout line is from: NCCL's pid field, or the innermost Ray actor prefix
    ("(WorkerDict pid=N)") a Ray job stamps on its workers' lines."""
    timeouts = c.samples.get("watchdog_timeout", [])
    waiting = {e.pid for e in timeouts} | {int(p[-1]) for e in timeouts if (p := R_RAY_PID.findall(e.text))}
    waiting.discard(None)
    return waiting


# a rank's own first failure of its own kind: an OOM, a crash or a fatal signal (a traceback's exception is read from
# Collected.exceptions)
_OWN_FAILURE_KINDS = ("cuda_oom", "crash", "signal", "runtime_signal", "sglang_crash")


def carries_refusal(x: Event, evs: list[Event]) -> bool:
    """Round 110's sdpo-39 under a rank prefix: the exception whose own continuation is the refusal (torch's
    "DistBackendError: NCCL error, NCCL version 2.27.3" and, within the next three lines of the same file and rank,
    "ncclInvalidUsage: Duplicate GPU detected : rank 9 and rank 1 ...") is that refusal, not a failure of its own,
    whatever rank printed it."""
    path, n = x.site()
    return any(e.rank == x.rank and (s := e.site())[0] == path and 0 < s[1] - n <= 3 for e in evs)


def dup_gpu_beside(c: Collected) -> bool:
    """Review 107 finding 1: a duplicate-GPU refusal that names its two ranks ("Duplicate GPU detected : rank 1 and
    rank 0 both on CUDA device 1000", torch's "Duplicated GPU device is not allowed by NCCL. Rank [0] and rank [1]
    both on CUDA device 0", often a warning line beside the real crash) explains the ranks sharing that GPU, not a
    third rank outside the pair that shows its own first failure -- its ranked exception, OOM or crash (one on the
    shared device excepted: that rank shares it too). Then the override steps aside and that rank's failure is read
    (lead rule A)."""
    evs = [e for e in c.samples.get("nccl_error", []) if e.data.get("duplicate_gpu")]
    pair = {r for e in evs for r in e.data["duplicate_gpu"]}
    if len(pair) < 2:
        return False
    devs = {m.group(3) for e in evs
            if (m := R_DUP_GPU.search((e.data.get("last_error") or "") + " " + e.text)) and m.group(3)}

    def beside(r: int | None, e: Event) -> bool:
        return r is not None and r not in pair and (e.data.get("gpu") is None or str(e.data["gpu"]) not in devs)

    if any(beside(x.rank, x) for x in c.exceptions if not x.data.get("line") and not carries_refusal(x, evs)):
        return True
    return any(beside(r, e) for r, st in c.ranks.items() for e in own_errors(st) if e.kind in _OWN_FAILURE_KINDS)


def _samples(c: Collected, kind: str, n: int = 3) -> list[str]:
    return [e.brief() for e in c.samples.get(kind, [])[:n]]


def _ranks(c: Collected, kind: str) -> list[int]:
    return sorted(c.kind_ranks.get(kind, set()))


def _named(ranks: list[int]) -> str:
    return f"rank {_fmt_ranks(ranks)}" if ranks else "a rank the lines do not name"


def hosts(c: Collected) -> set[str]:
    return {h for st in c.ranks.values() for h in st.hosts}


# --- hangs -------------------------------------------------------------------------------
def _first(ks: list[Conclusion], kind: str, confs=("high", "medium")) -> Conclusion | None:
    return next((k for k in ks if k.kind == kind and k.confidence in confs), None)


def place(e: Event) -> tuple[str, int]:
    """Where an event was read: (file, line number); 0 when the place holds no line number."""
    path, _, n = e.where.rpartition(":")
    return path, int(n) if n.isdigit() else 0


def exception_text(e: Event) -> str:
    """An exception event as its traceback's last line says it: "Type: message" (the type alone without one)."""
    return (e.data.get("type") or "") + (": " + e.data["message"] if e.data.get("message") else "")


def _what(e: Event) -> str:
    w = e.text.split("NCCL WARN", 1)
    return (w[1] if len(w) > 1 else e.data.get("last_error") or e.text).strip()[:160]


# Horovod's binding of a framework, as a traceback's file or an import names it: horovod/torch, horovod/tensorflow,
# horovod/keras (horovod.tensorflow.keras, horovod._keras), horovod/mxnet
_HVD_BINDING = re.compile(r"\bhorovod[/\\.]_?(torch|tensorflow|keras|mxnet)\b")
_HVD_FLAG = {"torch": "HOROVOD_WITH_PYTORCH=1", "tensorflow": "HOROVOD_WITH_TENSORFLOW=1",
             "keras": "HOROVOD_WITH_TENSORFLOW=1", "mxnet": "HOROVOD_WITH_MXNET=1"}


def horovod_framework_flag(texts) -> str:
    """The HOROVOD_WITH_<framework>=1 build variable for the binding the texts (frame files, messages) name; the
    choice spelled out where they name none (or more than one)."""
    flags = {_HVD_FLAG[m.group(1)] for t in texts if t for m in _HVD_BINDING.finditer(str(t))}
    if len(flags) == 1:
        return flags.pop()
    return "HOROVOD_WITH_PYTORCH=1 or HOROVOD_WITH_TENSORFLOW=1 (the framework the job uses)"


def horovod_rebuild(flag: str, gpu: bool = False) -> str:
    """Horovod's rebuild command: the one wording of it (the native-crash and the no-CUDA fixes both give it)."""
    return (("HOROVOD_GPU_OPERATIONS=NCCL " if gpu else "") + f"{flag} pip install --no-cache-dir horovod")


def exception_frame_texts(c: Collected) -> list[str]:
    """Every frame file and message the collected exceptions carry (for a binding's name in them)."""
    out = []
    for e in c.exceptions:
        d = e.data
        out += [str(d.get(k) or "") for k in ("frame_file", "caller_file", "message")]
        out += [str(f[0]) for f in d.get("tail_frames") or ()]
    return out


# Kinds that say the job's own run failed: a reader of a setting or a print "with nothing else failing" stands down
# beside any of them (world's _env_rank_twice, and quiet() below).
_OWN_RUN_FAILED = ("watchdog_timeout", "nccl_error", "cuda_error", "cuda_oom", "ib_completion", "heartbeat", "crash",
                   "dataloader")


def quiet(c: Collected) -> bool:
    """Nothing in the lines fails and the job did not finish: no exception or unread failure line, no launcher record
    of a failed process, no timeout, NCCL error or warning, no failure kind of the job's own run (_OWN_RUN_FAILED), and
    no sign the run completed (noise.finished). The one guard of the readers that read a setting or a job's own prints
    as the failure when nothing else is (transport's _subgroup_stall, desync's _recv_garbage, world's _rank_sentinel,
    _env_rank0_elsewhere and _slurm_tasks_gpus): they agree on what "nothing failing" means (review 96 finding 7)."""
    from ncclDoctor.diagnose.verdict.noise import finished  # noise imports this module
    return not (c.exceptions or c.unread or c.child_failures or c.worker_failures or c.samples.get("nccl_error")
                or any(c.kinds.get(k) for k in _OWN_RUN_FAILED + ("nccl_warn", "store_timeout", "tb_cut"))
                or finished(c))


def jit_cache_shared(evs: list) -> bool:
    """Review 104 (2) finding 3 (the lead's ruling): the JIT cache fault reads as the job's shared software (config,
    nobody) only where its cache is shared -- a path off node-local /tmp (~/.triton, /root/.triton, a scratch mount:
    round 104's pytorch-173679) -- or two or more ranks (processes) show it alike. One rank's fault on its node's own
    /tmp/torchinductor_<user> or /tmp cache is that rank's node's: the reading it had before (that rank named, by its
    own text)."""
    jit = [e for e in evs if e.data.get("jit_cache")]
    if any(not R_NODE_LOCAL_DIR.match(e.data["jit_cache"]) for e in jit):
        return True
    return len({e.rank if e.rank is not None else place(e)[0] for e in jit}) >= 2
