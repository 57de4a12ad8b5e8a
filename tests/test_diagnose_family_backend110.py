"""How diagnose reads a backend or collective refusing what it was asked (round 110, session 47, fixer f4): a gloo or
MPI process group with no _allgather_base (FSDP's flat all-gather), ProcessGroupNCCL refusing a dtype its NCCL build
cannot carry (BFloat16 before NCCL 2.10.3), torch 2.6's refusal of a tensor off the device passed to
init_process_group, CPU tensors on an NCCL-only group (also two processes' copies of the message interleaved), DDP
given device_ids for a module split over several GPUs (device_map='auto'), and NCCL's Duplicate GPU refusal (its fix
for nodes taken for one host, its Ray words, and a [rankN]: prefix on the exception that carries it). Each test reads
the shape from lines other than the corpus case's own (other ranks, numbers, paths, names), and a near shape that
keeps its old reading. Hosts, pids, paths and names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose.signatures import Event
from ncclDoctor.diagnose.verdict import base, usage
from tests.conftest import verdict_accused


def _tb(last: str, prefix: str = "", frames: tuple = ("/srv/shardlab/train.py", "step")) -> str:
    path, fn = frames
    lines = ["Traceback (most recent call last):",
             f'  File "{path}", line 131, in {fn}',
             "    loss = engine.forward(batch)",
             '  File "/opt/py/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2307, in '
             "all_gather_into_tensor",
             "    work = group._allgather_base(output_tensor, input_tensor, opts)",
             last]
    return "".join(f"{prefix}{x}\n" for x in lines)


# --- a process group with no support for the flat all-gather ----------------------------------------------------------
def test_gloo_group_without_allgather_base_is_invalid_usage(tmp_path):
    """Lead rules AV, CH (2): 'no support for _allgather_base in Gloo process group' raised through FSDP's call on
    rank 2 is the backend refusing the call every rank makes: invalid_usage, nobody; the fix names NCCL for FSDP and
    dist.all_gather as the fallback."""
    v, acc = verdict_accused(tmp_path, _tb("RuntimeError: no support for _allgather_base in Gloo process group",
                                           prefix="[rank2]: "))
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], (v, acc)
    assert "use the NCCL backend for FSDP on GPUs" in v["fix"], v
    assert "call dist.all_gather (a list of tensors) instead of _allgather_base" in v["fix"], v


def test_mpi_group_without_reduce_scatter_base_bare(tmp_path):
    """The same refusal by the MPI group for the other flat collective, one bare line: invalid_usage, nobody, the
    backend named in the fix."""
    v, acc = verdict_accused(tmp_path, "RuntimeError: no support for _reduce_scatter_base in MPI process group\n")
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "The MPI backend has no _reduce_scatter_base" in v["fix"], v


def test_does_not_support_keeps_its_own_reading(tmp_path):
    """Near shape: ProcessGroupNCCL's 'does not support gather' stays the older reader's (its all_gather fix), and the
    new reader does not take it; the new reader does take the flat all-gather refusal (the guard reads the words)."""
    v, acc = verdict_accused(tmp_path, _tb("RuntimeError: ProcessGroupNCCL does not support gather"))
    assert v["cause"] == "invalid_usage" and not acc, v
    assert "dist.all_gather instead of dist.gather" in v["fix"] and "FSDP on GPUs" not in v["fix"], v
    assert usage._PG_NO_SUPPORT.search("no support for _allgather_base in Gloo process group").group(2) == "Gloo"
    assert usage._PG_NO_SUPPORT.search("ProcessGroupNCCL does not support gather") is None


# --- NCCL refusing a dtype --------------------------------------------------------------------------------------------
def test_nccl_refusing_bfloat16_is_invalid_usage_with_the_nccl_version_fix(tmp_path):
    """Lead rules CH (2), AV: 'Input tensor data type is not supported for NCCL process group: BFloat16' in a pytest
    capture ('E   RuntimeError: ...') on rank 1: invalid_usage, nobody (not config: no version line is shown); the
    fix checks torch.cuda.nccl.version() and names NCCL >= 2.10 or fp16."""
    text = ("    def broadcast(tensor, src, group=None):\n"
            ">           work = group.broadcast([tensor], opts)\n"
            "E           RuntimeError: Input tensor data type is not supported for NCCL process group: BFloat16\n"
            "\n"
            "/usr/lib/py/site-packages/torch/distributed/distributed_c10d.py:1402: RuntimeError\n"
            "initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], (v, acc)
    assert "check torch.cuda.nccl.version()" in v["fix"] and "NCCL >= 2.10" in v["fix"], v
    assert "train in fp16" in v["fix"], v


def test_nccl_refusing_another_dtype_casts_without_bf16_words(tmp_path):
    """Another dtype the build cannot carry (a float8 type): the same reading; the fix casts the tensor and names no
    bfloat16 NCCL version."""
    v, acc = verdict_accused(tmp_path, "[rank6]: RuntimeError: Input tensor data type is not supported for NCCL "
                                       "process group: Float8_e5m2\n")
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "Cast the tensor to a dtype NCCL carries" in v["fix"] and "2.10.3" not in v["fix"], v


def test_a_bf16_setting_refused_is_not_nccls_dtype_refusal(tmp_path):
    """Near shape: a framework refusing bf16 as a setting ('bf16 is not supported on this device') is no process
    group's refusal: the dtype reader does not take it (its reading stays the setting's)."""
    v, _ = verdict_accused(tmp_path, "ValueError: Input tensor data type bf16 is not supported on this device\n")
    assert v["cause"] != "invalid_usage" and "torch.cuda.nccl.version()" not in v["fix"], v
    assert usage._NCCL_DTYPE.search("Input tensor data type is not supported for NCCL process group: BFloat16"
                                    ).group(1) == "BFloat16"


# --- torch 2.6: a tensor off the device the group was bound to --------------------------------------------------------
def test_tensor_not_on_bound_device_is_invalid_usage(tmp_path):
    """Lead rule AV: DistBackendError 'Attempt to perform collective on tensor not on device passed to
    init_process_group' on rank 3 of a tensor-parallel run: invalid_usage, nobody; the fix moves the tensor to the
    device_id's device and checks device_id."""
    v, acc = verdict_accused(tmp_path, _tb("torch.distributed.DistBackendError: Attempt to perform collective on "
                                           "tensor not on device passed to init_process_group", prefix="[rank3]: ",
                                           frames=("/home/u/tp_demo/run_tp.py", "main")))
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], (v, acc)
    assert "move the tensor to the device passed to init_process_group (device_id)" in v["fix"].lower(), v
    assert "pass the correct device_id to init_process_group" in v["fix"], v


