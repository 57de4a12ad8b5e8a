"""How diagnose reads version mismatches and API refusals (round 109, session 46, fixer f3): DDP's constructor refusing
process_group (a torch before 1.0) or a keyword whose name the line lost, a known library's class (FlashInfer's
wrappers) refusing an installed framework's call, autograd refusing a second backward in several processes alike,
ProcessGroupUCC refusing a CUDA collective it does not implement, NCCL's FP8 capability line, an application's own
server failing to bind in a run every communicator ends cleanly (with the job's own 'NCCL_TIMEOUT = N ms' line), and a
completed nccl-tests run that still sets a variable NCCL removed. Each test reads the shape from lines other than the
corpus case's own (other ranks, numbers, paths, names), and a near shape that keeps its old reading. Hosts, pids,
paths and names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.verdict import launch
from tests.conftest import verdict_accused


# --- DDP's constructor refusing process_group: the torch installed predates 1.0 -------------------------------------
def _ddp_tb(message: str, code: str = "process_group=pg,", cls_line: str = "") -> str:
    return ("Traceback (most recent call last):\n"
            '  File "run_cluster.py", line 88, in <module>\n'
            "    train(cfg)\n"
            '  File "/srv/proj/lib/builders.py", line 61, in wrap_head\n'
            "    head = to_gpu(head, cfg.gpu, group=pg)\n"
            '  File "/srv/proj/lib/builders.py", line 77, in to_gpu\n'
            f"    {code}\n"
            f"TypeError: {cls_line}{message}\n")


def test_ddp_refusing_process_group_is_a_torch_older_than_1_0(tmp_path):
    """Lead rule BT (2): '__init__() got an unexpected keyword argument 'process_group'' raised on a continuation line
    of the job's own call (no other call open on it), no torch frame: config, nobody; the fix upgrades PyTorch and
    checks torch.__version__ on every node."""
    v, acc = verdict_accused(tmp_path, _ddp_tb("__init__() got an unexpected keyword argument 'process_group'"))
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "Upgrade torch to >= 1.0" in v["fix"] and "check torch.__version__ on every node" in v["fix"], v


def test_another_class_refusing_process_group_is_not_ddps(tmp_path):
    """Python 3.10 names the class: SyncBatchNorm (or a user's class) refusing process_group is not DDP's constructor,
    and the torch-version reading stays off; the same line for DDP is read (the guard reads the class)."""
    v, _ = verdict_accused(tmp_path, _ddp_tb("GraphNorm.__init__() got an unexpected keyword argument 'process_group'"))
    assert "Upgrade torch to >= 1.0" not in v["fix"], v
    assert launch._KWARG_REFUSED.match("GraphNorm.__init__() got an unexpected keyword argument 'process_group'"
                                       ).group("cls") == "GraphNorm"
    assert launch._TORCH_KWARG_SINCE["process_group"] == ("DistributedDataParallel", "1.0")


# --- the same refusal with the line cut before the keyword's name -----------------------------------------------------
def _spawn_cut(code: str, message: str = "__init__() got an unexpected keyw") -> str:
    return ("-- Process 3 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.9/site-packages/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/work/seqlab/seqlab/trainer.py", line 212, in model\n'
            "    self._wrapped = wrap_model(\n"
            '  File "/work/seqlab/seqlab/dist_model.py", line 44, in wrap_model\n'
            f"    {code}\n"
            f"TypeError: {message}\n")


def test_ddp_call_refusing_a_cut_keyword_is_the_torch_version(tmp_path):
    """Lead rule BT (2): a spawned child's DDP call ('wrapped = DistributedDataParallel(') refused with the line cut
    before the keyword's name: config, nobody (not the spawned child as culprit); the fix upgrades torch."""
    v, acc = verdict_accused(tmp_path, _spawn_cut("wrapped = DistributedDataParallel("))
    assert v["cause"] == "config" and not acc and v["culprits"] == [], (v, acc)
    assert "upgrade torch" in v["fix"].lower() and "check torch.__version__" in v["fix"], v


def test_a_cut_refusal_on_another_call_is_not_ddps(tmp_path):
    """The same cut message raised on a line that builds another class (a wrapper of the framework's own): DDP's
    torch-version reading stays off; the same line opening DDP's call is read (the guard reads the code line)."""
    v, _ = verdict_accused(tmp_path, _spawn_cut("wrapped = ShardedWrapper("))
    assert "cut before the keyword's name" not in v["summary"], v
    assert launch._builds_ddp("wrapped = DistributedDataParallel(", "\0")
    assert not launch._builds_ddp("wrapped = ShardedWrapper(", "\0")
    assert launch._KWARG_REFUSED_CUT.match("__init__() got an unexpected keyw")


# --- a known library's class refusing an installed framework's call ---------------------------------------------------
def _fi_tb(cls: str, tail_header: bool = True) -> str:
    return ('  File "/home/u/venv/lib/python3.11/site-packages/vllm/attention/backends/flashinfer.py", line 301, in '
            "begin_forward\n"
            "    self.decode_wrapper.plan(*plan_args)\n"
            f"TypeError: {cls}.plan() takes 9 positional arguments but 11 were given\n"
            + ("\nException in WorkerProc:\n" if tail_header else ""))


def test_flashinfer_wrapper_refusing_a_frameworks_call_is_the_install(tmp_path):
    """Lead rule BT (2): FlashInfer's BatchDecode...Wrapper.plan() refusing the arguments vLLM's own frame passes,
    the paste ending at the next report's bare 'Exception in X:' header: config, nobody; the fix matches the flashinfer
    version to the framework's release and names running without FlashInfer."""
    v, acc = verdict_accused(tmp_path, _fi_tb("BatchDecodeWithPagedKVCacheWrapper"))
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "Match the flashinfer version to the vllm release" in v["fix"], v
    assert "VLLM_ATTENTION_BACKEND" in v["fix"], v


def test_an_unknown_class_refusing_a_call_keeps_its_reading(tmp_path):
    """The same refusal by a class no known library's API names (the framework's own KV helper): not the library
    reading; the known wrapper class is read by the table (the guard)."""
    v, _ = verdict_accused(tmp_path, _fi_tb("PagedDecodeHelper"))
    assert "flashinfer" not in v["fix"].lower(), v
    assert any(p.match("BatchPrefillWithRaggedKVCacheWrapper") for p, _, _ in launch._LIB_API_CLASSES)
    assert not any(p.match("PagedDecodeHelper") for p, _, _ in launch._LIB_API_CLASSES)


# --- autograd refusing a second backward in several processes ---------------------------------------------------------
_TWICE = ("RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after "
          "they have already been freed). Saved intermediate values of the graph are freed when you call .backward()")


def _twice(ranks) -> str:
    return "".join(
        f"[rank{r}]: Traceback (most recent call last):\n"
        f'[rank{r}]:   File "/work/gan/train_gan.py", line 533, in fit\n'
        f"[rank{r}]:     scaler.scale(loss_d).backward()\n"
        f'[rank{r}]:   File "/opt/py/site-packages/torch/autograd/__init__.py", line 251, in backward\n'
        f"[rank{r}]:     Variable._execution_engine.run_backward(\n"
        f"[rank{r}]: {_TWICE}\n" for r in ranks)


def test_backward_twice_on_several_ranks_is_the_loops_usage(tmp_path):
    """Lead rules J, BW (2): ranks 2 and 5 both refused by autograd's 'backward through the graph a second time':
    invalid_usage, nobody; the fix detaches / recomputes and names retain_graph."""
    v, acc = verdict_accused(tmp_path, _twice((2, 5)))
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], (v, acc)
    assert "retain_graph=True" in v["fix"] and "detach()" in v["fix"], v


def test_backward_twice_on_one_ranks_tag_keeps_that_ranks_reading(tmp_path):
    """One rank's own tagged traceback ending there: rule A's reading of that rank, not the job-wide usage error; two
    ranks' are read. Two whole tracebacks under one tag are one process printing it twice (review a of round 109,
    finding 2: processes, not tracebacks), read as the same paste without the tag reads (rankprefix)."""
    v, _ = verdict_accused(tmp_path, _twice((6,)))
    assert v["cause"] != "invalid_usage", v
    v2, _ = verdict_accused(tmp_path, _twice((0, 6)))
    assert v2["cause"] == "invalid_usage", v2
    v3, _ = verdict_accused(tmp_path, _twice((4, 4)))
    assert v3["cause"] != "invalid_usage", v3
    bare, _ = verdict_accused(tmp_path, _twice((4, 4)).replace("[rank4]: ", ""))
    assert bare["cause"] == v3["cause"], (bare, v3)


# --- ProcessGroupUCC refusing a collective it does not implement ------------------------------------------------------
def _ucc(code: str) -> str:
    return ("[rank3]:[2024-02-01 10:11:12,001] torch.testing._internal.common_distributed: [ERROR]     work = "
            "default_pg.allgather([out], [t], opts)\n"
            "[rank3]:[2024-02-01 10:11:12,001] torch.testing._internal.common_distributed: [ERROR] RuntimeError: "
            "[/build/torch/csrc/distributed/c10d/ProcessGroupUCC.cpp:512] [Rank 3][ProcessGroupUCC-1][READY]failed to "
            f"init cuda collective, error code {code}\n")


def test_ucc_not_supported_cuda_collective_is_invalid_usage(tmp_path):
    """Lead rule CH (2): ProcessGroupUCC's 'failed to init cuda collective, error code -1' (UCC_ERR_NOT_SUPPORTED):
    invalid_usage, nobody; the fix names the NCCL backend for CUDA tensors and a UCC built with CUDA."""
    v, acc = verdict_accused(tmp_path, _ucc("-1: Operation is not supported, system error code 2"))
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], v
    assert "Use the NCCL backend for CUDA tensors instead of UCC" in v["fix"], v


