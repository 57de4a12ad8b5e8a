"""Round 105's v2 shapes (session 42): launch and install settings every worker shares, read as config, culprits [].

- The interpreter's "python3.8: can't open file 'python': [Errno 2] No such file or directory" glued before torchrun's
  agent record of that worker's exit 2 (the worker's stderr and the agent's log on one line): the wrong script path is
  the news, not the local rank the record names; a path that is an interpreter's name is a stray 'python' written
  after the launcher (lead rules Q, U (2); round 105's llamafactory-1212). NOT read so: the record alone keeps its
  rank; an ordinary missing script keeps the script-path fix.
- The Windows console-script shim's "failed to create process." glued after the launcher's last line ("... at:
  127.0.0.1:29437 failed to create process."): the launcher could not start its Python (rules X (2), AF (2); round
  105's llamafactory-3953). NOT read so: the words as another message's sentence ("worker 3 failed to create
  process.").
- A FileNotFoundError for a config file (.yml / .yaml / .json) raised in the script's argument parsing (_parse_args,
  get_args) under torch.distributed.launch's banner or before a second worker's traceback: every worker is given the
  same config path (rules Q, U (2), AF (1); round 105's spikingformer-5). NOT read so: a data file missing there, or a
  config file opened outside argument parsing.
- CANN's EC0010 ("Failed to import Python module [ModuleNotFoundError: No module named 'tbe....']") under an Ascend
  HCCL header naming one rank: the toolkit's Python packages are not on the path every worker runs -- config, no rank
  (rules CD, AZ (3); round 105's llamafactory-5638). NOT read so: the same header over another code.
- 'invalid device ordinal' at torch.cuda.set_device in a spawned process: the fix says one process per visible GPU
  (round 105's llama2-flask-api-5). NOT read so: a tagged rank's ordinal raised outside set_device stays its own.
"""

from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- the interpreter's "can't open file" glued before torchrun's record -----------------------------------------------
def _cant_open(interp: str, path: str, local_rank: int, pid: int, launcher: str) -> str:
    return (f"/opt/envs/py/bin/{interp}: can't open file '{path}': [Errno 2] No such file or directory"
            f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 2) local_rank: {local_rank} "
            f"(pid: {pid}) of binary: /opt/envs/py/bin/{interp}\n"
            "Traceback (most recent call last):\n"
            f"  File \"/opt/envs/py/bin/{launcher}\", line 8, in <module>\n"
            "    sys.exit(main())\n")


def test_cant_open_glued_before_the_exit_record_is_the_launch_command_not_the_rank(tmp_path):
    for interp, path, lr, pid, launcher in (("python3.8", "python", 0, 173795, "accelerate"),
                                            ("python3", "python3", 1, 4410, "torchrun"),
                                            ("python3.10", "python3.10", 3, 99, "accelerate")):
        v, acc = _verdict(tmp_path, _cant_open(interp, path, lr, pid, launcher))
        assert v["cause"] == "config" and v["culprits"] == [] and not acc, (interp, v)
        assert "fix the launch command" in v["fix"].lower() and f"stray '{path}'" in v["fix"], v["fix"]


def test_cant_open_glued_with_a_script_path_gets_the_script_path_fix(tmp_path):
    v, acc = _verdict(tmp_path, _cant_open("python3", "src/train_bash.py", 2, 5150, "torchrun"))
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "right script path" in v["fix"] and "stray" not in v["fix"], v["fix"]


def test_the_exit_2_record_alone_keeps_its_local_rank(tmp_path):
    text = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 2) local_rank: 1 (pid: 4410) of "
            "binary: /opt/envs/py/bin/python3\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] != "config", v


# --- the Windows shim's "failed to create process." glued after the launcher's last line ------------------------------
def test_shim_failure_glued_after_the_launchers_line_is_the_launch_setup(tmp_path):
    for head in ("llamafactory.cli - Initializing distributed tasks at: 127.0.0.1:29437",
                 "05/02/2025 10:11:12 - INFO - llamafactory.cli - Initializing distributed tasks at: 10.0.0.5:31001"):
        # only torchrun's own "Initializing distributed tasks at: HOST:PORT" before it (review 105 (1) finding 2, the
        # lead's ruling): "Launching training on 4 GPUs. failed to create process." is no longer read so
        text = ("CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train examples/train_lora/llama3_lora_sft.yaml\n"
                f"{head} failed to create process.\n")
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [] and not acc, (head, v)
        assert "use WSL or a single GPU" in v["fix"] and "torch.distributed.run" in v["fix"], v["fix"]


def test_failed_to_create_process_as_another_messages_sentence_is_no_shim(tmp_path):
    for line in ("RuntimeError: worker 3 failed to create process.", "ERROR: the pool failed to create process"):
        v, _ = _verdict(tmp_path, line + "\n")
        assert "torchrun.exe" not in v["fix"] and "console script" not in v["summary"], (line, v)


