"""Fix words naming the shape's remedy, shapes round 104 showed read right but with a fix an expert would not give
(rules J, AA (1), X): the verdict stays as it was, the fix names what an expert names for that shape.

- An old torch's one-line "NCCL error in: ...ProcessGroupNCCL.cpp:N, unhandled system error, NCCL version 2.7.8"
  with no Last error line (cpm-1, ml-containers-10): nccl_system, nobody; the fix says the failing system call is not
  shown, to rerun with NCCL_DEBUG=INFO to see it, and the host limits (/dev/shm, memlock, nofile). A system error
  whose Last error names the call keeps its old fix.
- NCCL's IB async event "local access violation work queue error" (nccl-1524): ib_fabric, nobody; the fix adds the
  MTU mismatch between two hosts (ibv_devinfo active_mtu on both) and ib_write_bw. Another async event gets none.
- nccl-tests run as separate worlds (each process its own Rank 0) launched with "mpirun -x MPI=1" (nccl-tests-182):
  config, nobody; the fix says MPI=1 is a build flag, not an environment variable. Without -x MPI=1, no such words.
- nccl-tests' set-up INFO lines of a two-host run launched as "NCCL_DEBUG=INFO NCCL_SHM_DISABLE=1 mpirun -H a,b ..."
  (nccl-tests-125): none, nobody; the fix says Open MPI gives variables set in front of mpirun to the local node only
  and to pass them with mpirun -x. The same lines launched with -x, or on one host, get none of those words.
- A serving engine's "sglang is using nccl==2.28.9" (vLLM's "vLLM is using nccl==...") then a segfault with no stack
  (sglang-28299): unknown, nobody; the fix says the crash came in NCCL's init and names NCCL_DEBUG=INFO, the NCCL
  build against torch / the GPU, NCCL_P2P_DISABLE=1 and NCCL_CUMEM_ENABLE=0. A segfault without that line, or
  with it only after the crash, keeps the old fix.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SYSCALL = "NCCL_DEBUG=INFO to see the failing system call"
_MTU = "check ibv_devinfo active_mtu on both nodes and align it"
_MPI_ENV = "MPI=1 is a build flag, not an mpirun -x environment variable"


# --- an old NCCL's system error, no Last error line ------------------------------------------------------------------
def test_old_system_error_without_last_error_names_nccl_debug_and_host_limits(tmp_path):
    for line in ("RuntimeError: NCCL error in: /opt/conda/conda-bld/pytorch_1/work/torch/lib/c10d/"
                 "ProcessGroupNCCL.cpp:514, unhandled system error, NCCL version 2.7.3\n",
                 "NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, unhandled system error, "
                 "NCCL version 2.4.8\n"):
        v, acc = _verdict(tmp_path, line)
        assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not acc, v
        assert _SYSCALL in v["fix"] and "ulimit -l (memlock)" in v["fix"], v


def test_system_error_with_its_last_error_keeps_old_fix(tmp_path):
    v, acc = _verdict(tmp_path, "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
                                "1269, unhandled system error, NCCL version 2.14.3\n"
                                "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
                                "device error. \nLast error:\nsocketStartConnect: Connect to 10.0.3.7<41233> failed : "
                                "No route to host\n")
    assert v["cause"] in ("nccl_system", "network_setup") and not acc, v
    assert _SYSCALL not in v["fix"], v


# --- IB local access violation -------------------------------------------------------------------------------------
def _ib(host: str, event: str) -> str:
    return (f"{host}:5521:5530 [1] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_2:1 Got async event : {event}\n"
            f"{host}:5521:5533 [1] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer "
            f"10.20.0.7<41122> with status=5 opcode=1 len=0 vendor err 249 (Recv) localGid fe80::1 remoteGids fe80::2\n"
            f"{host}:5521:5533 [1] NCCL INFO transport/net.cc:1298 -> 6\n")


def test_local_access_violation_names_the_mtu_and_ib_write_bw(tmp_path):
    v, acc = _verdict(tmp_path, _ib("gpu-b3", "local access violation work queue error") * 2)
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not acc, v
    assert _MTU in v["fix"] and "ib_write_bw between the hosts" in v["fix"], v


def test_other_async_event_gets_no_mtu_words(tmp_path):
    v, acc = _verdict(tmp_path, _ib("gpu-b3", "local catastrophic error"))
    assert v["cause"] == "ib_fabric" and not acc, v
    assert _MTU not in v["fix"], v


# --- nccl-tests' separate worlds, MPI=1 passed at run time -----------------------------------------------------------
def _worlds(launch: str) -> str:
    pre = "# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
    return (f"root@n1:/opt/nccl-tests# {launch} -np 2 -H n1,n2 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 1\n"
            + pre + pre + "#\n# Using devices\n"
            "#  Rank  0 Group  0 Pid   4410 on         n1 device  0 [0x17] NVIDIA A100-SXM4-80GB\n"
            "#  Rank  0 Group  0 Pid   7712 on         n2 device  0 [0x17] NVIDIA A100-SXM4-80GB\n")


def test_mpirun_x_mpi_1_names_it_a_build_flag(tmp_path):
    v, acc = _verdict(tmp_path, _worlds("mpirun --allow-run-as-root -x NCCL_DEBUG=WARN -x MPI=1"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert _MPI_ENV in v["fix"] and "make MPI=1" in v["fix"], v


def test_separate_worlds_without_mpi_env_keep_old_fix(tmp_path):
    v, acc = _verdict(tmp_path, _worlds("mpirun --allow-run-as-root -x NCCL_DEBUG=WARN"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert _MPI_ENV not in v["fix"] and "make MPI=1" in v["fix"], v


# --- NCCL variables set in front of a several-host mpirun ----------------------------------------------------------
_FORWARD = "pass NCCL environment variables to every node with mpirun -x"


def _setup(launch: str) -> str:
    return (f"$ {launch} ./build/all_reduce_perf -b 8 -e 256M -f 2 -g 4\n"
            "# nThread 1 nGpus 4 minBytes 8 maxBytes 268435456 step: 2(factor) warmup iters: 5 iters: 20 "
            "validation: 1\n"
            "#\n# Using devices\n"
            "#  Rank  0 Group  0 Pid  2211 on     node-a device  0 [0x00] Tesla V100\n"
            "#  Rank  1 Group  0 Pid  3105 on     node-b device  0 [0x00] Tesla V100\n"
            "node-a:2211:2211 [0] NCCL INFO Bootstrap : Using eth1:10.4.0.11<0>\n"
            "node-a:2211:2211 [0] NCCL INFO NET/IB : No device found.\n"
            "node-a:2211:2211 [0] NCCL INFO NET/Socket : Using [0]eth1:10.4.0.11<0>\n"
            "NCCL version 2.12.10+cuda11.6\n"
            "node-a:2211:2230 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7\n"
            "node-a:2211:2230 [0] NCCL INFO Trees [0] 1/4/-1->0->-1 [1] 1/-1/-1->0->4\n")


def test_nccl_variables_before_a_two_host_mpirun_name_mpirun_x(tmp_path):
    v, acc = _verdict(tmp_path, _setup("NCCL_DEBUG=INFO NCCL_P2P_DISABLE=1 mpirun -np 2 -H node-a,node-b"))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert _FORWARD in v["fix"] and "-x NCCL_P2P_DISABLE=1" in v["fix"], v


def test_nccl_variables_passed_with_x_or_one_host_get_no_forwarding_words(tmp_path):
    for launch in ("mpirun -np 2 -H node-a,node-b -x NCCL_DEBUG=INFO -x NCCL_P2P_DISABLE=1",
                   "NCCL_DEBUG=INFO NCCL_P2P_DISABLE=1 mpirun -np 2"):
        v, acc = _verdict(tmp_path, _setup(launch))
        assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
        assert _FORWARD not in v["fix"], v


# --- a serving engine's segfault as it sets up NCCL ------------------------------------------------------------------
_INIT = "the crash came in NCCL's init"
_SEGV = "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f2a1c9ff740 (most recent call first):\n"


def test_segfault_right_after_engine_nccl_line_names_nccl_init_remedies(tmp_path):
    for engine, ver in (("sglang", "2.27.3"), ("vLLM", "2.21.5")):
        v, acc = _verdict(tmp_path, f"INFO 03-02 10:11:12 [TP1] Init torch distributed begin.\n"
                                    f"INFO 03-02 10:11:13 [TP0] {engine} is using nccl=={ver}\n" + _SEGV)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert _INIT in v["fix"] and f"NCCL {ver}" in v["fix"], v
        assert "NCCL_DEBUG=INFO" in v["fix"] and "NCCL_CUMEM_ENABLE=0" in v["fix"], v


def test_segfault_without_engine_nccl_line_before_it_keeps_old_fix(tmp_path):
    for text in ("INFO 03-02 10:11:12 [TP1] Init torch distributed begin.\n" + _SEGV,
                 _SEGV + "INFO 03-02 10:11:13 [TP0] sglang is using nccl==2.27.3\n"):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert _INIT not in v["fix"], v
