"""LineParser's readers of NCCL's own lines: its errors, IB/verbs/OFI completions, INFO set-up chatter, nccl-tests'
progress, two ranks on one GPU, shared memory.

A mixin of ``parse.LineParser``: its methods read one hit line each and share the parser's per-file state,
which ``LineParser.__init__`` declares and documents."""

from __future__ import annotations

import errno
import os

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.readers.common import (
    _PREAMBLE_NEAR,
    _R_ERROR_STRING,
    MAX_PIDS,
    _fmt,
)
from ncclDoctor.diagnose.signatures import Event

# NVSHMEM's words for a verbs call it does not name (ibrc.cpp, ibdevx.cpp, transport_ib_common.cpp)
_NVSHMEM_CALLS = {"cq creation": "ibv_create_cq", "qp creation": "ibv_create_qp", "srq creation": "ibv_create_srq",
                  "mem registration": "ibv_reg_mr"}
# verbs calls that return an errno (rdma-core's man pages): NVSHMEM's "non-zero status: N" after them is that errno
_ERRNO_CALLS = ("ibv_modify_qp", "ibv_post_send", "ibv_post_recv", "ibv_post_srq_recv", "ibv_query_port",
                "ibv_query_device", "ibv_query_gid", "ibv_dereg_mr", "ibv_destroy_qp", "ibv_destroy_cq")


def _strerror(num: int) -> str:
    """An errno in strerror's words (what NCCL's "Call to ibv_X failed with error ..." prints), else its number."""
    return os.strerror(abs(num)) if abs(num) in errno.errorcode else f"status {num}"


_COLL_KEEP = 256  # the collectives kept per process and communicator (the last ones: a hang is at the end)
# py-spy top's %Total from which a torch.distributed function's row shows the process sitting in it (not a profile)
_TOP_HELD = 90.0


