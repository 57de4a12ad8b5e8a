"""Old-torch and shared-install shapes round 86 showed read wrongly or with a fix no expert would give (rules AF (2)
with round 41's sentence, Q's last sentence, A, AK (2), AW, BK (1), T).

- torch.distributed's get_world_size() / get_rank() refusing a process group as functions of no arguments
  ("get_world_size() takes 0 positional arguments but 1 was given", raised in apex's SyncBatchNorm forward;
  apex-115): the pre-1.0 (THD) API under a library written for a later torch -- config, no rank (rule AF (2)). A
  refusal of another arity ("takes 1 positional argument but 2 were given": a signature today's torch has) is not
  read so, nor one raised in a frame of the script's own.
- init_process_group failing in its own C++ call on a map lookup ("RuntimeError: _Map_base::at" under
  torch/distributed/__init__.py's init_process_group; imagenet-fast-21): the backend name the job passed is not one
  the build has -- config, no rank (rules Q, AF (2)). The same words raised later in the run (a collective's
  work.wait(), round 74's pytorch-116393) keep their old reading.
- Python refusing to build a class that leaves its base's abstract method unimplemented ("Can't instantiate abstract
  class HFLM with abstract method greedy_until", torchrun's record naming local_rank 0; lm-evaluation-harness-891):
  the shared code's versions disagree, every rank builds the same class -- config, no rank (rules AF (2), Q), not
  rule A's lone failure of rank 0. Another exception behind the same record still names rank 0.
- Fix texts only (verdicts unchanged, rules A, AK (2), BK (1), T): torch 1.0 DDP's _queue_reduction refusal cut
  inside its message ("incompatible fu"; apex-265) gets the reducer's fix; a native crash whose Open MPI backtrace
  runs through PyOS_AfterFork is a just-forked child -- DataLoader workers forked after MPI init
  (horovod-492); one whose crashing library lies in an installed package (site-packages/horovod/...
  mpi_lib_v2.so; horovod-716) names that package's rebuild against the installed torch. Another binding's cut
  refusal, a crash with no fork frame, and a crash in torch's own libraries get none of these.
"""
from __future__ import annotations

from tests.conftest import diagnose_text
from tests.conftest import diagnose_verdict as _verdict

# --- the pre-1.0 torch.distributed API under a library written for a later torch (apex-115) ------------------------


def test_old_dist_api_refusing_a_group_is_config(tmp_path):
    v = _verdict(tmp_path, "  File \"/env/lib/python3.6/site-packages/torch/nn/modules/module.py\", line 491, in "
                           "__call__\n    result = self.forward(*input, **kwargs)\n"
                           "  File \"/env/lib/python3.6/site-packages/apex-0.1-py3.6.egg/apex/parallel/"
                           "sync_batchnorm.py\", line 68, in forward\n"
                           "TypeError: get_world_size() takes 0 positional arguments but 1 was given\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "upgrade pytorch" in v["fix"].lower() and "apex / torch version mismatch" in v["fix"], v


def test_a_refusal_of_another_arity_is_not_the_old_api(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                           "    n = get_world_size(group, 1)\n"
                           "TypeError: get_world_size() takes 1 positional argument but 2 were given\n")
    assert v["cause"] != "config" or "pre-1.0" not in v["reason"], v


# --- init_process_group's backend-name lookup failing (imagenet-fast-21) --------------------------------------------

_THD_INIT = ("Traceback (most recent call last):\n"
             "  File \"/work/main.py\", line 117, in main\n"
             "    dist.init_process_group(backend=args.dist_backend, init_method=args.dist_url, world_size=4)\n"
             "  File \"/env/lib/python3.6/site-packages/torch/distributed/__init__.py\", line 49, in "
             "init_process_group\n"
             "    group_name, rank)\n")


def test_map_lookup_failing_inside_init_process_group_is_config(tmp_path):
    v = _verdict(tmp_path, _THD_INIT + "RuntimeError: _Map_base::at\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "--dist-backend gloo" in v["fix"] and "upgrade PyTorch" in v["fix"], v


def test_map_lookup_failing_in_a_collectives_wait_is_not_the_backend_name(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 30, in <module>\n"
                           "    dist.all_reduce(t)\n"
                           "  File \"/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", "
                           "line 1700, in all_reduce\n    work.wait()\nIndexError: map::at\n")
    assert v["cause"] != "config", v


# --- a class its shared code leaves abstract (lm-evaluation-harness-891) --------------------------------------------

_RECORD = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 244167) of "
           "binary: /env/bin/python\n")


