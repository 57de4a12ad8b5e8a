"""Round 96's subgroups, point-to-point calls and wrong values (session 38, fixer f5): each reading on lines modelled
on its case with other ranks and numbers, and a near shape that keeps its old reading.

- A job's own prints of each process's subgroup at a barrier ("0 before barrier: [0, 3]") with every member of each
  subgroup shown entering it, a member of every subgroup past it ("0 done") and others never: transport_stall, nobody
  named (lead rule BZ (4); pytorch-130102). A listed member never shown, or a subgroup with no member past: as before.
- A received tensor printed with a float32 value that is an integer's bit pattern ("2.8026e-45"): desync, nobody named
  (lead rules BB (2), BR (5); pytorch-pr110408). Ordinary received values, or the value under a label naming no
  receive: as before.
- torch.distributed refusing a send / recv to the calling rank itself ("Invalid destination rank: destination rank
  should not be the same as the rank of the current process."), raised or logged: invalid_usage, nobody named (rules
  AV, BA (3), BB (4); xdit-373). Another "Invalid destination ..." logged: as before.
- Every process printing torch's rank -1 and world size -1 after init: unknown, nobody named, the torch / backend build
  in the fix (lead rule BZ (3); pytorch-97507). A process printing a rank of its own beside them: as before.
- A process's stack shown by py-spy top (a torch.distributed function holding nearly all samples) or gdb's frames
  pasted without their prompt: read like a debugger's stack -- unknown, nobody named, the coalesced group's end in the
  fix (lead rule BD (2); pytorch-120683). py-spy top's profile of a running job: as before.
- A program's own assert on its receive buffer ("Assertion `recvbuff[i] == i' failed."): rule S's wrong values, the
  fix names the stream synchronize, grouped send/recv and nccl-tests' check (nccl-501). Another assert: as before.
"""
from __future__ import annotations

from ncclDoctor.diagnose import diagnose
from tests.conftest import accused, failure_record, verdict_accused


# --- subgroup prints at a barrier (lead rule BZ (4)) ------------------------------------------------------------------
def _groups(enter: list[tuple[int, list[int]]], past: list[int]) -> str:
    return "".join(f"{who} before barrier: {members}\n" for who, members in enter) + "".join(
        f"{who} done\n" for who in past)


_THREE = [(5, [0, 5]), (1, [1, 4]), (3, [2, 3]), (0, [0, 5]), (4, [1, 4]), (2, [2, 3])]


def test_subgroup_prints_with_members_past_and_stuck_are_a_transport_stall(tmp_path):
    v, acc = verdict_accused(tmp_path, "run 1:\n" + _groups(_THREE, [5, 4, 3]) + "\n")
    assert v["cause"] == "transport_stall" and v["culprits"] == [] and not acc, v
    assert "new_subgroups_by_enumeration([[0, 5], [1, 4], [2, 3]])" in v["fix"], v
    assert "device_ids=[local_rank]" in v["fix"] and "new_group for every subgroup" in v["fix"], v


def test_subgroup_prints_in_each_process_own_log_read_as_one_run(tmp_path):
    for who, members in _THREE[:4] + [(4, [1, 4]), (2, [2, 3])]:
        (tmp_path / f"rank{who}.log").write_text(f"{who} before barrier: {members}\n"
                                                 + (f"{who} done\n" if who in (0, 1, 2) else ""))
    d = diagnose([str(tmp_path)]).results["diagnose"]
    assert d["verdict"]["cause"] == "transport_stall" and not accused(d), d["verdict"]


def test_two_runs_pasted_one_after_the_other_read_by_the_run_that_shows_it(tmp_path):
    # the second run alone has no member of [1, 2] past the barrier; the first shows one of each group
    text = ("output 1:\n" + _groups([(2, [0, 2]), (0, [0, 2]), (1, [1, 3]), (3, [1, 3])], [2, 1])
            + "\noutput 2:\n" + _groups([(0, [0, 2]), (2, [0, 2]), (3, [1, 3]), (1, [1, 3])], [0, 2]))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "transport_stall" and not acc, v


def test_a_listed_member_never_shown_keeps_its_old_reading(tmp_path):
    # member 4 of [1, 4] never prints entering: the world is not shown whole (rule AI (4)), no reading of the prints
    enter = [e for e in _THREE if e[0] != 4]
    v, _ = verdict_accused(tmp_path, _groups(enter, [5, 1, 3]))
    assert v["cause"] == "none", v


def test_a_subgroup_with_no_member_past_keeps_its_old_reading(tmp_path):
    v, _ = verdict_accused(tmp_path, _groups(_THREE, [5, 0]))  # [1, 4] and [2, 3]: nobody past
    assert v["cause"] == "none", v


def test_every_member_past_is_nothing_failing(tmp_path):
    v, _ = verdict_accused(tmp_path, _groups(_THREE, [0, 1, 2, 3, 4, 5]))
    assert v["cause"] == "none", v


