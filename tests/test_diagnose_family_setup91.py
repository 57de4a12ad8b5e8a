"""Shared installs, builds and set-up read as config, as round 91 showed them (rules AF (1), AF (2) with round 41's
sentence, AX (2), BF (3), BQ (2), BT (2), BV (3), BV (4), J, Q, U (2), W). Each is a failure of what every worker
shares -- the installed library, the kernel build, the launch's config file, a framework's parallel layout, the
prepared data -- so config, culprits [], nobody innocent, however few processes are shown failing.

- A job's own int() parse of an installed library's version string raising on its pre-release / local part
  ("ValueError: invalid literal for int() with base 10: '0a0'" under a frame whose code reads the version): the
  shared install not matching the code (rules AF (2), BT (2), BV (3); chinese-clip-124). An int() of another value
  ('abc'), or of a version-shaped one where no frame reads a version, keeps its old reading (rule BJ (2)).
- A traceback the paste cut, interleaved with another process's, whose stack holds a frame of an op's JIT build
  (torch's cpp_extension _jit_compile, DeepSpeed's op_builder jit_load) after the input's last exception line: the
  raise is inside the shared build (rules AF (2), J; deepspeed-3794). A cut traceback with no such frame, or one
  whose build frame an exception line closes, keeps its old reading (rule BG (6)).
- A JIT compiler's own C++ assertion (glibc's "Assertion `...' failed" in Triton / MLIR / LLVM's tree) aborting one
  untagged process, the launcher then SIGTERM'ing a pid: config (rules AF (2), AX (2), BV (4); vmamba-265). An
  assertion in the job's own C++ keeps its old reading.
- The launch command shown passing a .sh / .py script as --config-file, the paste cut inside the config loader
  (yaml.load): a launch setting shown wrong (rules AF (1), U (2), BF (3), BQ (2); nanotron-166). The same cut with
  a .yaml argument keeps rule BG (6)'s unknown.
- A framework's own assert on its parallel layout ("has 0 actors, but vllm_dp_size: 2 * vllm_tp_size: 4 = 8 is
  expected") logged through vLLM v1's "ERROR 07-17 07:31:11 [core.py:586] " head: rule W's settings check, the fix
  naming the Ray placement / actor names (rllm-147). c10d's own tensor-size ValueError, though it names world_size,
  stays invalid_usage.
- mp.spawn's "Process 0 terminated" over a bare AssertionError under `assert len(<data list>) > 1`: a dataset's own
  check of the prepared data every worker loads (rules BF (3), Q; gpt-sovits-669). An assert on a count of ranks
  is not read so.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- a version string's pre-release part refused by the code's own int() parse ---------------------------------------
def _version_parse(value: str, code: str, func: str = "version_leq") -> str:
    return ("Traceback (most recent call last):\n"
            '  File "train/main.py", line 301, in <module>\n'
            "    main()\n"
            '  File "train/main.py", line 134, in main\n'
            f'    old = {func}(torch.__version__, "1.8.0")\n'
            f'  File "train/main.py", line 40, in {func}\n'
            f"    {code}\n"
            f"ValueError: invalid literal for int() with base 10: '{value}'\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 4411)\n")


def test_version_string_parse_is_the_shared_install(tmp_path):
    v, acc = _verdict(tmp_path, _version_parse("0a0", 'v1 = [int(x) for x in version1.split("+")[0].split(".")]'))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "packaging.version" in v["fix"] and "release torch build" in v["fix"], v


def test_int_of_another_value_is_not_a_version_parse(tmp_path):
    v, _ = _verdict(tmp_path, _version_parse("abc", 'v1 = [int(x) for x in version1.split(".")]'))
    assert "packaging.version" not in v["fix"], v
    v, _ = _verdict(tmp_path, _version_parse("0a0", 'steps = [int(x) for x in args.schedule.split(",")]',
                                             func="parse_schedule"))
    assert "packaging.version" not in v["fix"], v


# --- a cut, interleaved traceback whose stack holds the op's JIT build -----------------------------------------------
_JIT_FRAMES = ('  File "/env/lib/python3.11/site-packages/deepspeed/ops/op_builder/builder.py", line 480, in jit_load\n'
               "    op_module = load(name=self.name,\n"
               '  File "/env/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 1284, in load\n')


def _interleaved(closed: bool) -> str:
    return ('  File "/env/lib/python3.11/site-packages/deepspeed/ops/adam/cpu_adam.py", line 94, in __init__\n'
            "    self.ds_opt_adam = CPUAdamBuilder().load()\n"
            + _JIT_FRAMES
            + ("RuntimeError: Error building extension 'cpu_adam'\n" if closed else "")
            + "Loading extension module cpu_adam...\n"
            "Traceback (most recent call last):\n"
            '  File "/work/src/train.py", line 247, in <module>\n'
            "    return _jit_compile(\n"
            '  File "/work/src/train.py", line 241, in train\n'
            "    trainer.train()\n"
            '  File "/ro')


def test_cut_stack_inside_the_jit_build_is_the_shared_build(tmp_path):
    v, acc = _verdict(tmp_path, _interleaved(closed=False))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "clear torch_extensions cache" in v["fix"].lower() and "DS_BUILD_CPU_ADAM=1" in v["fix"], v


def test_cut_traceback_without_an_open_build_frame_is_not_the_build(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/work/src/train.py", line 241, in train\n'
            "    trainer.train()\n"
            '  File "/ro')
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "unknown", v


# --- a JIT compiler's own assertion -----------------------------------------------------------------------------------
def _abort(where: str, sig: str, cond: str) -> str:
    return (f"python: {where}: {sig}: Assertion `{cond}' failed.\n"
            "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 22025 closing signal SIGTERM\n")


def test_triton_compiler_assertion_is_the_shared_build(tmp_path):
    v, acc = _verdict(tmp_path, _abort(
        "/project/lib/Analysis/Allocation.cpp:40",
        "std::pair<llvm::SmallVector<unsigned int>, llvm::SmallVector<unsigned int> > "
        "mlir::triton::getCvtOrder(mlir::Attribute, mlir::Attribute)",
        '!(srcMmaLayout && dstMmaLayout) && "Unexpected mma -> mma layout conversion"'))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "upgrade triton" in v["fix"] and "matching torch / triton versions" in v["fix"], v


def test_an_assertion_in_the_jobs_own_cpp_is_not_the_compiler(tmp_path):
    v, _ = _verdict(tmp_path, _abort("llmc/matmul.cuh:88", "void matmul_forward(float*, const float*)",
                                     "out != nullptr"))
    assert "triton" not in v["fix"].lower(), v


# --- a script passed as the launch's config file ---------------------------------------------------------------------
def _config_cut(arg: str) -> str:
    return (f"torchrun --nproc_per_node=8 run_train.py --config-file {arg}\n"
            "Traceback (most recent call last):\n"
            '  File "/home/u/proj/run_train.py", line 201, in <module>\n'
            "    trainer = DistributedTrainer(config_file)\n"
            '  File "/home/u/proj/src/config/config.py", line 444, in get_config_from_file\n'
            "    config_dict = yaml.load(f, Loader=SafeLoader)\n"
            '  File "/env/lib/python3.10/site-packages/yaml/__init__.py", line 81, in load\n'
            "    return loader.get_single_data()\n"
            '  File "/')


def test_a_script_as_config_file_under_a_cut_loader_is_config(tmp_path):
    v, acc = _verdict(tmp_path, _config_cut("examples/train_tiny.sh"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "config file path" in v["fix"] and "yaml" in v["fix"], v


def test_a_yaml_config_file_under_a_cut_loader_stays_unknown(tmp_path):
    v, _ = _verdict(tmp_path, _config_cut("examples/config_tiny.yaml"))
    assert v["cause"] == "unknown", v


# --- a framework's parallel-layout check logged under vLLM v1's head -------------------------------------------------
def _vllm_v1(exc: str) -> str:
    head = "(AsyncvLLMServer pid=7484) ERROR 07-17 07:31:11 [core.py:586] "
    return "".join(head + x + "\n" for x in (
        "Traceback (most recent call last):",
        '  File "/w/verl/workers/rollout/vllm_rollout/vllm_async_server.py", line 64, in _init_executor',
        "    assert len(actor_names) == vllm_dp_size * vllm_tp_size, f\"instance_id: ...\"",
        exc)) + "(AsyncvLLMServer pid=7484) Process EngineCore_0:\n"


def test_parallel_layout_assert_under_vllm_head_is_config(tmp_path):
    v, acc = _verdict(tmp_path, _vllm_v1("AssertionError: instance_id: 3ae7:2:0 has 0 actors, but vllm_dp_size: 2 * "
                                         "vllm_tp_size: 4 = 8 is expected."))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "Ray placement / actor names" in v["fix"], v


def test_c10d_tensor_size_check_naming_world_size_stays_invalid_usage(tmp_path):
    v, _ = _verdict(tmp_path, _vllm_v1("ValueError: output tensor size must be equal to world_size times input "
                                       "tensor size"))
    assert v["cause"] == "invalid_usage", v


# --- a dataset's own check of the prepared list, under mp.spawn ------------------------------------------------------
def _spawn_assert(cond: str) -> str:
    return ("torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
            "-- Process 0 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/env/lib/site-packages/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/work/s2_train.py", line 85, in run\n'
            "    train_dataset = TextAudioLoader(hps.data)\n"
            '  File "/work/module/data_utils.py", line 103, in __init__\n'
            f"    assert {cond}\n"
            "AssertionError\n")


def test_dataset_min_entries_assert_is_the_shared_data(tmp_path):
    v, acc = _verdict(tmp_path, _spawn_assert("len(audiopaths_text_new) > 1  # at least a batch"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "dataset preparation (filelist not empty)" in v["fix"] and "rerun data preprocessing" in v["fix"].lower(), v


def test_an_assert_on_a_count_of_ranks_is_not_a_data_check(tmp_path):
    v, _ = _verdict(tmp_path, _spawn_assert("len(peer_ranks) > 1"))
    assert "filelist not empty" not in v["fix"], v
