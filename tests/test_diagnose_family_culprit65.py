"""How diagnose reads round 65's cases of fixer g3 (session 23): two processes' exception lines interleaved into one
("RuntimeError    : <the other's source line>Expected to mark a variable ready only once.", rules J, AW), a connection
error raised where a rank fetches its next DataLoader batch (rules A, AN (1), F's class), a CUDA OOM that names
the failing process by its pid only (rule BA (2), extending U (3)), and round 64's deepmd-kit-1774: a bare "[N] " label
the input ties to the rank, one rank's communicator creation failing beside a rank shown going on (rule AM (3) over
V (2)). Each test reads the shape from lines other than the corpus case's own (other ranks, sizes, paths, wordings),
and a near shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


# --- two processes' tracebacks ending at once, their last lines interleaved ---------------------------------------
def test_an_exception_class_split_from_its_colon_by_another_writers_indent_is_that_exception(tmp_path):
    """Two processes raising DDP's reducer error at once: one's class, the other's frame indentation, the first's
    ': ', the other's source line run into the first's message. Python never prints blanks before the colon, so it is
    the same exception: DDP's reducer error every rank's module raises alike (rules J, AW) -- unknown, nobody named,
    the reducer's own fix."""
    frame = '  File "/env/lib/python3.11/site-packages/torch/autograd/graph.py", line 768, in _engine_run_backward\n'
    text = (frame + "\n" + frame + "    return Variable._execution_engine.run_backward(\n"
            "RuntimeError  : return Variable._execution_engine.run_backward(Expected to mark a variable ready only "
            "once.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "use_reentrant=False" in v["fix"] and "static_graph" in v["fix"], v["fix"]


def test_a_table_of_error_counts_aligned_on_its_colons_is_no_exception(tmp_path):
    """The near shape: a summary table whose rows align an exception's name and a count on their colons ('ValueError
    : 3') is no traceback's last line -- a message starts with words, not a bare number: nothing failed."""
    text = ("summary of the evaluation set (documents skipped, by exception type):\n"
            "RuntimeError      : 3\n"
            "ValueError        : 12\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v


# --- a connection error where a rank fetches its next DataLoader batch ------------------------------------------
def test_a_connection_reset_raised_by_the_batch_loop_itself_is_that_ranks_dataloader(tmp_path):
    """Right below the training loop's own 'for ... batch in ...:' line, a ConnectionResetError was raised by the
    iteration (the loader's __next__): the socket a worker passes a batch's shared tensor through was reset -- that
    rank's data loading, not a peer rank's socket: dataloader_shm, rank 3 named, the fix naming the file_system
    sharing strategy."""
    text = ('[rank3]:   File "/srv/proj/train_lm.py", line 412, in train_epoch\n'
            "[rank3]:     for it, batch in enumerate(self.train_loader):\n"
            "[rank3]: ConnectionResetError: [Errno 104] Connection reset by peer\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [3]), v
    assert "set_sharing_strategy('file_system')" in v["fix"] and "ulimit -n" in v["fix"], v["fix"]


def test_a_connection_refused_under_multiprocessings_resource_sharer_is_the_dataloader(tmp_path):
    """The loader's full traceback: multiprocessing's resource_sharer frames (a worker handing the main process a
    batch's shared tensor, rebuild_storage_fd's detach) end in a connection error a few lines below: the same
    reading, without the training loop's line."""
    text = ("[rank5]: Traceback (most recent call last):\n"
            '[rank5]:   File "/usr/lib/python3.10/multiprocessing/queues.py", line 122, in get\n'
            "[rank5]:     return _ForkingPickler.loads(res)\n"
            '[rank5]:   File "/opt/env/lib/python3.10/site-packages/torch/multiprocessing/reductions.py", line 496, in '
            "rebuild_storage_fd\n"
            "[rank5]:     fd = df.detach()\n"
            '[rank5]:   File "/usr/lib/python3.10/multiprocessing/resource_sharer.py", line 57, in detach\n'
            "[rank5]:     with _resource_sharer.get_connection(self._id) as conn:\n"
            '[rank5]:   File "/usr/lib/python3.10/multiprocessing/resource_sharer.py", line 86, in get_connection\n'
            "[rank5]:     c = Client(address, authkey=process.current_process().authkey)\n"
            '[rank5]:   File "/usr/lib/python3.10/multiprocessing/connection.py", line 502, in Client\n'
            "[rank5]:     c = SocketClient(address)\n"
            "[rank5]: ConnectionRefusedError: [Errno 111] Connection refused\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [5]), v


def test_a_connection_reset_under_a_collective_or_another_ranks_loop_is_no_dataloader(tmp_path):
    """The near shapes: the same error right below a collective's frame is a peer's connection (early_exit, the
    printing rank its victim); right below another rank's batch loop it is not that loop's; two lines below the loop
    (other frames between, none the loader's) it was not raised by the iteration."""
    coll = ('[rank2]:   File "/srv/proj/train_lm.py", line 420, in train_epoch\n'
            "[rank2]:     dist.all_reduce(loss_sum)\n"
            "[rank2]: ConnectionResetError: [Errno 104] Connection reset by peer\n")
    other = ("[rank0]:     for it, batch in enumerate(self.train_loader):\n"
             "[rank2]: ConnectionResetError: [Errno 104] Connection reset by peer\n")
    below = ("[rank2]:     for it, batch in enumerate(self.train_loader):\n"
             '[rank2]:   File "/srv/proj/model.py", line 88, in forward\n'
             "[rank2]: ConnectionResetError: [Errno 104] Connection reset by peer\n")
    for text in (coll, other, below):
        v = _verdict(tmp_path, text)
        assert v["cause"] != "dataloader_shm" and 2 not in v["culprits"], (text, v)


# --- a CUDA OOM naming the failing process by its pid only --------------------------------------------------------
def _oom_pid(gpu: int, total: float, free: float, procs: tuple[tuple[int, float], ...], alloc: float,
             unalloc: float) -> str:
    listed = " ".join(f"Process {p} has {g:.2f} GiB memory in use." for p, g in procs)
    return (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU {gpu} has a total capacity "
            f"of {total:.2f} GiB of which {free:.2f} GiB is free. {listed} Of the allocated memory {alloc:.2f} GiB is "
            f"allocated by PyTorch, and {unalloc:.2f} GiB is reserved by PyTorch but unallocated. If reserved but "
            "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
            "fragmentation.\n")


def _trace(rank: int) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/rl/train_grpo.py", line 201, in <module>\n'
            f"[rank{rank}]:     trainer.train()\n")


def test_an_oom_whose_one_listed_pid_holds_the_allocators_figures_names_the_traceback_rank(tmp_path):
    """Rule BA (2): no 'this process has', one process listed by pid; the failing allocator's figures (allocated +
    reserved-but-unallocated: 70.1 GiB) fit inside that process's 75.3 GiB, and the GPU's used memory (79.1 - 3.6)
    leaves no room for another process holding them, so it is the raiser; the only traceback is [rank2]'s and the GPU
    index is 2: rank 2 (and the same on GPU 0 with rank 0's traceback)."""
    v = _verdict(tmp_path, _oom_pid(2, 79.10, 3.60, ((431207, 75.30),), 66.20, 3.90) + _trace(2))
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [2]), v
    v = _verdict(tmp_path, _oom_pid(0, 79.10, 3.60, ((431207, 75.30),), 66.20, 3.90) + _trace(0))
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [0]), v


def test_an_oom_naming_a_pid_without_proof_or_without_its_ranks_traceback_names_nobody(tmp_path):
    """The near shapes: the same pid-only OOM with no traceback (a GPU index alone is not a rank), with another rank's
    traceback, where the allocator's figures exceed the listed process's use (the raiser is not listed), or where the
    GPU's used memory leaves room for another process holding them (a second, unlisted holder): nobody named."""
    fits = _oom_pid(2, 79.10, 3.60, ((431207, 75.30),), 66.20, 3.90)
    for text in (fits,
                 fits + _trace(1),
                 _oom_pid(2, 79.10, 3.60, ((431207, 20.30),), 66.20, 3.90) + _trace(2),
                 _oom_pid(2, 160.00, 3.60, ((431207, 75.30),), 66.20, 3.90) + _trace(2),
                 _oom_pid(2, 79.10, 3.60, ((431207, 75.30), (431300, 0.50)), 66.20, 3.90) + _trace(2)):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "gpu_oom" and v["culprits"] == [], (text, v)


# --- a bare "[N] " label that the input ties to the rank, and one rank's communicator creation failing -------------
def _mpi_l(records: dict[int, str], failing: int, field: str = "rank:{r}") -> str:
    """mpirun -l's '[N] ' label before every line: each rank's own logger records (its rank field in the header), then
    one rank's traceback ending in the framework's report that ncclCommInitRank returned the CUDA error."""
    lines = [f"[{r}] MDTRAIN {field.format(r=r)}  INFO    {what}" for r, what in records.items()]
    lines += [f"[{failing}] Traceback (most recent call last):",
              f'[{failing}]   File "/env/lib/python3.9/site-packages/tensorflow/python/client/session.py", line 1377, '
              "in _do_call",
              f"[{failing}]     return fn(*args)",
              f"[{failing}] tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled "
              "cuda error",
              f"[{failing}] \t [[{{{{node HorovodAllreduce_grads_0}}}}]]"]
    return "\n".join(lines) + "\n"


def test_one_rank_failing_communicator_creation_beside_a_rank_shown_going_on_is_named(tmp_path):
    """Rule AM (3) over V (2): the '[N] ' label is tied to the rank by each line's own logger ('rank:N' in its header),
    so rank 2's report that ncclCommInitRank returned the CUDA error is rank 2's, and rank 0, shown going on (its own
    records, no error), fails nothing: rank 2 is shown failing alone and is named."""
    v = _verdict(tmp_path, _mpi_l({0: "broadcast global variables to other tasks", 2: "receive global variables"}, 2))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [2]), v
    assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]


def test_a_bare_label_not_tied_to_the_rank_or_one_rank_alone_stays_the_platform(tmp_path):
    """The near shapes: the same lines whose logger names no rank (the '[N] ' label alone may be a device or an
    index), or names another rank than the label (the label is then no rank), or only the failing rank's own lines
    shown (nothing tells its failure from every rank's, as ignite-3466 reads it): rule V (2), nobody named."""
    records = {0: "broadcast global variables to other tasks", 2: "receive global variables"}
    for text in (_mpi_l(records, 2, field="step={r}"),
                 _mpi_l(records, 2, field="rank:{r}1"),
                 _mpi_l({2: "receive global variables"}, 2)):
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("cuda_error", []), (text, v)
