"""A spawned child cut at DDP's implicit collectives in round 79 (lead rule BM (1)).

pi-GAN-7: torch.multiprocessing.spawn's "-- Process 1 terminated with the following error:" and the child's traceback
running train -> "scaler.scale(d_loss).backward()" -> torch's tensor.py backward, cut there before any error text;
neurad-studio-pr84: the same record, its traceback cut right under "model_outputs = self._model(ray_bundle)" (the
DistributedDataParallel-wrapped model's call). Both were read by rule AL (2) (process 1 named); by rule BM (1) a
child of a multi-process job cut before its error at a step that runs DDP's collectives implicitly -- the call of the
DDP-wrapped model (its forward's buffer broadcast and reducer sync) or a loss's backward() (DDP's bucketed gradient
all-reduce) -- may be a peer's victim like rule BH (1)'s cut inside a named collective: unknown, culprits "unknown",
nobody innocent (rules BH (1)/(2), BG (6), AN (1)). maniskill-110 (cut at DistributedDataParallel.forward) and
sparsercnn-89 (process 0 under detectron2's launch -> _distributed_worker, cut at "loss_dict = self.model(data)")
were relabelled so. Process 0 is read so only where a frame shows the job runs several processes (a launcher's
_distributed_worker, DDP's own frame).

Near shapes NOT read so (the child stays named, rule AL (2)): a cut inside a loss's or other library code that runs
no collective (criterion -> torch/nn/modules/loss.py), a cut in the job's own code, process 0 with nothing showing
another process, and spawn's teardown of the other children shown (rule BH (2)'s exception).
"""
from __future__ import annotations

from tests.conftest import accused
from tests.conftest import diagnose_text as _report

_SP = "/opt/conda/lib/python3.8/site-packages"


def _spawned(n: int, frames: str, head: str = "") -> str:
    return (f"{head}torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
            f"-- Process {n} terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            f'  File "{_SP}/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
            "    fn(i, *args)\n" + frames)


_BACKWARD = ('  File "/work/gan/train.py", line 249, in train\n'
             "    scaler.scale(d_loss).backward()\n"
             f'  File "{_SP}/torch/_tensor.py", line 487, in backward\n')
_MODEL_CALL = ('  File "/work/nerf/pipeline.py", line 324, in get_train_loss_dict\n'
               "    model_outputs = self._model(ray_bundle)\n"
               f'  File "{_SP}/torch/nn/modules/module.py", line 1501, in _call_impl\n'
               "    return forward_call(*args, **kwargs)\n"
               '  File "/usr/local/lib/python3.10')
_LOSS_CALL = ('  File "/work/seg/train.py", line 88, in train\n'
              "    loss = criterion(out, target)\n"
              f'  File "{_SP}/torch/nn/modules/module.py", line 1501, in _call_impl\n'
              "    return forward_call(*args, **kwargs)\n"
              f'  File "{_SP}/torch/nn/modules/loss.py", line 1174, in forward\n')


def test_spawned_child_cut_at_ddp_step_names_nobody(tmp_path):
    for frames in (_BACKWARD, _MODEL_CALL):
        d = _report(tmp_path, _spawned(1, frames))
        v = d["verdict"]
        assert v["cause"] == "unknown" and not accused(d) and v["confidence"] == "low", v
        assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"] and "full error text" in v["fix"], v
    # process 0 of a launcher's per-process worker (several processes), cut at the model's call
    d = _report(tmp_path, _spawned(0, '  File "/env/detectron2/engine/launch.py", line 94, in _distributed_worker\n'
                                      "    main_func(*args)\n"
                                      '  File "/env/detectron2/engine/train_loop.py", line 332, in run_step\n'
                                      "    loss_dict = self.model(data)\n"))
    assert d["verdict"]["cause"] == "unknown" and not accused(d), d["verdict"]


def test_spawned_child_cut_elsewhere_stays_named(tmp_path):
    d = _report(tmp_path, _spawned(1, _LOSS_CALL))  # a loss runs no collective
    assert accused(d) == {1}, d["verdict"]
    d = _report(tmp_path, _spawned(1, '  File "/work/seg/train.py", line 70, in train\n'
                                      "    batch = next(loader_iter)\n"))  # the job's own code
    assert accused(d) == {1}, d["verdict"]
    d = _report(tmp_path, _spawned(0, '  File "/work/det/train.py", line 332, in run_step\n'
                                      "    loss_dict = self.model(data)\n"))  # nothing shows another process
    assert accused(d) == {0}, d["verdict"]
    d = _report(tmp_path, _spawned(1, _BACKWARD, head="W1204 10:01:02.000 1 torch/multiprocessing/spawn.py:160] "
                                   "Terminating process 4402 via signal SIGTERM\n"))  # spawn stopped the others
    assert accused(d) == {1}, d["verdict"]
