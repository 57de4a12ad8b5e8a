"""Round 104's crash and early-exit shapes read by their lines (rules A, AK (1), AK (2), AT (2), AW, AN (1), J, AG, T).

- A native crash whose crash handler's frames are bare offsets in libnccl.so, with a debugger's backtrace of its core
  right below placing it in NCCL's topology code ("(gdb) bt", "#0 ... in pathDistance (...) at graph/topo.cc:618"),
  and no NCCL error text: rule AK (2) -- the cause stays unknown by its signal, nobody named, and the fix is the
  topology's (NCCL_TOPO_DUMP_FILE, NCCL_DEBUG_SUBSYS=GRAPH, upgrade NCCL) (nccl-291). Before, the handler's libnccl
  frames made it NCCL's own crash (nccl_internal) and gdb's frames were read as a stack shown. The same handler's
  frames with no debugger's trace, or with one placing it outside the topology code (NCCL's proxy thread), keep the
  reading of round 12's nccl-1996 (nccl_internal).
- torch's distributed test harness starting the ranks itself as multiprocessing children named "process N" (no
  launcher agent): a bare c10d "Broken pipe" raised in child N != 0 while it builds a gloo group (new_group ->
  ProcessGroupGloo(store, ...)) or in a store or collective call is rank 0's own process -- the TCPStore's host --
  gone first: early_exit, culprit 0, child N its victim (rules AT (2), AW, AK (1); pytorch-11364). The header line
  was not read at all before (no trigger word). gloo's own pair text ("Connection closed by peer [ip]:port", its peer
  any member of the collective: pytorch-16941), the store host itself reporting ("Process process 0:") and a
  traceback without the harness's header keep their readings.

Hosts, pids, offsets, ranks and paths are made up.
"""
from __future__ import annotations

import pytest

from tests.conftest import corpus_case_verdict
from tests.conftest import verdict_accused as _verdict


# --- a crash in libnccl that a debugger places in NCCL's topology code ----------------------------------------------
def _ompi_crash(host: str, pid: int, lib: str) -> str:
    frames = ["/lib64/libpthread.so.0(+0x115d0)[0x7f8eaaf0e5d0]"]
    frames += [f"{lib}(+0x{off:x})[0x7f8eab3{off:05x}]" for off in (0x3533C, 0x2508E, 0x10ACD, 0x15F15, 0x1FA56)]
    frames += ["/lib64/libpthread.so.0(+0x76ca)[0x7f8eaaf046ca]", "/lib64/libc.so.6(clone+0x5f)[0x7f8eaa213edf]"]
    return (f"[{host}:{pid}] *** Process received signal ***\n"
            f"[{host}:{pid}] Signal: Segmentation fault (11)\n"
            f"[{host}:{pid}] Signal code: Address not mapped (1)\n"
            f"[{host}:{pid}] Failing at address: 0x8\n"
            + "".join(f"[{host}:{pid}] [{i:2d}] {f}\n" for i, f in enumerate(frames)))


def _ucx_crash(host: str, pid: int, lib: str) -> str:
    tid = pid + 7954
    return (f"[{host}:{pid}:0:{tid}] Caught signal 11 (Segmentation fault: address not mapped to object at address "
            "0x48)\n"
            f"==== backtrace (tid: {tid}) ====\n"
            " 0  /usr/lib/libucs.so.0(ucs_handle_error+0x2d4) [0x7fedc925c274]\n"
            " 1  /usr/lib/libucs.so.0(+0x2d44c) [0x7fedc925c44c]\n"
            f" 2  {lib}(+0x120057) [0x7ff1c18c1057]\n"
            f" 3  {lib}(+0x12209d) [0x7ff1c18c309d]\n"
            " 4  /usr/lib/x86_64-linux-gnu/libc.so.6(+0x89144) [0x7ff1c151e144]\n"
            " 5  /usr/lib/x86_64-linux-gnu/libc.so.6(+0x1097dc) [0x7ff1c159e7dc]\n")


