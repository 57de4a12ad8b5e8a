"""Review b of round 109's fixes (session 46, fixer y2): the lead's ten rulings. Each test reads the finding's shape
from lines other than the review's own inputs (other hosts, ranks, numbers) and, where it matters, a near shape that
keeps its old reading. Hosts, pids, addresses and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


# --- 1. pdsh host labels without a digit ---------------------------------------------------------------------------
def _oom_tb(label, gpu=5):
    pre = f"{label}: " if label else ""
    return (f"{pre}Traceback (most recent call last):\n{pre}  File \"pretrain.py\", line 212, in <module>\n"
            f"{pre}    outputs = model(**batch)\n{pre}torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
            f"allocate 1.50 GiB (GPU {gpu}; 79.15 GiB total capacity; 74.20 GiB already allocated; 900.00 MiB free; "
            "75.30 GiB reserved in total by PyTorch)\n")


def test_oom_behind_digitless_pdsh_label_names_no_rank(tmp_path):
    """Ruling 1 (rules A, U (3), BX (1)): DeepSpeed's runner launches over pdsh -w on two hosts named without digits;
    the OOM behind 'saturn: ' is a local GPU index of a multi-host job: gpu_oom, nobody named."""
    text = ("jupiter: [2024-05-02 08:11:40,120] [INFO] [runner.py:555:main] cmd = pdsh -S -f 1024 -w jupiter,saturn "
            "export PYTHONPATH=/home/u/proj; cd /home/u/proj; python -u -m deepspeed.launcher.launch\n"
            + _oom_tb("saturn"))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and not acc and v["culprits"] == [], (v, acc)


def test_oom_behind_two_digitless_labels_or_hostfile_names_no_rank(tmp_path):
    """Ruling 1: two distinct labels on the lines, or a hostfile's 'HOST slots=N' lines naming two hosts, show the
    job spread over hosts: nobody named."""
    two = "head-b: Traceback (most recent call last):\nhead-b: RuntimeError: NCCL communicator was aborted\n"
    v, acc = verdict_accused(tmp_path, two + _oom_tb("head-a"))
    assert v["cause"] == "gpu_oom" and not acc, (v, acc)
    v, acc = verdict_accused(tmp_path, "mars slots=8\nvenus slots=8\n" + _oom_tb("venus"))
    assert v["cause"] == "gpu_oom" and not acc, (v, acc)


def test_oom_behind_one_digitless_label_alone_keeps_its_rank(tmp_path):
    """Near: one label without a digit and nothing showing several hosts ('localhost: '), or no label at all: the
    single-node reading of rule U (3) stands (local rank 5 of a job nothing says spans nodes)."""
    for label in ("localhost", ""):
        v, acc = verdict_accused(tmp_path, _oom_tb(label))
        assert v["cause"] == "gpu_oom" and acc == {5}, (label, v, acc)


# --- 2. vLLM's engine-handshake timeout beside an engine's own failure ------------------------------------------------
_HANDSHAKE = ("(APIServer pid=4410) TimeoutError: Timed out waiting for engines to send initial message on input "
              "socket.\n")


def test_engine_handshake_beside_engine_failure_is_not_network_setup(tmp_path):
    """Ruling 2 (rule AQ (3)): the engine's own failure kept as an unread line (EngineCore failed to start, a worker
    dead with an exit code) decides: not network_setup, and never 'no engine or worker is shown exiting'."""
    for own in ("(EngineCore_DP2 pid=5120) ERROR 03-11 09:14:02 [core.py:711] EngineCore failed to start.\n",
                "(EngineCore_DP0 pid=5121) ERROR 03-11 09:14:01 [multiproc_executor.py:490] WorkerProc failed to "
                "start.\n(EngineCore_DP0 pid=5121) ERROR 03-11 09:14:01 [multiproc_executor.py:490] Process "
                "VllmWorker-1 died unexpectedly (exit code -9)\n"):
        v, acc = verdict_accused(tmp_path, own + _HANDSHAKE)
        assert v["cause"] != "network_setup" and not acc, (v, acc)
        assert "no engine or worker is shown exiting" not in v["summary"], v


def test_engine_handshake_alone_keeps_network_setup(tmp_path):
    """Near: the front end's traceback alone (nothing else failing): network_setup, nobody, low."""
    text = ("(APIServer pid=4410) Traceback (most recent call last):\n(APIServer pid=4410)   File \"/opt/venv/lib/"
            "python3.12/site-packages/vllm/v1/engine/core_client.py\", line 512, in __init__\n(APIServer pid=4410)     "
            "raise TimeoutError(\"Timed out waiting for engines to send\"\n" + _HANDSHAKE)
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "network_setup" and v["confidence"] == "low" and not acc, (v, acc)


