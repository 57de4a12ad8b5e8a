"""Tracebacks cut before their error text, read whole in round 81 (session 31). One traceback cut before any error
text names nobody and gives no cause (lead rules BG (6), AB (2)); cut inside a collective it may be a peer's victim
(rule BH (1)'s caution). Each test writes the shape in lines of its own (paths made up) and a near shape that must
keep its old reading.

- deeplearningexamples-581, torchrec-3560, hpcfund-58: the paste stops inside the NEXT frame's own line -- after the
  words of its path ('File "/x/distributed_c10d.py", li') or, under Python 3.11+, after the last frame's code line and
  its caret marks ('[rank0]:   File "/usr/loc'). Read as the cut traceback (unknown, nobody), not 'nothing failed'.
  Near shape kept: an exception line at the margin after the carets is the error, not a cut.
- pytorch-biggraph-119: a caller frame's code line above the cut ("timeout=timeout)") is that traceback's source,
  not failure words: the cut frame (c10d's init_process_group) is read, with the set-up's fix.
- data-1142: a frame whose code line calls dist.new_group(...) is the process group's set-up cut (rule BN (2)'s
  workers alike: culprits []), its fix the set-up's (GLOO_SOCKET_IFNAME, address resolution, every process calling
  new_group). Near shape kept: a code line that only passes a group (get_rank(group=g)) keeps the generic fix.
- kubeflow-trainer-1585: a cut in torch 0.4's DistributedDataParallelCPU constructor (sync_parameters, its broadcast
  from rank 0) is DDP's construction (rule BH (2)): the fix reads the peers' side first (which peer exited first, the
  master's log, GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME).
- legacy-rocm-build-3956: a worker's SIGTERM record (vLLM's "Worker VllmWorkerProcess pid N died, exit code: -15")
  beside another process's cut traceback is that process's teardown (rule A), not a signal from outside: unknown,
  nobody named. Near shape kept: the SIGTERM record alone stays the outside signal.
- deimv2-93 (its fix only): a cut in the DataLoader's fetch (reductions.py's rebuild_storage_fd) names the loader's
  causes (ulimit -n, the file_system sharing strategy, /dev/shm, num_workers) while the cause stays unknown
  (rule BL (2)).
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text

_HEAD = "Traceback (most recent call last):\n"


def test_cut_inside_the_next_frame_line_after_its_path_is_a_cut_traceback(tmp_path):
    text = ("epochs : 3\n" + _HEAD
            + '  File "/ws/bert/train.py", line 393, in setup\n'
            + '    flat_call([p.data for p in model.parameters()], torch.distributed.broadcast, (0,))\n'
            + '  File "/env/lib/python3.8/site-packages/apex/parallel/distributed.py", line 41, in apply_call\n'
            + "    call(coalesced, *extra_args)\n"
            + '  File "/env/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", li\n')
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not accused(d)
    assert "NCCL_DEBUG=INFO" in v["fix"]


def test_cut_after_carets_inside_the_next_frame_line_is_a_cut_traceback(tmp_path):
    text = ("[rank0]:   File \"/env/lib/python3.12/site-packages/recsys/types.py\", line 923, in forward\n"
            "[rank0]:     out = self.input_dist(ctx, *inputs).wait()\n"
            "[rank0]:           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
            "[rank0]:   File \"/env/lib/python3.12/site-packages/recsys/types.py\", line 319, in wait\n"
            "[rank0]:     ret: W = self._wait_impl()\n"
            "[rank0]:              ^^^^^^^^^^^^^^^^^\n"
            "[rank0]:   File \"/env/li\n")
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not accused(d)


def test_exception_after_carets_stays_the_error(tmp_path):
    """Near shape: the margin's exception line after the caret marks is the error itself, not a cut frame."""
    text = (_HEAD + '  File "/srv/proj/train.py", line 12, in main\n    load(path)\n    ^^^^^^^^^^\n'
            "FileNotFoundError: [Errno 2] No such file or directory: '/data/x'\n")
    v = diagnose_text(tmp_path, text)["verdict"]
    assert "input stops inside" not in v["summary"]


_PG_TOP = (_HEAD + '  File "/env/lib/python3.6/site-packages/graphlib/dist.py", line 89, in init_group\n'
           "    timeout=timeout)\n")


