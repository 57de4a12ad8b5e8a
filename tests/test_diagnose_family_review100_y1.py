"""Review 100 (the review of rounds 100-101's fixes), findings 1, 2, 3, 5, 7 and 8: the launcher record's yacs
override reader and the scan's guard for the "non-zero exit status" trigger word.

- Finding 1: a well-formed override list holding a top-level yacs key (OUTPUT_DIR, SEED, VIS_PERIOD, as
  maskrcnn-benchmark's and detectron2's own README commands pass it) is KEY VALUE pairs: the worker's failure reading
  stays (unknown, its local rank named), not config. The round's shape (a lower-case word in a key's place, an odd
  count) stays config.
- Finding 2: a value repr'd in double quotes because it holds quotes ("('coco_2014_train', 'coco_2014_val')") is one
  argument, not several words: no config.
- Findings 3, 5, 7: the guard that skips a line routed by that word alone lives in load's scan (where lines are
  routed), so a torchrun error file's message and a scan's follow lines are read as before the word was a trigger,
  however ingest cuts the lines before them; a pasted record alone with well-formed overrides is still not read.
Hosts, paths and numbers are made up.
"""
from __future__ import annotations

import io
import json

from ncclDoctor.diagnose import load
from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.parse import LineParser
from tests.conftest import diagnose_text
from tests.conftest import verdict_accused as _verdict

_HEAD = "subprocess.CalledProcessError: "


def _cmd(rank: int, opts: str, head: str = _HEAD, script: str = "tools/train_net.py") -> str:
    return (f"{head}Command '['/usr/bin/python', '-u', '{script}', '--local_rank={rank}', '--config-file', "
            f"'configs/e2e_mask_rcnn_R_50_FPN_1x.yaml', {opts}]' returned non-zero exit status 1.\n")


# --- finding 1 ------------------------------------------------------------------------------------------------------
def test_top_level_yacs_keys_among_well_formed_overrides_keep_the_workers_reading(tmp_path):
    for rank, opts in ((0, "'SOLVER.IMS_PER_BATCH', '8', 'OUTPUT_DIR', './output'"),
                       (2, "'SOLVER.BASE_LR', '0.01', 'SEED', '42', 'VIS_PERIOD', '100'"),
                       (1, "'MODEL.WEIGHTS', 'R-50.pkl', 'CUDNN_BENCHMARK', 'True'")):
        v, _ = _verdict(tmp_path, _cmd(rank, opts))
        assert v["cause"] == "unknown" and v["culprits"] == ([0] if rank == 0 else []), v
        assert S.opts_malformed(f"'/usr/bin/python', 'tools/train_net.py', {opts}") is None


def test_malformed_overrides_with_top_level_keys_stay_config(tmp_path):
    for rank, opts, head in ((0, "'MODEL.RPN.FPN_POST_NMS_TOP_N_TRAIN', 'images_per_gpu', 'x', '1000'", ' "'),
                             (1, "'OUTPUT_DIR', './out', 'SOLVER.MAX_ITER', 'iters', 'x', '2'", _HEAD),
                             (3, "'SOLVER.IMS_PER_BATCH', '8', 'OUTPUT_DIR'", _HEAD),
                             (2, "'SOLVER.BASE_LR', '0.01', 'output dir', './o'", "")):
        v, acc = _verdict(tmp_path, _cmd(rank, opts, head))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def test_a_top_level_key_alone_does_not_start_the_overrides():
    # the dotted form still marks the first override: an upper-case flag value or a top-level word before it is not
    assert S.opts_malformed("'python', 'train.py', 'FAST', 'SOLVER.BASE_LR', '0.1'") is None
    assert S.opts_malformed("'python', 'train.py', 'OUTPUT_DIR', 'x', 'y'") is None


# --- finding 2 ------------------------------------------------------------------------------------------------------
def test_a_quoted_tuple_value_is_one_argument(tmp_path):
    for rank, opts in ((1, "'DATASETS.TRAIN', \"('coco_2014_train', 'coco_2014_val')\", 'SOLVER.IMS_PER_BATCH', '8'"),
                       (0, "'DATASETS.TEST', \"('coco_2017_val',)\""),
                       (3, "'INPUT.MIN_SIZE_TRAIN', '(640, 672)', 'DATASETS.TRAIN', \"('a', 'b', 'c')\", "
                           "'OUTPUT_DIR', '/tmp/o'")):
        v, acc = _verdict(tmp_path, _cmd(rank, opts))
        assert v["cause"] != "config", v
        args = f"'python', 'tools/train_net.py', {opts}"
        assert S.opts_malformed(args) is None, args


