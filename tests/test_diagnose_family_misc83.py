"""Shapes round 83 showed unread or under-read (rules A, F, I, L, Y, Q, T, AT (1), AX (4), BC (1), BG (4), BG (6),
BG (7), BJ (2)).

- torch's CUDA initialisation warning that cudaGetDeviceCount failed for another reason than the driver's version
  ("[W CUDAFunctions.cpp:109] Warning: CUDA initialization: CUDA driver initialization failed, you might not have a
  CUDA gpu.", also "CUDA unknown error" and "Unexpected error from cudaGetDeviceCount()"), printed by the processes of
  a Lightning DDP launch, beside one untagged traceback cut before its error (scvi-tools-2102): a CUDA call shown
  failing (rule AT (1)) in every process shown, untagged, is the shared failure of rules AX (4) / BG (7): cuda_error,
  culprits [], nobody innocent; the cut traceback adds nothing (rule BG (6)). The fix names the forked child that
  cannot initialise CUDA (ddp_fork / the fork start method: use spawn) and the host's driver. torch's "Found no NVIDIA
  driver on your system" (a host with no driver) is NOT read so: it keeps its old reading.
- A launcher of model-server shards (Hugging Face TGI's text_generation_launcher, LoRAX's lorax_launcher) recording one
  shard killed by a signal ("Shard process was signaled to shutdown with signal 7 rank=1",
  text-generation-inference-814): the launcher's record of a global rank (rule I; rank=N is the shard's
  torch.distributed rank) read like torchrun's -7: SIGBUS is /dev/shm running out, dataloader_shm (rule F), that rank
  the culprit (rule A); the shards only shown waiting are not innocent. "Waiting for shard to be ready... rank=N"
  lines alone are NOT a record of anything failing.
- A traceback cut inside a frame of torch/distributed/rendezvous.py itself (init_process_group ->
  next(rendezvous_iterator) -> _tcp_rendezvous_handler, the paste stopping inside the function's name; uer-py-101):
  the process raised while the job's store was being created or connected -- rules L, Y, BC (1): store_rendezvous,
  culprits [] (a multiprocessing "SpawnProcess-1" is no rank: rule Q). A cut in torchrun's elastic rendezvous frames
  (torch/distributed/elastic/rendezvous/), or in the module's helper reading an environment variable
  (_get_env_or_raise: that variable missing), is NOT read by this.
- One rank's own tagged traceback ending in torch's size mismatch where one size is a whole multiple of the other
  ("The size of tensor a (2535) must match the size of tensor b (20280)", 20280 = 8 x 2535; cache-dit-353): rules
  BJ (2), BG (4) keep unknown, that rank; the fix now says what round 82's untagged form said (a sharded tensor meets
  an unsplit one) and asks for the full traceback of every rank. Sizes that are no whole multiple do not get it.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text
from tests.conftest import diagnose_verdict as _verdict

_INIT_WARN = ("[W CUDAFunctions.cpp:109] Warning: CUDA initialization: {what} (function operator())\n")


def _lightning(what: str) -> str:
    return ("GPU available: True (cuda), used: True\n"
            "Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2\n"
            "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2\n"
            + _INIT_WARN.format(what=what) * 2
            + "Traceback (most recent call last):\n"
            '  File "/home/u/train.py", line 64, in <module>\n'
            "    sys.exit(main())\n"
            '  File "/home/u/train.py", line 36, in main\n'
            "    model.train(\n")


def test_cuda_driver_init_failed_in_every_process_is_cuda_error(tmp_path):
    d = diagnose_text(tmp_path, _lightning("CUDA driver initialization failed, you might not have a CUDA gpu."))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert not accused(d), d
    for word in ("ddp_fork", "spawn start method", "nvidia-smi"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_no_nvidia_driver_warning_is_not_read_as_cuda_init(tmp_path):
    v = _verdict(tmp_path, _lightning("Found no NVIDIA driver on your system. Please check that you have an NVIDIA "
                                      "GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"))
    assert "ddp_fork" not in v["fix"], v
    assert v["cause"] != "cuda_error", v


_TGI = "2023-08-11T06:42:{s}Z {lvl} shard-manager: text_generation_launcher: {msg}\n"


def _waiting() -> str:
    return "".join(_TGI.format(s="38.895303", lvl=" INFO", msg=f"Waiting for shard to be ready... rank={r}")
                   for r in (2, 0, 3, 1))


def test_tgi_shard_killed_by_sigbus_is_shm_on_that_rank(tmp_path):
    d = diagnose_text(tmp_path, _TGI.format(s="43.498333", lvl="ERROR",
                                            msg="Shard process was signaled to shutdown with signal 7 rank=1")
                      + _waiting())
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [1]), v
    assert accused(d) == {1}, d
    assert "/dev/shm" in v["fix"], v


def test_tgi_shards_only_waiting_accuse_nobody(tmp_path):
    d = diagnose_text(tmp_path, _waiting())
    assert d["verdict"]["cause"] != "dataloader_shm" and not accused(d), d


_SPAWN_HEAD = ("Process SpawnProcess-1:\n"
               "Traceback (most recent call last):\n"
               '  File "/opt/py/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 20, in _wrap\n'
               "    fn(i, *args)\n"
               '  File "/home/u/proj/trainer.py", line 399, in worker\n'
               "    dist.init_process_group(backend, init_method=master_ip, world_size=world_size, rank=rank)\n")


_SITE = '  File "/opt/py/lib/python3.8/site-packages/torch/distributed/'
_INTO_RDZV = (_SITE + 'distributed_c10d.py", line 422, in init_process_group\n'
              "    store, rank, world_size = next(rendezvous_iterator)\n")


def test_cut_inside_the_rendezvous_module_is_store_rendezvous(tmp_path):
    v = _verdict(tmp_path, _SPAWN_HEAD + _INTO_RDZV + _SITE + 'rendezvous.py", line 126, in _tcp_ren\n')
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v
    assert "world_size" in v["fix"].lower(), v


def test_cut_in_the_rendezvous_modules_env_helper_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, _SPAWN_HEAD + _INTO_RDZV + _SITE + 'rendezvous.py", line 190, in _env_rendezvous_handler\n'
                 "    rank = int(_get_env_or_raise(\"RANK\"))\n"
                 + _SITE + 'rendezvous.py", line 170, in _get_env_or_raise\n')
    assert v["cause"] != "store_rendezvous", v


def test_cut_inside_elastic_rendezvous_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, _SPAWN_HEAD
                 + '  File "/opt/py/lib/python3.8/site-packages/torch/distributed/elastic/rendezvous/'
                 'dynamic_rendezvous.py", line 1031, in next_rendezvous\n')
    assert v["cause"] != "store_rendezvous", v


def _rank4(a: int, b: int) -> str:
    p = "[rank4]: "
    return (f'{p}  File "/usr/lib/python3.12/dist-packages/torch/nn/modules/module.py", line 1762, in _call_impl\n'
            f"{p}    return forward_call(*args, **kwargs)\n"
            f'{p}  File "/usr/lib/python3.12/dist-packages/somelib/blocks.py", line 213, in forward\n'
            f"{p}    residual = hidden_states - original_hidden_states\n"
            f"{p}RuntimeError: The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton "
            "dimension 1\n")


def test_lone_rank_shard_sized_mismatch_names_the_split(tmp_path):
    d = diagnose_text(tmp_path, _rank4(2535, 20280))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [4]), v
    for word in ("20280 = 8 x 2535", "full traceback of every rank"):
        assert word in v["fix"], (word, v)


def test_lone_rank_mismatch_of_no_whole_factor_keeps_its_fix(tmp_path):
    v = _verdict(tmp_path, _rank4(2535, 3000))
    assert (v["cause"], v["culprits"]) == ("unknown", [4]), v
    assert "whole factor" not in v["fix"] and "every rank of the parallel group" not in v["fix"], v
