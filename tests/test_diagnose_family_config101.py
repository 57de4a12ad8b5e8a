"""How diagnose reads a configuration a framework or the launcher refuses, in the four shapes rounds 100-101 showed it
missing (all config, nobody named, nobody cleared).

- A loader's own check that an argument the checkpoint was saved with is the one launched (Megatron-LM's
  checkpointing._compare: "tensor_model_parallel_size value from checkpoint (1) is not equal to the input argument
  value (2)."; round 100's megatron-lm-296): every rank loads the same checkpoint with the same arguments (lead rules
  W, Q, J). Near shape: a checkpoint's weight shape mismatch is no argument check.
- torchrun's own traceback cut at its config_from_args frame (its argument check), before any worker started, after a
  Slurm script's empty node variables (round 100's s1-106; lead rules Q, W). Near shape: a cut in the agent's own
  frames keeps its unknown reading.
- torch.distributed.launch's record of the worker command it ran whose trailing yacs KEY VALUE overrides are not
  pairs ('MODEL.X', 'images_per_gpu', 'x', '1000'; round 101's maskrcnn-benchmark-1075; lead rules U (2), Q). Near
  shape: well-formed pairs keep the worker's failure reading.
- Every process raising ZeroDivisionError at `torch.cuda.set_device(rank % num_gpus)` (round 101's mmdetection-368;
  lead rule CD): no GPU visible. Near shape: a ZeroDivisionError of other code stays unknown (rule BG (1)).
Hosts, paths and numbers are made up.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


def _megatron(name: str, saved: str, now: str, tag: str = "") -> str:
    return (f'{tag}  File "/opt/work/megatron/checkpointing.py", line 61, in _compare\n'
            f"{tag}    assert checkpoint_value == args_value, error_message\n"
            f"{tag}AssertionError: {name} value from checkpoint ({saved}) is not equal to the input argument value "
            f"({now}).\n")


def test_a_checkpoint_argument_check_is_config_nobody_named(tmp_path):
    for name, saved, now, tag in (("tensor_model_parallel_size", "4", "8", ""),
                                  ("pipeline_model_parallel_size", "2", "1", "[rank3]: "),
                                  ("num_layers", "24", "32", "")):
        v, acc = _verdict(tmp_path, _megatron(name, saved, now, tag))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert name in v["summary"] and "--use-checkpoint-args" in v["fix"], v


def test_a_checkpoint_shape_mismatch_is_not_the_argument_check(tmp_path):
    text = ('  File "/opt/work/train.py", line 88, in load\n'
            "    model.load_state_dict(sd)\n"
            "RuntimeError: Error(s) in loading state_dict for GPT: size mismatch for wte.weight: copying a param with "
            "shape torch.Size([50304, 768]) from checkpoint, the shape in current model is torch.Size([50257, 768]).\n")
    v, _ = _verdict(tmp_path, text)
    assert "--use-checkpoint-args" not in v["fix"], v


_TORCHRUN = ('Traceback (most recent call last):\n'
             '  File "/opt/venv/bin/torchrun", line 8, in <module>\n'
             '    sys.exit(main())\n'
             '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/errors/'
             '__init__.py", line 348, in wrapper\n'
             '    return f(*args, **kwargs)\n'
             '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/run.py", line 901,{sp}in main\n'
             '    run(args)\n'
             '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/run.py", line 891,{sp}in run\n')


def test_torchrun_cut_in_its_argument_check_is_config_nobody_named(tmp_path):
    for sp, pre in ((" ", ""), ("", "scripts/train.sh: line 12: 64/(gpus * nodes): division by 0 (error token is "
                                    "\"(gpus * nodes)\")\nNumber of nodes: 0\nMaster address:\n")):
        text = (pre + _TORCHRUN.format(sp=sp) + "    config, cmd, cmd_args = config_from_args(args)\n"
                f'  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/run.py", line 760,{sp}in '
                "config_from_args\n")
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "--nnodes" in v["fix"] and "SLURM_JOB_NODELIST" in v["fix"], v


def test_torchrun_cut_in_its_agent_is_not_the_argument_check(tmp_path):
    text = (_TORCHRUN.format(sp=" ") + "    elastic_launch(\n"
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 133, in '
            "__call__\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] != "config" and not acc, v


def _cmd(rank: int, opts: str, head: str = "") -> str:
    return (f"{head}Command '['/opt/conda/bin/python', '-u', '/src/detector/tools/train_net.py', "
            f"'--local_rank={rank}', '--config-file', 'configs/e2e_faster_rcnn_R_50_FPN_1x.yaml', {opts}]' returned "
            "non-zero exit status 1.\n")


def test_malformed_config_overrides_in_the_launch_command_are_config(tmp_path):
    for rank, opts, head in ((0, "'MODEL.RPN.FPN_POST_NMS_TOP_N_TRAIN', 'images_per_gpu', 'x', '1000'", ' "'),
                             (3, "'SOLVER.IMS_PER_BATCH', '8', 'SOLVER.BASE_LR'",
                              "subprocess.CalledProcessError: "),
                             (1, "'SOLVER.MAX_ITER', 'iters', 'x', '2'", "")):
        v, acc = _verdict(tmp_path, _cmd(rank, opts, head))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "KEY" in v["fix"] and "VALUE" in v["fix"], v


def test_well_formed_config_overrides_keep_the_workers_failure_reading(tmp_path):
    """The launcher's record with KEY VALUE pairs is the one worker's failure it was (torch.distributed.launch's
    last worker, --local_rank=0: rule M), and the same record pasted without its "CalledProcessError" head stays
    unread, as before "non-zero exit status" was a trigger word."""
    opts = "'MODEL.RPN.FPN_POST_NMS_TOP_N_TRAIN', '2000', 'SOLVER.IMS_PER_BATCH', '8'"
    v, _ = _verdict(tmp_path, _cmd(0, opts, "subprocess.CalledProcessError: "))
    assert v["cause"] == "unknown" and v["culprits"] == [0], v
    v, acc = _verdict(tmp_path, _cmd(2, opts, ' "'))
    assert v["cause"] == "none" and not acc, v


def _mmdet(var: str, n: int) -> str:
    one = ("Traceback (most recent call last):\n"
           '  File "tools/train.py", line 91, in <module>\n'
           "    main()\n"
           '  File "tools/train.py", line 66, in main\n'
           "    init_dist(args.launcher, **cfg.dist_params)\n"
           '  File "/opt/conda/lib/python3.7/site-packages/mmdet/apis/env.py", line 30, in _init_dist_pytorch\n'
           f"    torch.cuda.set_device(rank % {var})\n"
           "ZeroDivisionError: integer division or modulo by zero\n")
    return one * n


def test_every_process_dividing_by_a_zero_gpu_count_is_config(tmp_path):
    for var, n in (("num_gpus", 2), ("torch.cuda.device_count()", 4), ("n_devices", 1)):
        v, acc = _verdict(tmp_path, _mmdet(var, n))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "nvidia-smi" in v["fix"], v


def test_a_zero_division_in_other_code_stays_unknown(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 120, in <module>\n'
            "    avg = total_loss / num_batches\n"
            "ZeroDivisionError: division by zero\n") * 2
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v
