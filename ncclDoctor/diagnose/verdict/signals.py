"""A process ended by a signal (signal): the scheduler's time limit, cancel or preemption, a runner's or
torchrun's SIGTERM/SIGKILL; a fatal signal a runtime's own handler caught (GASNet's) names its own process."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.reason import Conclusion, own_errors
from ncclDoctor.diagnose.signatures import FR_ON, Event
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, place


def _runtime_signal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """GASNet's handler (Legion, FlexFlow, Chapel, UPC++) printing "*** Caught a fatal signal (proc N): SIGABRT(6)":
    process N died of a signal it caught itself -- its own failure (lead rule A, one process named by its own
    record), the cause the error it printed just before (a runtime's "LEGION ERROR", an assertion). An NCCL error
    printed after it is the abort's collateral. Several processes named, or a SIGBUS (rule F's shared memory), are
    left to the other readers."""
    evs = c.samples.get("runtime_signal", [])
    procs = sorted({e.data["proc"] for e in evs})
    if len(procs) != 1 or any(e.data["signum"] == 7 for e in evs):
        return None
    e = evs[0]
    before = next((x.data["before"] for x in evs if x.data.get("before")), None)
    return Verdict(
        "unknown",
        f"process {procs[0]} (GASNet's proc {procs[0]}) died of {e.data['signame']}, which it caught itself"
        + (f", right after its own error: '{before[:200]}'" if before else "")
        + ": it failed on its own, and an NCCL or communication error printed after it is that abort's collateral",
        "Read the error the process printed just before the signal: that is the cause"
        + (f" ('{before[:120]}': a LEGION ERROR's code has its page at legion.stanford.edu/messages/"
           "error_code.html; a mapper error means the application's mapper -- e.g. FlexFlow's -- made a choice the "
           "runtime refuses)" if before and "LEGION ERROR" in before else "")
        + ". Rerun with GASNET_BACKTRACE=1 for the stack at the signal; NCCL_DEBUG=INFO only matters if an NCCL "
        "error comes before it.",
        "medium", procs, [x.brief() for x in evs[:3]])


# The agent passes on the signal it received (torch/distributed/elastic/agent/server/api.py: _shutdown(e.sigval)),
# so its "Sending process N closing signal SIGHUP" says it got SIGHUP even when the "Received" line is not pasted.
# Not SIGTERM: the agent also sends SIGTERM to the other workers after one of them failed.
PASSED_ON = {"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3}


def _preempted(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The scheduler preempted or requeued the job (slurmstepd's "CANCELLED ... DUE TO PREEMPTION / JOB
    REQUEUE", a wrapper's "Caught signal SIGUSR2 ...: this job is preempted"): every task's exit, connection
    refused and SIGTERM after it is the teardown of a job stopped from outside, not a rank's failure."""
    evs = [e for e in c.samples.get("signal", []) if e.data.get("sched") == "preemption"]
    if not evs:
        return None
    usr = next((e.data["usr"] for e in evs if e.data.get("usr")), None)
    gone = sorted({e.data["node_gone"] for e in evs if e.data.get("node_gone")})
    if gone and all(e.data.get("node_gone") for e in evs):
        why = evs[0].data.get("sched_text") or "terminated"
        return Verdict(
            "signal",
            f"the cluster's autoscaler reports {len(gone)} of the job's nodes ({', '.join(gone[:4])}) terminated from "
            f"outside (reason: {why}): Kubernetes or the cloud took the pods away (preemption, a node drain, an "
            "eviction, a spot reclaim), which stops their processes with SIGTERM (SIGKILL after the grace period); "
            "what fails after it (a placement group that cannot be placed again, lost actors, peers' errors) is that "
            "loss, not a rank failing on its own; no rank is at fault",
            "Nothing to fix in the ranks: find why the pods were terminated (kubectl get events, kubectl describe pod "
            "/ node: preemption, drain, eviction, the autoscaler's scale-down; the cloud's node events) and make the "
            "job survive it: handle SIGTERM -- checkpoint on it and call destroy_process_group for a graceful "
            "shutdown within the pod's terminationGracePeriodSeconds (raise it so that a checkpoint fits) -- then "
            "checkpoint and resume on the new nodes (Ray Train: FailureConfig(max_failures=N) restarts from the last "
            "checkpoint); keep enough cluster resources (GPUs) for the placement group to be placed again, or a "
            "placement group timeout long enough for replacement nodes to join; run jobs that cannot restart on "
            "non-preemptible nodes (on-demand node pools, a PodDisruptionBudget).",
            "medium", [], [e.brief() for e in evs[:3]])
    if all(e.data.get("ray") for e in evs):
        return Verdict(
            "signal",
            "Ray reported the actor's node preempted (drained for preemption by the cloud or the cluster's scheduler): "
            "the worker on it died with its node, a stop from outside, and the controller's errors after it are that "
            "loss, not a rank failing on its own; no rank is at fault",
            "Nothing to fix in the ranks: make the training survive preemption -- checkpoint often and resume from "
            "the last checkpoint (Ray Train: FailureConfig(max_failures=N) with checkpoint / resume restarts the "
            "workers on another node); keep spot / preemptible nodes out of jobs that cannot restart.",
            "high", [], [e.brief() for e in evs[:3]])
    return Verdict(
        "signal",
        "the scheduler preempted the job (Slurm preemption / requeue"
        + (f", announced by {usr}" if usr else "") + "): the exits, refused connections and SIGTERMs that follow are "
        "its teardown, not a rank failing on its own; no rank is at fault",
        "Nothing to fix in the ranks: make the job survive preemption -- have Slurm send a warning signal early "
        "(#SBATCH --signal=USR2@120 or --signal=B:TERM@120), checkpoint on it, and resume from the last checkpoint "
        "when the job is requeued (#SBATCH --requeue); submitit's checkpoint() does both. To avoid preemption, "
        "submit to a partition/QOS that is not preemptible.",
        "high", [], [e.brief() for e in evs[:3]])


