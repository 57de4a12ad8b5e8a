"""A launcher's own check of its set-up, and a shared install missing behind an optional import's guard, as round 89
showed them (rules X (2), AF (2) with round 41's sentence, Q's last sentence, BG (6) considered): the job stops before
(or right at) its start on what every worker shares, so no rank is named and nobody is innocent.

- DeepSpeed's runner raising its own ssh probe of its hostfile's first host ("Using hostfile at /etc/hostfile but
  host=X was not reachable via ssh", often beside ssh's "Could not resolve hostname X") is the launch set-up before any
  worker ran: config, no rank, the fix naming passwordless ssh, the hostfile and name resolution (volcano-2952). ssh's
  own "Could not resolve hostname" beside a worker's other exception keeps its old reading (not the launch alone).
- A traceback cut inside DeepSpeed's runner's filter of the hosts and slots it launches on (runner.py's
  parse_inclusion_exclusion / parse_resource_filter, which raise only that check) is that check: config, no rank,
  the fix naming --include / CUDA_VISIBLE_DEVICES / --num_gpus (yi-392, CUDA_VISIBLE_DEVICES=1 turned into
  --include=localhost:1). A cut in the runner's main (its launch of the workers) stays the cut-traceback unknown.
- "AttributeError: 'NoneType' object has no attribute 'initialize'" raised by a frame calling amp.initialize(...) is
  the guard "try: from apex import amp / except ImportError: amp = None": apex missing from the shared install, the
  same on every worker, even where torchrun's record names the one local rank -- config, no rank, the fix naming
  NVIDIA apex built with its extensions or torch.cuda.amp instead (swin-transformer-17). The same AttributeError on
  a name of the script's own (model.forward on a None model) keeps its reading: that rank's own exception.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.10/site-packages"


# --- DeepSpeed's runner's ssh probe of its hostfile -------------------------------------------------------------------
def test_deepspeed_hostfile_host_not_reachable_via_ssh_is_config(tmp_path):
    v, acc = _verdict(tmp_path, (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/bin/deepspeed", line 6, in <module>\n'
        "    main()\n"
        f'  File "{_SP}/deepspeed/launcher/runner.py", line 368, in main\n'
        "    raise RuntimeError(\n"
        "RuntimeError: Using hostfile at /etc/hostfile but host=job-7-worker-0.job-7 was not reachable via ssh. If "
        "you are running with a single node please remove /etc/hostfile or setup passwordless ssh.\n"
        "ssh: Could not resolve hostname job-7-worker-0.job-7: Name or service not known\n"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "passwordless ssh" in v["fix"] and "hostfile" in v["fix"] and "/etc/hosts" in v["fix"], v


def test_ssh_resolve_failure_beside_a_worker_exception_keeps_its_reading(tmp_path):
    v, _ = _verdict(tmp_path, (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 40, in <module>\n'
        "    main()\n"
        '  File "train.py", line 31, in main\n'
        "    raise RuntimeError(msg)\n"
        "RuntimeError: Something in the training loop went wrong at step 12\n"
        "ssh: Could not resolve hostname job-7-worker-0.job-7: Name or service not known\n"))
    assert v["cause"] != "config", v


# --- a traceback cut in DeepSpeed's runner's resource filter ----------------------------------------------------------
def _runner_cut(frames: str) -> str:
    return ("[2024-02-06 10:28:20,906] [WARNING] [runner.py:202:fetch_hostfile] Unable to find hostfile, will proceed "
            "with training with local resources only.\n"
            "Detected CUDA_VISIBLE_DEVICES=1: setting --include=localhost:1\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/bin/deepspeed", line 6, in <module>\n'
            "    main()\n" + frames)


def test_cut_inside_the_runners_resource_filter_is_config(tmp_path):
    v, acc = _verdict(tmp_path, _runner_cut(
        f'  File "{_SP}/deepspeed/launcher/runner.py", line 426, in main\n'
        "    active_resources = parse_inclusion_exclusion(resource_pool, args.include, args.exclude)\n"
        f'  File "{_SP}/deepspeed/launcher/runner.py", line 350, in parse_inclusion_exclusion\n'
        "    return parse_resource_filter(active_resources, include_str=inclusion, exclude_str=exc"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "--include localhost:1" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v


def test_cut_in_the_runners_main_keeps_its_reading(tmp_path):
    v, acc = _verdict(tmp_path, _runner_cut(
        f'  File "{_SP}/deepspeed/launcher/runner.py", line 571, in main\n'
        "    result = subprocess.Popen(cmd, env=env)"))
    assert v["cause"] == "unknown" and not acc, v


# --- an optional import's guard leaving the name None -----------------------------------------------------------------
def _none_attr(code: str, attr: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "main.py", line 357, in <module>\n'
            "    main(config)\n"
            '  File "main.py", line 89, in main\n'
            f"    {code}\n"
            f"AttributeError: 'NoneType' object has no attribute '{attr}'\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 93793) of "
            "binary: /opt/conda/bin/python\n")


def test_apex_amp_none_at_start_up_is_a_shared_install(tmp_path):
    v, acc = _verdict(tmp_path, _none_attr(
        "model, optimizer = amp.initialize(model, optimizer, opt_level=config.AMP_OPT_LEVEL)", "initialize"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "NVIDIA apex" in v["fix"] and "torch.cuda.amp instead of apex" in v["fix"], v


def test_none_attribute_on_the_scripts_own_name_keeps_its_reading(tmp_path):
    v, _ = _verdict(tmp_path, _none_attr("out = model.forward(batch)", "forward"))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
