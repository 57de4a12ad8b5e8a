"""Launch shapes round 82 showed read wrongly or with a fix no expert would give (rules L, V (1), AA (1), AE, AF (2),
BF (1), BG (2), BC (2), M, U (5), A, AU (4) and round 82's rule BP (1)).

- A launch setting shown wrong with nothing failing after it (rules L's last sentence, V (1), BP (1)): torchrun's own
  warning "master_addr is only used for static rdzv_backend and when rdzv_endpoint is not specified"
  (fastchat-3221; a traceback cut before its error text after it adds no class, rule BC (1)); libgomp's "Invalid
  value for environment variable OMP_NUM_THREADS" (fastchat-342); two machines' detectron2-style launch lines giving
  different --num-gpus beside --num-machines, world = num_gpus x num_machines (rules AA (1), AE; detectron2-2128):
  config, no rank. An exception shown after them keeps its own class; --num-gpus alike on every machine is no fault.
- torchrun's traceback ending in ChildFailedError with the record cut right after its header (the rules and
  "train.py FAILED"; speechbrain-2868): read like the bare ChildFailedError (rules BG (2), BC (2)): unknown, no rank.
  A record whose entries follow its header is read as before.
- Fix texts only (verdicts unchanged): torch's own libtorch_cuda.so lacking an NCCL symbol is NCCL left older than
  torch's pin (vllm-21633: upgrade the nvidia-nccl wheel, check which libnccl.so is loaded -- not rebuild torch);
  torch.distributed.launch's CalledProcessError is no longer called DeepSpeed's (mmsegmentation-938); a torchrun
  record naming one local_rank asks for that worker's own traceback above the record (yolov5-3897, flux-11); a
  checkpoint's MP against the world says nproc_per_node = model parallel size (llama-415). An extension other than
  torch's own lacking a torch symbol keeps the rebuild fix.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_AGENT_CUT = ("Traceback (most recent call last):\n"
              "  File \"/env/bin/torchrun\", line 8, in <module>\n"
              "    sys.exit(main())\n"
              "  File \"/env/lib/python3.10/site-packages/torch/distributed/run.py\", line 794, in main\n"
              "    run(args)\n"
              "  File \"/env/lib/python3.10/site-packages/torch/distributed/run.py\", line 785, in run\n")


def test_torchruns_master_addr_unused_warning_is_config(tmp_path):
    v = _verdict(tmp_path, "master_addr is only used for static rdzv_backend and when rdzv_endpoint is not "
                           "specified.\nWARNING:torch.distributed.run:\n" + _AGENT_CUT)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "rdzv_endpoint" in v["fix"] and "master_addr and master_port" in v["fix"], v


def test_master_addr_warning_before_an_error_text_keeps_the_errors_class(tmp_path):
    v = _verdict(tmp_path, "master_addr is only used for static rdzv_backend and when rdzv_endpoint is not "
                           "specified.\n" + _AGENT_CUT + "    raise RuntimeError('boom')\nRuntimeError: boom\n")
    assert v["cause"] != "config", v


def test_libgomp_refusing_omp_num_threads_is_config(tmp_path):
    line = "libgomp: Invalid value for environment variable OMP_NUM_THREADS\n\n"
    v = _verdict(tmp_path, line * 3)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "unset OMP_NUM_THREADS" in v["fix"] and "env | grep OMP" in v["fix"], v


def test_libgomp_line_beside_a_cuda_error_keeps_the_cuda_reading(tmp_path):
    v = _verdict(tmp_path, "libgomp: Invalid value for environment variable OMP_NUM_THREADS\n"
                           "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                           "    x.cuda()\nRuntimeError: CUDA error: out of memory\n")
    assert v["cause"] != "config", v


_D2 = ("./tools/train_net.py --config-file configs/mask_rcnn.yaml --num-gpus {g} --machine-rank {r} "
       "--num-machines 2 --dist-url tcp://10.0.0.2:3002\n")


def test_machines_launched_with_different_num_gpus_is_config(tmp_path):
    v = _verdict(tmp_path, _D2.format(g=2, r=0) + _D2.format(g=1, r=1) + "Failed to load OpenCL runtime\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "same --num-gpus on every machine" in v["fix"], v


def test_machines_launched_with_the_same_num_gpus_are_no_fault(tmp_path):
    v = _verdict(tmp_path, _D2.format(g=2, r=0) + _D2.format(g=2, r=1) + "Failed to load OpenCL runtime\n")
    assert v["cause"] == "none", v


_CF = ("  File \"/env/lib/python3.8/site-packages/torch/distributed/launcher/api.py\", line 264, in launch_agent\n"
       "    raise ChildFailedError(\n"
       "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
       "============================================================\n"
       "train.py FAILED\n"
       "------------------------------------------------------------\n")


def test_a_record_cut_after_its_header_names_no_rank(tmp_path):
    v = _verdict(tmp_path, _CF)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "the Failures / Root Cause table" in v["fix"], v


def test_a_record_with_its_root_cause_keeps_naming_the_rank(tmp_path):
    v = _verdict(tmp_path, _CF + "Failures:\n  <NO_OTHER_FAILURES>\n"
                 "------------------------------------------------------------\n"
                 "Root Cause (first observed failure):\n[0]:\n  time      : 2024-03-28_11:59:58\n"
                 "  host      : node1\n  rank      : 1 (local_rank: 1)\n  exitcode  : 1 (pid: 4242)\n"
                 "  error_file: <N/A>\n  traceback : To enable traceback see: "
                 "https://pytorch.org/docs/stable/elastic/errors.html\n"
                 "============================================================\n")
    assert v["culprits"] == [1], v


def test_torchs_own_library_lacking_an_nccl_symbol_asks_for_the_matching_nccl(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"/usr/lib/python3.12/dist-packages/torch/__init__.py\", line 416, in <module>\n"
                 "    from torch._C import *  # noqa: F403\n"
                 "ImportError: /usr/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
                 "ncclCommWindowRegister\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "NCCL version mismatch" in v["fix"] and "check which libnccl.so is loaded" in v["fix"], v


def test_an_extension_lacking_a_torch_symbol_keeps_the_rebuild_fix(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"t.py\", line 1, in <module>\n"
                 "    import flash_attn_2_cuda\n"
                 "ImportError: /env/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
                 "undefined symbol: _ZN3c104cuda9SetDeviceEi\n")
    assert v["cause"] == "config" and "Rebuild" in v["fix"], v


def test_launchs_calledprocesserror_is_not_called_deepspeeds(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"/env/lib/python3.7/site-packages/torch/distributed/launch.py\", line 257, in main\n"
                 "    cmd=cmd)\n"
                 "subprocess.CalledProcessError: Command '['/env/bin/python', '-u', './tools/train.py', "
                 "'--local_rank=1', 'configs/x.py', '--launcher', 'pytorch']' returned non-zero exit status 1.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "DeepSpeed" not in v["fix"] and "show each worker's own traceback" in v["fix"], v


def test_a_torchrun_record_of_one_local_rank_asks_for_its_traceback_above(tmp_path):
    v = _verdict(tmp_path, "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 "
                           "(pid: 2219) of binary: /usr/bin/python3\n")
    assert v["culprits"] == [0], v
    assert "read local_rank 0's own traceback above the torchrun record" in v["fix"], v
