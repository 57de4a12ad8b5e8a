"""Round 97's fixes, fixer g2: cuBLAS and kernel checks, host memory and host limits. Each shape is written with other
ranks, numbers, paths and launchers than its case, beside a near shape that keeps its old reading.

- DeepSpeed's transformer kernel's cuBLAS GEMM status line ("!!!! kernel execution error. (m: .., error: 13)") is a
  CUDA failure of the process printing it (cuda_error), its status named; untagged it names nobody
  (deepspeed-454). A status 3 (ALLOC_FAILED) stays the GPU's memory.
- An unranked GPU OOM line (CUBLAS_STATUS_ALLOC_FAILED) pasted with one traceback cut under a single rank's tag, no
  other rank shown, is that rank's (rules A, AN (1); lightning-thunder-1296); two ranks' tracebacks name nobody.
- A bare MemoryError glued by a paste that lost its line breaks is still host memory (mmdetection-1767).
- A host-limit errno at a communication library's own source location is nccl_system, culprits unknown (rule CA;
  tensorpipe-460); a bare OSError [Errno 24] stays unknown (rule BZ (1)), a connection fault is not it.
- vLLM v0's error-level logger head is stripped like v1's, and a kernel library's own check that the GPU model is too
  old ("FlashAttention only supports Ampere GPUs or newer") is config naming nobody (vllm-8189).
- DeepSpeed's older loss-scaler wordings ("Overflow detected. Skipping step") are the benign skip (deepspeed-697).
- DDP's unused-parameters warning's fix names static_graph and "when every parameter is used" (ldmvfi-25).
- A KeyError on a model input key names the batch and its data collator (colossalai-3425).
"""
from __future__ import annotations

from tests.conftest import failure_record, verdict_accused


# --- deepspeed-454: DeepSpeed's transformer kernel's cuBLAS GEMM ---------------------------------------------------
def _gemm(code: int, n: int = 4, prefix: str = "") -> str:
    return "".join(f"{prefix}!!!! kernel execution error. (m: {512 * (i + 1)}, n: 2048, k: 1024, error: {code})\n"
                   for i in range(n))


_CUT_TB = ("Traceback (most recent call last):\n"
           '  File "run_glue_deepspeed.py", line 610, in <module>\n'
           "    main()\n"
           '  File "/opt/conda/lib/python3.8/site-packages/torch/nn/modules/module.py", line 889, in _call_impl\n'
           "    result = self.forward(*input, **kwargs)\n")


def test_a_cublas_gemm_status_untagged_is_cuda_error_naming_nobody(tmp_path):
    v, acc = verdict_accused(tmp_path, _gemm(13, 6) + _CUT_TB)
    assert v["cause"] == "cuda_error" and v["culprits"] == [] and not acc, v
    assert "CUBLAS_STATUS_EXECUTION_FAILED" in v["fix"] and "DeepSpeedTransformerConfig" in v["fix"], v


def test_a_cublas_gemm_status_internal_error_names_its_status(tmp_path):
    v, acc = verdict_accused(tmp_path, _gemm(14, 2, "[rank5]: ") + _CUT_TB.replace("\n", "\n[rank5]: ").rstrip(" ")
                             .replace("Traceback", "[rank5]: Traceback", 1))
    assert v["cause"] == "cuda_error", v
    assert "CUBLAS_STATUS_INTERNAL_ERROR" in v["fix"], v


def test_the_same_words_without_the_gemm_shape_keep_their_reading(tmp_path):
    # a job's own print of "kernel execution error" without the wrapper's sizes and status is no cuBLAS status
    v, _ = verdict_accused(tmp_path, "!!!! kernel execution error in my_op\n" + _CUT_TB)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v  # its old reading (review 96 finding 10)


# --- lightning-thunder-1296: an unranked OOM beside one rank's cut traceback ------------------------------------------
def _tagged_tb(rank: int, task: int | None = None) -> str:
    pre = f"{task}: " if task is not None else ""
    return (f"{pre}[rank{rank}]: Traceback (most recent call last):\n"
            f'{pre}[rank{rank}]:   File "/ws/train.py", line 412, in <module>\n'
            f"{pre}[rank{rank}]:     trainer.fit()\n"
            f'{pre}[rank{rank}]:   File "/usr/lib/python3/dist-packages/torch/_tensor.py", line 581, in backward\n'
            f"{pre}[rank{rank}]:     torch.autograd.backward(\n")


_ALLOC = "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n\n"


