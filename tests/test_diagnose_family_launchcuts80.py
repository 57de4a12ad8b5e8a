"""Launch records beside cut or untagged tracebacks, read whole in round 80.

- lptn-23: torch 1.9's torchelastic "CHILD PROCESS FAILED WITH NO ERROR_FILE" / "Child process P (local_rank 0)
  FAILED (exitcode 1)" under three interleaved worker tracebacks that all stop in the same start-up frame (init_dist)
  before any error text, the agent having set reply files for workers 0-2. The record reports only the first failure
  in time; every listed worker is shown failing alike on its own: culprits [], cause unknown (rule BN (2) with rules
  J, AM (2), AX (4)). Near shapes kept: ONE cut traceback beside the record stays rule A's lone failure (rules AN (1),
  BG (4)); more workers listed (reply files) than cut tracebacks keeps the record's worker named.
- hrnet-semantic-segmentation-224: one untagged traceback (cuDNN CUDNN_STATUS_NOT_INITIALIZED), then
  ncclUnhandledCudaError, and torch 1.x launch's single "Killing subprocess P" line: the launcher prints one such line
  for every worker it started, so one line on one node is one worker, local rank 0, the culprit of the cuda_error
  (rules AV, BF (6) with rule A). Near shape kept: two kill lines (two workers) name nobody (rules M, U (5)).
- rlinf-655: a Ray actor's traceback cut inside torch.distributed.checkpoint's load, at the annotated assignment
  "central_plan: LoadPlan = distW.reduce_scatter('plan', ...)" -- a code line under its frame (indented deeper than
  the frame), not an exception line "Name: message". DCP's planning runs the same code on every rank on the same
  checkpoint: culprits [], cause unknown, the DCP fix (rules J, AB (2); a Ray actor pid is no rank tag, rule AD (2)).
  Near shapes kept: a real exception line at the traceback's margin after the frame is still read as the error; a cut
  in the user's own frames keeps the generic cut-traceback reading, without the DCP fix.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text

_REPLY = ("INFO:torch.distributed.elastic.multiprocessing:Setting worker{n} reply file to: "
          "/tmp/torchelastic_ab/none_cd/attempt_1/{n}/error.json\n")
_RECORD = """**********************************************************************
               CHILD PROCESS FAILED WITH NO ERROR_FILE
**********************************************************************
CHILD PROCESS FAILED WITH NO ERROR_FILE
Child process 4711 (local_rank 0) FAILED (exitcode 1)
Error msg: Process failed with exitcode 1
Without writing an error file to <N/A>.
**********************************************************************
"""
_HEAD = "Traceback (most recent call last):\n"
_F1 = '  File "tools/train.py", line 200, in <module>\n    main()\n'
_F2 = '  File "tools/train.py", line 90, in main\n    setup(args)\n'
_F3 = '  File "/work/proj/utils/dist.py", line 14, in setup\n'


def _cut_workers(n: int, listed: int) -> str:
    text = "".join(_REPLY.format(n=i) for i in range(listed))
    # printed together: each worker's header and frames interleaved, none reaching its error line
    text += _HEAD * n + (_F1 + _F2) * n + _F3 * n
    return text + _RECORD


def test_cut_alike_workers_beside_one_record_name_nobody(tmp_path):
    d = diagnose_text(tmp_path, _cut_workers(3, 3))
    v = d["verdict"]
    assert v["cause"] == "unknown"
    assert v["culprits"] == [] and not accused(d)
    assert "@record" in v["fix"] and "nproc_per_node" in v["fix"]


def test_one_cut_traceback_beside_record_keeps_lone_failure(tmp_path):
    v = diagnose_text(tmp_path, _cut_workers(1, 1))["verdict"]
    assert v["culprits"] == [0]


def test_more_listed_workers_than_cut_tracebacks_keeps_record(tmp_path):
    v = diagnose_text(tmp_path, _cut_workers(2, 4))["verdict"]
    assert v["culprits"] == [0]


_CUDNN = """Traceback (most recent call last):
  File "tools/train.py", line 287, in main
    loss.backward()
RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED
terminate called after throwing an instance of 'std::runtime_error'
  what():  NCCL error in: /opt/torch/lib/c10d/../c10d/NCCLUtils.hpp:155, unhandled cuda error, NCCL version 2.7.8
ncclUnhandledCudaError: Call to CUDA function failed.
"""


def test_one_kill_line_names_the_one_worker_of_a_cuda_error(tmp_path):
    v = diagnose_text(tmp_path, _CUDNN + "Killing subprocess 9467\n")["verdict"]
    assert v["cause"] == "cuda_error"
    assert v["culprits"] == [0]


def test_two_kill_lines_name_nobody(tmp_path):
    d = diagnose_text(tmp_path, _CUDNN + "Killing subprocess 9467\nKilling subprocess 9468\n")
    assert d["verdict"]["cause"] == "cuda_error"
    assert d["verdict"]["culprits"] == [] and not accused(d)


_P = "(TrainActor pid=9860) "
_DCP = [
    _HEAD,
    '  File "/app/strategy/base.py", line 257, in load_checkpoint\n',
    '    dcp.load({"model": state}, checkpoint_id=path)\n',
    '  File "/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/state_dict_loader.py", line 229, '
    'in _load_state_dict\n',
    '    central_plan: LoadPlan = distW.reduce_scatter("plan", local_step, global_step)\n',
]


def test_cut_in_dcp_planning_is_the_jobs_checkpoint(tmp_path):
    d = diagnose_text(tmp_path, "".join(_P + x for x in _DCP) + _P + "\n")
    v = d["verdict"]
    assert v["cause"] == "unknown"
    assert v["culprits"] == [] and not accused(d)
    assert "checkpoint state_dict keys" in v["fix"]


def test_exception_at_the_margin_after_the_frame_is_still_the_error(tmp_path):
    v = diagnose_text(tmp_path, "".join(_DCP[:4]) + "ValueError: bad plan\n")["verdict"]
    assert v["cause"] != "none"
    assert "the input stops inside" not in v["summary"]


def test_cut_in_users_own_frame_keeps_generic_reading(tmp_path):
    text = _HEAD + '  File "/app/train.py", line 12, in build\n    plan: Plan = make_plan(cfg)\n'
    v = diagnose_text(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == []
    assert "the input stops inside" in v["summary"]
    assert "checkpoint state_dict keys" not in v["fix"]