_TOPO_FRAMES = [
    "#0  0x00007f1f0ba9b33c in pathDistance (links=<optimized out>) at graph/topo.cc:618\n",
    "#0  0x00007f3a2c11d8e0 in ncclTopoComputePaths (system=0x55d0c2a0, comm=0x55d0b110) at graph/paths.cc:512\n"
    "#1  0x00007f3a2c0f2a10 in initTransportsRank (comm=0x55d0b110, parent=0x0) at init.cc:843\n",
    "#0  0x00007fa0d1e4c7aa in searchRec (system=0x0, graph=0x7ffd, step=3) at /build/nccl/src/graph/search.cc:431\n",
]


@pytest.mark.parametrize("handler", [_ompi_crash, _ucx_crash])
@pytest.mark.parametrize("host,pid,lib,frames", [
    ("tb2b03210", 78142, "/usr/local/cuda-10.0/targets/x86_64-linux/lib/libnccl.so.2", _TOPO_FRAMES[0]),
    ("gpu-node-17", 4411, "/opt/nccl/build/lib/libnccl.so.2.4.8", _TOPO_FRAMES[1]),
    ("dgx03", 90210, "/usr/lib/x86_64-linux-gnu/libnccl.so", _TOPO_FRAMES[2]),
])
def test_a_libnccl_crash_a_core_places_in_the_topology_code_is_unknown_nobody_named(tmp_path, handler, host, pid,
                                                                                       lib, frames):
    text = "all_reduce_perf -g 4 -b 8 -e 16\n\n" + handler(host, pid, lib) + "\n(gdb) bt\n" + frames
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "topology code" in v["summary"] and "graph/" in v["summary"], v
    assert "NCCL_TOPO_DUMP_FILE" in v["fix"] and "NCCL_DEBUG_SUBSYS=INIT,GRAPH" in v["fix"], v
    assert "mmcv" not in v["fix"], v  # the generic compiled-extension words are not the topology's remedy


def test_a_handler_frame_naming_ncclTopo_is_read_the_same(tmp_path):
    """Open MPI's frame with the exported symbol of NCCL's topology code (no debugger): the same reading."""
    text = _ompi_crash("n7", 2201, "/opt/nccl/lib/libnccl.so.2").replace(
        "libnccl.so.2(+0x2508e)", "libnccl.so.2(ncclTopoCompute+0x4e)")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "ncclTopoCompute" in v["summary"] and "NCCL_TOPO_DUMP_FILE" in v["fix"], v


@pytest.mark.parametrize("handler", [_ompi_crash, _ucx_crash])
@pytest.mark.parametrize("tail", [
    "",  # no debugger's trace: round 12's nccl-1996
    "\n(gdb) bt\n#0  0x00007f1f0ba9b33c in ncclProxyProgress (proxyState=0x0) at proxy.cc:911\n",
    "\n(gdb) bt\n#0  0x00007f1f0ba9b33c in __memmove_avx_unaligned_erms () from /lib64/libc.so.6\n",
])
def test_a_libnccl_crash_not_placed_in_the_topology_code_keeps_ncclls_own_reading(tmp_path, handler, tail):
    v, acc = _verdict(tmp_path, handler("gpu-a1", 31337, "/opt/nccl/lib/libnccl.so.2") + tail)
    assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not acc, v
    assert "sat still" not in v["summary"] and "debugger's view" not in v["summary"], v


def test_the_corpus_ras_crash_keeps_its_reading(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "nccl-1996-ras-segv-2277")
    assert v["cause"] == "nccl_internal" and not acc, v


