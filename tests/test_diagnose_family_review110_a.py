"""Review a of round 110's fixes (session 47, fixer y1): the XRT session-call failure shown by several processes
(rule CK (2)); an IPython KeyboardInterrupt header ending the input (rule BS (2)); the forward() unexpected-keyword
reading of a short traceback (rules BT (2), AF (2)); the job's own file skipping Python's library and console entry
points; a parent cut in popen_fork's os.fork(); RAY_CGRAPH_* set by export / a command's VAR=value and Ray's error
hard-wrapped (rule CK (1)); the env:// fix's accelerate sentence. Each with a near shape that keeps its reading.
Hosts, paths and names are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


def _tb(frames: list[tuple[str, int, str, str]], last: str | None, prefix: str = "") -> str:
    """A Python traceback (FILE, LINE, FUNC, CODE per frame) ending in LAST (None: cut after the last frame)."""
    lines = ["Traceback (most recent call last):"]
    for f, n, fn, code in frames:
        lines += [f'  File "{f}", line {n}, in {fn}', f"    {code}"]
    if last is not None:
        lines.append(last)
    return "".join(f"{prefix}{x}\n" for x in lines)


# --- 1. the XRT client's session call failing in several processes -------------------------------------------------
_ENV37 = "/usr/local/lib/python3.8/dist-packages"
_XRT = ("tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:1207 : Check failed: session.Run("
        "{tensorflow::Output(result, 0)}, &outputs) == ::tensorflow::Status::OK() (Unavailable: failed to connect "
        "to all addresses vs. OK)")


def _xrt_block(n: int) -> str:
    return ("Exception: \n\n" f"-- Process {n} terminated with the following error:\n" + _tb(
        [(f"{_ENV37}/torch/multiprocessing/spawn.py", 19, "_wrap", "fn(i, *args)"),
         (f"{_ENV37}/torch_xla/distributed/xla_multiprocessing.py", 231, "_start_fn", "_setup_replication()"),
         (f"{_ENV37}/torch_xla/core/xla_model.py", 52, "get_xla_supported_devices",
          "xla_devices = torch_xla._XLAC._xla_get_devices()")], f"RuntimeError: {_XRT}"))


def _xrt_devices(n: int) -> str:
    return "".join(f"Exception in device=TPU:{i}: {_XRT}\n" for i in range(n))


def test_xrt_session_failure_on_every_core_with_one_spawn_block_names_nobody(tmp_path):
    """Rule CK (2) (review a of round 110, #1): xmp.spawn's 'Exception in device=TPU:N' line for each of 8 cores, then
    spawn's one '-- Process 6' block with the same error: several processes show it -- cuda_error, culprits [],
    nobody accused, medium; the same with the device lines after the block."""
    for text in (_xrt_devices(8) + _xrt_block(6), _xrt_block(6) + _xrt_devices(8)):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "cuda_error" and v["culprits"] == [] and not acc, v
        assert v["confidence"] == "medium", v
        assert "get the full XRT error text" in v["fix"], v


def test_xrt_session_failure_of_one_process_names_it_at_medium(tmp_path):
    """Near shape: spawn's one block alone (or beside its own device line) names that process -- medium, not high
    (rule CK (2): the experts' doubt)."""
    for text in (_xrt_block(6), f"Exception in device=TPU:6: {_XRT}\n" + _xrt_block(6)):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "cuda_error" and v["culprits"] == [6] and acc == {6}, v
        assert v["confidence"] == "medium", v


# --- 2. an IPython KeyboardInterrupt header ending the input ----------------------------------------------------------
_RULE = "-" * 75 + "\n"
_PROGRESS = "Epoch 3/8:  52%|#####2    | 260/500 [00:41<00:38,  6.3it/s, loss=0.377]\n"


def test_ipython_keyboard_interrupt_header_is_the_user_stopping_the_cell(tmp_path):
    """Rule BS (2) (review a of round 110, #2): the notebook's 'KeyboardInterrupt   Traceback (most recent call last)'
    header ends the input, whole or cut inside it: the user stopped the cell -- signal, nobody, as the full
    KeyboardInterrupt traceback reads; never 'a process began raising an uncaught exception'."""
    for head in ("KeyboardInterrupt                         Traceback (most recent call last)\n",
                 "KeyboardInterrupt                         Traceback (most rec\n"):
        v, acc = verdict_accused(tmp_path, _PROGRESS + _RULE + head)
        assert v["cause"] == "signal" and v["culprits"] == [] and not acc, v
        assert "began raising" not in v["summary"], v
        assert "Nothing failed in the ranks" in v["fix"], v


def test_ipython_value_error_header_keeps_the_cut_header_reading(tmp_path):
    """Near shape: another exception class in the same header stays the cut header: unknown, nobody, its class."""
    v, acc = verdict_accused(tmp_path, _PROGRESS + _RULE
                             + "ValueError                                Traceback (most recent call last)\n")
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "began raising an uncaught exception" in v["summary"], v
    assert "show the full ValueError text" in v["fix"], v


# --- 3, 4. a model's forward refusing a keyword: a short traceback, runpy, a console entry point --------------------
_SP = "/srv/venvs/gen/lib/python3.11/site-packages"
_CALL_IMPL = (f"{_SP}/torch/nn/modules/module.py", 1527, "_call_impl", "return forward_call(*args, **kwargs)")
_REFUSED = "TypeError: MotionUNet.forward() got an unexpected keyword argument 'pose_emb'"


def test_forward_keyword_refused_through_one_wrapper_frame_is_config(tmp_path):
    """Rules BT (2), AF (2) (review a of round 110, #3): the job's script -> nn.Module's _call_impl pass-through ->
    the refusal, no DDP frames between (the innermost frame read in full): config, nobody, the script named."""
    v, acc = verdict_accused(tmp_path, _tb([
        ("/home/ml/anim/train_pose.py", 210, "<module>", "run(cfg)"),
        ("/home/ml/anim/train_pose.py", 188, "run", "out = unet(x, t, pose_emb=pose)"), _CALL_IMPL], _REFUSED,
        prefix="[rank2]: "))
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "align train_pose.py with the installed model API" in v["fix"], v


def test_forward_keyword_refused_in_the_models_own_frame_is_not_config(tmp_path):
    """Near shape: the innermost frame is the model's own code (no pass-through): not the install-mismatch reading."""
    v, _ = verdict_accused(tmp_path, _tb([
        ("/home/ml/anim/train_pose.py", 188, "run", "out = unet(x, t, pose_emb=pose)"),
        ("/home/ml/anim/models/unet.py", 77, "forward", "h = self.block(h, pose_emb=pose_emb)")], _REFUSED,
        prefix="[rank2]: "))
    assert v["cause"] != "config", v


def test_forward_keyword_refused_under_python_m_names_the_jobs_file_not_runpy(tmp_path):
    """Review a of round 110, #4: run as `python -m` (runpy's frames first): the fix names the job's own file."""
    for runpy in ("/usr/lib/python3.11/runpy.py", "<frozen runpy>"):
        v, acc = verdict_accused(tmp_path, _tb([
            (runpy, 198, "_run_module_as_main", "return _run_code(code, main_globals, None,"),
            (runpy, 88, "_run_code", "exec(code, run_globals)"),
            ("/home/ml/anim/train_pose.py", 210, "<module>", "run(cfg)"),
            ("/home/ml/anim/train_pose.py", 188, "run", "out = unet(x, t, pose_emb=pose)"), _CALL_IMPL], _REFUSED))
        assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
        assert "align train_pose.py with the installed model API" in v["fix"], v
        assert "runpy" not in v["fix"], v


def test_forward_keyword_refused_under_a_console_entry_point_names_no_file(tmp_path):
    """Review a of round 110, #4: a console entry point (bin/) then library frames only, no frame of the job's own
    code: config, nobody; the fix names no file and the call is the installed framework's."""
    v, acc = verdict_accused(tmp_path, _tb([
        ("/opt/conda/bin/swift-train", 8, "<module>", "sys.exit(main())"),
        (f"{_SP}/swift/cli/sft.py", 40, "main", "sft_main()"),
        (f"{_SP}/transformers/trainer.py", 3612, "compute_loss", "outputs = model(**inputs)"), _CALL_IMPL],
        "TypeError: Qwen2Model.forward() got an unexpected keyword argument 'cache_position'"))
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "swift-train" not in v["fix"] and "align " not in v["fix"], v
    assert "the installed swift's call of the model" in v["summary"], v
    assert "install the versions of the framework that calls the model" in v["fix"], v


# --- 5. a parent cut in popen_fork's os.fork() -----------------------------------------------------------------------
_MP = "/opt/venvs/seg/lib/python3.10/multiprocessing"


def _start_cut(last: tuple[str, int, str, str], before: list) -> str:
    return _tb([("seg_train.py", 311, "main", "for i, batch in enumerate(loader):"),
                ("/opt/venvs/seg/lib/python3.10/site-packages/torch/utils/data/dataloader.py", 1040, "__init__",
                 "w.start()"),
                (f"{_MP}/process.py", 121, "start", "self._popen = self._Popen(self)"),
                (f"{_MP}/context.py", 281, "_Popen", "return Popen(process_obj)")] + before + [last], None)


def test_parent_cut_at_os_fork_gets_the_fork_words(tmp_path):
    """Review a of round 110, #5: cut at popen_fork's _launch 'self.pid = os.fork()': unknown, nobody; the fork's words
    (host memory, ulimit -u, /dev/shm, num_workers=0), never spawn's pickling advice."""
    v, acc = verdict_accused(tmp_path, _start_cut(
        (f"{_MP}/popen_fork.py", 71, "_launch", "self.pid = os.fork()"),
        [(f"{_MP}/popen_fork.py", 19, "__init__", "self._launch(process_obj)")]))
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "forking a worker process" in v["fix"] and "ulimit -u" in v["fix"] and "num_workers=0" in v["fix"], v
    assert "picklable" not in v["fix"] and "pickling error" not in v["fix"] and "mp.spawn picklable" not in v["fix"], v
    assert "instead of mp.spawn" not in v["fix"], v


def test_parent_cut_in_popen_spawn_keeps_the_spawn_words(tmp_path):
    """Near shape: cut in popen_spawn_posix / ForkingPickler's dump: the spawn start method's pickling words."""
    v, acc = verdict_accused(tmp_path, _start_cut(
        (f"{_MP}/reduction.py", 60, "dump", "ForkingPickler(file, protocol).dump(obj)"),
        [(f"{_MP}/popen_spawn_posix.py", 32, "__init__", "super().__init__(process_obj)"),
         (f"{_MP}/popen_spawn_posix.py", 47, "_launch", "reduction.dump(process_obj, fp)")]))
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "pickles the worker function" in v["fix"], v


# --- 6. RAY_CGRAPH_get_timeout set by export / a command's VAR=value, Ray's error hard-wrapped -----------------------
_RAY_TB = ("ERROR 07-11 14:02:31 [core.py:401]   File \"/usr/local/lib/python3.12/dist-packages/ray/dag/"
           "compiled_dag_node.py\", line 2344, in _execute_until\n"
           "ERROR 07-11 14:02:31 [core.py:401]     raise RayChannelTimeoutError(\n")
_RAY_ERR = ("ERROR 07-11 14:02:31 [core.py:401] ray.exceptions.RayChannelTimeoutError: System error: If the execution "
            "is expected to take a long time, increase RAY_CGRAPH_get_timeout which is currently {now} seconds. "
            "Otherwise, this may indicate that the execution is hanging.\n")
_RAY_WRAPPED = ("ERROR 07-11 14:02:31 [core.py:401] ray.exceptions.RayChannelTimeoutError: System error: If the "
                "execution is expected to \ntake a long time, increase RAY_CGRAPH_get_timeout which is currently "
                "{now} seconds. Otherwise, this may indicate that the execution is hanging.\n")
_NOTICE = "INFO 07-11 14:01:02 [ray_distributed_executor.py:580] RAY_CGRAPH_get_timeout is set to 900\n"


def test_ray_limit_set_by_export_or_command_or_wrapped_is_a_setting_without_effect(tmp_path):
    """Rule CK (1) (review a of round 110, #6): the limit shown set (an export, a command's VAR=value, or vLLM's
    notice before Ray's error hard-wrapped at 120 columns) differs from the error's 'currently N seconds': config,
    nobody."""
    for text in ("+ export RAY_CGRAPH_get_timeout=900\n" + _RAY_TB + _RAY_ERR.format(now=10),
                 "RAY_CGRAPH_get_timeout=900 vllm serve org/model-70b --tensor-parallel-size 8\n" + _RAY_TB
                 + _RAY_ERR.format(now=10),
                 _NOTICE + _RAY_TB + _RAY_WRAPPED.format(now=10)):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
        assert "RAY_CGRAPH_get_timeout not applied (900 set, 10 s used)" in v["fix"], v


def test_ray_limit_at_the_value_set_keeps_the_serving_watchdog_reading(tmp_path):
    """Near shape: the value set is the value the error reports (exported or wrapped): rule P's unknown stays."""
    for text in ("+ export RAY_CGRAPH_get_timeout=900\n" + _RAY_TB + _RAY_ERR.format(now=900),
                 _NOTICE + _RAY_TB + _RAY_WRAPPED.format(now=900)):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
        assert "py-spy dump" in v["fix"], v


# --- 7. env:// unset variable: accelerate's one-process sentence only with accelerate shown ---------------------------
_ENV_ERR = ("ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
            "MASTER_ADDR expected, but not set")
_ACCEL_ONE = "accelerate launch with one process and no --multi_gpu runs the script as plain python"


def test_env_unset_under_srun_gets_no_accelerate_sentence(tmp_path):
    """Rule T (review a of round 110, #7): a srun job's traceback, no accelerate anywhere: config, nobody, the
    env:// words and torchrun for one GPU, without the accelerate-one-process sentence."""
    v, acc = verdict_accused(tmp_path, "srun: job 4411 has been allocated resources\n" + _tb([
        ("pretrain.py", 64, "<module>", 'dist.init_process_group(backend="nccl", init_method="env://")'),
        ("/opt/conda/lib/python3.10/site-packages/torch/distributed/rendezvous.py", 238, "_env_rendezvous_handler",
         'master_addr = _get_env_or_raise("MASTER_ADDR")')], _ENV_ERR, prefix="[gpu-n17] "))
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "launch with torchrun / torch.distributed.launch so MASTER_ADDR is set" in v["fix"], v
    assert _ACCEL_ONE not in v["fix"], v


def test_env_unset_under_accelerate_keeps_the_accelerate_sentence(tmp_path):
    """Near shape: accelerate's frames (or `accelerate launch`) in the lines: the sentence stays."""
    v, acc = verdict_accused(tmp_path, "$ accelerate launch --num_processes 1 pretrain.py\n" + _tb([
        ("pretrain.py", 64, "<module>", "accelerator = Accelerator()"),
        ("/opt/conda/lib/python3.10/site-packages/accelerate/state.py", 217, "__init__",
         "torch.distributed.init_process_group(backend=self.backend, **kwargs)"),
        ("/opt/conda/lib/python3.10/site-packages/torch/distributed/rendezvous.py", 238, "_env_rendezvous_handler",
         'master_addr = _get_env_or_raise("MASTER_ADDR")')], _ENV_ERR))
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert _ACCEL_ONE in v["fix"], v


def test_forward_keyword_refused_with_no_frame_of_the_job_or_its_command_is_not_config(tmp_path):
    """Near shape (the guard kept): only installed packages' frames, no job file and no entry point shown: not read
    as the install mismatch."""
    v, _ = verdict_accused(tmp_path, _tb([
        (f"{_SP}/transformers/trainer.py", 3612, "compute_loss", "outputs = model(**inputs)"), _CALL_IMPL],
        "TypeError: Qwen2Model.forward() got an unexpected keyword argument 'cache_position'"))
    assert v["cause"] != "config", v
    assert v["cause"] == "unknown", v