# --- a received tensor holding an integer's bit pattern (lead rules BB (2), BR (5)) -----------------------------------
def test_a_received_integer_bit_pattern_is_a_p2p_desync(tmp_path):
    text = ("2: recv_buf=tensor([0., 0., 0., 0.], device='cuda:2')\n"
            "Rank 3 received: tensor([7.0065e-45, 0.0000e+00, 8.4078e-45, 0.0000e+00], device='cuda:3')\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "desync" and v["culprits"] == [] and not acc, v
    assert "same dtype for send and recv tensors" in v["fix"] and "integer 5" in v["summary"], v


def test_ordinary_received_values_keep_their_old_reading(tmp_path):
    text = ("2: recv_buf=tensor([4., 5., 6., 7.], device='cuda:2')\n"
            "Rank 3 received: tensor([1.0000e-03, 2.5000e+00], device='cuda:3')\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v


def test_a_tiny_value_under_a_label_naming_no_receive_keeps_its_old_reading(tmp_path):
    v, _ = verdict_accused(tmp_path, "step 12 grad=tensor([1.4013e-45, 3.0000e-01], device='cuda:0')\n")
    assert v["cause"] == "none", v


# --- a send / recv to the calling rank itself (rules AV, BA (3), BB (4)) ----------------------------------------------
def test_a_logged_send_to_self_is_invalid_usage(tmp_path):
    text = ("[Rank 3] 2025-03-01 09:12:44 - ERROR - Error processing request 17400031.55: Invalid destination rank: "
            "destination rank should not be the same as the rank of the current process.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and v["culprits"] == [] and not acc, v
    assert "dst != rank" in v["fix"] and "world_size > 1" in v["fix"], v


def test_a_raised_recv_from_self_is_invalid_usage_not_that_rank(tmp_path):
    text = ("[rank1]: Traceback (most recent call last):\n"
            '[rank1]:   File "/home/u/pipe.py", line 40, in <module>\n'
            "[rank1]:     dist.recv(buf, src=1)\n"
            '[rank1]:   File "/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py", line 2070, '
            "in recv\n"
            '[rank1]:     _check_not_self_rank(group, src, "source")\n'
            "[rank1]: ValueError: Invalid source rank: source rank should not be the same as the rank of the current "
            "process.\n"
            + "E0301 09:12:45.000000 4242 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
              "local_rank: 1 (pid: 4243) of binary: /usr/bin/python\n"
            + failure_record(0, 1, 1, 1, 4243))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and v["culprits"] == [] and 1 not in acc, v


def test_another_invalid_destination_logged_keeps_its_old_reading(tmp_path):
    text = ("[Rank 3] 2025-03-01 09:12:44 - ERROR - Error processing request 17400031.55: Invalid destination path: "
            "/srv/out does not exist.\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and "dst != rank" not in v["fix"], v  # its old reading (review 96 finding 10)


# --- torch's rank -1 sentinel in every process (lead rule BZ (3)) -----------------------------------------------------
def test_every_process_printing_rank_minus_one_is_unknown_with_the_build_in_the_fix(tmp_path):
    text = ("$ mpirun -np 4 python hello.py --backend mpi\n"
            + "".join("[mpi backend] World size -1, rank -1\n" for _ in range(4)))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "upgrade torch" in v["fix"] and "OMPI_COMM_WORLD_RANK" in v["fix"], v


def test_a_process_printing_a_rank_of_its_own_keeps_its_old_reading(tmp_path):
    # a process outside a sub-group gets -1 too: with another process printing its own rank, no reading
    text = "hello from rank 0, world size 2\nhello from rank -1, world size -1\n"
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v


# --- py-spy top and gdb frames without their prompt (lead rule BD (2)) ------------------------------------------------
_GDB = ("#0  0x00007fa1c0d159e5 in clock_nanosleep@GLIBC_2.17 () from /lib/x86_64-linux-gnu/libc.so.6\n"
        "#1  0x00007fa1a17879e3 in ncclGroupEndInternal(ncclSimInfo*) () from /opt/torch/lib/libtorch_cuda.so\n"
        "#2  0x00007fa19f657622 in c10d::ProcessGroupNCCL::groupEnd() () from /opt/torch/lib/libtorch_cuda.so\n"
        "#3  0x00007fa19f6572be in c10d::ProcessGroupNCCL::endCoalescing(c10d::OpType) ()\n"
        "   from /opt/torch/lib/libtorch_cuda.so\n")


def test_gdb_frames_without_a_prompt_in_a_coalesced_group_end_are_a_stack_shown(tmp_path):
    v, acc = verdict_accused(tmp_path, _GDB)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "ncclGroupEnd" in v["summary"] and "matching send" in v["fix"], v


def test_py_spy_top_holding_a_c10d_function_is_a_stack_shown(tmp_path):
    text = ("  %Own   %Total  OwnTime  TotalTime  Function (filename:line)\n"
            " 97.50%  97.50%   88.1s    88.1s   batch_isend_irecv "
            "(/opt/venv/torch/distributed/distributed_c10d.py:2391)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v
    assert "py-spy top" in v["summary"] and "_coalescing_manager" in v["fix"], v


def test_py_spy_top_of_a_running_job_keeps_its_old_reading(tmp_path):
    text = " 12.00%  31.00%   10.2s    26.4s   all_reduce (torch/distributed/distributed_c10d.py:2501)\n"
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v


# --- a program's assert on its receive buffer (lead rule S) -----------------------------------------------------------
def test_an_assert_on_the_receive_buffer_names_the_value_check_remedies(tmp_path):
    v, acc = verdict_accused(tmp_path, "p2p_test.cu:120: int main(int, char**): Assertion `recv_buf[j] == "
                                       "expected[j]' failed.\nAborted (core dumped)\n")
    assert v["cause"] == "unknown" and not acc, v
    assert "sendrecv_perf -c 1" in v["fix"] and "cudaStreamSynchronize" in v["fix"], v


def test_another_assert_keeps_its_old_fix(tmp_path):
    v, _ = verdict_accused(tmp_path, "model.cpp:88: void f(int): Assertion `ndim == 2' failed.\n")
    assert v["cause"] == "unknown" and "sendrecv_perf" not in v["fix"], v