# --- 3. @record's wrapper frame is not torchrun's own code ---------------------------------------------------------
_WRAPPER = ("  File \"/usr/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/errors/"
            "__init__.py\", line 355, in wrapper\n    return f(*args, **kwargs)\n")


def test_user_none_attribute_under_record_keeps_the_user_reading(tmp_path):
    """Ruling 3: the user's own frame innermost under @record's wrapper (or the wrapper innermost, the script's
    frame outer): the script read an attribute off None -- no 'launcher bug' words; the code line's object named."""
    inner = ("Traceback (most recent call last):\n  File \"/usr/bin/torchrun\", line 8, in <module>\n    "
             "sys.exit(main())\n" + _WRAPPER + "  File \"/home/u/finetune.py\", line 77, in main\n    "
             "trainer.optimizer.zero_grad()\nAttributeError: 'NoneType' object has no attribute 'zero_grad'\n")
    v, _ = verdict_accused(tmp_path, inner)
    assert "launcher bug" not in v["fix"] and "torchrun's own code" not in v["fix"], v
    assert "reads .zero_grad off trainer.optimizer, which is None" in v["fix"], v
    outer = ("Traceback (most recent call last):\n  File \"/home/u/finetune.py\", line 90, in <module>\n    main()\n"
             + _WRAPPER + "AttributeError: 'NoneType' object has no attribute 'zero_grad'\n")
    v, _ = verdict_accused(tmp_path, outer)
    assert "launcher bug" not in v["fix"] and "reads .zero_grad off a value that is None" in v["fix"], v