def _runner_signal(c: Collected) -> list[Event]:
    """DeepSpeed's runner's signal handler in a traceback (R_DS_RUNNER_SIG), with nothing else failing: no hang, no
    rank's own error, no exception but one raised inside that handler, no worker record but the launcher's kills."""
    runner = [e for e in c.samples.get("signal", []) if e.data.get("runner_sig")]
    if not runner or c.kinds.get("watchdog_timeout") or c.kinds.get("worker_raised") or any(
            not e.data.get("in_handler") for e in c.exceptions) or any(
            not e.data.get("launcher_kill") for e in c.child_failures + c.worker_failures) or any(
            own_errors(st) for st in c.ranks.values()):
        return []
    return runner


def interrupted_kills(c: Collected) -> bool:
    """Lead rule BS (2): a launcher's own kills of its workers ('Killing subprocess N' from its sigkill_handler) with
    the user's Ctrl-C shown before them -- the terminal's echoed '^C' on the kill line itself or a Ctrl-C traceback
    ('^CTraceback', KeyboardInterrupt) above it in the same file -- and no other worker record: the handler ran for
    that SIGINT, so the kills are the stop from outside, not a worker that exited first (a worker's own exit gives
    its '[ERROR] ... exits with return code' record, and a ^C after the kills is someone giving up on a failure;
    round 93's llava-1749)."""
    ctrl_c = [e for e in c.samples.get("signal", []) if e.data.get("ctrl_c")]
    fails = c.child_failures + c.worker_failures
    if not ctrl_c or not fails or not all(e.data.get("launcher_kill") for e in fails):
        return False
    first = min(fails, key=place)
    at = first.text.find("Killing subprocess")
    if 0 <= first.text.find("^C") < at:
        return True
    p = place(first)
    return any(place(e)[0] == p[0] and place(e)[1] < p[1] for e in ctrl_c)


def _nothing_failed_first(c: Collected, stops: list[Event] | None = None) -> bool:
    """No timeout, exception, worker failure or rank error in the lines: a stop signal seen alone came from outside
    (after a failure it is the launcher's teardown, read by that failure). A worker process's traceback header with
    no exception shown, printed after the stop ``stops`` names, is that stop reaching the process, not a failure
    before it."""
    raised = c.kinds.get("worker_raised") and not _raised_after(c, stops or [])
    killed = (c.child_failures or c.worker_failures) and not interrupted_kills(c)
    return not c.kinds.get("watchdog_timeout") and not (
        killed or c.exceptions or raised
        or any(own_errors(st) for st in c.ranks.values()))


def _raised_after(c: Collected, stops: list[Event]) -> bool:
    """Every worker_raised header (multiprocessing's "Process Process-1:" above a traceback) comes after the first of
    ``stops`` in the same file: the processes raised as the stop signal ended them (a launcher's children torn down
    by the same kill), their exception not shown."""
    evs = c.samples.get("worker_raised", [])
    if not stops or not evs or len(evs) != c.kinds.get("worker_raised"):
        return False
    first = min(map(place, stops))
    return all(place(e)[0] == first[0] and place(e)[1] > first[1] for e in evs)


def _record_before(c: Collected, stops: list[Event]) -> bool:
    """A launcher's record of a rank that exited non-zero above the scheduler's cancel in the same file (srun's "task
    5: Exited with exit code 1" before its "Terminating StepId" and slurmstepd's "CANCELLED AT"): that rank failed on
    its own first, and the cancel is the step's teardown after it (lead rules I, A)."""
    first = min(map(place, stops))
    return any(e.data.get("exitcode") and place(e)[0] == first[0] and place(e)[1] < first[1]
               for e in c.child_failures)


# srun's own line naming the node the controller lost ("srun: error: Node failure on node17"), read from the lines no
# family reads (c.unread, a short list) for the verdict's words only
_SRUN_NODE_FAILURE = re.compile(r"\bNode failure on ([\w.\-]{1,80})")


def _node_failure(c: Collected, node: list[Event]) -> Verdict:
    """Slurm cancelled the step because a node failed (slurmstepd: 'CANCELLED AT ... DUE TO NODE FAILURE', srun's 'Node
    failure on H'), and no rank shows an error, timeout or failure record of its own before it: the job was ended from
    outside by the scheduler after a host went down -- cause signal. The processes on that node went with it, but no
    line maps the node to ranks (lead rules AC (1), AI (2)), so nobody is named and nobody shown innocent."""
    hosts = sorted({m.group(1) for e in c.unread if (m := _SRUN_NODE_FAILURE.search(e.text))})
    where = f" ({', '.join(hosts[:4])})" if hosts else ""
    return Verdict(
        "signal",
        f"Slurm cancelled the job step DUE TO NODE FAILURE: a node of the job{where} went down or stopped answering "
        "the controller, and the scheduler ended the step from outside; no rank shows an error, timeout or failure of "
        "its own before it, and no line says which ranks ran on that node",
        f"Look at the node{where}: scontrol show node NODE and sinfo -R (why it is down or drained), sacct -j JOB "
        "(NODE_FAIL), the slurmctld log the message points to (SEE SLURMCTLD LOG); resubmit excluding it (#SBATCH "
        "--exclude=NODE) or after the admins drain and repair it, and resume from the last checkpoint (#SBATCH "
        "--requeue with a checkpoint saved regularly makes a node failure cost little).",
        "medium", [], [e.brief() for e in node[:3]])


