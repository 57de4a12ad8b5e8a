"""Stack-dump and cut-traceback shapes round 88 showed read wrong (rules BD (2), AB (2), AC (1), T, K, BG (6), AN (1),
O).

- One process's stacks as faulthandler prints them ('Thread 0x00007f57caf71740 (most recent call first):', its frames
  'File "x.py", line 95 in synchronize') or as a debugger shows them ("(cuda-gdb) bt", "(gdb) info cuda kernels", its
  "#6 0x... in pncclCommInitRankConfig ()" frames), with no timeout, SeqNum, error text or failure record, is rules
  BD (2) / AB (2)'s lone stack of a process waiting: unknown, culprits "unknown", nobody innocent, read like py-spy's
  dump (deepspeed-860 and torchtitan-168: faulthandler in a synchronize / a scatter; nccl-1774 and snowfall-71:
  cuda-gdb in NCCL's lazy communicator creation / an NCCL reduce kernel; all four were none). A frame of NCCL's
  communicator creation puts the matching send / eager init into the fix, a torch.distributed collective frame the
  same call on every rank. Not read so: faulthandler's stacks under "Fatal Python error:" (a crash, its own reading),
  c10's "Exception raised from f at x.cpp:12 (most recent call first):" (an exception's backtrace, no thread dump),
  and a gdb prompt that asks for no stack ("(gdb) run").
- NCCL's set-up chatter (channels via P2P/IPC) interleaved with a Python traceback cut before its error text is no
  longer rule K's "nothing failing": a process raised, rule BG (6)'s unknown, nobody named
  (deeplearningexamples-761, it was none). The set-up lines alone stay none.
- NCCL's bare "misc/socket.cc:N -> 3" trail (internal: the abort flag unwinding a socket, no WARN or socket text)
  beside a rank's traceback cut before its error text is not network_setup: the unwinding shows no failure class of
  its own, and the cut traceback is read -- unknown, nobody named (bionemo-recipes-877, it was network_setup). A
  system error (-> 2) in the same place keeps network_setup, as does the bare "-> 3" trail with nothing else shown.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text
from tests.conftest import diagnose_verdict as _verdict

_FH_HEAD = "{tag}Thread 0x00007f13c65f5400 (most recent call first):\n"
_FH_FRAMES = ('{tag}  File "/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3230 in '
              'scatter\n'
              '{tag}  File "/env/lib/python3.11/site-packages/torch/distributed/checkpoint/utils.py", line 212 in '
              'scatter_object\n')
_FH_SYNC = ('Thread 0x00007f57caf71740 (most recent call first):\n'
            '  File "/env/lib/python3.8/site-packages/torch/cuda/streams.py", line 95 in synchronize\n'
            '  File "/src/deepspeed/runtime/zero/stage3.py", line 490 in _synchronize_communication\n'
            '  File "/src/deepspeed/runtime/zero/stage3.py", line 406 in fetch_sub_module\n')


def test_a_lone_faulthandler_dump_is_unknown_and_names_nobody(tmp_path):
    d = diagnose_text(tmp_path, _FH_SYNC)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [], "low") and not accused(d), v
    assert "faulthandler" in v["summary"] and "stacks of every rank" in v["fix"], v
    # rank 0's dump inside torch.distributed's scatter: still nobody named, the collective said
    d = diagnose_text(tmp_path, (_FH_HEAD + _FH_FRAMES).format(tag="[rank0]:"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not accused(d), v
    assert "rank 0's" in v["summary"] and "scatter" in v["summary"], v
    assert "every rank calls the same scatter" in v["fix"], v


def test_a_debugger_backtrace_in_nccls_communicator_creation_is_unknown_with_the_matching_send_fix(tmp_path):
    text = ('Thread 1 "python" received signal SIGINT, Interrupt.\n'
            "(cuda-gdb) bt\n"
            "#0  0x00007f68194a8adf in clock_nanosleep () from /lib/x86_64-linux-gnu/libc.so.6\n"
            "#6  0x00007f67471be402 in pncclCommInitRankConfig () from /lib/x86_64-linux-gnu/libnccl.so.2\n"
            "#7  0x00007f67a9ff6236 in c10d::NCCLComm::create(int, int, ncclUniqueId, signed char) () from "
            "/usr/lib/torch/lib/libtorch_cuda.so\n"
            "#9  0x00007f67aa04d7ca in c10d::ProcessGroupNCCL::recv(std::vector<at::Tensor>&, int, int) () from "
            "/usr/lib/torch/lib/libtorch_cuda.so\n")
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not accused(d), v
    assert "communicator creation" in v["summary"] and "matching send" in v["fix"], v
    assert "device_id in init_process_group" in v["fix"], v
    # cuda-gdb's kernel list under a frame of the reduce binding: the same reading, no init words
    v = _verdict(tmp_path, "#23 0x00002aaacdf16960 in void pybind11::cpp_function::initialize<c10d::ReduceOptions>()\n"
                 "(cuda-gdb) info cuda kernels\n"
                 "  Kernel Parent Dev Grid Status   SMs Mask GridDim BlockDim Invocation\n"
                 "*      0      -   0 52162520 Active 0x00000001 (1,1,1) (64,1,1) ncclReduceRingLLKernel_sum_f64()\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and "matching send" not in v["fix"], v


def test_near_stack_shapes_keep_their_readings(tmp_path):
    # faulthandler's stacks under a fatal error: the crash's own reading
    v = _verdict(tmp_path, "Fatal Python error: Segmentation fault\n\n" + _FH_SYNC)
    assert v["cause"] == "unknown" and "Fatal Python error: Segmentation fault" in v["summary"], v
    assert "faulthandler's dump" not in v["summary"], v
    # c10's backtrace header of an exception is no thread dump
    v = _verdict(tmp_path, "Exception raised from recvBytes at ../torch/csrc/distributed/c10d/Utils.hpp:670 (most "
                 "recent call first):\nframe #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57\n")
    assert v["cause"] == "none", v
    # a debugger that only started the program shows no stack
    v = _verdict(tmp_path, "(gdb) run\nStarting program: /usr/bin/python train.py\n"
                 "[New Thread 0x7fffe1bff640 (LWP 1235)]\n[Thread 0x7fffe1bff640 (LWP 1235) exited]\n")
    assert v["cause"] == "none", v


_CHANNELS = ("host1:621:696 [3] NCCL INFO Channel 00 : 3[201d0] -> 6[a01c0] via P2P/IPC/read\n",
             "host1:619:697 [1] NCCL INFO Channel 00 : 1[101d0] -> 6[a01c0] via P2P/IPC/read\n")


def test_a_traceback_cut_among_nccls_setup_lines_is_unknown_not_none(tmp_path):
    text = (_CHANNELS[0] + '  File "/workspace/dlrm/scripts/dist_main.py", line 221, in main\n'
            "    output = model(numerical_features, categorical_features).squeeze()\n" + _CHANNELS[1]
            + '  File "/usr/lib/python3.6/site-packages/torch/nn/modules/module.py", line 577, in __call__\n'
            "    result = self.forward(*input, **kwargs)\n"
            '  File "/workspace/dlrm/model/distributed.py", line 152, in forwa\n')
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not accused(d), v
    assert "traceback" in v["summary"], v


def test_nccls_setup_lines_alone_stay_none(tmp_path):
    assert _verdict(tmp_path, "".join(_CHANNELS))["cause"] == "none"


_UNWIND = ("node1:864510:866217 [3] NCCL INFO misc/socket.cc:828 -> {n}\n"
           "node1:864510:865534 [3] NCCL INFO misc/socket.cc:880 -> {n}\n")
_RANK2_CUT = ("[rank2]: Traceback (most recent call last):\n"
              '[rank2]:   File "/usr/local/lib/python3.12/dist-packages/bionemo/evo2/run/train.py", line 688, in '
              "train\n"
              "[rank2]:     trainer.fit(model, data)\n"
              '[rank2]:   File "/usr/local/lib/python3.12/dist-packages/lightning/pytorch/trainer/trainer.py", line '
              "538, in fit\n")


def test_a_bare_socket_unwind_beside_a_cut_traceback_is_unknown_not_network_setup(tmp_path):
    d = diagnose_text(tmp_path, _UNWIND.format(n=3) + _RANK2_CUT)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not accused(d), v
    assert "rank 2's traceback" in v["summary"], v


def test_a_socket_system_error_or_the_bare_trail_alone_keeps_network_setup(tmp_path):
    assert _verdict(tmp_path, _UNWIND.format(n=2) + _RANK2_CUT)["cause"] == "network_setup"
    assert _verdict(tmp_path, _UNWIND.format(n=3))["cause"] == "network_setup"
