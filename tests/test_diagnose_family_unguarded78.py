"""A spawned child re-running an unguarded main script (round 78, rule BL (1)).

autogluon-1650: the paste stops inside a spawn child's traceback, before its error: multiprocessing's spawn_main ->
prepare -> _fixup_main_from_path -> runpy re-imported the user's script as __mp_main__ and reached its top-level
fit(...) call -- the script has no `if __name__ == "__main__":` guard, which every spawned worker re-runs alike:
config, no rank, even with the error cut (it was an unknown cut traceback). Near shape: the same cut at a top-level
frame with no _fixup_main_from_path above it keeps the cut-traceback reading. (A child cut deeper, in library code
under the script's top-level call, is not read so yet: the cut frame must be the script's own.)
"""
from __future__ import annotations

from tests.conftest import diagnose_text as _report

_HEAD = ("Traceback (most recent call last):\n"
         '  File "<string>", line 1, in <module>\n'
         '  File "/env/lib/python3.7/multiprocessing/spawn.py", line 105, in spawn_main\n'
         "    exitcode = _main(fd)\n"
         '  File "/env/lib/python3.7/multiprocessing/spawn.py", line 225, in prepare\n'
         "    _fixup_main_from_path(data['init_main_from_path'])\n"
         '  File "/env/lib/python3.7/multiprocessing/spawn.py", line 277, in _fixup_main_from_path\n'
         '    run_name="__mp_main__")\n'
         '  File "/env/lib/python3.7/runpy.py", line 85, in _run_code\n'
         "    exec(code, run_globals)\n")
_TOP = ('  File "/home/u/lab/train_textonly.py", line 46, in <module>\n'
        "    time_limit=model_config['time_\n")


def test_a_spawn_child_cut_in_the_scripts_top_level_is_an_unguarded_main(tmp_path):
    v = _report(tmp_path, _HEAD + _TOP)["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "__name__ == '__main__'" in v["fix"], v


def test_no_spawn_reimport_above_keeps_the_cut_reading(tmp_path):
    assert _report(tmp_path, "Traceback (most recent call last):\n" + _TOP)["verdict"]["cause"] == "unknown"
