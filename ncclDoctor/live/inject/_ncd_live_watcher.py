"""ncclDoctor's publisher inside one torchrun worker (loaded by ncclDoctor's ``sitecustomize``).

``install()`` runs at interpreter start-up and:

- registers ``faulthandler`` on ``NCD_LIVE_SIGNAL`` (a real-time signal by default, never
  SIGUSR1, which PyTorch Lightning uses) writing every thread's stack to
  ``$NCD_LIVE_DIR/stacks/rank<R>.signal.txt``; ``chain=True`` keeps a handler the job installs;
- with ``NCD_LIVE_TEE=1`` (``run`` sets it when it captures the output): puts ``_ncd_tee`` between
  the worker's fds 1 and 2 and where they pointed, so every byte still goes where it went and is
  also appended to ``$NCD_LIVE_DIR/ranks/rank<R>.log``;
- writes ``$NCD_LIVE_DIR/live/boot.rank<R>.json`` (pid, host, argv) once;
- hooks the import of ``torch.distributed``: right after it, torch's own C++ ``_WorkerServer``
  is started on ``$NCD_LIVE_SOCK_DIR/r<R>.sock`` (it answers ``fr_trace_json`` without the
  GIL, so even a rank stuck in a GIL-holding C call can be read) and a daemon thread starts
  sending, every ``NCD_LIVE_POLL_S`` seconds, one small JSON datagram (UDP) to ncclDoctor's
  collector at ``NCD_LIVE_ADDR``: a heartbeat counter, each process group's Flight Recorder
  ``last_enqueued`` / ``last_completed`` sequence numbers (``pg_status`` only: a few µs, no
  collective of its own), group membership and the main thread's top frames.

torch 2.13: gloo collectives live in the CPU recorder (``_dump_fr_trace_json``), NCCL ones in
the CUDA recorder (``_dump_nccl_trace_json``, CUDA builds only); both are read and merged.
Every step is inside ``try/except``: the job never sees an exception from here.
"""

import json
import os
import socket
import sys
import threading
import time

_STATE = {"fh": None, "server": None, "thread": None, "n": 0}
MAX_DATAGRAM = 60000


def _env_rank() -> int:
    return int(os.environ.get("RANK", "-1"))


def _signal_number():
    import signal

    raw = os.environ.get("NCD_LIVE_SIGNAL", "")
    if raw.isdigit():
        return int(raw)
    if raw:
        return getattr(signal, raw, None)
    return signal.SIGRTMIN + 5


def install() -> None:
    run_dir = os.environ["NCD_LIVE_DIR"]
    rank = _env_rank()
    for step in (_start_tee, _register_faulthandler, _write_boot, _hook_torch_distributed):
        try:
            step(run_dir, rank)
        except Exception:
            pass


def _start_tee(run_dir: str, rank: int) -> None:
    """Per-rank output: fds 1 and 2 become pipes into a separate tee process (``_ncd_tee``) that
    writes each chunk to the original fd and to ``ranks/rank<R>.log``. ``os.posix_spawn``, not
    ``subprocess``: no Popen object whose finaliser could warn into the job. The tee gets no
    ``RANK`` in its environment, so nothing mistakes it for a worker. Any failure leaves fds 1
    and 2 as they were."""
    if os.environ.get("NCD_LIVE_TEE") != "1" or not sys.executable:
        return
    d = os.path.join(run_dir, "ranks")
    os.makedirs(d, exist_ok=True)
    tee = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ncd_tee.py")
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    try:
        os.set_inheritable(r_out, True)
        os.set_inheritable(r_err, True)
        argv = [sys.executable, "-I", "-S", tee, os.path.join(d, f"rank{rank}.log"), str(r_out), str(r_err)]
        os.posix_spawn(sys.executable, argv, {"PATH": os.environ.get("PATH", "")},
                       file_actions=[(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)])
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os.dup2(w_out, 1)
        os.dup2(w_err, 2)
    finally:
        for fd in (r_out, w_out, r_err, w_err):
            os.close(fd)


def _register_faulthandler(run_dir: str, rank: int) -> None:
    import faulthandler
    import signal

    sig = _signal_number()
    if sig is None:
        return
    if signal.getsignal(sig) == signal.SIG_DFL:
        # faulthandler restores the previous disposition when the interpreter finalizes; were that
        # SIG_DFL, a dump signal arriving during exit would kill the rank. SIG_IGN makes it harmless.
        signal.signal(sig, signal.SIG_IGN)
    os.makedirs(os.path.join(run_dir, "stacks"), exist_ok=True)
    fh = open(os.path.join(run_dir, "stacks", f"rank{rank}.signal.txt"), "a")
    faulthandler.register(sig, file=fh, all_threads=True, chain=True)
    _STATE["fh"] = fh


