"""Review r3 of round 90's diagnose code (session 35): four readings that held for wider shapes than an expert reads
so, each narrowed to its shape.

- torch.cuda.nccl's warning "PyTorch is not compiled with NCCL support" (round 90's nccl-1561) was read as "the job
  asked for the nccl backend where NCCL cannot run", config (high), whatever else the lines showed -- but
  torch.cuda.nccl.is_available() prints it wherever nn.DataParallel's torch.cuda.comm runs on a Windows or Jetson
  wheel, which then falls back and runs. Now it is config only with a process group asking for NCCL
  (ProcessGroupNCCL, a c10d line, backend="nccl") or as the only failure shown (the case's own paste); beside another
  failure (a user's exception) that failure is read by its own rule (lead rules A, J, Q, T).
- NCCL's IB transport finding no device was read as network_setup wherever NCCL_IB_DISABLE=0 was set (round 90's
  pytorch-111424) -- NCCL's default, exported out of habit on Ethernet-only clusters, so a working job read as a
  fabric not set up. Now only the hardware's evidence counts (NCCL_NET=IB, an IPoIB interface named or used, an
  NCCL_IB_HCA naming an mlx5 device beside a failure), and the removed NCCL_IB_CUDA_SUPPORT is named in the fix
  only where the lines set it (lead rules K, Z).
- A segfault banner after another process's pending crash report was dropped as "the same process's crash", making
  two processes crashing alike one culprit. Now it joins the pending crash only when no rank, pid or host of the two
  differs, and the one-line gap after a handler's report does not keep the crash across another rank's line (lead
  rule A's table, BG (1)).
- torch_xla's XRT mesh rendezvous failing mid-run was read as early_exit on any failure words, quoting 'Socket closed'
  the lines may not hold, and its set-up tags matched inside words ('reload_after_epoch' as a 'load'). Now early_exit
  needs the connection closed (Socket closed, a reset, an EOF) and quotes the lines' own words; 'Deadline Exceeded'
  stays the rendezvous wait; set-up tags are whole words at the tag's start or end (lead rules AS (1), AK (1)).
"""
from __future__ import annotations

from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict


def _said(v: dict) -> str:
    return v["summary"] + " " + (v.get("fix") or "")


# --- 2. torch.cuda.nccl's "not compiled with NCCL" warning -----------------------------------------------------------
_WIN_WARN = ("C:\\Users\\u\\miniconda3\\lib\\site-packages\\torch\\cuda\\nccl.py:15: UserWarning: PyTorch is not "
             "compiled with NCCL support\n  warnings.warn('PyTorch is not compiled with NCCL support')\n")
_LINUX_WARN = ("/usr/local/lib/python3.8/dist-packages/torch/cuda/nccl.py:15: UserWarning: PyTorch is not compiled "
               "with NCCL support\n  warnings.warn('PyTorch is not compiled with NCCL support')\n")


def _user_error(root: str) -> str:
    return ("Epoch 1: 100%|##########| 500/500 [01:02<00:00, 8.01it/s]\n"
            "Traceback (most recent call last):\n"
            f'  File "{root}train.py", line 140, in <module>\n'
            "    val_loss = evaluate(model, val_loader)\n"
            f'  File "{root}train.py", line 98, in evaluate\n'
            "    return total / count\n"
            "ZeroDivisionError: division by zero\n")


def test_nccl_warning_beside_another_failure_is_that_failure(tmp_path):
    for warn, root in ((_WIN_WARN, "C:\\Users\\u\\proj\\"), (_LINUX_WARN, "/home/u/proj/")):
        v, acc = _verdict(tmp_path, warn + _user_error(root))
        assert v["cause"] == "unknown" and not acc, v
        assert "ZeroDivisionError" in v["summary"] and "USE_NCCL" not in _said(v), v


