"""Review 98 (session 39), findings 2 and 3: two readings of round 99's fixes that held for wider shapes than meant.

- Finding 2 (ingest.numbered_pieces): a traceback flattened onto one line WITHOUT a log viewer's numbers was cut at
  stray digits (a code line's "* 0", a version's "2.18.1", "Cuda failure 2") and lost its launcher tag: gpu_oom of
  rank 1 read as cuda_error, nobody named. A numbered paste that starts at its "Traceback (most recent call last):"
  header glued that header onto every piece and read as nothing failed. Now a number cuts only where a traceback line
  starts after it, found before the next frame; the header is a piece of its own and only a launcher's prefix goes
  before each piece.
- Finding 3 (readers.nccl._stack_dump): gdb's frames of a crashed process ("Program terminated with signal SIGSEGV"
  over a core, "Thread N received signal SIGSEGV" in a live session) read as "a live stack while the job sat still".
  Now gdb's crash-signal line is the crash (readers.crash), its frames name the library it died in, and they are no
  stack shown (as lldb's crash stop already was).

Each has the reviewer's input, varied, and the shape the original fix was for. Paths and numbers are made up."""

from __future__ import annotations

from ncclDoctor.diagnose.ingest import numbered_pieces
from tests.conftest import verdict_accused


# --- finding 2: an unnumbered flattened traceback is not cut at stray digits --------------------------------------
def _flat_nonum(rank: int, tail: str, version: str = "2.18.1", cuda: int = 2) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):   File \"/ws/train.py\", line 88, in <module>     "
            f"x = torch.ones(10, device=dev){tail}  File \"/ws/train.py\", line 41, in step     "
            "dist.all_reduce(x, group=g1)  File \"/usr/lib/python3/site-packages/torch/distributed/"
            "distributed_c10d.py\", line 2050, in all_reduce     work = group.allreduce([tensor], opts) "
            "torch.distributed.DistBackendError: "
            "NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled cuda error (run with "
            f"NCCL_DEBUG=INFO for details), NCCL version {version} ncclUnhandledCudaError: Call to CUDA function "
            f"failed. Last error: Cuda failure {cuda} 'out of memory'\n")


def test_an_unnumbered_flattened_traceback_keeps_its_rank_and_its_oom(tmp_path):
    """The reviewer's flat_nonum.log, varied (rank, a code line ending in a digit, NCCL's version): no viewer's numbers,
    so the line is read whole -- gpu_oom of the tagged rank, as before round 99."""
    for rank, tail, version in ((1, " * 0", "2.18.1"), (3, " + 1", "2.19.3"), (0, " * 0", "2.21.5"),
                                (2, " * 10", "2.2.1")):
        text = _flat_nonum(rank, tail, version)
        assert numbered_pieces(text.rstrip("\n")) is None, (rank, tail)
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "gpu_oom" and v["culprits"] == [rank], (rank, tail, v)


def test_stray_digits_after_a_frame_are_no_viewer_numbers():
    """A frame after a digit, then values further on that happen to count up ("1 ncclUnhandled", "2 'out"): not
    one of them starts a traceback's line, so nothing is cut."""
    text = ('step 0  File "/ws/a.py", line 3, in f     g(1) NCCL version 2.18.1 ncclX: Cuda failure 2 '
            "'out of memory' and 3 more")
    assert numbered_pieces(text) is None


def _numbered(start: int, lines: list[str], lead: str = "") -> str:
    return lead + "".join(f"{start + i}{x}" for i, x in enumerate(lines))


_RNG = ['  File "/ws/deepspeed/runtime/data_pipeline/data_loader.py", line 369, in __iter__',
        "    synchronize_rng_states(self.rng_types, self.generator)",
        '  File "/ws/accelerate/utils/random.py", line 90, in synchronize_rng_states',
        "    torch.distributed.broadcast(rng_state, 0)",
        "RuntimeError: Invalid mt19937 state"]


