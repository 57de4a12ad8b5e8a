"""Review 94, r1: readings of torch 1.x's CUDA OOM (lead rule BX (1)) and of the bare runtime OOM that were too broad
or gave wrong advice.

- 1. The old text's GPU index named rank N (verdict.memory._old_owner) even where mp.spawn's "-- Process 2 terminated
  with the following error:" header names the child whose traceback ends in that OOM: the header's "tb_rank" was
  filled only for the newer text, and spawn's header was dropped when the child's error was an OOM. Now the child's
  own OOM keeps spawn's record (process N, rules A, AL (2)), the OOM's traceback rank is the header's, and a ranked
  traceback pasted with the old text is read as for the newer one; the GPU index defers to both.
- 2. DataParallel (one process driving every GPU, a replica a thread) raising an OOM on "GPU 1" was read as local
  rank 1. Now an OOM whose traceback runs through DataParallel's own frames, or beside torch's "Caught X in replica N
  on device N", names nobody by its GPU index (rule AG: a world of one).
- 7. The bare "CUDA error: out of memory" fix said "torch.cuda.set_device(rank) (device=cuda:local_rank)" (two
  variables; rank is an invalid ordinal past one node), led with the start-up reading (CUDA context, every process on
  one GPU) whatever the stage, and offered empty_cache() against other processes' memory. Now set_device(local_rank),
  and the start-up text only where no training step is shown; an OOM inside a step reads as headroom for a library's
  workspace / NCCL's buffers.
- 8. The old text's fragmentation fix recommended PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb for every torch 1.x
  spelling ("cached", torch <= 1.3, included), which ignores it, and dated expandable_segments to 2.0. Now the setting
  is named only where the message carries its own max_split_size_mb hint (torch >= 1.10); else "upgrade torch (>=
  1.10)"; expandable_segments is torch >= 2.1.
- 13. Two regexes (R_OOM_OLD_SPLIT, R_OOM_OLD_FIGS) parsed the same figures into two copies; now R_OOM_OLD_FIGS alone
  feeds data["old_figs"], which _held_elsewhere, _old_owner and _old_figures_fix all read.

Paths, hosts and figures are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_SPAWN_HEAD = ('Traceback (most recent call last):\n'
               '  File "train.py", line 200, in <module>\n'
               '    mp.spawn(main, nprocs=4, args=(cfg,))\n'
               '  File "/opt/conda/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 119, in join\n'
               '    raise Exception(msg)\n'
               'Exception: \n'
               '\n'
               '-- Process 2 terminated with the following error:\n'
               'Traceback (most recent call last):\n'
               '  File "/opt/conda/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 20, in _wrap\n'
               '    fn(i, *args)\n'
               '  File "/work/train.py", line 150, in main\n'
               '    loss.backward()\n'
               '  File "/opt/conda/lib/python3.8/site-packages/torch/tensor.py", line 221, in backward\n'
               '    torch.autograd.backward(self, gradient, retain_graph, create_graph)\n')
_OLD = ("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU {gpu}; 31.75 GiB total capacity; 20.10 GiB "
        "already allocated; 1.20 GiB free; 26.40 GiB {res})\n")
_RES = "reserved in total by PyTorch"


def _plain_tb(oom: str) -> str:
    return ('Traceback (most recent call last):\n'
            '  File "/work/train.py", line 140, in <module>\n'
            '    out = model(x)\n'
            '  File "/work/model.py", line 33, in forward\n'
            '    h = self.attn(q, k)\n' + oom)


def _v(tmp_path, text):
    d = _report(tmp_path, text)
    return d, d["verdict"]


# --- 1: spawn's header names the process, not the GPU index ----------------------------------------------------------
def test_spawn_header_names_process_2_not_the_gpu_index(tmp_path):
    """The reviewer's counter-example: spawn's Process 2, its traceback ending in the old text's OOM on GPU 0."""
    d, v = _v(tmp_path, _SPAWN_HEAD + _OLD.format(gpu=0, res=_RES))
    assert v["cause"] == "gpu_oom" and 0 not in _accused(d), v
    assert "GPU 0" not in v["summary"], v


