"""Cut tracebacks round 86 showed read by where they stop (rules BG (3), BG (6), BM (1), BQ, AF (2), V (1), BP (1),
AN (1)): each shows a process that raised and no error text, and the frame it stops in (or a line before it) says
what more an expert reads from it.

- A traceback whose last frame is torch.distributed's own library code (device_mesh.py and the like, not torchrun's
  launcher, agent or rendezvous) on the ``raise RuntimeError(`` of one of its checks is that check's refusal, read by
  its source location (rules BG (3), BQ (3)): invalid_usage, no rank (ao-1086, DeviceMesh.get_group on a 2-D mesh).
  The same frame cut at a call (BG (6)) stays unknown.
- NVML's own warning that the libnvidia-ml.so loaded is the GDK's stub library, then a traceback cut before its text,
  is the shared install shown wrong (rules AF (2), V (1), BP (1)): config, no rank (deepspeech-pytorch-244). The same
  cut traceback without the warning stays unknown.
- A cut inside c10d's get_world_size / get_rank, before the default group's lookup, stays unknown (rule BG (6)) but
  its fix names the usual error there, the process group never initialized (videomamba-35); a cut at that lookup's
  raise is still config (round 84's video2dataset-314).
- A store client's retried connect warnings before a cut traceback go into its fix, the address to give and, on
  Windows, WSL/Linux (rule BM (2); llama3-158); the verdict stays unknown.
- A rank's own traceback ([rankN]: tag) cut where the DataLoader re-raises a worker's exception (_next_data ->
  _process_data) is that rank's own data loading, which runs no collective (rules BM (1), AN (1)): unknown, that
  rank (webdataset-449, its paste ending inside the next line's "[ra" tag). A cut in the fetch's wait on its workers
  (_get_data) names nobody.
- mp.spawn's child cut inside a DataLoader iterator's construction in a DataPipe job is at the DataPipe shared seed's
  broadcast from rank 0 (rule BQ (1)): unknown, nobody (data-659). Without a DataPipe shown, the child stays named
  (rule AL (2)).
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SP = "/opt/venv/lib/python3.10/site-packages"


# --- torch.distributed's own check raising ---------------------------------------------------------------------------
_MESH = (f'[rank0]:   File "{_SP}/torchao/float8/float8_utils.py", line 123, in tensor_to_amax\n'
         "[rank0]:     pg = device_mesh.get_group() if device_mesh is not None else None\n"
         f'[rank0]:   File "{_SP}/torch/distributed/device_mesh.py", line 694, in get_group\n'
         "[rank0]:     raise RuntimeError(\n")


def test_a_cut_at_torch_distributeds_own_check_raise_is_that_checks_refusal(tmp_path):
    v, acc = _verdict(tmp_path, _MESH)
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "mesh_dim" in v["fix"] and "get_group" in v["fix"], v


def test_the_same_frame_cut_at_a_call_stays_unknown(tmp_path):
    v, acc = _verdict(tmp_path, _MESH.replace("raise RuntimeError(", "return self._get_group_from_dim(mesh_dim)"))
    assert v["cause"] == "unknown" and not acc, v


# --- NVML's stub library ----------------------------------------------------------------------------------------------
_STUB = ("WARNING:\n\n"
         "You should always run with libnvidia-ml.so that is installed with your\n"
         "NVIDIA Display Driver. By default it's installed in /usr/lib and /usr/lib64.\n"
         "libnvidia-ml.so in GDK package is a stub library that is attached only for\n"
         "build purposes (e.g. machine that you build your application doesn't have\n"
         "to have Display Driver installed).\n")
_DP_CUT = ("Traceback (most recent call last):\n"
           '  File "train.py", line 259, in <module>\n'
           "    out = model(inputs)\n"
           '  File "/usr/lib/python3/dist-packages/torch/nn/parallel/data_parallel.py", line 72, in replicate\n'
           "    return replicate(module, device_ids)\n")


def test_nvmls_stub_library_warning_before_a_cut_traceback_is_config(tmp_path):
    v, acc = _verdict(tmp_path, _STUB + _DP_CUT)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "libnvidia-ml.so" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v


def test_the_same_cut_traceback_without_the_warning_stays_unknown(tmp_path):
    v, acc = _verdict(tmp_path, _DP_CUT)
    assert v["cause"] == "unknown" and not acc, v


# --- a cut in c10d's world-size query ---------------------------------------------------------------------------------
_C10D = f"{_SP}/torch/distributed/distributed_c10d.py"
_WS = ("Start training for 10 epochs\n"
       "Traceback (most recent call last):\n"
       '  File "/home/u/proj/engine.py", line 82, in train_one_epoch\n'
       "    loss_list = [torch.zeros_like(loss) for _ in range(dist.get_world_size())]\n"
       f'  File "{_C10D}", line 1555, in get_world_size\n'
       "    return _get_group_size(group)\n"
       '  File "/opt/venv/lib/pyth\n')


def test_a_cut_in_get_world_size_stays_unknown_and_names_the_uninitialized_group(tmp_path):
    v, acc = _verdict(tmp_path, _WS)
    assert v["cause"] == "unknown" and not acc, v
    assert "Default process group has not been initialized" in v["fix"] and "dist.is_initialized()" in v["fix"], v


def test_a_cut_at_the_default_groups_lookup_raise_is_still_config(tmp_path):
    v, _ = _verdict(tmp_path, _WS.replace("    return _get_group_size(group)\n  File \"/opt/venv/lib/pyth\n",
                                          f'    return _get_group_size(group)\n  File "{_C10D}", line 977, in '
                                          "_get_default_group\n    raise ValueError(\n"))
    assert v["cause"] == "config", v


# --- a store client's connect warnings before a cut traceback ------------------------------------------------------
_WARN = ("[W C:\\actions-runner\\_work\\pytorch\\torch\\csrc\\distributed\\c10d\\socket.cpp:558] [c10d] The client "
         "socket has failed to connect to [box2]:29500 (system error: 10049 - The requested address is not valid in "
         "its context.).\n")
_WIN_CUT = ("Traceback (most recent call last):\n"
            '  File "C:\\work\\llama3\\example_text_completion.py", line 64, in <module>\n'
            "    fir\n")


def test_connect_warnings_before_a_cut_traceback_go_into_its_fix(tmp_path):
    v, acc = _verdict(tmp_path, _WARN * 3 + _WIN_CUT)
    assert v["cause"] == "unknown" and not acc, v
    assert "MASTER_ADDR=localhost / 127.0.0.1" in v["fix"] and "use WSL/Linux" in v["fix"], v


def test_the_same_cut_traceback_alone_names_no_address(tmp_path):
    v, _ = _verdict(tmp_path, _WIN_CUT)
    assert v["cause"] == "unknown" and "MASTER_ADDR=localhost" not in v["fix"], v


# --- a rank's traceback cut where the DataLoader re-raises a worker's exception ---------------------------------------
_DL = f"{_SP}/torch/utils/data/dataloader.py"
_RERAISE = ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "/home/u/train.py", line 214, in main\n'
            "[rank2]:     for x, caption in loader:\n"
            f'[rank2]:   File "{_DL}", line 701, in __next__\n'
            "[rank2]:     data = self._next_data()\n"
            f'[rank2]:   File "{_DL}", line 1465, in _next_data\n'
            "[rank2]:     return self._process_data(data)\n"
            "[ra\n")


def test_a_ranks_traceback_cut_at_the_loaders_reraise_names_that_rank(tmp_path):
    v, acc = _verdict(tmp_path, _RERAISE)
    assert v["cause"] == "unknown" and acc == {2}, v
    assert "num_workers=0" in v["fix"], v


def test_a_ranks_traceback_cut_in_the_fetchs_wait_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _RERAISE.replace("return self._process_data(data)", "idx, data = self._get_data()"))
    assert v["cause"] == "unknown" and not acc, v


# --- mp.spawn's child cut in a DataLoader iterator's construction in a DataPipe job --------------------------------
_ENV = "/home/u/conda/envs/datapipe/lib/python3.9/site-packages"
_SEED = ("-- Process 3 terminated with the following error:\n"
         "Traceback (most recent call last):\n"
         f'  File "{_ENV}/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
         "    fn(i, *args)\n"
         '  File "/home/u/repro.py", line 20, in training\n'
         "    item = next(iter(dl))\n"
         f'  File "{_ENV}/torch/utils/data/dataloader.py", line 389, in _get_iterator\n'
         "    return _MultiProcessingDataLoaderIter(self)\n"
         f'  File "{_ENV}/torch/utils/data/dataloader.py", line 1023, in __init__\n'
         "    super(_MultiProcessingDataLoaderIter, self).__init__(loader)\n")


def test_a_spawned_child_cut_at_the_datapipe_seed_exchange_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _SEED)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "DataPipe shared seed" in v["fix"] and "timeout" in v["fix"], v


def test_the_same_cut_without_a_datapipe_keeps_the_child_named(tmp_path):
    v, acc = _verdict(tmp_path, _SEED.replace("envs/datapipe", "envs/train"))
    assert v["cause"] == "unknown" and acc == {3}, v