def test_init_process_group_failing_otherwise_is_not_the_bound_device(tmp_path):
    """Near shape: another failure naming init_process_group (its timeout) is not the device-bound refusal."""
    v, _ = verdict_accused(tmp_path, _tb("RuntimeError: Timed out initializing process group in store based "
                                         "barrier on rank 3, for key: store_based_barrier_key:1 (world_size=4, "
                                         "worker_count=2, timeout=0:30:00)"))
    assert "device passed to init_process_group" not in v["fix"], v
    assert usage._NOT_BOUND_DEVICE.search("Attempt to perform collective on tensor not on device passed to "
                                          "init_process_group")


# --- CPU tensors on an NCCL group -------------------------------------------------------------------------------------
def test_interleaved_no_backend_for_cpu_reads_as_cpu(tmp_path):
    """Two processes' copies of c10d's 'No backend type associated with device type cpu' interleaved on one line
    ('RuntimeErrorRuntimeError: : ... cpuNo backend ...'): still the CPU tensor on an NCCL group -- invalid_usage,
    nobody, the CPU-tensor fix (not a device named 'cpuNo')."""
    v, acc = verdict_accused(tmp_path, "RuntimeErrorRuntimeError: : No backend type associated with device type "
                                       "cpuNo backend type associated with device type cpu\n")
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "cpuNo" not in v["fix"] and "use the gloo backend for CPU tensors" in v["fix"], v
    assert "check which parameters/buffers stay on the CPU before broadcast/all_reduce" in v["fix"], v


def test_interleaved_no_backend_for_xpu_names_xpu(tmp_path):
    """Near shape: the same interleaving for an XPU tensor keeps the XPU reading (its XCCL fix), the device cut where
    the other copy begins."""
    v, acc = verdict_accused(tmp_path, "RuntimeErrorRuntimeError: : No backend type associated with device type "
                                       "xpuNo backend type associated with device type xpu\n")
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "XCCL" in v["fix"] and "xpuNo" not in v["fix"], v
    assert usage._NO_BACKEND.search("No backend type associated with device type hpuNo backend type associated"
                                    ).group(1) == "hpu"
    assert usage._NO_BACKEND.search("No backend type associated with device type cpus").group(1) == "cpus"


def test_tensors_must_be_cuda_fix_moves_the_tensor_before_the_collective(tmp_path):
    """'Tensors must be CUDA and dense' on a spawned process (no rank tag): invalid_usage, nobody; the fix moves the
    tensor to the GPU before the collective or gives CPU tensors gloo."""
    v, acc = verdict_accused(tmp_path, _tb("RuntimeError: Tensors must be CUDA and dense",
                                           frames=("/data/imnet/main.py", "all_reduce")))
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "move the tensor to the GPU (tensor.cuda() / to(device)) before the collective" in v["fix"], v


