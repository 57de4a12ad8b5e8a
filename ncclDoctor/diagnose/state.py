"""Collect stage: fold events into bounded per-rank state.

Memory does not grow with the size of the logs, only with the number of ranks and
process groups: per rank we keep the latest watchdog report per process group, the
first few errors, counters, and a timeline of at most ``TIMELINE_HEAD`` first and
``TIMELINE_TAIL`` last events; per event family, the first ``SAMPLES`` lines as evidence.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from ncclDoctor.diagnose.flight_recorder import DumpSummary
from ncclDoctor.diagnose.signatures import R_FOREIGN_ACCEPT, R_NCCL_PREFIX, R_REM_ALLOC, Event

TIMELINE_HEAD = 8
TIMELINE_TAIL = 12
SAMPLES = 5
MAX_ERRORS = 6
MAX_RANKS = 1 << 16  # ranks beyond this are counted, not tracked

# Families that are a rank's own failure (as opposed to a victim's timeout).
ERROR_KINDS = ("nccl_error", "ib_completion", "socket_error", "gloo_error", "store_timeout", "heartbeat",
               "dataloader", "cuda_oom", "host_mem", "child_failed", "nccl_warn", "exception", "cuda_error",
               "shm_error")
MAX_KEYS = 64
# Families that show nothing failing: set-up chatter, settings, harmless warnings (lead rules K, L, N)
QUIET_KINDS = ("benign", "transport", "setting", "setup", "run_start", "setup_net", "setup_net_ib", "setup_shm",
               "setup_p2p",
               "run_header", "agent_frame", "tcp_init", "store_host", "rank0_proc", "driver_step", "launch_procs",
               "gpus_shown", "launch_tasks", "world_call", "coll_trace", "host_rss", "old_c10d", "engine_rpc",
               "rank_announce", "tb_cut", "tb_open", "cf_listed_cut", "pyspy_thread", "pyspy_abort", "exchange_frame",
               "rng_sync_frame", "funcol_done", "group_failed", "coll_print", "env_rank_twice", "link_local_role",
               "step_took", "rpc_remote_exc", "env_rank0_host", "slurm_gpus_tasks", "group_prints", "recv_print",
               "recv_garbage", "rank_sentinel", "rank_shapes", "local_banner", "test_harness", "feed_pipe_end")
# a job's own prints kept one event per file, each file's (Collected.job_prints; parse._group_print, _rank_print,
# _rank_shape_print)
JOB_PRINTS = ("group_prints", "rank_sentinel", "rank_shapes")
# an IP-over-InfiniBand interface (ib0, ib1, ib4): the host has an InfiniBand HCA
_IPOIB = re.compile(r"ib\d+$")
TESTS_WORLD = "nccl-tests' device list (highest rank + 1)"


def keeps_status(old: Event | None, new: Event) -> bool:
    """Whether a later status line of a group replaces the one kept: a watchdog status line
    (it names the stuck SeqNum) is not replaced by a dump-signal line (no SeqNum) that says less."""
    return old is None or new.seq is not None or old.seq is None


@dataclass
class RankState:
    rank: int
    hosts: dict[str, None] = field(default_factory=dict)  # ordered: the first 4 seen, whatever the hash seed
    files: dict[str, None] = field(default_factory=dict)  # ordered, first 8
    counts: Counter = field(default_factory=Counter)
    timeouts: dict[str, Event] = field(default_factory=dict)  # pg -> highest SeqNum timed out
    status: dict[str, Event] = field(default_factory=dict)  # pg -> last watchdog status line
    errors: list[Event] = field(default_factory=list)
    fr: DumpSummary | None = None
    fr_where: str | None = None
    head: list[Event] = field(default_factory=list)
    tail: deque = field(default_factory=lambda: deque(maxlen=TIMELINE_TAIL))
    first_ts: float | None = None
    last_ts: float | None = None

    def timeline(self) -> list[Event]:
        return self.head + [e for e in self.tail if e not in self.head]

    def merge(self, o: RankState) -> None:
        """Fold in the state of a later file, as if its events had come after ours."""
        for h in o.hosts:
            if len(self.hosts) < 4:
                self.hosts.setdefault(h)
        for f in o.files:
            if len(self.files) < 8:
                self.files.setdefault(f)
        self.counts.update(o.counts)
        for pg, t in o.timeouts.items():
            old = self.timeouts.get(pg)
            if old is None or (t.seq or -1) > (old.seq or -1):
                self.timeouts[pg] = t
        for pg, s in o.status.items():
            if keeps_status(self.status.get(pg), s):
                self.status[pg] = s
        self.errors = (self.errors + o.errors)[:MAX_ERRORS]
        if o.fr is not None:
            self.fr, self.fr_where = o.fr, o.fr_where
        both = self.timeline() + o.timeline()
        self.head, self.tail = both[:TIMELINE_HEAD], deque(both[TIMELINE_HEAD:], maxlen=TIMELINE_TAIL)
        self.first_ts = min((t for t in (self.first_ts, o.first_ts) if t is not None), default=None)
        self.last_ts = max((t for t in (self.last_ts, o.last_ts) if t is not None), default=None)


def _last_line(lines: dict[str, int], where: str) -> None:
    """Keep, per file (the first MAX_KEYS files), the highest line number of an event's ``path:line``."""
    path, _, line = where.rpartition(":")
    if line.isdigit():
        _keep_last(lines, path, int(line))


