"""LineParser's readers of rendezvous and transport set-up: TCPStore/rendezvous, coordination barriers, gloo,
sockets, the init call a failure is inside.

A mixin of ``parse.LineParser``: its methods read one hit line each and share the parser's per-file state,
which ``LineParser.__init__`` declares and documents."""

from __future__ import annotations

import re

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.readers.common import (
    _EARLY_GLOG,
    _FEED_NEAR,
    _TORCH_RANK_PREFIX,
    _prefix_rank,
)
from ncclDoctor.diagnose.signatures import Event

# what starts a record of its own: a logger's level word ("WARNING:", "ERROR "), an exception's class
# (a launcher's "[rankN]: " prefix on every line is none), a bracketed tag ("[../third_party/gloo/...]", "[E ...]")
_R_RECORD_HEAD = re.compile(r"\s*(?:[A-Z]{4,8}[:\s]|\[(?![Rr]ank ?\d{1,7}\]:)|[\w.]{0,80}(?:Error|Exception)\b)")
# a line from torch.distributed's own transports (gloo's pair.cc, c10d's socket.cpp, NCCL) or a C++ what(): not an
# HTTP client's wrapped error text
_R_DIST_SOURCE = re.compile(r"gloo|pair\.cc|socket\.cpp|c10d|NCCL|what\(\):")

