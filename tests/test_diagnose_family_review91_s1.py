"""Review 35b of rounds 90-91's diagnose code (session 35), findings 1, 5 and 6: three readings that held for wider
shapes than an expert reads so, each narrowed to its shape.

- 1. A "not compiled with NCCL" warning counted as asked-for NCCL whenever any line held "c10d" (parse._pg_nccl). But
  the store client's socket warning ("[c10d] The client socket has failed to connect", also on gloo), the path
  ...\\c10d\\socket.cpp, --rdzv_backend=c10d and elastic's rendezvous lines ask for no NCCL. So nn.DataParallel's
  fallback warning on a Windows wheel became config (high), "use gloo / WSL2", over the job's own exception. Now only
  ProcessGroupNCCL's own line, NCCL's INFO lines or a backend='nccl' code line show an NCCL process group. Beside
  another failure, that failure is read (lead rules A, BJ (2), K/N, Q).
- 6. trackers.R_TRACKER_RETRY read any "<Response [NNN]>" and any "Error while calling W&B API" as HTTP retry noise
  (rule T). That took in wandb's 403 / 401, which wandb does not retry (a wrong entity / project or API key), so the
  tracker's fix was lost. Now only 5xx, 429 and "retrying" / "retry loop" are retries. A 403 / 401 on wandb's ERROR
  line or in its CommError gets the permission fix (entity / project access, WANDB_API_KEY / wandb login --relogin,
  WANDB_MODE=offline). The cause stays unknown (BG (1)).
- 5. trackers.R_MP_FRAME marked a pickle error "spawn" / "loader" on frames that start no process. Torch's spawn.py
  _wrap tops the CHILD's own traceback (a torch.save there got "launch by torchrun"). The DataLoader's __next__ /
  _next_data run the dataset's own code with num_workers=0 (a __getitem__'s pickle.dumps got "num_workers=0 confirms
  it"). Now "spawn" is the parent's pickling frames only (reduction, popen_spawn, process start, torch's spawn /
  start_processes, ddp_spawn). "loader" is the DataLoader creating its iterator only (__iter__, _get_iterator,
  __init__, where the multi-process one calls w.start()). Under _wrap or __next__ the object itself must be picklable
  (PICKLE_SAVE_FIX: the state_dict). A makedirs under _wrap is still one of several processes (RACE_FIX).
"""
from __future__ import annotations

from ncclDoctor.diagnose import trackers
from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict

# --- 1. "c10d" is no NCCL process group ------------------------------------------------------------------------------
_WARN = ("C:\\Users\\me\\anaconda3\\lib\\site-packages\\torch\\cuda\\nccl.py:15: UserWarning: PyTorch is not compiled "
         "with NCCL support\n  warnings.warn('PyTorch is not compiled with NCCL support')\n")
_SOCKET = ("[W C:\\actions-runner\\_work\\pytorch\\pytorch\\builder\\windows\\pytorch\\torch\\csrc\\distributed\\c10d\\"
           "socket.cpp:601] [c10d] The client socket has failed to connect to [kubernetes.docker.internal]:29500 "
           "(system error: 10049 - The requested address is not valid in its context.).\n")
_MODEL_ERR = ("Traceback (most recent call last):\n"
              '  File "C:\\proj\\train.py", line 88, in <module>\n'
              "    loss = model(x)\n"
              '  File "C:\\proj\\model.py", line 40, in forward\n'
              "    h = self.proj(x)\n"
              "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)\n")


def test_c10d_lines_beside_the_warning_leave_the_jobs_own_error(tmp_path):
    rdzv = "torchrun --nnodes=1 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=localhost:29400 train.py\n"
    for extra in (_SOCKET, rdzv, ""):  # the reviewer's nccl_c10d.log, a c10d rendezvous, neither (nccl_noc10d.log)
        v, acc = _verdict(tmp_path, _WARN + extra + _MODEL_ERR)
        assert v["cause"] == "unknown" and not acc, (extra, v)
        assert "mat1 and mat2" in v["summary"] and "WSL2" not in (v.get("fix") or ""), (extra, v)


def test_an_nccl_process_group_shown_still_reads_config(tmp_path):
    for pg in ("[I ProcessGroupNCCL.cpp:686] [Rank 0] ProcessGroupNCCL initialization options:"
               "NCCL_ASYNC_ERROR_HANDLING: 1\n",
               "host:123:123 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>\n"):
        v, acc = _verdict(tmp_path, _WARN + _SOCKET + pg + _MODEL_ERR)
        assert v["cause"] == "config" and not acc, (pg, v)
    v, acc = _case(tmp_path, "nccl-1561-agx-orin-torch-not-compiled-with-nccl")
    assert v["cause"] == "config" and not acc and "USE_NCCL" in v["summary"] + (v.get("fix") or ""), v


# --- 6. wandb's 403 / 401 is no retry --------------------------------------------------------------------------------
def _wandb(code: str, said: str) -> str:
    return ("wandb: Currently logged in as: someuser. Use `wandb login --relogin` to force relogin\n"
            f"wandb: ERROR Error while calling W&B API: {said} (<Response [{code}]>)\n"
            "Traceback (most recent call last):\n"
            '  File "/home/u/train.py", line 61, in <module>\n'
            '    wandb.init(project="proj", entity="team-x")\n'
            "wandb.errors.CommError: It appears that you do not have permission to access the requested resource. "
            f"Please reach out to the project owner to grant you access.(Error {code}: {said})\n")