def test_an_unranked_oom_with_one_ranks_cut_traceback_names_that_rank(tmp_path):
    v, acc = verdict_accused(tmp_path, _ALLOC + _tagged_tb(3, task=3))
    assert v["cause"] == "gpu_oom" and v["culprits"] == [3] and acc == {3}, v


def test_an_unranked_oom_with_two_ranks_tracebacks_names_nobody(tmp_path):
    v, acc = verdict_accused(tmp_path, _ALLOC + _tagged_tb(2) + _tagged_tb(6))
    assert v["cause"] == "gpu_oom" and not acc, v


def test_an_unranked_oom_with_an_untagged_traceback_names_nobody(tmp_path):
    v, acc = verdict_accused(tmp_path, _ALLOC + _CUT_TB)
    assert v["cause"] == "gpu_oom" and not acc, v


# --- mmdetection-1767: a MemoryError glued by lost line breaks -------------------------------------------------------
_SPAWN = ('  File "<string>", line 1, in <module>  File "/usr/lib/python3.8/multiprocessing/spawn.py", line 116, in '
          'spawn_main    exitcode = _main(fd, parent_sentinel)  File "/usr/lib/python3.8/multiprocessing/spawn.py", '
          "line 126, in _main    self = reduction.pickle.load(from_parent)")


