"""Review 102, first review (/work/notes/s41/findings.md) finding 4, and second review (findings2.md) finding 1: a gloo
peer gone read as raised by ProcessGroupGloo's constructor (readers.store._under_gloo_ctor, round 102's l2 fix).

- (1) finding 4: the constructor window compared line numbers only. Under torchrun's interleaved "[rankN]:" output,
  another rank's "Connection closed by peer" (raised in its own collective, whose frames came earlier) within 6 lines
  of rank 0's ProcessGroupGloo( code line was credited to rank 0's constructor: network_setup, nobody named, where
  rank 0 raised its own error. The peer gone is the constructor's only when its launcher prefix rank is the
  constructor line's.
- (2) finding 1: a peer gone under the constructor read network_setup (high) even when the lines show another process
  failing on its own (another rank's exception, a relayed Ray worker's, torchrun's Root Cause of another rank). That
  process left first and closed the mesh: early_exit, as before round 102 (rule A names the rank that raised).

The shapes the fix was for (a constructor's traceback alone, its own rank's prefix, a loopback peer) keep
network_setup.
"""
from __future__ import annotations

import pytest

from ncclDoctor.diagnose.parse import LineParser
from tests.conftest import verdict_accused

_PAIR = "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:{line}] {what} [{peer}]:{port}"
_HELPER = '  File "/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py", line 1580, in ' \
          '_new_process_group_helper'
_CTOR = "    backend_class = ProcessGroupGloo(backend_prefix_store, group_rank, group_size, timeout=timeout)"


def _tag(rank: int | None, line: str) -> str:
    return line if rank is None else f"[rank{rank}]:{line if line.startswith(' ') else ' ' + line}"


def _ctor_tb(rank: int | None, call: str = 'cpu_group = dist.new_group(backend="gloo")') -> list[str]:
    return [_tag(rank, x) for x in ("Traceback (most recent call last):",
                                    '  File "/work/train.py", line 20, in <module>', f"    {call}", _HELPER, _CTOR)]


def _pair(rank: int | None, what: str = "Connection closed by peer", peer: str = "10.0.0.5", port: int = 4455,
          line: int = 598) -> str:
    return _tag(rank, _PAIR.format(line=line, what=what, peer=peer, port=port))


# --- review 102 (1) finding 4: another rank's peer gone interleaved under rank r's constructor line -----------------
@pytest.mark.parametrize("ctor,other,exc,what", [
    (0, 1, "ValueError: bad timeout", "Connection closed by peer"),            # the reviewer's inter.log
    (2, 5, "TypeError: unsupported operand type(s)", "Connection reset by peer"),
    (1, 0, "KeyError: 'lr'", "Connection closed by peer"),
])
def test_another_ranks_peer_gone_interleaved_under_a_constructor_line_is_not_the_constructors(tmp_path, ctor, other,
                                                                                              exc, what):
    lines = [_tag(other, "Traceback (most recent call last):"),
             _tag(other, '  File "/work/train.py", line 50, in <module>'),
             _tag(other, "    dist.all_reduce(flag, group=cpu_group)"),
             *_ctor_tb(ctor),
             _pair(other, what),
             _tag(ctor, exc)]
    v, acc = verdict_accused(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] == "early_exit" and v["culprits"] == [ctor], v
    assert f"rank {ctor} raised its own error" in v["summary"] and other not in acc, v


@pytest.mark.parametrize("ctor,other", [(0, 1), (3, 2), (0, None)])
def test_the_parser_marks_a_peer_gone_the_constructors_only_under_the_constructor_lines_own_prefix(ctor, other):
    p = LineParser("job.log")
    evs = [p.parse(n, line) for n, line in enumerate([*_ctor_tb(ctor), _pair(other)], 1)]
    ev = next(e for e in evs if e is not None and e.kind == "gloo_error")
    assert not ev.data.get("gloo_ctor"), ev.data
    p = LineParser("job.log")
    evs = [p.parse(n, line) for n, line in enumerate([*_ctor_tb(ctor), _pair(ctor)], 1)]
    ev = next(e for e in evs if e is not None and e.kind == "gloo_error")
    assert ev.data.get("gloo_ctor") and ev.data.get("setup"), ev.data


