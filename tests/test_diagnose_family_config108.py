"""How diagnose reads a framework's or launcher's own check of a setting every process shares (round 108, session 45,
fixer f1): a rank's exception behind srun -l's task label and torch's own rank tag, Megatron's check that the layers
divide over the pipeline stages, fairseq's assert that torch_xla's world is the configured one, DeepSpeed's batch
identity with a world of one, TCPStore refused a port above 65535, transformers' check that the model it was given is
neither a folder nor a Hub model id (also glued before torchrun's record of that worker), and the fix words of
argparse's --local-rank, env:// without a launcher and a launcher not on PATH. Each test reads the shape from lines
other than the corpus case's own (other ranks, numbers, paths, names), and a near shape that keeps its old reading.
Hosts, pids, paths and model names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.verdict import launch
from tests.conftest import verdict_accused


# --- srun -l's task label before torch's rank tag ---------------------------------------------------------------------
def test_a_ranks_exception_behind_srun_label_and_rank_tag_is_read(tmp_path):
    """Lead rules W, Q: '7: [rank7]: AssertionError: ...' (srun -l's label, then torch's own tag) is that rank's
    exception, read as it is without the label -- a Megatron check that the layers divide over the pipeline stages:
    config, nobody; the fix names both settings and Megatron's uneven split."""
    text = "".join(f"{r}: [rank{r}]: {line}\n" for r in (7,) for line in (
        "Traceback (most recent call last):",
        '  File "/opt/py/site-packages/megatron/core/transformer/transformer_block.py", line 98, in '
        "get_num_layers_to_build",
        "    num_layers % config.pipeline_model_parallel_size == 0",
        "AssertionError: num_layers should be divisible by pipeline_model_parallel_size"))
    text += " 3: [rank3]:   File \"/opt/py/site-packages/lightning/pytorch/trainer/call.py\", line 46, in _call\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "make num_layers divisible by pipeline_model_parallel_size" in v["fix"], v
    assert "num_layers_in_first_pipeline_stage" in v["fix"], v


def test_a_padded_srun_label_before_the_rank_tag_reads_the_same(tmp_path):
    """srun pads its labels to the widest task number (' 4: ' beside '12: '): the same reading."""
    text = "".join(f" 4: [rank4]: {line}\n" for line in (
        '  File "/opt/py/site-packages/megatron/core/transformer/transformer_block.py", line 98, in build',
        "AssertionError: num_layers should be divisible by pipeline_model_parallel_size"))
    text += "12: [rank12]:   File \"/opt/py/site-packages/lightning/pytorch/trainer/call.py\", line 46, in _call\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "make num_layers divisible by pipeline_model_parallel_size" in v["fix"], v


