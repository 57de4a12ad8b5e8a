"""Verdict stage: the one conclusion an expert would give, with its cause, culprits,
confidence, proving lines and the fix (``report.results["diagnose"]["verdict"]``).

Every detector below looks at the collected families and the cross-rank conclusions and
returns a ``Verdict`` or None; the first in ``DETECTORS`` order wins. The order is the
order of causation an expert uses: a rank's own hard failure (CUDA error, OOM, a kill)
explains the timeouts that follow it; a broken transport or set-up explains a hang; a
missing rank explains a hang; benign noise never wins over anything.

Cause classes (tests/fixtures/corpus/README.md): rank_missing, desync, ib_fabric,
network_setup, store_rendezvous, watchdog_blocked, cuda_error, gpu_oom, host_oom,
dataloader_shm, invalid_usage, nccl_system, nccl_internal, transport_stall, early_exit,
signal, config, unknown, none.

Culprits are only named with the confidence the evidence allows; for causes that are no
single rank's fault (a shared setting, the fabric, the launch) the verdict names none.

The detectors live in one module per cause family; each module's docstring says what its detectors
conclude: ``cuda`` (CUDA errors); ``memory`` (GPU and host OOMs, DataLoader shared memory);
``exits`` (exit records, native crashes, Fatal Python errors); ``signals`` (signals, preemption,
time limits); ``launch`` (the launch's own settings); ``world`` (ranks, nodes and worlds that do not
fit); ``usage`` (invalid usage); ``transport`` (InfiniBand, OFI, shared memory, stalled transfers);
``network`` (interfaces and addresses); ``store`` (the store and rendezvous); ``desync`` (desyncs);
``timeouts`` (watchdog timeouts, a blocked watchdog); ``missing`` (a rank missing from a wait);
``early_exit`` (a rank gone while its peers wait); ``nccl`` (NCCL's other errors and WARNs);
``noise`` (benign noise, nothing failed, settle); ``layer_check`` (a library's check refusing a layer of
the model every rank builds); ``library_builds`` (an installed library's own build or release failing alike on
every rank); ``tracker_setup`` (an experiment tracker's own
check or prompt); ``unread`` (a failure no family reads). ``base``
holds ``Verdict`` and the helpers every family uses.
"""

from __future__ import annotations

from typing import Callable

