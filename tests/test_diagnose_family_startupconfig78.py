"""Start-up settings in round 78.

mace-1197: torch's device-index assert "device >= 0 && device < num_gpus INTERNAL ASSERT FAILED" raised bare (not
through DeferredCudaCallError), with its values on the next line, "device=1, num_gpus=1": the process sees a GPU and
asks for one past it -- a DDP launch over single-device MIG slices, each process's set_device(local_rank) past its one
device. Lead rules AU (2), Q: the launch's device setting, config, no rank (it was read as an unknown failure). Near
shape: the same assert with empty values (no GPU visible at all: mace-1504) stays a CUDA error.

alpaca-lora-4bit-95: torch.distributed's own init_process_group refusing the keywords it is called with ("torch.
distributed.distributed_c10d.init_process_group() got multiple values for keyword argument 'backend'"), called from
transformers' TrainingArguments device set-up, beside torchrun's record of local rank 0: the calling library was
written for another torch than the one installed, the same on every worker -- rule AF (2): config, no rank (rule A
had named rank 0). Near shape: a refusal by a function that is not torch.distributed's keeps its reading.

notebooks-594: accelerate's notebook_launcher refusing its own call, "ValueError: You have to specify the number of
GPUs you would like to use, add `num_processes=...` to your call.": the launcher's check of a launch argument before
any worker ran -- rule X (2): config, no rank (it was an unknown failure). Near shape: "you have to specify" of
something that is no launch argument keeps its reading.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_ASSERT = ("RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED\n"
           'at "../aten/src/ATen/cuda/CUDAContext.cpp":49\n')


def test_a_device_index_past_the_visible_gpus_is_the_launchs_setting(tmp_path):
    d = _report(tmp_path, _ASSERT + "device=1, num_gpus=1\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "MIG" in v["fix"] and "--nproc_per_node" in v["fix"], v


def test_no_gpu_visible_at_all_stays_a_cuda_error(tmp_path):
    v = _report(tmp_path, "[rank1]: torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with "
                "error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
                '"../aten/src/ATen/cuda/CUDAContext.cpp":49, \n[rank1]: device=, num_gpus=\n')["verdict"]
    assert v["cause"] == "cuda_error", v


_TB = ("Traceback (most recent call last):\n"
       '  File "/env/lib/python3.10/site-packages/transformers/training_args.py", line 1619, in device\n'
       "    return self._setup_devices\n")
_RECORD = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 3752) of "
           "binary: /env/bin/python\n")


def test_torch_distributed_refusing_its_keywords_is_the_install_not_a_rank(tmp_path):
    d = _report(tmp_path, _TB + "TypeError: torch.distributed.distributed_c10d.init_process_group() got multiple "
                "values for keyword argument 'backend'\n" + _RECORD)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "version mismatch" in v["fix"], v


def test_another_functions_refusal_beside_the_record_keeps_rule_a(tmp_path):
    v = _report(tmp_path, _TB + "TypeError: build_model() got multiple values for keyword argument 'depth'\n"
                + _RECORD)["verdict"]
    assert v["culprits"] == [0], v


def test_a_launcher_asking_for_its_process_count_is_the_launch(tmp_path):
    d = _report(tmp_path, "ValueError: You have to specify the number of GPUs you would like to use, add "
                "`num_processes=...` to your call.\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and "num_processes=N" in v["fix"], v


def test_specifying_something_else_is_not_read_so(tmp_path):
    v = _report(tmp_path, "ValueError: You have to specify either input_ids or inputs_embeds\n")["verdict"]
    assert "num_processes" not in v["fix"], v