def test_wandb_403_gets_the_permission_fix(tmp_path):
    for code in ("403", "401"):
        v, acc = _verdict(tmp_path, _wandb(code, "Forbidden"))
        fix = v.get("fix") or ""
        assert v["cause"] == "unknown" and not acc, v
        assert "wandb login --relogin" in fix and "WANDB_API_KEY" in fix and "entity" in fix, v
        assert "WANDB_MODE=offline" in fix, v
    assert trackers.tracker_error("wandb: ERROR Error while calling W&B API: permission denied (<Response [403]>)")


def test_wandb_5xx_and_429_stay_retries(tmp_path):
    for line in ("wandb: ERROR Error while calling W&B API: An internal error occurred (<Response [500]>)",
                 "wandb: ERROR Error while calling W&B API: rate limited (<Response [429]>)",
                 "wandb: ERROR Network error (ReadTimeout), entering retry loop."):
        assert not trackers.tracker_error(line), line
    v, _ = _verdict(tmp_path, _wandb("500", "Internal Server Error"))
    assert "wandb login --relogin" not in (v.get("fix") or ""), v


# --- 5. spawn / loader frames that start no process ------------------------------------------------------------------
_SAVE_IN_CHILD = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 90, in <module>\n'
    "    mp.spawn(main, args=(world,), nprocs=2)\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 160, in join\n'
    "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
    "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
    "-- Process 0 terminated with the following error:\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
    "    fn(i, *args)\n"
    '  File "/home/u/train.py", line 70, in main\n'
    '    torch.save(model, "ckpt.pt")\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/serialization.py", line 653, in _save\n'
    "    pickler.dump(obj)\n"
    "AttributeError: Can't pickle local object 'build_model.<locals>.<lambda>'\n")
_SINGLE_LOADER = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 120, in <module>\n'
    "    for batch in loader:\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 631, in __next__\n'
    "    data = self._next_data()\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 675, in _next_data\n'
    "    data = self._dataset_fetcher.fetch(index)  # may raise StopIteration\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/fetch.py", line 51, in fetch\n'
    "    data = [self.dataset[idx] for idx in possibly_batched_index]\n"
    '  File "/home/u/data.py", line 44, in __getitem__\n'
    "    blob = pickle.dumps(self.cache)\n"
    "TypeError: cannot pickle '_thread.lock' object\n")
_START = [
    ("multiprocessing\\process.py", "121, in start", "self._popen = self._Popen(self)"),
    ("multiprocessing\\context.py", "336, in _Popen", "return Popen(process_obj)"),
    ("multiprocessing\\popen_spawn_win32.py", "93, in __init__", "reduction.dump(process_obj, to_child)"),
    ("multiprocessing\\reduction.py", "60, in dump", "ForkingPickler(file, protocol).dump(obj)")]


def _frames(frames) -> str:
    return "".join(f'  File "C:\\Python310\\lib\\{f}", line {at}\n    {code}\n' for f, at, code in frames)


_MULTI_LOADER = (
    "Traceback (most recent call last):\n"
    '  File "C:\\proj\\train.py", line 120, in <module>\n'
    "    for batch in loader:\n"
    + _frames([("site-packages\\torch\\utils\\data\\dataloader.py", "441, in __iter__", "return self._get_iterator()"),
               ("site-packages\\torch\\utils\\data\\dataloader.py", "388, in _get_iterator",
                "return _MultiProcessingDataLoaderIter(self)"),
               ("site-packages\\torch\\utils\\data\\dataloader.py", "1042, in __init__", "w.start()")] + _START)
    + "AttributeError: Can't pickle local object 'main.<locals>.<lambda>'\n")
_SPAWN_PARENT = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 90, in <module>\n'
    "    mp.spawn(main, args=(model, world), nprocs=2)\n"
    + _frames([("site-packages\\torch\\multiprocessing\\spawn.py", "241, in spawn",
                'return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")'),
               ("site-packages\\torch\\multiprocessing\\spawn.py", "188, in start_processes", "process.start()")]
              + _START)
    + "AttributeError: Can't pickle local object 'build_model.<locals>.<lambda>'\n")


def test_pickle_in_a_spawned_childs_own_code_is_the_objects(tmp_path):
    v, _ = _verdict(tmp_path, _SAVE_IN_CHILD)
    fix = v.get("fix") or ""
    assert trackers.PICKLE_SAVE_FIX in fix and trackers.PICKLE_FIX not in fix, v


def test_pickle_in_the_single_process_iterator_is_the_datasets(tmp_path):
    v, _ = _verdict(tmp_path, _SINGLE_LOADER)
    fix = v.get("fix") or ""
    assert trackers.PICKLE_SAVE_FIX in fix and trackers.LOADER_PICKLE_FIX not in fix, v


def test_pickle_under_a_process_start_still_reads_so(tmp_path):
    v, _ = _verdict(tmp_path, _MULTI_LOADER)
    assert trackers.LOADER_PICKLE_FIX in (v.get("fix") or ""), v
    v, _ = _verdict(tmp_path, _SPAWN_PARENT)
    assert trackers.PICKLE_FIX in (v.get("fix") or ""), v
    v, _ = _case(tmp_path, "comet-ml-352-cometlogger-unpicklable-ddp-spawn")
    assert trackers.PICKLE_FIX in (v.get("fix") or ""), v


def test_makedirs_in_a_spawned_child_is_still_a_race(tmp_path):
    v, _ = _case(tmp_path, "reagent-214-tensorboardx-summarywriter-makedirs-race-spawn")
    assert trackers.RACE_FIX in (v.get("fix") or ""), v