from ncclDoctor.diagnose import files, numerics, trackers
from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import (
    JOB_WIDE,
    Verdict,
)
from ncclDoctor.diagnose.verdict.cuda import (
    _arch_unsupported,
    _cuda,
    _cuda_lib_crash,
    _ucx_cuda,
)
from ncclDoctor.diagnose.verdict.desync import (
    DDP_ABORTED_WORDS,
    _coll_split,
    _ddp_params,
    _desync,
    _desync_report,
    _ds_disagree,
    _garbage_rng,
    _garbage_sizes,
    _gathered_shapes,
    _meta_split,
    _peer_done,
    _pipe_out_of_step,
    _print_sizes,
    _rank_shapes,
    _recv_garbage,
    _sites_split,
    ddp_gather_aborted,
)
from ncclDoctor.diagnose.verdict.dtensor_compile import _compile_signature, _dtensor_refusal
from ncclDoctor.diagnose.verdict.early_exit import (
    _early_exit,
    _hccl_peer_lost,
    _hvd_shut_down,
    _left_while_waited,
    _mpi_peer_gone,
    _teardown_stuck,
    _test_store_lost,
)
from ncclDoctor.diagnose.verdict.exits import (
    _agent_closing_alone,
    _exited,
    _fatal_python,
    _interposer_crash,
    _native_crash,
    _native_crash_cut,
    _nccl_crash,
    _ray_died,
    _sglang_crash,
    _spawn_exit,
    _terminated,
    _workers_raised,
)
from ncclDoctor.diagnose.verdict.harness import harness_fix
from ncclDoctor.diagnose.verdict.launch import (
    _abstract_unbuilt,
    _agent_api_mismatch,
    _cann_python_env,
    _cuda_fork,
    _device_index_none,
    _dtype_clash,
    _entry_kwarg_refused,
    _ext_symbol,
    _forward_kwarg_refused,
    _fsdp_wrap_attr,
    _import_alike,
    _init_backend_unknown,
    _kwarg_newer_torch,
    _kwarg_refused,
    _launch_arg,
    _launch_config_missing,
    _launch_mode,
    _launch_setup,
    _launcher_args_cut,
    _launcher_shim,
    _lib_api_mismatch,
    _lib_backward_attr,
    _lib_unloadable,
    _log_dir_missing,
    _module_missing,
    _nccl_no_gpu_cut,
    _no_gpu_modulo,
    _no_nccl,
    _no_trainable,
    _not_a_checkout,
    _object_lacks,
    _old_dist_api,
    _optional_unbound,
    _ray_version_mismatch,
    _settings_check,
    _spawn_main_unpickle,
    _spawned_path_missing,
    _super_lacks,
    _tiny_timeout,
    _torch_api_refused,
    _usage_exit,
    _version_required,
    _wrapper_internal,
)
from ncclDoctor.diagnose.verdict.layer_check import _layer_check
from ncclDoctor.diagnose.verdict.library_builds import _framework_internal, _gpu_arch_unsupported, _kernel_unregistered
from ncclDoctor.diagnose.verdict.memory import (
    _bus_error,
    _dataloader,
    _died_loading,
    _gpu_oom,
    _host_mem,
    _killed,
    _kv_cache,
    _mp_tmp,
    _rss_runaway,
)
from ncclDoctor.diagnose.verdict.missing import (
    _barrier_owed,
    _behind,
    _busy,
    _direct_hang,
    _evaluating,
    _first_missing,
    _hvd_stall,
    _lagging_report,
    _load_barrier,
    _missing,
    _monitored,
    _p2p_check,
    _slow_step,
    _store_wait,
    _uniqueid,
    _unsuspended,
    _xla_rendezvous,
)
from ncclDoctor.diagnose.verdict.nccl import (
    _driver_too_old,
    _lib_host_limit,
    _nccl_builds,
    _nccl_dtype_unbuilt,
    _nccl_other,
    _retcode_trail,
    _setup_aftermath,
    _topo_realpath,
    _warn_family,
    _warn_subsystem,
)
from ncclDoctor.diagnose.verdict.network import (
    _ccl_exchange,
    _engine_handshake,
    _ib_device_range,
    _ib_unseen,
    _link_local_roles,
    _link_unmade,
    _network,
    _nvshmem_no_path,
    _peer_wait,
    _root_unreached,
    _rpc_first_request,
    _rpc_setup,
    _service_wait,
    bad_interfaces,
)
from ncclDoctor.diagnose.verdict.noise import (
    _none,
    _setup_hang,
    settle,
)
from ncclDoctor.diagnose.verdict.signals import (
    _launcher_waiting,
    _preempted,
    _pyspy_bare,
    _runtime_signal,
    _signal,
)
from ncclDoctor.diagnose.verdict.store import (
    _exit_barrier,
    _filestore_open,
    _store,
)
from ncclDoctor.diagnose.verdict.timeouts import (
    _blocked,
    _own_wait,
    _serving_watchdog,
    _timeouts,
)
from ncclDoctor.diagnose.verdict.tracker_setup import (
    _login_prompt,
    _no_key,
)
from ncclDoctor.diagnose.verdict.transport import (
    _all_joined,
    _beside_stall,
    _gloo_stall,
    _ib,
    _mpi_shm,
    _net_plugin_register,
    _shm,
    _socket_stall,
    _subgroup_stall,
    _truncated,
)
from ncclDoctor.diagnose.verdict.unread import (
    _feed_pipe_end,
    _open_traceback,
    _rdzv_identity,
    _unread_failure,
    kernel_words,
    module_check_fixes,
)
from ncclDoctor.diagnose.verdict.usage import (
    _invalid_usage,
    _store_overcount,
)
from ncclDoctor.diagnose.verdict.world import (
    _config,
    _env_rank0_elsewhere,
    _env_rank_twice,
    _local_rank_twice,
    _net_plugin_split,
    _own_worlds,
    _procs_past_visible,
    _rank0_elsewhere,
    _rank_args,
    _rank_sentinel,
    _slurm_tasks_gpus,
    _version_elsewhere,
    _version_twice,
)
from ncclDoctor.findings import Finding, Severity

