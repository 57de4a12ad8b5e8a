"""How diagnose reads three start-up failures round 67 showed (session 24): FSDP's own check refusing to flatten a
wrapped unit's parameters of different dtypes (rules Q, W, AF (2); peft-484), MPICH's / Intel MPI's own start-up
failing in workers torchrun started ("Fatal error in PMPI_Init_thread", PMI_Get_appnum returned -1: rule X (2); a
oneCCL job on Intel GPUs), and a traceback cut inside the construction of a DeepSpeed op while torch's cpp_extension
JIT-builds the ops (rule AF (2); deepspeed-5627). Each test reads the shape from lines other than the corpus case's own
(other ranks, paths, wordings), and a near shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import watchdog_line


# --- FSDP's flatten check ------------------------------------------------------------------------------------------
def _fsdp_tb(rank: int, message: str, exc: str = "ValueError") -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_flat_param.py\", "
            "line 781, in _validate_tensors_to_flatten\n"
            f"[rank{rank}]:     raise ValueError(\n"
            f"[rank{rank}]: {exc}: {message}\n")


def test_fsdp_refusing_to_flatten_parameters_of_two_dtypes_is_the_models_setup(tmp_path):
    """Rules Q, W, AF (2): one rank's traceback ends in FSDP's own check that a wrapped unit's parameters share one
    dtype (a LoRA adapter in float32 beside a bfloat16 base model). Every rank wraps the same model with the same
    settings and fails the same check: config, no rank -- not the rank whose traceback happens to be shown; the fix
    names the dtype cast and FSDP's mixed precision. The requires_grad form is the same check, its fix
    use_orig_params."""
    d = _report(tmp_path, _fsdp_tb(3, "Must flatten tensors with uniform dtype but got torch.float16 and "
                                      "torch.float32"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "FlatParameter" in v["summary"] and "mixed_precision" in v["fix"] and "torch_dtype" in v["fix"], v
    v = _verdict(tmp_path, _fsdp_tb(1, "Must flatten tensors with uniform `requires_grad` when "
                                       "`use_orig_params=False`"))
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "use_orig_params=True" in v["fix"], v["fix"]


def test_another_value_error_or_the_flatten_check_beside_a_hang_is_not_the_models_setup(tmp_path):
    """The near shapes: a rank's own ValueError in other words is that rank's failure (rule A), not FSDP's check; and
    FSDP's check beside a watchdog timeout is not what stopped the job alone (the reading needs it to be the one
    failure shown)."""
    v = _verdict(tmp_path, _fsdp_tb(3, "Must provide tensors with a uniform batch size but got 8 and 6"))
    assert v["cause"] != "config", v
    v = _verdict(tmp_path, watchdog_line(1, 40, "ALLREDUCE", 600040, 600000)
                 + _fsdp_tb(3, "Must flatten tensors with uniform dtype but got torch.bfloat16 and torch.float32"))
    assert v["cause"] != "config", v


# --- MPICH's start-up failing under torchrun -----------------------------------------------------------------------
_MPICH = ("Abort(1090831) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Unknown error class, error "
          "stack:\n"
          "MPIR_Init_thread(196): \n"
          "MPID_Init(1612)......: \n"
          "MPIR_pmi_init(142)...: PMI_KVS_Get returned -1\n"
          "[cli_1]: write_line error; fd=12 buf=:cmd=abort exitcode=1090831\n"
          ":\n"
          "system msg for write_line failure : Broken pipe\n")
_RECORD = ("E0312 09:41:07.118000 2211 site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed "
           "(exitcode: -11) local_rank: 1 (pid: 2240) of binary: /opt/venv/bin/python3.11\n"
           "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
           "============================================================\n"
           "train.py FAILED\n"
           "------------------------------------------------------------\n"
           "Failures:\n"
           "  <NO_OTHER_FAILURES>\n"
           "------------------------------------------------------------\n"
           "Root Cause (first observed failure):\n"
           "[0]:\n"
           "  time      : 2026-03-12_09:41:07\n"
           "  host      : xpu-node3\n"
           "  rank      : 1 (local_rank: 1)\n"
           "  exitcode  : -11 (pid: 2240)\n"
           "  error_file: <N/A>\n"
           "  traceback : Signal 11 (SIGSEGV) received by PID 2240\n"
           "============================================================\n")
_CCL = ("2026:03:12-09:41:05:(2240) |CCL_WARN| value of CCL_WORKER_COUNT changed to be 2 (default:1)\n"
        "2026:03:12-09:41:05:(2240) |CCL_INFO| process launcher: hydra, local_proc_idx: 1, local_proc_count: 2\n")


def test_mpich_failing_to_start_in_torchrun_workers_is_the_launch_setup(tmp_path):
    """Rule X (2): MPICH's own start-up fails in a worker torchrun started (its PMI client finds no process manager:
    PMI_KVS_Get returned -1, its writes to the PMI socket on a broken pipe), then the worker dies on SIGSEGV. The
    launch set-up every worker shares, not the rank torchrun recorded first nor a peer gone: config, no rank, the fix
    naming mpiexec; where oneCCL's own log shows it is the library that initialised MPI, the fix names its OFI
    transport under torchrun."""
    d = _report(tmp_path, _MPICH + _RECORD)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "PMI_KVS_Get returned -1" in v["summary"] and "mpiexec" in v["fix"], v
    assert "CCL_ATL_TRANSPORT" not in v["fix"], v["fix"]
    v = _verdict(tmp_path, _CCL + _MPICH + _RECORD)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "CCL_ATL_TRANSPORT=ofi" in v["fix"] and "CCL_PROCESS_LAUNCHER=none" in v["fix"], v["fix"]


def test_mpich_failing_in_another_call_than_its_start_up_is_not_the_launch_setup(tmp_path):
    """The near shape: MPICH's fatal error in a collective of a running job ("Fatal error in PMPI_Allreduce") is no
    start-up failure: not read as the launch set-up."""
    mid = _MPICH.replace("PMPI_Init_thread", "PMPI_Allreduce").replace("MPIR_pmi_init(142)...: PMI_KVS_Get returned -1",
                                                                        "MPIR_Allreduce_impl(293)...: ")
    v = _verdict(tmp_path, mid + _RECORD)
    assert v["cause"] != "config" and "MPI's own start-up" not in v["summary"], v


# --- a traceback cut in a DeepSpeed op's construction while the ops are JIT-built ----------------------------------
_JIT = "".join("10.0.4.7: Using /home/ana/.cache/torch_extensions/py310_cu118 as PyTorch extensions root...\n"
               for _ in range(4))


def _cut(rank: int, code: str) -> str:
    return (f"10.0.4.7: [rank{rank}]: Traceback (most recent call last):\n"
            f"10.0.4.7: [rank{rank}]:   File \"/srv/rlhf/train_ppo.py\", line 212, in <module>\n"
            f"10.0.4.7: [rank{rank}]:     main()\n"
            f"10.0.4.7: [rank{rank}]:   File \"/srv/rlhf/train_ppo.py\", line 140, in main\n"
            f"10.0.4.7: [rank{rank}]:     {code}\n")


def test_a_traceback_cut_in_a_jit_built_ops_construction_is_the_shared_build(tmp_path):
    """Rule AF (2): every worker prints torch's cpp_extension "Using ... as PyTorch extensions root..." (DeepSpeed's op
    builder JIT-building its ops at start-up), and one rank's traceback stops at the construction of an op that
    loads that build (DeepSpeedCPUAdam(...)), before its exception line. The job's shared software failing to build
    or load, which every worker waits on alike: config, no rank; the fix names pre-building the ops. A cut inside
    cpp_extension.py's own frames is the build itself, chatter or not."""
    d = _report(tmp_path, _JIT + _cut(2, "optimizer = DeepSpeedCPUAdam(model.parameters(), lr=1e-5)"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "DS_BUILD_OPS" in v["fix"] and "pip install ninja" in v["fix"], v["fix"]
    inside = ("[rank6]: Traceback (most recent call last):\n"
              "[rank6]:   File \"/srv/kern/setup_ops.py\", line 30, in build\n"
              "[rank6]:     return _load_ops()\n"
              "[rank6]:   File \"/opt/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 1308, in "
              "load\n"
              "[rank6]:     return _jit_compile(\n")
    v = _verdict(tmp_path, inside)
    assert (v["cause"], v["culprits"]) == ("config", []), v


def test_a_cut_at_an_op_without_the_jit_build_or_elsewhere_beside_it_stays_unknown(tmp_path):
    """The near shapes: the same cut at FusedAdam(...) with no JIT build shown says nothing of what raised (the op
    may be pre-built: its arguments, the parameters); and a cut at the script's own call beside the JIT lines
    (building the model) is not the op's build: the cut traceback's unknown."""
    for text in (_cut(2, "optimizer = FusedAdam(params, lr=2e-5)"), _JIT + _cut(2, "model = build_actor(cfg)")):
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []), (text, v)
