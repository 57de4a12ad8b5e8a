"""Review 104's findings on round 104's diagnose fixes (1bd9376b..600fd34c), fixed in worktree y1.

- review 104 (2) finding 1: torch's test-harness child (multiprocessing's "Process process N:" header) whose
  traceback ends in Python's own OSError text -- "BrokenPipeError: [Errno 32] Broken pipe" from its pipe to the test
  runner (multiprocessing/connection.py), "ConnectionResetError: [Errno 104] ..." from its DataLoader's worker queue --
  is not c10d's bare "RuntimeError: Broken pipe" of the store's socket: rank 0 (the store host) is not named.
  c10d's bare text in such a child still names rank 0 (round 104's pytorch-11364).
- review 104 (2) finding 2 and review 104 (1) finding 5 (lead's ruling): rule H's lone untagged first-collective
  timeout (rank_missing, nobody named) stands beside a launcher's record of processes exiting (SIGTERM sent, a
  worker's exit code), but beside another failure with no rank (an NCCL error, a crash, an exception) the lines show
  more than one process's trouble: the base's connection set-up reading.
- review 104 (1) finding 6: the tokenizer comment's first line sits above R_TOKENIZER_TOO_LONG again.

Hosts, pids, paths and times are made up.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import verdict_accused as _verdict
from tests.test_diagnose_family_crash104 import _harness

STORE_FIX = "keep the store host alive until all ranks finish"


# --- review 104 (2) finding 1: a harness child's Python OSError is not c10d's store socket --------------------------
def _child(index: int, tail: str, error: str, stamp: str = "") -> str:
    """A harness child's traceback: multiprocessing's bootstrap, common_distributed's run_test, then TAIL's frames."""
    frames = {
        "pipe": ('  File "/opt/conda/lib/python3.8/site-packages/torch/testing/_internal/common_distributed.py", '
                 'line 510, in run_test\n'
                 "    parent_pipe.send(MultiProcessTestCase.Event.GET_TRACEBACK)\n"
                 '  File "/opt/conda/lib/python3.8/multiprocessing/connection.py", line 206, in send\n'
                 "    self._send_bytes(_ForkingPickler.dumps(obj))\n"
                 '  File "/opt/conda/lib/python3.8/multiprocessing/connection.py", line 368, in _send\n'
                 "    n = write(self._handle, buf)\n"),
        "loader": ('  File "train.py", line 40, in run\n'
                   "    for batch in loader:\n"
                   '  File "/opt/conda/lib/python3.8/site-packages/torch/utils/data/dataloader.py", line 1176, in '
                   "_try_get_data\n"
                   "    data = self._data_queue.get(timeout=timeout)\n"),
    }[tail]
    text = (f"test_all_gather_object (__main__.TestDistBackend) ... Process process {index}:\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.8/multiprocessing/process.py", line 315, in _bootstrap\n'
            "    self.run()\n"
            '  File "/opt/conda/lib/python3.8/multiprocessing/process.py", line 108, in run\n'
            "    self._target(*self._args, **self._kwargs)\n"
            '  File "/opt/conda/lib/python3.8/site-packages/torch/testing/_internal/common_distributed.py", line 481, '
            "in _run\n"
            "    self.run_test(test_name, parent_pipe)\n" + frames + error + "\n")
    return "".join(stamp + x + "\n" for x in text.split("\n")[:-1])


@pytest.mark.parametrize("index,tail,error,stamp", [
    (1, "pipe", "BrokenPipeError: [Errno 32] Broken pipe", ""),  # the reviewer's v10
    (2, "loader", "ConnectionResetError: [Errno 104] Connection reset by peer", ""),  # the reviewer's v12
    (3, "pipe", "BrokenPipeError: [Errno 32] Broken pipe", "02:21:53 "),
    (1, "loader", "ConnectionResetError: [Errno 104] Connection reset by peer", "2024-03-01 10:00:01 "),
    (2, "pipe", "ConnectionResetError: [Errno 104] Connection reset by peer", ""),
])
def test_a_harness_childs_python_oserror_names_no_store_host(tmp_path, index, tail, error, stamp):
    v, acc = _verdict(tmp_path, _child(index, tail, error, stamp))
    assert v["culprits"] != [0] and not acc, (v, acc)
    assert STORE_FIX not in v["fix"], v


@pytest.mark.parametrize("error", ["BrokenPipeError: [Errno 32] Broken pipe",
                                   "ConnectionResetError: [Errno 104] Connection reset by peer"])
def test_python_oserror_under_the_gloo_groups_construction_names_no_store_host(tmp_path, error):
    """Even with pytorch-11364's frames above it, Python's errno text is not c10d's bare store error."""
    v, acc = _verdict(tmp_path, _harness(1, error, cut_next=2))
    assert v["culprits"] != [0] and not acc, (v, acc)