def test_caller_code_line_above_a_cut_in_init_process_group_is_source_text(tmp_path):
    text = ("2019-12-09 16:57:53,784 [Trainer-0] init_process_group start\n" + _PG_TOP
            + '  File "/env/lib64/python3.6/site-packages/torch/distributed/distributed_c10d.py", line 410, in '
              "init_process_group\n    timeout=timeout)\n"
            + '  File "/env/lib64/python3.6\n')
    v = diagnose_text(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == []
    assert "full error text" in v["fix"] and "GLOO_SOCKET_IFNAME" in v["fix"]


_NG = ('  File "/env/lib/python3.8/site-packages/loaderlib/service.py", line 446, in initialize\n'
       "    self._pg = dist.{call}\n")


def test_cut_at_a_new_group_call_is_the_group_set_up(tmp_path):
    text = (_HEAD * 2 + '  File "/job/train.py", line 20, in run\n' * 2
            + _NG.format(call='new_group(backend="gloo", timeout=timedelta(seconds=self._timeout))') * 2
            + '  File "/env/lib/\n')
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not accused(d)
    assert "new_group" in v["fix"] and "GLOO_SOCKET_IFNAME" in v["fix"]


def test_cut_at_a_call_that_only_passes_a_group_keeps_the_generic_fix(tmp_path):
    text = _HEAD + '  File "/job/train.py", line 20, in run\n' + _NG.format(call="get_rank(group=self._g)") + (
        '  File "/env/lib/\n')
    v = diagnose_text(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown" and "new_group" not in v["fix"]


def test_cut_in_ddp_cpu_constructor_reads_the_peers_side(tmp_path):
    text = ("Using distributed PyTorch with gloo backend\n" + _HEAD
            + '  File "/var/mnist.py", line 138, in main\n    model = Distributor(model)\n'
            + '  File "/opt/conda/lib/python3.6/site-packages/torch/nn/parallel/distributed_cpu.py", line 78, in '
              "__init__\n    self.sync_parameters()\n"
            + '  File "/opt/conda/lib/python3.6/site-packages/\n')
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not accused(d)
    assert "peer exited first" in v["fix"] and "GLOO_SOCKET_IFNAME" in v["fix"]


_DIED = ("ERROR 10-30 13:46:27 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 4242 died, exit code: -15\n"
         "INFO 10-30 13:46:27 multiproc_worker_utils.py:123] Killing local vLLM worker processes\n")


def test_sigterm_record_beside_another_process_cut_traceback_is_its_teardown(tmp_path):
    text = ("Process SpawnProcess-1:\n" + _DIED + _HEAD
            + '  File "/env/lib/python3.10/multiprocessing/process.py", line 108, in run\n'
            + "    self._target(*self._args, **self._kwargs)\n"
            + '  File "/env/lib/python3.10/site-packages/servelib/rpc/server.py\n')
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not accused(d)
    assert "torn down" in v["fix"] and "--disable-custom-all-reduce" in v["fix"]


def test_sigterm_record_alone_stays_an_outside_signal(tmp_path):
    v = diagnose_text(tmp_path, _DIED)["verdict"]
    assert v["cause"] == "signal"


def test_cut_in_the_loader_fetch_names_the_loader_causes(tmp_path):
    text = ("[rank1]:   File \"/env/lib/python3.12/site-packages/torch/utils/data/dataloader.py\", line 1243, in "
            "_try_get_data\n[rank1]:     data = self._data_queue.get(timeout=timeout)\n"
            "[rank1]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
            "[rank1]:   File \"/env/lib/python3.12/site-packages/torch/multiprocessing/reductions.py\", line 541, in "
            "rebuild_storage_fd\n")
    v = diagnose_text(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown"
    assert "ulimit -n" in v["fix"] and "set_sharing_strategy('file_system')" in v["fix"]



def test_cut_in_the_loader_fetch_chain_gives_its_advice_once(tmp_path):
    """A cut down __next__ -> _next_data -> _get_data -> _try_get_data is both the fetch chain parse names and a
    dataloader.py frame: the fix gives the loader's advice once (the chain's text), not a second copy in other words."""
    lib = "/usr/lib/python3.10/site-packages/torch/utils/data/dataloader.py"
    text = (_HEAD + '  File "train.py", line 10, in <module>\n    for batch in loader:\n'
            + f'  File "{lib}", line 633, in __next__\n    data = self._next_data()\n'
            + f'  File "{lib}", line 1328, in _next_data\n    idx, data = self._get_data()\n'
            + f'  File "{lib}", line 1294, in _get_data\n    success, data = self._try_get_data()\n')
    v = diagnose_text(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [])
    assert "fetching a batch" in v["fix"] and v["fix"].count("num_workers=0") == 1, v["fix"]

def test_three_line_paste_frame_code_and_carets_is_a_cut_traceback(tmp_path):
    """The whole paste is one frame, its code line and the caret marks (fewer lines than the cut-frame-head window):
    still the cut traceback."""
    text = ('  File "/srv/proj/train.py", line 12, in main\n    run(cfg)\n    ^^^^^^^^\n')
    v = diagnose_text(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == []
