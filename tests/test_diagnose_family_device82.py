"""Device, library-refusal and shard shapes round 82 showed read wrong (rules V (2), Q, W, BB (4), AZ (2), AG, BJ (2),
BG (1)).

- A CUDA call refused while setting up GPU peer access is cuda_error, culprits [] (rule V (2)): NCCL 2.0-2.3's
  transport/p2p.cu WARN "failed to open CUDA IPC handle : 64 peer access is not supported between these two devices"
  (horovod-785; it was read as the gpu_p2p WARN family's network_setup) and a C++ runtime's own check "CUDA runtime
  error in cudaIpcOpenMemHandle(...): peer access is not supported ... (file:line)" (TensorRT-LLM's IpcMemory for its
  custom all-reduce; tensorrt-llm-1498, it was config). "rank R failed to get CUDA IPC handle to device D" stays the
  two-ranks-on-one-GPU reading (R_IPC_DEV), not this.
- Open MPI's error handler on an application call with one of MPI's own argument checks ("An error occurred in
  MPI_Reduce ... MPI_ERR_ROOT: invalid root") is the library refusing the call's arguments, alike on every rank:
  invalid_usage, culprits [] (rules Q, W, BB (4); the "reported by process [J,0]" tag is MPI's, rule AG;
  pytorch-20200). MPI_ERR_OTHER (no argument check) is not read so.
- torch_npu's "hcclCommInitRootInfoConfig(...), error code is 1" (a communicator's init from the root info failing with
  a bare number; vllm-ascend-2712) is rule AZ (2)'s set-up address exchange like HcclGetRootInfo's: network_setup,
  culprits []. A reason in words after the code (HCCL_E_PARA, "parameter") still decides.
- Unknown shapes whose fix now follows the shape (rules BJ (2), BG (1)): an exception raised inside torch.distributed's
  own collective (innermost frame distributed_c10d.py, "IndexError: map::at" from work.wait(); pytorch-116393) names
  the backend's dtype/device support, not the script's last frame; DDP's own constructor reading its internal
  '_module_copies' (the frame above the lookup is torch's nn/parallel/distributed.py; pytorch-examples-253) names
  model.cuda() before wrapping and a matching torch, while user code reading an attribute off the wrapped model keeps
  model.module.X; torch's size mismatch where one size is a whole multiple of the other (5070 vs 20280 = 4 x 5070;
  cache-dit-1094) names a parallel shard meeting an unsplit tensor, other sizes add nothing.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text
from tests.conftest import diagnose_verdict as _verdict

_P2P = ("node1:2753:2762 [0] transport/p2p.cu:548 NCCL WARN failed to open CUDA IPC handle : 64 peer access is not "
        "supported between these two devices\n"
        "node1:2753:2762 [0] NCCL INFO init.cu:568 -> 1\n"
        "node1:4974:4981 [0] NCCL INFO rank 0 nranks 2\n"
        "node1:2753:2762 [0] NCCL INFO rank 1 nranks 2\n"
        "node1:4974:4981 [0] NCCL INFO Ring 00 : 0[0] -> 1[0] via P2P/IPC\n"
        "node1:4974:4981 [0] transport/p2p.cu:548 NCCL WARN failed to open CUDA IPC handle : 11 invalid argument\n"
        "node1:4974:4981 [0] NCCL INFO init.cu:568 -> 1\n")


def test_nccl_old_p2p_ipc_handle_refused_is_a_cuda_error_of_no_rank(tmp_path):
    d = diagnose_text(tmp_path, _P2P)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not accused(d), v  # a rank named at most as a low-confidence lead
    assert "NCCL_P2P_DISABLE=1" in v["fix"] and "nvidia-smi topo -m" in v["fix"], v


def test_a_runtime_check_naming_the_ipc_call_is_a_cuda_error(tmp_path):
    v = _verdict(tmp_path, "E0425 10:43:31.433641 841 backend_model.cc:691] ERROR: Failed to create instance: "
                 "[TensorRT-LLM][ERROR] CUDA runtime error in cudaIpcOpenMemHandle( reinterpret_cast<void**>(&buf), "
                 "handles[nodeId], cudaIpcMemLazyEnablePeerAccess): peer access is not supported between these two "
                 "devices (/src/cpp/tensorrt_llm/runtime/ipcUtils.cpp:90)\n"
                 "1       0x7f6ad07824fd tensorrt_llm::runtime::IpcMemory::allocateIpcMemory() + 685\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert "NCCL_P2P_DISABLE" in v["fix"], v


def test_ipc_handle_to_the_own_device_keeps_the_two_ranks_one_gpu_reading(tmp_path):
    v = _verdict(tmp_path, "node1:812:830 [1] NCCL INFO rank 1 nranks 2\n"
                 "node1:812:830 [1] transport/p2p.cu:522 NCCL WARN rank 1 failed to get CUDA IPC handle to device 1 : "
                 "11 invalid argument\n")
    assert "peer access" not in v["summary"], v


_MPI = ("[g2-host:24252] *** An error occurred in MPI_Reduce\n"
        "[g2-host:24252] *** reported by process [1911816193,0]\n"
        "[g2-host:24252] *** on communicator MPI_COMM_WORLD\n"
        "[g2-host:24252] *** {cls}\n"
        "[g2-host:24252] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n"
        "[g2-host:24252] ***    and potentially your MPI job)\n")


def test_mpi_argument_check_on_a_collective_is_invalid_usage_of_no_rank(tmp_path):
    v = _verdict(tmp_path, _MPI.format(cls="MPI_ERR_ROOT: invalid root"))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []), v
    assert "MPI_ERR_ROOT" in v["fix"] and "use the NCCL or gloo backend" in v["fix"], v


def test_mpi_error_class_that_is_no_argument_check_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, _MPI.format(cls="MPI_ERR_OTHER: known error not in list"))
    assert v["cause"] != "invalid_usage", v


_HCCL = ("(VllmWorker rank=1 pid=7226) ERROR 09-03 03:02:37 [multiproc_executor.py:522]     pg.recv([tensor], "
         "group_src_rank, tag).wait()\n"
         "(VllmWorker rank=1 pid=7226) ERROR 09-03 03:02:37 [multiproc_executor.py:522] RuntimeError: create_config:"
         "build/CMakeFiles/torch_npu.dir/compiler_depend.ts:148 HCCL function error: hcclCommInitRootInfoConfig("
         "numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is {tail}\n")


def test_hccl_comm_init_from_root_info_failing_with_a_bare_code_is_network_setup(tmp_path):
    v = _verdict(tmp_path, _HCCL.format(tail="1"))
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "HCCL_IF_IP / HCCL_SOCKET_IFNAME" in v["fix"], v


def test_hccl_comm_init_with_a_reason_in_words_is_not_read_as_the_exchange(tmp_path):
    v = _verdict(tmp_path, _HCCL.format(tail="4. HCCL_E_PARA: parameter error"))
    assert v["cause"] != "network_setup", v


def _tb(frames: str, exc: str) -> str:
    return "Traceback (most recent call last):\n" + frames + exc + "\n"


_C10D_FRAMES = ("  File \"/app/run.py\", line 20, in <module>\n"
                "    torch.distributed.all_reduce(tensor)\n"
                "  File \"/env/torch/distributed/c10d_logger.py\", line 47, in wrapper\n"
                "    return func(*args, **kwargs)\n"
                "  File \"/env/torch/distributed/distributed_c10d.py\", line 2055, in all_reduce\n"
                "    work.wait()\n")


def test_an_exception_raised_inside_the_c10d_collective_names_the_backend(tmp_path):
    v = _verdict(tmp_path, _tb(_C10D_FRAMES, "IndexError: map::at") * 2)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"] and "use nccl or gloo backend" in v["fix"], v
    assert "the script's own file and line" not in v["fix"], v


def test_the_same_exception_raised_in_the_script_keeps_its_fix(tmp_path):
    frames = "  File \"/app/run.py\", line 20, in <module>\n    idx = table.at(key)\n"
    v = _verdict(tmp_path, _tb(frames, "IndexError: map::at") * 2)
    assert "inside torch.distributed's own collective" not in v["fix"], v


_DDP_FRAMES = ("  File \"main.py\", line 319, in <module>\n"
               "    main()\n"
               "  File \"main.py\", line 92, in main\n"
               "    model = torch.nn.parallel.DistributedDataParallel(model)\n"
               "  File \"/env/site-packages/torch/nn/parallel/distributed.py\", line 124, in __init__\n"
               "    for param_tuple in zip(*map(lambda m: m.parameters(), self._module_copies)):\n"
               "  File \"/env/site-packages/torch/nn/modules/module.py\", line 262, in __getattr__\n"
               "    type(self).__name__, name))\n")


def test_ddps_own_constructor_missing_its_internal_names_the_model_placement(tmp_path):
    v = _verdict(tmp_path, _tb(_DDP_FRAMES, "AttributeError: 'DistributedDataParallel' object has no attribute "
                               "'_module_copies'"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "model.cuda() before DistributedDataParallel" in v["fix"] and "matching torch version" in v["fix"], v


def test_user_code_reading_an_attribute_off_the_wrapper_keeps_model_module(tmp_path):
    frames = ("  File \"train.py\", line 40, in main\n    n = model.num_classes\n"
              "  File \"/env/site-packages/torch/nn/modules/module.py\", line 1695, in __getattr__\n"
              "    raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\")\n")
    v = _verdict(tmp_path, _tb(frames, "AttributeError: 'DistributedDataParallel' object has no attribute "
                               "'num_classes'"))
    assert "model.module.num_classes" in v["fix"], v
    assert "model.cuda() before" not in v["fix"], v


_SIZE = ("  File \".../lib/cache_blocks/pattern_base.py\", line 195, in _get_residual\n"
         "    res = hidden_states - original_hidden_states.to(hidden_states.device)\n")


def test_a_size_mismatch_by_a_whole_factor_names_a_parallel_shard(tmp_path):
    v = _verdict(tmp_path, _tb(_SIZE, "RuntimeError: The size of tensor a (5070) must match the size of tensor b "
                               "(20280) at non-singleton dimension 1"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "20280 = 4 x 5070" in v["fix"] and "match parallel degree to the pipeline's supported config" in v["fix"], v


def test_a_size_mismatch_of_other_sizes_adds_no_shard_words(tmp_path):
    v = _verdict(tmp_path, _tb(_SIZE, "RuntimeError: The size of tensor a (5070) must match the size of tensor b "
                               "(5071) at non-singleton dimension 1"))
    assert "split across" not in v["fix"], v