# --- a config file missing in the script's argument parsing -----------------------------------------------------------
_LAUNCH_BANNER = (
    "/opt/conda/lib/python3.9/site-packages/torch/distributed/launch.py:181: FutureWarning: The module "
    "torch.distributed.launch is deprecated\n"
    "and will be removed in future. Use torchrun.\n"
    "  warnings.warn(\n"
    "WARNING:torch.distributed.run:\n"
    "*****************************************\n"
    "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being "
    "overloaded, please further tune the variable for optimal performance in your application as needed.\n"
    "*****************************************\n")


def _config_tb(func: str, path: str, code: str = "with open(args.config, 'r') as f:") -> str:
    return ("Traceback (most recent call last):\n"
            "  File \"/home/u/proj/train.py\", line 952, in <module>\n"
            "    main()\n"
            "  File \"/home/u/proj/train.py\", line 338, in main\n"
            f"    args = {func}()\n"
            f"  File \"/home/u/proj/train.py\", line 323, in {func}\n"
            f"    {code}\n"
            f"FileNotFoundError: [Errno 2] No such file or directory: '{path}'\n")


def test_config_file_missing_in_argument_parsing_is_the_launch_argument(tmp_path):
    for func, path, banner, second in (("_parse_args", "cifar10.yml", True, True),
                                       ("get_args", "configs/imagenet.yaml", True, False),
                                       ("parse_opt", "/data/exp/args.json", False, True)):
        text = (_LAUNCH_BANNER if banner else "") + _config_tb(func, path) + (
            "Traceback (most recent call last):\n" if second else "")
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [] and not acc, (func, v)
        assert "config file path" in v["fix"].lower() and path in v["fix"], v["fix"]


def test_a_data_file_or_a_config_opened_elsewhere_keeps_its_old_reading(tmp_path):
    for func, path in (("_parse_args", "/data/coco/train2017/000000315242.jpg"), ("build_dataset", "cifar10.yml")):
        text = _LAUNCH_BANNER + _config_tb(func, path) + "Traceback (most recent call last):\n"
        v, _ = _verdict(tmp_path, text)
        assert "config file path" not in v["fix"].lower(), (func, v)


# --- CANN's EC0010 under an Ascend HCCL header -----------------------------------------------------------------------
def _ascend(rank: int, code_line: str) -> str:
    return ("RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n"
            f"[ERROR] 2024-10-09-10:06:30 (PID:150{rank}967, Device:{rank}, RankID:{rank}) ERR02200 DIST call hccl "
            "api failed.\n" + code_line + "\n"
            "        Solution: Check that all required components are properly installed and the specified Python path "
            "matches the Python installation directory. (If the path does not match the directory, run set_env.sh in "
            "the installation package.)\n")


def test_cann_ec0010_python_module_missing_is_the_toolkits_environment(tmp_path):
    for rank, mod in ((1, "tbe.common.repository_manager.utils.repository_manager_log"), (3, "te"),
                      (6, "tbe.common.utils")):
        line = f"EC0010: Failed to import Python module [ModuleNotFoundError: No module named '{mod}'.]."
        v, acc = _verdict(tmp_path, _ascend(rank, line))
        assert v["cause"] == "config" and v["culprits"] == [] and not acc, (rank, v)
        assert "set_env.sh" in v["fix"] and "PYTHONPATH" in v["fix"], v["fix"]


def test_the_ascend_header_over_another_code_keeps_its_old_reading(tmp_path):
    v, _ = _verdict(tmp_path, _ascend(2, "EI9999: Inner Error! rtStreamSynchronize failed."))
    assert "set_env.sh" not in v["fix"], v


# --- 'invalid device ordinal' at set_device in a spawned process ------------------------------------------------------
def _ordinal(proc: int) -> str:
    return ("> initializing model parallel with size 2\n"
            f"Process Process-{proc}:\n"
            "Traceback (most recent call last):\n"
            "  File \"/opt/conda/lib/python3.10/multiprocessing/process.py\", line 314, in _bootstrap\n"
            "    self.run()\n"
            "  File \"/home/u/llama/llama/generation.py\", line 91, in build\n"
            "    torch.cuda.set_device(local_rank)\n"
            "  File \"/opt/conda/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 355, in set_device\n"
            "    torch._C._cuda_setDevice(device)\n"
            "RuntimeError: CUDA error: invalid device ordinal\n")


def test_ordinal_at_set_device_fix_says_one_process_per_visible_gpu(tmp_path):
    for proc in (2, 4):
        v, acc = _verdict(tmp_path, _ordinal(proc) + "Loaded in 7.03 seconds\n")
        assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
        assert "one process per visible GPU" in v["fix"] and "must exceed local_rank" in v["fix"], v["fix"]


def test_a_tagged_ranks_ordinal_outside_set_device_stays_its_own(tmp_path):
    text = ("[rank1]: Traceback (most recent call last):\n"
            "[rank1]:   File \"/w/train.py\", line 40, in main\n"
            "[rank1]:     x = x.to(f'cuda:{idx}')\n"
            "[rank1]: RuntimeError: CUDA error: invalid device ordinal\n"
            "[rank0]: step 10 loss 1.2\n")
    v, _ = _verdict(tmp_path, text)
    assert "one process per visible GPU" not in v["fix"], v