@pytest.mark.parametrize("index,error,call", [
    (1, "RuntimeError: Broken pipe", "ctor"),  # pytorch-11364
    (2, "RuntimeError: Connection reset by peer", "barrier"),
])
def test_c10ds_bare_text_in_a_harness_child_still_names_the_store_host(tmp_path, index, error, call):
    v, acc = _verdict(tmp_path, _harness(index, error, call, cut_next=None))
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and index not in acc, (v, acc)
    assert STORE_FIX in v["fix"], v


# --- review 104 (2) finding 2, review 104 (1) finding 5: rule H's lone untagged timeout and what stands beside it ----
LONE = ("[E ProcessGroupNCCL.cpp:{at}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
        "OpType={op}, {numel}Timeout(ms)=600000) ran for 600121 milliseconds before timing out.\n")


def _lone(seq: int = 1, op: str = "ALLREDUCE", numel: bool = False, at: int = 616) -> str:
    return LONE.format(seq=seq, op=op, numel="NumelIn=1, NumelOut=1, " if numel else "", at=at)


UNSHOWN = "only one process, its rank not printed, is shown inside it"
NCCL_ERR = ("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled system "
            "error, NCCL version 2.14.3\n")
SEGV = "\nFatal Python error: Segmentation fault\n"
EXC = ('Traceback (most recent call last):\n  File "train.py", line 40, in <module>\n    dist.barrier()\n'
       "ValueError: bad value in config\n")
SIGTERM = "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4021 closing signal SIGTERM\n"
EXITED = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 1 (pid: 4022) of "
          "binary: /usr/bin/python\n")


@pytest.mark.parametrize("text", [
    NCCL_ERR + _lone(),  # the reviewer's u5
    _lone() + SEGV,  # the reviewer's u3
    _lone(numel=True, at=475) + EXC,  # an exception no family reads
    _lone(seq=2, op="BROADCAST") + NCCL_ERR,
    _lone(numel=True) + SIGTERM + NCCL_ERR,  # a launcher's record and an NCCL error
])
def test_a_lone_untagged_timeout_beside_another_unranked_failure_is_not_one_process_alone(tmp_path, text):
    v, acc = _verdict(tmp_path, text)
    assert UNSHOWN not in v["summary"] and v["cause"] != "rank_missing" and not acc, (v, acc)
    assert v["cause"] == "network_setup", v


@pytest.mark.parametrize("text", [
    _lone(),  # the reviewer's u1: rule H, as round 104's experts labelled deepspeed-course-17
    _lone(numel=True, at=475) + SIGTERM + EXITED,  # review 1's lone3: a launcher's record of processes exiting
    _lone(numel=True) + SIGTERM,
    _lone(seq=2) + EXITED,
])
def test_a_lone_untagged_timeout_alone_or_beside_a_launchers_exit_record_is_rule_h(tmp_path, text):
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and UNSHOWN in v["summary"] and not acc, (v, acc)


# --- review 104 (1) finding 6: the tokenizer comment is whole again ---------------------------------------------------
def test_the_tokenizer_comment_sits_above_its_regex_not_above_r_engine_nccl():
    src = (Path(__file__).parent.parent / "ncclDoctor" / "diagnose" / "signatures.py").read_text().split("\n")
    head = next(i for i, x in enumerate(src) if x.startswith("# transformers' tokenizer (tokenization_utils_base)"))
    assert src[head + 1].startswith('# "Token indices sequence length is longer'), src[head:head + 3]
    code = next(x for x in src[head:] if not x.startswith("#"))
    assert code.startswith("R_TOKENIZER_TOO_LONG = "), src[head:head + 6]