def _keep_last(lines: dict[str, int], path: str, line: int) -> None:
    if path in lines or len(lines) < MAX_KEYS:
        lines[path] = max(lines.get(path, 0), line)


@dataclass
class Collected:
    ranks: dict[int, RankState] = field(default_factory=dict)
    kinds: Counter = field(default_factory=Counter)
    samples: dict[str, list[Event]] = field(default_factory=dict)
    kind_ranks: dict[str, set[int]] = field(default_factory=dict)
    unranked: Counter = field(default_factory=Counter)
    world: list[tuple[int, str]] = field(default_factory=list)  # (size, where it was seen)
    settings: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> value -> where
    networks: dict[str, str] = field(default_factory=dict)  # "IB"/"Socket" (also "no_ib", "gdr_off") -> first where
    child_failures: list[Event] = field(default_factory=list)
    worker_failures: list[Event] = field(default_factory=list)
    prior_findings: list[dict[str, Any]] = field(default_factory=list)
    torch_timeout_ms: int | None = None
    dropped_ranks: int = 0
    retcodes: Counter = field(default_factory=Counter)  # (file, NCCL return code) -> lines
    late_retcodes: Counter = field(default_factory=Counter)  # those lines printed after a watchdog timeout of their log
    # the first return-code trail lines in the order read (first 8): whose code came out first (lead rule AQ (1))
    retcode_heads: list[Event] = field(default_factory=list)
    # the source files each process's return-code trail names ((host, pid) -> files; first 256 processes, 32 files
    # each), however long the trail and whatever else came first: verdict.cuda._launch_only (review 98 finding 4)
    trail_files: dict[tuple[str | None, int | None], set[str]] = field(default_factory=dict)
    interfaces: dict[str, str] = field(default_factory=dict)  # interface -> address, from Bootstrap/NET lines
    used_ifaces: set[str] = field(default_factory=set)  # those NCCL uses: a Bootstrap line's first, a NET line's all
    ipoib_hosts: set[str] = field(default_factory=set)  # hosts whose NET/Socket runs over IPoIB (ib0, ib1: first 16)
    iface_hosts: dict[str, set[str]] = field(default_factory=dict)  # an address NCCL uses -> the hosts using it
    files_ranks: dict[str, set[int]] = field(default_factory=dict)  # log file -> ranks its lines name (first 64 files)
    fr_analysis: list[Event] = field(default_factory=list)  # torch fr_trace analyzer verdict blocks (first 32)
    # traceback last lines ("RuntimeError: ..."), kept apart from the families: quoted for a rank
    # torchrun names as failed, never counted as a rank's error (a victim's traceback ends in one too)
    exceptions: list[Event] = field(default_factory=list)
    # a job's own prints of a tensor's shape, by label ("gathered_logits" -> ["4,906,32020", ...]; 16 labels of 32
    # prints, in the order read): verdict.desync._gathered_shapes
    shape_prints: dict[str, list[tuple[str, tuple]]] = field(default_factory=dict)  # label -> (size, (tag, file))
    # a test's print of a collective's result per rank (readers.exits' "collective result print"): op -> rank -> the
    # first value that rank printed (first 8 ops, 4096 ranks each), every rank's, not SAMPLES' first five
    # (verdict.noise._collective_results; round 108's nersc-416584)
    coll_results: dict[str, dict[int, str]] = field(default_factory=dict)
    # a job's own prints read per file (JOB_PRINTS: its subgroup prints at a barrier, its rank / world size prints, its
    # shape prints naming their rank),
    # by kind, one event per file (first 64 files): every process's own log counts, not a sample of five
    job_prints: dict[str, list[Event]] = field(default_factory=dict)
    # lines that announce a failure in words no family reads (generic.py, first 16): read only when nothing else
    # explains the lines, never counted as a kind
    unread: list[Event] = field(default_factory=list)
    # per file, the line of its last such line or line announcing an error (an exception's ``line``), of its last
    # traceback's own exception, and of its last nccl-tests completion (run_done): an error printed before a run
    # completed did not stop it (verdict.noise.unread_before_done)
    last_unread: dict[str, int] = field(default_factory=dict)
    last_raised: dict[str, int] = field(default_factory=dict)
    last_done: dict[str, int] = field(default_factory=dict)
    # the hosts NCCL's set-up chatter and an nccl-tests device list come from (first 8): one host, one node
    setup_hosts: set[str] = field(default_factory=set)
    # the most nodes an NCCL communicator line says it spans ("comm 0x.. rank 0 nRanks 24 nNodes 3 ..."): one host's
    # set-up lines of a job across several nodes (round 109's nccl-1453)
    comm_nodes: int = 0
    # the processes and devices (host, pid, CUDA device) NCCL-prefixed lines come from (first 8)
    procs: set[tuple[str | None, int, int | None]] = field(default_factory=set)
    # an 'NCCL INFO' line was read, whether or not a family made an event of it (topology detection, KV Convert...)
    nccl_info: bool = False
    # NCCL's own "NCCL INFO NCCL version 2.4.8+cuda10.1" lines (first 8): the version an NCCL_DEBUG=INFO run shows,
    # which conclude._removed_later reads beside the bare "NCCL version" lines (review a of round 109, finding 7)
    info_versions: list[str] = field(default_factory=list)
    # (communicator size, rank) of each communicator NCCL destroyed cleanly ("... - Destroy COMPLETE", first 64), and
    # whether a job's own log line prints a value as NCCL_TIMEOUT with a unit (S.R_JOB_NCCL_TIMEOUT: lead rule CJ (2))
    destroyed: set[tuple[int, int]] = field(default_factory=set)
    job_nccl_timeout: bool = False
    # an 'NCCL INFO NVLS ...' line was read (NVLink SHARP's set-up: multicast support, buffer binding, its comm)
    nvls_info: bool = False
    # NCCL INFO set-up notes no family reads, named in a "none" fix (ingest._info_notes): "ofi", "ofi_gdr_off",
    # "dmabuf_probe"
    info_notes: set[str] = field(default_factory=set)
    # a frame of accelerate launch's own launcher (accelerate/commands/launch.py) was read: the job was launched by it
    accel_launch: bool = False
    # a line names accelerate (its package's frames, `accelerate launch`): parse's ``accel_seen``
    accel_seen: bool = False
    # torchrun's record titled with accelerate test's own script (accelerate/test_utils/scripts/test_script.py) was read
    accel_test: bool = False
    # accelerate's start-up advisory that the host's kernel is below its minimum: (version, minimum), the first read
    # (parse's kernel_old; verdict._kernel_fix)
    kernel_old: tuple[str, str] | None = None
    # torch's store-based barrier per key (first 16 keys): the ranks its "Added key ... for rank: R" lines checked in
    # (first 256), the count its "Completed ... with N nodes" line says, and those lines' events (first 4)
    barriers: dict[str, tuple[set[int], list[int], list[Event]]] = field(default_factory=dict)
    # DeepEP's barrier_block dump (signatures.R_DEEPEP_SLOT): per waiting rank (first 64), each peer's barrier slot
    # (first 1024 peers; the lowest value printed: positive only while every line of it shows the peer owing), and the
    # first 4 lines that show a slot owed
    barrier_slots: dict[int, dict[int, int]] = field(default_factory=dict)
    slot_evs: list[Event] = field(default_factory=list)
    # Paddle's launcher waiting for its peers' endpoints, per file (first 8): the endpoints its LAST "not ready
    # endpoints:[...]" still lists, how many waits in a row listed every one of them, and that last line's event
    peer_waits: dict[str, tuple[tuple[str, ...], int, Event]] = field(default_factory=dict)

    def _peer_wait(self, ev: Event) -> None:
        path = ev.where.rpartition(":")[0]
        if path not in self.peer_waits and len(self.peer_waits) >= 8:
            return
        now = tuple(ev.data.get("endpoints") or ())
        last = self.peer_waits.get(path)
        # the endpoints still not ready stay the same (or a subset of the last wait's): one wait more in a row
        runs = last[1] + 1 if last and set(now) <= set(last[0]) else 1
        self.peer_waits[path] = (now, runs, ev)

    def rank(self, r: int) -> RankState | None:
        st = self.ranks.get(r)
        if st is None:
            if len(self.ranks) >= MAX_RANKS:
                self.dropped_ranks += 1
                return None
            st = self.ranks[r] = RankState(r)
        return st

    def see_file(self, rank: int | None, path: str) -> None:
        if rank is not None and (st := self.rank(rank)) is not None and len(st.files) < 8:
            st.files.setdefault(path)

    def add(self, ev: Event) -> None:
        if ev.kind == "traceback_tail":
            if len(self.exceptions) < 256:
                self.exceptions.append(ev)
            _last_line(self.last_unread if ev.data.get("line") else self.last_raised, ev.where)
            return
        if ev.kind == "unread":
            if len(self.unread) < 16:
                self.unread.append(ev)
            _last_line(self.last_unread, ev.where)
            return
        if ev.kind == "run_done":
            _last_line(self.last_done, ev.where)
        if ev.data.get("destroyed") and len(self.destroyed) < 64:
            self.destroyed.add((ev.data["nranks"], ev.data["comm_rank"]))
        self.kinds[ev.kind] += 1
        if ev.data.get("barrier"):
            self._barrier(*ev.data["barrier"], ev)
        if ev.data.get("barrier_slot"):
            self._slot(*ev.data["barrier_slot"], ev)
        if ev.pid is not None and len(self.procs) < 8:
            self.procs.add((ev.host, ev.pid, ev.data.get("dev")))
        s = self.samples.setdefault(ev.kind, [])
        if len(s) < SAMPLES:
            s.append(ev)
        for tag in ev.data.get("tags", ()):  # a line of a wider family also counted as a narrower one of its own
            self.kinds[tag] += 1
            t = self.samples.setdefault(tag, [])
            if len(t) < SAMPLES:
                t.append(ev)
        if ev.kind in JOB_PRINTS and len(got := self.job_prints.setdefault(ev.kind, [])) < 64:
            got.append(ev)
        if ev.data.get("what") == "collective result print":
            self._coll_result(ev.data["op"], ev.data["printed_by"], ev.data["value"])
        if ev.kind == "coll_print" and ev.data.get("shape"):
            label, size, src = ev.data["shape"]
            if label.lower() in self.shape_prints or len(self.shape_prints) < 16:
                got = self.shape_prints.setdefault(label.lower(), [])
                if len(got) < 32:
                    got.append((size, src))
        if ev.kind == "transport":
            self._transport(ev)
        elif ev.kind in ("setup", "run_start"):
            host = ev.host or ev.data.get("host")
            if host and len(self.setup_hosts) < 8:
                self.setup_hosts.add(host)
            self.comm_nodes = max(self.comm_nodes, ev.data.get("comm_nodes") or 0)
            if ev.data.get("net"):
                self.kinds["setup_net"] += 1
                if ev.data.get("net_ib"):  # a channel over NCCL's IB/RoCE transport (NET/IB, a plugin's NET/IBext)
                    self.kinds["setup_net_ib"] += 1
            elif ev.data.get("shm"):
                self.kinds["setup_shm"] += 1
            elif ev.data.get("p2p"):  # a channel over NCCL's P2P transport: GPUs of one host
                self.kinds["setup_p2p"] += 1
            if ev.data.get("tests_rank") is not None:
                self._tests_world(ev.data["tests_rank"] + 1, ev.where)
            elif ev.kind == "run_start":  # nccl-tests' table header: its communicators were set up
                self.kinds["run_header"] += 1
        elif ev.kind == "setting":
            for name, value in ev.data.get("settings", []):
                self._setting(name, value, ev.brief())
            if ev.data.get("world") and len(self.world) < 64:  # torchrun's global_world_sizes
                self.world.append((ev.data["world"], f"torchrun's global_world_sizes at {ev.where}"))
        elif ev.kind == "peer_wait":
            self._peer_wait(ev)
        elif ev.kind == "child_failed" and len(self.child_failures) < 256:
            self.child_failures.append(ev)
            if ev.data.get("world") and len(self.world) < 64:  # a launcher's record that states the job's size
                self.world.append((ev.data["world"], f"the launcher's record at {ev.where}"))
        elif ev.kind == "worker_failed" and len(self.worker_failures) < 256:
            self.worker_failures.append(ev)
        if ev.kind in ("watchdog_status", "dump_signal") and ev.data.get("dump_from") not in (None, ev.rank):
            # "a collective timeout from rank 7": rank 7's watchdog fired, so it was inside a collective
            st7 = self.rank(ev.data["dump_from"])
            if st7 is not None:
                st7.counts["watchdog_report"] += 1
        if ev.rank is None:
            self.unranked[ev.kind] += 1
            return
        self.kind_ranks.setdefault(ev.kind, set()).add(ev.rank)
        path = ev.where.rsplit(":", 1)[0]
        if path in self.files_ranks or len(self.files_ranks) < MAX_KEYS:
            rs = self.files_ranks.setdefault(path, set())
            if len(rs) < 4:
                rs.add(ev.rank)
        st = self.rank(ev.rank)
        if st is None:
            return
        self._per_rank(st, ev)

    def _per_rank(self, st: RankState, ev: Event) -> None:
        st.counts[ev.kind] += 1
        if ev.kind == "transport" and ev.data.get("aborted"):
            st.counts["comm_aborted"] += 1  # NCCL's "comm .. rank N nranks M ... - Abort COMPLETE"
        if len(st.files) < 8:
            st.files.setdefault(ev.where.rsplit(":", 1)[0])
        if ev.host and len(st.hosts) < 4:
            st.hosts.setdefault(ev.host)
        if ev.ts is not None:
            st.first_ts = ev.ts if st.first_ts is None else min(st.first_ts, ev.ts)
            st.last_ts = ev.ts if st.last_ts is None else max(st.last_ts, ev.ts)
        pg = ev.pg or ("?" if ev.kind == "watchdog_timeout" else "0")
        if ev.kind == "watchdog_timeout":
            old = st.timeouts.get(pg)
            if old is None or (ev.seq or -1) > (old.seq or -1):
                st.timeouts[pg] = ev
        elif ev.kind == "watchdog_status":
            old = st.status.get(pg)
            # this rank's own dump signal "due to a collective timeout from this local rank": its watchdog's failure
            # at a work of that group was a timeout (torch 2.4+'s "failure detected ..." does not say which)
            mine = [e for e in (old, ev) if e is not None and e.seq is None and e.data.get("dump_from") == st.rank]
            if keeps_status(old, ev):
                st.status[pg] = ev
            if mine and st.status[pg].seq is not None:
                st.status[pg].data["own_timeout"] = True
        elif ev.kind in ERROR_KINDS and len(st.errors) < MAX_ERRORS:
            st.errors.append(ev)
        if ev.kind != "transport" or ev.data.get("network") or ev.data.get("no_ib"):
            if len(st.head) < TIMELINE_HEAD:
                st.head.append(ev)
            else:
                st.tail.append(ev)

    def _trail_file(self, proc: tuple[str | None, int | None], files: set[str]) -> None:
        have = self.trail_files.get(proc)
        if have is None:
            if len(self.trail_files) >= 256:
                return
            have = self.trail_files[proc] = set()
        have.update(sorted(files)[: max(32 - len(have), 0)])

    def _transport(self, ev: Event) -> None:
        d = ev.data
        if d.get("network"):
            self.networks.setdefault(d["network"], ev.brief())
            if d.get("using"):
                self.networks.setdefault(d["network"] + "_using", d["using"])
        if d.get("no_ib"):
            self.networks.setdefault("no_ib", ev.brief())
        if d.get("gdr_off"):
            self.networks.setdefault("gdr_off", ev.brief())
        if d.get("setting"):
            self._setting(*d["setting"], ev.brief())
        if d.get("retcode") and (d["retcode"] in self.retcodes or len(self.retcodes) < MAX_KEYS):
            self.retcodes[d["retcode"]] += 1
            if d.get("after_timeout"):
                self.late_retcodes[d["retcode"]] += 1
        if d.get("retcode") and len(self.retcode_heads) < 8:
            self.retcode_heads.append(ev)
        if d.get("retcode"):
            self._trail_file((ev.host, ev.pid), {d["retcode"][0]})
        if (d.get("network") == "Socket" and ev.host and len(self.ipoib_hosts) < 16
                and any(_IPOIB.match(name) for name, _ in d.get("interfaces", []))):
            self.ipoib_hosts.add(ev.host)
        for name, _ in d.get("interfaces", [])[: 1 if d.get("bootstrap_ifaces") else 16]:
            if len(self.used_ifaces) < 32:
                self.used_ifaces.add(name)
        for name, addr in d.get("interfaces", []):
            if len(self.interfaces) < 16:
                self.interfaces.setdefault(name, addr)
            if ev.host and (addr in self.iface_hosts or len(self.iface_hosts) < 16):
                hs = self.iface_hosts.setdefault(addr, set())
                if len(hs) < 4:
                    hs.add(ev.host)
        if d.get("setup_done"):
            self.kinds["setup_done"] += 1
        if d.get("nranks") and len(self.world) < 64:
            self.world.append((int(d["nranks"]), f"NCCL's 'nranks' at {ev.where}"))

    def _tests_world(self, n: int, where: str) -> None:
        """nccl-tests' device list ("#  Rank  3 Group  0 Pid ... on host device 3"), which rank 0 prints for every
        process: one entry of the world, raised to the highest rank listed + 1 (not one entry per line)."""
        i = next((i for i, (_, w) in enumerate(self.world) if w.startswith(TESTS_WORLD)), None)
        if i is None and len(self.world) < 64:
            self.world.append((n, f"{TESTS_WORLD} at {where}"))
        elif i is not None and n > self.world[i][0]:
            self.world[i] = (n, f"{TESTS_WORLD} at {where}")

    def _barrier(self, key: str, rank: int | None, nodes: int | None, ev: Event | None) -> None:
        if key not in self.barriers and len(self.barriers) >= 16:
            return
        ranks, counts, evs = self.barriers.setdefault(key, (set(), [], []))
        if rank is not None and len(ranks) < 256:
            ranks.add(rank)
        if nodes is not None and nodes not in counts and len(counts) < 4:
            counts.append(nodes)
        if ev is not None and len(evs) < 4:
            evs.append(ev)

    def _slot(self, rank: int, peer: int, value: int, ev: Event | None) -> None:
        if rank in self.barrier_slots or len(self.barrier_slots) < 64:
            slots = self.barrier_slots.setdefault(rank, {})
            if peer in slots or len(slots) < 1024:
                slots[peer] = min(value, slots.get(peer, value))
        if ev is not None and value > 0 and len(self.slot_evs) < 4:
            self.slot_evs.append(ev)

    def barrier_overcount(self) -> tuple[int, int, list[Event]] | None:
        """Lead rule R read off torch's own store-barrier lines: more distinct ranks checked in to a key's barrier
        than the count it completed with -- (joined, world size, evidence) -- else None. Only when one count is shown
        for the key. Not a rank number past the count: a subgroup's barrier (use_local_synchronization) counts its
        members while its lines name their global ranks."""
        for ranks, counts, evs in self.barriers.values():
            if len(counts) == 1 and len(ranks) > counts[0]:
                return len(ranks), counts[0], evs
        return None

    def add_fr_analysis(self, ev: Event) -> None:
        self.kinds[ev.kind] += 1
        if len(self.fr_analysis) < 32:
            self.fr_analysis.append(ev)

    def _setting(self, name: str, value: str, where: str) -> None:
        if name in self.settings or len(self.settings) < 200:
            vals = self.settings.setdefault(name, {})
            if len(vals) < 8:
                vals.setdefault(value, where)

    def add_dump(self, rank: int, dump: DumpSummary, where: str) -> None:
        st = self.rank(rank)
        if st is None:
            return
        st.fr, st.fr_where = dump, where
        self.kinds["fr_dump"] += 1
        for members in dump.pg_ranks.values():
            if members and len(self.world) < 64:
                self.world.append((max(members) + 1, f"Flight Recorder pg_config ranks in {where}"))

    def _coll_result(self, op: str, rank: int, value: str) -> None:
        if op in self.coll_results or len(self.coll_results) < 8:
            got = self.coll_results.setdefault(op, {})
            if rank in got or len(got) < 4096:
                got.setdefault(rank, value)

    def merge(self, o: Collected) -> None:
        """Fold in what another process collected from later inputs (parallel ingest):
        the result equals reading those inputs after ours in one process."""
        for r, st in o.ranks.items():
            mine = self.rank(r)
            if mine is not None:
                mine.merge(st)
        self.kinds.update(o.kinds)
        for k, evs in o.samples.items():
            self.samples[k] = (self.samples.get(k, []) + evs)[:SAMPLES]
        for k, rs in o.kind_ranks.items():
            self.kind_ranks.setdefault(k, set()).update(rs)
        self.unranked.update(o.unranked)
        self.world = (self.world + o.world)[:64]
        for name, vals in o.settings.items():
            mine = self.settings.setdefault(name, {})
            for v, where in vals.items():
                if len(mine) < 8:
                    mine.setdefault(v, where)
        for k, v in o.networks.items():
            self.networks.setdefault(k, v)
        for label, sizes in o.shape_prints.items():
            if label in self.shape_prints or len(self.shape_prints) < 16:
                got = self.shape_prints.setdefault(label, [])
                got.extend(sizes[:32 - len(got)])
        for op, by in o.coll_results.items():
            for rank, value in by.items():
                self._coll_result(op, rank, value)
        for k, evs in o.job_prints.items():
            self.job_prints[k] = (self.job_prints.get(k, []) + evs)[:64]
        for key, (ranks, counts, evs) in o.barriers.items():
            for r in sorted(ranks):
                self._barrier(key, r, None, None)
            for n in counts:
                self._barrier(key, None, n, None)
            for e in evs:
                self._barrier(key, None, None, e)
        for rank, slots in o.barrier_slots.items():
            for peer, value in slots.items():
                self._slot(rank, peer, value, None)
        for e in o.slot_evs:
            self._slot(*e.data["barrier_slot"], e)
        for path, (now, runs, ev) in o.peer_waits.items():  # a later part of a file: its last wait is the last
            last = self.peer_waits.get(path)
            if last is not None or len(self.peer_waits) < 8:
                more = last[1] if last and set(now) <= set(last[0]) and runs else 0
                self.peer_waits[path] = (now, runs + more, ev)
        self.child_failures = (self.child_failures + o.child_failures)[:256]
        self.worker_failures = (self.worker_failures + o.worker_failures)[:256]
        self.prior_findings = (self.prior_findings + o.prior_findings)[:50]
        self.dropped_ranks += o.dropped_ranks
        for k, n in o.retcodes.items():
            if k in self.retcodes or len(self.retcodes) < MAX_KEYS:
                self.retcodes[k] += n
                self.late_retcodes[k] += o.late_retcodes.get(k, 0)
        self.retcode_heads = (self.retcode_heads + o.retcode_heads)[:8]
        for proc, files in o.trail_files.items():
            self._trail_file(proc, files)
        self.fr_analysis = (self.fr_analysis + o.fr_analysis)[:32]
        self.exceptions = (self.exceptions + o.exceptions)[:256]
        self.unread = (self.unread + o.unread)[:16]
        for mine, theirs in ((self.last_unread, o.last_unread), (self.last_raised, o.last_raised),
                             (self.last_done, o.last_done)):
            for path, line in theirs.items():
                _keep_last(mine, path, line)
        self.setup_hosts.update(sorted(o.setup_hosts)[: max(8 - len(self.setup_hosts), 0)])
        self.procs.update(sorted(o.procs, key=str)[: max(8 - len(self.procs), 0)])
        self.nccl_info = self.nccl_info or o.nccl_info
        self.info_versions = (self.info_versions + o.info_versions)[:8]
        self.destroyed.update(sorted(o.destroyed)[: max(64 - len(self.destroyed), 0)])
        self.job_nccl_timeout = self.job_nccl_timeout or o.job_nccl_timeout
        self.nvls_info = self.nvls_info or o.nvls_info
        self.comm_nodes = max(self.comm_nodes, o.comm_nodes)
        self.info_notes |= o.info_notes
        self.accel_launch = self.accel_launch or o.accel_launch
        self.accel_seen = self.accel_seen or o.accel_seen
        self.accel_test = self.accel_test or o.accel_test
        self.kernel_old = self.kernel_old or o.kernel_old
        for k, v in o.interfaces.items():
            if len(self.interfaces) < 16:
                self.interfaces.setdefault(k, v)
        self.used_ifaces.update(sorted(o.used_ifaces)[: max(32 - len(self.used_ifaces), 0)])
        self.ipoib_hosts.update(sorted(o.ipoib_hosts)[: max(16 - len(self.ipoib_hosts), 0)])
        for a, hs in o.iface_hosts.items():
            if a in self.iface_hosts or len(self.iface_hosts) < 16:
                self.iface_hosts.setdefault(a, set()).update(list(hs)[:4])
        for k, rs in o.files_ranks.items():
            if k in self.files_ranks or len(self.files_ranks) < MAX_KEYS:
                self.files_ranks.setdefault(k, set()).update(list(rs)[:4])

    def finalize(self) -> None:
        """Give timeout lines without a process group (torch <= 2.4 prints ``[Rank 0]
        Watchdog caught ...`` but ``[PG 1 Rank 0] Exception ... at work: N``) the group
        of the same rank's status line with the same SeqNum, or the rank's only group
        (its status lines or Flight Recorder dump name one). Otherwise they stay in the
        group "?" (untagged): SeqNums are per process group, so untagged lines of
        different ranks are never compared as one group's progress (see reason.hang)."""
        for st in self.ranks.values():
            t = st.timeouts.get("?")
            pgs = [pg for pg, s in st.status.items() if t is not None and s.seq == t.seq]
            own = set(st.status) | set(st.fr.pgs if st.fr else ())
            if t is not None and not pgs and len(own) == 1:
                pgs = list(own)  # the rank's only process group
            if t is None or not pgs:
                continue
            del st.timeouts["?"]
            old = st.timeouts.get(pgs[0])
            if old is None or (t.seq or -1) > (old.seq or -1):
                st.timeouts[pgs[0]] = t
        ms = [e.data.get("timeout_ms") for e in self.samples.get("watchdog_timeout", []) if e.data.get("timeout_ms")]
        self.torch_timeout_ms = max(ms) if ms else None
        self._error_file_alone()
        self._store_warnings_alone()
        self._foreign_accepts_alone()
        self._keepalive_alone()
        self._bind_retried_alone()
        self._barrier_passed()

    def _error_file_alone(self) -> None:
        """Lead rule BT (1): torchelastic's error handler copying the first failure's error file names that worker
        only where no other record of the failure is read -- beside the agent's own record ('failed (exitcode: N)
        local_rank: K', the ChildFailedError table) it is the same failure again, which that record tells whole."""
        copies = [e for e in self.worker_failures if e.data.get("error_file_copy")]
        if copies and len(copies) < len(self.child_failures) + len(self.worker_failures):
            self.worker_failures = [e for e in self.worker_failures if not e.data.get("error_file_copy")]
            self.kinds["worker_failed"] -= len(copies)
            self.samples["worker_failed"] = [e for e in self.samples.get("worker_failed", [])
                                             if not e.data.get("error_file_copy")]

    def _store_warnings_alone(self) -> None:
        """Lead rule N: when every socket error is a rank's c10d [W] TCPStore client warning (parse tags it: the
        heartbeat monitor's "should dump" check, recvValue/sendBytes cut by "Connection reset by peer" / "Broken
        pipe") and nothing else fails -- no timeout, error, exception or failure record -- the store's host (rank
        0's process) exited first at the end of a job: the warnings are benign, read as such from here on. A rank's
        exit-time warning that destroy_process_group() was not called says the same: a process reached its end and
        exited (round 63's falcon-12: rank 0 warns, then rank 1's recv from its store gets 0 bytes)."""
        n = self.kinds.get("socket_error", 0)
        if not n or self.kinds.get("store_warning", 0) != n or self.exceptions:
            return
        if any(k not in QUIET_KINDS for k, v in self.kinds.items()
               if v and k not in ("socket_error", "store_warning", "pg_not_destroyed")):
            return
        self._to_benign("socket_error", "store warning alone")

    def _foreign_accepts_alone(self) -> None:
        """Lead rule AD (3): NCCL's listening socket refusing a connection from outside the job -- the thread that
        prints "socketFinalizeAccept: wrong magic" or the proxy's "[Service thread] Accept failed Success" (errno 0:
        accept(2) worked, the handshake did not) is the one whose socket error ("Connection closed by remote peer",
        reset) was the foreign peer leaving during NCCL's accept handshake. The bootstrap's remote-allocator thread
        ("[Rem Allocator] Allocation failed") is such a thread too where its connection from outside is shown (that
        thread's "Connection closed by remote peer"): the garbage size the foreign peer sent it is the "Cuda failure
        'out of memory'" it prints. When every socket error and GPU OOM is such a thread's and nothing
        else fails (no timeout, error, exception or failure record), no connection of the job broke and the job's
        memory did not run out: the errors are benign, read as such from here on."""
        def thread(ev: Event) -> tuple[str, str, str] | None:
            m = R_NCCL_PREFIX.search(ev.text)
            return (m.group("host"), m.group("pid"), m.group("tid")) if m else None

        kinds = ("socket_error", "cuda_oom")
        evs = [e for k in kinds for e in self.samples.get(k, [])]
        if not evs or self.exceptions or any(len(self.samples.get(k, [])) != self.kinds.get(k, 0) for k in kinds):
            return
        if any(k not in QUIET_KINDS for k, v in self.kinds.items() if v and k not in kinds + ("nccl_warn",)):
            return
        warns = self.samples.get("nccl_warn", [])
        refusing = {t for e in warns if R_FOREIGN_ACCEPT.search(e.text) and (t := thread(e))}
        # the remote allocator serves its job's own peers too: its garbage size is a foreign request only where the
        # lines show that thread's connection from outside (its peer's "Connection closed by remote peer"); alone,
        # its "Cuda failure 'out of memory'" is an allocation for the job that failed (lead rules AD (3), AN (2):
        # round 79's MLOpsPython-416, where nothing but the allocator's failures is pasted)
        closed = {t for e in self.samples.get("socket_error", []) if (t := thread(e))}
        refusing |= {t for e in warns if R_REM_ALLOC.search(e.text) and (t := thread(e)) in closed}
        if refusing and all(thread(e) in refusing for e in evs):
            for k in kinds:
                if self.kinds.get(k):
                    self._to_benign(k, "foreign connection refused")
            # the return-code trail of the socket and bootstrap layers is that thread's own unwinding of the refused
            # request ("bootstrap.cc:229 -> 2"), not a connection of the job failing (verdict.network reads it so)
            for key in [k for k in self.retcodes if k[0].startswith(("socket.", "bootstrap.", "proxy."))]:
                del self.retcodes[key]

    def _keepalive_alone(self) -> None:
        """Lead rule N (session 9): torchrun's agent's "has failed to send a keep-alive heartbeat to the rendezvous
        ... RendezvousConnectionError" warnings (parse tags them), one or several, with nothing failing after them
        (no rendezvous timeout or closed rendezvous, no error, exception or failure record): the store's host went
        away first at the end of a job, as rule N reads the ranks' TCPStore warnings -- benign from here on."""
        n = self.kinds.get("store_timeout", 0)
        if not n or self.kinds.get("keepalive_warning", 0) != n or self.exceptions:
            return
        if any(k not in QUIET_KINDS for k, v in self.kinds.items() if v and k not in ("store_timeout",
                                                                                      "keepalive_warning")):
            return
        self._to_benign("store_timeout", "rendezvous keep-alive warning alone")

    def _bind_retried_alone(self) -> None:
        """Lead rule BY (1) (round 95's colossalai-3595): every store event is c10d's logged bind failure of its
        server socket (errno 98 on its port, "failed to listen on any local network address") that the job's own lines
        follow (parse._bind_went_on: ``bind_retried``), and nothing else fails -- no exception, failure record, other
        store error or unread failure line: torchrun's c10d rendezvous backend fell back to a client of the store
        already on that port, and the workers ran -- benign from here on (rules K, L, N, BM (2)). Lines that end at
        the bind failure, or a failure after it, keep rule AN (2)'s store_rendezvous."""
        evs = self.samples.get("store_timeout", [])
        if not evs or len(evs) != self.kinds.get("store_timeout", 0) or self.exceptions or self.unread:
            return
        if not all(e.data.get("bind_retried") for e in evs) or any(
                k not in QUIET_KINDS for k, v in self.kinds.items() if v and k != "store_timeout"):
            return
        self._to_benign("store_timeout", "c10d bind retried as client")

    def _barrier_passed(self) -> None:
        """torch's store-based barrier logged its waits and then "Completed store-based barrier": every rank came in
        the end, so the waits it logged on the way (parse: ``barrier_wait``) are no failure."""
        evs = self.samples.get("store_timeout", [])
        if evs and all(e.data.get("barrier_wait") for e in evs) and any(
                e.data.get("what") == "store barrier completed" for e in self.samples.get("benign", [])):
            self._to_benign("store_timeout", "store barrier wait passed")

    def _to_benign(self, kind: str, what: str) -> None:
        """Read every event of ``kind`` as benign from here on (counts, samples, ranks)."""
        def quiet(ev: Event) -> None:
            ev.kind = "benign"
            ev.data["what"] = what

        for ev in self.samples.pop(kind, []):
            quiet(ev)
            s = self.samples.setdefault("benign", [])
            if len(s) < SAMPLES:
                s.append(ev)
        self.kinds["benign"] += self.kinds.pop(kind)
        self.unranked["benign"] += self.unranked.pop(kind, 0)
        ranks = self.kind_ranks.pop(kind, set())
        self.kind_ranks.setdefault("benign", set()).update(ranks)
        for st in self.ranks.values():
            for ev in st.errors:
                if ev.kind == kind:
                    quiet(ev)
            st.errors = [e for e in st.errors if e.kind != "benign"]
            st.counts["benign"] += st.counts.pop(kind, 0)
