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


# --- a paste that stops inside a traceback's frames: a process raised, its error not shown (rules AB (2), AN (1)) --
_FRAMES = ("Traceback (most recent call last):\n"
           '  File "/srv/job/train.py", line 88, in <module>\n'
           "    trainer.fit(model)\n"
           '  File "/opt/py/lib/python3.10/site-packages/lightning/strategies/ddp.py", line 204, in setup\n'
           "    self.configure_ddp()\n"
           '  File "/opt/py/lib/python3.10/site-packages/lightning/strategies/ddp.py", line 291, in configure_ddp\n')


def test_a_paste_cut_inside_a_tracebacks_frames_is_a_failure_not_nothing(tmp_path):
    """The input ends on a frame line (or the code line under it): some process raised, and the paste stops before
    its exception -- cause unknown, nobody named (its rank is not the proven first failure), never 'none'; the fix
    asks for the full traceback."""
    for text in (_FRAMES, _FRAMES + "    self.model = self._setup_model(self.model)\n\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "unknown" and v["confidence"] == "low" and not _accused(d), v
        assert "full traceback" in v["fix"], v


def test_a_cut_traceback_behind_a_collectors_prefix_on_every_line_blank_ones_too(tmp_path):
    """docker compose's "name  | " before every line, the trailing blank line's too: still the traceback's end."""
    text = "\n".join(f"trainer-1  | {x}" for x in (_FRAMES + "    self.configure_ddp()\n").split("\n"))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and "stops inside" in v["summary"], v


def test_a_ranked_cut_traceback_names_the_rank_but_accuses_nobody(tmp_path):
    text = "".join(f"[rank4]: {x}\n" for x in _FRAMES.splitlines())
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "unknown" and "rank 4" in d["verdict"]["summary"] and not _accused(d), d["verdict"]


def test_a_traceback_that_ends_in_its_exception_is_not_read_as_cut(tmp_path):
    """The same frames down to a bare name -- an exception without a message (KeyboardInterrupt) -- end the
    traceback: the input is not cut inside it."""
    v = _verdict(tmp_path, _FRAMES + "    self.model = self._setup_model(self.model)\nKeyboardInterrupt\n")
    assert "stops inside" not in v["summary"], v


def test_faulthandlers_stack_dump_at_the_end_is_no_cut_traceback(tmp_path):
    """faulthandler's dump of a live stack ('File "x.py", line N in f', no comma: dump_traceback_later on a hang)
    ends a log without anything having raised: no raised error is read from it. Since round 88 the dump itself is
    read as rule BD (2)'s lone stack of a process standing still (unknown, nobody named: test_diagnose_family_
    stackdump88), never as a traceback cut before its error."""
    text = ("Thread 0x00007f3a2b7fe700 (most recent call first):\n"
            '  File "/opt/py/lib/python3.10/threading.py", line 324 in wait\n'
            '  File "/srv/job/train.py", line 88 in <module>\n')
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and "stops inside" not in v["summary"], v
    assert "faulthandler's dump" in v["summary"], v


# --- a watchdog rethrow's tail without its header (lead rule AF (3)) ------------------------------------------------
_WD_TAIL = ("Exception raised from ncclCommWatchdog at /build/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1521 "
            "(most recent call first):\n"
            "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f1c2e5a6897 in "
            "/opt/py/lib/python3.10/site-packages/torch/lib/libc10.so)\n"
            "frame #1: <unknown function> + 0xe5aa84 (0x7f1c2f8a3a84 in "
            "/opt/py/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)\n"
            "frame #2: <unknown function> + 0xdc253 (0x7f1c6c4b0253 in /lib/x86_64-linux-gnu/libstdc++.so.6)\n\n")


def test_a_watchdog_rethrow_tail_alone_is_a_failure_of_unknown_cause(tmp_path):
    d = _report(tmp_path, _WD_TAIL + _AGENT)
    v = d["verdict"]
    assert v["cause"] == "unknown" and not _accused(d), v
    assert "every rank" in v["fix"] and "TORCH_NCCL_DUMP_ON_TIMEOUT" in v["fix"], v


def test_a_watchdog_tail_under_its_own_timeout_keeps_the_timeouts_reading(tmp_path):
    """The same tail under its header (the watchdog's timeout with its SeqNum): the timeout is read, not 'cut'."""
    head = ("[rank1]:[E107 09:12:40.118803 4412 ProcessGroupNCCL.cpp:1521] [PG ID 0 PG GUID 0(default_pg) Rank 1] "
            "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=412, OpType=ALLREDUCE, NumelIn=1048576, "
            "NumelOut=1048576, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n")
    v = _verdict(tmp_path, head + _WD_TAIL + _AGENT)
    assert v["cause"] != "unknown" and "rethrown" not in v["fix"], v


def test_the_cut_is_read_at_the_end_of_an_input_longer_than_a_read_block(tmp_path):
    """The input's last lines are kept across the scan's blocks (load._keep_tail): a long run of step lines, then
    the cut traceback, reads as one short paste does."""
    filler = "".join(f"step {i} loss 0.{i % 97:02d} lr 3e-4 tokens/s 51234\n" for i in range(60000))
    v = _verdict(tmp_path, filler + _FRAMES)
    assert v["cause"] == "unknown" and "stops inside" in v["summary"], v
