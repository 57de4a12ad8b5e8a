"""Reducer-like failures in backward round 87 showed with a fix no expert would give (rules AW, BK (1), BJ (2), AC (1),
T); the verdicts were already right (unknown, culprits [], nobody innocent) and stay so -- only the fix is read.

- DDP's reducer assert on its unused-parameter bookkeeping, the torch 1.5-era "has_marked_unused_parameters_ INTERNAL
  ASSERT FAILED" -- or the flag's name alone where the paste cuts the message ("RuntimeError:
  has_marked_unused_parameters_ INT", under an mmcv optimizer hook's loss.backward(); bevdet-8): rule AW's reducer
  error, the module and DDP setting every rank runs. The fix is now the reducer's (backward twice or outside the DDP
  forward, gradient checkpointing, static_graph, find_unused_parameters, upgrade torch). A cut RuntimeError of other
  words in the same backward keeps the generic fix, without the reducer's words.
- A data-parallel wrapper's own post-backward check that some parameters were never reduced (ColossalAI's GeminiDDP:
  "ZERO DDP error: the synchronization of gradients doesn't exit properly", "Reduction failed at followed
  parameters: ..."; colossalai-5185): the wrapper's counterpart of DDP's "Expected to have finished reduction" --
  parameters that got no gradient, rule AW. The fix names them unused (every parameter must receive a gradient,
  find_unused_parameters, another plugin); where the parameters it lists are MoE experts (".experts.N."), it adds
  that experts receiving no tokens get no gradient. A list of other parameters gets no MoE words.
- An IndexError raised in the backward of torch.distributed.nn.functional's differentiable collective ("gx =
  torch.empty_like(grad_outputs[rank])"; deepspeed-7672, Ulysses sequence parallelism on a subgroup): older torch
  indexes the group's gradients with the global rank -- rule BJ (2)'s unknown, culprits []; the fix names the
  all_gather backward, the group's rank and upgrading torch. The same IndexError in a backward of the job's own
  autograd function is not read so.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_TB = "Traceback (most recent call last):\n"
_BACKWARD = ('  File "/opt/conda/lib/python3.7/site-packages/mmcv/runner/hooks/optimizer.py", line 35, in '
             "after_train_iter\n    runner.outputs['loss'].backward()\n"
             '  File "/opt/conda/lib/python3.7/site-packages/torch/autograd/__init__.py", line 100, in backward\n'
             "    allow_unreachable=True)  # allow_unreachable flag\n")


# --- DDP's reducer assert on its unused-parameter bookkeeping, cut (bevdet-8) --------------------------------------

def test_a_cut_has_marked_unused_parameters_assert_gets_the_reducers_fix(tmp_path):
    v = _verdict(tmp_path, _TB + _BACKWARD + "RuntimeError: has_marked_unused_parameters_ INT\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("find_unused_parameters", "static_graph", "upgrade torch", "backward"):
        assert word in v["fix"], (word, v)


def test_another_cut_runtime_error_in_backward_keeps_the_generic_fix(tmp_path):
    v = _verdict(tmp_path, _TB + _BACKWARD + "RuntimeError: element 0 of tensors does not requ\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "find_unused_parameters" not in v["fix"] and "reducer" not in v["fix"], v


# --- a data-parallel wrapper's check that parameters were never reduced (colossalai-5185) --------------------------

_GEMINI = ('Traceback (most recent call last):\n  File "train.py", line 223, in main\n'
           "    booster.backward(loss, optimizer)\n"
           '  File "/env/lib/python3.10/site-packages/colossalai/zero/gemini/gemini_ddp.py", line 314, in '
           "_post_backward\n    raise RuntimeError(\nRuntimeError: (\n"
           "\"ZERO DDP error: the synchronization of gradients doesn't exit properly.\",\n"
           "'The most possible reason is that the model is not compatible with GeminiDDP.\n', 'Reduction failed at "
           "followed parameters:\n\t{param}\n")


def test_gemini_ddp_parameters_never_reduced_read_as_unused_with_the_experts_named(tmp_path):
    # as Python prints an exception raised with a tuple of messages: their repr on the exception's one line
    v = _verdict(tmp_path, _GEMINI.partition("RuntimeError: (")[0]
                 + "RuntimeError: (\"ZERO DDP error: the synchronization of gradients doesn't exit properly.\", "
                 "'The most possible reason is that the model is not compatible with GeminiDDP.\\n', 'Reduction "
                 "failed at followed parameters:\\n\\tmodel.layers.22.block_sparse_moe.experts.2.w1.weight\\n"
                 "\\tmodel.layers.22.block_sparse_moe.experts.3.w1.weight')\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("find_unused_parameters", "unused parameters", "experts that receive no tokens get no gradient"):
        assert word in v["fix"], (word, v)


def test_gemini_ddp_parameters_never_reduced_without_experts_get_no_moe_words(tmp_path):
    v = _verdict(tmp_path, _GEMINI.format(param="model.classifier.weight"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "find_unused_parameters" in v["fix"], v
    assert "MoE" not in v["fix"] and "experts" not in v["fix"], v


# --- an IndexError in torch.distributed.nn.functional's backward (deepspeed-7672) ----------------------------------

def _indexerror_in(path: str) -> str:
    return (_TB + '  File "/opt/conda/lib/python3.10/site-packages/torch/autograd/function.py", line 289, in apply\n'
            "    return user_fn(self, *args)\n"
            f'  File "{path}", line 343, in backward\n'
            "    gx = torch.empty_like(grad_outputs[rank])\nIndexError: tuple index out of range\n")


def test_an_indexerror_in_the_dist_nn_all_gather_backward_names_the_groups_rank(tmp_path):
    v = _verdict(tmp_path, _indexerror_in("/opt/conda/lib/python3.10/site-packages/torch/distributed/nn/functional.py"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("torch.distributed.nn.functional all_gather backward", "dist.get_rank(group)", "Upgrade torch"):
        assert word in v["fix"], (word, v)


def test_an_indexerror_in_the_jobs_own_autograd_backward_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, _indexerror_in("/work/project/model/sp_ops.py"))
    assert v["cause"] == "unknown", v
    assert "all_gather backward" not in v["fix"] and "get_rank(group)" not in v["fix"], v