def test_spawn_header_names_process_2_for_the_newer_text_too(tmp_path):
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
           "31.75 GiB of which 1.20 GiB is free. Including non-PyTorch memory, this process has 30.10 GiB memory in "
           "use. Of the allocated memory 20.10 GiB is allocated by PyTorch, and 6.30 GiB is reserved by PyTorch but "
           "unallocated.\n")
    d, v = _v(tmp_path, _SPAWN_HEAD + oom)
    assert v["cause"] == "gpu_oom" and 0 not in _accused(d), v


def test_ranked_traceback_above_the_old_text_defers_the_gpu_index(tmp_path):
    """A launcher-prefixed traceback of rank 3 that the unranked old text ends: the index (GPU 0) names no one else."""
    text = ('[rank3]: Traceback (most recent call last):\n'
            '[rank3]:   File "/work/train.py", line 150, in main\n'
            '[rank3]:     out = model(x)\n' + _OLD.format(gpu=0, res=_RES))
    d, v = _v(tmp_path, text)
    assert 0 not in _accused(d), v


def test_lone_old_text_still_names_its_gpus_rank(tmp_path):
    """The case's own shape (BX (1)): one unranked OOM, nothing else failing: GPU N is rank N."""
    for gpu in (0, 1):
        d, v = _v(tmp_path, _plain_tb(_OLD.format(gpu=gpu, res=_RES)))
        assert (v["cause"], v["culprits"]) == ("gpu_oom", [gpu]), v
        assert "local rank" in v["summary"], v


# --- 2: DataParallel's replica is no process ------------------------------------------------------------------------
_DP = ('Traceback (most recent call last):\n'
       '  File "train.py", line 120, in <module>\n'
       '    out = model(x)\n'
       '  File "/opt/conda/lib/python3.8/site-packages/torch/nn/parallel/data_parallel.py", line 165, in '
       'parallel_apply\n'
       '    return parallel_apply(replicas, inputs, kwargs, self.device_ids[:len(replicas)])\n'
       '  File "/opt/conda/lib/python3.8/site-packages/torch/nn/parallel/parallel_apply.py", line 85, in '
       'parallel_apply\n'
       '    output.reraise()\n'
       'RuntimeError: Caught RuntimeError in replica 1 on device 1.\n'
       'Original Traceback (most recent call last):\n'
       '  File "/opt/conda/lib/python3.8/site-packages/torch/nn/parallel/parallel_apply.py", line 60, in _worker\n'
       '    output = module(*input, **kwargs)\n'
       '  File "model.py", line 33, in forward\n'
       '    h = self.attn(q, k)\n'
       'RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 1; 10.76 GiB total capacity; 7.20 GiB '
       'already allocated; 1.10 GiB free; 8.80 GiB reserved in total by PyTorch)\n')


def test_data_parallel_replica_oom_names_nobody(tmp_path):
    """The reviewer's counter-example: DataParallel's replica 1 on device 1."""
    d, v = _v(tmp_path, _DP)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []) and not _accused(d), v
    assert "local rank" not in v["summary"], v


def test_data_parallel_replica_line_alone_names_nobody(tmp_path):
    """Only torch's 'Caught ... in replica N on device N' and the OOM pasted, no DataParallel frame."""
    text = ('RuntimeError: Caught RuntimeError in replica 1 on device 1.\n'
            'Original Traceback (most recent call last):\n'
            '  File "model.py", line 33, in forward\n'
            '    h = self.attn(q, k)\n'
            'RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 1; 10.76 GiB total capacity; 7.20 GiB '
            'already allocated; 1.10 GiB free; 8.80 GiB reserved in total by PyTorch)\n')
    d, v = _v(tmp_path, text)
    assert v["culprits"] == [] and not _accused(d), v


def test_ddp_frames_are_not_data_parallel():
    assert S.R_DP_FRAME.search("/opt/site-packages/torch/nn/parallel/parallel_apply.py")
    assert not S.R_DP_FRAME.search("/opt/site-packages/torch/nn/parallel/distributed.py")