def test_the_constructors_own_rank_prefix_still_reads_the_constructor(tmp_path):
    # the shape the fix was for, under a launcher prefix: the peer gone is the constructor's own rank's
    for rank in (0, 3):
        v, acc = verdict_accused(tmp_path, "\n".join(_ctor_tb(rank) + [_pair(rank)]) + "\n")
        assert v["cause"] == "network_setup" and v["culprits"] == [] and not acc, v
        assert "ProcessGroupGloo's constructor" in v["summary"], v
    # unprefixed (one process's own output) as well
    v, acc = verdict_accused(tmp_path, "\n".join(_ctor_tb(None) + [_pair(None)]) + "\n")
    assert v["cause"] == "network_setup" and "ProcessGroupGloo's constructor" in v["summary"] and not acc, v


# --- review 102 (2) finding 1: another process shown failing on its own ---------------------------------------------
@pytest.mark.parametrize("peer_rank,me,exc,peer,what,call", [
    (1, 0, "ValueError: unknown backbone 'resnet5O'", "10.0.0.2", "Connection closed by peer",
     'cpu_group = dist.new_group(backend="gloo")'),                                             # g1c.log
    (1, 0, "FileNotFoundError: [Errno 2] No such file or directory: '/data/shard_1.pt'", "127.0.0.1",
     "Connection reset by peer", "pg = dist.ProcessGroupGloo(store, rank, world_size, timeout)"),  # g3.log
    (3, 2, "RuntimeError: CUDA error: device-side assert triggered", "10.2.0.9", "Connection closed by peer",
     'pg = dist.new_group(ranks=[0, 1, 2, 3], backend="gloo")'),
])
def test_a_constructor_peer_gone_beside_another_ranks_own_error_names_that_rank(tmp_path, peer_rank, me, exc, peer,
                                                                               what, call):
    lines = [_tag(peer_rank, "Traceback (most recent call last):"),
             _tag(peer_rank, '  File "/workspace/train.py", line 40, in <module>'),
             _tag(peer_rank, "    model = build_model(cfg).cuda()"),
             _tag(peer_rank, exc),
             *_ctor_tb(me, call),
             _pair(me, what, peer, 5678)]
    v, acc = verdict_accused(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] != "network_setup", v
    if "device-side assert" not in exc:
        assert v["cause"] == "early_exit" and v["culprits"] == [peer_rank], v
    assert me not in acc, (acc, v)


@pytest.mark.parametrize("exc", [
    "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV "
    "cache (21616).",                                                                                 # g10.log
    "AssertionError: tensor parallel size 4 does not divide the number of heads",
])
def test_a_relayed_ray_workers_own_error_keeps_the_drivers_constructor_peer_gone_out_of_network_setup(tmp_path, exc):
    w = "(RayWorkerWrapper pid=48211, ip=10.0.0.2) ERROR 06-05 10:11:08 worker_base.py:382] "
    lines = [w + "Error executing method init_device. This might cause deadlock in distributed execution.", w + exc,
             "Traceback (most recent call last):",
             '  File "/usr/local/lib/python3.10/dist-packages/vllm/distributed/parallel_state.py", line 200, in '
             "__init__",
             '    self.cpu_group = torch.distributed.new_group(ranks, backend="gloo")', _HELPER, _CTOR,
             _pair(None, peer="10.0.0.2", port=18342)]
    v, acc = verdict_accused(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] == "early_exit" and not acc, v
    assert "10.0.0.2" in v["summary"], v


def _torchrun_record(root: int, other: int, code: int = 1) -> list[str]:
    def block(n: int, host: str, rank: int, t: str) -> list[str]:
        return [f"[{n}]:", f"  time      : 2024-06-05_10:11:{t}", f"  host      : {host}",
                f"  rank      : {rank} (local_rank: 0)",
                f"  exitcode  : {code if rank == root else 1} (pid: 500{rank})",
                "  error_file: <N/A>",
                "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"]
    return ["torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "=" * 60, "train.py FAILED",
            "-" * 60, "Failures:", *block(1, "node1", other, "12"), "-" * 60, "Root Cause (first observed failure):",
            *block(0, "node2", root, "09"), "=" * 60]


