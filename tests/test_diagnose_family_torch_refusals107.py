"""Round 107's torch refusals of a call (session 44, z2): torch (or NCCL under it) refusing how the job's code calls
it, the same on every rank -- invalid_usage, no rank named -- and the fix words experts name for each: a backend that
lacks a collective, two ranks on one GPU (NCCL's WARN text under a bare ncclInvalidUsage line; torch's own
"Duplicated GPU device" check), DeviceMesh.get_group() without mesh_dim, new_subgroups' group_size, an in-place
write into an inference tensor inside a c10d collective, TensorPipe RPC's CUDA tensor with no device map; and the
fix words of an invalid device ordinal (config). Each fix has its shape, varied (other ranks, numbers, names), and a
near shape that keeps its old reading. Hosts, paths and numbers are made up."""

from __future__ import annotations

from tests.conftest import corpus_case_verdict, verdict_accused


def _tb(frames: list[tuple[str, int, str, str]], exc: str, prefix: str = "") -> str:
    out = [prefix + "Traceback (most recent call last):"]
    for path, line, fn, code in frames:
        out += [f'{prefix}  File "{path}", line {line}, in {fn}', f"{prefix}    {code}"]
    return "\n".join(out + [prefix + exc]) + "\n"


_C10D = "/opt/conda/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py"


# --- a backend lacking a collective: the fix names a backend that supports it, and upgrading torch --------------------
def test_a_backend_lacking_a_collective_names_a_backend_that_supports_it(tmp_path):
    """intel-extension-for-pytorch-647 / pytorch-17848's shape: ProcessGroupX does not support OP, raised from c10d's
    dispatch; the fix says to use a backend that supports OP and to upgrade torch; a barrier gets its all_reduce."""
    for backend, op, fn in (("ProcessGroupCCL", "reduce_scatter", "reduce_scatter"),
                            ("ProcessGroupNCCL", "barrier", "barrier"),
                            ("ProcessGroupMPI", "all_to_all", "all_to_all")):
        text = _tb([("train.py", 41, "main", f"dist.{fn}(x)"),
                    (_C10D, 3288, fn, f"work = default_pg.{fn}([x], opts)")],
                   f"RuntimeError: {backend} does not support {op}")
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, (backend, op, v)
        assert f"use a backend that supports {op}" in v["fix"] and "upgrade torch" in v["fix"], v["fix"]
        assert ("all_reduce of a small CUDA tensor" in v["fix"]) == (op == "barrier"), v["fix"]


def test_a_backend_lacking_gather_keeps_its_all_gather_fix(tmp_path):
    """The near shape (aadl-pr13): gather refused keeps its all_gather remedy, and no barrier clause."""
    v, acc = corpus_case_verdict(tmp_path, "aadl-pr13-processgroupnccl-does-not-support-gather")
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "dist.all_gather instead of dist.gather" in v["fix"] and "small CUDA tensor" not in v["fix"], v["fix"]


# --- an invalid device ordinal: the launch's fix words ----------------------------------------------------------------
def test_an_invalid_device_ordinal_names_the_launch_per_node_and_the_global_rank(tmp_path):
    """msrflute-20 / pytorch-pr149144's shape: set_device or a barrier's device_ids asks for a GPU index the process
    cannot see -- config, no rank; the fix says to launch no more processes per node than visible GPUs and never to
    use the global rank as a device index."""
    for frames in ([("worker.py", 100, "run_worker", "torch.cuda.set_device(device)"),
                    ("/usr/lib/python3.9/site-packages/torch/cuda/__init__.py", 326, "set_device",
                     "torch._C._cuda_setDevice(device)")],
                   [("helpers.py", 12, "sync", "dist.barrier(group=g, device_ids=[gpu])"),
                    (_C10D, 4770, "barrier", "work = group.barrier(opts=opts)")]):
        v, acc = verdict_accused(tmp_path, _tb(frames, "RuntimeError: CUDA error: invalid device ordinal"))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "launch no more processes per node than visible GPUs" in v["fix"], v["fix"]
        assert "do not use the global rank as a device index" in v["fix"], v["fix"]


