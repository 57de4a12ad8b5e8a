"""DeepSpeed's compiled ops at start-up and in its NVMe swapper, shapes round 93 showed read by their shape (rules
AF (2), J, M, AC (1), BG (1), BG (3), BG (6), BQ (3)):

- DeepSpeedCPUAdam's destructor failing for want of its op ("Exception ignored in: <function DeepSpeedCPUAdam.__del__
  ...>" then "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"): its __init__ sets
  ds_opt_adam from CPUAdamBuilder().load(), the JIT build / load of the cpu_adam op, so that load raised -- the job's
  shared software every worker builds or loads alike: config, nobody, whatever launcher kill lines follow (rules
  AF (2), J, M; lmflow-471, simple-grpo-7), and beside the rank's own ImportError of cpu_adam.so from
  ~/.cache/torch_extensions the build's own line is the evidence (x-r1-68). Not read so: another class's destructor
  missing another attribute (its __init__ raised, nothing says why) keeps the unknown reading.
- A traceback cut inside the JIT build (cpp_extension's _jit_compile) under "self.ds_opt_adam =
  CPUAdamBuilder().load()": config as before (rules AF (2), BG (3), BQ (3)), and now the fix names the op the frames
  load -- its builder's one-line load and DS_BUILD_CPU_ADAM (lmflow-470), not FusedAdam's; a cut under FusedAdam's
  load names FusedAdam's.
- DeepSpeed's async I/O op asserting in its NVMe swapper (deepspeed_aio_handle_t::pread: "buffer.nbytes() ==
  num_file_bytes", the .tensor.swp file shorter than its buffer) on several ranks: a condition on a tensor's bytes
  against a file's, not a check of the launch settings -- no cause class, nobody (rules J, BG (1); deepspeed-3376),
  the fix naming nvme_path, its disk space and the aio settings. A library's host assertion on the launch shape
  (DeepEP's num_ranks > NUM_MAX_NVL_PEERS) keeps its config reading.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SITE = "/opt/conda/lib/python3.10/site-packages"
_DEL = ("Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7fce946893a0>\n"
        "Traceback (most recent call last):\n"
        f'  File "{_SITE}/deepspeed/ops/adam/cpu_adam.py", line 102, in __del__\n'
        "    self.ds_opt_adam.destroy_adam(self.opt_id)\n"
        "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n")


# --- DeepSpeedCPUAdam's destructor without its op --------------------------------------------------------------------
def test_cpu_adam_destructor_without_its_op_is_the_shared_build_config_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _DEL)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "CPUAdamBuilder().load()" in v["fix"] and "DS_BUILD_CPU_ADAM=1 pip install deepspeed" in v["fix"], v


def test_two_workers_destructors_then_the_launcher_kills_them_is_config_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _DEL + _DEL.replace("0x7fce946893a0", "0x7fef501d23a0")
                      + "[2023-06-06 07:59:27,351] [INFO] [launch.py:428:sigkill_handler] Killing subprocess 21474\n"
                      "[2023-06-06 07:59:27,354] [INFO] [launch.py:428:sigkill_handler] Killing subprocess 21475\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def test_the_so_import_error_beside_the_destructor_is_the_evidence(tmp_path):
    v, acc = _verdict(tmp_path, "[rank2]: ImportError: /root/.cache/torch_extensions/py311_cu124/cpu_adam/cpu_adam.so: "
                                "cannot open shared object file: No such file or directory\n" + _DEL)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "cpu_adam.so" in v["summary"] and "clear torch_extensions cache" in v["fix"], v


def test_another_class_destructor_missing_an_attribute_keeps_unknown(tmp_path):
    v, acc = _verdict(tmp_path, "Exception ignored in: <function SwapBuffer.__del__ at 0x7f0>\n"
                                "Traceback (most recent call last):\n"
                                f'  File "{_SITE}/mylib/swap.py", line 40, in __del__\n'
                                "    self.handle.close()\n"
                                "AttributeError: 'SwapBuffer' object has no attribute 'handle'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v


# --- a stack cut inside the op's JIT build ---------------------------------------------------------------------------
def _cut(ctor: str, load: str) -> str:
    return (f'  File "{_SITE}/deepspeed/runtime/engine.py", line 1354, in _configure_basic_optimizer\n'
            f"    optimizer = {ctor}(model_parameters,\n"
            f'  File "{_SITE}/deepspeed/ops/adam/x.py", line 96, in __init__\n'
            f"    {load}\n"
            f'  File "{_SITE}/deepspeed/ops/op_builder/builder.py", line 485, in load\n'
            "    return self.jit_load(verbose)\n"
            f'  File "{_SITE}/deepspeed/ops/op_builder/builder.py", line 520, in jit_load\n'
            "    op_module = load(\n"
            f'  File "{_SITE}/torch/utils/cpp_extension.py", line 1284, in load\n'
            "    return _jit_compile(\n"
            f'  File "{_SITE}/torch/utils/cpp_extension.py", line 1535, in _jit_compile\n'
            "    return _import_module_from_library(name, build_direct\n")


def test_a_cut_in_cpu_adam_s_jit_build_names_cpu_adam_in_the_fix(tmp_path):
    v, acc = _verdict(tmp_path, _cut("DeepSpeedCPUAdam", "self.ds_opt_adam = CPUAdamBuilder().load()"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "CPUAdamBuilder().load()" in v["fix"] and "DS_BUILD_CPU_ADAM=1" in v["fix"], v
    assert "FusedAdamBuilder" not in v["fix"], v


def test_a_cut_in_fused_adam_s_jit_build_names_fused_adam(tmp_path):
    v, acc = _verdict(tmp_path, _cut("FusedAdam", "fused_adam_cuda = FusedAdamBuilder().load()"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "FusedAdamBuilder().load()" in v["fix"] and "DS_BUILD_FUSED_ADAM=1" in v["fix"], v
    assert "CPUAdamBuilder" not in v["fix"], v


# --- DeepSpeed's aio op in the NVMe swapper --------------------------------------------------------------------------
_AIO = ("python: /usr/local/lib/python3.8/dist-packages/deepspeed/ops/csrc/aio/py_lib/deepspeed_py_aio_handle.cpp:228: "
        "int deepspeed_aio_handle_t::pread(const at::Tensor&, const char*, bool, bool): Assertion "
        "`static_cast<long long int>(buffer.nbytes()) == num_file_bytes' failed.\n")


def test_aio_pread_assert_on_several_ranks_is_unknown_nobody_with_the_swap_fix(tmp_path):
    v, acc = _verdict(tmp_path, _AIO + "/nvme/zero_stage_3/optimizer/rank6/1396.tensor.swp: buffer nbytes != file "
                      "bytes 4001366016 != 3426746368\n" + _AIO + "/nvme/zero_stage_3/optimizer/rank2/1399.tensor.swp: "
                      "buffer nbytes != file bytes 4001366016 != 3599761408\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "free disk space on nvme_path" in v["fix"] and "aio settings" in v["fix"], v


def test_a_host_assert_on_the_launch_shape_stays_config(tmp_path):
    v, acc = _verdict(tmp_path, "python: /opt/deep_ep/csrc/deep_ep.cpp:32: Buffer::Buffer(int, int, int64_t, int64_t, "
                                "bool): Assertion `num_ranks > NUM_MAX_NVL_PEERS or low_latency_mode' failed.\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
