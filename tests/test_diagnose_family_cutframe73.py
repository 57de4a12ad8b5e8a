"""How diagnose reads a traceback whose paste stops inside a frame's own line (round 73, session 26): the last line
is a frame header cut before its line number or function ('File "/.../c10d_logger.py",'), under a whole frame and
its code line. The process raised below that whole frame and its error was not pasted (lead rules AB (2), AN (1)):
unknown, nobody named, the fix asking for the full traceback. A near shape -- the same cut frame line with no whole
frame above it -- shows no traceback and is not read so. Hosts, paths and ranks are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_C10D = "/opt/venv/lib/python3.11/site-packages/torch/distributed"


def test_a_traceback_cut_inside_its_next_frames_line_is_a_cut_traceback(tmp_path):
    """A rank's stack from its data set-up into broadcast_object_list, then broadcast, the paste stopping inside the
    next frame's line ('File ".../c10d_logger.py",'): the rank raised in that collective, its error cut off --
    unknown, nobody named or proven innocent, the full traceback and NCCL_DEBUG=INFO asked for."""
    for cut in (f'[rank3]:   File "{_C10D}/c10d_logger.py",\n', f'[rank3]:   File "{_C10D}/c10d_logger.py", line 7\n',
                f'[rank3]:   File "{_C10D}/c10d_lo\n'):
        text = ("[rank3]: Traceback (most recent call last):\n"
                '[rank3]:   File "/srv/gen/prepare.py", line 212, in build_cache\n'
                "[rank3]:     dist.broadcast_object_list(items, src=0)\n"
                f'[rank3]:   File "{_C10D}/c10d_logger.py", line 81, in wrapper\n'
                "[rank3]:     return func(*args, **kwargs)\n"
                f'[rank3]:   File "{_C10D}/distributed_c10d.py", line 3480, in broadcast_object_list\n'
                "[rank3]:     broadcast(object_sizes_tensor, src=global_src, group=group)\n" + cut)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), (cut, v)
        assert "full traceback" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]
        assert "broadcast_object_list" in v["summary"], v["summary"]


def test_a_cut_frame_line_with_no_whole_frame_above_is_no_traceback(tmp_path):
    """The near shape: the same cut frame line after start-up output, no whole frame or code line above it: no
    traceback is shown, so it is not read as a process that raised."""
    text = ("[2026-01-05 10:00:01,004] [INFO] [comm.py:700:init_distributed] Initializing TorchBackend in DeepSpeed "
            "with backend nccl\n"
            "loading dataset shards: 12/12\n"
            f'  File "{_C10D}/c10d_logger.py",\n')
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "unknown" and v["culprits"] == [], v