DETECTORS: list[Callable[[Collected, list[Conclusion]], Verdict | None]] = [
    # an OOM first: the CUDA errors that follow one ('invalid resource handle') are its consequences
    # a shared library that cannot be loaded explains the aborts and worker deaths after it (rule AF (2))
    _gpu_oom, _ucx_cuda, _cuda, _lib_unloadable, _launcher_shim, _runtime_signal, _interposer_crash, _nccl_crash,
    _cuda_lib_crash, _cann_python_env, _kv_cache, _host_mem, _mp_tmp, _service_wait, _engine_handshake,
    _killed, _ray_died,
    _dataloader, _bus_error, _launch_arg,
    _rdzv_identity, _launch_setup, _cuda_fork, _settings_check, _no_key, _dtype_clash, _not_a_checkout,
    _spawned_path_missing,
    _launch_config_missing, _log_dir_missing, _ray_version_mismatch, _device_index_none,
    _ext_symbol, _import_alike,
    _version_required, _kwarg_newer_torch, _kwarg_refused, _agent_api_mismatch, _lib_api_mismatch, _no_trainable,
    _object_lacks, _lib_backward_attr, _forward_kwarg_refused,
    _wrapper_internal, _fsdp_wrap_attr, _super_lacks, _layer_check, _dtensor_refusal, _compile_signature,
    _kernel_unregistered, _framework_internal, _gpu_arch_unsupported,
    _entry_kwarg_refused, _torch_api_refused, _old_dist_api, _init_backend_unknown, _abstract_unbuilt,
    _module_missing, _spawn_main_unpickle, _optional_unbound, _usage_exit, _nccl_no_gpu_cut, _no_gpu_modulo,
    _launcher_args_cut,
    _no_nccl, _nccl_dtype_unbuilt,
    _store_overcount, _preempted, _tiny_timeout,
    _ddp_params,
    _desync_report, _garbage_sizes, _pipe_out_of_step, _garbage_rng, _meta_split, _ds_disagree, _print_sizes,
    _gathered_shapes, _rank_shapes,
    _lagging_report,
    _monitored, _hvd_stall, _load_barrier, _xla_rendezvous, _uniqueid, _direct_hang, _slow_step, _busy, _behind,
    _p2p_check,
    _invalid_usage, _truncated, _shm, _mpi_shm, _nccl_builds, _ib, _socket_stall, _gloo_stall, _barrier_owed,
    _beside_stall,
    _setup_aftermath, _root_unreached, _nvshmem_no_path, _ib_device_range, _link_unmade, _rpc_first_request, _rpc_setup,
    _ccl_exchange, _net_plugin_register, _network, _link_local_roles,
    _store_wait,
    _filestore_open,
    _store,
    _exit_barrier,
    _evaluating, _desync, _sites_split, _coll_split, _peer_done, _missing, _first_missing, _unsuspended, _blocked,
    _early_exit, _left_while_waited, _test_store_lost,
    _hccl_peer_lost,
    _mpi_peer_gone,
    _hvd_shut_down,
    _all_joined, _serving_watchdog,
    _driver_too_old, _warn_family, _nccl_other, _lib_host_limit, _arch_unsupported,
    _signal, _timeouts, _exited, _spawn_exit, _teardown_stuck, _died_loading, _agent_closing_alone, _fatal_python,
    _native_crash, _workers_raised, _rss_runaway, _sglang_crash, _terminated, _native_crash_cut,
]


def _last_errors(c: Collected) -> None:
    """An NCCL error's "Last error:" text is itself a log line (an IB completion, a socket
    error, a CUDA failure): read it as one, so its own family decides the cause."""
    from ncclDoctor.diagnose.parse import LineParser

    for e in list(c.samples.get("nccl_error", [])):
        text = e.data.get("last_error")
        if not text or e.data.get("last_error_read"):
            continue
        e.data["last_error_read"] = True
        path, _, line = e.where.rpartition(":")
        d = LineParser(path, e.rank).parse(int(line) if line.isdigit() else 0, text)
        if d is not None and d.kind != "nccl_error":
            d.rank = e.rank if d.rank is None else d.rank
            c.kinds[d.kind] += 1
            c.samples.setdefault(d.kind, []).append(d)
            if d.rank is not None:
                c.kind_ranks.setdefault(d.kind, set()).add(d.rank)


