"""How diagnose reads a paste cut inside a Python traceback (round 72, session 26): a frame line that ends at a usual
terminal width by chance, then its indented code line, is a whole frame and its code, not one line hard-wrapped
(dit-79: the cut traceback went unread, 'nothing failed'); and a traceback cut in torchrun's own launcher
(torch/distributed/run.py, launcher/api.py's launch_agent), above any worker, is torchrun failing to rendezvous or run
its agent (dlrover-374, as qwen-1004; lead rule BC (1)): unknown, nobody named, the fix the agent's. Each test reads
the shape from lines other than the corpus cases' own, and a near shape that must NOT be read that way. Paths are
made up."""

from __future__ import annotations

from ncclDoctor.diagnose import ingest
from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _frame(width: int) -> str:
    """A frame line of exactly ``width`` columns (its path padded to fit)."""
    tail = '/site-packages/torch/nn/parallel/distributed.py", line 1156, in forward'
    head = '  File "/srv/u/envs/py39'
    return head + "/x" * ((width - len(head) - len(tail)) // 2) + "y" * ((width - len(head) - len(tail)) % 2) + tail


_TOP = ('Traceback (most recent call last):\n  File "/srv/u/proj/train.py", line 88, in <module>\n    main(args)\n'
        '  File "/srv/u/proj/train.py", line 61, in main\n    loss = model(x, t)\n')


def test_a_frame_line_at_a_terminal_width_then_its_code_line_is_no_hard_wrap(tmp_path):
    """A DDP forward frame of exactly 132 columns, then its code line, ending the paste: no wrap (the lines stay
    apart) and the cut traceback is read -- unknown, nobody named, not 'nothing failed'."""
    frame = _frame(132)
    assert len(frame) == 132
    text = _TOP + frame + "\n    output = self._run_ddp_forward(*inputs, **kwargs)\n"
    assert ingest.wrap_width(text.encode()) is None
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "full traceback" in v["fix"], v


def test_a_frame_line_cut_inside_its_function_name_at_the_width_is_still_joined():
    """The near shape: the same frame cut at column 132 inside its function's name ('in forw', then 'ard' on the
    next line): a real hard wrap, its pieces joined."""
    whole = _frame(135)
    text = _TOP + whole[:132] + "\n" + whole[132:] + "\n    output = self.module(*inputs)\n" + "x" * 40 + "\n"
    assert ingest.wrap_width(text.encode()) == 132
    assert whole in ingest.unwrap(text, 132).split("\n")


_LAUNCHER = ('Traceback (most recent call last):\n  File "/opt/conda/bin/torchrun", line 33, in <module>\n'
             '    sys.exit(load_entry_point("torch", "console_scripts", "torchrun")())\n'
             '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py", line 806, in main\n'
             '    run(args)\n'
             '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py", line 797, in run\n'
             '    elastic_launch(\n'
             '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 134, in '
             '__call__\n    return launch_agent(self._config, self._entrypoint, list(args))\n')


def test_a_traceback_cut_in_torchruns_own_launcher_is_the_agents_failure_unshown(tmp_path):
    """torchrun's traceback cut at launcher/api.py's launch_agent call, no agent or worker frame below: torchrun
    raised meeting the rendezvous or running its agent -- unknown, nobody named, the agent's fix (rendezvous,
    LOGLEVEL=INFO) with the full traceback asked for."""
    d = _report(tmp_path, "[INFO] connecting to the job master at job-master:50001\n" + _LAUNCHER)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "rendezvous" in v["fix"] and "LOGLEVEL=INFO" in v["fix"] and "full traceback" in v["fix"], v


def test_a_traceback_cut_in_a_workers_own_script_is_not_torchruns_launcher(tmp_path):
    """The near shape: a traceback cut in the training script's own frames (torch's nn module, no torchrun frame):
    still unknown and nobody named, but not read as torchrun's launcher failing (no rendezvous fix)."""
    d = _report(tmp_path, _TOP + '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line '
                "1501, in _call_impl\n    return forward_call(*args, **kwargs)\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "launcher" not in v["summary"] and "LOGLEVEL=INFO" not in v["fix"], v
