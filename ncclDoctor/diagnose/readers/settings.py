"""LineParser's readers of the job's launch settings as the lines show them: command lines, torchrun's printed
config, environment dumps, world set-up calls, a library's supported launch.

A mixin of ``parse.LineParser``: its methods read one hit line each and share the parser's per-file state,
which ``LineParser.__init__`` declares and documents."""

from __future__ import annotations

import base64
import ipaddress
import json
import re

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.generic import exception_line, is_failure_line
from ncclDoctor.diagnose.readers.common import _hosts_gpus
from ncclDoctor.diagnose.signatures import Event


class SettingsReaders:
    def _launch_mode(self, lineno: int, text: str) -> Event | None:
        """A library's warning that its installed version starts a feature only through one bootstrap ("Transformer
        Engine v1.5.0 supports only MPI bootstrap backend."): the launch every rank shares (verdict.launch._launch_mode,
        lead rules V (1), W). And torch refusing CUDA in a process started by fork (signatures.R_CUDA_FORK): the start
        method every worker shares (verdict.launch._cuda_fork, lead rule AF (2))."""
        at = 0
        if "in notebook_launcher" in text and (nb := S.R_NB_LAUNCHER_FRAME.search(text)):
            # a rich frame of notebook_launcher: its check below (on a later line, or on this one where a hard-wrapped
            # box was joined into one line)
            self._nb_frame, at = (lineno, int(nb.group("line"))), nb.end()
        if "is_initiali" in text and self._nb_frame and 0 <= lineno - self._nb_frame[0] <= 12 and (
                k := S.R_RICH_CUDA_CHECK.search(text, at)) and 0 < self._nb_frame[1] - int(k.group("n")) <= 3:
            # the frame raised at notebook_launcher's own check that CUDA is uninitialised (round 110's
            # hf-notebooks-265): its refusal to fork, the error text cut below the box
            ev = self._context(lineno, text, "cuda_fork")
            ev.rank = None
            ev.data["said"] = "notebook_launcher's check 'if torch.cuda.is_initialized():' raised"
            ev.data["notebook"] = True
            self._nb_frame = None
            return ev
        f = S.R_CUDA_FORK.search(text) if ("forked subprocess" in text or "CUDA to be initiali" in text
                                            or "torch.cuda` in any cell" in text
                                            or "CUDA is already initiali" in text) else None
        if f:  # a worker forked after its parent initialised CUDA: the start method every worker shares (rule AF (2))
            ev = self._context(lineno, text, "cuda_fork")
            # torch's own sentence alone; a launcher's message from its start (after the last ": " before it: what
            # its check did), the words themselves at its end; the second half of a message split over a listing's
            # lines alone (its line number and quote before it are the listing's)
            start = self._body.rfind(": ", 0, f.start()) + 2 if ": " in self._body[:f.start()] else 0
            ev.data["said"] = (f.group(0) if f.group(0).startswith(("Cannot", "using")) else
                               self._body[start:f.end()].strip()[:300])
            return ev
        x = (S.R_XLA_RUNTIME_INIT.search(text) if ("lready" in text or "LREADY" in text) and "xmp.spawn" in text
             else None)
        if x:  # torch_xla's spawn refused: the parent used the XLA device first (rules Q, W; round 110's xla-9303)
            ev = self._context(lineno, text, "cuda_fork")
            ev.rank = None
            ev.data.update(said=x.group(0), xla=True)
            return ev
        rf = S.R_RDMA_FORK.search(text) if "when fork()" in text else None
        if rf:  # an RDMA library's fork-safety check ending the process: its setting, every process's (rule W)
            ev = self._context(lineno, text, "fork_unsafe")
            ev.rank = None
            ev.data.update(lib=rf.group("lib"), said=rf.group(0))
            return ev
        m = S.R_BOOTSTRAP_ONLY.search(self._body) if "supports only" in text else None
        if m is None:
            return None
        ev = self._context(lineno, text, "launch_mode")
        ev.rank = None  # printed by every process alike: the installed library's, not a rank's
        ev.data.update(who=(m.group("who") or "the library").strip(), version=m.group("ver"), mode=m.group("mode"),
                       said=m.group(0))
        return ev

    def _launch_setup(self, lineno: int, text: str) -> Event | None:
        """A launcher's check of its launch set-up failing before any worker ran (signatures.R_LAUNCH_SETUP, lead
        rule X (2)): the ssh probe of a hostfile's node, MPI's start-up."""
        if "world_info=" in text and (ds := self._ds_script(lineno, text)) is not None:
            return ds
        mp = S.R_MASTER_PATH.search(text) if "aster" in text or "ASTER" in text else None
        if mp:  # a launch command giving a file path as the master's address (a remote shell's rc output read as it)
            return self._setup(lineno, text, master_path=mp.group(1))
        ds = S.R_DS_MASTER_IP.search(text) if "IP address of" in text else None
        if ds and _host_only(ds.group(1)) and ds.group(1) != ds.group(2):  # the runner's choice, every node's
            return self._setup(lineno, text, master_local=ds.group(1), master_node=ds.group(2))
        ro = S.R_SHELL_READONLY.search(text) if "readonly variable" in text else None
        if ro:  # the remote shell's line
            return self._setup(lineno, text, readonly=ro.group(1))
        ag = S.R_AGENT_NOT_FOUND.search(self._body) if ("not found" in text and (
            "kubectl" in text or "orted" in text or "prted" in text)) or "sshd: " in text else None
        if ag:  # the launcher's remote start: its daemon or its agent's command not found by the shell running it
            return self._setup(lineno, text, agent=ag.group("name"), agent_cmd=ag.group("cmd"),
                               agent_shell=ag.group("shell"))
        hc = S.R_DS_SSH_CHECK.search(text) if "reachable via ssh" in text else None
        if hc:  # DeepSpeed's runner's ssh probe of its hostfile's first host failed (its own RuntimeError)
            return self._setup(lineno, text, ssh=f"ssh {hc.group('host')} hostname", ssh_check=hc.group("host"))
        ln = (S.R_LAUNCHER_NOT_FOUND.search(self._body) or S.R_LAUNCHER_NOT_FOUND_ZSH.search(self._body)) if (
            "not found" in text or "No such file or directory" in text) and (
            "torchrun" in text or "deepspeed" in text or "accelerate" in text) else None
        if ln:  # the launcher itself not found by the shell running the launch command: no worker ever started
            return self._setup(lineno, text, launcher_missing=ln.group("name"), launcher_cmd=ln.group("cmd"),
                               launcher_shell=ln.group("shell"))
        ssh = S.R_SSH_CLIENT.search(text) if "ssh: " in text else None
        if ssh:  # the ssh client could not reach a host (no such name, refused, no route): the launcher's reach
            return self._setup(lineno, text, ssh_host=ssh.group("dns") or ssh.group("conn"), ssh_dns=bool(
                ssh.group("dns")), ssh_why=(ssh.group("why") or "").lstrip(": ").strip())
        ct = S.R_CONTAINER_START.search(text) if "pyxis" in text or "spank" in text else None
        if ct:  # the container plugin could not start the task's container: no worker process ran
            self._container_at = lineno
            return self._setup(lineno, text, container=ct.group(0))
        en = S.R_ENROOT_LOG.search(text) if self._container_at and 0 < lineno - self._container_at <= 40 and (
            "ERROR] " in text or "unbound variable" in text) else None
        if en:  # the container runtime's own log of what failed (kept only beside a container start that failed)
            return self._setup(lineno, text, container_why=en.group("cmd") or en.group("hook") or en.group("var"),
                               container_cmd=en.group("cmd"), container_hook=en.group("hook"),
                               container_var=en.group("var"))
        m = S.R_LAUNCH_SETUP.search(text) if (
            "exit status 255" in text or "MPI_Init" in text or "exit code 255" in text) else None
        if m is None:
            return (self._ompi_init_failed(lineno, text) or self._mpich_stack(lineno) or self._mpi_runtime(lineno, text)
                    or self._mpi_call_error(lineno, text))
        ev = self._setup(lineno, text, ssh=m.group("ssh"), mpi=m.group("mpi"), pdsh=m.group("pdsh"),
                         mpich=m.group("mpich"), mpich_why=None, oneccl=self._oneccl)
        if m.group("mpich"):  # its error stack follows, one function a line, with no trigger word
            self._mpich_open, self._follow = (lineno, ev), max(self._follow, 12)
        return ev

    def _mpich_stack(self, lineno: int) -> None:
        """The error stack under MPICH's "Fatal error in PMPI_Init_thread" (signatures.R_MPICH_STACK): the first of its
        lines that says what failed ("MPIR_pmi_init(142)...: PMI_Get_appnum returned -1") is kept on that event."""
        if self._mpich_open is None or not 0 < lineno - self._mpich_open[0] <= 12:
            return None
        st = S.R_MPICH_STACK.match(self._body)
        if st is not None and self._mpich_open[1].data["mpich_why"] is None:
            self._mpich_open[1].data["mpich_why"] = f"{st.group('fn')}: {st.group('why')}"[:200]
        return None

    def _ompi_init_failed(self, lineno: int, text: str) -> Event | None:
        """Open MPI's own start-up failing in a process (signatures.R_OMPI_INIT_FAILED, lead rule X (2)), and the step
        its help message names on a line of its own a few lines on (R_OMPI_INIT_STEP), kept on that event."""
        o = S.R_OMPI_INIT_FAILED.search(text) if "for some reason" in text else None
        if o is not None:
            ev = self._setup(lineno, text, ompi_init=o.group("stage"), ompi_step=None)
            self._ompi_open, self._follow = (lineno, ev), max(self._follow, 10)  # its step's line has no trigger word
            return ev
        if self._ompi_open is None or not 0 < lineno - self._ompi_open[0] <= 10 or " failed" not in text:
            return None
        st = S.R_OMPI_INIT_STEP.match(self._body)
        if st is not None and self._ompi_open[1].data["ompi_step"] is None:
            self._ompi_open[1].data["ompi_step"] = st.group("step")
        return None

    def _mpi_call_error(self, lineno: int, text: str) -> Event | None:
        """Open MPI's error handler on an application's call ("*** An error occurred in MPI_Reduce", signatures.
        R_MPI_CALL_ERROR) and, a few lines on, the error class of one of MPI's own argument checks ("*** MPI_ERR_ROOT:
        invalid root", R_MPI_ARG_CLASS): an mpi_refused event, no rank's (the reporter's [jobid,N] tag is MPI's, lead
        rule AG); verdict.usage._mpi_refused reads it. The call's line alone stays unread."""
        c = S.R_MPI_CALL_ERROR.search(text) if "An error occurred in MPI_" in text else None
        if c is not None:
            self._mpi_call, self._follow = (lineno, c.group("call")), max(self._follow, 6)  # no trigger word below
            return None
        if self._mpi_call is None or not 0 < lineno - self._mpi_call[0] <= 6 or "MPI_ERR_" not in text:
            return None
        a = S.R_MPI_ARG_CLASS.search(text)
        if a is None:
            return None
        ev = self._context(lineno, text, "mpi_refused")
        ev.rank = None
        ev.data.update(call=self._mpi_call[1], cls=a.group("cls"), what=a.group("what"))
        self._mpi_call = None
        return ev

    def _mpi_runtime(self, lineno: int, text: str) -> Event | None:
        """Open MPI's runtime (ORTE, PRRTE) logging an error of its own code ("PRTE ERROR: Bad parameter in file
        base/odls_base_default_fns.c at line 962", signatures.R_MPI_RTE_ERROR; lead rule X (2)): a launch_setup event,
        with the deprecated MPI_Info key Open MPI 5's help box named above it, if any (R_MPI_INFO_DEPRECATED: the
        application asks the runtime in an older release's words, lead rule AF (2))."""
        if "MPI_Info key" in text and S.R_MPI_INFO_DEPRECATED.search(text):
            self._mpi_info, self._follow = (lineno, ""), max(self._follow, 4)  # its key's line has no trigger word
            return None
        if self._mpi_info is not None and "Deprecated key" in text and 0 < lineno - self._mpi_info[0] <= 4 and (
                k := S.R_MPI_INFO_KEY.match(self._body)):
            self._mpi_info = (self._mpi_info[0], k.group("key"))
            return None
        r = S.R_MPI_RTE_ERROR.search(text) if "RTE ERROR:" in text or "RTE_ERROR_LOG:" in text else None
        if r is None:
            return None
        return self._setup(lineno, text, mpi_rte=r.group("rte"), rte_what=r.group("what").strip(),
                           rte_file=r.group("file"), mpi_info=self._mpi_info is not None,
                           mpi_info_key=self._mpi_info[1] if self._mpi_info else None)

    def _ds_script(self, lineno: int, text: str) -> Event | None:
        """DeepSpeed's runner's command line whose user script (the first argument after its launcher's own --options)
        is not a Python file while the argument after it is one ("... --master_port=29500 /hostfile main.py --lr 1e-4"):
        every worker is started with a wrong path as its script and the real script as that path's argument -- an
        option's value given without its option (lead rules AF (1), U (2); verdict.world._rank_args). Not read where
        the runner was told the script is no Python file (--no_python, --module)."""
        m = S.R_DS_LAUNCH_CMD.search(self._body)
        toks = [t.strip("'\"") for t in m.group(1).split()] if m else []
        i = 0
        while i < len(toks) and toks[i].startswith("-"):
            if toks[i] in ("--no_python", "--module") or toks[i].startswith(("--no_python=", "--module=")):
                return None
            i += 2 if toks[i] == "--save_pid" else 1  # the one option given its value as the next argument
        if i + 1 >= len(toks) or toks[i].endswith(".py") or not toks[i + 1].endswith(".py"):
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # the runner's line, not a rank's
        ev.data.update(ds_script=toks[i][:200], ds_next=toks[i + 1][:200])
        return ev

    def _setup(self, lineno: int, text: str, **data) -> Event:
        """A launch_setup event: the launcher's (or its remote shell's, ssh's, MPI's) own line, every worker's and
        no rank's; ``ssh``/``mpi`` None unless DATA names them (verdict.launch._launch_setup reads them)."""
        ev = self._context(lineno, text, "launch_setup")
        ev.rank = None
        ev.data.update({"ssh": None, "mpi": None, **data})
        return ev

    def _world_unfit(self, lineno: int, text: str) -> Event | None:
        """Launch settings that cannot form the world (lead rules AA (1), AE; verdict.world.world_unfit): a call to
        init_process_group with a literal rank at or past its literal world size (its code line in a traceback), or
        torchrun's command line giving a node a loopback master address (any node rank: node 0's beside it says one
        host runs both)."""
        if "machine" in text and (ev := self._machine_past(lineno, text)) is not None:
            return ev
        if "--nnodes" in text and (ev := self._node_past(lineno, text)) is not None:
            return ev
        if "Namespace(" in text and "'--" in text and (ev := self._swallowed_option(lineno, text)) is not None:
            return ev
        if "spawned with command" in text and (ev := self._spawn_short(lineno, text)) is not None:
            return ev
        if ("num_" in text or "main_process_ip" in text) and (ev := self._accel_world(lineno, text)) is not None:
            return ev
        if "init_process_group(" in text and (kw := _call_settings(text)) and "rank" in kw and "world_size" in kw:
            if kw["rank"] >= kw["world_size"] > 0:
                ev = self._context(lineno, text, "launch_args")
                ev.rank = None  # the call names the rank it was given, not the process that printed it
                ev.data.update(arg_rank=kw["rank"], arg_world=kw["world_size"], init_call=True)
                return ev
            return None
        nr = S.R_ARG_NODE_RANK.search(text) if "node" in text and not is_failure_line(self._body) else None
        ma = S.R_ARG_MASTER_ADDR_VAL.search(text) if nr else None  # node 0 too: both on one host is no fault
        if ma is None or not S.is_loopback(ma.group(1)):
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a command line, not a process's own line
        ev.data.update(node_rank=int(nr.group(1)), master_addr=ma.group(1), master_port=None, world=None)
        return ev

    def _local_rank_by_hand(self, lineno: int, text: str) -> Event | None:
        """A torch.distributed.launch command starting several processes per node (--nproc_per_node N > 1, no
        --use_env) whose script arguments set --local_rank by hand to a number (_launch_local_rank): the launcher passes
        each worker its own --local_rank=i BEFORE the script's arguments, and argparse keeps the last value given, so
        every worker of that node takes the hand-set local rank -- one GPU for all, and the index meant for something
        else (a node's rank) -- a launch argument every worker shares (lead rules AA (1), AE, V (1); round 89's
        unilm-671; verdict.world._rank_args). Not read under torchrun (it passes no --local_rank: the script's own
        argument is then the only one) nor with one process per node."""
        hit = _launch_local_rank(self._body)
        if hit is None:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a command line, not a process's own line
        ev.data.update(local_by_hand=hit[0], local_procs=hit[1])
        return ev

    def _swallowed_option(self, lineno: int, text: str) -> Event | None:
        """The argument Namespace a trainer prints (argparse's "Namespace(..., opts=[...])") whose list of leftover
        positional words holds an option of that very parser ("'--dist-url', 'tcp://...'" in opts=[...], the
        Namespace's own dist_url left at its default): the option was written after the positional overrides
        (argparse.REMAINDER takes everything after them), so the value meant never reached its option and every
        worker runs with the default -- a launch setting, not a rank (lead rules V (1), AA (1);
        verdict.world.world_unfit). Not read where the option named is no field of that Namespace."""
        hit = _swallowed_option(text) if not is_failure_line(self._body) else None
        if hit is None:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # the launch's settings, not a process's own line
        ev.data.update(swallowed=hit)
        return ev

    def _spawn_short(self, lineno: int, text: str) -> Event | None:
        """DeepSpeed's per-node launcher's record of a worker's whole command ("[launch.py:253:main] process 4575
        spawned with command: ['/usr/bin/python3', '-u', 'train.py', '--local_rank=1', '--deepspeed', 'ds.json',
        '--model_name_or_path', ...]", the list closed by its ']') for a Hugging Face Trainer script (its
        --deepspeed config and --model_name_or_path given) that never gives --output_dir, the argument the Trainer's
        TrainingArguments requires: the launch command stops before the script's own arguments (a broken line
        continuation, a commented-out line), the same for every worker -- config even with nothing failing shown (lead
        rule AF (1), with V (1) and W; verdict.world._rank_args). Not read from a list the paste cuts (no ']')."""
        m = S.R_DS_SPAWN_CMD.search(text)
        if m is None:
            return None
        args = re.findall(r"'([^']*)'", m.group(1))
        names = {a.split("=", 1)[0] for a in args if a.startswith("--")}
        if not {"--deepspeed", "--model_name_or_path"} <= names or names & {"--output_dir", "--output-dir"}:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # the launcher's line, every worker's
        ev.data.update(spawn_short=args[-1][:120] if args else "", spawn_script=next(
            (a for a in args if a.endswith(".py")), "")[:200])
        return ev

    def _machine_past(self, lineno: int, text: str) -> Event | None:
        """A per-machine launcher's machine index at or past its machine count, both on one line (its command line,
        or the argument Namespace the trainer prints: signatures.R_MACHINE_RANK, R_NUM_MACHINES): its workers take
        global ranks past the world and none is rank 0, the store's host, so init waits for ever -- a launch setting
        (lead rules AA (1), V (1); verdict.world.world_unfit)."""
        past = _machine_past(text) if not is_failure_line(self._body) else None
        if past is None:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # the launch's settings, not a process's own line
        ev.data.update(machine_rank=past[0], num_machines=past[1])
        return ev

    def _node_past(self, lineno: int, text: str) -> Event | None:
        """torchrun's command line giving a --node_rank at or past its --nnodes (signatures.R_ARG_NODE_RANK,
        R_ARG_NNODES_NUM; every node rank shown past every count, where one line joins several commands): nodes are
        numbered 0 .. nnodes - 1, so its workers take global ranks past the world and none is rank 0, the store's
        host, and the rendezvous waits for ever -- a launch setting (lead rules AE, V (1); verdict.world.world_unfit).
        Not read from a failure line (an error quoting the command), nor where the count is an elastic range."""
        past = _node_past(text) if not is_failure_line(self._body) else None
        if past is None:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a command line, not a process's own line
        ev.data.update(node_past=past)
        return ev

    def _node_url(self, lineno: int, text: str) -> Event | None:
        """A machine's launch command giving its node index (signatures.R_ARG_NODE_INDEX) and, on that line or a
        continuation line of the same command a few lines on, the rendezvous URL it meets the others at
        (R_ARG_INIT_URL): a node's launch settings, compared across the nodes by verdict.world._rank_args (two
        machines given different endpoints never meet: lead rule AA (1))."""
        ni = S.R_ARG_NODE_INDEX.search(text) if ("rank" in text or "shard" in text) else None
        if ni:
            self._node_index = (lineno, int(ni.group(1)))
        url = S.R_ARG_INIT_URL.search(text) if "tcp://" in text else None
        if url is None or self._node_index is None or lineno - self._node_index[0] > 12:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a command line, not a process's own line
        ev.data.update(node_rank=self._node_index[1], master_addr=url.group(1).strip("[]"), master_port=url.group(2),
                       world=None)
        self._node_index = None  # one command, one node
        if "num" in text and S.R_NUM_MACHINES.search(text) and (g := S.R_ARG_GPUS_PER_MACHINE.search(text)):
            ev.data["gpus_per_machine"] = g.group(1)  # the world is num_gpus x num_machines on every machine alike
        if (past := _machine_past(text)) is not None:  # the same command's machine index past its count, read first
            ev.data.update(machine_rank=past[0], num_machines=past[1])
        return ev

    def _accel_world(self, lineno: int, text: str) -> Event | None:
        """accelerate's launch settings (signatures.R_ACCEL_COUNT): num_processes, the total over all machines, below
        num_machines gives a machine no process, a world the launch cannot form (lead rules V (1), AE, AA (1);
        verdict.world.world_unfit); otherwise the world of num_processes ranks it launches, against which a failing
        process's own rank at or past it is one this launch never started (world_unfit): one launch_args event per
        file once both are read. Its defaults notice
        (R_ACCEL_DEFAULTS) is a launcher's warning (benign, verdict.noise._none)."""
        if ("unintended" in text or "set to a value of" in text) and S.R_ACCEL_DEFAULTS.search(self._body):
            ev = self._context(lineno, text, "benign")
            ev.rank = None  # the launcher's notice, not a rank's
            ev.data["what"] = "accelerate defaults notice"
            return ev
        if is_failure_line(self._body):
            return None
        if (st := self._accel_loop) is not None:  # what _accel_loopback reads, from every such line
            if (ip := S.R_ACCEL_MAIN_IP.search(self._body)) and S.is_loopback(ip.group(1)) and st["ip"] is None:
                st["ip"] = ip.group(1)
            st["machines"] = max([st["machines"]] + [int(v) for k, v in S.R_ACCEL_COUNT.findall(self._body)
                                                     if k == "num_machines"])
        if self._accel is None:
            return self._accel_loopback(lineno, text)
        for k, v in S.R_ACCEL_COUNT.findall(self._body):
            self._accel.setdefault(k, int(v))
        procs, machines = self._accel.get("num_processes"), self._accel.get("num_machines")
        if procs is None or machines is None:
            return self._accel_loopback(lineno, text)
        if procs >= machines:  # a world it can form, of ranks 0 .. procs - 1: what a failing rank is read against
            ev = self._accel_loopback(lineno, text) or self._context(lineno, text, "launch_args")
            ev.rank = None  # the launch's settings, not a process's own line
            ev.data.update(accel_world=procs, accel_machines=ev.data.get("accel_machines", machines))
            self._accel = None  # one event per file
            return ev
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # the launch's settings, not a process's own line
        ev.data.update(accel_procs=procs, accel_machines=machines)
        self._accel = None  # one event per file
        return ev

    def _accel_loopback(self, lineno: int, text: str) -> Event | None:
        """accelerate's main_process_ip naming the host itself (127.0.0.1, localhost) while its num_machines (on the
        command line or in the config file; the command line's wins, so the most shown) asks for several machines: the
        coordinator every machine connects to is each machine's own loopback, so no other machine reaches machine 0's
        and the world cannot form (lead rules AE, AA (1); verdict.world.world_unfit): one launch_args event per file
        once both are read."""
        st = self._accel_loop
        if st is None or st["ip"] is None or st["machines"] < 2:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # the launch's settings, not a process's own line
        ev.data.update(accel_loopback=st["ip"], accel_machines=st["machines"])
        self._accel_loop = None  # one event per file
        return ev

    def _node_launch(self, lineno: int, text: str) -> Event | None:
        """A node's launch settings printed on one line, its node rank and the master address it was given
        (signatures.R_NODE_KV; a multi-node launch command's environment prefix, NNODES=N with RANK=K below N, gives
        the node's rank as RANK: signatures.R_ENV_RANK): read by verdict.world._rank_args across the nodes (lead rule
        AA (1))."""
        kv: dict[str, str] = {}
        for k, v in S.R_NODE_KV.findall(text):
            kv.setdefault(k.upper(), v)
        if "NODE_RANK" not in kv and "MASTER_ADDR" in text and (e := S.R_ENV_LINE.match(self._body)) and (
                e.group(1) == "MASTER_ADDR"):
            # an environment dump, one "KEY = value" a line (sorted: NODE_RANK comes after MASTER_ADDR): read on
            self._env_dump, self._follow = (lineno, {"MASTER_ADDR": kv["MASTER_ADDR"]}, None), 2
            return None
        if "NODE_RANK" not in kv and "MASTER_ADDR" in kv and "RANK=" in text and "WORLD_SIZE" not in kv and (
                "LOCAL_RANK" not in text and (nn := S.R_ENV_NNODES.search(text)) and (r := S.R_ENV_RANK.search(text))
                and int(r.group(1)) < int(nn.group(1)) and int(nn.group(1)) >= 2 and _env_command(text, nn.start())):
            # a multi-node launch command's environment prefix: its RANK is the node's rank (LLaMA-Factory's CLI);
            # a process's environment (torchrun / env://: RANK the global process rank, beside LOCAL_RANK or
            # WORLD_SIZE), or one printed with no command after it, is not read so (review r3)
            kv["NODE_RANK"] = r.group(1)
        if "NODE_RANK" not in kv or "MASTER_ADDR" not in kv or not kv["NODE_RANK"].isdigit():
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a node's settings, not a process's own line
        ev.data.update(node_rank=int(kv["NODE_RANK"]), master_addr=kv["MASTER_ADDR"],
                       master_port=kv.get("MASTER_PORT"), world=kv.get("WORLD_SIZE"))
        if (past := _node_past(text)) is not None:  # the same command's --node_rank past its --nnodes
            ev.data["node_past"] = past
        return ev

    def _member(self, lineno: int, text: str, rank: int, world: int) -> Event | None:
        """One of Lightning's announcements of a process's place in the world (_member_dup), also kept as this file's
        set of announced ranks: one quiet rank_announce event per file and world, its data kept up to date, compared
        across the files (two nodes' outputs) by verdict.world._ranks_taken_twice (lead rule AA (1))."""
        seen, new = self._member_seen, False
        if seen is None or seen.data["member_world"] != world:
            seen = self._member_seen = self._context(lineno, text, "rank_announce")
            seen.rank = None  # an announcement of a place in the world, not a failure: nothing to accuse
            seen.data.update(member_world=world, members=[])
            new = True
        if rank not in seen.data["members"] and len(seen.data["members"]) < 256:
            seen.data["members"] = sorted(seen.data["members"] + [rank])
        ev = self._member_dup_ev(lineno, text, rank, world)
        return ev if ev is not None else seen if new else None

    def _local_banner(self, lineno: int, text: str, local: int, gpus: str = "") -> None:
        """One of Lightning's per-process start-up banners ("LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]"): this
        file's count of the banners printing each local rank with each GPU list ("0|0,1"), one quiet local_banner
        event kept aside (handed on at the end of the file, the line read on as if unseen), compared with the launch
        shown by verdict.world._local_rank_twice (lead rule CE (1))."""
        ev = self._local_seen
        if ev is None:
            if len(self.aside) >= 8:
                return
            ev = self._local_seen = self._context(lineno, text, "local_banner")
            ev.rank = None  # a process's banner, not a failure: nothing to accuse
            ev.data["local_gpus"] = {}  # "local|gpus" -> count: one local rank seeing one GPU list
            self.aside.append(ev)
        both, key = ev.data["local_gpus"], f"{local}|{gpus}"
        if key in both or len(both) < 64:
            both[key] = both.get(key, 0) + 1

    def _member_dup_ev(self, lineno: int, text: str, rank: int, world: int) -> Event | None:
        """One of Lightning's announcements of a process's place in the world. A global rank announced twice in one
        file, then another rank announced for the first time after it, is two processes given one rank at the same
        time (two nodes launched with the same node rank), not a restart (which announces every rank again after the
        first round): one launch_args event per file, its data kept up to date (quiet._rank_args, lead rule AA (1)).
        So is one global rank announced under two launcher task labels (srun -l's "0: " and "1: ", mpirun's
        "[1,0]<stdout>:" and "[1,4]<stdout>:"): a launcher's task is one process (or one node's launch) for the whole
        run, so two of them announcing one rank are two processes holding it at once, whatever order the lines come
        in -- a restart announces again under the same label (round 67: two Slurm tasks both announcing ranks 1-3)."""
        if self._member_world not in (None, world):  # another world announced: another run, start over
            self._members, self._member_dup, self._member_ev = {}, False, None
            self._member_tags = {}
        self._member_world = world
        first = rank not in self._members
        self._members[rank] = self._members.get(rank, 0) + 1
        tag = _launcher_tag(text, self._body)
        if tag is not None and self._member_tags.setdefault(rank, tag) != tag:
            self._member_dup = True
            first = True  # this announcement is the second process's: the two are proven at once
        if self._member_ev is not None:
            self._member_ev.data["dup_members"] = sorted(r for r, n in self._members.items() if n > 1)
            self._member_ev.data["members"] = sorted(self._members)
            return None
        if not first:
            self._member_dup = True
            return None
        if not self._member_dup:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # an announcement of a place in the world, not a failure: nothing to accuse
        ev.data.update(member_world=world, members=sorted(self._members),
                       dup_members=sorted(r for r, n in self._members.items() if n > 1))
        self._member_ev = ev
        return ev

    def _env_dump_line(self, lineno: int, text: str, body: str) -> Event | None:
        """One line of an environment dump that a "MASTER_ADDR = X" line began ("NODE_RANK = 0", "MASTER_PORT =
        38581", "WORLD_SIZE = 2", other keys passed over): the node's launch settings, as _node_launch reads them
        from one line, become its launch_args event once NODE_RANK is read; a line of another shape ends the dump.
        Other readers still see every line (None: not taken)."""
        start, kv, ev = self._env_dump
        m = S.R_ENV_LINE.match(body)
        if not m or lineno - start > 64:
            self._env_dump = None
            return None
        self._follow = max(self._follow, 2)
        key, val = m.group(1), m.group(2)
        if key not in ("NODE_RANK", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE") or key in kv or not val:
            return None
        kv[key] = val
        field = {"MASTER_PORT": "master_port", "WORLD_SIZE": "world"}.get(key)
        if ev is not None and field:
            ev.data[field] = val
            return None
        if key != "NODE_RANK" or not val.isdigit():
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a node's settings, not a process's own line
        ev.data.update(node_rank=int(val), master_addr=kv["MASTER_ADDR"], master_port=kv.get("MASTER_PORT"),
                       world=kv.get("WORLD_SIZE"), env_dump=True)
        self._env_dump = (start, kv, ev)
        return ev

    def _env_dict_key(self, lineno: int, text: str, m) -> Event | None:
        """One key of a launch environment pasted as a dict, one key a line (S.R_ENV_DICT_KEY: '"RANK": "0",'), or
        exported by a launch script, one variable a line (S.R_ENV_EXPORT_KEY: "export RANK=0", round 93's deepep-121:
        two nodes' scripts both exporting RANK=0 with WORLD_SIZE=2), kept in its block (the keys of one dict: lines
        at most 3 apart, no key twice). Two blocks of one world -- the same
        WORLD_SIZE of 2 or more, the same MASTER_ADDR where both give one -- that give the same RANK are two processes
        started as one rank (lead rules AA (1), V (1)): one quiet env_rank_twice event, its data kept up to date
        (verdict.world._env_rank_twice). None otherwise (the line goes on to the other readers)."""
        key, val = m.group("key"), m.group("val")
        blocks = self._env_blocks
        b = blocks[-1] if blocks else None
        if b is None or lineno - b["last"] > 3 or key in b:
            if len(blocks) >= 16:
                return None
            b = {"start": lineno}
            blocks.append(b)
        b[key], b["last"] = val, lineno
        tw = self._env_twice
        if tw is not None:
            if b.get("twice") and key == "MASTER_ADDR" and val:  # an empty (redacted) one names no address
                tw.data["addrs"] = sorted(set(tw.data["addrs"]) | {val})
            return None
        if key not in ("RANK", "WORLD_SIZE") or "RANK" not in b or "WORLD_SIZE" not in b:
            return None
        if not (b["RANK"].isdigit() and b["WORLD_SIZE"].isdigit() and int(b["WORLD_SIZE"]) >= 2):
            return None
        a = next((x for x in blocks[:-1] if x.get("RANK") == b["RANK"] and x.get("WORLD_SIZE") == b["WORLD_SIZE"]),
                 None)
        if a is None or (a.get("MASTER_ADDR") and b.get("MASTER_ADDR") and a["MASTER_ADDR"] != b["MASTER_ADDR"]):
            return None
        ev = self._env_twice = self._context(lineno, text, "env_rank_twice")
        ev.rank = None  # a paste of two processes' settings: neither process's own line
        b["twice"] = True  # its MASTER_ADDR, read later, is added to the event's
        ev.data.update(rank=int(b["RANK"]), world=int(b["WORLD_SIZE"]), lines=(a["start"], b["start"]),
                       addrs=sorted({x["MASTER_ADDR"] for x in (a, b) if x.get("MASTER_ADDR")}),
                       exported=m.re is S.R_ENV_EXPORT_KEY)  # launch scripts' exports: each node's own script
        return ev

    def _env_world_assign(self, lineno: int, text: str, pairs: list[tuple[str, str]]) -> None:
        """RANK and WORLD_SIZE assigned by hand (S.R_ENV_WORLD_ASSIGN: "export RANK=1" then "export WORLD_SIZE=1"),
        the two at most 16 lines apart, the latest value of each kept: a RANK at or past WORLD_SIZE is a process that
        can never join the world those settings define -- its rank 0, which hosts the store, is no process of it --
        kept aside once as a launch_args event (env_rank_past; verdict.world.world_unfit, lead rules AE, V (1))."""
        for key, val in pairs:
            self._env_world[key] = (lineno, int(val))
        r, w = self._env_world.get("RANK"), self._env_world.get("WORLD_SIZE")
        if r is None or w is None or abs(r[0] - w[0]) > 16 or r[1] < w[1] or w[1] < 1 or len(self.aside) >= 8:
            return
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # settings shown, not a process's own line
        ev.data.update(env_rank_past=(r[1], w[1]))
        self.aside.append(ev)
        self._env_world_past = True

    def _init_rank_of(self, lineno: int, text: str, m) -> Event | None:
        """A process's own announcement of its place in the world at init (S.R_INIT_RANK_OF: "Distributed init: rank
        0/2 - ./dist_init"). A process announces its rank once, at init: the same rank of the same world of 2 or more
        announced twice within 3 lines is two processes started as one rank at once (every process of an mpirun
        taking rank 0 where the script never reads the MPI rank; lead rule AA (1)), read like two pasted launch
        environments giving one RANK (_env_dict_key): one quiet env_rank_twice event (verdict.world._env_rank_twice).
        Announcements further apart (a restart) or of two ranks are not read. None otherwise."""
        rank, world = int(m.group(1)), int(m.group(2))
        last, self._init_rank = self._init_rank, (lineno, rank, world)
        if self._env_twice is not None or last is None or world < 2 or rank >= world:
            return None
        if (last[1], last[2]) != (rank, world) or not 0 < lineno - last[0] <= 3:
            return None
        ev = self._env_twice = self._context(lineno, text, "env_rank_twice")
        ev.rank = None  # two processes' announcements: neither process's own failure
        ev.data.update(rank=rank, world=world, lines=(last[0], lineno), addrs=[], announced=True,
                       init=(m.group(3) or "")[:120])
        return ev

    def _env(self, lineno: int, text: str) -> Event | None:
        if "CUDA_VISIBLE_DEVICES=" in text and S.R_CUDA_ENV_ASSIGN.search(text):
            self._cvd_set = True  # the lines set the variable (parse's tb_cut: verdict.unread._ds_filter_cut)
        if ("CUDA_V" in text or "cuda_v" in text) and (ev := self._misspelled_env(lineno, text)) is not None:
            return ev
        m = S.R_ENV_DEPRECATED.search(text)
        # after the launcher's prefix ("[default0]:NCCL_X=1"), which the assignment pattern cannot start at
        pairs = [(m.group(1) or m.group(3), "1")] if m else S.R_ENV_ASSIGN.findall(text) or S.R_ENV_ASSIGN.findall(
            self._body) or (S.R_ENV_IS_SET.findall(self._body) if " set to " in text else [])
        if not pairs or "set by environment" in text or "NCCL WARN" in text:  # a WARN's "Set NCCL_X=1 to ..." advice
            return None
        if "rror" in text and exception_line(self._body):  # an exception's advice ("Please set
            return None  # NCCL_X=1"), no setting applied: its traceback tail reads it (a framework's check, rule W)
        if ("rror" in text or "ERROR" in text or "FATAL" in text) and (
                S.R_ERROR_LINE.match(self._body) or is_failure_line(
                    self._body, text[: len(text) - len(self._body)] if text.endswith(self._body) else "")):
            return None  # a failure that names a setting (a logger's ERROR line, a launcher's "Error: ..."): the
            # failure is what the line says; the families after this one, or the unread failure, read it
        ev = self._context(lineno, text, "setting")
        ev.data["settings"] = pairs[:16]
        return ev

    def _launch_world(self, lineno: int, text: str, body: str) -> None:
        """The world a launch command gives (torchrun's / torch.distributed.launch's --nproc_per_node x --nnodes, or a
        --distributed-world-size / --world_size argument), read on over the command's shell continuation lines (a
        line ending in a backslash), and the global ranks the processes then announce (R_ANNOUNCED_RANK): a rank at
        or past that world means the processes started do not form the world launched (a script spawning its own
        workers per GPU under a launcher that already starts one per GPU): kept aside as a launch_args event
        (arg_rank, arg_world, announced; verdict.world._rank_args, lead rules V (1), AA (1))."""
        cmd = self._cmd
        nproc = S.nproc_per_node(body)
        if nproc is not None and nproc.count is not None and not is_failure_line(body):
            cmd = self._cmd = {"procs": nproc.count, "nnodes": None, "world": None, "open": 0, "line": lineno}
        elif cmd is not None and cmd["open"] and lineno - cmd["open"] == 1:
            pass  # a continuation line of the command
        elif "distributed init (" in body and (a := S.R_ANNOUNCED_RANK.search(body)):
            world = int(a.group(2)) if a.group(2) else None
            if world is None and cmd is not None:
                n = cmd["nnodes"]
                world = cmd["world"] or (cmd["procs"] * int(n) if n and n.isdigit() else None)
            rank = int(a.group(1))
            if world and rank >= world and not self._announced_unfit and len(self.aside) < 8:
                ev = self._context(lineno, text, "launch_args")
                ev.rank = None  # an announcement of a place in the world, not a failure: nothing to accuse
                ev.data.update(arg_rank=rank, arg_world=world, announced=True)
                self.aside.append(ev)
                self._announced_unfit = True
            return
        else:
            return
        if cmd["nnodes"] is None and (n := S.R_ARG_NNODES.search(body)):
            cmd["nnodes"] = n.group(1)
        if cmd["world"] is None and (w := S.R_ARG_WORLD_SIZE.search(body)):
            cmd["world"] = int(w.group(1))
        ps = S.R_ARG_PARALLEL_SIZE.search(body) if "parallel" in body and not self._parallel_unfit else None
        n = cmd["nnodes"]
        world = cmd["world"] or (cmd["procs"] * (int(n) if n and n.isdigit() else 1 if n is None else 0))
        if ps and world and int(ps.group("size")) > 1 and world % int(ps.group("size")) and len(self.aside) < 8:
            # a model-parallel size the world launched does not divide: its device mesh cannot be built (rule V (1))
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # a command line's setting, not a process's own line
            ev.data.update(parallel_unfit=(ps.group("name"), int(ps.group("size")), world))
            self.aside.append(ev)
            self._parallel_unfit = True
        cmd["open"] = lineno if body.rstrip().endswith("\\") and lineno - cmd["line"] < 32 else 0
        if cmd["open"]:
            self._follow = max(self._follow, 1)  # the command goes on, on a line that may hold no trigger word

    def _ds_parallel(self, lineno: int, text: str, body: str) -> None:
        """DeepSpeed's runner started on a user script with a model-parallel size (R_DS_USER_CMD with
        R_ARG_PARALLEL_SIZE: "deepspeed --hostfile hostfile finetune.py --model-parallel-size 4"), then its own command
        line's --world_info ({host: [GPU ids]}, one worker a GPU, R_DS_WORLD_INFO): the world it launched. A size that
        world does not divide (fewer GPUs than one model-parallel group) cannot be set up, whatever error follows --
        kept aside as _launch_world's parallel_unfit (lead rules V (1), AA (1), AE; round 95's cogvlm-89: size 4 on
        {"localhost": [0]}); the runner's own line carries the script's arguments after it too. A size with no runner
        line after it, or a world_info that does not decode, is not read; each deepspeed command line sets or clears the
        size, and a runner line whose script arguments show no size clears it (review 95 x1 #6)."""
        if "world_info=" not in body:
            if not is_failure_line(body) and S.R_DS_USER_CMD.search(body):
                # each deepspeed command starts a run of its own: a size an earlier command gave is not this one's
                ps = S.R_ARG_PARALLEL_SIZE.search(body)
                self._ds_par = (ps.group("name"), int(ps.group("size"))) if ps else None
            return
        w = S.R_DS_WORLD_INFO.search(body)
        if w is not None:
            # the user script's arguments the runner passes: shown (its script named) with no size, there is none --
            # a size an earlier, abandoned command gave is not this run's; a line cut before the script keeps it
            ps = S.R_ARG_PARALLEL_SIZE.search(body, w.end())
            if ps is not None:
                self._ds_par = (ps.group("name"), int(ps.group("size")))
            elif _R_SCRIPT_ARG.search(body, w.end()):
                self._ds_par = None
        if w is None or self._ds_par is None:
            return
        b64 = w.group(1)
        try:
            hosts = _hosts_gpus(json.loads(base64.urlsafe_b64decode(
                b64.replace("+", "-").replace("/", "_") + "=" * (-len(b64) % 4))))
        except (ValueError, TypeError):
            hosts = None
        name, size = self._ds_par
        self._ds_par = None
        world = sum(len(g) for g in hosts.values()) if hosts else 0
        if world and size > 1 and world % size and len(self.aside) < 8:
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # the runner's command line, not a process's own line
            ev.data.update(parallel_unfit=(name, size, world), ds_hosts={h: g[:64] for h, g in list(hosts.items())[:8]})
            self.aside.append(ev)
            self._parallel_unfit = True

    def _warn_site(self, lineno: int, text: str, body: str) -> None:
        """Lead rule AJ (1), two NCCL builds shown: the same NCCL WARN message printed from one source file on one
        host and from another file on another host (its key masks numbers, addresses and the function's name), or
        the bootstrap root's "mismatch in info from procs" with every count agreeing and a field garbled. Kept aside
        once per file (``nccl_builds``: the two sites, or the garbled field; verdict.nccl._nccl_builds)."""
        self._warn_seen += 1
        b = S.R_BOOT_ROOT_MISMATCH.search(body) if "mismatch in info" in body else None
        if b:
            fields = [(k, int(x), int(y)) for k, x, y in S.R_BOOT_FIELD.findall(b.group(1))]
            counts = [(x, y) for k, x, y in fields if k in ("nranks", "nroots", "iroot")]
            bad = [k for k, x, y in fields if x != y and (min(x, y) < 0 or max(abs(x), abs(y)) > 1 << 24)]
            if counts and all(x == y for x, y in counts) and bad and self._garbled is None:
                self._garbled = (lineno, text, bad[0])
            return
        m = S.R_NCCL_WARN_SITE.search(body)
        h = S.R_NCCL_PREFIX.search(text) if m else None
        if not h or not h.group("host"):
            return
        key = S.R_WARN_KEY_MASK.sub("#", m.group(3)).strip()[:120]
        site, host = f"{m.group(1)}:{m.group(2)}", h.group("host")
        first = self._warn_sites.setdefault(key, (site, host, lineno, text))
        # another file, not only another line: one build prints one message from several call sites of a file (a
        # plugin's accept and connect sides), while a renamed or moved file is another version's layout
        if first[0].rsplit(":", 1)[0] != m.group(1) and first[1] != host and self._builds is None:
            self._builds = (first, (site, host, lineno, text))

    def builds_seen(self) -> Event | None:
        """At the end of the file: the ``nccl_builds`` event _warn_site's lines make, or None."""
        if self._builds is not None:
            (s1, h1, l1, t1), (s2, h2, _, t2) = self._builds
            ev = self._context(l1, t1, "nccl_builds")
            ev.data.update(sites=[(h1, s1), (h2, s2)], lines=[t1.strip()[:160], t2.strip()[:160]])
        elif self._garbled is not None:
            ev = self._context(self._garbled[0], self._garbled[1], "nccl_builds")
            ev.data.update(garbled=self._garbled[2])
        else:
            return None
        if self._builds is not None and self._garbled is not None:
            ev.data["garbled"] = self._garbled[2]
        ev.rank = None  # two builds of the library: no rank's fault
        return ev

    def _vllm_launch(self, lineno: int, text: str, body: str) -> None:
        """A vLLM launch with the V0 engine (VLLM_USE_V1=0, on its line or an earlier one of this file) and a
        data-parallel size of two or more, without a data-parallel rank of its own (--data-parallel-rank, VLLM_DP_RANK,
        --headless): the V0 engine starts no other DP ranks, so this one launch cannot fill the DP world its store
        waits for (lead rule AE). Kept aside once (``engine_launch``); the line is read on as if unseen."""
        if S.R_VLLM_V0.search(body):
            self._vllm_v0 = lineno
            self._follow = max(self._follow, 8)  # the command may go on over lines holding no trigger word
        if self._vllm_v0 is None or lineno - self._vllm_v0 > 8 or S.R_VLLM_DP_OWN.search(body):
            return
        dp = S.R_VLLM_DP_SIZE.search(body)
        if not dp or int(dp.group(1)) < 2 or len(self.aside) >= 8 or any(
                e.kind == "engine_launch" for e in self.aside):
            return
        tp = S.R_VLLM_TP.search(body)
        ev = self._context(lineno, text, "engine_launch")
        ev.rank = None  # a command line, not a process's own output
        ev.data.update(engine="vLLM V0", dp=int(dp.group(1)), tp=int(tp.group(1)) if tp else 1)
        self.aside.append(ev)

    def _hidden_gpus(self, lineno: int, text: str, body: str) -> None:
        """A launch that hides every GPU (CUDA_VISIBLE_DEVICES set empty or -1: signatures.R_NO_VISIBLE_GPU) and a code
        line asking for the nccl backend (R_NCCL_BACKEND), both in this file: NCCL cannot run where no GPU is visible,
        a setting every rank shares (lead rule Q's last sentence; verdict.launch._no_nccl). Kept aside once both are
        read (``no_nccl``, what="hidden"); the lines are read on as if unseen."""
        if "CUDA_V" in body and S.R_NO_VISIBLE_GPU.search(body) and not is_failure_line(body):
            self._gpus_hidden = self._gpus_hidden or (lineno, text)
        elif "nccl" in body and S.R_NCCL_BACKEND.search(body):
            self._nccl_asked = self._nccl_asked or (lineno, text)
        else:
            return
        if self._gpus_hidden and self._nccl_asked and self._gpus_hidden[0] > 0 and len(self.aside) < 8:
            ev = self._context(self._gpus_hidden[0], self._gpus_hidden[1], "no_nccl")
            ev.rank = None  # a launch setting, not a process's own line
            ev.data.update(what="hidden", backend=f"{self.path}:{self._nccl_asked[0]}")
            self.aside.append(ev)
            self._gpus_hidden = (0, "")  # one event per file

    def _misspelled_env(self, lineno: int, text: str) -> Event | None:
        """A CUDA variable set on a command line or exported whose name does not exist but is one typo from one that
        does (CUDA_VISABLE_DEVICES for CUDA_VISIBLE_DEVICES), judged by the env knowledge base as ``ncclDoctor env``
        judges it (rules.env.did_you_mean): nothing reads it, so the setting meant is not applied to any process
        (lead rules L, V (1); verdict.world._rank_args)."""
        if is_failure_line(self._body):
            return None
        from ncclDoctor.knowledge.env_vars import BY_NAME
        from ncclDoctor.rules.env import did_you_mean

        # after the launcher's prefix ("[default0]:CUDA_..."), which the assignment pattern cannot start at
        for name, value in S.R_CUDA_ENV_ASSIGN.findall(text) or S.R_CUDA_ENV_ASSIGN.findall(self._body):
            if name.islower() and name.upper() in BY_NAME:
                close = [name.upper()]  # the name in lower case: environment names are case-sensitive
            elif name in BY_NAME or not (close := did_you_mean(name)):
                continue
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # a command line's setting, not a process's own line
            ev.data.update(misspelled=name, meant=close[0], value=value)
            return ev
        return None

    def _launch_gpus(self, lineno: int, text: str) -> None:
        """How many processes a node's launch starts (torchrun's --nproc_per_node, with a CUDA_VISIBLE_DEVICES list on
        the same command line: the GPUs it leaves) and how many GPUs a node shows (deviceQuery's "Detected N CUDA
        Capable device(s)"): verdict.cuda._cuda compares them beside an "invalid device ordinal" (lead rules Q, W).
        A Slurm job's tasks per node and a node rank taken from SLURM_PROCID: verdict.store._store reads them beside
        the store's "address already in use" (lead rule AA (1)).
        Kept aside (``launch_gpus``, handed on at the end of the file): the line is read on as if unseen, so a
        command line's role in the reading of the lines after it (a wrapped line's rest) is unchanged."""
        if len(self.aside) >= 8:
            return
        if "CUDA Capable" in text and (q := S.R_DEVICE_QUERY.search(text)):
            ev = self._context(lineno, text, "gpus_shown")
            ev.rank = None  # the node's device list, not a rank's line
            ev.data["gpus"] = int(q.group(1))
            self.aside.append(ev)
            return
        b = S.R_SBATCH_SIZE.match(self._body) if "#SBATCH" in text else None
        if b:  # the job's size in tasks or nodes, from its batch script
            ev = self._context(lineno, text, "launch_tasks")
            ev.rank = None
            ev.data["job_tasks" if b.group("n") else "job_nodes"] = int(b.group("v"))
            self.aside.append(ev)
            return
        t = S.R_SLURM_TASKS.search(text) if "tasks-per-node" in text and not is_failure_line(self._body) else None
        procid = "SLURM_PROCID" in text and S.R_NODE_RANK_PROCID.search(text) is not None
        if t or procid:
            ev = self._context(lineno, text, "launch_tasks")
            ev.rank = None  # a batch script's or command line's setting, not a process's own line
            ev.data["tasks"] = int(t.group(1)) if t else None
            ev.data["procid_node_rank"] = procid
            self.aside.append(ev)
        if ("_PER_NODE=" in text or "GPUS=" in text) and (sc := S.R_SHELL_COUNT.match(self._body)) and len(
                self._shell_counts) < 32:
            self._shell_counts[sc.group(1)] = int(sc.group(2))  # a launch script's count, for --nproc_per_node $VAR
            return
        rv = S.R_ROCM_VISIBLE.match(self._body) if "_VISIBLE_DEVICES=" in text else None
        gx = S.R_GFX_OVERRIDE.match(self._body) if rv is None and "HSA_OVERRIDE_GFX_VERSION=" in text else None
        if rv or gx:  # ROCm's device selection the script exports (verdict.cuda._rocm_unseen): one record per file
            ev = next((e for e in self.aside if e.kind == "rocm_env"), None)
            if ev is None:
                ev = self._context(lineno, text, "rocm_env")
                ev.rank = None  # a script's setting, not a process's line
                self.aside.append(ev)
            if rv:
                ev.data[rv.group("var").lower()] = [int(i) for i in rv.group("ids").split(",")]
            else:
                ev.data["gfx"] = gx.group("val")
            ev.data.setdefault("lines", []).append(self._body.strip()[:120])
            return
        if "CUDA_VISIBLE_DEVICES=" in text and (ve := S.R_VISIBLE_EXPORT.match(self._body)):
            # the script exports the GPUs every process it launches sees: the launch line of this file takes it
            self._visible_export = len(ve.group(1).split(","))
            for e in self.aside:
                if e.kind == "launch_procs" and e.data.get("gpus") is None and e.data.get("procs") is not None:
                    e.data.update(gpus=self._visible_export, exported=True)
            return
        p = S.nproc_per_node(text)
        count = p.count if p is not None else None
        if p is None and "$" in text and (pv := S.R_ARG_NPROC_VAR.search(text)):
            count = self._shell_counts.get(pv.group(1))  # --nproc_per_node $VAR: the count the script gave VAR
            if count is None:
                return
        elif p is None:
            return
        if is_failure_line(self._body):
            return
        ev = self._context(lineno, text, "launch_procs")
        ev.rank = None  # a command line, not a process's own line
        # "gpu" / "auto": as many processes as the node has GPUs, nothing to set against them (procs None); still a
        # launch line shown (verdict.cuda._ordinal_launch)
        ev.data["procs"] = count
        # torch.distributed.launch (not torchrun) and the nodes asked for: with a torch that has no agent in it, rank
        # 0's process hosts the store (lead rule AW; verdict.early_exit._launch_store_host)
        n = S.R_ARG_NNODES.search(text)
        ev.data.update(dist_launch=bool(S.R_DIST_LAUNCH.search(text)), nnodes=n.group(1) if n else None)
        v = S.R_ARG_VISIBLE.search(text[:p.start]) if p is not None else None  # set for this command, before its args
        if v:
            ev.data["gpus"] = len(v.group(1).split(","))
        elif self._visible_export is not None and count is not None:
            ev.data.update(gpus=self._visible_export, exported=True)  # exported by the script above this line
        self.aside.append(ev)

    def _torchrun_config(self, lineno: int, text: str) -> Event | None:
        """torchrun's printed launch config and rendezvous result, as the variables they are
        (``signatures.TR_NAMES``); ``global_world_sizes`` also gives the world size."""
        took = S.R_RANK_STEP_TOOK.search(text) if "[rank=" in text else None
        if took:  # a worker's own line: a step it finished and how long it took (verdict.missing._slow_step)
            ev = self._context(lineno, text, "step_took")
            ev.rank = int(took.group("rank"))
            ev.data.update(secs=float(took.group("secs")))
            return ev
        ll = S.R_LINK_LOCAL_ROLE.search(text) if "169.254." in text else None
        if ll:  # a launch's printed node address that is IPv4 link-local (verdict.network._link_local_roles)
            ev = self._context(lineno, text, "link_local_role")
            ev.rank = None
            ev.data.update(role=ll.group("role").strip(), addr=ll.group("addr"))
            return ev
        if "Rendezvous complete for workers" in text or "launch configs:" in text:
            self._follow = 18  # the block's lines carry no trigger word
            self._rdzv_done = lineno if "Rendezvous complete" in text else self._rdzv_done
            return None
        rc = S.R_TR_RESTART_COUNT.search(self._body) if "restart_count=" in text else None
        if rc and 0 < lineno - self._rdzv_done <= 3:  # the Result block's first field (verdict.noise, rules K, T)
            ev = self._context(lineno, text, "benign")
            ev.rank = None  # the agent's line, not a rank's
            ev.data.update(what="elastic rendezvous complete", restarts=int(rc.group(1)))
            return ev
        ep = S.R_TR_ENTRYPOINT.match(self._body) if "entrypoint" in text else None
        te = None if ep else S.R_TE_ENTRY_POINT.search(text) if "entry_point" in text else None
        if ep or te:  # the script every worker runs: a flag's bare value there is an option taken as the script
            # (rule AF (1)): torchrun's launch-config block, or torchelastic's event JSON of a worker ("entry_point")
            if not S.R_FLAG_VALUE.match((ep or te).group(1)):
                return None
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # the agent's line, not a rank's
            ev.data["entrypoint"] = (ep or te).group(1)
            if te:
                ev.data["events"] = True
            return ev
        m = S.R_TR_LAUNCH.match(self._body) or S.R_TR_RESULT.match(self._body)
        if not m or m.group(1) == "min_nodes":
            return None
        value = m.group(2).strip()
        if m.group(1) == "global_world_sizes":
            value = value.strip("[]").split(",")[0].strip()
        if not value or value == "None":
            return None
        ev = self._context(lineno, text, "setting")
        ev.rank = None  # the agent's line, not a rank's
        ev.data["settings"] = [(S.TR_NAMES[m.group(1)], value)]
        ev.data["torchrun"] = True
        if m.group(1) == "global_world_sizes" and value.isdigit():
            ev.data["world"] = int(value)
        return ev

    def _world_call(self, lineno: int, text: str, body: str) -> None:
        """A code line calling the job's world set-up with literal settings (signatures.R_WORLD_CALL: a traceback's
        "jax.distributed.initialize(coordinator_address='localhost', num_processes=8, process_id=0)", a pasted
        init_process_group(..., rank=0, world_size=2)): the id every process started with that line claims, the
        world it asks for, the coordinator it names (lead rule AE). Kept aside (``world_call``): read on as unseen."""
        m = S.R_WORLD_CALL.search(body)
        if not m:
            return
        args = m.group(2)
        kw = {k: v.strip("'\"") for k, v in S.R_WORLD_KWARG.findall(args)}
        if "initialize" in m.group(1):  # jax.distributed.initialize(coordinator_address, num_processes, process_id)
            pos = [a.strip() for a in args.split(")")[0].split(",")]
            for name, a in zip(("coordinator_address", "num_processes", "process_id"), pos):
                if a and "=" not in a:
                    kw.setdefault(name, a.strip("'\""))
                elif "=" in a:
                    break
        pid, world = kw.get("process_id", kw.get("rank")), kw.get("num_processes", kw.get("world_size"))
        if pid is None and world is None and "coordinator_address" not in kw:
            return
        ev = self._context(lineno, text, "world_call")
        ev.rank = None  # a code line, not a process's own output
        ev.data.update(call=m.group(1), id=int(pid) if pid and pid.isdigit() else None,
                       world=int(world) if world and world.isdigit() else None,
                       coordinator=kw.get("coordinator_address"))
        self.aside.append(ev)


def _call_settings(text: str) -> dict[str, int]:
    """The integer literals a call to init_process_group gives as ``rank=`` and ``world_size=``
    (signatures.R_WORLD_CALL, R_WORLD_KWARG, which _world_call reads for the same call): a value held in a variable
    is not shown."""
    m = S.R_WORLD_CALL.search(text)
    kw = dict(S.R_WORLD_KWARG.findall(m.group(2))) if m else {}
    return {k: int(v) for k, v in kw.items() if k in ("rank", "world_size") and v.isdigit() and len(v) <= 7}


_R_NS_LIST = re.compile(r"\b(\w{1,40})=\[([^\]]{0,2000})\]")
_R_NS_OPT = re.compile(r"'--([A-Za-z][\w-]{0,40})'(?:\W{0,6}'([^']{0,200})')?")


def _launch_local_rank(body: str) -> tuple[int, int] | None:
    """(the hand-set local rank, the processes per node) of a torch.distributed.launch command line (readers.settings.
    _local_rank_by_hand), or None: the launcher's own options come between the module and the script (the first word
    ending in .py), the script's after it."""
    toks = body.split()
    at = next((i for i, t in enumerate(toks) if t == "torch.distributed.launch"), None)
    if at is None or at == 0 or toks[at - 1] != "-m":
        return None
    script = next((i for i in range(at + 1, len(toks)) if toks[i].endswith(".py")), None)
    if script is None:
        return None
    opts, args = toks[at + 1:script], toks[script + 1:]
    if any(o.split("=", 1)[0] in ("--use_env", "--use-env") for o in opts):
        return None
    procs = None
    for i, o in enumerate(opts):
        name, _, val = o.partition("=")
        if name in ("--nproc_per_node", "--nproc-per-node"):
            val = val or (opts[i + 1] if i + 1 < len(opts) else "")
            procs = int(val) if val.isdigit() else None
    if procs is None or procs < 2:
        return None
    for i, a in enumerate(args):
        name, eq, val = a.partition("=")
        if name in ("--local_rank", "--local-rank"):
            val = val if eq else (args[i + 1] if i + 1 < len(args) else "")
            return (int(val), procs) if val.isdigit() else None
    return None


def _swallowed_option(text: str) -> tuple[str, str, str, str] | None:
    """(list field, option, its value there or '', the Namespace's own value of that option) where a printed argparse
    Namespace's list field holds "'--name'" and the Namespace itself has the field name (dashes as underscores);
    else None."""
    ns = text[text.find("Namespace("):]
    for lst in _R_NS_LIST.finditer(ns):
        for o in _R_NS_OPT.finditer(lst.group(2)):
            field = o.group(1).replace("-", "_")
            own = re.search(r"[(,\s*]" + re.escape(field) + r"=([^,)]{0,200})", ns)
            if own is not None and field != lst.group(1):
                return lst.group(1), "--" + o.group(1), o.group(2) or "", own.group(1).strip("*' ")
    return None


def _host_only(addr: str) -> bool:
    """Whether a master address a runner hands every node is one only its own host reaches: loopback as the rest of
    diagnose decides it (signatures.is_loopback, 0.0.0.0 included), or Docker's default bridge (docker0,
    172.17.0.0/16), which every host running Docker has as its own.
    0.0.0.0 counts: it means "every interface" only to a server binding it; as the address a client connects to (what
    a master address is to every other node's workers) Linux takes it for the host itself, so each node's workers
    look for the rendezvous on their own host, as with 127.0.0.1."""
    if S.is_loopback(addr):
        return True
    try:
        return ipaddress.ip_address(addr) in ipaddress.ip_network("172.17.0.0/16")
    except ValueError:
        return False


def _index_past(text: str, r_idx, r_cnt) -> tuple[int, int] | None:
    """An index at or past the count given on one line (R_IDX's and R_CNT's first groups): (index, count), or None
    where either is not shown as a number or the index is inside the count. One line may join several commands (or a
    command line and the Namespace printed from it): every index shown must be past every count."""
    ranks = [int(v) for v in r_idx.findall(text)]
    counts = [int(v) for v in r_cnt.findall(text)] if ranks else []
    if not counts or min(ranks) < max(counts):
        return None
    return min(ranks), max(counts)


# torchrun options under which it assigns ranks through the rendezvous and does not read --node_rank: the c10d
# backend (either spelling), an --rdzv_endpoint, --standalone (review 106 finding 3)
_R_RDZV_RANKS = re.compile(r"--rdzv[_-]backend[= ]['\"]?c10d\b|--rdzv[_-]endpoint\b|--standalone\b")


def _node_past(text: str) -> list[int] | None:
    """torchrun's --node_rank at or past its --nnodes on one line (signatures.R_ARG_NODE_RANK, R_ARG_NNODES_NUM):
    [node_rank, nnodes], or None where either is not shown as a number or the rank is inside the count, or where the
    command gives a c10d rendezvous, an --rdzv_endpoint or --standalone (torchrun then takes the ranks from the
    rendezvous and ignores --node_rank: review 106 finding 3)."""
    if "--nnodes" not in text or ("--rdzv" in text or "--standalone" in text) and _R_RDZV_RANKS.search(text):
        return None
    past = _index_past(text, S.R_ARG_NODE_RANK, S.R_ARG_NNODES_NUM)
    return list(past) if past is not None else None


def _machine_past(text: str) -> tuple[int, int] | None:
    """A machine index at or past the machine count given on one line (signatures.R_MACHINE_RANK, R_NUM_MACHINES):
    (machine_rank, num_machines), or None where either is not shown or the index is inside the count."""
    return _index_past(text, S.R_MACHINE_RANK, S.R_NUM_MACHINES) if "machine" in text else None


def _launcher_tag(text: str, body: str) -> str | None:
    """The launcher's label of the task that printed a line: srun -l's "N: " at its start (or at the start of its body,
    past a collector's timestamp or a quote's mark), or mpirun's --tag-output "[J,N]<stdout>:" (signatures.R_SRUN,
    R_MPI_TAG's first form); None when the line carries neither."""
    m = S.R_SRUN.match(text) or S.R_SRUN.match(body)
    if m:
        return f"srun {m.group(1)}"
    m = S.R_MPI_TAG.search(text)
    if m and m.group(1) is not None:
        return f"mpi {m.group(1)}"
    return None


def _env_command(text: str, at: int) -> bool:
    """The NAME=value words around ``at`` (an NNODES= word) are a shell command's environment prefix: a run of such
    words followed by a command word, or by the line's continuation backslash (the command on the next line) --
    not a printed environment, whose NAME=value words end the line."""
    rest = text[at:].split()
    for j, w in enumerate(rest[:64]):
        if not _is_assign(w):
            return w != "\\" or j == len(rest) - 1  # a command word, or the continuation at the line's end
    return False


def _is_assign(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.isidentifier()

# a user script on DeepSpeed's runner command line, after its own options (SettingsReaders._ds_parallel)
_R_SCRIPT_ARG = re.compile(r"\s[\w./~-]{0,200}\.py(?=\s|$)")