def test_an_illegal_memory_access_is_no_launch_setting(tmp_path):
    """The near shape: another CUDA error at the same frame is the GPU's, without the ordinal's launch fix."""
    text = _tb([("worker.py", 100, "step", "loss.backward()")],
               "[rank3]: RuntimeError: CUDA error: an illegal memory access was encountered")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "config" and "visible GPUs" not in v["fix"], v


# --- two ranks on one GPU ---------------------------------------------------------------------------------------------
def test_duplicate_gpu_under_a_bare_invalid_usage_line(tmp_path):
    """rocm-pytorch-2265's shape: NCCL's bare "ncclInvalidUsage: This usually reflects invalid usage" with its
    "Duplicate GPU detected" WARN text pasted under it (no "Last error:" label): two ranks on one GPU, one GPU per
    rank."""
    for a, b, dev in ((1, 0, "c000"), (3, 2, "1000"), (7, 5, "4f000")):
        text = ("ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                f"Duplicate GPU detected : rank {a} and rank {b} both on CUDA device {dev}\n"
                f"Duplicate GPU detected : rank {b} and rank {a} both on CUDA device {dev}\n")
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
        assert "two ranks share one GPU" in v["summary"] and "one GPU per rank" in v["fix"], v


def test_a_bare_invalid_usage_line_alone_keeps_its_generic_reading(tmp_path):
    """The near shape: the bare ncclInvalidUsage line with no duplicate GPU under it is no shared GPU."""
    v, acc = verdict_accused(tmp_path, "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n")
    assert v["cause"] == "invalid_usage" and not acc, v
    assert "two ranks share one GPU" not in v["summary"], v


def test_torch_duplicated_gpu_check_is_two_ranks_on_one_gpu(tmp_path):
    """pytorch-pr68666's shape: c10d's own "Duplicated GPU device is not allowed by NCCL. Rank [a] and rank [b] both
    attached to GPU device d on the same host" -- the launch put two ranks on one GPU: invalid_usage, nobody named."""
    for a, b, d, host in ((0, 8, 0, "gpu-node-17"), (2, 10, 2, "a100x.example.net"), (5, 13, 5, "h3")):
        text = (f"RuntimeError: Duplicated GPU device is not allowed by NCCL. Rank [{a}] and rank [{b}] both attached "
                f"to GPU device {d} on the same host {host}. Most likely your world_size is larger than the total "
                "number of GPUs\n"
                + _tb([("main.py", 30, "<module>", "dist.barrier()")], ""))
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
        assert "check CUDA_VISIBLE_DEVICES" in v["fix"], v["fix"]


def test_ranks_named_on_one_host_without_the_check_is_no_shared_gpu(tmp_path):
    """The near shape: a log naming two ranks on one host, not torch's refusal, is no shared GPU."""
    v, _ = verdict_accused(tmp_path, "INFO Rank [0] and rank [8] both attached to host gpu-node-17\n"
                                     "RuntimeError: something else went wrong\n")
    assert v["cause"] != "invalid_usage", v


# --- DeviceMesh.get_group() without mesh_dim --------------------------------------------------------------------------
def test_get_group_without_mesh_dim_on_a_multi_dim_mesh(tmp_path):
    """skyrl-pr554's shape: DeviceMesh.get_group() on a mesh of several dimensions refused -- invalid_usage, the fix
    names get_group(mesh_dim=...) and get_all_groups(); the message may wrap as pasted."""
    for n, cut in ((2, "\n"), (3, " "), (2, "")):
        text = (f"[rank1]: RuntimeError: ('Found the DeviceMesh have {n} dimensions', 'Optional kwarg `mesh_dim` "
                f"needs to be specified when device_mesh.ndim > 1{cut}.', 'If you want to get the list of all the "
                "ProcessGroups in the DeviceMesh,please use `get_all_groups()` instead.')\n")
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, (n, v)
        assert "get_group(mesh_dim=...)" in v["fix"] and "get_all_groups()" in v["fix"], v["fix"]


