"""Round 64's reads of a failure whose lines say less than usual: a thread the host refused (its fix names the
thread limit), a traceback the paste cut inside its frames, a watchdog's rethrow whose header was cut off. Each
test has the shape that must be read and a near shape that must not be read that way. Paths, pids and times are
made up; the wordings are CPython's, torch's and torchrun's."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_AGENT = "[2025-01-07 09:12:44,118] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 4411 " \
         "closing signal SIGTERM\n"


def _thread_tb(error: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "tools/train_net.py", line 71, in <module>\n'
            "    main()\n"
            '  File "tools/train_net.py", line 58, in main\n'
            "    logger = SummaryWriter(log_dir)\n"
            '  File "/opt/py/lib/python3.10/site-packages/torch/utils/tensorboard/writer.py", line 247, in __init__\n'
            "    self._get_file_writer()\n"
            '  File "/opt/py/lib/python3.10/threading.py", line 935, in start\n'
            "    _start_new_thread(self._bootstrap, ())\n"
            f"{error}\n" + _AGENT)


def test_a_thread_the_host_refused_names_the_thread_limit(tmp_path):
    """CPython's "can't start new thread" (pthread_create failing): the host's or container's thread / process limit
    is spent; no cause class covers it, nobody is named, and the fix names the limit and the leaked writer
    threads (not only "read the full output")."""
    d = _report(tmp_path, _thread_tb("RuntimeError: can't start new thread"))
    v = d["verdict"]
    assert v["cause"] == "unknown" and not _accused(d), v
    assert "ulimit -u" in v["fix"] and "writer.close()" in v["fix"] and "pids limit" in v["fix"], v


def test_another_runtime_error_in_the_same_frames_gets_no_thread_fix(tmp_path):
    """The same frames ending in another RuntimeError: nothing says the thread limit was hit."""
    v = _verdict(tmp_path, _thread_tb("RuntimeError: the log directory is not writable"))
    assert "ulimit -u" not in v["fix"], v