def test_abstract_class_unbuilt_is_config_not_rank0s_own(tmp_path):
    d = diagnose_text(tmp_path, "  File \"/src/lm_eval/api/model.py\", line 140, in create_from_arg_string\n"
                                "    return cls(**args, **args2)\n"
                                "TypeError: Can't instantiate abstract class HFLM with abstract method greedy_until\n"
                      + _RECORD)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "version mismatch" in v["fix"] and "pip install -e ." in v["fix"], v


def test_another_exception_behind_the_same_record_keeps_rank0(tmp_path):
    v = _verdict(tmp_path, "  File \"/src/train.py\", line 40, in main\n    model(x)\n"
                           "TypeError: forward() missing 1 required positional argument: 'mask'\n" + _RECORD)
    assert v["cause"] != "config" and v["culprits"] == [0], v


# --- fix texts: a cut _queue_reduction refusal, a just-forked child's crash, a package's extension crashing ---------


def test_queue_reduction_refusal_cut_in_its_message_gets_the_reducer_fix(tmp_path):
    v = _verdict(tmp_path, "  File \"/env/lib/python3.6/site-packages/torch/nn/parallel/distributed.py\", line 475, "
                           "in _queue_reduction\n    self.device_ids)\n"
                           "TypeError: _queue_reduction(): incompatible fu\n")
    assert v["cause"] == "unknown" and "find_unused_parameters=True" in v["fix"], v


def test_another_bindings_cut_refusal_gets_no_reducer_fix(tmp_path):
    v = _verdict(tmp_path, "TypeError: _broadcast_coalesced(): incompatible fu\n")
    assert "find_unused_parameters" not in v["fix"], v


def _ompi_crash(*frames: str) -> str:
    head = ("[node03:62076] *** Process received signal ***\n[node03:62076] Signal: Segmentation fault (11)\n"
            "[node03:62076] Signal code: Address not mapped (1)\n")
    return head + "".join(f"[node03:62076] [{i:2d}] {f}\n" for i, f in enumerate(frames))


def test_crash_in_a_just_forked_child_names_the_fork(tmp_path):
    v = _verdict(tmp_path, _ompi_crash("/usr/lib64/libpthread.so.0(+0xf5e0)[0x7fd3c65f35e0]",
                                       "/usr/lib64/libc.so.6(__libc_malloc+0x4c)[0x7fd3c5b9810c]",
                                       "/venv/lib/libpython2.7.so.1.0(PyThread_ReInitTLS+0x1f)[0x7fd3c690feef]",
                                       "/venv/lib/libpython2.7.so.1.0(PyOS_AfterFork+0x45)[0x7fd3c6916025]"))
    assert v["cause"] == "unknown" and v["culprits"] == [], v
    assert "num_workers=0" in v["fix"] and "forkserver" in v["fix"], v


def test_crash_in_an_installed_packages_extension_names_its_rebuild(tmp_path):
    v = _verdict(tmp_path, _ompi_crash("/usr/lib64/libpthread.so.0(+0xf5d0)[0x7f68364485d0]",
                                       "/usr/lib64/python2.7/site-packages/horovod/torch/mpi_lib_v2.so(+0x55fee)"
                                       "[0x7f67c581cfee]",
                                       "/usr/lib64/libpython2.7.so.1.0(PyEval_EvalFrameEx+0x6df0)[0x7f6836739cf0]"))
    assert v["cause"] == "unknown" and v["culprits"] == [], v
    assert "rebuild Horovod against the installed PyTorch" in v["fix"] and "gdb backtrace" in v["fix"], v
    assert "num_workers=0" not in v["fix"], v


def test_crash_in_torchs_own_library_names_no_package(tmp_path):
    v = _verdict(tmp_path, _ompi_crash("/usr/lib64/libpthread.so.0(+0xf5d0)[0x7f68364485d0]",
                                       "/env/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so(+0x55fee)"
                                       "[0x7f67c581cfee]"))
    assert v["cause"] == "unknown" and "is part of the installed" not in v["fix"], v
    assert "num_workers=0" not in v["fix"], v
