"""Cut torchrun agent / process-group set-up tracebacks in round 79.

pytorch-67616: torchrun's agent traceback running _initialize_workers -> _rendezvous -> etcd_rendezvous.py's
next_rendezvous, cut there: by rule BC (1) a cut agent traceback that shows a rendezvous frame is the agent failing on
the rendezvous, rule N's store_rendezvous, culprits [] (no worker named). Near shape: an agent traceback cut at
_initialize_workers, no rendezvous frame below it, stays unknown (BC (1), qwen-1004).

flair-10, hy-worldplay-7, seedvr-1 (torchrun's own agent traceback on Windows, cut before any rendezvous frame or
exception; flair-10's last line the frame head cut to '  F', read as none before) and onetrainer-1122 (a Windows
trainer's traceback cut right under its init_process_group call, whose code line 'timeout=timeout,' was taken for an
unread failure report): cause unknown (rules BC (1), BG (6), T), the fix naming what such a Windows start meets --
USE_LIBUV=0, the gloo backend, Linux or WSL. Near shape: the same cut on a Linux path gets no Windows fix.
"""
from __future__ import annotations

from tests.conftest import accused
from tests.conftest import diagnose_text as _report

_SP = "/home/u/env/lib/python3.9/site-packages"
_WIN = r"C:\Users\u\env\lib\site-packages"


def _agent(sp: str, sep: str = "/") -> str:
    p = sp + sep + sep.join(["torch", "distributed"]) + sep
    return ("Traceback (most recent call last):\n"
            f'  File "{p}run.py", line 883, in run\n'
            "    elastic_launch(\n"
            f'  File "{p}launcher{sep}api.py", line 261, in launch_agent\n'
            "    result = agent.run()\n")


def test_agent_cut_in_rendezvous_handler_is_store_rendezvous(tmp_path):
    d = _report(tmp_path, f'  File "{_SP}/torch/distributed/elastic/agent/server/api.py", line 538, in _rendezvous\n'
                "    store, group_rank, group_world_size = spec.rdzv_handler.next_rendezvous()\n"
                f'  File "{_SP}/torch/distributed/elastic/rendezvous/etcd_rendezvous.py", line 152, in '
                "next_rendezvous\n    rdzv_version, rank, w")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not accused(d), v


def test_agent_cut_above_the_rendezvous_stays_unknown(tmp_path):
    d = _report(tmp_path, f'  File "{_SP}/torch/distributed/elastic/agent/server/api.py", line 841, in _invoke_run\n'
                "    self._initialize_workers(self._worker_group)\n")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", []), d["verdict"]


def test_windows_agent_cut_names_the_windows_fix(tmp_path):
    for tail in ("  F", ""):  # the next frame's head cut in its first word, or the paste ending on a code line
        v = _report(tmp_path, _agent(_WIN, "\\") + tail)["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []), v
        assert "USE_LIBUV=0" in v["fix"] and "Linux or WSL" in v["fix"], v
    v = _report(tmp_path, "Traceback (most recent call last):\n"
                r'  File "C:\Trainer\modules\trainer\MultiTrainer.py", line 49, in _train_process' + "\n"
                "    torch.distributed.init_process_group(rank=rank, world_size=world_size, timeout=timeout,\n"
                r'  File "C:\Trainer\venv\Lib\site-packages\torch\distributed\c10d_logge')["verdict"]
    assert v["cause"] == "unknown" and "USE_LIBUV=0" in v["fix"], v


def test_linux_agent_cut_gets_no_windows_fix(tmp_path):
    v = _report(tmp_path, _agent(_SP) + "  F")["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "USE_LIBUV" not in v["fix"], v