class StoreReaders:
    def _gloo(self, lineno: int, text: str) -> Event | None:
        if not S.R_GLOO.search(text):
            return None
        io = S.R_GLOO_IO_TIMEOUT.search(text) if "timed out" in text else None
        m = io or S.R_GLOO_KIND.search(text)
        cut = (S.R_GLOO_PAIR_CUT.search(text) if not m and "pair.cc:" in text and "enforce fail" not in text
               else None)
        if cut and cut.group("rest") and not "Connection closed by peer".startswith(cut.group("rest")):
            cut = None  # other words after the site: not the close's message cut short
        if cut and int(cut.group(1)) in S.GLOO_PAIR_CLOSED_LINES:
            # the message cut after its source site, a line that prints only the peer's close (signatures)
            ev = self._context(lineno, text, "gloo_error")
            ev.data.update(what="Connection closed by peer", peer=None, site=f"tcp/pair.cc:{cut.group(1)}")
            who = _prefix_rank(text)
            self._gloo_gone.setdefault(who, ev)
            if self._under_gloo_ctor(lineno, who):
                ev.data.update(setup=True, gloo_ctor=True)
            elif who in self._init_ranks:
                ev.data["setup"] = True
            return ev
        if not m:
            if S.R_GLOO_ENFORCE_HEAD.search(text):
                # gloo's enforce with its condition and message on the next line (a paste or a terminal broke it
                # after the "]"): that line is this one's rest, read joined with it (parse's cut join)
                self._follow = max(self._follow, 1)
                if self._cut is None:
                    self._cut = (lineno, text)
            return None
        ev = self._context(lineno, text, "gloo_error")
        ev.data["what"] = m.group(0)
        p = S.R_PEER.search(text)
        ev.data["peer"] = f"{p.group(1)}:{p.group(2)}" if p else None
        if io:  # an established pair's read/write timed out: a stall of the path, not a peer gone (lead rule AQ (2))
            ev.data.update(what=f"{io.group(1)} error: Connection timed out", stalled=True, peer_host=io.group(2),
                           peer=io.group(2) + (f":{io.group(3)}" if io.group(3) else ""))
        if S.R_PEER_GONE.search(m.group(0)) or io:
            who = _prefix_rank(text)
            self._gloo_gone.setdefault(who, ev)
            if not io and self._under_gloo_ctor(lineno, who):
                ev.data.update(setup=True, gloo_ctor=True)
            elif who in self._init_ranks:
                ev.data["setup"] = True
        return ev

    def _under_gloo_ctor(self, lineno: int, who: int | None) -> bool:
        """A gloo peer closing or resetting a pair raised right under a traceback's code line constructing a gloo
        group ("pg = c10d.ProcessGroupGloo(store, rank, world_size, opts)": S.R_GLOO_PG_CALL, parse's _gloo_pg), no
        frame read after that line: the C++ constructor, which connects gloo's full mesh (connectFullMesh /
        createAndConnectAllPairs), raised it -- the peers' connections failed while the group was being set up, as a
        peer gone inside init_process_group's frame (_init_frame) is (lead rules L, O's set-up half, X (1):
        network_setup, culprits []). A pair closed under a collective's frame (rule U (4)) or a frame under the
        constructor's line keeps its early_exit reading. WHO, the error line's launcher prefix rank, must be the
        constructor line's: under torchrun's interleaved "[rankN]:" output another rank's peer gone (raised in its own
        collective) can fall within those lines (review 102 (1) finding 4)."""
        return 0 < lineno - self._gloo_pg <= 6 and self._tb.frame[0] < self._gloo_pg and who == self._gloo_pg_who

    def _init_frame(self, text: str) -> None:
        """A set-up call's frame (hvd.init(), init_process_group) in the stack of the process (launcher prefix) whose
        gloo connection a peer closed, before or after that error (faulthandler prints the stack after it): the
        connection failed while the job was still being set up (lead rule L: network_setup, not a peer that died)."""
        who = _prefix_rank(text)
        if len(self._init_ranks) < 1024:
            self._init_ranks.add(who)
        if who in self._gloo_gone:
            self._gloo_gone[who].data["setup"] = True

    def _recv_src(self, lineno: int, text: str) -> Event | None:
        m = S.R_RECV_SRC.search(self._body) if "recv(" in text or "send(" in text else None
        if not m:
            return None
        ev = self._context(lineno, text, "recv_src")
        ev.data.update(src=int(m.group(2)), op=m.group("op"))
        return ev

    def _coord_barrier(self, lineno: int, text: str) -> Event | None:
        """The coordination service's barrier of the job's set-up timing out (XLA's / TF's coordination service, the
        store behind jax.distributed.initialize; signatures.R_COORD_BARRIER): the job's rendezvous counting its
        processes (lead rule R). The tasks that never arrived follow one a line (_coord_line) or on the same line.
        A barrier the running job calls itself (its id names no connect / init / start: "multihost_broadcast_sync0",
        a program's own sync) is read too, marked run-time: past the set-up, the tasks it names are processes of a
        formed world that never reached the program's barrier (lead rule Y, verdict.store._coord_barrier)."""
        b = S.R_COORD_BARRIER.search(text)
        if not b:
            return None
        ev = self._context(lineno, text, "store_timeout")
        ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, coord_barrier=b.group(1),
                       missing=[], reached=None, coord_runtime=not S.R_COORD_SETUP.search(b.group(1)))
        named = "task names:" in text
        self._coord, self._follow = (lineno, ev, named), max(self._follow, 4)
        self._coord_line(lineno, text[b.end():])
        return ev

    def _coord_line(self, lineno: int, body: str) -> bool:
        """A line of the timed-out coordination barrier's message after its first (_coord_barrier): the tasks that
        never arrived ("/job:jax_worker/replica:0/task:3", after "Timed out task names:"), how many reached it ("# of
        tasks that reached the barrier: 1/8"), the first task there. Any other line ends the message."""
        start, ev, named = self._coord
        line = body.strip()
        if lineno - start > 1100 or not (lineno == start or not line or S.R_COORD_TASK.search(line) or any(
                w in line for w in ("task names:", "the barrier", "task logs"))):
            self._coord = None
            return False
        r = S.R_COORD_REACHED.search(line)
        if r:
            ev.data["reached"] = (int(r.group(1)), int(r.group(2)))
        if "task names:" in line:
            named, line = True, line[line.index("task names:"):]
        if named and len(ev.data["missing"]) < 1024:
            ev.data["missing"] += [int(t) for t in S.R_COORD_TASK.findall(line)
                                   if int(t) not in ev.data["missing"]][:1024]
        self._coord, self._follow = (start, ev, named), max(self._follow, 2)
        return True

    def _env_raised(self, lineno: int) -> str | None:
        """The env:// rendezvous' own raise for a variable not set, as a traceback's innermost frames show it with
        the exception's message cut (signatures.R_ENV_ASKED, R_ENV_RAISE): the variable, or None. The call's frame
        line is kept until its raise a few lines on; a raise line is shown only when it ran."""
        a = S.R_ENV_ASKED.search(self._body)
        if a:
            self._env_asked = (lineno, a.group(1))
            return None
        r = S.R_ENV_RAISE.match(self._body)
        if r is None:
            return None
        if r.group(1):
            return r.group(1)
        asked, self._env_asked = self._env_asked, None
        return asked[1] if asked is not None and 0 < lineno - asked[0] <= 3 else None

    def _store(self, lineno: int, text: str) -> Event | None:
        if "EADDRINUSE" in text and (ev := self._listen_detail(lineno, text)) is not None:
            return ev
        if "raised from doWait" in text and self._sock_timeout is not None and 0 < lineno - self._sock_timeout[0] <= 2:
            # c10's tail under a bare "Socket Timeout": TCPStore's doWait, a wait for a key on a store the process
            # had connected to (a connect failing is the constructor's), so a read that timed out (lead rule Y), as
            # waitForInput's line says it; no torchrun agent frame or rendezvous word is then read by _store_wait
            self._sock_timeout[1].data.update(waited_input=True, do_wait=True)
            self._sock_timeout = None
            return None
        if "libuv" in text and S.R_NO_LIBUV.search(text):  # a build without the store's backend: config, not a store
            ev = self._context(lineno, text, "no_nccl")
            ev.data["what"] = "libuv"
            return ev
        if "unsupported gloo device" in text and S.R_NO_GLOO_DEVICE.search(text):  # a build without gloo's transport
            ev = self._context(lineno, text, "no_nccl")
            ev.data["what"] = "gloo_device"
            return ev
        if "arrier timed out" in text and (ev := self._coord_barrier(lineno, text)) is not None:
            return ev
        if "No quorum" in text and (q := S.R_QUORUM_SHORT.search(text)):
            # a fault-tolerance coordinator's quorum short of the members it needs (torchft's lighthouse): the job's
            # own rendezvous of a known count, read by its counts (lead rule R); an equal or larger count is no wait
            have, need = int(q.group(1)), int(q.group(2))
            if have >= need:
                return None
            ev = self._context(lineno, text, "store_timeout")
            ev.rank = None  # the coordinator's own line: no rank of the job
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, joined=(have, need),
                           quorum=True)
            return ev
        gs = S.R_GLOO_STORE_FRAME.search(text) if "rendezvous::PrefixStore::" in text else None
        if gs:  # the exception was thrown inside gloo's store read of its peers' addresses at set-up (rule AI (1))
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           gloo_store=f"gloo::rendezvous::PrefixStore::{gs.group(1)}")
            return ev
        # ProcessGroupGloo( is the C++ binding's call: no Python frame can come under it, only its code line's carets,
        # a blank line and the exception (a wrapped paste's pieces joined onto the last one's line number)
        if lineno - self._gloo_pg <= 6 and (t := S.R_EXC_TAIL.match(
                self._body[h.end():].lstrip() if (h := S.R_LOG_RECORD_HEAD.match(self._body)) else
                self._body.lstrip())) is not None \
                and S.R_GLOO_PG_TIMEOUT.match((t.group(2) or "").strip()):
            # a timeout raised right under ProcessGroupGloo's construction, no gloo connect text or peer shown: the
            # set-up's exchange of the peers' addresses through the store (rule AI (1), S.R_GLOO_PG_CALL)
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           gloo_store="ProcessGroupGloo(...), the gloo group's construction",
                           said=t.group(0).strip()[:160])
            return ev
        busy = S.R_LAUNCH_PORT_BUSY.search(text) if "utilizing it" in text else None
        if busy:  # accelerate found the rendezvous port (its main_process_port, torchrun's MASTER_PORT) already bound
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=int(busy.group(1)), closed=False, accelerate=True)
            return ev
        g = S.R_GRPC_CONNECT.search(text) if "to connect to" in text else None
        if g:  # a gRPC channel of the job's coordination service could not connect (lead rule L): its store
            ev = self._context(lineno, text, "store_timeout")
            p = S.R_GRPC_PEER.search(text)
            ev.data.update(endpoint=f"{p.group(1)}:{p.group(2)}" if p else None, rendezvous=False, in_use=None,
                           closed=False, store_conn=g.group(0)[:80], grpc=True)
            return ev
        x = S.R_XRT_MESH.search(text) if ("mesh " in text or "meet rendezvous" in text) else None
        if x:  # the XRT mesh service (torch_xla's rendezvous / config service) failing a process (rules L, AS (1))
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=x.group("master") or None, rendezvous=False, in_use=None, closed=False,
                           store_conn=x.group(0)[:120], mesh=True, tag=x.group("tag"),
                           rwhy=x.group("rwhy"))
            return ev
        b = S.R_EXIT_BARRIER.search(text) if "exit barrier" in text else None
        if b and b.group(0) != "_exit_barrier":
            # torchrun's agent's own line that its exit barrier (a store barrier of every node's agent after this
            # node's workers ended) failed: read as the launcher's store barrier (lead rules R, Y)
            ev = self._context(lineno, text, "exit_barrier")
            el = S.R_ELAPSED.search(text)
            ev.data.update(head=True, elapsed=float(el.group(1)) if el else None)
            return ev
        u = S.R_UNIQUEID.search(text) if "cclUniqueId" in text else None
        if u:
            ev = self._context(lineno, text, "uniqueid_wait")
            if u.group(1):
                ev.rank = int(u.group(1))
            err = (u.group(3) or "").strip() or ("the store read's error, its reason cut off" if u.group(2) else
                                                  "the store read's error, the line cut after 'ncclUniqueId'")
            # the line cut before "from [N]": the root is the group's rank 0, which publishes the id (lead rule G)
            ev.data.update(root=int(u.group(2) or 0), error=err[:120], uid="hcclUniqueId" if "hccl" in u.group(0) else
                           "ncclUniqueId",
                           gone=bool(S.R_PEER_GONE.search(err) or "got 0 bytes" in err))
            return ev
        t = S.R_UNIQUEID_TAIL.search(text) if "application crash on rank" in text else None
        if t:  # the unique-id wait's error with its head cut off: a wait, no reset shown (lead rule G)
            ev = self._context(lineno, text, "uniqueid_wait")
            ev.data.update(root=int(t.group(1)), error="a failed store read, the error's head cut off",
                           gone=False)
            return ev
        if "barrier" in text and S.R_STORE_BARRIER_DONE.search(text):  # every rank came: an earlier wait passed
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "store barrier completed"
            n = S.R_STORE_BARRIER_NODES.search(text)
            if n:  # the count it completed with (lead rule R: ranks checking in past it are the over-count)
                ev.data["barrier"] = (n.group(1), None, int(n.group(2)))
            return ev
        a = S.R_STORE_BARRIER_ADDED.search(text) if "Added key" in text else None
        if a:  # torch's "Added key: K to store for rank: R": that rank checked in to the barrier of K (lead rule R)
            ev = self._context(lineno, text, "benign")
            ev.data.update(what="store barrier key added", barrier=(a.group(1), int(a.group(2)), None))
            return ev
        pmix = S.R_PMIX_FENCE.search(text) if "pmix" in text else None
        if pmix:  # Slurm PMIx's fence between the nodes' slurmstepd did not complete (lead rules L, R)
            ev = self._context(lineno, text, "store_timeout")
            ev.rank = None  # slurmstepd's line; its "[0]" is the node's index in the fence
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, pmix=True)
            return ev
        url = S.R_PG_URL.search(text) if "Process group URL" in text else None
        if url:  # the launcher's record that init_process_group raised, with the init_method it was given
            ev = self._context(lineno, text, "store_timeout")
            given = url.group(1).strip("'\".,")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           init_url=None if given in ("None", "", "null") else given)
            return ev
        miss = S.R_ENV_MISSING.search(text)
        if miss:  # init_process_group(env://) run without torchrun: a launch error
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, env_missing=miss.group(1))
            return ev
        if "_env_" in text and (var := self._env_raised(lineno)):  # the same, the message cut after its raise
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, env_missing=var)
            return ev
        r = S.R_RESOLVE.search(text) if "resolve" in text else None
        if r and "master" in (r.group(1) or r.group(2)).lower():  # the rendezvous host by its role's name
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=r.group(1) or r.group(2), rendezvous=False, in_use=None, closed=False, dns=True)
            return ev
        # the resolver's error on the store's own line, or as the exception of a traceback whose frames just above
        # are the store's/rendezvous' (torch 1.x: "ValueError: host not found: Name or service not known"), or in
        # c10d's own words of that lookup wherever a wrapper prints them (signatures.R_DNS_C10D)
        near = lineno - self._store_frame <= 8 and S.R_EXC_TAIL.match(self._body)
        if S.R_DNS.search(text) and (S.R_DNS_STORE.search(text) or near or S.R_DNS_C10D.search(text)) \
                and "IPv6" not in text:
            ev = self._context(lineno, text, "store_timeout")
            c = S.R_CONNECT_TO.search(text)
            a = None if c else S.R_ADDRS_OF.search(text)
            ep = f"{c.group(1) or c.group(3)}:{c.group(2) or c.group(4)}" if c else (
                f"{a.group(1)}:{a.group(2)}" if a else None)
            ev.data.update(endpoint=ep,
                           rendezvous="endezvous" in text, in_use=None, closed=False, dns=True)
            return ev
        proto = S.R_STORE_PROTO.search(text) if "vailab" in text or "Stop_waiting" in text else None
        tail = S.R_EXC_TAIL.match(self._body) if near and not proto else None
        ce = S.R_CONN_EXC.match(tail.group(2).strip()) if tail and tail.group(2) else None
        conn = (ce.group(0)[:ce.start("what")] + ce.group("what")) if ce else None  # without THD's " at <site>"
        if conn and "reset" in conn and self.tcp_init is not None:
            conn = None  # init_method tcp://: rank 0's own process hosts the store, a reset is that host gone (rule G)
        if proto or conn:
            # the store client's own connection failing, before any collective (lead rules L, Y): store_rendezvous
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           store_conn=(proto.group(0) if proto else conn)[:80])
            return ev
        gone = S.R_STORE_GONE.search(text)
        poll = "dump flag" in text and S.R_DUMP_FLAG_POLL.search(text)  # the heartbeat monitor's poll (an [E] line)
        # a recv that "got 0 bytes" read the end of the stream: the store's side closed the connection, the same news
        # as a reset (Utils.hpp's recvBytes: "failed to recv, got 0 bytes"; lead rule N)
        lost = not gone and (S.R_STORE_SOCKET.search(text) or poll) and (S.R_PEER_GONE.search(text)
                                                                          or "got 0 bytes" in text)
        if lost and _EARLY_GLOG.search(text) and not _TORCH_RANK_PREFIX.search(text):
            # torch >= 2.2 glues "[rankN]:" to its C++ lines once init_process_group has made the default group
            # (_update_default_pg -> _set_global_rank): a reset logged without it was the store client's
            # connect/validate, which TCPStore retries ("failed to connect/validate ... retrying")
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "store reset before the group"
            self._store_reset, self._follow = (lineno, ev), max(self._follow, 24)
            return ev
        if gone or lost:  # a consequence: the process hosting the store exited first
            ev = self._context(lineno, text, "socket_error")
            if lost and not poll:  # its C++ frames may follow: the constructor's (parse._store_ctor_reset)
                self._store_sock, self._follow = (lineno, ev), max(self._follow, 24)
            r = S.R_REMOTE.search(text)
            ev.data.update(what="TCPStore server closed the connection", connect=False, store_gone=True,
                           store_said=bool(gone), peer=f"{r.group(1)}:{r.group(2)}" if r else None)
            if ev.rank is not None and (S.R_C10D_WARNING.search(text) or poll) and not S.R_STORE_WAITED.search(text):
                # a rank's c10d [W] warning of its store poll or read cut (lead rule N: news only if a failure follows)
                ev.data["tags"] = ("store_warning",)
            return ev
        win = S.R_WIN_CONNECT_WARN.search(text)
        cut = None if win or "failed to connect" not in text else S.connect_warn_cut(text)
        if win or (cut and S.R_C10D_W_ANY.search(text)):
            # lead rules L/N: whatever host it names, news only if a store failure follows; a c10d [W] warning of the
            # same words that the paste (or a wrap under a per-line prefix) cut before its error text is one connect
            # attempt the client retries, whatever its error was (lead rule BM (2)), not the store's failure
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "Windows store connect warning"
            return ev
        k = S.R_CCL_KVS.search(text) if "kvs" in text else None
        if k:
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           kvs=f"{k.group(1)}: {k.group(2).strip()}")
            return ev
        atl = S.R_CCL_ATL.search(text) if "atl_" in text else None
        if atl:  # oneCCL's transport (ATL) failing to initialise: its set-up's system error, no store (lead rule L)
            ev = self._context(lineno, text, "ccl_transport")
            ev.data["said"] = f"{atl.group(1)}: {atl.group(2).strip()}"
            return ev
        cw = S.R_CCL_WORKER.search(text) if "orker" in text or "pthread_" in text else None
        if cw:  # oneCCL could not start its worker threads: a system call of its set-up failed (lead rule J)
            ev = self._context(lineno, text, "ccl_worker")
            ev.data["said"] = f"{cw.group(1)}: {cw.group(2).strip()}"
            return ev
        # the last "oneCCL: file.cpp:N" of the line threw (a worker's "caught internal exception: oneCCL: ..." only
        # carries it)
        x = (S.R_CCL_EXC.search(text, max(text.rfind("oneCCL:"), 0))
             if "EXCEPTION" in text or "internal exception" in text else None)
        if x and "errno" not in text and "RESULT_ERROR_" not in text and "CCL_" not in x.group("said"):
            # oneCCL's own exception, no system call's errno and no device runtime call shown failing (lead rule BO
            # (3)): the library's own check failed -- its counterpart of ncclInternalError. One that names the
            # CCL_ setting it needs ("set CCL_ZE_IPC_EXCHANGE=sockets explicitly") is a settings check (rule Q)
            ev = self._context(lineno, text, "ccl_internal")
            ev.data["said"] = f"{x.group('file')}.cpp {x.group('fn')}: {x.group('said').strip()}"
            return ev
        client = S.R_STORE_CLIENT.search(text)
        if not client and "not yet listening" in text and (wait := S.R_STORE_NOT_LISTENING.search(text)):
            # the client connecting before the store's server listens, retried (lead rules K, L): as below
            ev = self._context(lineno, text, "benign")
            ev.data.update(what="store connect retry", endpoint=f"{wait.group(1)}:{wait.group(2)}", listening=False)
            return ev
        spent = S.R_STORE_RETRY_SPENT.search(text) if client and "timed out after" in text else None
        if spent and int(spent.group(2)) < int(spent.group(1)):
            spent = None  # its socket's own timeout is shorter than the connect budget: one attempt, retried
        # the retry warning of the same connect whose reset an unprefixed "recvValue failed" warning just logged, the
        # ping of its TCPStore's constructor (its C++ frames between): the one retried connect/validate, before any
        # group (round 78's vllm-18362) -- a reset there is retried too, not a store that went away
        again = self._store_reset is not None and 0 < lineno - self._store_reset[0] <= 40 and not (
            self._store_reset[1].data.get("poll"))
        if client and "- retrying (" in text and (again or not S.R_PEER_GONE.search(text)) and not spent:
            # TCPStore's warning of a connect attempt it retries until its timeout (lead rule L): news only when a
            # store timeout or error follows, which is then a line of its own. A reset is not the store still
            # starting (nothing listening refuses): something at that address answered and cut the connection
            ev = self._context(lineno, text, "benign")
            ev.data.update(what="store connect retry", endpoint=f"{client.group(1)}:{client.group(2)}")
            if "invalid value returned from server" in text:
                # TCPStore's connect-time ping ("Ping failed, invalid value returned from server. Expected: N, Got:
                # M"): a server answered, but not with this client's nonce -- something other than this job's store
                # listens on that port (lead rules L, N: still a retry, nothing failing after it)
                ev.data["foreign"] = True
            return ev
        taken = S.R_ADDR_IN_USE.search(text)
        # torch 1.x's bare "RuntimeError: Address already in use" names no store: its traceback's frames above do
        # a whole message of only those words is the store's own bind (signatures.R_BARE_IN_USE), frames or not
        bare = bool(taken) and "lready in use" in text and S.R_BARE_IN_USE.search(self._body)
        # torch 1.x's store socket read timing out: a whole message of EAGAIN's words raised right under the store's
        # or a collective's frames (signatures.R_EAGAIN_BARE), read as that release's "Socket Timeout" below
        eagain = "emporarily unavailable" in text and (t := S.R_EXC_TAIL.match(self._body)) is not None \
            and S.R_EAGAIN_BARE.match((t.group(2) or "").strip()) is not None \
            and (bool(near) or lineno - self._coll_frame[0] <= 3)
        if not client and not S.R_STORE.search(text) and not (taken and (near or bare)) and not eagain:
            return None
        # a store timeout inside the agent's exit barrier is teardown: the other nodes' agents never came
        ev = self._context(lineno, text, "exit_barrier" if lineno - self._barrier_line <= 16 else "store_timeout")
        c = S.R_CONNECT_TO.search(text)
        ev.data["endpoint"] = (f"{c.group(1) or c.group(3)}:{c.group(2) or c.group(4)}" if c else
                               f"{client.group(1)}:{client.group(2)}" if client else None)
        if "waitForInput" in text:  # c10d's store socket (socket.cpp): connected, no reply within the timeout
            r = S.R_REMOTE.search(text)
            ev.data["endpoint"] = ev.data["endpoint"] or (f"{r.group(1)}:{r.group(2)}" if r else None)
            ev.data["waited_input"] = True
        elif lineno - self._coll_frame[0] <= 3 and (t := S.R_EXC_TAIL.match(self._body)) \
                and ((t.group(2) or "").strip() in ("Socket Timeout", "Wait timeout") or eagain):
            # the exception of a collective's call (its frame just above): its store read of the unique id timed out
            # on a connected store (lead rule Y), and no torchrun agent makes that call
            ev.data.update(waited_input=True, in_collective=self._coll_frame[1])
        ev.data["rendezvous"] = "endezvous" in text or "etcd.Etcd" in text
        if not ev.data.get("waited_input") and (t := S.R_EXC_TAIL.match(self._body)) \
                and (t.group(2) or "").strip() == "Socket Timeout":
            self._sock_timeout = (lineno, ev)  # its c10 tail may name doWait on the next line (above)
        if "ait timeout" in text and S.R_STORE_KEY0.search(text):
            ev.data["key0"] = True  # the wait named key '0' alone: the key rank 0 publishes (rules G, Y)
        if "etcd.Etcd" in text:
            ev.data["etcd"] = text[text.index("etcd.Etcd"):].strip()[:160]
        ev.data["closed"] = "RendezvousClosedError" in text
        if "list of machines from http" in text:
            self._http_line = lineno  # python-etcd's HTTP client: a wrapped piece of its error is its own (_socket)
            # its client cannot reach the etcd server at all (refused, no route): the rendezvous store is not up there
            url = re.search(r"list of machines from (https?://[^\s:/]{1,255}(?::\d{1,5})?)", text)
            ev.data["etcd"] = ("python-etcd's 'Failed to get list of machines'"
                               + (f" from {url.group(1)}" if url else ""))
            ev.data["etcd_down"] = True
        if ev.kind == "store_timeout" and S.R_RDZV_KEEPALIVE.search(text):
            ev.data["tags"] = ("keepalive_warning",)  # the agent's keep-alive warning (lead rule N)
        n = S.R_STORE_COUNT.search(text)
        if n:
            ev.data["joined"] = (int(n.group("wc") or n.group("j")), int(n.group("ws") or n.group("n")))
        if "Waiting in store based barrier" in text:
            if not n or ev.data["joined"][0] == ev.data["joined"][1]:  # its last poll, everyone in: nothing failed
                ev.kind, ev.data = "benign", {"what": "store barrier completed"}
                return ev
            ev.data["barrier_wait"] = True  # still short of (or past) the world size at this poll
        b = S.R_BIND_PORT.search(text)
        f = None if b or not taken else S.R_PORT_FIELD.search(text)
        ev.data["in_use"] = int(b.group(1)) if b else int(f.group(1)) if f else 0 if taken else None
        if taken and lineno - self._ft_frame <= 8:
            ev.data["ft_coord"] = True  # torchft's lighthouse / manager server could not bind (its --bind in the fix)
        if "failed to listen on any local" in text and ev.data["in_use"] is None:
            self._listen_fail = (lineno, ev)  # its libuv detail (port, errno) may follow on a line of its own
        if "server socket has failed" in text and S.R_C10D_BIND_LOG.search(text):
            self._bind_logs.append(ev)  # c10d's logged bind failure, no exception: parse.input_tail reads what follows
        d = S.R_BIND_DENIED.search(text)
        if d:
            ev.data["bind_denied"] = int(d.group(1))
        return ev

    def _listen_detail(self, lineno: int, text: str) -> Event | None:
        """libuv's detail of the store's failed listen printed on the line under the exception ("DistNetworkError: The
        server socket has failed to listen on any local network address." then "port: 29500, useIpv6: false, code:
        -98, name: EADDRINUSE, message: address already in use"): the port is taken (lead rule AN (2)), read onto
        the exception's event above, as the one-line form is; this line is that event's own (round 102's
        torchdr-249)."""
        last = self._listen_fail
        f = S.R_PORT_FIELD.search(text)
        if last is None or not f or not 0 < lineno - last[0] <= 2:
            return None
        self._listen_fail = None
        last[1].data["in_use"] = int(f.group(1))
        ev = self._context(lineno, text, "benign")
        ev.data.update(what="store bind detail", in_use=int(f.group(1)))
        return ev

    def _rpc_setup(self, lineno: int, text: str) -> Event | None:
        """A framework's own RPC transport failing at start-up (signatures.R_RPC_BIND, R_RPC_GATHER): its server
        socket that cannot bind or listen, or torch RPC's gather of every worker timing out. The gather of rpc.shutdown
        ('Shutdown Proceed') is the exit's, not the start-up's: not read here."""
        b = S.R_RPC_BIND.search(text) if "Failed " in text else None
        if b:
            ev = self._context(lineno, text, "rpc_setup")
            ev.data.update(what=f"{b.group(1)}: {b.group(4).strip()}"[:120], bind=True,
                           endpoint=f"{b.group(2)}:{b.group(3)}" if b.group(3) else None)
            return ev
        pu = S.R_PORT_UNAVAILABLE.match(self._body) if "not available" in text else None
        if pu:  # the framework's own server finding its port taken at start-up (lead rule AQ (3))
            ev = self._context(lineno, text, "rpc_setup")
            ev.data.update(what="bind: port not available (already bound)", bind=True, endpoint=f"port {pu.group(1)}")
            return ev
        na = S.R_FW_SOCKET_NO_ANSWER.search(text) if "tcp_socket" in text else None
        if na:  # the framework's own socket read/write timing out: its server never answered (lead rule AQ (3))
            ev = self._context(lineno, text, "rpc_setup")
            ev.data.update(what=f"{na.group(1)}: {na.group(2)}", bind=False, no_answer=True)
            return ev
        ri = S.R_ROOTINFO_FAILED.search(text) if ("oot info" in text or "RootInfo" in text or "UniqueId" in text
                                                   or "unique" in text) else None
        if ri and S.R_ROOTINFO_BARE_TAIL.match(text, ri.end()) and not S.R_ROOTINFO_REASON.search(text):
            # the communicator's unique-id / root-info call failing at set-up with only a status (lead rule AZ (2))
            ev = self._context(lineno, text, "rpc_setup")
            ev.data.update(what=f"the collective library's root-info / unique-id call failed ('{ri.group(0)}')",
                           bind=False, root=True, root_info=True, unconnected=[])
            return ev
        r = S.R_ROOT_UNREACHED.search(text) if "root node" in text else None
        if r:  # the backend's own bootstrap to its root at communicator set-up (HCCL rootInfo): the ranks never joined
            ev = self._context(lineno, text, "rpc_setup")
            ranks = [int(x) for x in re.findall(r"\d{1,7}", r.group("ranks") or "")][:4096]
            ev.rank = None  # the reporting process names no rank of its own (RankID:-1): it only waited
            ev.data.update(what="no rank could connect to the collective library's root node in time", bind=False,
                           root=True, unconnected=ranks)
            return ev
        k = S.R_LINK_UNMADE.search(text) if "Transport init error" in text else None
        if k:  # the backend's own link from this rank to a peer, not made at communicator set-up (HCCL createLink)
            ev = self._context(lineno, text, "rpc_setup")
            ev.data.update(what="the collective library could not create its link to a peer at set-up", bind=False,
                           link=True, dst=int(k.group("dst")) if k.group("dst") else None, peer_ip=k.group("ip"))
            return ev
        g = S.R_RPC_GATHER.search(text) if "_all_gather" in text else None
        if g is None or "hutdown" in (g.group(1) or ""):
            return None
        ev = self._context(lineno, text, "rpc_setup")
        ev.data.update(what=f"'{g.group(1) or '_all_gather'}' timed out after {g.group(3)} s", bind=False,
                       rpc_barrier=g.group(1), followers=[f.strip(" '\"") for f in g.group(2).split(",")][:16],
                       timeout_s=float(g.group(3)))
        return ev

    def _socket(self, lineno: int, text: str) -> Event | None:
        if "Exception ignored" in text and S.R_IO_FLUSH_IGNORED.search(text):
            self._io_flush = lineno
            return None
        if "TCP connect to a peer" in text and S.R_OMPI_TCP_CONNECT.search(text):
            # Open MPI's TCP BTL could not connect to a peer process: its box's fields (the address, the errno)
            # follow on lines of no trigger word (lead rules K, L: set-up, no rank at fault)
            ev = self._context(lineno, text, "socket_error")
            ev.data.update(what="Open MPI TCP connect failed", peer=None, connect=True, ompi_tcp=True)
            self._ompi_tcp, self._follow = (lineno, ev), max(self._follow, 10)
            return ev
        if self._ompi_tcp is not None and "connect() to" in text and 0 < lineno - self._ompi_tcp[0] <= 12 and (
                o := S.R_OMPI_TCP_PEER.search(S.strip_prefixes(text))):
            self._ompi_tcp[1].data["peer"] = f"{o.group(1)}:{o.group(2)}"
            self._ompi_tcp = None
            return None
        if "/listener" in text and "tensorpipe" in text and (tpl := S.R_TP_LISTENER.search(text)):
            # TensorPipe's listener could not start on the address it picked: the RPC agent's own socket fails at
            # set-up (lead rule AQ (3)), whatever aborts the process after it
            ev = self._context(lineno, text, "socket_error")
            ev.data.update(what=f"TensorPipe listener: {tpl.group(1).strip()}", peer=None, connect=True,
                           tp_listener=True)
            return ev
        m = S.R_SOCKET.search(text)
        if m and self._io_flush and 0 < lineno - self._io_flush <= 2 and "BrokenPipeError" in text:
            return None  # a file object's flush at interpreter exit into a pipe whose reader left: no socket, no peer
        if m and "BrokenPipe" in text and 0 < lineno - self._mp_feed <= _FEED_NEAR \
                and S.R_MP_PIPE_EXC.match(self._body.lstrip()):
            # parse.input_tail: the input ending on it shows no process going on
            self._feed_pipe = (lineno, text.strip()[: S.TEXT_CAP])
            return None  # multiprocessing's queue feeder thread writing into a closed pipe (R_MP_FEED_FRAME): teardown
        if m and "ssh: " in text and S.R_SSH_CLIENT.search(text):
            return None  # ssh's own connect to a host, a launcher's (read by _launch_setup)
        if ("Connection" in text or "exceptions." in text) and S.R_HTTP_CLIENT.search(text):
            self._http_line = lineno
            if m:
                return None  # an HTTP client's (a download's), read as the exception it ends a traceback with
        if (m and self._http_line and 0 < lineno - self._http_line <= 12
                and not _R_RECORD_HEAD.match(S.strip_prefixes(text)) and not _R_DIST_SOURCE.search(text)):
            # a piece of that client's error hard-wrapped onto lines of its own ("onnection: [Errno 111] Connection
            # refused'))\")"): no header or exception class of its own starts it, so it is still the client's
            # (read past a launcher's or collector's prefix on every line, "[default0]:", a clock and level: round
            # 97's pytorch-123714 under the torchrun-role, py-logging and sglang variants); never a line naming
            # gloo's, c10d's or NCCL's own source or a C++ what(): those are the ranks' own connection, whatever a
            # download printed just before (second review of session 37, finding 5)
            return None
        t = S.R_TF_COLL_ABORT.search(text) if "aborted by" in text else None
        if t and (gone := S.R_PEER_GONE.search(t.group(1))):
            # TF's collectives aborted because a peer's connection closed in the middle of them (lead rule O): a
            # peer gone, not a connection that could not be made
            ev = self._context(lineno, text, "socket_error")
            ev.data.update(what=gone.group(0), peer=None, connect=False, tf=True)
            return ev
        if not m:
            return None
        ev = self._context(lineno, text, "socket_error")
        p = S.R_PEER.search(text)
        # set-up when it happened while connecting; a peer that went away otherwise (a consequence)
        connect = bool(S.R_CONNECT_FAIL.search(text)) or not S.R_PEER_GONE.search(m.group(0))
        ev.data.update(what=m.group(0), peer=f"{p.group(1)}:{p.group(2)}" if p else None, connect=connect)
        cx = S.R_CCL_EXC.search(text) if "CCL_ERROR|" in text or "oneCCL:" in text else None
        if cx:  # oneCCL's own socket (its handle exchange between the processes), not a store's nor NCCL's
            ev.data["ccl"] = f"{cx.group('file')}.cpp {cx.group('fn')}"
        if 0 < lineno - self._ddp_sync <= 3:
            ev.data["ddp_sync"] = True  # raised by DDP's constructor broadcasting rank 0's parameters (its frame above)
        tp = S.R_TP_AGENT_ERR.search(text) if "RPC agent for" in text else None
        if tp:  # torch RPC's TensorPipe agent: its worker, its request's number (or a response read), the peer's name
            ev.data.update(tp_agent=tp.group("agent"), tp_peer=tp.group("peer"),
                           tp_request=int(tp.group("req")) if tp.group("req") else None)
        return ev