def test_nccl_warning_with_a_process_group_asking_for_nccl_is_config(tmp_path):
    text = _LINUX_WARN + (
        "Traceback (most recent call last):\n"
        '  File "/app/train.py", line 20, in <module>\n'
        '    dist.init_process_group(backend="nccl")\n'
        '  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 900, in '
        "init_process_group\n"
        "RuntimeError: boom\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "config" and not acc and "USE_NCCL" in _said(v), v


def test_nccl_warning_alone_still_config(tmp_path):
    v, acc = _case(tmp_path, "nccl-1561-agx-orin-torch-not-compiled-with-nccl")
    assert v["cause"] == "config" and not acc and "USE_NCCL" in _said(v), v
    v, acc = _verdict(tmp_path, _WIN_WARN)  # only the warning, on Windows: no "the job asked for nccl"
    assert v["cause"] == "config" and not acc and "the job asked for the nccl backend" not in v["summary"], v


# --- 3. 'NET/IB : No device found' and NCCL_IB_DISABLE=0 --------------------------------------------------------------
_IB_ETH = ("export NCCL_IB_DISABLE=0\n"
           "node1:12:12 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>\n"
           "node1:12:12 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0.\n"
           "node1:12:12 [0] NCCL INFO NET/IB : No device found.\n"
           "node2:22:22 [0] NCCL INFO NET/IB : No device found.\n")
_DONE = ("node1:12:40 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
         "node2:22:41 [0] NCCL INFO comm 0x55d1 rank 1 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n")
_SOCKETS = ("node1:12:12 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>\n"
            "node2:22:22 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.6<0>\n")


def test_ib_disable_0_on_ethernet_is_no_evidence(tmp_path):
    for text in (_IB_ETH + _DONE, _IB_ETH + _SOCKETS + _DONE):
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "none" and not acc, v


def test_ib_hardware_shown_still_network_setup(tmp_path):
    v, acc = _case(tmp_path, "pytorch-111424-slurm-ib-disable-0-no-device-found-socket")
    assert v["cause"] == "network_setup" and not acc and "NCCL_IB_CUDA_SUPPORT" in _said(v), v
    v, acc = _verdict(tmp_path, "export NCCL_SOCKET_IFNAME=ib0\n" + _IB_ETH)  # an IPoIB interface named
    assert v["cause"] == "network_setup" and not acc, v
    assert "NCCL_IB_CUDA_SUPPORT" not in _said(v), v  # not set here: its removal is not said


# --- 7. a segfault banner after another process's pending crash ------------------------------------------------------
def test_other_rank_banner_is_its_own_crash(tmp_path):
    text = ("[rank0]: [node1:1234 :0:1300] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x8)\n"
            "[rank1]: !!!!!!! Segfault encountered !!!!!!!\n"
            '[rank1]:   File "<unknown>", line 0, in gsignal\n'
            '[rank1]:   File "<unknown>", line 0, in ncclProxyProgress\n')
    v, acc = _verdict(tmp_path, text)
    assert not acc and v["culprits"] in ([], "unknown") and "2 processes" in v["summary"], v


def test_same_rank_banner_is_the_same_crash(tmp_path):
    text = ("[rank0]: [node1:1234 :0:1300] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x8)\n"
            "[rank0]: !!!!!!! Segfault encountered !!!!!!!\n"
            '[rank0]:   File "<unknown>", line 0, in gsignal\n'
            '[rank0]:   File "<unknown>", line 0, in ncclProxyProgress\n')
    v, _ = _verdict(tmp_path, text)
    assert "2 processes" not in v["summary"] and "rank 0" in v["summary"], v
    for name in ("megatron-bridge-2355-task93-segfault-streamwriter-crc32-save",
                 "nemo-speech-14906-async-save-segfault-zip-writer-multinode"):
        v, acc = _case(tmp_path, name)
        assert v["cause"] == "unknown" and not acc, (name, v)


# --- 8. the XRT mesh's mid-run rendezvous ----------------------------------------------------------------------------
def _xrt(tag: str, why: str) -> str:
    line = ("2020-04-13 08:06:45.17663{n}: E tensorflow/compiler/xla/xla_client/tf_logging.cc:11] Failed to meet "
            f"rendezvous '{tag}': {why}\n")
    return line.format(n=6) + line.format(n=7)


def test_xrt_deadline_is_the_rendezvous_wait(tmp_path):
    v, acc = _verdict(tmp_path, _xrt("torch_xla.core.xla_model.save", "Deadline Exceeded (4)"))
    assert v["cause"] == "store_rendezvous" and not acc and "Socket closed" not in v["summary"], v


def test_xrt_tags_are_whole_words(tmp_path):
    for tag in ("reload_after_epoch", "epoch_start", "upload_ckpt", "reinit_opt"):
        v, acc = _verdict(tmp_path, _xrt(tag, "Socket closed (14)"))
        assert v["cause"] == "early_exit" and not acc and "Socket closed (14)" in v["summary"], (tag, v)
    for tag in ("init", "download_only_once", "model_init"):
        v, acc = _verdict(tmp_path, _xrt(tag, "Socket closed (14)"))
        assert v["cause"] == "store_rendezvous" and not acc, (tag, v)


def test_xrt_cases_read_as_before(tmp_path):
    v, acc = _case(tmp_path, "xla-1870-xm-save-rendezvous-socket-closed-tpu4-tpu5")
    assert v["cause"] == "early_exit" and not acc, v
    for name in ("xla-2119-colab-xmp-spawn-mesh-rendezvous-init-socket-closed",
                 "xla-2246-mesh-rendezvous-init-socket-closed"):
        v, acc = _case(tmp_path, name)
        assert v["cause"] == "store_rendezvous" and not acc, (name, v)