def test_a_numbered_paste_with_its_traceback_header_reads_as_without_it(tmp_path):
    """The reviewer's num_lead.log, varied (numbers, launcher tag or none): the viewer numbered the "Traceback (most
    recent call last):" header too. It is a piece of its own, never glued onto the frames; the line reads as the
    same paste without the header (round 99's deepspeed-3483 shape): desync, nobody named."""
    for start, lead in ((7649, "[rank3]: "), (118, ""), (42, "[default1]:"), (100001, "[rank0]: ")):
        text = _numbered(start, ["Traceback (most recent call last):", *_RNG], lead)
        pieces = numbered_pieces(text)
        assert pieces is not None and len(pieces) == 6, pieces
        assert pieces[0] == lead + "Traceback (most recent call last):", pieces
        assert all(p.count("Traceback") <= 1 and not p[len(lead):].startswith(str(start)) for p in pieces), pieces
        assert pieces[-1] == lead + "RuntimeError: Invalid mt19937 state", pieces
        v, acc = verdict_accused(tmp_path, text + "\n")
        assert v["cause"] == "desync" and not v["culprits"] and not acc, (start, lead, v)
        assert "synchronize_rng_states" in v["summary"], v["summary"]


def test_the_header_before_an_unnumbered_frame_list_is_its_own_piece():
    """A numbered paste after an unnumbered header: the header is a piece of its own, the prefix before each piece
    is only the launcher's."""
    text = _numbered(7650, _RNG, "[rank3]: Traceback (most recent call last): ")
    pieces = numbered_pieces(text)
    assert pieces[0] == "[rank3]: Traceback (most recent call last):", pieces
    assert pieces[1] == '[rank3]:   File "/ws/deepspeed/runtime/data_pipeline/data_loader.py", line 369, in __iter__'


def test_the_round_99_shape_without_the_header_still_reads_as_its_lines(tmp_path):
    """The original fix's shape (deepspeed-3483: numbers from the first frame on), varied: still cut into its lines
    and read as the RNG-state broadcast's desync."""
    for start, lead in ((7650, "[rank3]: "), (12, "")):
        text = _numbered(start, _RNG, lead)
        pieces = numbered_pieces(text)
        assert pieces == [lead + x for x in _RNG], pieces
        v, acc = verdict_accused(tmp_path, text + "\n")
        assert v["cause"] == "desync" and not acc, v


def test_a_long_numbered_paste_is_cut_only_at_its_traceback_lines():
    """The reviewer's flat4000.log shape: two numbered frames, then numbered training prints whose values ("tokens
    4096") hold digits: the cuts stop where the traceback's lines stop, never at a value."""
    rows = ['  File "/a/b.py", line 10, in f', "    g()", '  File "/a/b.py", line 10, in f', "    g()"]
    rows += [f"INFO step {i} loss 0.{i} lr 1e-4 tokens {4096 * i}" for i in range(400)]
    pieces = numbered_pieces(_numbered(1000, rows))
    assert pieces is not None and len(pieces) == 4, len(pieces or [])
    assert pieces[:3] == rows[:3], pieces[:3]


# --- finding 3: gdb's frames of a crash are the crash, not a live stack ------------------------------------------
def _gdb_core(stop: str, lib: str = "/usr/lib/x86_64-linux-gnu/libnccl.so.2", func: str = "ncclProxyProgress") -> str:
    return ("Core was generated by `/usr/bin/python3 train.py --local_rank=0'.\n"
            f"{stop}\n"
            f"#0  0x00007f3a1c2b5e10 in {func} () from {lib}\n"
            f"#1  0x00007f3a1c2b6f22 in ncclProxyService () from {lib}\n"
            "#2  0x00007f3a5e2c5609 in start_thread () from /lib/x86_64-linux-gnu/libpthread.so.0\n")