def test_srun_label_before_another_exception_keeps_its_rank(tmp_path):
    """The same label before a rank's own runtime error (not a settings check): that rank's failure, read from its
    tag as before -- the label is stripped from the body, not made a second rank."""
    text = ("12: [rank12]: Traceback (most recent call last):\n"
            "12: [rank12]:   File \"/work/train.py\", line 40, in step\n"
            "12: [rank12]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 4 has a total "
            "capacity of 79.10 GiB of which 1.02 GiB is free.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and acc == {12}, (v, acc)


def test_divisible_named_needs_settings_names():
    """The fix's sentence names two settings only where the message names them (identifiers with '_'); prose ("it
    must be divisible by 8") gets none."""
    assert "make hidden_size divisible by tensor_model_parallel_size" in launch._divisible_named(
        "hidden_size must be divisible by tensor_model_parallel_size")
    assert launch._divisible_named("the length must be divisible by 8") == ""


# --- fairseq's assert of the XLA world against the configured world ---------------------------------------------------
def test_xrt_world_size_against_the_configured_world_is_a_launch_assert(tmp_path):
    """Lead rules W, Q: an xmp.spawn child's bare AssertionError under 'assert xm.xrt_world_size() ==
    cfg.distributed_world_size': config, nobody (the TPU index is no rank); the fix names matching the world to the
    TPU cores."""
    text = ("Exception in device=TPU:3: \n"
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.8/site-packages/torch_xla/distributed/xla_multiprocessing.py", line 330, in '
            "_mp_start_fn\n"
            '  File "/srv/fairseq/fairseq/distributed/utils.py", line 190, in distributed_init\n'
            "    assert xm.xrt_world_size() == cfg.distributed_world_size\n"
            "AssertionError\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "match nprocs / --distributed-world-size to xm.xrt_world_size()" in v["fix"], v


def test_world_assert_against_a_gathered_list_stays_data():
    """The near shape: the world compared with a gathered list's length is a check of data, not of the launch (its
    reading unchanged), while the XLA world against a configured one is a launch assert."""
    assert S.R_ASSERT_WORLD.match("    assert xm.xrt_world_size() == args.distributed_world_size")
    from ncclDoctor.diagnose.readers.crash import world_cond
    assert world_cond("    assert xm.xrt_world_size() == args.distributed_world_size", "", "") is not None
    assert world_cond("    assert len(all_preds) == xm.xrt_world_size()", "", "") is None


# --- DeepSpeed's batch identity with a world of one -------------------------------------------------------------------
def test_deepspeed_batch_identity_with_world_one_says_deepspeed_saw_one_process(tmp_path):
    """Lead rule W: DeepSpeed's batch assert whose world size is 1 while the batch fits a larger world: config, nobody;
    the fix says the world DeepSpeed saw and names launching every GPU."""
    text = ("[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal to "
            "micro_batch_per_gpu * gradient_acc_step * world_size 32 != 4 * 2 * 1\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "DeepSpeed saw a world size of 1 (the batch fits a world size of 4)" in v["fix"], v
    assert "check CUDA_VISIBLE_DEVICES / that the launcher actually started all ranks" in v["fix"], v


def test_deepspeed_batch_identity_with_a_larger_world_keeps_its_old_fix(tmp_path):
    """The near shape: the same assert with a world of 8 -- the batch settings themselves: no world-of-one sentence."""
    text = ("[rank2]: AssertionError: Check batch related parameters. train_batch_size is not equal to "
            "micro_batch_per_gpu * gradient_acc_step * world_size 48 != 4 * 2 * 8\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "micro_batch_per_gpu x gradient_accumulation_steps x world_size" in v["fix"], v
    assert "DeepSpeed saw a world size of 1" not in v["fix"], v


# --- TCPStore invoked with a port above 65535 -------------------------------------------------------------------------
_STORE_REFUSED = (
    "TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:\n"
    "    1. torch._C._distributed_c10d.TCPStore(host_name: str, port: int, world_size: int = -1, is_master: bool = "
    "False, timeout: datetime.timedelta = datetime.timedelta(seconds=300), wait_for_workers: bool = True, "
    "multi_tenant: bool = False)\n"
    "\n"
    "Invoked with: '{host}', {port}, 2, True, datetime.timedelta(seconds=900); kwargs: multi_tenant=True\n")


def test_tcpstore_invoked_with_a_port_above_65535_is_master_port_out_of_range(tmp_path):
    """Lead rules Q, V (1), W, BR (1): the port shown is no TCP port: config, nobody; the fix names MASTER_PORT's
    range, not a torch reinstall."""
    v, acc = verdict_accused(tmp_path, _STORE_REFUSED.format(host="10.0.3.7", port=70123))
    assert v["cause"] == "config" and not acc, v
    assert "MASTER_PORT 70123 is out of the valid port range 0-65535" in v["fix"], v
    assert "reinstall" not in v["fix"], v


def test_tcpstore_port_is_read_past_a_wrapped_listing(tmp_path):
    """The same refusal with its listing hard-wrapped at 80 columns (the "Invoked with:" line further down, holding no
    trigger word): the port is still read."""
    text = _STORE_REFUSED.format(host="localhost", port=99999)
    wrapped = "".join(line[i:i + 80] + "\n" for line in text.split("\n")[:-1] for i in range(0, max(len(line), 1), 80))
    v, acc = verdict_accused(tmp_path, wrapped)
    assert v["cause"] == "config" and not acc, v
    assert "MASTER_PORT 99999 is out of the valid port range" in v["fix"], v


def test_tcpstore_refused_with_a_valid_port_keeps_the_version_mix(tmp_path):
    """The near shape: the same refusal with a valid port is the binding's version mix (an unknown keyword), as
    before."""
    v, acc = verdict_accused(tmp_path, _STORE_REFUSED.format(host="node-a", port=29511))
    assert v["cause"] == "config" and not acc, v
    assert "reinstall PyTorch cleanly" in v["fix"] and "out of the valid port range" not in v["fix"], v


# --- transformers' model-id check -------------------------------------------------------------------------------------
def test_not_a_valid_model_identifier_is_config_nobody(tmp_path):
    """Lead rules BF (3), U (2), Q: a worker's OSError that the model is neither a folder nor a Hub model id, then
    torchrun's record of that worker: config, nobody; the fix names the model path and the token."""
    text = ("OSError: acme/vision-7b is not a local folder and is not a valid model identifier listed on "
            "'https://huggingface.co/models'\n"
            "If this is a private repository, make sure to pass a token having permission to this repo with "
            "`use_auth_token` or log in with `huggingface-cli login` and pass `use_auth_token=True`.\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 2211) of "
            "binary: /usr/bin/python3\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "pass a correct model path or hugging face model identifier" in v["fix"].lower(), v


def test_model_identifier_glued_before_torchruns_record_is_read_the_same(tmp_path):
    """The same text flattened onto one line with the agent's record after it (a page that lost its line breaks),
    its head cut: config, nobody -- not the one worker the record names."""
    text = ("Exit code: 1. Reason: not a local folder and is not a valid model identifier listed on "
            "'https://huggingface.co/models' If this is a private repository, make sure to pass a token. "
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 91) of "
            "binary: /opt/conda/bin/python3 Traceback (most recent call last): File \"/opt/conda/lib/python3.9/"
            "runpy.py\", line 197, in _run_module_as_main\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "huggingface-cli login" in v["fix"], v


def test_a_worker_record_after_another_error_keeps_its_worker(tmp_path):
    """The near shape: torchrun's record glued after a line with no model check: the record's worker is still read
    (no model-id reading; its glued text is not the news)."""
    text = ("Reason: something went wrong. ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) "
            "local_rank: 0 (pid: 91) of binary: /opt/conda/bin/python3\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "model identifier" not in v["fix"], v
    assert v["cause"] != "config", v
    assert S.R_HF_MODEL_ID.search("x is not a local folder and is not a valid model identifier listed on "
                                  "'https://huggingface.co/models'")
    assert S.R_HF_MODEL_ID.search(text) is None


# --- fix words of three launch settings -------------------------------------------------------------------------------
def test_local_rank_refusal_names_parse_known_args(tmp_path):
    """Lead rule U (2): argparse refusing the launcher's --local-rank on two workers: config, nobody; the fix also
    names parse_known_args."""
    text = "".join(f"finetune.py: error: unrecognized arguments: --local-rank={r}\n" for r in (3, 1))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "use parse_known_args so the launcher's extra argument is ignored" in v["fix"], v


def test_env_rendezvous_without_a_launcher_names_explicit_rank_and_world(tmp_path):
    """Lead rules Q, BL (4): env:// with WORLD_SIZE unset: config, nobody; the fix names passing rank= and
    world_size= to init_process_group."""
    text = ("ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
            "WORLD_SIZE expected, but not set\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "pass rank= and world_size= explicitly to init_process_group" in v["fix"], v


def test_launcher_not_found_names_the_user_scripts_directory(tmp_path):
    """Lead rules AF (2), X (2): the shell finding no deepspeed launcher: config, nobody; the fix names the pip
    scripts directory of a --user install."""
    text = "bash: line 1: deepspeed: command not found\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "add the pip scripts directory (e.g. ~/.local/bin) to PATH" in v["fix"], v