def test_a_quoted_value_in_a_malformed_list_is_still_config(tmp_path):
    opts = "'DATASETS.TRAIN', \"('coco_2014_train', 'coco_2014_val')\", 'SOLVER.IMS_PER_BATCH'"
    v, acc = _verdict(tmp_path, _cmd(0, opts))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert S.opts_malformed("'python', 'x.py', 'A.B', 'broken") is None  # no list of strings: not read


# --- findings 3, 7 ----------------------------------------------------------------------------------------------------
def _error_file(tmp_path, message: str) -> dict:
    doc = {"message": {"message": message, "extraInfo": {"py_callstack": "", "timestamp": "1700000000"}}}
    return diagnose_text(tmp_path, json.dumps(doc), "error.json")["verdict"]


def test_a_torchrun_error_files_command_record_is_read_as_before(tmp_path):
    for cmd in ("['ninja', '-v']", "['ninja', '-v', '-j', '8']"):
        message = ("Traceback (most recent call last):\n  File \"build.py\", line 3, in <module>\n"
                   f"    subprocess.check_call({cmd})\nCommand '{cmd}' returned non-zero exit status 1.")
        v = _error_file(tmp_path, message)
        assert v["cause"] == "config" and v["confidence"] == "high", v


def test_the_parser_reads_every_line_it_is_given():
    # the parser no longer drops a line for the launch word: the scan decides what it routes
    ev = LineParser("x").parse(1, "Command '['ninja', '-v']' returned non-zero exit status 1.")
    assert ev is not None and ev.kind == "traceback_tail", ev


def test_a_pasted_record_alone_with_well_formed_overrides_is_still_not_read(tmp_path):
    for rank, opts, head in ((2, "'MODEL.RPN.FPN_POST_NMS_TOP_N_TRAIN', '2000', 'SOLVER.IMS_PER_BATCH', '8'", ' "'),
                             (0, "'OUTPUT_DIR', './output', 'SOLVER.BASE_LR', '0.02'", ""),
                             (1, "'DATASETS.TRAIN', \"('coco_2014_train',)\"", "")):
        v, acc = _verdict(tmp_path, _cmd(rank, opts, head))
        assert v["cause"] == "none" and not acc, v


# --- finding 5 ------------------------------------------------------------------------------------------------------
def _scan(text: str, want_more) -> list[tuple[int, str]]:
    return list(load.scan_lines(io.BytesIO(text.encode()), b"", load.Input(path="x"), want_more))


def test_the_scan_skips_a_hit_routed_by_the_launch_word_alone_but_passes_follow_lines():
    rec = "Command '['ninja', '-v']' returned non-zero exit status 1.\n"
    assert _scan("step 1\n" + rec, lambda _t: 0) == []
    got = _scan("NCCL WARN one\n" + rec + rec, lambda t: 2 if t.startswith("NCCL") else 0)
    assert [n for n, _ in got] == [1, 2, 3], got
    # another trigger word on the line, or malformed overrides: read
    assert [n for n, _ in _scan("RuntimeError: " + rec, lambda _t: 0)] == [1]
    bad = _cmd(0, "'A.B', 'x', 'y'", "")
    assert [n for n, _ in _scan(bad, lambda _t: 0)] == [1]


def test_a_follow_line_cut_into_pieces_does_not_use_up_the_window():
    # ingest parses a line cut into pieces (nccl_pieces) once per piece: the follow window of the scan stays the scan's
    p = LineParser("x")
    p._follow = 2  # a block asking for its next two lines (want_more)
    assert p.want_more("head") == 2
    for piece in ("[0] NCCL INFO a", "[0] NCCL INFO b", "[0] NCCL INFO c"):
        p.parse(2, piece)
    ev = p.parse(3, "Command '['ninja', '-v']' returned non-zero exit status 1.")
    assert ev is not None and ev.kind == "traceback_tail", ev
