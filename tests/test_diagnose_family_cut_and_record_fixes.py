"""Tracebacks cut before their error and launcher records with no exception of the failed worker, shapes round 92
showed: the verdict stays what rules A, AB (2), BC (1), BG (6), BD (2), J and AU (4) give (the record's lone rank, or
nobody, cause unknown); what the lines around the cut still show goes into the fix only (rule T), as an expert names it.

- A lone SIGABRT (-6) in torchrun's record, no traceback of it: abort() in native code, or torch's NCCL watchdog
  ending the process after a collective timeout / NCCL error -- the fix asks for NCCL_DEBUG=INFO,
  TORCH_DISTRIBUTED_DEBUG=DETAIL and dmesg's Xid lines beside faulthandler and a core dump (finetrainers-350).
- A lone exit 1 in the record whose rank's own traceback above it (its tag the record's rank, or untagged) goes through
  the DataLoader re-raising a worker's exception (_next_data's "return self._process_data(data)", _process_data's
  "data.reraise()"), cut before its text: that rank's DataLoader worker exception is the error to surface -- its
  num_workers=0 rerun, the dataset's bad sample (union14m-33; rules A, AU (4), BB (3)). A traceback tagged with another
  rank is not read so.
- GradScaler.step's own assert line ('assert len(optimizer_state["found_inf_per_device"]) > 0, "No inf checks were
  recorded for th') in a traceback, its message cut: the same check as the whole AssertionError (rule BQ (3): read
  by its location) -- the no-gradient fix (requires_grad, the optimizer's parameters; torchdistill-386). The verdict
  stays the untagged cut traceback's (rules J, BG (1), BJ (2)).
- torchrun's launcher traceback cut at launch_agent whose last lines show accelerate launch's own launcher
  (accelerate/commands/launch.py, multi_gpu_launcher): the torch/accelerate version pair and a single GPU
  (--num_processes 1) join the launcher fix (kohya-ss-2646; rule BC (1)). torchrun's own launcher stack is not read so.
- A rank's traceback cut in transformers' Trainer.__init__ at create_accelerator_and_postprocess(): the Trainer's
  FSDP / DeepSpeed arguments against the installed accelerate -- the transformers / accelerate version match, a run
  without FSDP (model-optimizer-1045; rules BG (6), AB (2), T). A Trainer cut in its train() is not read so.
- accelerate's start-up advisory "Detected kernel version 3.10.0, which is below the recommended minimum of 5.5.0"
  before a cut traceback: no failure (rule K), the kernel upgrade a fix word (medusa-134; rule T).
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.10/site-packages"
_AGENT = f"{_SP}/torch/distributed/elastic/multiprocessing/api.py"


def _record(local_rank: int, code: int, pid: int = 4310) -> str:
    """torchrun's agent stopping three workers, then its line for the one that failed."""
    return "".join(f"W0912 10:32:49.611000 1400 {_AGENT}:858] Sending process {p} closing signal SIGTERM\n"
                   for p in (4307, 4308, 4309)) + (
        f"E0912 10:32:49.927000 1400 {_AGENT}:833] failed (exitcode: {code}) local_rank: {local_rank} (pid: {pid}) "
        "of binary: /opt/conda/bin/python\n")


# --- a lone SIGABRT in torchrun's record ------------------------------------------------------------------------------
def test_a_lone_sigabrt_names_the_rank_and_asks_for_the_nccl_watchdogs_reason(tmp_path):
    v, acc = _verdict(tmp_path, _record(5, -6))
    assert (v["cause"], v["culprits"]) == ("unknown", [5]) and acc == {5}, v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v
    assert "faulthandler" in v["fix"] and "Xid" in v["fix"], v


# --- a lone exit 1 whose rank's traceback is the DataLoader re-raising ------------------------------------------------
_LOADER = f"{_SP}/torch/utils/data/dataloader.py"


def _reraise_tb(rank: int) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "tools/train.py", line 115, in main\n'
            f"[rank{rank}]:     runner.train()\n"
            f'[rank{rank}]:   File "{_LOADER}", line 630, in __next__\n'
            f"[rank{rank}]:     data = self._next_data()\n"
            f'[rank{rank}]:   File "{_LOADER}", line 1344, in _next_data\n'
            f"[rank{rank}]:     return self._process_data(data)\n"
            f'[rank{rank}]:   File "/opt/con\n')


def test_a_lone_exit_1_whose_traceback_is_the_loader_reraise_asks_for_the_workers_exception(tmp_path):
    v, acc = _verdict(tmp_path, _reraise_tb(3) + _record(3, 1))
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and acc == {3}, v
    assert "rank 3's DataLoader worker exception" in v["fix"] and "num_workers=0" in v["fix"], v


def test_a_loader_reraise_of_another_rank_keeps_the_plain_record_fix(tmp_path):
    v, acc = _verdict(tmp_path, _reraise_tb(1) + _record(3, 1))
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and acc == {3}, v
    assert "DataLoader worker exception" not in v["fix"], v


