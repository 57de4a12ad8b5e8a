"""How diagnose reads torch 1.x torch.distributed.launch's CalledProcessError cut before its exit status (round 77,
session 27: simcse-151): the launcher prints the command of the LAST worker it started, so a '--local_rank=0' there
means it started one worker, the one that failed (lead rules M, U (5), A): that worker, rank 0 of a job nothing says
spans nodes, is named, its cause unknown, the worker's own exception above the launcher's traceback the fix's start.
A last worker of a larger index names nobody. Each test reads the shape from lines other than the corpus case's own
(another script, arguments, exception); paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_LAUNCH = "/opt/venv/lib/python3.8/site-packages/torch/distributed/launch.py"


def _launcher_tb(local: int) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.8/runpy.py", line 194, in _run_module_as_main\n'
            '    return _run_code(code, main_globals, None,\n'
            f'  File "{_LAUNCH}", line 261, in <module>\n'
            "    main()\n"
            f'  File "{_LAUNCH}", line 257, in main\n'
            "    cmd=cmd)\n"
            "subprocess.CalledProcessError: Command '['/opt/venv/bin/python3', '-u', 'finetune_ret.py', "
            f"'--local_rank={local}', '--data_dir', 'corpora/wiki', '--epochs', '5', '--lr', '3e-5', "
            "'--batch_size', '64',\n")


_OWN = ("Traceback (most recent call last):\n"
        '  File "finetune_ret.py", line 412, in <module>\n'
        "    main()\n"
        '  File "finetune_ret.py", line 233, in main\n'
        '    raise ValueError("unsupported pooler: cls_mlp")\n'
        "ValueError: unsupported pooler: cls_mlp\n")


def test_a_cut_record_of_local_rank_0_names_the_one_worker(tmp_path):
    """The worker's own ValueError, then the launcher's CalledProcessError for '--local_rank=0' cut inside its
    command list: one worker ran and failed -- rank 0 named, cause unknown, the fix starting from its exception.
    Without the worker's exception the record still names it."""
    d = _report(tmp_path, _OWN + _launcher_tb(0), "one.log")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "unsupported pooler" in v["fix"] and "full command" in v["fix"], v["fix"]
    v = _report(tmp_path, _launcher_tb(0), "record.log")["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v


def test_a_cut_record_of_a_later_worker_names_nobody(tmp_path):
    """The near shape: the last worker started is '--local_rank=3', so the node ran four workers and the record
    names the last one started, not the one that failed: nobody is named."""
    d = _report(tmp_path, _OWN + _launcher_tb(3), "four.log")
    v = d["verdict"]
    assert v["culprits"] != [0] and v["culprits"] != [3] and not _accused(d), v