def _unfit(c: Collected) -> bool:
    """Launch settings shown that cannot form the world (verdict.world.world_unfit, lead rules AA (1), V (1)): the job
    hung in its set-up for them, and a Ctrl-C that then stopped it is the user giving up, not the cause (rule T;
    fast-reid-212's machine_rank past num_machines, then '^CTraceback')."""
    from ncclDoctor.diagnose.verdict.world import world_unfit
    return world_unfit(c) is not None


def _signal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    sigs = c.samples.get("signal", [])
    got = [e for e in sigs if e.data.get("received")] or [e for e in sigs if e.data.get("sent") in PASSED_ON]
    forced = [e for e in sigs if e.data.get("forced")]
    cancel = [e for e in sigs if e.data.get("sched") == "cancelled"]
    limit = [e for e in sigs if e.data.get("sched") == "time limit"]
    if limit and not c.kinds.get("watchdog_timeout") and not any(own_errors(st) for st in c.ranks.values()):
        # the scheduler's wall-clock limit: the SIGTERM every task then receives (a framework's "Received SIGTERM",
        # a wrapper bypassing it) is that stop, whichever rank prints it; a job that hung until its limit would show
        # its timeout, which then decides
        return Verdict(
            "signal",
            "the scheduler stopped the job at its time limit (Slurm's 'CANCELLED ... DUE TO TIME LIMIT', a wrapper's "
            "'this job is timed-out'): the SIGTERM the tasks receive after it is that stop from outside, and no rank "
            "shows a failure of its own before it; no rank is at fault",
            "Nothing to fix in the ranks: ask for more wall-clock time (raise the Slurm --time limit: #SBATCH --time / "
            "srun --time) or make the job resumable -- have Slurm send a warning signal before the limit (#SBATCH "
            "--signal=SIGUSR1@90, Lightning's SLURMEnvironment(auto_requeue=True) or submitit's checkpoint() handle "
            "it), save a checkpoint on it and requeue (#SBATCH --requeue), then resume from that checkpoint.",
            "high", [], [e.brief() for e in limit[:3]])
    node = [e for e in sigs if e.data.get("sched") == "node failure"]
    if node and not forced and not c.kinds.get("watchdog_timeout") and not any(
            own_errors(st) for st in c.ranks.values()) and not _record_before(c, node):
        return _node_failure(c, node)
    if not got and not forced and cancel and not c.kinds.get("watchdog_timeout") and not any(
            own_errors(st) for st in c.ranks.values()) and not _record_before(c, cancel):
        return Verdict(
            "signal",
            "Slurm cancelled the job (slurmstepd: 'CANCELLED AT ...' with no 'DUE TO' reason, so not preemption nor "
            "the time limit: an scancel by the user, a script or an administrator); the tasks' SIGTERMs are that "
            "cancel, and no rank shows a failure of its own before it",
            "Find who cancelled it: sacct -j JOB -o JobID,State,ExitCode,End and the Slurm controller's log (an "
            "scancel in a script, a dependency, an administrator); a task that must save state on SIGTERM has to "
            "handle it (a wrapper such as submitit bypasses SIGTERM by default) and finish before Slurm's KillWait.",
            "medium", [], [e.brief() for e in cancel[:3]])
    worker = [e for e in sigs if e.data.get("worker_got")]
    spawned = [e for e in worker if e.data.get("spawned")]
    if spawned and not got and not forced and not cancel:
        # a child of a spawn launcher (paddle.distributed.spawn, torch.multiprocessing.spawn) got SIGTERM from another
        # process: the spawn parent terminates its remaining children when one of them fails -- a teardown, whose
        # first failure is the other process's, not in these lines
        e = spawned[0]
        return Verdict(
            "unknown",
            f"a process started by a spawn launcher (its traceback runs through the spawn call) received "
            f"{e.data['worker_got']} from another process (PID {e.data['sender']}): the spawn parent terminates the "
            "remaining children when one of them fails, so this process was torn down, not killed from outside; the "
            "failure that started it is the other process's, whose output is not in these lines",
            f"Check who PID {e.data['sender']} is (the spawn parent?); read the other workers' output for the first "
            "failed worker's error (Paddle keeps one file per worker, workerlog.N under --log_dir; torch's "
            "mp.spawn re-raises the failed child's traceback in the parent). If the parent itself was stopped, "
            "look at the scheduler (sacct, kubectl describe pod) and dmesg.",
            "low", [], [x.brief() for x in spawned[:3]])
    absl = [e for e in worker if e.data.get("absl")]
    if absl and len(absl) == len(worker) and not got and not forced and not cancel and _nothing_failed_first(c):
        # rule CK (8): absl's crash handler (torch_xla's TPU processes) reporting a SIGTERM from another pid, the
        # sender not identified and no exception, record or rank shown: a spawning parent tears its workers down the
        # same way after another failure, as xla-6015 shows -- the first failure is not in the lines (round 110's
        # xla-5616)
        pids = sorted({e.data["sender"] for e in absl})
        return Verdict(
            "unknown",
            f"a process's crash handler (absl's FailureSignalHandler) reports SIGTERM received from PID "
            f"{', '.join(map(str, pids))}, which the lines do not identify: a spawning parent (xmp.spawn, a launcher) "
            "tears its remaining workers down this way after one of them failed, and the stop is not shown coming "
            "from outside the job; which process failed first, and why, is not in these lines, and a pid is no rank",
            "Find the first worker's own error (the process that was not SIGTERM'd): look for a first failure in the "
            "other TPU processes' logs before the teardown, or run with nprocs=1 / debug_single_process to surface the "
            f"worker's exception; find what PID {pids[0]} is (the launcher / xmp.spawn parent, notebook kernel, "
            "scheduler) and why it sent SIGTERM (ps -o pid,cmd -p PID while it runs); check host memory (dmesg -T for "
            "the OOM killer) if the parent tore workers down after an OOM, and TPU VM preemption / maintenance "
            "events; PT_XLA_DEBUG=1 and faulthandler / py-spy in the workers show where they were.",
            "low", [], [e.brief() for e in absl[:3]])
    if worker and not got and not forced and not cancel and _nothing_failed_first(c):
        # a job process's own handler logged the SIGTERM it received, and nothing failed before it: the stop came
        # from outside (after a worker's failure it would be the launcher's teardown, read by that failure)
        return Verdict(
            "signal",
            "a job process logged the SIGTERM it received (its framework's signal handler: Lightning's 'Received "
            "SIGTERM', submitit's 'Bypassing signal SIGTERM') and no rank shows a failure of its own: the job was "
            "stopped from outside -- the scheduler (time limit, preemption, scancel) or a kill; no rank is at fault",
            "Find who sent SIGTERM: sacct -j JOB -o JobID,State,ExitCode,Elapsed,Timelimit (TIMEOUT, PREEMPTED, "
            "CANCELLED), kubectl describe pod; if it was the time limit or preemption, ask for more time (--time) or "
            "have Slurm signal the job early (#SBATCH --signal=SIGUSR1@90), checkpoint on it and requeue.",
            "medium", [], [e.brief() for e in worker[:3]])
    runner = _runner_signal(c)
    if runner and not got and not forced and not cancel:
        return Verdict(
            "signal",
            "DeepSpeed's runner was interrupted: its traceback runs through the runner's sigkill_handler, which it "
            "installs only for SIGINT and SIGTERM, while it waited on its workers -- the job was stopped from outside "
            "(Ctrl-C, the scheduler, a kill) and the runner killed its workers for it; no worker shows a failure of "
            "its own, and an exception raised inside that handler (a NameError of its PDSH path) is the launcher's "
            "bug, not the cause; no rank is at fault",
            "Find who sent the signal (a Ctrl-C, scancel / the scheduler's time limit: sacct -j JOB, kubectl describe "
            "pod); if the job looked stuck first, take py-spy stacks of every rank before stopping it. If the "
            "handler itself raised, upgrade DeepSpeed (a bug of the runner's signal path, not of the job).",
            "medium", [], [e.brief() for e in runner[:3]])
    term = [e for e in sigs if e.data.get("shell_term")]
    if term and not got and not forced and not cancel and _nothing_failed_first(c, term):
        # the shell's "Terminated": the foreground job got SIGTERM, and nothing failed before it (lead rule T: why it
        # was sent is not in the lines)
        return Verdict(
            "signal",
            "the shell reports the job 'Terminated': it received SIGTERM from outside (a user's kill, a time limit, "
            "the scheduler) and no rank shows an error, timeout or failure of its own before it; no rank is at fault",
            "Find who sent SIGTERM (exit code 143): the scheduler's record (sacct -j JOB, kubectl describe pod), a "
            "timeout wrapper, another user's kill, a pkill -f pattern that also matches the launcher (narrow it to "
            "the training script), TPU VM preemption / maintenance events of a cloud VM. If the job looked stuck "
            "before it was killed, take stacks first next time (py-spy dump --pid on every rank before killing) and "
            "rerun with NCCL_DEBUG=INFO to see where it stood.",
            "medium", [], [e.brief() for e in term[:3]])
    ctrl_c = [e for e in sigs if e.data.get("ctrl_c")]
    held = next((e for e in ctrl_c if e.data.get("kbd_wait")), None)
    if (held is not None and not got and not forced and not cancel and _nothing_failed_first(c, ctrl_c)
            and not _unfit(c)):
        # the KeyboardInterrupt ends a process's own stack interrupted inside a CUDA synchronize (parse.input_tail):
        # not rule BS (2)'s ^C of the launcher's own wait, but a rank's own stack waiting, with no timeout, SeqNum,
        # peer or error -- it shows where that process stood, not which rank it waited for nor why (lead rules
        # BS (2), AB (2), BD (2); round 110's yyt-t-xyzo): unknown, nobody named
        rank = held.data.get("tag_rank")
        who = f"rank {rank}'s" if rank is not None else "a process's"
        under = held.data["kbd_wait"]
        return Verdict(
            "unknown",
            f"{who} own traceback ends in KeyboardInterrupt inside a CUDA synchronize"
            + (f" (under {under})" if under != "synchronize" else "") + ": the process was interrupted (Ctrl-C) "
            "while it sat waiting -- on its GPU's work, or a collective (a ZeRO-3 parameter all-gather, a peer's "
            "send) queued before that synchronize -- with no timeout, SeqNum, peer or error shown; one process's "
            "stack shows where it stood, not which rank it waited for nor why",
            "Before interrupting, take a py-spy dump of every rank to see where each waits (py-spy dump --pid PID on "
            "every rank; --native for the CUDA/NCCL frames): the rank not in the same all-gather or collective is "
            "the one the others wait for. Rerun with NCCL_DEBUG=INFO and TORCH_DISTRIBUTED_DEBUG=DETAIL, and set a "
            "collective timeout instead of Ctrl-C (init_process_group(timeout=...), DeepSpeed's timeout) so the hang "
            "raises a watchdog error with its SeqNum."
            + (" Under DeepSpeed ZeRO-3 every rank must run the same number of forward passes: model.generate needs "
               "synced_gpus=True (every rank must call generate the same number of steps; one that stops early leaves "
               "the others in the parameter all-gather), or generate under ZeRO stage 2 / with gathered parameters."
               if held.data.get("kbd_ds") or held.data.get("kbd_generate") else ""),
            "low", [], [held.brief()])
    if ctrl_c and not got and not forced and not cancel and _nothing_failed_first(c, ctrl_c) and not _unfit(c):
        # Python's "KeyboardInterrupt" ends a traceback: SIGINT interrupted a process of the job (a spawn parent in
        # its join, a rank), and nothing failed before it: the user's Ctrl-C (or a kill -INT) stopped the job; the
        # ranks' teardown lines after it (ProcessGroupNCCL's destructor, abort) are that stop, no rank is at fault
        return Verdict(
            "signal",
            "a process of the job was interrupted by SIGINT (its traceback ends in KeyboardInterrupt, or starts "
            "right after the terminal's echoed '^C': Ctrl-C or a kill -INT) and no rank shows an error, timeout or "
            "failure of its own before it: the job was stopped from outside, and what the ranks print after it "
            "(their process group's destructor and abort) is the teardown; no rank is at fault",
            "Nothing failed in the ranks: if the job was interrupted because it looked stuck, next time take stacks "
            "first (py-spy dump --pid PID on every rank) and rerun with NCCL_DEBUG=INFO to see where it stood; call "
            "dist.destroy_process_group() at the end of the script, and kill leftover worker processes a Ctrl-C "
            "may leave behind (nvidia-smi, ps) before relaunching.",
            "medium", [], [e.brief() for e in ctrl_c[:3]])
    if not got and forced:  # nothing else failed: the job was being stopped from outside
        return Verdict(
            "signal",
            "torchrun was stopping its workers (SIGTERM) and one was still running after the 30 s grace, so it was "
            "killed with SIGKILL; no worker failure is in the lines: the stop came from outside (scheduler "
            "preemption or time limit, a kill -TERM)",
            "Find who sent SIGTERM (sacct -j JOB, kubectl describe pod); a worker that handles SIGTERM (e.g. to save a "
            "checkpoint) must finish within torchrun's 30 s grace: checkpoint more often or save asynchronously, or "
            "have the scheduler signal the batch script earlier (sbatch --signal=B:TERM@600).",
            "medium", [], [e.brief() for e in forced[:3]])
    fails = c.child_failures + c.worker_failures
    if (not got and not sigs and fails and all(e.data.get("signal") == "SIGTERM" or e.data.get("exitcode") == -15
                                                for e in fails)
            and not c.kinds.get("watchdog_timeout") and not c.kinds.get("worker_raised")
            and not any(own_errors(st) for st in c.ranks.values())
            # another process's own traceback, cut before its error text (parse.input_tail's tb_cut): a process
            # raised on its own, so the SIGTERM may be its teardown (lead rules A, BG (6); round 81's
            # legacy-rocm-build-3956) -- read as the cut traceback (verdict.unread._cut_traceback)
            and not any(e.data.get("what") in ("frames", "header") for e in c.samples.get("tb_cut", []))):
        # lead rules T, U (5): the launcher's record says its worker(s) died of SIGTERM, and the launcher had sent
        # nothing before (its own "Sending process N closing signal SIGTERM" would be a signal line, and another
        # worker's failure a record of its own): the SIGTERM came from outside; its command line (the last worker
        # launched) does not say which worker, so nobody is named
        return Verdict(
            "signal",
            "the launcher's record says its worker died of SIGTERM (-15) while the launcher itself had stopped "
            "nothing and no worker shows a failure of its own: the SIGTERM came from outside the job (the scheduler "
            "or platform: time limit, preemption, a cancel, an out-of-memory guard; or a kill); which worker it hit "
            "first these lines do not say",
            "Find who sent SIGTERM: the scheduler's or platform's record (sacct -j JOB, PBS's qstat -xf JOB / "
            "tracejob, kubectl describe pod, the cloud job's events for preemption; check the PBS walltime and the "
            "test harness's per-test timeout, or a timeout wrapper's, and raise the one that was hit), dmesg on the "
            "node, each worker's own log (per-rank logs: torchrun "
            "--log-dir DIR --redirects 3 --tee 3); if the host ran short of memory (large data caches in host RAM), "
            "a memory guard may be the sender.",
            "medium", [], [e.brief() for e in fails[:3]])
    if not got:
        return None
    n = got[0].data.get("received") or PASSED_ON[got[0].data["sent"]]
    name, why, fix = {
        15: (
            "SIGTERM",
            "sent from outside: the scheduler cancelled, preempted or timed out the job, or someone killed it",
            "Read the scheduler's record (sacct -j JOB, kubectl describe pod) for who sent SIGTERM; with preemption, "
            "checkpoint more often.",
        ),
        2: (
            "SIGINT",
            "Ctrl-C: the user interrupted the job (often because it looked stuck)",
            "Nothing failed in the ranks: the job was stopped from outside by SIGINT (Ctrl-C, or a kill -INT), which "
            "torchrun passed on to its workers; tracebacks printed while they exit (KeyboardInterrupt, the DataLoader "
            "workers' atexit _clean_up_worker joining its worker processes) are that teardown, not a failure. If it "
            "was stuck before the Ctrl-C, next time take stacks first: py-spy dump --pid PID for every rank, and "
            "give `ncclDoctor diagnose` the logs of every rank (NCCL_DEBUG=INFO); set a process group timeout "
            "(init_process_group(timeout=...), TORCH_NCCL_ASYNC_ERROR_HANDLING=1) so "
            "that a stuck collective ends in a watchdog error that names it instead of waiting for a Ctrl-C.",
        ),
        1: (
            "SIGHUP",
            "the terminal that started torchrun closed; nohup does not protect the agent's workers",
            "Run under tmux/screen or the scheduler instead of nohup in a terminal.",
        ),
    }.get(n, (f"signal {n}", "a signal from outside", "Find who sent it (scheduler logs)."))
    return Verdict(
        "signal",
        f"torchrun's agent received {name} ({n}): {why}; it shut the workers down",
        fix,
        "high",
        [],
        [e.brief() for e in got[:3]],
    )