def test_a_mesh_dimension_missing_keeps_its_slice_reading(tmp_path):
    """The near shape: a slice by a name the mesh lacks keeps its own remedy (slice only mesh dims that exist)."""
    v, acc = verdict_accused(tmp_path, "[rank0]: KeyError: \"Invalid mesh_dim_names ('dp', 'cp') specified. "
                                       "Valid mesh_dim_names are ['dp_shard'].\"\n")
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "Slice only mesh dims that exist" in v["fix"] and "get_all_groups" not in v["fix"], v["fix"]


# --- new_subgroups' group_size ----------------------------------------------------------------------------------------
def test_new_subgroups_group_size_larger_than_the_world_is_torch_refusing_the_call(tmp_path):
    """instructlab-training-678's shape: torch's new_subgroups refuses a group_size above the world size (FSDP's
    HYBRID_SHARD asking for the node's GPU count) -- torch refusing a call's argument, invalid_usage, not a
    framework's settings check."""
    for gs, ws in ((8, 2), (4, 3), (16, 8)):
        text = (f"ValueError: The arg 'group_size' ({gs}) must not exceed the world size ({ws})\n\n"
                + _tb([(".../torch/distributed/fsdp/_init_utils.py", 211, "_init_intra_node_process_group",
                        "intra_node_subgroup, _ = dist.new_subgroups(num_devices_per_node)"),
                       (".../torch/distributed/distributed_c10d.py", 5500, "new_subgroups", "raise ValueError(")],
                      f"ValueError: The arg 'group_size' ({gs}) must not exceed the world size ({ws})"))
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, (gs, ws, v)
        assert "group_size must not exceed world size" in v["fix"], v["fix"]


def test_a_frameworks_world_size_check_stays_config(tmp_path):
    """The near shape: a framework's own check of its parallel sizes against the world size is rule W's config."""
    text = _tb([("megatron/initialize.py", 77, "initialize", "assert_sizes(args)")],
               "ValueError: world_size (6) is not divisible by tensor_parallel_size (4)")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


# --- an in-place write into an inference tensor inside a c10d collective ----------------------------------------------
def test_inference_tensor_written_by_a_collective(tmp_path):
    """vllm-1968's shape: broadcast_object_list's broadcast writes into an inference tensor, raised from c10d's own
    frame -- invalid_usage, nobody named; the fix quotes torch's refusal and the clone / inference_mode remedies."""
    for pid, prefix in ((12773, "(RayWorkerVllm pid={pid}) ERROR 04-10 18:29:52 ray_utils.py:44] "), (501, "")):
        p = prefix.format(pid=pid)
        text = "\n".join([
            f'{p}  File "{_C10D}", line 2603, in broadcast_object_list',
            f"{p}    broadcast(object_sizes_tensor, src=src, group=group)",
            f'{p}  File "{_C10D}", line 1906, in broadcast',
            f"{p}    work = default_pg.broadcast([tensor], opts)",
            f"{p}RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
            "clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
            "for more details."]) + "\n"
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
        assert "Inplace update to inference tensor outside InferenceMode" in v["fix"], v["fix"]


def test_inference_tensor_written_by_the_models_own_code_is_not_a_collective_refusal(tmp_path):
    """The near shape: the same refusal raised in the model's own code (no c10d frame last) is not read so."""
    text = _tb([("model.py", 88, "forward", "self.cache.add_(x)")],
               "RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed.")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "invalid_usage", v