@pytest.mark.parametrize("root,me", [(1, 0), (3, 0)])
def test_torchruns_root_cause_of_another_rank_keeps_the_constructor_peer_gone_out_of_network_setup(tmp_path, root,
                                                                                                  me):
    lines = [*_ctor_tb(me), _pair(me, peer="10.0.0.2", port=5678), *_torchrun_record(root, me)]   # g4.log
    v, acc = verdict_accused(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] != "network_setup" and me not in acc, v


def test_the_bare_constructor_failure_and_its_own_ranks_root_cause_still_read_network_setup(tmp_path):
    # rule L/X (1)'s shape (pytorch-pr61396): nothing else failing of its own
    v, acc = verdict_accused(tmp_path, "\n".join(_ctor_tb(0) + [_pair(0, peer="10.0.0.2")]) + "\n")
    assert v["cause"] == "network_setup" and v["culprits"] == [] and not acc, v
    # a loopback peer keeps the constructor's race words
    v, acc = verdict_accused(tmp_path, "\n".join(
        _ctor_tb(None, "pg = c10d.ProcessGroupGloo(store, self.rank, self.world_size, self.opts())")
        + [_pair(None, peer="127.0.0.1", port=48211, line=575)]) + "\n")
    assert v["cause"] == "network_setup" and "dist.barrier(group=pg)" in v["fix"] and not acc, v
    # torchrun's Root Cause naming the constructor's own rank: still the constructor's failure
    lines = [*_ctor_tb(0), _pair(0, peer="10.0.0.2"), *_torchrun_record(0, 1)]
    v, acc = verdict_accused(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] == "network_setup" and not acc, v
    # an exception that is itself a peer gone, of another rank, is no failure of its own
    lines = [_pair(1, "Connection reset by peer", "10.0.0.1", 7001), *_ctor_tb(0), _pair(0, peer="10.0.0.2")]
    v, acc = verdict_accused(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] == "network_setup" and not acc, v


# --- the same shortcut inside init_process_group's frame (the second reviewer's g7; older than round 102) -------------
_INIT_TB = ("[rank{me}]: Traceback (most recent call last):\n"
            '[rank{me}]:   File "/workspace/train.py", line 31, in <module>\n'
            '[rank{me}]:     dist.init_process_group("gloo", rank=rank, world_size=world_size)\n'
            '[rank{me}]:   File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line '
            "1520, in init_process_group\n"
            "[rank{me}]:     default_pg, _ = _new_process_group_helper(\n"
            "[rank{me}]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection reset by "
            "peer [{peer}]:41220\n")


@pytest.mark.parametrize("other,me,exc,peer", [
    (1, 0, "FileNotFoundError: [Errno 2] No such file or directory: '/data/shard_1.pt'", "127.0.0.1"),
    (3, 2, "ValueError: unknown backbone 'resnet5O'", "10.0.0.7"),
])
def test_a_peer_gone_inside_init_process_group_beside_another_ranks_own_error_names_that_rank(tmp_path, other, me,
                                                                                               exc, peer):
    own = (f"[rank{other}]: Traceback (most recent call last):\n"
           f'[rank{other}]:   File "/workspace/train.py", line 40, in <module>\n'
           f"[rank{other}]:     x = load(path)\n"
           f"[rank{other}]: {exc}\n")
    v, acc = verdict_accused(tmp_path, own + _INIT_TB.format(me=me, peer=peer))
    assert v["cause"] == "early_exit" and v["culprits"] == [other] and me not in acc, v


def test_a_lone_peer_gone_inside_init_process_group_still_reads_network_setup(tmp_path):
    v, acc = verdict_accused(tmp_path, _INIT_TB.format(me=0, peer="10.0.0.7"))
    assert v["cause"] == "network_setup" and v["culprits"] == [] and not acc, v
