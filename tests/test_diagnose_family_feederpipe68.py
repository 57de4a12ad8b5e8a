"""How diagnose reads multiprocessing's queue feeder thread writing into a closed pipe (round 68, session 25:
lambdal-deeplearning-benchmark's ResNet-50 run with --prof): the thread Queue.put starts (multiprocessing/queues.py's
_feed) prints its own traceback ending in "BrokenPipeError: [Errno 32] Broken pipe" when the queue's reader has closed
(a DataLoader iterator shut down before its workers finished, an epoch cut short), and the process goes on. A local
pipe between one host's processes, not a socket between ranks nor a peer rank gone: with nothing failing after it,
none (rules N, AH (3)); a real failure beside it keeps its own class. Each test reads the shape from lines other than
the corpus case's own (other paths, Python versions, training output), and a near shape that must NOT be read that
way. Paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _feeder_tb(py: str = "3.8", lib: str = "/usr/local/lib") -> str:
    return ("Traceback (most recent call last):\n"
            f'  File "{lib}/python{py}/multiprocessing/queues.py", line 245, in _feed\n'
            "    send_bytes(obj)\n"
            f'  File "{lib}/python{py}/multiprocessing/connection.py", line 200, in send_bytes\n'
            "    self._send_bytes(m[offset:offset + size])\n"
            f'  File "{lib}/python{py}/multiprocessing/connection.py", line 411, in _send_bytes\n'
            "    self._send(header + buf)\n"
            f'  File "{lib}/python{py}/multiprocessing/connection.py", line 368, in _send\n'
            "    n = write(self._handle, buf)\n"
            "BrokenPipeError: [Errno 32] Broken pipe\n")


def _epoch(n: int) -> str:
    return "".join(f"Epoch {n} step {i}: loss {2.5 - i / 10:.3f}  1840.2 img/s\n" for i in range(5))


def test_a_queue_feeders_broken_pipe_between_epochs_that_finish_is_nothing_failing(tmp_path):
    """Two epochs, each followed by the feeder thread's BrokenPipeError, then the run's own end: none, nobody named,
    the fix saying nothing needs fixing."""
    text = _epoch(0) + _feeder_tb() + "saving checkpoint epoch 0\n" + _epoch(1) + _feeder_tb("3.10", "/opt/conda/lib") \
        + "saving checkpoint epoch 1\nTraining finished\n"
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "early_exit" not in {k["kind"] for k in d["conclusions"]}, d["conclusions"]


def test_a_broken_pipe_raised_in_the_main_threads_own_pipe_send_is_not_the_feeders(tmp_path):
    """The near shape: the same BrokenPipeError raised by the script's own Connection.send (no _feed frame above it)
    ends the process that wrote -- it is read as a failure, not as the feeder's teardown noise."""
    text = _epoch(0) + ("Traceback (most recent call last):\n"
                        '  File "train.py", line 212, in <module>\n'
                        "    conn.send(result)\n"
                        '  File "/usr/local/lib/python3.8/multiprocessing/connection.py", line 206, in send\n'
                        "    self._send_bytes(_ForkingPickler.dumps(obj))\n"
                        '  File "/usr/local/lib/python3.8/multiprocessing/connection.py", line 368, in _send\n'
                        "    n = write(self._handle, buf)\n"
                        "BrokenPipeError: [Errno 32] Broken pipe\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "none", v


def test_a_feeders_broken_pipe_beside_a_real_failure_keeps_that_failures_class(tmp_path):
    """The near shape: the feeder's traceback, then a worker killed by the OOM killer in torchrun's record: the
    record's host_oom stands, the pipe adds nothing."""
    record = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
              "============================================================\n"
              "train.py FAILED\n"
              "------------------------------------------------------------\n"
              "Failures:\n"
              "  <NO_OTHER_FAILURES>\n"
              "------------------------------------------------------------\n"
              "Root Cause (first observed failure):\n"
              "[0]:\n"
              "  time      : 2024-05-02_10:11:12\n"
              "  host      : node-a\n"
              "  rank      : 2 (local_rank: 2)\n"
              "  exitcode  : -9 (pid: 41872)\n"
              "  error_file: <N/A>\n"
              "  traceback : Signal 9 (SIGKILL) received by PID 41872\n"
              "============================================================\n")
    v = _report(tmp_path, _epoch(0) + _feeder_tb() + record)["verdict"]
    assert v["cause"] == "host_oom", v