# --- GradScaler's assert line, its message cut ------------------------------------------------------------------------
_SCALER = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 71, in train_one_epoch\n'
    "    optimizer.step()\n"
    f'  File "{_SP}/accelerate/optimizer.py", line 133, in step\n'
    "    self.scaler.step(self.optimizer, closure)\n"
    f'  File "{_SP}/torch/cuda/amp/grad_scaler.py", line 339, in step\n'
    '    assert len(optimizer_state["found_inf_per_device"]) > 0, "No inf checks were recorded for th\n'
    "2023/08/15 02:49:24     INFO    torch.nn.parallel.distributed   Reducer buckets have been rebuilt in this "
    "iteration.\n"
    "Traceback (most recent call last):\n"
    '  File "train.py", line 217, in <module>\n'
    "    main(args)\n"
    '  File "train.py", line 129, in train\n'
    "    train_one_epoch(model, loader, ep\n")


def test_gradscalers_assert_line_cut_gives_the_no_gradient_fix(tmp_path):
    v, acc = _verdict(tmp_path, _SCALER)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "No inf checks were recorded for this optimizer" in v["fix"] and "requires_grad" in v["fix"], v


def test_another_assert_line_cut_keeps_the_cut_traceback_fix(tmp_path):
    v, acc = _verdict(tmp_path, _SCALER.replace('"No inf checks were recorded for th', '"shape mismatch for th'))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "No inf checks" not in v["fix"], v


# --- a launcher traceback cut at launch_agent under accelerate launch -------------------------------------------------
def _launcher_tb(accelerate: bool) -> str:
    top = (f'  File "{_SP}/accelerate/commands/launch.py", line 1008, in launch_command\n'
           "    multi_gpu_launcher(args)\n"
           f'  File "{_SP}/accelerate/commands/launch.py", line 666, in multi_gpu_launcher\n'
           "    distrib_run.run(args)\n") if accelerate else (
        '  File "/opt/conda/bin/torchrun", line 8, in <module>\n'
        "    sys.exit(main())\n")
    return ("Traceback (most recent call last):\n" + top
            + f'  File "{_SP}/torch/distributed/run.py", line 797, in run\n'
            "    elastic_launch(\n"
            f'  File "{_SP}/torch/distributed/launcher/api.py", line 134, in __call__\n'
            "    return launch_agent(\n")


def test_a_launcher_cut_under_accelerate_launch_names_its_version_pair_and_one_gpu(tmp_path):
    v, acc = _verdict(tmp_path, _launcher_tb(True))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "torch/accelerate version" in v["fix"] and "single GPU (--num_processes 1)" in v["fix"], v


def test_torchruns_own_launcher_cut_keeps_its_fix_without_accelerate(tmp_path):
    v, acc = _verdict(tmp_path, _launcher_tb(False))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "launch_agent" in v["fix"] and "accelerate" not in v["fix"], v


# --- a rank's traceback cut where the HF Trainer builds its Accelerator -----------------------------------------------
def _trainer_tb(code: str) -> str:
    return ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "main.py", line 233, in train\n'
            "[rank2]:     trainer = MyTrainer(\n"
            f'[rank2]:   File "{_SP}/transformers/trainer.py", line 458, in __init__\n'
            f"[rank2]:     {code}\n"
            '[rank2]:   File "/root/e\n')


def test_a_cut_in_the_trainers_accelerator_setup_names_the_version_match_and_fsdp(tmp_path):
    v, acc = _verdict(tmp_path, _trainer_tb("self.create_accelerator_and_postprocess()"))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "transformers / accelerate version match" in v["fix"] and "run without FSDP" in v["fix"], v


def test_a_trainer_cut_elsewhere_keeps_the_cut_traceback_fix(tmp_path):
    v, acc = _verdict(tmp_path, _trainer_tb("self.callback_handler = CallbackHandler("))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "create_accelerator_and_postprocess" not in v["fix"], v


# --- accelerate's kernel advisory before a cut traceback --------------------------------------------------------------
_CUT = ("[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "train.py", line 399, in train\n'
        "[rank1]:     trainer.train()\n"
        f'[rank1]:   File "{_SP}/tran\n')


def test_the_kernel_advisory_before_a_cut_traceback_adds_the_kernel_upgrade(tmp_path):
    v, acc = _verdict(tmp_path, "Detected kernel version 3.10.0, which is below the recommended minimum of 5.5.0; "
                                "this can cause the process to hang. It is recommended to upgrade the kernel to the "
                                "minimum version or higher.\n" + _CUT)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "kernel version below 5.5.0 (can hang)" in v["fix"], v


def test_a_cut_traceback_without_the_advisory_names_no_kernel(tmp_path):
    v, acc = _verdict(tmp_path, _CUT)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "kernel version" not in v["fix"], v