def _write_boot(run_dir: str, rank: int) -> None:
    rec = {
        "rank": rank, "local_rank": int(os.environ.get("LOCAL_RANK", "-1")), "pid": os.getpid(),
        "ppid": os.getppid(), "host": socket.gethostname(), "argv": list(sys.argv), "t": time.time(),
        "world_size": int(os.environ.get("WORLD_SIZE", "0") or 0), "sock": _sock_path(rank),
    }
    d = os.path.join(run_dir, "live")
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".boot.rank{rank}.{os.getpid()}")
    with open(tmp, "w") as fh:
        json.dump(rec, fh)
    os.replace(tmp, os.path.join(d, f"boot.rank{rank}.json"))


def _sock_path(rank: int) -> str:
    d = os.environ.get("NCD_LIVE_SOCK_DIR", "")
    return os.path.join(d, f"r{rank}.sock") if d else ""


class _TorchDistributedHook:
    """A one-shot ``sys.meta_path`` finder: runs ``_on_import`` right after ``torch.distributed`` loads."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch.distributed":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        try:
            import importlib.machinery

            spec = importlib.machinery.PathFinder.find_spec(name, path)
            loader = getattr(spec, "loader", None)
            if loader is None or not hasattr(loader, "exec_module"):
                return spec
            original = loader.exec_module

            def exec_module(module):
                original(module)
                _on_import()

            loader.exec_module = exec_module
            return spec
        except Exception:
            return None


def _hook_torch_distributed(run_dir: str, rank: int) -> None:
    if "torch.distributed" in sys.modules:
        _on_import()
    else:
        sys.meta_path.insert(0, _TorchDistributedHook())


def _on_import() -> None:
    rank = _env_rank()
    if os.environ.get("NCD_LIVE_SERVER", "1") == "1":
        try:
            from torch._C._distributed_c10d import _WorkerServer

            path = _sock_path(rank)
            if path:
                if os.path.exists(path):
                    os.unlink(path)
                _STATE["server"] = _WorkerServer(path)
        except Exception:
            pass
    try:
        import atexit

        atexit.register(_goodbye)
    except Exception:
        pass
    try:
        t = threading.Thread(target=_loop, name="ncd_live_watch", daemon=True)
        t.start()
        _STATE["thread"] = t
    except Exception:
        pass


def _c10d():
    """torch's distributed_c10d once the job has imported it fully and initialised a group; this
    thread never imports anything itself (it may start while ``import torch`` is still running)."""
    mod = sys.modules.get("torch.distributed.distributed_c10d")
    try:
        return mod if mod is not None and mod.is_initialized() else None
    except Exception:
        return None


def _pg_status() -> dict:
    """{pg_id: [last_enqueued, last_completed]} merged from both Flight Recorders."""
    c10d = sys.modules["torch"]._C._distributed_c10d
    out: dict = {}
    for name in ("_dump_fr_trace_json", "_dump_nccl_trace_json"):
        fn = getattr(c10d, name, None)
        if fn is None:
            continue
        try:
            status = json.loads(fn(False, False)).get("pg_status", {})
        except Exception:
            continue
        for pg, v in status.items():
            enq = int(v.get("last_enqueued_collective", -1))
            done = int(v.get("last_completed_collective", -1))
            if pg not in out or enq > out[pg][0]:
                out[pg] = [enq, done]
    return out


def _groups() -> dict:
    """{group name: sorted global ranks} for every process group this rank belongs to."""
    c10d = _c10d()
    if c10d is None:
        return {}
    try:
        world = c10d._world
        out = {}
        for pg, ranks in list(world.pg_group_ranks.items()):
            name = world.pg_names.get(pg, "")
            out[str(name)] = sorted(int(r) for r in ranks)
        return out
    except Exception:
        return {}


def _backend(c10d) -> str:
    try:
        return str(c10d.get_backend())
    except Exception:
        return ""


def _main_frames(limit: int = 4) -> list:
    try:
        frame = sys._current_frames().get(threading.main_thread().ident)
    except Exception:
        return []
    out = []
    while frame is not None and len(out) < limit:
        code = frame.f_code
        out.append(f"{code.co_filename}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return out


def _connect() -> list:
    """UDP sockets aimed at ncclDoctor's collectors (this node's and, multi-node, the reporting
    node's: ``NCD_LIVE_ADDR`` is a comma-separated list): pure Python, never block, never abort.

    Not a TCPStore client: its C++ connect/retry loop, when still running in this daemon thread
    at interpreter exit, aborted the worker ("terminate called without an active exception",
    rc 134; seen with torch 2.13). A lost datagram only delays a heartbeat by one poll.
    """
    socks = []
    for addr in os.environ["NCD_LIVE_ADDR"].split(","):
        try:
            host, _, port = addr.strip().rpartition(":")
            info = socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_DGRAM)[0]
            sock = socket.socket(info[0], socket.SOCK_DGRAM)
            sock.setblocking(False)
            sock.connect(info[4])
            socks.append(sock)
        except Exception as exc:
            _debug(f"collector {addr}: {type(exc).__name__}: {exc}")
    if not socks:
        raise OSError("no collector reachable")
    return socks


def _send(socks: list, data: bytes) -> None:
    sent = 0
    for sock in socks:
        try:
            sock.send(data)
            sent += 1
        except OSError:  # a full buffer or an unreachable collector: that beat is lost, the next one goes
            pass
    if not sent:
        raise OSError("no collector took the heartbeat")


def _snapshot(n: int, groups: dict) -> dict:
    c10d = _c10d()
    return {
        "rank": _env_rank(), "local_rank": int(os.environ.get("LOCAL_RANK", "-1")), "pid": os.getpid(),
        "host": socket.gethostname(), "world_size": int(os.environ.get("WORLD_SIZE", "0") or 0),
        "n": n, "t": time.time(), "pgs": _pg_status() if c10d else {}, "groups": groups,
        "backend": _backend(c10d) if c10d else "",
        "frames": _main_frames(), "sock": _sock_path(_env_rank()), "cpu_s": _main_cpu(),
        "self_cpu_s": round(time.thread_time(), 4),  # this publisher thread's own CPU so far: its cost, measured
    }


def _main_cpu():
    """CPU seconds of the main thread (its own clock: ~1 us, no /proc read): a culprit that is
    working (a checkpoint, an eval on one rank) is told from one asleep or blocked in a hang."""
    try:
        return round(time.clock_gettime(time.pthread_getcpuclockid(threading.main_thread().ident)), 4)
    except Exception:
        return None


def _fr_seen() -> bool:
    """Whether this process's Flight Recorder holds a process group's counters (at exit, after the job's own
    destroy_process_group too): a job shorter than a poll still says it ran collectives ncclDoctor could watch."""
    try:
        return "torch" in sys.modules and bool(_pg_status())
    except Exception:
        return False


def _goodbye() -> None:
    """At interpreter exit: one last record saying this rank left, so its silence is no stall."""
    try:
        snap = {"rank": _env_rank(), "local_rank": int(os.environ.get("LOCAL_RANK", "-1")), "pid": os.getpid(),
                "host": socket.gethostname(), "n": _STATE["n"] + 1,
                "t": time.time(), "pgs": {}, "exiting": True, "fr_seen": _fr_seen()}
        socks = _connect()
        _send(socks, _encode(snap))
        for sock in socks:
            sock.close()
    except Exception:
        pass


def _loop() -> None:
    poll = float(os.environ.get("NCD_LIVE_POLL_S", "0.5") or 0.5)
    socks, failures, groups, groups_at = None, 0, {}, -1.0
    while True:
        time.sleep(poll if failures < 5 else 10.0)
        try:
            _STATE["n"] += 1
            n = _STATE["n"]
            now = time.monotonic()
            if now - groups_at > 5.0:  # membership changes rarely; reading it walks Python dicts
                groups, groups_at = _groups(), now
            snap = _snapshot(n, groups)
            if set(snap["pgs"]) - set(groups) and now - groups_at > 1.0:  # a group created since the last read
                groups, groups_at = _groups(), now
                snap["groups"] = groups
            if socks is None:
                socks = _connect()
            _send(socks, _encode(snap))
            failures = 0
        except Exception as exc:
            socks, failures = None, failures + 1
            _debug(f"publish failed: {type(exc).__name__}: {exc}")


def _encode(snap: dict) -> bytes:
    data = json.dumps(snap, separators=(",", ":")).encode()
    if len(data) > MAX_DATAGRAM:  # many groups or long paths: the counters matter, the rest can go
        snap["frames"], snap["groups"] = snap["frames"][:1], {}
        data = json.dumps(snap, separators=(",", ":")).encode()
    return data


def _debug(msg: str) -> None:
    """NCD_LIVE_DEBUG=1: the watcher's own failures go to $NCD_LIVE_DIR/live/debug.rank<R>.txt."""
    if os.environ.get("NCD_LIVE_DEBUG") != "1":
        return
    try:
        with open(os.path.join(os.environ["NCD_LIVE_DIR"], "live", f"debug.rank{_env_rank()}.txt"), "a") as fh:
            fh.write(f"{time.time():.3f} {msg}\n")
    except Exception:
        pass