def verdict(c: Collected, ks: list[Conclusion], env_findings: list[Finding]) -> Verdict:
    _last_errors(c)
    for detect in DETECTORS:
        v = detect(c, ks)
        if v is not None:
            if v.cause != "desync" and ddp_gather_aborted(c):
                v.summary += DDP_ABORTED_WORDS
            return _kernel_fix(c, harness_fix(c, _with_settings(_unknown_remedies(c, v), env_findings)))
    return _kernel_fix(c, harness_fix(c, _unknown_remedies(c, (_retcode_trail(c, ks) or _topo_realpath(c, ks)
            or _own_worlds(c, ks) or _rank0_elsewhere(c, ks) or _version_elsewhere(c, ks)
            or _version_twice(c, ks) or _net_plugin_split(c, ks)
            or _ib_unseen(c, ks) or _login_prompt(c, ks) or _setup_hang(c, ks)
            or _config(c, ks, env_findings)
            or _env_rank_twice(c, ks) or _rank_args(c, ks) or _procs_past_visible(c, ks) or _launch_mode(c, ks)
            or _env_rank0_elsewhere(c, ks) or _local_rank_twice(c, ks) or _slurm_tasks_gpus(c, ks)
            or _peer_wait(c, ks)
            or _warn_subsystem(c, ks)
            or _unread_failure(c, ks) or _launcher_waiting(c, ks) or _pyspy_bare(c, ks) or _open_traceback(c, ks)
            or _own_wait(c, ks) or _subgroup_stall(c, ks) or _recv_garbage(c, ks) or _rank_sentinel(c, ks)
            or _feed_pipe_end(c, ks) or _none(c, ks)))))


def _kernel_fix(c: Collected, v: Verdict) -> Verdict:
    """Lead rules K, T: accelerate's start-up advisory that the host's kernel is below its recommended minimum is no
    failure, but where the job failed of a cause the lines do not name (cause unknown) an expert names the kernel
    upgrade with the remedy of the failure read (round 92's medusa-134 on a cut traceback; round 110's accelerate-2084
    on a rank's own exception): its sentence after the reading's fix, the reading unchanged."""
    if c.kernel_old and v.cause == "unknown" and "upgrade the kernel" not in v.fix:
        v.fix += kernel_words(c.kernel_old)
    return v


# Lead rule BZ (1): a bare "OSError: [Errno 24] Too many open files" (EMFILE) read as unknown -- a process out of file
# descriptors, what held them not shown (the DataLoader's file_descriptor sharing strategy, the dataset's own files,
# sockets): the fix says how to raise the limit and the usual consumers to cut (round 96's masktextspotterv3-51)
_FD_LIMIT_FIX = (
    "Too many open files (EMFILE): the process ran out of file descriptors. Raise the open-file limit (ulimit -n "
    "65535 in the shell that launches the job, or LimitNOFILE / docker --ulimit nofile=65535:65535); if a DataLoader "
    "shares tensors between its workers, switch to the file_system sharing strategy "
    "(torch.multiprocessing.set_sharing_strategy('file_system')) or use fewer DataLoader workers (num_workers), and "
    "check that the dataset closes the files it opens (ls /proc/PID/fd | wc -l shows how many a process holds). ")