# --- TensorPipe RPC: a CUDA tensor with no device map -----------------------------------------------------------------
def test_tensorpipe_cuda_tensor_without_a_device_map(tmp_path):
    """pytorch-54560's shape: torch RPC relays the remote worker's TensorPipe refusal of a CUDA tensor with no device
    map ("On WorkerInfo(...)" then its repr, cut or whole) -- invalid_usage, the worker is named by no rank."""
    msg = ("TensorPipe RPC backend only supports CPU tensors by default, please move your tensors to CPU before "
           "sending them over RPC, or call `set_device_map` on `TensorPipeRpcBackendOptions` to explicitly configure "
           "device mapping. Response device mapping is not available for destination {name}, but found tensor on "
           "device: cuda:{d}")
    for wid, name, d, head, tail in ((1, "worker1", 0, "RuntimeError: ", ""), (3, "trainer3", 2, "", "')"),
                                     (2, "ps", 1, "RuntimeError: ", "")):
        body = msg.format(name=name, d=d)
        body = body[:260] if not tail else body + tail
        text = f"{head}On WorkerInfo(id={wid}, name={name}):\nRuntimeError('{body}\n"
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, (name, v)
        assert "set_device_map on TensorPipeRpcBackendOptions for the destination worker" in v["fix"], v["fix"]


def test_a_remote_workers_other_exception_keeps_its_reading(tmp_path):
    """The near shape (fairscale-895): a remote worker's other exception relayed by RPC keeps its desync reading."""
    v, _ = corpus_case_verdict(tmp_path, "fairscale-895-piperpcwrapper-empty-message-got-1-tensors-0-gradients")
    assert v["cause"] == "desync", v


# --- the same shapes hard-wrapped by a terminal, or tagged by a launcher ----------------------------------------------
def _hard_wrap(text: str, width: int) -> str:
    return "\n".join(line[k:k + width] for line in text.split("\n")
                     for k in range(0, max(len(line), 1), width)) + "\n"


def test_the_inference_tensor_and_tensorpipe_refusals_read_through_a_hard_wrap(tmp_path):
    """A terminal's hard wrap (80 or 120 columns) cuts the c10d frames and the relayed repr: still invalid_usage."""
    coll = "\n".join([
        "(RayWorkerVllm pid=4410) ERROR 01-02 03:04:05 ray_utils.py:44]   File \"" + _C10D + "\", line 1906, in "
        "broadcast",
        "(RayWorkerVllm pid=4410) ERROR 01-02 03:04:05 ray_utils.py:44]     work = default_pg.broadcast([t], opts)",
        "(RayWorkerVllm pid=4410) ERROR 01-02 03:04:05 ray_utils.py:44] RuntimeError: Inplace update to inference "
        "tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace "
        "update."])
    rpc = ("RuntimeError: On WorkerInfo(id=2, name=trainer2):\nRuntimeError('TensorPipe RPC backend only supports CPU "
           "tensors by default, please move your tensors to CPU before sending them over RPC, or call `set_device_map` "
           "on `TensorPipeRpcBackendOptions` to explicitly configure device mapping. Request device mapping is not "
           "available for destination trainer2')")
    for text in (coll, rpc):
        for width in (80, 120):
            v, acc = verdict_accused(tmp_path, _hard_wrap(text, width))
            assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, (width, v)


def test_a_rank_tagged_barrier_with_an_invalid_device_id_is_the_launch(tmp_path):
    """pytorch-pr149144's shape behind a launcher's "[rankN]:" tag: a barrier given device_ids the process cannot see
    is the launch's device index, as set_device's -- config, no rank accused."""
    for r in (3, 0, 12):
        text = _tb([("helpers.py", 101, "barrier", "dist.barrier(group=group, async_op=False, device_ids=device_ids)"),
                    (_C10D, 4770, "barrier", "work = group.barrier(opts=opts)")],
                   "RuntimeError: CUDA error: invalid device ordinal", prefix=f"[rank{r}]: ")
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (r, v)


def test_a_rank_tagged_ordinal_in_its_own_code_stays_its_cuda_error(tmp_path):
    """The near shape: a tagged rank's invalid ordinal from an index its own code computed (no barrier device_ids,
    no set_device) keeps its old reading."""
    text = _tb([("train.py", 55, "to_gpu", "x = x.to(f'cuda:{idx}')")],
               "RuntimeError: CUDA error: invalid device ordinal", prefix="[rank3]: ")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error", v