# --- 7: the bare runtime OOM's fix ----------------------------------------------------------------------------------
def test_runtime_oom_mid_run_gives_no_startup_set_device_text(tmp_path):
    """The reviewer's counter-example: rank 0's bare runtime OOM in loss.backward() after 4200 steps."""
    text = ('[rank0]: step 4200/10000 loss 2.113 lr 3.0e-4\n'
            '[rank1]: step 4200/10000 loss 2.120 lr 3.0e-4\n'
            '[rank0]: Traceback (most recent call last):\n'
            '[rank0]:   File "/work/train.py", line 210, in <module>\n'
            '[rank0]:     loss.backward()\n'
            '[rank0]:   File "/opt/conda/lib/python3.8/site-packages/torch/_tensor.py", line 487, in backward\n'
            '[rank0]:     torch.autograd.backward(\n'
            '[rank0]: RuntimeError: CUDA error: out of memory\n')
    d, v = _v(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [0]), v
    fix = v["fix"]
    assert "training step" in fix and "NCCL_BUFFSIZE" in fix, fix
    assert "set_device(rank)" not in fix and "empty_cache" not in fix and "CUDA context or" not in fix, fix
    assert "every process sitting on the same GPU" not in fix, fix


def test_runtime_oom_at_a_tests_first_tensor_keeps_the_startup_text(tmp_path):
    """The case's own shape (monai-5831): a distributed test's first tensor on its device."""
    text = ('Process SpawnProcess-2:\n'
            'Traceback (most recent call last):\n'
            '  File "/usr/lib/python3.7/multiprocessing/process.py", line 99, in run\n'
            '    self._target(*self._args, **self._kwargs)\n'
            '  File "/src/tests/test_cumulative_average_dist.py", line 38, in test_value\n'
            '    val = torch.as_tensor(rank + i, device=device)\n'
            'RuntimeError: CUDA error: out of memory\n')
    d, v = _v(tmp_path, text)
    assert v["cause"] == "gpu_oom", v
    fix = v["fix"]
    assert "set_device(local_rank)" in fix and "other processes holding its memory" in fix, fix
    assert "set_device(rank)" not in fix and "empty_cache" not in fix, fix


# --- 8: the split setting only where this torch reads it -----------------------------------------------------------
def test_cached_spelling_is_told_to_upgrade_not_to_set_the_variable(tmp_path):
    """The reviewer's counter-example: torch <= 1.3's "cached"."""
    oom = ("RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 15.75 GiB total capacity; 10.10 "
           "GiB already allocated; 300.00 MiB free; 14.90 GiB cached)\n")
    d, v = _v(tmp_path, _plain_tb(oom))
    fix = v["fix"]
    assert "fragmentation" in fix and "upgrade torch (>= 1.10)" in fix, fix
    assert "max_split_size_mb:128" not in fix and "torch >= 2.0" not in fix, fix


def test_message_with_its_own_split_hint_still_gets_the_setting(tmp_path):
    oom = ("RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 15.75 GiB total capacity; 10.10 "
           "GiB already allocated; 300.00 MiB free; 14.90 GiB reserved in total by PyTorch) If reserved memory is >> "
           "allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory "
           "Management and PYTORCH_CUDA_ALLOC_CONF\n")
    d, v = _v(tmp_path, _plain_tb(oom))
    fix = v["fix"]
    assert "PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128" in fix and "torch >= 2.1" in fix, fix
    assert "upgrade torch" not in fix and "torch >= 2.0" not in fix, fix


# --- 13: one regex, one copy of the figures -------------------------------------------------------------------------
def test_one_regex_feeds_the_figures():
    assert not hasattr(S, "R_OOM_OLD_SPLIT")


def test_held_elsewhere_reads_the_one_copy_cached_spelling_included(tmp_path):
    """Little reserved, little free: the rest of the GPU is other processes' -- read from old_figs, for "reserved in
    total by PyTorch" as before and now for "cached" too."""
    for res in ("reserved in total by PyTorch)", "cached)"):
        oom = ("RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 15.75 GiB total capacity; "
               f"1.10 GiB already allocated; 20.00 MiB free; 1.20 GiB {res}\n")
        d, v = _v(tmp_path, _plain_tb(oom))
        assert "other processes hold the rest" in v["fix"], (res, v["fix"])