def test_ucc_other_error_code_keeps_its_reading(tmp_path):
    """Another UCC error code (-6, no resource) is no refusal of the collective: not read so; -1 is (the guard)."""
    v, _ = verdict_accused(tmp_path, _ucc("-6: No resources are available"))
    assert "instead of UCC" not in v["fix"], v
    from ncclDoctor.diagnose import generic
    assert generic.R_UCC_UNSUPPORTED.search(_ucc("-1: Operation"))
    assert not generic.R_UCC_UNSUPPORTED.search(_ucc("-6: No resources are available"))


# --- NCCL's FP8 capability line --------------------------------------------------------------------------------------
def test_fp8_below_sm90_fix_names_the_gpu_gate(tmp_path):
    """Lead rules Q, AV, CH (2): ncclInvalidArgument with 'FP8 reduction support begins with sm90 capable devices'
    (a reduce_scatter of float8_e4m3fn here): invalid_usage, nobody; the fix runs FP8 collectives only on sm90+ GPUs,
    upcasts, or skips the test below sm90."""
    text = ("torch.distributed.DistBackendError: NCCL error in: /src/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp"
            ":4012, invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.26.2\n"
            "ncclInvalidArgument: Invalid value for an argument.\n"
            "Last error:\n"
            "FP8 reduction support begins with sm90 capable devices.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], v
    assert "run FP8 collectives only on sm90 or newer GPUs" in v["fix"], v
    assert "upcast float8 tensors to bf16/fp16" in v["fix"], v


# --- an application's own server failing to bind, in a run that ends cleanly -----------------------------------------
def _side_run(destroyed, timeout_line: bool = True, bind: str = "dashboard server") -> str:
    lines = ["W0301 09:00:00.100000 4410 site-packages/torch/distributed/run.py:766] Setting OMP_NUM_THREADS "
             "environment variable for each process to be 1 in default"]
    if timeout_line:
        lines.append("2025-03-01 09:00:01 [INFO] APP : NCCL_TIMEOUT = 3600000 ms")
    lines += [f"box:{4420 + r}:{4430 + r} [{r}] NCCL INFO ncclCommInitRankConfig comm 0x55aa{r}0 rank {r} nranks 3 "
              f"cudaDev {r} nvmlDev {r} busId {r + 1}000 commId 0x77 - Init COMPLETE" for r in range(3)]
    lines.append(f"2025-03-01 09:00:03 [ERROR] UI : Failed to start {bind}: [Errno 98] Address already in use")
    lines.append("2025-03-01 09:20:00 [INFO] trainer : training finished")
    lines += [f"box:{4420 + r}:{4440 + r} [{r}] NCCL INFO comm 0x55aa{r}0 rank {r} nranks 3 cudaDev {r} busId "
              f"{r + 1}000 - Destroy COMPLETE" for r in destroyed]
    return "\n".join(lines) + "\n"


def test_side_server_bind_in_a_run_ending_cleanly_is_none(tmp_path):
    """Lead rule CJ (2): the app's dashboard failing to bind ([Errno 98]) and every rank of the 3-rank communicator
    printing Destroy COMPLETE: none, nobody, low; the job's own 'NCCL_TIMEOUT = N ms' line makes the fix say it is no
    NCCL or torch variable and name init_process_group(timeout=...)."""
    v, acc = verdict_accused(tmp_path, _side_run((2, 0, 1)))
    assert v["cause"] == "none" and not acc and v["culprits"] == [] and v["confidence"] == "low", v
    assert "NCCL_TIMEOUT is not a variable NCCL or PyTorch reads" in v["fix"], v
    assert "init_process_group(timeout=" in v["fix"], v
    v2, _ = verdict_accused(tmp_path, _side_run((0, 1, 2), timeout_line=False, bind="web server"))
    assert v2["cause"] == "none" and "NCCL_TIMEOUT" not in v2["fix"], v2


def test_side_server_bind_with_a_rank_not_destroyed_keeps_its_reading(tmp_path):
    """Rank 2's Destroy COMPLETE not shown (or the bind failure naming c10d's store): the run is not shown ending
    cleanly, and the bind line keeps its old reading; the whole set is read (the guard)."""
    v, _ = verdict_accused(tmp_path, _side_run((0, 1)))
    assert v["cause"] != "none", v
    v2, _ = verdict_accused(tmp_path, _side_run((0, 1, 2), bind="c10d store server"))
    assert v2["cause"] != "none", v2
    assert S.R_COMM_DESTROYED.search("comm 0x1 rank 2 nranks 3 cudaDev 2 busId 3000 - Destroy COMPLETE")
    assert S.R_JOB_NCCL_TIMEOUT.search("APP : NCCL_TIMEOUT = 3600000 ms")
    assert not S.R_JOB_NCCL_TIMEOUT.search("export NCCL_TIMEOUT=3600")


# --- a completed nccl-tests run still setting a variable NCCL removed -------------------------------------------------
def _tests_run(env: str) -> str:
    rows = "".join(f"   {n:>10}    {n // 4:>10}     float    none      -1    {n / 5e4:7.1f}   20.00   15.00      0"
                   f"    {n / 5e4:7.1f}   20.00   15.00    N/A\n" for n in (1048576, 2097152, 4194304))
    return (f"nodeA:9001:9001 [0] NCCL INFO {env}\n"
            "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 4194304 step: 2(factor) warmup iters: 5 iters: 20\n"
            "#  Rank  0 Group  0 Pid   9001 on      nodeA device  0 [0x1b] NVIDIA H100 80GB HBM3\n"
            "#  Rank  1 Group  0 Pid   9101 on      nodeB device  0 [0x1b] NVIDIA H100 80GB HBM3\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
            "   busbw #wrong\n"
            + rows +
            "# Out of bounds values : 0 OK\n"
            "# Avg bus bandwidth    : 15.0000 \n")


def test_completed_run_setting_a_removed_variable_is_config(tmp_path):
    """Lead rules L, V (1): a completed nccl-tests run whose environment sets NCCL_IB_CUDA_SUPPORT (removed in 2.4):
    config at low confidence, nobody; the fix says what replaced it."""
    v, acc = verdict_accused(tmp_path, _tests_run("NCCL_IB_CUDA_SUPPORT set by environment to 1."))
    assert v["cause"] == "config" and not acc and v["culprits"] == [] and v["confidence"] == "low", v
    assert "Remove the removed NCCL_IB_CUDA_SUPPORT variable (replaced by NCCL_NET_GDR_LEVEL since NCCL 2.4)" in v[
        "fix"], v


def test_completed_run_with_valid_settings_stays_none(tmp_path):
    """The same completed run setting only a variable NCCL reads (NCCL_IB_HCA): its parameters, none as before; the
    removed one beside it is read (the guard)."""
    v, _ = verdict_accused(tmp_path, _tests_run("NCCL_IB_HCA set by environment to mlx5_0."))
    assert v["cause"] == "none", v
    v2, _ = verdict_accused(tmp_path, _tests_run("NCCL_IB_HCA set by environment to mlx5_0.\nnodeA:9001:9001 [0] NCCL "
                                                 "INFO NCCL_IB_CUDA_SUPPORT set by environment to 0."))
    assert v2["cause"] == "config" and "NCCL_IB_CUDA_SUPPORT" in v2["fix"], v2