def test_none_attribute_in_launch_agent_keeps_the_launcher_reading(tmp_path):
    """Near: the innermost frame is torchrun's launch_agent (launcher/api.py): the launcher-bug words stand."""
    text = ("Traceback (most recent call last):\n  File \"/usr/bin/torchrun\", line 8, in <module>\n    "
            "sys.exit(main())\n" + _WRAPPER + "  File \"/usr/lib/python3.11/site-packages/torch/distributed/"
            "launcher/api.py\", line 260, in launch_agent\n    if result.is_failed():\n"
            "AttributeError: 'NoneType' object has no attribute 'is_failed'\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "torchrun's own code read .is_failed off None" in v["fix"], v


# --- 4. aws-ofi-nccl's words follow what the lines show --------------------------------------------------------------
def _ofi_lines(*notes):
    return "".join(f"trn-host-4:7710:7710 [0] NCCL {n}\n" for n in notes) + (
        "trn-host-4:7710:7744 [0] NCCL INFO comm 0x7f10 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0 MNNVL 0\n")


def test_ofi_plugin_that_failed_is_not_called_notes(tmp_path):
    """Ruling 4 (rule T): the plugin's own WARN says it failed and NCCL went on over sockets: its NET/OFI lines are
    not called 'notes ... not failures', and no EFA / security-group advice is given for a run on sockets."""
    v, _ = verdict_accused(tmp_path, _ofi_lines(
        "INFO NET/OFI Initializing aws-ofi-nccl 1.9.1-aws", "WARN NET/OFI aws-ofi-nccl initialization failed",
        "INFO NET/Socket : Using [0]eth0:10.1.4.4<0>", "INFO Using network Socket"))
    assert v["cause"] == "none", v
    assert "'initialization failed'" in v["fix"], v
    assert "not failures" not in v["fix"] and "security groups" not in v["fix"], v


def test_ofi_notes_without_the_plugin_in_use_get_no_efa_advice(tmp_path):
    """Ruling 4: the plugin's INFO notes, no WARN, NCCL on sockets: notes, but no EFA / provider advice; with 'Using
    network AWS Libfabric' (near shape) the provider and security-group checks are named."""
    notes = ("INFO NET/OFI Initializing aws-ofi-nccl 1.9.1-aws", "INFO NET/OFI Using Libfabric version 1.20")
    v, _ = verdict_accused(tmp_path, _ofi_lines(*notes, "INFO Using network Socket"))
    assert "plugin's notes (libfabric), not failures." in v["fix"] and "security groups" not in v["fix"], v
    v, _ = verdict_accused(tmp_path, _ofi_lines(*notes, "INFO Using network AWS Libfabric"))
    assert "check security groups allow all traffic between the nodes (EFA needs it)" in v["fix"], v


# --- 5. torch's test harness: its current wording, and only where the lines show it -------------------------------
def test_harness_current_exit_record_with_pid_gets_the_harness_remedy(tmp_path):
    """Ruling 5 (a): torch's _check_return_codes as it prints now ('Expected zero exit code but got -11 for pid: N',
    under assertEqual's 'Scalars are not equal!'): the SIGSEGV words and the harness's remedy."""
    for text in ("AssertionError: False is not true : Expected zero exit code but got -11 for pid: 60418\n",
                 "AssertionError: Scalars are not equal!\n\nExpected 0 but got -11.\nAbsolute difference: 11\n"
                 "Expected zero exit code but got -11 for pid: 60418\n"):
        v, acc = verdict_accused(tmp_path, text)
        assert not acc, (v, acc)
        assert "Exit code -11 is SIGSEGV in the test process" in v["fix"], v
        assert "These lines are torch's own distributed test harness" in v["fix"], v


def test_generic_processes_exited_line_is_not_called_the_harness(tmp_path):
    """Ruling 5 (b): 'Processes 3, 4 exited with error code 1' with no sign of torch's harness: not called the
    harness; near shapes -- its code 10, or a common_distributed frame beside it -- are."""
    v, _ = verdict_accused(tmp_path, "[2025-02-03 11:20:00] pool: Processes 3, 4 exited with error code 1\n")
    assert "test harness" not in v["fix"], v
    v, _ = verdict_accused(tmp_path, "[2025-02-03 11:20:00] pool: Processes 3, 4 exited with error code 10\n")
    assert "These lines are torch's own distributed test harness" in v["fix"], v
    text = ("Traceback (most recent call last):\n  File \"/opt/pytorch/torch/testing/_internal/"
            "common_distributed.py\", line 690, in _check_return_codes\n    raise RuntimeError(\n"
            "RuntimeError: Processes 3, 4 exited with error code 1\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "These lines are torch's own distributed test harness" in v["fix"], v


# --- 6. wrapped DDP shape check and Flight Recorder dump line -----------------------------------------------------
def test_wrapped_ddp_shape_check_reads_as_unwrapped(tmp_path):
    """Ruling 6: DDP's check wrapped after 'of the same' (or right after 'appears not to match sizes') under
    torchrun's prefix: desync, nobody, as the one-line form."""
    for head, tail in (("sizes of the same", "param in process 0."), ("sizes", "of the same param in process 0.")):
        text = (f"[default1]:replicas[0][12] in this process with sizes [1024, 4096] appears not to match {head}\n"
                f"[default1]:{tail}\n")
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "desync" and not acc and v["culprits"] == [], (head, v, acc)


def test_wrapped_flight_recorder_dump_line_reads_as_unwrapped(tmp_path):
    """Ruling 6: ProcessGroupNCCL's 'preparing to dump debug' / 'info. Include stack trace: 1' wrapped: unknown,
    nobody, low -- as the one-line form; a near line that only names a dump elsewhere stays none."""
    text = ("[rank5]:[E0212 08:30:11.123456789 ProcessGroupNCCL.cpp:1412] [PG ID 0 PG GUID 0(default_pg) Rank 5] "
            "ProcessGroupNCCL preparing to dump debug\n[rank5]: info. Include stack trace: 1\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["confidence"] == "low" and not acc, (v, acc)
    v, acc = verdict_accused(tmp_path, "[rank5]: training step 40 done; debug dump disabled\n")
    assert v["cause"] == "none" and not acc, (v, acc)


# --- 7. one node with P2P already off ------------------------------------------------------------------------------
def _p2p_setup(*settings):
    return ("gpu-box:5501:5501 [2] NCCL INFO Bootstrap : Using enp3s0:192.168.7.2<0>\n"
            "gpu-box:5501:5530 [2] NCCL INFO comm 0x61a0 rank 2 nRanks 4 nNodes 1 localRanks 4 localRank 2 MNNVL 0\n"
            + "".join(f"gpu-box:5501:5501 [2] NCCL INFO {n} set by environment to {v}\n" for n, v in settings)
            + "gpu-box:5501:5530 [2] NCCL INFO Channel 01/0 : 2[2] -> 3[3] via SHM/direct/direct\n")


def test_p2p_off_on_one_node_is_not_asked_to_be_unset(tmp_path):
    """Ruling 7: P2P already off (NCCL_P2P_DISABLE=1) and channels over SHM: the fix keeps it off as the test -- no
    'try without NCCL_P2P_DISABLE=1', no 'fallback where NCCL could not enable P2P' -- and names nvidia-smi topo
    -p2p with its capability letter."""
    v, _ = verdict_accused(tmp_path, _p2p_setup(("NCCL_P2P_DISABLE", "1")))
    assert v["cause"] == "none", v
    assert "P2P is already off in these lines" in v["fix"], v
    assert "try without NCCL_P2P_DISABLE" not in v["fix"] and "could not enable P2P" not in v["fix"], v
    assert "nvidia-smi topo -p2p r" in v["fix"], v


def test_other_forced_setting_beside_p2p_off_is_still_named(tmp_path):
    """Near: another forced setting beside P2P off (NCCL_ALGO=Ring) is still the one to try without; with P2P on,
    a forced setting keeps the 'try without' words."""
    v, _ = verdict_accused(tmp_path, _p2p_setup(("NCCL_P2P_DISABLE", "1"), ("NCCL_ALGO", "Ring")))
    assert "try without NCCL_ALGO=Ring" in v["fix"] and "try without NCCL_P2P_DISABLE" not in v["fix"], v
    v, _ = verdict_accused(tmp_path, _p2p_setup(("NCCL_ALGO", "Ring")))
    assert "try without NCCL_ALGO=Ring" in v["fix"] and "normal fallback where NCCL could not enable P2P" in v["fix"], v


# --- 8. Horovod's key-0 wait wrapped before its variable ----------------------------------------------------------
def test_horovod_key0_wait_wrapped_keeps_horovods_fix(tmp_path):
    """Ruling 8 (rules G, Y): Horovod's HTTP-store wait wrapped before 'HOROVOD_GLOO_TIMEOUT_SECONDS': rank 0, and
    the fix keeps Horovod's words (its timeout variable beyond the seconds named, horovodrun)."""
    text = ("[1,5]<stderr>:RuntimeError: Wait timeout after 45 seconds for key(s): 0. You may want to increase the "
            "timeout via\n[1,5]<stderr>:HOROVOD_GLOO_TIMEOUT_SECONDS\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "rank_missing" and acc == {0}, (v, acc)
    assert "HOROVOD_GLOO_TIMEOUT_SECONDS beyond 45 s" in v["fix"] and "horovodrun" in v["fix"], v


def test_gloo_key0_wait_keeps_torchs_fix(tmp_path):
    """Near: gloo's own 'Wait timeout for key(s): 0' (no seconds, no Horovod): torch's words, no Horovod's."""
    v, acc = verdict_accused(tmp_path, "[rank5]: RuntimeError: Wait timeout for key(s): 0\n")
    assert v["cause"] == "rank_missing" and acc == {0}, (v, acc)
    assert "HOROVOD_GLOO" not in v["fix"] and "init_process_group(timeout=...)" in v["fix"], v


# --- 9. nNodes: a running max, not a per-line recomputation ---------------------------------------------------------
def test_channel_lines_copy_a_running_nnodes_max(tmp_path):
    """Ruling 9: the nNodes branch keeps the most nodes read so far; each set-up channel line copies that int (no
    generator over every host's values per channel line) and carries the same value as before."""
    import inspect

    from ncclDoctor.diagnose import parse
    from ncclDoctor.diagnose.readers import nccl

    assert "for ns in self._comm_nodes.values()" not in inspect.getsource(nccl), "per-line recomputation is back"
    p = parse.LineParser(str(tmp_path / "n.log"))
    lines = ["hx-1:200:210 [0] NCCL INFO comm 0x11 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
             "hx-2:300:310 [0] NCCL INFO comm 0x12 rank 8 nRanks 24 nNodes 3 localRanks 8 localRank 0 MNNVL 0",
             "hx-1:200:210 [0] NCCL INFO comm 0x13 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0",
             "hx-1:200:210 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/Socket/0"]
    evs = [p.parse(i, t) for i, t in enumerate(lines, 1)]
    assert p._comm_nodes_max == 3, p._comm_nodes
    assert evs[-1] is not None and evs[-1].data.get("comm_nodes") == 3, evs[-1]


# --- 10. the master_addr near test asserts what the warning IS read as -------------------------------------------
def test_master_addr_given_with_c10d_reads_as_config(tmp_path):
    """Ruling 10 (rule BP (1)): torchrun's warning beside a command that gives --master_addr itself with the c10d
    rendezvous: config, nobody, the fix giving every node one endpoint or the static rendezvous -- not none, and not
    the default's 'ignore it' words. (A test-only finding: tests/test_diagnose_family_quiet109.py's near test now
    asserts the same reading.)"""
    text = ("torchrun --nnodes 2 --nproc_per_node 4 --rdzv_backend c10d --master_addr node-a7 train_ddp.py\n"
            "master_addr is only used for static rdzv_backend and when rdzv_endpoint is not specified.\n"
            "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], (v, acc)
    assert "--rdzv_endpoint=MASTER_ADDR:PORT" in v["fix"], v
    assert "printed for torchrun's default --master_addr" not in v["fix"], v