# --- DDP given one device id for a module split over GPUs -------------------------------------------------------------
def _ddp(devices: str, ids: str = "[3]") -> str:
    return ("ValueError: DistributedDataParallel device_ids and output_device arguments only work with "
            "single-device/multiple-device GPU modules or CPU modules, but got device_ids " + ids + ", output_device "
            + ids.strip("[]") + ", and module parameters {" + devices + "}.\n")


def test_ddp_over_a_module_split_across_gpus_names_device_map(tmp_path):
    """Lead rules Q, BK (1): DDP refusing device_ids [3] for a module on cuda:2 and cuda:3 (device_map='auto'):
    invalid_usage, nobody; the fix says not to wrap a model-parallel module with device_ids and to load one full copy
    per process."""
    v, acc = verdict_accused(tmp_path, _ddp("device(type='cuda', index=2), device(type='cuda', index=3)"))
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "do not wrap a multi-device (model-parallel) module in DDP with device_ids" in v["fix"], v
    assert "device_map={'': local_rank}" in v["fix"], v


def test_ddp_over_a_cpu_module_keeps_its_fix(tmp_path):
    """Near shape: the module on the CPU alone keeps the CPU-module fix, without the split-module words."""
    v, acc = verdict_accused(tmp_path, _ddp("device(type='cpu')", ids="[0]"))
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "device_ids=None for CPU modules" in v["fix"] and "model-parallel" not in v["fix"], v
    assert len(set(usage._CUDA_INDEX.findall("device(type='cuda', index=0), device(type='cuda', index=1)"))) == 2


# --- NCCL's Duplicate GPU ---------------------------------------------------------------------------------------------
def test_duplicate_gpu_across_nodes_names_the_host_id(tmp_path):
    """Lead rule Q: 'Duplicate GPU detected : rank 12 and rank 4' (ranks of two nodes): invalid_usage, nobody; the
    fix says how nodes are taken for one host (NCCL_HOSTID, unique hostnames) and to bind each rank's device."""
    v, acc = verdict_accused(tmp_path, "torch.distributed.DistBackendError: NCCL error, NCCL version 2.26.2\n"
                                       "ncclInvalidUsage: Duplicate GPU detected : rank 12 and rank 4 both on CUDA "
                                       "device 1b000\n")
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "set a distinct NCCL_HOSTID per node" in v["fix"], v
    assert "pass device_id to init_process_group" in v["fix"], v
    assert "resource pool" not in v["fix"], v  # no Ray in the lines


def test_duplicate_gpu_under_ray_names_the_resource_pool(tmp_path):
    """A Ray actor's relayed line (its pid/ip prefix): the Ray words name the workers' GPU share and the resource
    pool."""
    v, acc = verdict_accused(tmp_path, "(gen_task pid=4411, ip=10.3.2.9) Duplicate GPU detected : rank 2 and rank 7 "
                                       "both on CUDA device 3d000\n")
    assert v["cause"] == "invalid_usage" and not acc, (v, acc)
    assert "check Ray's num_gpus per worker and the resource pool" in v["fix"], v


def test_duplicate_gpu_under_a_rank_prefix_is_still_the_refusal(tmp_path):
    """The exception whose continuation is the Duplicate GPU line, both under '[rank5]:' (a rank outside the named
    pair), is that refusal, not rank 5's own failure beside it: invalid_usage, nobody."""
    v, acc = verdict_accused(tmp_path, "[rank5]: torch.distributed.DistBackendError: NCCL error, NCCL version 2.21.5\n"
                                       "[rank5]: ncclInvalidUsage: Duplicate GPU detected : rank 11 and rank 3 both "
                                       "on CUDA device 9c000\n")
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], (v, acc)
    assert "Duplicate GPU" in v["summary"], v


def test_a_third_ranks_own_failure_beside_the_pair_still_steps_aside(tmp_path):
    """Near shape (review 107 finding 1): a rank outside the pair with its own exception, lines away from the
    refusal, is still read as its own failure -- the Duplicate GPU reading steps aside."""
    text = ("[rank5]: ncclInvalidUsage: Duplicate GPU detected : rank 11 and rank 3 both on CUDA device 9c000\n"
            + "".join(f"[rank0]: INFO step {i} loss 0.{i}\n" for i in range(1, 8))
            + _tb("RuntimeError: shape mismatch in loss head: [8, 10] vs [8, 12]", prefix="[rank6]: "))
    v, _ = verdict_accused(tmp_path, text)
    assert "Duplicate GPU" not in v["summary"], v
    dup = Event("nccl_error", "run.log:2", "ncclInvalidUsage: Duplicate GPU detected : rank 11 and rank 3", rank=5)
    assert base.carries_refusal(Event("exception", "run.log:1", "DistBackendError: NCCL error", rank=5), [dup])
    assert not base.carries_refusal(Event("exception", "run.log:14", "RuntimeError: shape", rank=6), [dup])
