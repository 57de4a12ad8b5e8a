"""How diagnose reads a program's own cross-rank consistency check failing, shown by round 74's mat-7: an
AssertionError raised right under a frame of StyleGAN2-ADA's misc.check_ddp_consistency (each parameter and buffer
broadcast from rank 0 and asserted equal to the rank's own). Nothing hung nor failed in NCCL: the ranks hold different
values (read like rule S's wrong values) -- cause unknown, nobody accused, the fix says the parameters differ across
ranks (same seed, broadcast from rank 0, NaN on one rank, ignore_regex). Near shapes: an AssertionError of another
function, or another exception under the check's frame, are not read so. Paths and names are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_HEAD = ("Traceback (most recent call last):\n"
         '  File "/opt/conda/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 59, in _wrap\n'
         "    fn(i, *args)\n"
         '  File "/srv/gan/train.py", line 405, in subprocess_fn\n'
         "    training_loop.training_loop(rank=rank, **args)\n"
         '  File "/srv/gan/training/training_loop.py", line 404, in training_loop\n'
         "    misc.check_ddp_consistency(module, ignore_regex=[r'.*\\.w_avg'])\n")
_CHECK = ('  File "/srv/gan/torch_utils/misc.py", line 195, in check_ddp_consistency\n'
          "    assert (nan_to_num(tensor) == nan_to_num(other)).all(), fullname\n")


def test_an_assertion_of_a_cross_rank_consistency_check_says_the_parameters_differ(tmp_path):
    text = _HEAD + _CHECK + "AssertionError: Generator.synthesis.b4.conv1.weight\n"
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "check_ddp_consistency" in v["fix"] and "parameters differ across ranks" in v["fix"], v["fix"]
    assert "ignore_regex" in v["fix"] and "NaN" in v["fix"], v["fix"]
    # the check's frame line long enough to be read as a terminal's wrap (joined with the lines after it): the same
    deep = text.replace("/srv/gan/torch_utils/misc.py",
                        "/home/someone/projects/image_inpainting/gan/torch_utils/misc.py")
    assert "parameters differ across ranks" in _verdict(tmp_path, deep, "deep.log")["fix"]


def test_an_assertion_elsewhere_or_another_error_in_the_check_is_not_read_as_parameters_differing(tmp_path):
    other = _HEAD + ('  File "/srv/gan/torch_utils/misc.py", line 80, in assert_shape\n'
                     "    assert tensor.ndim == len(ref_shape)\n"
                     "AssertionError: Wrong number of dimensions\n")
    v = _verdict(tmp_path, other)
    assert v["culprits"] == [] and "parameters differ across ranks" not in v["fix"], v
    # the check's own broadcast failing in NCCL: the collective's error, not values that differ
    nccl = _HEAD + ('  File "/srv/gan/torch_utils/misc.py", line 193, in check_ddp_consistency\n'
                    "    torch.distributed.broadcast(tensor=other, src=0)\n"
                    "RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, "
                    "NCCL version 2.7.8\n")
    v = _verdict(tmp_path, nccl, "nccl.log")
    assert "parameters differ across ranks" not in v["fix"], v