def _launcher_waiting(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A launcher's own stack, innermost in its wait on a worker (readers.crash: S.R_PARENT_WAIT), with nothing
    failing in the lines (the last detector before "none"): the parent was interrupted, or its stack dumped, while a
    worker still ran. That shows a worker alive and nothing else: no worker's lines, no error, no exit code, so neither
    the cause nor the rank can be read (lead rules T, A): unknown, nobody named; the fix says what would show it."""
    waits = c.samples.get("launcher_wait", [])
    if not waits or c.exceptions or c.unread:
        return None
    return Verdict(
        "unknown",
        "the only stack is the launcher's own parent process waiting on its worker (subprocess wait / os.waitpid): "
        "it was interrupted or dumped while at least one worker was still running, and no worker's line, error or "
        "exit code is shown, so neither the cause nor the rank can be read",
        "Give the workers' own logs / tracebacks (per-rank logs: each worker's stderr, or torchrun --log-dir / "
        "--redirects 3 --tee 3), and the exception line at the end of the launcher's traceback (a Ctrl-C / "
        "KeyboardInterrupt of the launcher ends in KeyboardInterrupt). If the job looked stuck, take a py-spy dump of "
        "every worker (py-spy dump --pid PID) before stopping it, and rerun with NCCL_DEBUG=INFO and "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL to see the collective it stands in.",
        "low", [], [e.brief() for e in waits[:2]])


def _pyspy_bare(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A py-spy dump of the job's processes (its thread headers, 'Thread N (idle): "MainThread"') with no collective
    frame, no teardown, nothing failing in the lines (the last detector before "none"): py-spy dump reads a live
    process, so it was taken while the job hung -- a hang is shown, where it stands is not. A bare stack with no
    collective shown stuck names no rank and proves no victim (lead rules AB (2), AC (1)): unknown, nobody named; the
    fix says what shows the rank that is elsewhere."""
    dumps = c.samples.get("pyspy_thread", [])
    if not dumps or c.exceptions or c.unread or any(c.kinds.get(k) for k in (
            "pyspy_unsuspended", "teardown_stuck", "run_done")):
        return None
    waits = c.samples.get("pyspy_waiting", [])
    if waits and (len(dumps) != 1 or len({e.data.get("what") for e in waits}) != 1 or c.child_failures
                  or c.worker_failures or any(own_errors(st) for st in c.ranks.values())):
        return None  # several processes' dumps, or another reading's lines: not the one stack read here
    if waits:
        # one py-spy dump whose thread stands inside a torch.distributed collective (its distributed_c10d frame),
        # nothing else failing: py-spy reads a live process, so it sat there -- waiting on a peer, or in a first
        # collective still connecting; one stack shows neither which rank is elsewhere nor why (lead rules AB (2),
        # BD (2), CC; round 110's transformers-22363, DeepSpeed's _broadcast_model on two nodes)
        coll = waits[0].data.get("what")
        return Verdict(
            "unknown",
            f"the lines are a py-spy dump of one process whose thread stands inside torch.distributed's {coll} "
            "(distributed_c10d), with no timeout, SeqNum or error: py-spy reads a live process, so it sat in that "
            "collective, but one process's stack shows neither which rank the others wait for nor why (a peer "
            "elsewhere, or a first collective whose connection between the nodes never completes)",
            f"Take a py-spy dump of every rank's process while it hangs (py-spy dump --pid PID on every node, all "
            f"ranks): the rank whose main thread is not in the same {coll} is the one to read. Check that every rank "
            f"calls the same {coll} (same group, same order; a rank-conditional branch around it leaves the others "
            "waiting). Where it is the job's first collective (the engine's or DDP's model broadcast at start-up) "
            "and the job spans nodes, rerun with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET) to see whether the "
            "communicator is set up, set NCCL_SOCKET_IFNAME to the interface the nodes reach each other on, try "
            "NCCL_IB_DISABLE=1 to test without InfiniBand, and check the firewall / port reachability between the "
            "nodes; set a process-group timeout (init_process_group(timeout=...)) and TORCH_DISTRIBUTED_DEBUG=DETAIL "
            "so the wait raises an error that names the collective.",
            "low", [], [dumps[0].brief(), waits[0].brief()])
    if dumps[0].data.get("tool") in ("faulthandler", "gdb", "lldb", "py-spy top"):
        return _stack_shown(c, dumps[0])
    # a thread-stack dump a signal handler printed ('File: "x.py", line 12, in f': readers.nccl) reads the same
    tool = "a thread-stack dump" if all(e.data.get("tool") == "stack" for e in dumps) else "a py-spy dump"
    return Verdict(
        "unknown",
        f"the lines are {tool} of a process (its thread stacks) with no collective frame and nothing failing: "
        f"{'py-spy' if tool.endswith('py-spy dump') else 'such a dump'} reads a live process, so the job hung or "
        "stalled there, but one process's stack shows neither which rank the others wait for nor why",
        "Take a py-spy dump of every rank's process while it hangs (py-spy dump --pid PID on each node, all ranks): "
        "the rank whose main thread is elsewhere -- not in the collective (all_reduce, reduce_scatter, a DeepSpeed "
        "overlap_comm bucket) the others wait in -- is the one to read. Rerun with NCCL_DEBUG=INFO and "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL, and enable the flight recorder (" + FR_ON + ") with a collective "
        "timeout, so the hang ends in a dump that names the collective and the ranks missing from it."
        + (" " + _ABORT_STUCK + "A gdb backtrace of the native threads (gdb -p PID -batch -ex 'thread apply all "
           "bt') shows what the abort waits on." if c.kinds.get("pyspy_abort") else ""),
        "low", [], [e.brief() for e in dumps[:2]])


def _stack_shown(c: Collected, ev) -> Verdict:
    """Lead rules BD (2), AB (2), AC (1), T: the lines are one process's stacks as faulthandler printed them ('Thread
    0x... (most recent call first):') or a debugger showed them ("(gdb) bt", "(cuda-gdb) info cuda kernels"), nothing
    failing -- no timeout, SeqNum, error text or failure record. A stack shows where that process stood (a
    synchronize, a collective, NCCL's communicator creation), not which peer it waits for nor why, and an untagged
    dump names no rank: unknown, nobody named (round 88's deepspeed-860, torchtitan-168, nccl-1774, snowfall-71). A
    faulthandler report under "Fatal Python error:" is a crash, read before (verdict.exits._fatal_python)."""
    tool = ev.data.get("tool")
    gdb, top = tool in ("gdb", "lldb"), tool == "py-spy top"
    coll, init, grouped = ev.data.get("coll"), ev.data.get("comm_init"), ev.data.get("group_end")
    # a frame of NCCL's kernel launch (cudaLaunchKernel above it) says the process waits for the launch itself, not
    # for a coalesced group's peers (round 99's nccl-750); a frame of the communicators' abort, that it is tearing
    # NCCL down (round 99's pytorch-149153)
    launch, abort = ev.data.get("launch"), ev.data.get("abort")
    grouped = grouped and not launch
    where = (f"; a thread stands inside torch.distributed's {coll}" if coll else "") + (
        "; the process stands inside NCCL's communicator creation (ncclCommInitRank, from ProcessGroupNCCL's "
        "lazy initNCCLComm)" if init else "") + (
        "; the process stands in NCCL's group end (ProcessGroupNCCL::endCoalescing / groupEnd -> ncclGroupEnd) of a "
        "coalesced group of operations" if grouped else "") + (
        "; the process stands in NCCL's kernel launch (ncclLaunchKernel -> cudaLaunchKernel), which did not return"
        if launch else "") + (
        "; the process stands in the teardown of its NCCL communicators (ProcessGroupNCCL::abort / ncclCommAbort), "
        "which did not return" if abort else "")
    fix = (("Take the stacks of every rank at the same moment (py-spy dump --pid PID, with --native for NCCL's "
            "frames, or gdb -p PID -batch -ex 'thread apply all bt' on each node)" if gdb or top else
            "Take the faulthandler / py-spy stacks of every rank at the same moment (py-spy dump --pid PID on each "
            "node, or faulthandler.dump_traceback_later / faulthandler.register(signal.SIGUSR1) in every rank)")
           + ": the rank whose stack is elsewhere -- not in the same collective, synchronize or communicator "
           "creation as this one -- is the one the others wait for. ")
    if grouped or coll in _COALESCED:
        # lead rules BD (2), T (round 96's pytorch-120683): a coalesced group (batch_isend_irecv, _coalescing_manager)
        # is launched at its end, ncclGroupEnd, which waits for the peers of its point-to-point ops -- a peer that
        # never posts the matching send or recv, or runs another collective there, leaves this process in it
        fix += ("A coalesced group (batch_isend_irecv, torch.distributed's _coalescing_manager) is issued at its end "
                "(ncclGroupEnd), which waits until every peer posts its side: check the peer issues the matching "
                "send for each recv (and recv for each send) -- not a different collective -- and that every rank "
                "issues the same ops inside _coalescing_manager (same collectives, same order, same peers). ")
    elif coll:
        fix += (f"Check that every rank calls the same {coll} (same group, same order; a rank-conditional branch "
                "around it, such as checkpoint saving or evaluation on one rank, leaves the others waiting). ")
    if launch:
        fix += _LAUNCH_STUCK
    if abort:
        fix += _ABORT_STUCK
    if init:
        fix += ("NCCL creates a communicator only when every member calls its init: a process group does it lazily "
                "at a group's first collective, or a pair's first send/recv, so a peer that never reached the "
                "matching send (or collective) leaves this one waiting there -- check the peer calls the matching "
                "send, create the communicators eagerly (device_id in init_process_group) or pair point-to-point "
                "ops with batch_isend_irecv, and rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT to see whose init "
                "never completed. "
                # lead rules BD (2), CC, T (round 100's pytorch-52916: gdb's frames bootstrapInit -> bootstrapNetAccept
                # -> accept()): the communicator's creation starts with NCCL's bootstrap, where each member connects
                # to the socket the root published through the store -- a member that never arrived and one that
                # cannot reach that address look the same from here
                "Its first step is NCCL's bootstrap (bootstrapInit, waiting in accept() for the other members to "
                "connect to the address this process published): a member that cannot reach that address waits "
                "there as one that never arrived does -- take the stacks of every rank (gdb / py-spy dump) to see "
                "where the others are, rerun with NCCL_DEBUG_SUBSYS=INIT,NET on every node to see the bootstrap "
                "connect, set NCCL_SOCKET_IFNAME to an interface the nodes can reach each other on, open the "
                "firewall between the hosts for NCCL's bootstrap ports (ephemeral TCP ports), and check "
                "MASTER_ADDR resolves to an address every node can reach. ")
    fix += ("Rerun with NCCL_DEBUG=INFO and TORCH_DISTRIBUTED_DEBUG=DETAIL, and set a collective timeout "
            "(init_process_group(timeout=...), TORCH_NCCL_ASYNC_ERROR_HANDLING=1) with the flight recorder on "
            "(" + FR_ON + "), so the hang ends in an error "
            "that names the collective and the ranks missing from it.")
    own = ev.data.get("rank")
    who = f"rank {own}'s" if own is not None else "one untagged process's"
    what = (f"a debugger's view ({'lldb' if tool == 'lldb' else 'gdb / cuda-gdb'}) of {who} stack" if gdb else
            f"py-spy top's samples of {who.removesuffix(chr(39) + 's')} live, (nearly) all of them in one "
            "torch.distributed function"
            + (" (with its native frames shown by a debugger)" if grouped or init else "") if top else
            f"faulthandler's dump of {who} thread stacks")
    return Verdict(
        "unknown",
        f"the lines are {what}{where}, with no timeout, error or failure record: it shows where that process stood "
        "while the job sat still, but one process's stack shows neither which rank the others wait for nor why"
        + (", and it names no rank" if own is None else ""),
        fix, "low", [], [ev.brief()])


# lead rules BD (2), AB (2), T: a debugger's stack of a process inside NCCL's kernel launch (ncclLaunchKernel /
# ncclStrongStreamLaunchKernel -> cudaLaunchKernel -> the driver), nothing else shown (round 99's nccl-750): a launch
# blocks until its kernel ends under CUDA_LAUNCH_BLOCKING=1, or while the stream's launch queue is full behind earlier
# kernels -- the variable and the NCCL version are not in the lines, so both go into the fix, no rank named
_LAUNCH_STUCK = (
    "The process waits for a CUDA kernel launch of NCCL's to return (cudaLaunchKernel under ncclLaunchKernel). With "
    "CUDA_LAUNCH_BLOCKING=1 set, every launch waits until its kernel has finished, and an NCCL kernel finishes only "
    "when its peers take part: the NCCL releases bundled with torch "
    "1.13 / 2.0 (2.13-2.16) deadlock in this launch under CUDA_LAUNCH_BLOCKING=1 (fixed in NCCL 2.17) -- unset "
    "CUDA_LAUNCH_BLOCKING for the distributed run (use it only to locate a CUDA error, in a single-process run), or "
    "upgrade NCCL to 2.17.1 or later (a torch build bundling a newer NCCL). Without it, a launch waits while the "
    "stream's queue is full behind an earlier NCCL kernel that waits for a peer: check the peers reached the same "
    "collective (a rank behind or missing shows in their stacks); upgrade NCCL / the CUDA driver if every rank "
    "stands in this launch. ")

# torch.distributed's functions that group point-to-point ops into one NCCL group (its end launches them all)
_COALESCED = ("_coalescing_manager", "batch_isend_irecv")


# lead rules AB (2), BD (2), AK (2), T (review 98 finding 8): a stack of a thread inside the teardown of its NCCL
# communicators -- ProcessGroupNCCL::abort waiting for ncclCommAbort, or ncclCommAbort / ncclCommDestroy itself down to
# commReclaim / commFree -- whichever tool showed it (py-spy: round 82's nccl-992; gdb / lldb: round 99's
# pytorch-149153): the process found an error (or a timeout, or shuts down) and is stuck tearing NCCL down; the error
# itself, the other ranks and the NCCL version are not shown, so it stays unknown with nobody named (nccl_internal
# needs an NCCL error or a version shown: rule AK (2)). One text for every tool, so the same stuck abort gets the same
# fix; a thread in c10d's own destroy_process_group is the teardown_stuck reading.
_ABORT_STUCK = (
    "The stack shows the process inside the teardown of its NCCL communicators (ProcessGroupNCCL::abort, which "
    "torch runs after an error or timeout was detected or at shutdown / destroy_process_group, waiting for "
    "ncclCommAbort / ncclCommDestroy to return, down to commReclaim / commFree): the abort itself is what hangs (a "
    "ProcessGroupNCCL::abort hang in ncclCommAbort). Run with NCCL_DEBUG=INFO to find the original error before "
    "abort (the first WARN of any rank); abort every rank's communicators, not one (call destroy_process_group before "
    "exit on every rank), and call ncclCommAbort from one thread only (older NCCL releases hang in commFree when "
    "several threads abort at once); upgrade torch / NCCL (ncclCommAbort/commFree hangs were fixed in later "
    "releases: the multithreaded abort in 2.19+, NCCL 2.25.1's abort hang in 2.26.2). ")