def _unknown_remedies(c: Collected, v: Verdict) -> Verdict:
    """The remedies put first in an ``unknown`` verdict's fix, each from the shape its lines show; the cause and the
    ranks stay the reading's. A failure no class covers whose lines show the run's numbers diverging (a NaN grad norm,
    the fp16 loss scale at its minimum) or GradScaler's own order check: that remedy (numerics.py, lead rules BJ (2),
    BG (4)). A tracker's or logger's own failure (wandb's ERROR, a log directory raced, an object spawn cannot pickle:
    trackers.py), a module's own bookkeeping check, a file-system error tied to the layout (files.py) and a process
    out of descriptors get theirs the same way."""
    if v.cause != "unknown":
        return v
    texts = [e.text for e in c.exceptions] + [u.text for u in c.unread] + [
        e.text for e in c.samples.get("scaler_no_grad", [])]  # GradScaler's assert line, its message cut (parse)
    fix = numerics.fix_for(texts)
    if fix and fix not in v.fix and "NaN/Inf check stopped" not in v.fix:
        v.fix = fix + v.fix
    if _FD_LIMIT_FIX not in v.fix and any("Too many open files" in t for t in texts):
        v.fix = _FD_LIMIT_FIX + v.fix  # a process out of descriptors, their consumer not shown (lead rule BZ (1))
    # a module's own bookkeeping check in code every rank runs (DDP's reducer, rule AW; ZeRO-3's parameter coordinator,
    # rules BJ (2), BQ (3)) wherever the lines show it -- behind a launcher's cut record, beside another exception, or
    # as a cut traceback's last frame: its remedy first (round 93's hept-2, accelerate-3536, deepspeed-chat-chatglm-7)
    cut = [f"{e.text}\n{e.data.get('code') or ''}" for e in c.samples.get("tb_cut", [])]
    v.fix = "".join(f for f in module_check_fixes(texts + cut) if f not in v.fix) + v.fix
    # a file-system error tied to the distributed layout (files.py: a path another node wrote, ranks racing on one
    # file, a lock file, an unwritable cache, a checkpoint read empty; rules BG (4), BJ (2), CK (7)): its remedy first
    framed = [e.text + "\n" + " ".join(str(e.data.get(k) or "") for k in ("frame_file", "caller_file", "tail_frames"))
              for e in c.exceptions] + [u.text for u in c.unread]
    pkgs = " ".join(str(e.data.get("tb_pkgs") or "") for e in c.exceptions)
    v.fix = "".join(f for f in files.fix_for(framed, pkgs) if f not in v.fix) + v.fix
    # a tracker's or logger's own failure (trackers.py; rules BG (1), BJ (2)): its remedy first, the reading's after
    read = _read_failure_lines(c, v)
    if read:
        procs = len(c.worker_failures) + len(c.child_failures)
        fix = "".join(f for f in trackers.fix_for([(e.text, e.data) for e in read], procs) if f not in v.fix)
        v.fix = fix + v.fix
    return v


def _read_failure_lines(c: Collected, v: Verdict) -> list:
    """The exceptions and unread failure lines that are the failure the verdict reads (trackers.fix_for, review r1):
    those it quotes or cites; or all of them where it cites nothing but a launcher's report that names no failure of
    its own (DeepSpeed's 'Killing subprocess' after wandb's error at exit: round 90's gpt-neox-216). A verdict that
    cites another failure (a crash, a signal) keeps its own fix first and these lines' remedies out."""
    lines = list(c.exceptions) + list(c.unread)
    cited = v.summary + "\n" + "\n".join(v.proof)
    read = [e for e in lines if e.brief() in v.proof or e.text.strip()[:100] in cited]
    if read:
        return read
    reports = {e.brief() for e in c.worker_failures + c.child_failures}
    return lines if all(p in reports for p in v.proof) else []


def _with_settings(v: Verdict, env_findings: list[Finding]) -> Verdict:
    """A verdict that names nobody (the lines cannot say who or why) still has the settings the logs
    print wrong to act on: its fix names them too, as findings that do not explain the failure alone."""
    bad = [f for f in env_findings if f.severity != Severity.INFO]
    if not bad or v.culprits or v.cause not in ("unknown", "rank_missing") or v.confidence != "low":
        return v
    said = "; ".join(f.message.removeprefix("in the logs: ") for f in bad[:4])
    v.fix += f" Also fix the settings the logs show (they do not explain this failure alone): {said}."
    return v


def reconcile(v: Verdict, ks: list[Conclusion]) -> None:
    """Keep the conclusions consistent with the verdict: when the cause is job-wide (a
    setting, the fabric, the launch), a rank that merely reported it first is not a culprit."""
    if v.cause in JOB_WIDE or v.job_wide or v.demote:
        for k in ks:
            if k.kind in ("first_failure", "culprit") and k.confidence != "low":
                k.confidence = "low"
                why = v.demote or f"the cause is {v.cause.replace('_', ' ')}, which no single rank caused"
                k.message += f" ({why})"


__all__ = ["DETECTORS", "Verdict", "bad_interfaces", "reconcile", "settle", "verdict"]
