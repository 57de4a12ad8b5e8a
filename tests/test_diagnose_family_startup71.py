"""How diagnose reads two of round 71's start-up failures (session 25): DDP's constructor refusing a model with no
parameter that requires a gradient (a config freezing every trained module: rules Q, W, V (1)), and a library's own
module, started by a launcher with `python -m`, calling on another installed library's object an attribute that
library's version does not have (rule AF (2), round 41's sentence; rule M for the launcher's kill). Each test reads the
shape from lines other than the corpus case's own (other paths, classes, launchers), and a near shape that must NOT be
read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_NO_GRAD = "RuntimeError: DistributedDataParallel is not needed when a module doesn't have any parameter that " \
           "requires a gradient.\n"


def _ddp_tb(prefix: str = "") -> str:
    return (f"{prefix}Traceback (most recent call last):\n"
            f"{prefix}  File \"/work/proj/train.py\", line 88, in main\n"
            f"{prefix}    model = DistributedDataParallel(model, device_ids=[local_rank])\n"
            f"{prefix}  File \"/opt/conda/lib/python3.9/site-packages/torch/nn/parallel/distributed.py\", line 551, "
            "in __init__\n"
            f"{prefix}    raise RuntimeError(\n"
            f"{prefix}{_NO_GRAD}")


def test_ddp_refusing_a_model_with_nothing_to_train_is_the_config(tmp_path):
    """Rules Q, W, V (1): DDP's constructor refuses a model none of whose parameters requires a gradient -- the run's
    settings froze every module it trains, the same on every rank -- so config, no rank, even where torchrun's record
    names the worker that exited first; the fix is the freezing (requires_grad, a trainable parameter), not the
    exception's frames."""
    for text in (_ddp_tb() + "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 "
                 "(pid: 4411) of binary: /opt/conda/bin/python\n",
                 _ddp_tb("[rank0]: ") + _ddp_tb("[rank1]: ")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "requires_grad" in v["fix"] and "trainable parameter" in v["fix"], v


def test_ddp_refusing_one_rank_while_its_peers_time_out_is_not_the_config(tmp_path):
    """The near shapes: one rank's refusal beside a peer whose collective timed out (a rank-conditional freeze: the
    others wait in DDP's own start-up check) is a run failing across ranks, not read as the shared config; and DDP's
    count check naming another rank ('Rank 1 has 120 params, while rank 0 has inconsistent 0 params') stays desync."""
    text = (_ddp_tb("[rank1]: ")
            + "[rank0]:[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog caught collective operation timeout: "
              "WorkNCCL(SeqNum=1, OpType=ALLGATHER, NumelIn=1, NumelOut=2, Timeout(ms)=600000) ran for 600123 "
              "milliseconds before timing out.\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "config", v
    v = _report(tmp_path, "[rank1]: RuntimeError: DDP expects same model across all ranks, but Rank 1 has 120 params, "
                          "while rank 0 has inconsistent 0 params.\n")["verdict"]
    assert v["cause"] == "desync", v


def _module_tb(exc: str, root: str = "runpy") -> str:
    first = ('  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main\n'
             '    return _run_code(code, main_globals, None,\n'
             '  File "/usr/lib/python3.11/runpy.py", line 88, in _run_code\n'
             '    exec(code, run_globals)\n'
             '  File "/opt/src/servelib/servelib/entry/worker.py", line 40, in <module>\n'
             '    main()\n') if root == "runpy" else \
        ('  File "/home/u/proj/serve.py", line 40, in <module>\n'
         '    main()\n')
    return ("Traceback (most recent call last):\n" + first
            + '  File "/opt/src/servelib/servelib/engine/sched.py", line 120, in __init__\n'
              '    self.blocks = engine.num_cache_blocks()\n'
            + exc + "\n")


def test_a_library_module_calling_what_another_librarys_object_lacks_is_the_install(tmp_path):
    """Rule AF (2): a package's own module, run with -m by a launcher (the traceback's root is runpy's
    _run_module_as_main), asks an object of another library's class for an attribute its installed version lacks:
    the two installs do not match, the same on every worker -- config, no rank; DeepSpeed's launcher killing its one
    worker names nobody (rule M). The fix is the versions."""
    exc = "AttributeError: 'KVEngine' object has no attribute 'num_cache_blocks'"
    for tail in ("", "[2024-03-02 10:11:12,001] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 5120\n"):
        d = _report(tmp_path, _module_tb(exc) + tail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "version" in v["fix"] and "KVEngine" in v["fix"], v


def test_a_scripts_own_object_or_none_lacking_an_attribute_is_not_the_install(tmp_path):
    """The near shapes: the same error under the user's script (its root a .py file's '<module>', not a package's
    module run with -m) is the script's own code, and None lacking an attribute under runpy is the code's own data:
    neither is read as two installs not matching."""
    for text in (_module_tb("AttributeError: 'KVEngine' object has no attribute 'num_cache_blocks'", root="script"),
                 _module_tb("AttributeError: 'NoneType' object has no attribute 'num_cache_blocks'")):
        v = _report(tmp_path, text)["verdict"]
        assert v["cause"] != "config", v