class NcclReaders:
    def _nccl_error(self, lineno: int, text: str) -> Event | None:
        m = S.R_NCCL_CODE.search(text)
        code = m.group(0) if m else None
        if code is None:
            m2 = S.R_NCCL_OLD.search(text)
            said = m2.group(1).lower().replace("unhanled ", "unhandled ") if m2 else ""  # the retyped "unhanled"
            # a paste cut inside "unhandled system error" at its line's end (signatures.R_NCCL_OLD)
            code = S.OLD_CODE.get(said) or ("ncclSystemError" if said.startswith("unhandled sys") else None)
        in_init = False
        if code is None and "Nccl" in text:  # CuPy's binding (signatures.R_CUPY_COMM_INIT): frames, or a bare class
            if S.R_CUPY_COMM_INIT.search(text):
                self._cupy_init = lineno
            if S.R_CUPY_ERR_INIT.search(text):
                self._cupy_err = lineno
                return None
            if S.R_NCCL_ERROR_CLASS.search(text):
                code = "unknown"
        elif code is None and self._cupy_err and 0 < lineno - self._cupy_err <= 2 and "KeyError" in text:
            k = S.R_KEYERROR_CODE.match(self._body)
            code = S.NCCL_RESULT.get(int(k.group(1))) if k else None
            in_init = code is not None and bool(self._cupy_init) and lineno - self._cupy_init <= 8
        call = S.R_NCCL_CALL_CODE.search(text) if code is None and "NCCL call" in text else None
        if call:  # a harness naming the failed call and its result code by number
            code = S.NCCL_RESULT.get(int(call.group(2)))
        num = S.R_NCCL_RESULT_NUM.search(text) if code is None and "NCCL" in text else None
        if num:  # a library's own NCCL check printing the ncclResult_t as a number (0: ncclSuccess, no failure)
            code = S.NCCL_RESULT.get(int(num.group(1)))
        # a library's NCCL check whose code NCCL's own error string could not name ('unknown result code')
        unnamed = code is None and "unknown result code" in text and bool(S.R_NCCL_UNNAMED.search(text))
        if unnamed:
            code = "unknown"
        if code is None:
            if "Last error:" not in text:
                return None
            code = "unknown"
        if code == "ncclRemoteError" and self._paddle_init and 0 < lineno - self._paddle_init <= 12 and not any(
                self._paddle_init < h < lineno for h in self._tb_heads):
            in_init = True  # raised under Paddle's init_parallel_env frame, in the same traceback: its set-up
        ev = self._context(lineno, text, "nccl_error")
        ev.data["code"] = code
        t = task = None
        if ev.host is None and "Test NCCL failure" in text:
            task = S.R_SRUN.match(self._body)  # srun -l's task label before the test's host
            t = S.R_NCCL_TESTS_HOST.match(self._body[task.end():] if task else self._body)
        if t:
            ev.host = t.group(1)
        if t and task and ev.rank == int(task.group(1)) and self.ranks_named == {ev.rank}:
            # srun -l's task label on nccl-tests' failure line, no other task in the input: a task is one process
            # that may drive every GPU (-g N), not shown to be a rank (lead rule AI (2); a lone process, as
            # nccl-tests-230's): nobody is named
            ev.rank = None
            self.ranks_named.clear()
        if in_init:  # raised while the communicator was being created (its set-up, lead rule L)
            ev.data["in_init"] = True
        if unnamed:
            ev.data["unnamed"] = True
        if S.R_ASYNC_ABORT.search(text) or S.R_WORKER_LOOP_ERROR.search(text):
            ev.data["mid_run"] = True
        le = S.R_LAST_ERROR.search(text)
        if le:
            ev.data["last_error"] = le.group(1).strip()[: S.TEXT_CAP]
        self.last_error, self.last_error_line, self._follow = ev, lineno, 3
        self._detail_next = bool(code != "unknown" and not le and _R_ERROR_STRING.match(self._body))
        if le and not ev.data["last_error"]:
            # a bare "Last error:" read as an error of its own (its code line cut, or further above than the label's
            # window: a paste re-wrapped at 80 columns, round 30's llamafactory-6161 under --perturb wrap80): NCCL
            # prints its text on the next line, which joins this error (parse's Last error branch) and is still read
            # as its own line too: two ranks' lines interleaved put the other rank's own error there
            self.want_last_error = self._le_bare = True
        return ev

    def _ib(self, lineno: int, text: str) -> Event | None:
        m = S.R_IB.search(text)
        if m:
            ev = self._context(lineno, text, "ib_completion")
            hca = S.R_IB_HCA.search(text)
            ev.data.update(status=int(m.group("status")), peer=m.group("peer"), hca=hca.group(1) if hca else None)
            return ev
        k = S.R_KERNEL_QP_ERR.search(text) if ": QP " in text else None
        st = S.WC_STATUS_MSG.get(k.group(2).strip().lower()) if k else None
        if st:  # the kernel's RDMA driver (a pasted dmesg) reporting a queue pair's error completion
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=st, peer=None, hca=k.group(1))
            return ev
        w = S.R_WC_RETRY.search(text) if "retry count" in text else None
        if w:  # an RDMA engine's own report of a work completion's status (ibv_wc_status_str's words)
            ev = self._context(lineno, text, "ib_completion")
            hca, peer = S.R_LOCAL_NIC.search(text) or S.R_IB_HCA.search(text), S.R_PEER_NIC.search(text)
            ev.data.update(status=12 if w.group(1) else 13, peer=peer.group(1) if peer else None,
                           hca=hca.group(1) if hca else None)
            return ev
        s = S.R_WC_STATUS_SAID.search(text) if "failed for slice" in text or "with error on" in text else None
        st = S.IBV_WC_STATUS_STR.get(s.group("status").strip().lower()) if s else None
        if st:  # the same engines' report of another completion status (a protection error, a flush)
            ev = self._context(lineno, text, "ib_completion")
            hca, peer = S.R_LOCAL_NIC.search(text), S.R_PEER_NIC.search(text)
            ev.data.update(status=st, peer=peer.group(1) if peer else None,
                           hca=hca.group(1) if hca else s.group("dev"))
            if "UCX" in text:
                ev.data["stack"] = "UCX"
            return ev
        o = S.R_OFI.search(text)
        if o:
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, peer=None, ofi_rc=int(o.group(1)), ofi_err=int(o.group(2)),
                           ofi_name=(o.group(3) or "").strip(),
                           ofi_handshake=bool(S.R_OFI_HANDSHAKE.search(text, o.start())))  # never connected
            return ev
        f = S.R_LIBFABRIC_CQ.search(text) if "libfabric:" in text else None
        if f:  # libfabric's provider logging a completion error itself (EFA's efa_rdm_txe_handle_error)
            ev = self._context(lineno, text, "ib_completion")
            h = S.R_LIBFABRIC_PEER.search(text)
            ev.data.update(status=None, peer=h.group(1) if h else None, ofi_rc=int(f.group(2)), ofi_err=None,
                           ofi_name=(f.group(3) or "").strip(), ofi_prov=f.group(1),
                           ofi_handshake=bool(S.R_OFI_HANDSHAKE.search(text, f.start())))
            return ev
        n = (S.R_NVSHMEM_VERBS.search(text) if (" failed" in text or "create ah" in text) and ".c" in text
             else None)
        if n:
            return self._nvshmem_verbs(lineno, text, n)
        if ("non-zero status: " in text or "NULL value" in text) and S.R_NVSHMEM_MACRO.search(text):
            self._nvshmem_macro = True  # NVSHMEM's own transport failing in this file: its split-off messages are its
            for ev in self._bare_verbs:
                ev.data["stack"] = "NVSHMEM"
        st = S.R_NVSHMEM_QP_STEP.search(text) if "failed on " in text and "_" in text else None
        if st:
            return self._nvshmem_qp_step(lineno, text, st)
        r = S.R_IB_TRANSPORT_RANGE.search(text) if "transport out of range" in text else None
        if r:  # a library's own check of its IB device index against the host's devices (verdict.network)
            ev = self._context(lineno, text, "ib_device_range")
            ev.rank = None  # every process of the host picks its device the same way
            ev.data.update(index=int(r.group(1)) if r.group(1) else None, devices=int(r.group(2)) if r.group(2)
                           else None)
            return ev
        g = S.R_NVSHMEM_PEER_GPU.search(text) if "Peer GPU" in text else None
        if g or ("transport map" in text and S.R_NVSHMEM_TMAP.search(text)):
            ev = self._context(lineno, text, "nvshmem_no_path")
            ev.rank = None  # a PE's GPU, not a rank a launcher gave
            ev.data.update(gpu=int(g.group(1)) if g else None, peer_gpu=int(g.group(2)) if g else None)
            return ev
        b = S.R_BARE_VERBS.match(self._body) if "ibv_" in text and " failed" in text else None
        if b and len(self._bare_verbs) < 64:
            return self._bare_verbs_line(lineno, text, b.group(1))
        if "create ah" in text and len(self._bare_verbs) < 64 and S.R_BARE_AH.match(self._body):
            return self._bare_verbs_line(lineno, text, "ibv_create_ah")
        d = S.R_NVSHMEM_DEVX.search(text) if "mlx5dv_devx" in text else None
        if d:
            return self._nvshmem_devx(lineno, text, d)
        t = S.R_TP_IBV.search(text) if "tensorpipe/common/ibv.h" in text else None
        if t:  # TensorPipe's ibv transport refused a verbs resource the host allocates (verdict.transport, rule J)
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, verbs=S.TP_IBV_VERBS, verbs_error=t.group("why").strip(), peer=None,
                           stack="TensorPipe")
            return ev
        a = S.R_IB_ASYNC.search(text)
        v = None if a else S.R_VERBS.search(text)
        if v and v.group(1) == "ibv_open_device":
            return None  # NCCL's device enumeration skips an HCA it cannot open (a harmless WARN, verdict.noise)
        if v:
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, verbs=v.group(1), verbs_error=(v.group(2) or "").strip(), peer=None)
            return ev
        u = S.R_UCX_VERBS.search(text) if not a and "UCX" in text and ("ibv_" in text or "mlx5dv_" in text) else None
        if u:  # UCX (inside MPI, UCC, NIXL) naming the verbs call it made and its errno: read as NCCL's own
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, verbs=u.group(1), verbs_error=u.group("why").strip(), peer=None,
                           hca=u.group("dev"), stack="UCX")
            return ev
        q = (S.R_CREATE_QP.search(text) if not a and ("NET/IB" not in text or "mlx5dv_create_qp" in text) and
             ("create QP" in text or "queue pair" in text) else None)
        if q:  # an RDMA engine's own words for ibv_create_qp refused (verdict.transport._verbs_resource), and NCCL's
            # "NET/IB: mlx5dv_create_qp failed to create QP: <strerror>" (net_ib's mlx5 direct-verbs path, the same
            # local allocation on the HCA: lead rule J)
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, verbs="ibv_create_qp", verbs_error=(q.group(1) or "").strip(), peer=None)
            return ev
        mq = S.R_MODIFY_QP.search(text) if not a and ("modify QP" in text or "modify queue pair" in text) else None
        if mq:  # an RDMA engine's own words for ibv_modify_qp refused (lead rule J: the fabric, not the host)
            ev = self._context(lineno, text, "ib_completion")
            why = (mq.group("why") or "").strip()
            ev.data.update(status=None, verbs="ibv_modify_qp", peer=None,
                           verbs_error=f"to {mq.group('state')}: {why}" if mq.group("state") and why else why)
            return ev
        if not a or S.R_IB_ASYNC_INFO.match(a.group(1).strip()):
            return None  # lead rule U(1): the subnet manager's informational events fail nothing
        ev = self._context(lineno, text, "ib_completion")
        ev.data.update(status=None, async_event=a.group(1).strip(), peer=None)
        return ev

    def _nvshmem_verbs(self, lineno: int, text: str, n) -> Event:
        """NVSHMEM's IB transport failing a verbs call (signatures.R_NVSHMEM_VERBS): the same event as NCCL's "Call
        to ibv_X failed" -- the call, the errno it returned in strerror's words (its "non-zero status" for a call that
        returns an errno), or a work completion's status -- so lead rule J reads it as it reads NCCL's own."""
        ev = self._context(lineno, text, "ib_completion")
        ev.rank = None  # a process's transport, printed with no rank: the PE is not the rank a launcher gave
        call = "ibv_create_ah" if n.group("ah") else _NVSHMEM_CALLS.get(n.group(2), n.group(2))
        ret = int(n.group(1)) if n.group(1) else None
        if n.group(3):  # "ibv_poll_cq failed, status: 12": the completion's ibv_wc_status, a fabric's report
            ev.data.update(status=int(n.group(3)), peer=None, stack="NVSHMEM")
            return ev
        said = (n.group(4) or "").strip() or (
            _strerror(ret) if ret and call in _ERRNO_CALLS else f"status {ret}" if ret is not None else "")
        ev.data.update(status=None, verbs=call, verbs_error=said, peer=None, stack="NVSHMEM")
        return ev

    def _bare_verbs_line(self, lineno: int, text: str, call: str) -> Event:
        """A verbs call named failing alone on its line (signatures.R_BARE_VERBS): NVSHMEM's message split from its
        macro's prefix by other processes' writes where the file shows NVSHMEM's prefixes (before or after it), so
        read as NVSHMEM's "non-zero status: N ibv_X failed" with its errno lost."""
        ev = self._context(lineno, text, "ib_completion")
        ev.rank = None  # a process's transport, printed with no rank
        ev.data.update(status=None, verbs=call, verbs_error="", peer=None)
        if self._nvshmem_macro:
            ev.data["stack"] = "NVSHMEM"
        self._bare_verbs.append(ev)
        return ev

    def _nvshmem_qp_step(self, lineno: int, text: str, st) -> Event:
        """NVSHMEM's IBGDA failing to move a queue pair to its next state (signatures.R_NVSHMEM_QP_STEP), with its
        macro's prefix or split from it: its devx form of ibv_modify_qp, read as R_NVSHMEM_DEVX's -- the transition it
        tried and the status it returned (NVSHMEM's own, so given as a number)."""
        ev = self._context(lineno, text, "ib_completion")
        ev.rank = None  # a process's transport, printed with no rank: the PE is not the rank a launcher gave
        ret = S.R_NVSHMEM_STATUS.search(text, 0, st.start())
        state = {"rst2init": "INIT", "init2rtr": "RTR", "rtr2rts": "RTS"}[st.group(2)]
        ev.data.update(status=None, verbs=f"{st.group(1)} (its move of a queue pair to {state}, the devx form of "
                       "ibv_modify_qp)", verbs_error=f"status {ret.group(1)}" if ret else "", peer=None,
                       stack="NVSHMEM")
        return ev

    def _nvshmem_devx(self, lineno: int, text: str, d) -> Event:
        """NVSHMEM's IBGDA transport failing a devx queue-pair transition (signatures.R_NVSHMEM_DEVX): the devx form
        of ibv_modify_qp, so the same event as NVSHMEM's "ibv_modify_qp failed" -- the call with the transition it
        tried, and the errno it returned with the firmware's syndrome."""
        ev = self._context(lineno, text, "ib_completion")
        ev.rank = None  # a process's transport, printed with no rank: the PE is not the rank a launcher gave
        ret = int(d.group(1))
        ev.data.update(status=None, verbs=f"{d.group(2)} ({d.group(3)}, the devx form of ibv_modify_qp)",
                       verbs_error=f"{_strerror(ret)}, syndrome {d.group(4)}", peer=None, stack="NVSHMEM")
        return ev

    def _same_device(self, lineno: int, text: str) -> Event | None:
        """Two ranks on one GPU, read from lines that do not say so (signatures.R_COMM_BUSID, R_IPC_DEV)."""
        p = S.R_NCCL_PREFIX.search(text)
        b = S.R_COMM_BUSID.search(text) if p and "busId" in text else None
        if b:
            cid = S.R_COMM_ID.search(text)  # two runs in one file are two communicators: 2.1x+ print their ids
            key = (p.group("host"), b.group(3), b.group(2) + (":" + cid.group(1) if cid else ""))
            rank, pid = int(b.group(1)), p.group("pid")
            seen = self.busid_rank.setdefault(key, (rank, pid)) if len(self.busid_rank) < MAX_PIDS else (rank, pid)
            if seen[0] == rank or seen[1] == pid:
                return None
            pair, where = sorted((seen[0], rank)), f"PCI bus id {b.group(3)} on {p.group('host')}"
        else:
            i = S.R_IPC_DEV.search(text) if p and "IPC handle" in text else None
            if not i or i.group(2) != p.group("dev"):
                return None
            pair, where = [int(i.group(1))], f"CUDA device {i.group(2)}, its peer's device too"
        ev = self._context(lineno, text, "nccl_error")
        ev.rank = None  # the launch put them there: no rank's own failure
        ev.data.update(code="ncclInvalidUsage", duplicate_gpu=pair,
                       last_error=f"two ranks of one communicator on one GPU: rank {_fmt(pair)} on {where}")
        return ev

    def _dup_gpu(self, lineno: int, text: str) -> Event | None:
        m = S.R_DUP_GPU.search(text)
        if not m or "Last error" in text:
            return self._same_device(lineno, text) if "busId" in text or "IPC handle" in text else None
        if self.last_error is not None and lineno - self.last_error_line <= 4:
            le = self.last_error
            if (le.data.get("code") in ("unknown", "ncclInvalidUsage") and not le.data.get("last_error")
                    and self._same_rank(text)):
                # a paste that starts at torch's bare "Last error:" (its code line cut), or NCCL's bare
                # "ncclInvalidUsage: This usually reflects invalid usage" with its WARN text pasted under it (no
                # "Last error:" label, round 107's rocm-pytorch-2265): this is its text
                self._attach_last_error(S.R_RANK_TAG.sub("", self._body).strip())
            return None  # the Last error text of the ncclInvalidUsage just parsed
        ev = self._context(lineno, text, "nccl_error")
        ev.data.update(code="ncclInvalidUsage", last_error=m.group(0),
                       duplicate_gpu=[int(m.group(1)), int(m.group(2))] if m.group(1) else [])
        return ev

    def _shm(self, lineno: int, text: str) -> Event | None:
        o = S.R_MPI_SHM.search(text) if ("errno = " in text or "shm" in text or "shared memory" in text
                                          or "CMA support" in text) else None
        if o:  # Open MPI's (or PSM's) shared-memory transport refused by the host: the process's, no rank (rule J)
            ev = self._context(lineno, text, "mpi_shm")
            ev.rank = None
            ev.data.update(cma=o.group(1) is not None or o.group(3) is not None,
                           errno=int(o.group(1)) if o.group(1) else None, psm=o.group(3) is not None)
            return ev
        if "shmutils.cc:" in text and S.R_SHM_WARN_CUT.search(text):  # a shmutils.cc WARN, its message cut off
            ev = self._context(lineno, text, "shm_error")
            ev.data.update(what=self._body.strip()[:200], cut=True)
            return ev
        # NCCL's own segments are named /dev/shm/nccl-XXXXXX: its message without the WARN prefix is the same failure
        if not ("NCCL WARN" in text or "/dev/shm/nccl-" in text) or not S.R_SHM.search(text):
            return None
        ev = self._context(lineno, text, "shm_error")
        w = S.R_NCCL_WARN.search(text)
        ev.data["what"] = (w.group(1) if w else self._body).strip()[:200]
        return ev

    def _no_nccl(self, lineno: int, text: str) -> Event | None:
        m = S.R_NO_NCCL.search(text)
        if not m or ((m.group("backend") or m.group("nocuda") or m.group("arg"))
                     and self._body.lstrip().startswith("raise ")):
            return None  # (a traceback's source line of the check: its exception line follows)
        if m.group("noback") and self._body.lstrip(" \t>").startswith(("raise ", 'f"', "f'", '"', "'")):
            return None  # the check's source (pytest lists a frame's lines): its message's string, not the error
        if m.group("built") and self._body.lstrip(" \t>").startswith(("raise ", 'f"', "f'", '"', "'")):
            return None  # the check's source line in a traceback: its exception line follows
        ev = self._context(lineno, text, "no_nccl")
        if m.group("built"):  # a c10d backend other than NCCL missing from this torch build (lead rule Q)
            ev.data.update(what="unbuilt_c10d", backend=m.group("pkg").lower())
            return ev
        if m.group("noback"):  # no backend given, and none known for the device torch found
            ev.data.update(what="no_backend", accel=m.group("accel"))
            return ev
        if m.group("unbuilt"):  # a framework's communication layer refusing the backend named (lead rule Q)
            ev.data.update(what="unbuilt_backend", backend=m.group("ubk"))
            return ev
        if m.group("arg"):  # the argument and the backend that refused it
            ev.data.update(what="backend_arg", arg=m.group("argname"), backend=m.group("argbackend"))
            return ev
        if m.group("hvd"):  # Horovod built without its GPU operations (lead rule AF (2))
            ev.data["what"] = "hvd_no_cuda"
            tb = getattr(self, "_tb", None)  # the traceback's innermost frame (horovod/torch, horovod/tensorflow ...)
            if tb is not None and 0 < lineno - tb.frame[0] <= 4:
                ev.data["frame_file"] = tb.frame[1]  # which framework binding gave it the GPU tensor
            return ev
        ev.data["what"] = ("library" if m.group("lib") else "backend" if m.group("backend") else
                           "cuda_mpi" if m.group("mpi") else "no_cuda" if m.group("nocuda") else m.group(0))
        if m.group("nocuda"):  # which device API the build lacks
            ev.data["api"] = m.group("api")
        if m.group("backend"):  # the backend named, as the check printed it
            ev.data["backend"] = m.group("gone") or m.group("bad")
        if len(self._no_nccl_seen) < 8:
            self._no_nccl_seen.append(ev)  # marked windows at the end where a Windows install's path was seen
        return ev

    def _nccl_info(self, lineno: int, text: str) -> Event | None:
        if "WARN" not in text and S.R_EFA_MEANT.search(text):  # lead rule Z: the job was meant to run on EFA
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "efa fabric meant"
            return ev
        if "NIC info" in text and S.R_OFI_NO_NIC.search(text):  # the plugin could not read its device (rules J/Z)
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "ofi device not found"
            return ev
        if "infiniband " in text and S.R_RDMA_REFUSED.search(text):  # the RDMA driver refusing a resource (rule J)
            return self._context(lineno, text, "rdma_refused")
        if "allocate resource[" in text and (h := S.R_HCCL_RES_EXHAUSTED.search(text)) and \
                S.R_HCCL_RES_REASON.search(text):  # HCCL's own resource for its links refused at set-up (rule J)
            ev = self._context(lineno, text, "rdma_refused")
            ev.rank = None  # its "aicpu rank:15" is the rank whose link failed, a set-up every rank shares
            ev.data.update(lib="HCCL", resource=h.group("res").strip())
            return ev
        m = S.R_NCCL_PREFIX.search(text)
        if m and "opCount " in text and (ct := S.R_COLL_TRACE.search(text)):
            self._coll_traced(lineno, text, m, ct)
            return None
        if not m and len(self._call_traced) < 2 and ("opCount " in text or "TRACE" in text) and (
                ct := S.R_CALL_TRACE.search(text)) and bool(ct.group("algo")) not in self._call_traced:
            self._call_traced.add(bool(ct.group("algo")))  # one of each a file: a COLL/TRACE log has one a call
            ev = self._context(lineno, text, "benign")
            ev.rank = None  # the call's trace says nothing failed, nor where a rank stands
            ev.data.update(what="nccl call trace", algo=ct.group("algo"), proto=ct.group("proto"))
            return ev
        if not m and "WARN" not in text:
            if " NCCL INFO " in text and S.R_NCCL_BARE_HEAD.search(text):
                return self._bare_info(lineno, text)
            return self._retcode(lineno, text)
        if not m or m.group("lvl") == "WARN":  # a WARN pasted without its host:pid:tid prefix counts too
            w = S.R_NCCL_WARN.search(text) or S.R_OLD_WARN.search(text) or S.R_OFI_OLD_WARN.search(text)
            if not m and w is None:
                return self._retcode(lineno, text)
            if w is not None and S.R_WARN_RETCODE.fullmatch(w.group(1).strip()):
                # a WARN that holds only a return code is a line of NCCL's return-code trail, printed at WARN level
                # (a vendor fork's build does): its code is the class of the failure, as at INFO (lead rule W)
                return self._retcode(lineno, text)
            ev = self._context(lineno, text, "nccl_warn")
            ev.data["warn"] = w.group(1).strip()[:200] if w else ""
            st = S.R_SOCKET_TIMEOUT.search(text)
            if st:  # a socket's recv/send timed out (counted apart: lead rule O)
                ev.data.update(tags=("socket_timeout",), peer=st.group(1))
            elif S.R_SOCKET_PROGRESS.search(text):  # a running transfer of NCCL's socket transport failed
                ev.data["tags"] = ("socket_progress",)
            return ev
        if S.R_NO_PLUGIN.search(text):  # INFO: an optional net/CollNet plugin is absent, NCCL goes on without it
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "net plugin absent"
            if "Failed to find" not in text and m.group("host"):  # the net plugin itself (not CollNet's symbol)
                ev.data.update(net_plugin="internal", host=m.group("host"),  # verdict.world._net_plugin_split
                               comm_nodes=self._comm_nodes)
            return ev
        if "Plugin" in text and m.group("host") and S.R_NET_PLUGIN_LOADED.search(text):
            # INFO: this host loaded an external net plugin; against a host using NCCL's internal one, the hosts of
            # one job load different net transports (verdict.world._net_plugin_split, lead rule CE (2))
            ev = self._context(lineno, text, "benign")
            ev.data.update(what="net plugin loaded", net_plugin="external", host=m.group("host"),
                           comm_nodes=self._comm_nodes)
            return ev
        if "TUNER/Plugin" in text and S.R_NO_TUNER.search(text):  # INFO: the optional tuner plugin is absent
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "tuner plugin absent"
            return ev
        if " nNodes " in text and (nn := S.R_COMM_NNODES.search(text)):  # the nodes this host's communicator spans
            seen = self._comm_nodes.get(m.group("host"))
            if seen is None and len(self._comm_nodes) < 16:
                seen = self._comm_nodes[m.group("host")] = []
            if seen is not None and int(nn.group(1)) not in seen and len(seen) < 4:
                seen.append(int(nn.group(1)))
                self._comm_nodes_max = max(self._comm_nodes_max, seen[-1])  # a running max (review 109 b finding 9)
        nr = S.R_NRANKS.search(text)
        split = nr is not None and ("ncclCommSplit" in text or " parent 0x" in text)
        if nr and not split and len(self.pid_rank) < MAX_PIDS:
            self.pid_rank[(m.group("host"), int(m.group("pid")))] = int(nr.group(1))
        found = {}
        ifs = S.R_IFACES.search(text)
        if ifs:
            found["interfaces"] = S.R_IFACE.findall(ifs.group(1))[:8]
            if ifs.group(0).startswith("Bootstrap"):  # its bootstrap uses the first it lists, the others not at all
                found["bootstrap_ifaces"] = True
        found.update(_net_facts(text))
        if "GPU Direct RDMA Disabled" in text and S.R_GDR_OFF.search(text):
            found["gdr_off"] = True
        if nr:
            found["nranks"] = int(nr.group(2))
            found["comm_rank"] = int(nr.group(1))
        if S.R_SETUP_DONE.search(text):
            found["setup_done"] = True
        if nr and "Destroy COMPLETE" in text and S.R_COMM_DESTROYED.search(text):
            found["destroyed"] = True
        if nr and S.R_COMM_ABORTED.search(text):
            found["aborted"] = True
            if len(self._aborted) < MAX_PIDS:
                self._aborted.add((m.group("host"), int(m.group("pid"))))
        if not found:
            return self._retcode(lineno, text)
        ev = self._context(lineno, text, "transport")
        if ifs and (own := _own_prefix(text, ifs.start(), m)) is not m:
            # processes writing to one stream cut each other's lines ("... provider assox3200n1:51061:51061 [1] NCCL
            # INFO Bootstrap : Using ..."): the interface list is the process's whose prefix comes right before it
            ev.host, ev.pid = own.group("host"), int(own.group("pid"))
        if nr and ev.rank is None:
            ev.rank = int(nr.group(1))
        if split:  # ncclCommSplit's "rank N" is the rank inside the new sub-communicator, not a global rank, and
            ev.rank = None  # the line says nothing of the process at the failure: it shows no rank of the job
        ev.data.update(found)
        return ev

    def _bare_info(self, lineno: int, text: str) -> Event | None:
        """An NCCL INFO line pasted without its host:pid:tid ("[0] NCCL INFO NET/IB : No device found."): the
        transport facts it states -- IB finding no device, the network NCCL uses, a setting NCCL reports -- read as
        from a prefixed line (lead rules K, Z); with no process named, the line ties to no host or rank of NCCL's own.
        Anything else on it is read as before (its return-code trail)."""
        found = _net_facts(text)
        if not found:
            return self._retcode(lineno, text)
        ev = self._context(lineno, text, "transport")
        ev.data.update(found)
        return ev

    def _coll_traced(self, lineno: int, text: str, m, ct) -> None:
        """NCCL_DEBUG_SUBSYS=COLL's line of one collective (signatures.R_COLL_TRACE): kept, per process and
        communicator, as the collective it issued at each opCount (the last _COLL_KEEP of them), in one quiet
        ``coll_trace`` event a file handed on at its end (verdict.desync._coll_split compares the processes)."""
        if self.coll_trace is None:
            if len(self.aside) >= 8:
                return
            self.coll_trace = Event("coll_trace", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
            self.coll_trace.data["procs"] = {}
            self.aside.append(self.coll_trace)
        procs = self.coll_trace.data["procs"]
        proc = f"{m.group('host')}:{m.group('pid')}:{m.group('dev')}"
        if proc not in procs and len(procs) >= 64:
            return
        comms = procs.setdefault(proc, {})
        if ct.group(3) not in comms and len(comms) >= 16:
            return
        comm = comms.setdefault(ct.group(3), {"nranks": int(ct.group(4)), "ops": {}})
        ops = comm["ops"]
        ops[int(ct.group(2), 16)] = (ct.group(1), f"{self.path}:{lineno}: {text.strip()[: S.TEXT_CAP]}")
        if len(ops) > _COLL_KEEP:
            ops.pop(next(iter(ops)))

    def _tests_dev(self, lineno: int, text: str, rank: int, proc: tuple[str, str]) -> None:
        """nccl-tests' device table ("#  Rank  0 Group  0 Pid 4479 on host device  0 ..."): one line per rank of the
        world (each thread's -g GPUs a rank of their own), so one run lists a rank once. A second process (another
        pid or host) listed with a rank already listed, before any results table, numbered itself that rank again:
        every process launched is rank 0.. of a world of its own, nccl-tests not run as one MPI job (lead rule AA (1),
        as rule BD (3) reads two hosts each rank 0). Kept aside once as a ``launch_args`` event with ``own_worlds``
        (verdict.world._own_worlds), which counts the processes listed with that rank and their hosts."""
        if len(self._tests_procs) < 256:
            self._tests_procs.setdefault(proc, set()).add(rank)
        first = self._tests_devs.setdefault(rank, proc)
        if first == proc:
            return
        procs = self._tests_seen.setdefault(rank, {first})
        if len(procs) < 64:
            procs.add(proc)
        if self._tests_twice is None:
            self._tests_twice = ev = self._plain(lineno, text, "launch_args")
            ev.rank = None  # a rank number each process gave itself, not a rank of the job
            self.aside.append(ev)
        self._tests_twice.data.update(own_worlds=True, tests_rank=rank, procs=len(procs),
                                      hosts=sorted({h for h, _ in procs})[:4])

    def _stack_dump(self, lineno: int, text: str) -> Event | None:
        """A process's stacks shown by faulthandler ('Thread 0x... (most recent call first):', S.R_FAULTHANDLER_THREAD)
        or by a debugger (a "(gdb) bt" / "(cuda-gdb) info cuda kernels" prompt, S.R_GDB_STACK_PROMPT; gdb's or lldb's
        frame inside NCCL pasted without it, S.R_GDB_FRAME_NCCL / S.R_LLDB_FRAME_NCCL): read once per
        file like py-spy's dump (``pyspy_thread``, its ``tool`` said), no rank -- where one process stood, not why
        (lead rules BD (2), AB (2), AC (1); round 88's deepspeed-860, torchtitan-168, nccl-1774, snowfall-71; round
        99's nccl-750, pytorch-149153). A later frame of that dump inside a torch.distributed collective
        (faulthandler's 'distributed_c10d.py", line N in scatter'), NCCL's communicator creation (gdb's "#8 ...
        ProcessGroupNCCL::initNCCLComm"), its kernel launch or its communicators' abort is marked on it for the fix
        (verdict.signals._pyspy_bare); those lines are read on (None)."""
        if self._stack_ev is None and not self._pyspy_seen:
            fh = "most recent call first" in text and S.R_FAULTHANDLER_THREAD.match(self._body)
            # the same dump pasted without its prompt: gdb's own frame of NCCL's (S.R_GDB_FRAME_NCCL), or py-spy top's
            # row of a torch.distributed function holding (nearly) all of a live process's samples (round 96's
            # pytorch-120683: a coalesced recv sitting in ncclGroupEnd); a row of a smaller share is a profile of a
            # running job, not a process that sat there
            # (not after gdb's line of a crash signal: its frames are the crash's, read as that crash, _dbg_crash)
            bare = "#" in text and not self._dbg_crash and S.R_GDB_FRAME_NCCL.match(self._body)
            # lldb's frame of the same ("frame #3: 0x... libtorch_cuda.so`c10d::ProcessGroupNCCL::abort() + 664"),
            # not below lldb's header of a crash signal (a crash's frames, not a live process stopped: _dbg_crash)
            lldb = (not bare and "frame #" in text and not self._dbg_crash
                    and S.R_LLDB_FRAME_NCCL.match(self._body) is not None)
            bare = bare or lldb
            top = None if fh or bare or "%" not in text else S.R_PYSPY_TOP_C10D.match(self._body)
            top = top if top is not None and float(top.group("total")) >= _TOP_HELD else None
            prompt = "gdb) " in text and not self._dbg_crash and S.R_GDB_STACK_PROMPT.match(self._body)
            if fh or bare or top or prompt:
                ev = self._context(lineno, text, "pyspy_thread")
                # a dump of one process blames no rank; its tag ("[rank0]:Thread 0x...") is only said
                ev.data["rank"], ev.rank = ev.rank, None
                ev.data["tool"] = "faulthandler" if fh else "py-spy top" if top else "lldb" if lldb else "gdb"
                if top:
                    ev.data["coll"] = top.group("func")
                self._stack_ev = ev
                if not bare:
                    return ev
                self._stack_frame(ev)  # the frame itself says where the process stood
                return ev
            return None
        ev = self._stack_ev
        if ev is None:
            return None
        self._stack_frame(ev)
        return None

    def _stack_frame(self, ev: Event) -> None:
        """What a later line of a stack dump says of where its process stood (``_stack_dump``): a faulthandler frame
        of a torch.distributed collective, a debugger's (gdb's or lldb's) frame of NCCL's communicator creation, of a
        coalesced group's end (ProcessGroupNCCL::endCoalescing / groupEnd, ncclGroupEnd: S.R_GDB_GROUP_END), of
        NCCL's kernel launch (ncclLaunchKernel: S.R_DBG_NCCL_LAUNCH) or of the teardown of NCCL's communicators
        (ProcessGroupNCCL::abort, ncclCommAbort: S.R_DBG_NCCL_ABORT), each marked once."""
        text = self._body
        f = S.R_FH_C10D_FRAME.search(text) if "c10d.py" in text else None
        if f is not None and "coll" not in ev.data:
            ev.data["coll"] = f.group("op")
        elif "NCCL" in text or "nccl" in text:
            if S.R_GDB_COMM_INIT.match(text):
                ev.data["comm_init"] = True
            elif ("roupEnd" in text or "Coalescing" in text) and S.R_GDB_GROUP_END.match(text):
                ev.data["group_end"] = True
            elif "LaunchKernel" in text and S.R_DBG_NCCL_LAUNCH.match(text):
                ev.data["launch"] = True
            elif ("bort" in text or "estroy" in text or "inalize" in text or "shutdown" in text) and (
                    S.R_DBG_NCCL_ABORT.match(text)):
                ev.data["abort"] = True

    def _progress(self, lineno: int, text: str) -> Event | None:
        """How far a job got: NCCL's set-up chatter (rings, trees, channels: ``setup``) and an
        nccl-tests run's device list and table header (``run_start``) and its result rows or
        closing average (``run_done``). A ring line also names the rank of the thread printing it."""
        if S.R_SETUP.search(text):
            ev = self._plain(lineno, text, "setup")
            me = S.R_RING_SELF.search(text)
            if me and ev.host is not None and self.pid_rank.get((ev.host, ev.pid)) is None:
                key = (ev.host, ev.pid, S.R_NCCL_PREFIX.search(text).group("tid"))
                # one thread that prints rings of two ranks (one process driving several GPUs) names nobody
                self.ring_rank[key] = int(me.group(1)) if self.ring_rank.get(key, int(me.group(1))) == int(
                    me.group(1)) else -1
            ev.data["net"] = bool(S.R_SETUP_NET.search(text))
            ev.data["net_ib"] = ev.data["net"] and " via NET/IB" in text
            ev.data["shm"] = not ev.data["net"] and bool(S.R_SETUP_SHM.search(text))
            ev.data["p2p"] = not ev.data["net"] and " via P2P/" in text
            if self._comm_nodes:  # the nodes the communicators read so far span (their 'nNodes N'): state.comm_nodes
                ev.data["comm_nodes"] = self._comm_nodes_max  # kept as each nNodes line is read, not per line
            return ev
        if "nThread" in text and (pre := S.R_TESTS_PREAMBLE.search(text)):
            last, self._preamble = self._preamble, lineno
            if not (last is not None and 0 <= lineno - last <= _PREAMBLE_NEAR):
                self._tests_marked = []  # another run (not this preamble read again): the ones before stay its run's
            if self._tests_gpus is None:  # nccl-tests runs here: its 1.x CUDA check's ordinal is its own (crash reader)
                self._tests_gpus = int(pre.group(1))
                for e in self._v1_ordinals:
                    e.data.update(tests_check=True, tests_gpus=self._tests_gpus)
                self._tests_marked += self._v1_ordinals
                self._v1_ordinals = []
            if last is not None and 0 < lineno - last <= _PREAMBLE_NEAR:  # a second process's own preamble (rule AA)
                ev = self._plain(lineno, text, "launch_args")
                ev.data["own_worlds"] = True
                return ev
            return None
        d = S.R_TESTS_DEVICE.search(text)
        if d:
            self._preamble = None  # the first run's device list: a preamble after it is another run's
        if d or S.R_TESTS_HEADER.search(text):
            ev = self._plain(lineno, text, "run_start")
            ev.data["host"] = d.group("host") if d else None
            if d:  # rank 0 prints every process's device line: the highest rank listed + 1 is the world
                ev.data["tests_rank"] = int(d.group("rank"))
                self._tests_dev(lineno, text, int(d.group("rank")), (d.group("host"), d.group("pid")))
            else:
                self._tests_devs, self._tests_seen = {}, {}  # the results table: a device list after it is another run
            return ev
        if '): "' in text and not self._pyspy_seen and S.R_PYSPY_THREAD.match(self._body):
            self._pyspy_seen = True  # once per file: a dump's first thread header says a dump was taken
            ev = self._context(lineno, text, "pyspy_thread")
            ev.rank = None  # py-spy names a process by pid; the verdict reads only that a dump was taken
            return ev
        if 'File: "' in text and not self._pyspy_seen and S.R_STACK_DUMP_FRAME.match(self._body):
            # a thread-stack dump a signal handler printed from a live process (sys._current_frames() through
            # traceback.extract_stack: 'File: "x.py", line 12, in f', under "# ThreadID: N" / "### ProcessID=N,
            # ThreadID=N ###"): read like py-spy's dump (lead rule BD (2); round 83's allennlp-5088)
            self._pyspy_seen = True
            ev = self._context(lineno, text, "pyspy_thread")
            ev.rank = None
            ev.data["tool"] = "stack"
            return ev
        if "stop reason = signal" in text and S.R_LLDB_CRASH_STOP.match(self._body):
            self._dbg_crash = True  # lldb stopped a thread on a crash signal: its frames are the crash's (_stack_dump)
        elif " signal " in text and S.R_GDB_CRASH_STOP.match(self._body):
            self._dbg_crash = True  # gdb's stop or core on a crash signal: the same (review 98 finding 3)
        if ("hread 0x" in text or "gdb) " in text or (self._stack_ev is not None and (
                "c10d.py" in text or "NCCL" in text or "nccl" in text)) or (self._stack_ev is None and (
                ("#" in text and (" in " in text or "frame #" in text)) or ("%" in text and "c10d.py:" in text)))):
            dumped = self._stack_dump(lineno, text)
            if dumped is not None:
                return dumped
        a = S.R_PYSPY_NCCL_ABORT.match(self._body) if self._pyspy_seen and "ncclComm" in text else None
        if a:  # a py-spy dump: a thread inside NCCL's own abort / destroy of a communicator (verdict.signals)
            ev = self._context(lineno, text, "pyspy_abort")
            ev.rank = None
            ev.data["what"] = a.group(1)
            return ev
        t = S.R_PYSPY_TEARDOWN.search(self._body) if "distributed_c10d" in text else None
        if t:  # a py-spy dump: a thread inside the process group's teardown
            ev = self._context(lineno, text, "teardown_stuck")
            ev.data["what"] = t.group(1)
            return ev
        w = S.R_PYSPY_COLLECTIVE.search(self._body) if "distributed_c10d" in text else None
        if w:  # a py-spy dump: a thread waiting inside a collective
            ev = self._context(lineno, text, "pyspy_waiting")
            ev.data["what"] = w.group(1)
            return ev
        if "suspend process" in text and S.R_PYSPY_UNSUSPENDED.search(text):
            return self._context(lineno, text, "pyspy_unsuspended")
        if S.R_TESTS_DONE.search(self._body):
            if "Avg bus bandwidth" in self._body:
                # that nccl-tests run completed, so none of its processes failed setting its device: a 1.x "Cuda
                # failure ... 'invalid device ordinal'" read since its preamble (or held from before it), or after
                # it, is another program's -- it keeps its reading as any CUDA error (review 102 (1) finding 3)
                for e in self._tests_marked:
                    e.data.pop("tests_check", None)
                    e.data.pop("tests_gpus", None)
                self._tests_gpus, self._v1_ordinals, self._tests_marked = None, [], []
            return self._plain(lineno, text, "run_done")
        # printed by rank 0 of a communicator only (showVersion)
        if "NCCL version" in self._body and S.R_NCCL_VERSION_LINE.match(self._body.strip()):
            return self._plain(lineno, text, "nccl_version")
        bar = S.R_LOADING_SHARDS.search(text)
        if bar:  # the processes were loading the model's weights (host RAM), unless the bar is at its end
            ev = self._plain(lineno, text, "loading")
            ev.data["done"] = bool(S.R_LOADING_DONE.search(text, bar.end()))
            return ev
        return None


def _net_facts(text: str) -> dict:
    """What an NCCL INFO line states of the network, prefixed or bare: the network NCCL uses (and its "Using"
    detail), IB finding no device, a setting NCCL reports (set by the environment, or its own "X set to Y")."""
    found = {}
    u = S.R_NET_USING.search(text)
    if u:
        found["network"] = u.group(1) or u.group(3)
        if u.group(2):
            found["using"] = u.group(2).strip()[:200]
    if S.R_NO_IB.search(text):
        found["no_ib"] = True
    e = S.R_SET_BY_ENV.search(text) or S.R_NCCL_SET_TO.search(text)
    if e:
        found["setting"] = (e.group(1), e.group(2).rstrip(".,"))
    return found


def _own_prefix(text: str, at: int, first):
    """The last host:pid:tid [dev] NCCL prefix before offset ``at`` (``first`` where the line holds only one)."""
    last = first
    for p in S.R_NCCL_PREFIX.finditer(text, first.end(), at):
        last = p
    return last