# --- torch's test harness: a bare broken pipe in a child other than rank 0 ---------------------------------------
def _harness(index: int, error: str = "RuntimeError: Broken pipe", call: str = "ctor", inline: bool = True,
             stamp: str = "02:21:53 ", cut_next: int | None = 2) -> str:
    head = f"{stamp}test_get_rank_size_group (__main__.TestDistBackend) ... " if inline else stamp
    site = {"ctor": ('  File "test_distributed.py", line 252, in test_get_rank_size_group\n'
                     "    group_id = dist.new_group(group)\n"
                     '  File "/opt/conda/lib/python3.6/site-packages/torch/distributed/c10d/distributed_c10d.py", '
                     "line 1075, in new_group\n"
                     "    input_ranks)\n"
                     '  File "/opt/conda/lib/python3.6/site-packages/torch/distributed/c10d/distributed_c10d.py", '
                     "line 275, in _new_process_group_helper\n"
                     "    pg = ProcessGroupGloo(store, rank, world_size)\n"),
            "barrier": ('  File "test_distributed.py", line 310, in test_barrier\n'
                        "    dist.barrier()\n"
                        '  File "/opt/conda/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py", '
                        "line 1485, in barrier\n"
                        "    work = _default_pg.barrier()\n")}[call]
    lines = (f"{stamp}test_get_rank_size_full_group (__main__.TestDistBackend) ... ok\n"
             f"{head}Process process {index}:\n"
             "Traceback (most recent call last):\n"
             '  File "/opt/conda/lib/python3.6/multiprocessing/process.py", line 258, in _bootstrap\n'
             "    self.run()\n"
             '  File "/opt/conda/lib/python3.6/multiprocessing/process.py", line 93, in run\n'
             "    self._target(*self._args, **self._kwargs)\n"
             '  File "test_distributed.py", line 1274, in _run\n'
             '    getattr(self, self.id().split(".")[2])()\n'
             '  File "test_distributed.py", line 1216, in wrapper\n'
             "    fn(self)\n" + site + f"{error}\n")
    if cut_next is not None:
        lines += (f"Process process {cut_next}:\nTraceback (most recent call last):\n"
                  '  File "/opt/conda/lib/python3.6/multiprocessing/process.py", line 258, in _bootstrap\n')
    return "".join((stamp + x if x and not x.startswith(stamp) else x) + "\n" for x in lines.split("\n")[:-1])


@pytest.mark.parametrize("index,error,call,inline,cut_next", [
    (1, "RuntimeError: Broken pipe", "ctor", True, 2),
    (3, "RuntimeError: Broken pipe", "ctor", False, None),
    (2, "RuntimeError: Connection reset by peer", "ctor", True, 1),
    (1, "RuntimeError: Broken pipe", "barrier", True, 3),
])
def test_a_harness_childs_bare_broken_pipe_is_the_store_host_rank0_gone(tmp_path, index, error, call, inline,
                                                                          cut_next):
    v, acc = _verdict(tmp_path, _harness(index, error, call, inline, cut_next=cut_next))
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]), v
    assert index not in acc and (cut_next is None or cut_next not in acc), (v, acc)
    assert "keep the store host alive until all ranks finish" in v["fix"], v
    assert ("new_group" in v["fix"]) == (call == "ctor"), v


def test_harness_children_of_two_ranks_both_cut_name_rank0_only(tmp_path):
    text = _harness(1, cut_next=None) + _harness(2, "RuntimeError: Broken pipe", stamp="02:21:54 ", cut_next=None)
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and not acc & {1, 2}, (v, acc)


def test_gloos_own_closed_pair_in_a_harness_child_names_no_rank(tmp_path):
    """pytorch-16941's shape: gloo's pair text, its peer any member of the collective -- nobody named."""
    err = ("RuntimeError: [/var/lib/jenkins/workspace/third_party/gloo/gloo/transport/tcp/pair.cc:572] Connection "
           "closed by peer [127.0.0.1]:20415")
    v, acc = _verdict(tmp_path, _harness(1, err, "barrier"))
    assert v["cause"] == "early_exit" and v["culprits"] != [0] and not acc, (v, acc)


def test_the_store_host_itself_reporting_names_no_rank(tmp_path):
    v, acc = _verdict(tmp_path, _harness(0, cut_next=1))
    assert v["cause"] == "early_exit" and v["culprits"] != [0] and not acc, (v, acc)


def test_the_same_traceback_without_the_harness_header_names_no_rank(tmp_path):
    text = _harness(1).replace("Process process 1:", "").replace("Process process 2:", "")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "early_exit" and v["culprits"] != [0] and not acc, (v, acc)
