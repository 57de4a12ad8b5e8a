"""A FileNotFoundError for a path beside an entry script's traceback cut at its mp.spawn call, no process named
(round 77).

Round 77's propainter-71 showed it: train.py spawns its workers (mp.spawn(main_worker, nprocs=..., args=(config,))),
each runs the same function with the same config, and the paste shows FileNotFoundError for a checkpoint path that
exists only on the authors' cluster, the spawn traceback cut before it names a process. A path every worker is
launched with that cannot be read is a launch setting (lead rules U (2), BF (3)): config, nobody named. Near shapes:
one named rank's own FileNotFoundError beside another rank's cut traceback (rule BG (4)), a process spawn names,
or no spawn call shown is not read so; one tag on every line (a collector's) names no worker.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_ERR = "FileNotFoundError: [Errno 2] No such file or directory: '/data/team/ckpts/flow_v3/gen_120000.pth'\n"
_START = ("python train.py -c configs/train_big.json\n"
          "world_size: 2\n"
          "using GPU 0-0 for training\n"
          "using GPU 1-1 for training\n")
_CUT = ("Traceback (most recent call last):\n"
        '  File "/home/u/proj/train.py", line 98, in <module>\n'
        "    mp.spawn(main_worker, nprocs=torch.cuda.device_count(), args=(config, ))\n")


def test_a_missing_path_beside_a_spawn_cut_before_any_process_is_named_is_config(tmp_path):
    for text in (_ERR + _START + _CUT, _START + _ERR + _CUT,
                 _ERR + _CUT.replace("mp.spawn(main_worker, nprocs=torch.cuda.device_count()",
                                     "torch.multiprocessing.spawn(run, nprocs=world")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "gen_120000.pth" in v["fix"] and "path in the config" in v["fix"], v


def test_a_named_ranks_missing_path_or_no_spawn_call_is_not_read_so(tmp_path):
    named = (_START + _CUT + "torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
             "-- Process 1 terminated with the following error:\nTraceback (most recent call last):\n" + _ERR)
    other = "[rank1]: " + _ERR + _START + "".join(f"[rank0]: {x}\n" for x in _CUT.splitlines())
    for text in (other, named, _ERR + _START):
        v = _verdict(tmp_path, text)
        assert "spawned worker runs the same function" not in v["summary"], (text, v)


def test_one_tag_on_every_line_is_the_whole_outputs_not_a_workers(tmp_path):
    """A collector's "[rank3]: " on every line, the spawning call's too, names the output, not a worker."""
    text = "".join(f"[rank3]: {x}\n" for x in (_ERR + _START + _CUT).splitlines())
    assert _verdict(tmp_path, text)["cause"] == "config"
