"""How diagnose reads CUDA device errors and a machine's OSErrors (round 110, session 47, fixer f9): the fix words of a
GPU busy under an exclusive compute mode, of an uncorrectable ECC error and of an invalid device ordinal; torch 1.x's
bare 'Address already in use' after the reporter's own words and a colon; the DataLoader's own 'Too many open files.
Communication with the workers is no longer possible'; multiprocessing's queue feeder thread's broken pipe ending the
input. Each test reads the shape from lines other than the corpus case's own (other ranks, numbers, paths, names), and
a near shape that keeps its old reading. Hosts, pids and paths are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.verdict import unread
from tests.conftest import verdict_accused


# --- a GPU busy or unavailable: the fix words ----------------------------------------------------------------------
def test_gpu_busy_fix_names_one_process_per_gpu_and_no_context_in_the_parent(tmp_path):
    """Rule AT (1): cudaErrorDevicesUnavailable raised untagged is cuda_error, nobody; the fix says to run one process
    per GPU under an exclusive compute mode and to create no CUDA context in the parent before spawning the workers."""
    text = ("Traceback (most recent call last):\n"
            '  File "/home/u7/exp/run_ddp.py", line 88, in <module>\n'
            "    model = Net().cuda()\n"
            "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\n"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
            "might be incorrect.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc and v["culprits"] == [], v
    assert "run one process per GPU" in v["fix"], v
    assert "create no CUDA context in the parent before spawning the workers" in v["fix"], v


def test_gpu_busy_under_torch_load_keeps_its_map_location_words(tmp_path):
    """Near: the same error raised inside torch.load's deserializer keeps its map_location advice first, and the
    exclusive-mode words after it."""
    text = ("[rank1]: Traceback (most recent call last):\n"
            '[rank1]:   File "/srv/app/train.py", line 40, in <module>\n'
            "[rank1]:     state = torch.load(ckpt_path)\n"
            '[rank1]:   File "/usr/lib/python3/site-packages/torch/serialization.py", line 1014, in load\n'
            "[rank1]:     return _load(opened_zipfile, map_location, pickle_module, **pickle_load_args)\n"
            '[rank1]:   File "/usr/lib/python3/site-packages/torch/serialization.py", line 1422, in _load\n'
            "[rank1]:     result = unpickler.load()\n"
            "[rank1]: RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert v["fix"].startswith("The error is raised inside torch.load"), v
    assert "run one process per GPU" in v["fix"], v


# --- an uncorrectable ECC error: the fix words ---------------------------------------------------------------------
def test_ecc_uncorrectable_fix_names_reporting_the_node_and_restarting_without_it(tmp_path):
    """Rules AT (1), AN (2): cudaErrorECCUncorrectable in backward, then the allocator's abort, no rank or host shown:
    cuda_error, nobody; the fix reports the node, restarts from the last checkpoint without it and prints host and
    rank with every exception to find it."""
    text = ('  File "/scratch/job77/env/lib/python3.9/site-packages/torch/autograd/__init__.py", line 173, in '
            "backward\n"
            "    Variable._execution_engine.run_backward(\n"
            "RuntimeError: transform: failed to synchronize: cudaErrorECCUncorrectable: uncorrectable ECC error "
            "encountered\n"
            "terminate called after throwing an instance of 'c10::Error'\n"
            "  what():  CUDA error: uncorrectable ECC error encountered\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "report the node to the cluster admins" in v["fix"].lower(), v
    assert "restart from the last checkpoint without that node" in v["fix"], v
    assert "print them with every exception" in v["fix"], v


def test_nvlink_uncorrectable_keeps_its_own_fix(tmp_path):
    """Near: an uncorrectable NVLink error is the links' fault: its fix stays the NVLink one, without the ECC words;
    the ECC shape beside it does get them."""
    v, _ = verdict_accused(tmp_path, "[rank6]: RuntimeError: CUDA error: uncorrectable NVLink error was detected "
                                     "during the execution\n")
    assert v["cause"] == "cuda_error" and "nvlink" in v["fix"].lower(), v
    assert "restart from the last checkpoint without that node" not in v["fix"], v
    e, _ = verdict_accused(tmp_path, "[rank6]: RuntimeError: CUDA error: uncorrectable ECC error encountered\n")
    assert "restart from the last checkpoint without that node" in e["fix"], e


# --- invalid device ordinal: the fix words -------------------------------------------------------------------------
def test_invalid_ordinal_fix_names_local_rank_not_global_rank(tmp_path):
    """Rule AU (2): 'invalid device ordinal' is the launch setting every worker shares: config, nobody, a rank tag
    or not; the fix names torch.cuda.set_device(local_rank), not the global rank."""
    for text in ("[rank11]: RuntimeError: CUDA error: invalid device ordinal\n",
                 "ERROR 2024-02-03T10:11:12Z replica worker-2: RuntimeError: CUDA error: invalid device ordinal\n"):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "config" and not acc and v["culprits"] == [], v
        assert "use torch.cuda.set_device(local_rank), not the global rank" in v["fix"], v
        assert "do not use the global rank as a device index" in v["fix"], v  # the corpus's words kept


# --- torch 1.x's bare "Address already in use" after the reporter's words ------------------------------------------
def test_bare_in_use_after_a_colon_is_the_store_port_taken(tmp_path):
    """Rule AN (2): the whole exception 'RuntimeError: Address already in use' after the reporter's own words and a
    colon, full-width or ASCII (a rank prefix or not), is the store that cannot bind: store_rendezvous, nobody; the fix
    says not to run two jobs on one node with the same master port."""
    for text in ("运行时出错：RuntimeError: Address already in use\n",
                 "[rank1]: launch failed:RuntimeError: Address already in use\n"):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "store_rendezvous" and not acc and v["culprits"] == [], (text, v)
        assert "Don't run two jobs on one node with the same master port" in v["fix"], v
    assert S.R_BARE_IN_USE.search("出错：RuntimeError: Address already in use")


def test_in_use_of_another_exception_or_more_words_is_not_the_store(tmp_path):
    """Near: Python's own OSError [Errno 98] after the reporter's words (an app's server) and an exception whose
    message says more than the bind's words are not the store's bind; the bare one is."""
    for text in ("webui：OSError: [Errno 98] Address already in use\n",
                 "failed：RuntimeError: Address already in use by the metrics exporter on 9100\n"):
        v, _ = verdict_accused(tmp_path, text)
        assert v["cause"] != "store_rendezvous", (text, v)
    assert not S.R_BARE_IN_USE.search("x：OSError: [Errno 98] Address already in use")
    assert S.R_BARE_IN_USE.search("x：RuntimeError: Address already in use")


# --- the DataLoader's own "Too many open files" check ---------------------------------------------------------------
_DL_FD = ("RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase "
          "the limit using `ulimit -n` in the shell or change the sharing strategy by calling "
          "`torch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code\n")


def test_dataloader_own_fd_check_reads_as_its_shared_tensor_channel(tmp_path):
    """The loader's own _try_get_data check out of descriptors is its shared-tensor channel to the workers:
    dataloader_shm; untagged nobody (rules AL (1), AG), under a rank tag that rank (rule A)."""
    text = ("Traceback (most recent call last):\n"
            '  File "/work/recon/train_net.py", line 402, in <module>\n'
            "    run()\n"
            '  File "/work/recon/train_net.py", line 275, in run\n'
            "    for it, item in enumerate(loader):\n"
            '  File "/opt/venv/lib/python3.9/site-packages/torch/utils/data/dataloader.py", line 1046, in '
            "_try_get_data\n"
            "    raise RuntimeError(\n" + _DL_FD)
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "dataloader_shm" and not acc and v["culprits"] == [], v
    assert "set_sharing_strategy('file_system')" in v["fix"] and "ulimit -n" in v["fix"], v
    assert "the DataLoader's own check" in v["summary"], v
    v, acc = verdict_accused(tmp_path, "[rank4]: " + _DL_FD)
    assert v["cause"] == "dataloader_shm" and acc == {4}, v


def test_bare_errno_24_keeps_its_unknown(tmp_path):
    """Near: a bare 'OSError: [Errno 24] Too many open files' with no loader frame stays rule BZ (1)'s unknown; the
    loader's own check does not."""
    v, _ = verdict_accused(tmp_path, "OSError: [Errno 24] Too many open files: '/data/shards/part-00017.bin'\n")
    assert v["cause"] == "unknown", v
    assert S.R_DL_FD_EXC.search(_DL_FD) and not S.R_DL_FD_EXC.search("OSError: [Errno 24] Too many open files")


# --- multiprocessing's queue feeder thread: a broken pipe ending the input ------------------------------------------
_FEED = ["Traceback (most recent call last):",
         '  File "/opt/py310/lib/python3.10/multiprocessing/queues.py", line 251, in _feed',
         "    send_bytes(obj)",
         '  File "/opt/py310/lib/python3.10/multiprocessing/connection.py", line 205, in send_bytes',
         "    self._send_bytes(m[offset:offset + size])",
         '  File "/opt/py310/lib/python3.10/multiprocessing/connection.py", line 416, in _send_bytes',
         "    self._send(header + buf)",
         '  File "/opt/py310/lib/python3.10/multiprocessing/connection.py", line 373, in _send',
         "    n = write(self._handle, buf)",
         "BrokenPipeError: [Errno 32] Broken pipe"]


def test_feeder_broken_pipe_ending_the_input_is_unknown(tmp_path):
    """Rules BS (5), BZ (1): the feeder thread's broken pipe with nothing after it (blank lines, a fence) shows a
    pipe whose reader went away, not nothing: unknown, nobody named even under a rank tag (the tag is the writer's);
    the fix finds the reader's own error and closes/joins the queues."""
    for text in ("\n".join(_FEED) + "\n\n", "```\n" + "\n".join(_FEED) + "\n```\n",
                 "".join(f"[rank3]: {t}\n" for t in _FEED)):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (text, v)
        assert "find the first error of the process reading the queue" in v["fix"], v
        assert "close/join the multiprocessing queues before the main process exits" in v["fix"], v


def test_feeder_broken_pipe_with_the_run_going_on_stays_teardown(tmp_path):
    """Near: the same traceback followed by the run's own progress lines is teardown the process outlived (rules N,
    AH (3)): none, nobody; the input ending on it is not."""
    text = "\n".join(_FEED) + "\nepoch 4 step 120 loss 0.4412\nepoch 4 step 140 loss 0.4391\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    e, _ = verdict_accused(tmp_path, "\n".join(_FEED) + "\n")
    assert e["cause"] == "unknown" and e["fix"].startswith(unread._FEED_PIPE_FIX[:40]), e