def test_a_glued_memoryerror_is_host_memory(tmp_path):
    text = ("Traceback (most recent call last):" + _SPAWN + "\nMemoryErrorTraceback (most recent call last):\n"
            + _SPAWN + "MemoryError\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "host_oom" and v["culprits"] == [] and not acc, v
    assert "MemoryError" in v["summary"] and "Traceback" not in v["summary"], v


def test_a_memoryerror_inside_a_name_is_no_host_memory(tmp_path):
    # another class's name that holds the word (a job's own CudaMemoryErrorHandler) is not Python's MemoryError
    v, _ = verdict_accused(tmp_path, "Traceback (most recent call last):" + _SPAWN
                           + "\nCudaMemoryErrorHandler: retrying\n")
    assert (v["cause"], v["culprits"]) == ("none", []), v  # its old reading (review 96 finding 10)


# --- tensorpipe-460: a host limit at a communication library's source location (rule CA) ------------------------------
_TP = ("terminate called after throwing an instance of 'std::runtime_error'\n"
       '  what():  In connectFromLoop at tensorpipe/transport/uv/uv.h:301 "rv < 0: too many open files"\n'
       "[W tensorpipe_agent.cpp:740] RPC agent for trainer:5 encountered error when reading incoming request from "
       "server:1: EOF: end of file (this error originated at tensorpipe/transport/uv/connection_impl.cc:132)\n")


def test_too_many_open_files_in_tensorpipes_transport_is_nccl_system(tmp_path):
    v, acc = verdict_accused(tmp_path, _TP)
    assert v["cause"] == "nccl_system" and v["culprits"] == [] and not acc, v
    assert "ulimit -n" in v["fix"], v


def test_the_limit_in_gloos_own_socket_code_reads_alike(tmp_path):
    text = ("terminate called after throwing an instance of 'gloo::IoException'\n"
            "  what():  [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:144] socket: Too many open files\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "nccl_system" and not acc, v


def test_a_bare_errno_24_stays_unknown(tmp_path):
    v, _ = verdict_accused(tmp_path, "OSError: [Errno 24] Too many open files\n")
    assert v["cause"] == "unknown", v


def test_a_connection_fault_at_the_library_site_is_not_a_host_limit(tmp_path):
    text = ("terminate called after throwing an instance of 'std::runtime_error'\n"
            '  what():  In connectFromLoop at tensorpipe/transport/uv/uv.h:301 "rv < 0: connection refused"\n')
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v  # its old reading (review 96 finding 10)


# --- vllm-8189: vLLM v0's logger head and a kernel library's GPU-model check -----------------------------------------
def _vllm(msg: str) -> str:
    return ("ERROR 03-02 08:15:22 engine.py:135]   File \"/usr/lib/python3.10/site-packages/vllm/worker/"
            'model_runner_base.py", line 152, in _wrapper\n'
            "ERROR 03-02 08:15:22 engine.py:135]     raise type(err)(\n"
            f"ERROR 03-02 08:15:22 engine.py:135] RuntimeError: Error in model execution: {msg}\n"
            "Process SpawnProcess-2:\n"
            "ERROR 03-02 08:15:23 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 4411 died, exit code: "
            "-15\n"
            "INFO 03-02 08:15:23 multiproc_worker_utils.py:124] Killing local vLLM worker processes\n")


def test_flashattention_refusing_an_old_gpu_is_config(tmp_path):
    v, acc = verdict_accused(tmp_path, _vllm("FlashAttention only supports Ampere GPUs or newer."))
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "VLLM_ATTENTION_BACKEND=XFORMERS" in v["fix"], v


def test_a_compute_capability_check_reads_alike(tmp_path):
    v, acc = verdict_accused(tmp_path, "RuntimeError: Bfloat16 is only supported on GPUs with compute capability "
                             "of at least 8.0. Your Tesla V100 GPU has compute capability 7.0.\n")
    assert v["cause"] == "config" and not acc, v


def test_another_model_execution_error_keeps_its_reading(tmp_path):
    v, _ = verdict_accused(tmp_path, _vllm("shape mismatch in rotary embedding"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v  # its old reading (review 96 finding 10)
    assert "shape mismatch" in v["summary"], v  # the v0 head stripped: the exception is read


# --- deepspeed-697: DeepSpeed's older loss-scaler wording ------------------------------------------------------------
def test_overflow_detected_skipping_step_is_benign(tmp_path):
    text = "".join(
        f"[2022-03-01 10:00:0{i},100] [INFO] [fused_optimizer.py:314:_update_scale] \nGrad overflow on iteration 7\n"
        f"[2022-03-01 10:00:0{i},101] [INFO] [fused_optimizer.py:316:_update_scale] Reducing dynamic loss scale from "
        "65536.0 to 32768.0\n" for i in range(4))
    text += ("[2022-03-01 10:00:05,200] [INFO] [logging.py:60:log_dist] [Rank 0] Overflow detected. Skipping step. "
             "Attempted loss scale: 65536.0, reducing to 32768.0\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "initial_scale_power" in v["fix"], v


def test_a_scale_at_minimum_stays_the_ranks_own_failure(tmp_path):
    text = ("[2022-03-01 10:00:05,200] [INFO] [logging.py:60:log_dist] [Rank 0] Overflow detected. Skipping step. "
            "Attempted loss scale: 1, reducing to 1\n"
            "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n")
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v  # its old reading (review 96 finding 10)


# --- ldmvfi-25: DDP's unused-parameters warning ----------------------------------------------------------------------
def test_the_unused_parameters_warning_names_static_graph(tmp_path):
    text = ("[W reducer.cpp:1303] Warning: find_unused_parameters=True was specified in DDP constructor, but did not "
            "find any unused parameters in the forward pass. This flag results in an extra traversal of the autograd "
            "graph every iteration, which can adversely affect performance. (function operator())\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "static_graph=True" in v["fix"] and "find_unused_parameters=False when every parameter is used" in v["fix"]


# --- colossalai-3425: a KeyError on a model input key -----------------------------------------------------------------
def _keyerror(key: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/work/train.py", line 140, in train\n'
            f'    mask = batch["{key}"]\n'
            f"KeyError: '{key}'\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 5512) of "
            "binary: /usr/bin/python3\n")


def test_a_keyerror_on_a_batch_key_names_the_collator(tmp_path):
    v, acc = verdict_accused(tmp_path, _keyerror("token_type_ids"))
    assert v["cause"] == "unknown" and v["culprits"] == [2] and acc == {2}, v
    assert "data collator" in v["fix"] and "token_type_ids" in v["fix"], v


def test_a_keyerror_on_another_key_gets_no_batch_advice(tmp_path):
    v, acc = verdict_accused(tmp_path, _keyerror("optimizer_state"))
    assert v["culprits"] == [2], v
    assert "data collator" not in v["fix"], v


def test_a_record_entry_with_the_batch_key_error(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/work/sft.py", line 70, in fit\n'
            '    ids = batch["input_ids"]\n'
            "KeyError: 'input_ids'\n"
            + failure_record(0, 1, 1, 1, 9001))
    v, _ = verdict_accused(tmp_path, text)
    assert "data collator" in v["fix"], v


def test_an_oom_naming_another_gpu_than_the_sole_traceback_names_nobody(tmp_path):
    # an OOM that names its GPU is weighed by that index (rules U (3), BA (2)): GPU 1 against [rank4]'s traceback
    text = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of "
            "79.15 GiB of which 100.00 MiB is free. Including non-PyTorch memory, this process has 79.00 GiB memory "
            "in use.\n" + _tagged_tb(4))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and not acc, v
