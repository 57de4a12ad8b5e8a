"""Review 93, t1: four readings of this session's new code that were too broad or gave wrong advice.

- F1. A bare `assert self.num_samples >= 1` was read as a distributed sampler's own check (config, the data set
  smaller than the world, rules W / BU (1)) whenever the frame above it held "ampler" or "distributed" anywhere in
  its path -- a project folder `/workspace/distributed-rl/`, a diffusion `ddim_sampler.py`. Now the frame must be a
  sampler module's own (torch's torch/utils/data/distributed.py, Lightning's overrides/distributed.py under
  site-packages) in its __init__ / __iter__; the job's own assert in its own code reads as rule BJ (2): unknown.
- F3. An exported MASTER_ADDR left empty (redacted) after the second block's RANK / WORLD_SIZE added "" to the
  addresses and dropped the rank-twice reading (rules AA (1), V (1)); placed first it did not. Now an empty value
  names no address in either order.
- F7. The relative-path advice said "run from the repo root (relative ../x is under it)": false for "../" paths (they
  lie beside the launch directory) and one layout stated as general. Now a "../" path resolves against the launch
  directory's parent, and any other relative path is read from the launch directory, with no repo-root claim.
- F5. The shell prompt that resets a run's warnings (R_SHELL_LAUNCH) saw only a bare "$ ", "# " or "> ": it missed
  "user@host:~/proj$ torchrun", "root@abc:/workspace# python", "(base) $ ..." and fired on a pasted script's comment
  "# python train.py --old-flags". Now a user@host / (env) prefix is allowed, and "# " counts only after one.

Paths, hosts and programs are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


# --- F1: the sampler's own num_samples check ----------------------------------------------------------------------
def _assert_tb(path: str, func: str, cond: str = "assert self.num_samples >= 1") -> str:
    return ('Traceback (most recent call last):\n'
            '  File "/srv/jobs/eval/run.py", line 88, in <module>\n'
            '    out = trainer.predict(model, dm)\n'
            f'  File "{path}", line 61, in {func}\n'
            f'    {cond}\n'
            'AssertionError\n')


def test_a_replay_buffers_own_num_samples_assert_is_the_codes_own_error(tmp_path):
    """The reviewer's counter-example: a project folder named distributed-rl, its replay buffer's own assert."""
    text = ('Traceback (most recent call last):\n'
            '  File "/workspace/distributed-rl/train.py", line 210, in <module>\n'
            '    main()\n'
            '  File "/workspace/distributed-rl/train.py", line 180, in main\n'
            '    batch = buffer.sample(cfg.batch_size)\n'
            '  File "/workspace/distributed-rl/replay_buffer.py", line 55, in sample\n'
            '    assert self.num_samples >= 1\n'
            'AssertionError\n')
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and "sampler" not in v["summary"], v
    assert "use_distributed_sampler" not in v["fix"] and not _accused(d), v


def test_a_diffusion_samplers_file_is_not_a_distributed_sampler(tmp_path):
    d = _report(tmp_path, _assert_tb("/home/u/ldm/models/diffusion/ddim_sampler.py", "__init__"))
    v = d["verdict"]
    assert v["cause"] != "config" and "smaller than the number of processes" not in v["summary"], v


def test_torch_and_lightning_sampler_frames_still_read_the_world_split(tmp_path):
    for path in ("/opt/venv/lib/python3.11/site-packages/lightning/pytorch/overrides/distributed.py",
                 "/usr/local/lib/python3.9/dist-packages/pytorch_lightning/overrides/distributed.py",
                 "/opt/conda/lib/python3.10/site-packages/torch/utils/data/distributed.py"):
        d = _report(tmp_path, _assert_tb(path, "__init__"))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (path, v)
        assert "smaller than the number of processes" in v["summary"], (path, v)
    # the total_size alternative needs no frame
    d = _report(tmp_path, _assert_tb("/workspace/distributed-rl/my_sampler.py", "build",
                                     "assert self.num_samples >= 1 or self.total_size == 0"))
    assert d["verdict"]["cause"] == "config", d["verdict"]


# --- F3: an exported MASTER_ADDR left empty ---------------------------------------------------------------------
_EXPORTS = ("node0 launch.sh:\n"
            "export MASTER_ADDR=10.0.0.1\n"
            "export WORLD_SIZE=2\n"
            "export RANK=0\n"
            "\n"
            "node1 launch.sh:\n")


def test_an_empty_master_addr_after_the_rank_keeps_the_rank_twice_reading(tmp_path):
    late = _report(tmp_path, _EXPORTS + "export WORLD_SIZE=2\nexport RANK=0\nexport MASTER_ADDR=\n")["verdict"]
    first = _report(tmp_path, _EXPORTS + "export MASTER_ADDR=\nexport WORLD_SIZE=2\nexport RANK=0\n")["verdict"]
    assert (late["cause"], late["confidence"]) == ("config", "medium"), late
    assert "RANK=0" in late["summary"], late
    assert (late["cause"], late["culprits"], late["confidence"]) == (
        first["cause"], first["culprits"], first["confidence"]), (late, first)


def test_a_second_real_master_addr_still_refuses_the_rank_twice_reading(tmp_path):
    """Two different addresses are two jobs, not one launch giving RANK=0 twice: the late update still adds it."""
    v = _report(tmp_path, _EXPORTS + "export WORLD_SIZE=2\nexport RANK=0\nexport MASTER_ADDR=10.0.0.9\n")["verdict"]
    assert "RANK=0" not in v["summary"], v


# --- F7: the relative-path advice ---------------------------------------------------------------------------------
def _enoent(path: str) -> str:
    return ('Traceback (most recent call last):\n'
            '  File "tools/train.py", line 120, in <module>\n'
            '    ann = json.load(open(cfg.ann_file))\n'
            f"FileNotFoundError: [Errno 2] No such file or directory: '{path}'\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 81234) "
            "of binary: /usr/bin/python3\n")


def test_a_parent_relative_path_resolves_against_the_launch_directorys_parent(tmp_path):
    d = _report(tmp_path, _enoent("../datasets/coco/annotations/instances_train2017.json"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "launch directory's parent" in v["fix"] and "which directory the job was started in" in v["fix"], v
    assert "repo root" not in v["fix"] and "is under it" not in v["fix"], v


def test_a_plain_relative_path_is_read_from_the_launch_directory(tmp_path):
    d = _report(tmp_path, _enoent("./data/coco/train.json"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "the directory the job was launched in" in v["fix"] and "repo root" not in v["fix"], v
    assert "parent" not in v["fix"], v


# --- F5: the shell prompt that starts a new run --------------------------------------------------------------------
_NUMPY = ("/opt/conda/lib/python3.10/site-packages/torch/_subclasses/functional_tensor.py:258: UserWarning: Failed "
          "to initialize NumPy: _ARRAY_API not found (Triggered internally at ../torch/csrc/utils/tensor_numpy.cpp:84.)"
          "\n  cpu = _conversion_method_template(device=torch.device(\"cpu\"))\n")
_CUT = ("[rank0]: Traceback (most recent call last):\n"
        "[rank0]:   File \"/home/user/proj/train.py\", line 212, in <module>\n"
        "[rank0]:     main()\n"
        "[rank0]:   File \"/home/user/proj/train.py\", line 98, in main\n"
        "[rank0]:     dist.barrier()\n"
        "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/c10d_logger.py\", line 83, in "
        "wrapper\n"
        "[rank0]:     return func(*args, **kwargs)\n"
        "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line 4164, "
        "in barrier\n"
        "[rank0]:     work = default_pg.barrier(opts=opts)\n")


def test_real_prompts_start_a_new_run(tmp_path):
    for prompt in ("user@gpu-node3:~/proj$ torchrun --nproc_per_node 8 train.py",
                   "root@7f3ac1d2:/workspace# python train.py",
                   "(base) $ torchrun --nproc_per_node 8 train.py",
                   "(venv) user@box:~/proj$ python -m torch.distributed.run train.py",
                   "$ torchrun --nproc_per_node 8 train.py"):
        v = _report(tmp_path, _NUMPY + prompt + "\n" + _CUT)["verdict"]
        assert v["cause"] == "unknown" and "numpy<2" not in v["fix"], (prompt, v)


def test_a_scripts_comment_is_no_prompt(tmp_path):
    """A pasted script's comment naming an old command does not end the run's own warning (rules BP (1), BQ (2)).
    (A comment with no trigger word is an unread line, which ends the warning on its own: not this reset's work.)"""
    v = _report(tmp_path, _NUMPY + "# torchrun --nproc_per_node 8 train.py --old-flags\n" + _CUT)["verdict"]
    assert v["cause"] == "config" and "numpy<2" in v["fix"], v
    w = _report(tmp_path, _NUMPY + _CUT)["verdict"]
    assert (v["cause"], v["confidence"]) == (w["cause"], w["confidence"]), (v, w)