def test_a_gdb_core_of_a_crash_inside_nccl_is_that_crash(tmp_path):
    """The reviewer's gdb_core.log, varied (signal, old gdb's numbered signal, NCCL's path and function): a core dump's
    crash in NCCL's proxy thread reads as NCCL's own crash, never as a stack shown while the job sat still."""
    for stop, lib, func in (
            ("Program terminated with signal SIGSEGV, Segmentation fault.", "/usr/lib/x86_64-linux-gnu/libnccl.so.2",
             "ncclProxyProgress"),
            ("Program terminated with signal SIGBUS, Bus error.", "/opt/nccl/lib/libnccl.so.2.21.5",
             "ncclProxyProgress"),
            ("Program terminated with signal 11, Segmentation fault.", "/usr/lib/x86_64-linux-gnu/libnccl.so",
             "ncclProxyProgress"),
            ("Program terminated with signal SIGSEGV, Segmentation fault.", "/opt/nccl/lib/libnccl.so.2",
             "pncclAllReduce")):
        v, acc = verdict_accused(tmp_path, _gdb_core(stop, lib, func))
        assert "debugger's view" not in v["summary"] and "sat still" not in v["summary"], (stop, v)
        assert v["cause"] == "nccl_internal" and not acc, (stop, v)


def test_a_live_gdb_session_stopped_on_a_crash_signal_is_that_crash(tmp_path):
    """The reviewer's gdb_live_segv.log, varied (thread, signal): gdb stopped the process on SIGSEGV / SIGABRT, then
    "(gdb) bt": the frames are the crash's, not a live stack."""
    for head in ('Thread 12 "python" received signal SIGSEGV, Segmentation fault.',
                 "Program received signal SIGSEGV, Segmentation fault.",
                 'Thread 3 "pt_main_thread" received signal SIGBUS, Bus error.'):
        text = (f"{head}\n[Switching to Thread 0x7ffe2d7fe700 (LWP 4242)]\n"
                "0x00007fff2c3d1e10 in ncclProxyProgress () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
                "(gdb) bt\n"
                "#0  0x00007fff2c3d1e10 in ncclProxyProgress () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
                "#1  0x00007fff2c3d2f22 in ncclProxyService () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
                "#2  0x00007ffff7bbb609 in start_thread () from /lib/x86_64-linux-gnu/libpthread.so.0\n")
        v, acc = verdict_accused(tmp_path, text)
        assert "debugger's view" not in v["summary"] and "sat still" not in v["summary"], (head, v)
        assert v["cause"] == "nccl_internal" and not acc, (head, v)


def test_a_gdb_crash_outside_nccl_is_a_native_crash_not_a_stack_shown(tmp_path):
    """Near shape: the crash is in torch's library, an NCCL frame further down: a native crash (unknown, the signal
    said), not NCCL's bug and not a stack shown."""
    text = ("Program terminated with signal SIGSEGV, Segmentation fault.\n"
            "#0  0x00007f3a1c2b5e10 in c10d::ProcessGroupNCCL::workCleanupLoop() () from /opt/torch/lib/"
            "libtorch_cuda.so\n"
            "#1  0x00007f3a1c2b6f22 in ncclCommAbort () from /opt/nccl/lib/libnccl.so.2\n")
    v, acc = verdict_accused(tmp_path, text)
    assert "debugger's view" not in v["summary"] and "sat still" not in v["summary"], v
    assert v["cause"] == "unknown" and "SIGSEGV" in v["summary"] and not acc, v


def test_a_gdb_stack_taken_by_interrupting_a_live_process_is_still_a_stack_shown(tmp_path):
    """The original fix's shape (round 99's nccl-750): gdb interrupted a live process (SIGINT, no crash) and its "bt"
    stands in NCCL's kernel launch: still a stack shown, unknown, nobody named."""
    for head in ("Program received signal SIGINT, Interrupt.\n", "", "(gdb) bt\n"):
        text = (head + "#0  0x00007f3a1b000c50 in ?? () from /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
                "#1  0x00007f3a1ae67f06 in cudaLaunchKernel () from /usr/local/cuda/lib64/libcudart.so.12\n"
                "#2  0x00007f3adf7a56c8 in ncclLaunchKernel(ncclComm*, ncclKernelPlan*) () from "
                "/opt/nccl/lib/libnccl.so.2\n"
                "#3  0x00007f3adf7c494d in ncclGroupEndInternal() ()\n"
                "#4  0x00007f3adf7c5301 in ncclGroupEnd () from /opt/nccl/lib/libnccl.so.2\n")
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "unknown" and not v["culprits"] and not acc, (head, v)
        assert "debugger's view (gdb" in v["summary"] and "kernel launch" in v["summary"], (head, v["summary"])
