"""Cut tracebacks and a launcher's own argument error whose frames alone say what failed, round 84 (rules L, Y, AN (2),
BC (1), BL (4), Q, BG (3) by source location, X (2), U (2)).

- A traceback cut inside the frame line of torch's rendezvous module (torch/distributed/rendezvous.py) right under
  init_process_group's rendezvous step ("store, rank, world_size = next(rendezvous_iterator)" the code line above it),
  its function's name cut short ("in _en"): what that next() enters is the rendezvous handler itself, which creates or
  connects the job's TCPStore -- store_rendezvous, culprits [] (rules BC (1), L, Y, AN (2);
  openseg.pytorch-100). A rendezvous.py frame cut under another code line (the handler's own call of
  _get_env_or_raise: an environment variable's lookup) is not read so: it stays unknown.
- A traceback cut inside c10d's lookup of the default process group (distributed_c10d.py's _get_default_group, at
  its "raise" or before its code line): that function raises only "Default process group has not been
  initialized", so it is rule BL (4)'s process group never created -- config, culprits [] (video2dataset-314). A
  cut at the calling frame's own line (get_rank's "default_pg = _get_default_group()") is not read so: rule BG (6)'s
  unknown stays, as does torch 1.x's _check_default_pg cut at its assert's code line (nolauncher81).
- A ValueError / TypeError whose innermost frame is torchrun's own entry module (torch/distributed/run.py:
  determine_local_world_size's "return int(nproc_per_node)" -> "invalid literal for int() with base 10: ''"): the
  launcher refusing a launch argument before any worker ran -- config, culprits [] (rules X (2), U (2), Q;
  esam-34). The same ValueError raised in the job's own script is not read so: it stays unknown.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_SITE = "/opt/conda/lib/python3.8/site-packages/torch/distributed"
_RDZV_HEAD = ("Traceback (most recent call last):\n"
              '  File "/work/proj/train.py", line 40, in <module>\n'
              "    setup_dist(args)\n"
              '  File "/work/proj/utils/dist.py", line 22, in setup_dist\n'
              '    torch.distributed.init_process_group(backend="nccl", init_method="env://")\n')


def test_cut_frame_right_under_the_rendezvous_step_is_the_store_set_up(tmp_path):
    v = _verdict(tmp_path, _RDZV_HEAD
                 + f'  File "{_SITE}/distributed_c10d.py", line 500, in init_process_group\n'
                 "    store, rank, world_size = next(rendezvous_iterator)\n"
                 f'  File "{_SITE}/rendezvous.py", line 190, in _en\n')
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v
    assert "MASTER_PORT" in v["fix"], v


def test_cut_rendezvous_frame_under_an_env_lookup_is_not_read_as_the_store(tmp_path):
    v = _verdict(tmp_path, _RDZV_HEAD
                 + f'  File "{_SITE}/rendezvous.py", line 157, in _env_rendezvous_handler\n'
                 '    rank = int(_get_env_or_raise("RANK"))\n'
                 f'  File "{_SITE}/rendezvous.py", line 90, in _ge\n')
    assert v["cause"] == "unknown", v


_NO_PG = ("Traceback (most recent call last):\n"
          '  File "/home/u/proj/test.py", line 16, in <module>\n'
          "    dset = build_dataset(urls)\n"
          '  File "/home/u/proj/data/wds.py", line 505, in __init__\n'
          "    global_rank = dist.get_rank()\n"
          "                  ^^^^^^^^^^^^^^^\n"
          '  File "/home/u/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 1532, '
          "in get_rank\n"
          "    default_pg = _get_default_group()\n"
          "                 ^^^^^^^^^^^^^^^^^^^^\n")


def test_cut_at_the_default_group_lookups_raise_is_no_process_group(tmp_path):
    v = _verdict(tmp_path, _NO_PG
                 + '  File "/home/u/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
                 "line 977, in _get_default_group\n"
                 "    raise\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "dist.is_initialized()" in v["fix"] and "init_process_group" in v["fix"], v


def test_cut_at_get_ranks_own_line_keeps_the_unknown(tmp_path):
    v = _verdict(tmp_path, _NO_PG)
    assert v["cause"] == "unknown", v


def test_torchruns_own_int_of_an_empty_nproc_per_node_is_config(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 f'  File "{_SITE}/run.py", line 606, in determine_local_world_size\n'
                 "    return int(nproc_per_node)\n"
                 "ValueError: invalid literal for int() with base 10: ''\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "--nproc_per_node" in v["fix"], v


def test_the_same_valueerror_in_the_scripts_own_code_stays_unknown(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 '  File "/work/proj/train.py", line 12, in <module>\n'
                 "    gpus = int(args.gpus)\n"
                 "ValueError: invalid literal for int() with base 10: ''\n")
    assert v["cause"] == "unknown", v
