"""Calls refused for their arguments and parallel layouts that do not fit, as round 87 showed them (rules BK (1),
BL (4), BG (5), AV, BA (3), BB (4), W, AE, AF (2) with round 41's sentence, BR (1)): one process's traceback ends in a
check every process makes alike, so no rank is named; what the check refused says the cause and the fix.

- DistributedDataParallel's constructor refusing a keyword argument ("__init__() got an unexpected keyword argument
  'sdevice_ids'") raised on the job's own line that builds DDP is the caller's usage (rules BK (1), BL (4), BG (5)):
  invalid_usage, no rank, even beside torch.distributed.launch's record of its one worker (ssl-fl-11). The same
  refusal raised on a line of an installed package (site-packages) is not read so: a library of another version.
  Python 3.10+ names the class in the message (DistributedDataParallel.__init__()), read wherever it is; Python 3.8's
  bare "__init__()" needs the frame's code line building DDP, which holds no trigger word: read only where the parser
  follows the traceback down to it (as in ssl-fl-11, also pasted wrapped at 80 columns); elsewhere the old reading
  stays.
- torch.distributed's "The global rank 0 is not part of the group" (a collective's src / dst not a member of the
  sub-group it runs on) is torch refusing the caller's arguments (rules AV, BA (3), BB (4)): invalid_usage, no rank
  (fastmoe-119). Another error raised in a collective's dispatch keeps its old reading.
- The parallel frameworks' ensure_divisibility message, two bare numbers ("AssertionError: 4 is not divisible by 8"),
  is their check of the parallel layout (rules W, AE): config, no rank, the fix naming the expert parallel size
  among the sizes to fit (fambench-103); vLLM's "n_physical_experts=256 must be divisible by ep_size=3" gets the same
  fix (vllm-52435). A sentence with a number in it ("batch size 10 is not divisible by 4") is not read so.
- pybind's "incompatible constructor arguments" whose listing is cut inside the class's name ("1. torch._C._distri")
  still names the library by the listing's complete components: torch's own class, so the fix is a clean PyTorch
  reinstall (rules AF (2), BR (1); megatron-lm-766). A whole listing keeps its reading, the class named.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.8/site-packages"


# --- DDP's constructor refusing a keyword -----------------------------------------------------------------------------
def _ddp_kwarg(caller: str) -> str:
    return ("python -m torch.distributed.launch --nproc_per_node=1 train.py\n\n"
            "Traceback (most recent call last):\n"
            '  File "train.py", line 52, in <module>\n'
            "    main(args)\n"
            '  File "train.py", line 198, in main\n'
            "    clients = build_clients(args, model)\n"
            f'  File "{caller}", line 160, in build_clients\n'
            "    model = torch.nn.parallel.DistributedDataParallel(model, devce_ids=[args.gpu])\n"
            "TypeError: DistributedDataParallel.__init__() got an unexpected keyword argument 'devce_ids'\n"
            "Killing subprocess 4242\n"
            "Traceback (most recent call last):\n"
            f'  File "{_SP}/torch/distributed/launch.py", line 326, in main\n'
            "    sigkill_handler(signal.SIGTERM, None)  # not coming back\n")


def test_ddps_constructor_refusing_the_jobs_own_keyword_is_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, _ddp_kwarg("/work/proj/util/fed_utils.py"))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "device_ids" in v["fix"] and "devce_ids" in v["fix"], v


def test_the_same_refusal_raised_inside_an_installed_package_is_not_read_so(tmp_path):
    v, _acc = _verdict(tmp_path, _ddp_kwarg(f"{_SP}/somelib/wrap.py"))
    assert v["cause"] != "invalid_usage", v


# --- a collective's src outside its group -----------------------------------------------------------------------------
def _c10d_raise(message: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "test_ddp.py", line 139, in <module>\n'
            "    run()\n"
            f'  File "{_SP}/fmoe/distributed.py", line 100, in _sync_params\n'
            "    torch.distributed.broadcast(coalesced, 0, group=comm)\n"
            f'  File "{_SP}/torch/distributed/distributed_c10d.py", line 1092, in broadcast\n'
            "    group_src_rank = _get_group_rank(group, src)\n"
            f'  File "{_SP}/torch/distributed/distributed_c10d.py", line 252, in _get_group_rank\n'
            '    raise RuntimeError(f"...") from None\n'
            f"RuntimeError: {message}\n")


def test_a_collectives_src_not_in_its_group_is_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, _c10d_raise(
        "The global rank 0 is not part of the group <torch._C._distributed_c10d.ProcessGroupNCCL object at 0x7f5"))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "get_global_rank" in v["fix"], v


def test_another_error_raised_there_keeps_its_reading(tmp_path):
    v, acc = _verdict(tmp_path, _c10d_raise("Something else went wrong in the group"))
    assert v["cause"] == "unknown" and not acc, v


# --- the parallel frameworks' divisibility check ----------------------------------------------------------------------
def _assert_cut(message: str) -> str:
    return (f"AssertionError: {message}\n"
            "No existing process group found, creating a new group named: ep_size_8\n"
            "Traceback (most recent call last):\n"
            '  File "train.py", line 263, in main\n'
            "    engine, _, _, _ = deepspeed.initialize(args=ds_args,\n"
            f'  File "{_SP}/deepspeed/runtime/engine.py", line 288, in __init__\n'
            "    self._configure_distributed_model(model)\n")


def test_ensure_divisibilitys_bare_numbers_are_the_parallel_layout(tmp_path):
    v, acc = _verdict(tmp_path, _assert_cut("4 is not divisible by 8"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "ep_size" in v["fix"] and "num_experts" in v["fix"], v


def test_a_sentence_with_a_number_not_divisible_is_not_read_so(tmp_path):
    v, acc = _verdict(tmp_path, _assert_cut("batch size 10 is not divisible by 4 here"))
    assert v["cause"] == "unknown" and not acc, v


def test_an_expert_count_not_divisible_by_ep_size_names_the_expert_parallel_size(tmp_path):
    v, acc = _verdict(tmp_path, (
        "(Worker_DP2_EP2 pid=1216) ERROR 08-15 08:18:38 multiproc_executor.py:912]     assert self.n_physical_experts "
        "% self.ep_size == 0, (\n"
        "(Worker_DP2_EP2 pid=1216) ERROR 08-15 08:18:38 multiproc_executor.py:912] AssertionError: "
        "n_physical_experts=256 must be divisible by ep_size=3. Adjust num_redundant_experts.\n"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "expert parallel size" in v["fix"] and "num_redundant_experts" in v["fix"], v


# --- pybind's listing cut inside the class's name ---------------------------------------------------------------------
def _binding(listing: str) -> str:
    return ("[rank1]:   File \"/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line 1431, "
            "in _new_process_group_helper\n"
            "[rank1]:     pg: ProcessGroup = ProcessGroup(prefix_store, group_rank, group_size, base_pg_options)\n"
            "[rank1]: TypeError: __init__(): incompatible constructor arguments. The following argument types are "
            "supported:\n"
            f"[rank1]:     1. {listing}\n")


def test_a_binding_listing_cut_in_torchs_class_name_names_pytorch(tmp_path):
    v, acc = _verdict(tmp_path, _binding("torch._C._distributed_c"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "reinstall PyTorch cleanly" in v["fix"], v


def test_a_whole_listing_keeps_its_class_named(tmp_path):
    v, acc = _verdict(tmp_path, _binding("torch._C._distributed_c10d.ProcessGroup(self: torch._C._distributed_c10d."
                                         "ProcessGroup, arg0: int, arg1: int) -> None"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "ProcessGroup" in v["summary"] and "the listing cut" not in v["summary"], v
