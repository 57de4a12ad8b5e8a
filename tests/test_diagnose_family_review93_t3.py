"""Review 93 of round 93's diagnose code, fixer t3: readings whose fix text held for wider shapes than an expert
reads so, or said what is not so, and advice written twice.

- Finding 6: ProcessGroupXCCL's "Work ran time out" (readers.watchdog sets backend="xccl") was labelled "no SeqNum:
  gloo" in LOG005 and took NCCL's words (NCCL_TIMEOUT, Flight Recorder dumps, NCCL_DEBUG / NCCL_SOCKET_IFNAME, Xid).
  Now conclude's label names the timeout's own backend (none where the reader knows none), and where every timeout
  shown is XCCL's the timeout verdict and the next steps give oneCCL's knobs (CCL_LOG_LEVEL, CCL_ATL_TRANSPORT, the
  init_process_group timeout, every rank's log); NCCL's and gloo's timeouts keep their words.
- Finding 10: fairscale FSDP's training-state assertion ("expected to be in states [BACKWARD_POST] but current state
  is IDLE") was explained as reentrant checkpointing, round 93's fairseq-3353's cause, for every stack. Now the fix
  lists the causes (backward twice or on a non-FSDP output, parameters unused in the loss, a forward without
  backward or under no_grad) and names checkpointing as one cause, its remedy kept.
- Finding 9: "Unconvertible NCCL type UInt64" read as "NCCL has no datatype for UInt64 in any version"; NCCL has
  ncclUint32 / ncclUint64. Now "torch's NCCL backend has no mapping for {dtype}" (still invalid_usage, a cast), and
  the list of dtypes it maps names uint32 / uint64 where torch maps them.
- Finding 12: the CheckpointError fix's sharded-parameter sentence is written once (verdict.layer_check's
  SHARDED_RECOMPUTE_FIX, read by verdict.unread too); two defs now follow their regexes after two blank lines.
- Finding 13: verdict.unread._R_DDP_MODULE_WIDE is built from _R_DDP_UNUSED's and _R_DDP_STATIC_CHANGED's patterns.
"""
from __future__ import annotations

import inspect
from pathlib import Path

from ncclDoctor.diagnose import diagnose, timeline
from ncclDoctor.diagnose.verdict import layer_check, nccl, timeouts, unread
from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict

_XCCL = (
    "[rank1]:[E302 10:12:01.123456 ProcessGroupXCCL.cpp:231] Work ran time out after 3009 milliseconds.\n"
    "[rank1]: Traceback (most recent call last):\n"
    "[rank1]:   File \"/home/u/test_allreduce.py\", line 20, in <module>\n"
    "[rank1]:     dist.all_reduce(t)\n"
)


def _report(tmp_path: Path, text: str):
    (tmp_path / "job.log").write_text(text)
    return diagnose([str(tmp_path / "job.log")])


# --- finding 6 ------------------------------------------------------------------------------------------------------
def test_xccl_work_timeout_gets_oneccls_words_not_nccls(tmp_path):
    r = _report(tmp_path, _XCCL)
    d = r.results["diagnose"]
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and v["confidence"] == "low"
    log5 = [f.message for f in r.findings if f.code == "LOG005"]
    assert log5 and "no SeqNum: xccl" in log5[0] and "gloo" not in log5[0]
    for nccl_only in ("TORCH_FR_BUFFER_SIZE", "TORCH_NCCL_TRACE_BUFFER_SIZE", "NCCL_SOCKET_IFNAME", "NCCL_DEBUG",
                      "Xid"):
        assert nccl_only not in v["fix"]
    assert "CCL_LOG_LEVEL" in v["fix"] and "CCL_ATL_TRANSPORT" in v["fix"] and "init_process_group(" in v["fix"]
    steps = " ".join(d["next_steps"])
    assert "NCCL_TIMEOUT" not in steps and "TORCH_FR_BUFFER_SIZE" not in steps
    assert "init_process_group(timeout=...)" in steps
    assert "XCCL_WAIT" in inspect.getsource(timeouts) and "xccl" in inspect.getsource(timeline)


def test_nccl_and_gloo_timeouts_keep_their_own_words(tmp_path):
    # NCCL's older watchdog line without a SeqNum: no backend named, NCCL's words kept
    old = ("[E ProcessGroupNCCL.cpp:587] [Rank 1] Watchdog caught collective operation timeout: "
           "WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800523 milliseconds before timing out.\n")
    r = _report(tmp_path, old)
    d = r.results["diagnose"]
    log5 = [f.message for f in r.findings if f.code == "LOG005"]
    assert log5 and "gloo" not in log5[0] and "xccl" not in log5[0]
    assert "NCCL has no NCCL_TIMEOUT" in " ".join(d["next_steps"])
    assert "TORCH_FR_BUFFER_SIZE" in d["verdict"]["fix"] and "CCL_LOG_LEVEL" not in d["verdict"]["fix"]
    gloo = ("[rank1]: Traceback (most recent call last):\n"
            "[rank1]:   File \"/home/u/train.py\", line 20, in <module>\n"
            "[rank1]:     dist.all_reduce(t)\n"
            "[rank1]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting "
            "1800000ms for recv operation to complete\n")
    r = _report(tmp_path, gloo)
    log5 = [f.message for f in r.findings if f.code == "LOG005"]
    assert log5 and "no SeqNum: gloo" in log5[0]


def test_xccl_case_still_reads_rank_missing(tmp_path):
    v, acc = _case(tmp_path, "torch-xpu-ops-2968-xccl-blocking-wait-barrier-work-timeout-test")
    assert v["cause"] == "rank_missing" and v["culprits"] == [] and not acc


# --- finding 10 -----------------------------------------------------------------------------------------------------
_FSDP_UNUSED = (
    "expected to be in states [<TrainingState.BACKWARD_POST: 4>] but current state is TrainingState.IDLE\n"
    "  File \"/opt/conda/lib/python3.8/site-packages/torch/autograd/__init__.py\", line 145, in backward\n"
    "    Variable._execution_engine.run_backward(\n"
    "  File \"/opt/conda/lib/python3.8/site-packages/torch/autograd/grad_mode.py\", line 27, in decorate_context\n"
    "    return func(*args, **kwargs)\n"
    "  File \"/opt/conda/lib/python3.8/site-packages/fairscale/nn/data_parallel/fully_sharded_data_parallel.py\", "
    "line 1174, in _wait_for_post_backward\n"
    "    m.assert_state(TrainingState.BACKWARD_POST)\n"
    "  File \"/opt/conda/lib/python3.8/site-packages/fairscale/nn/data_parallel/fully_sharded_data_parallel.py\", "
    "line 1365, in assert_state\n"
    "    traceback.print_stack()\n"
    "Traceback (most recent call last):\n"
    "  File \"/home/u/train.py\", line 88, in <module>\n"
    "    loss.backward()\n"
)


def test_fsdp_state_assertion_without_checkpointing_gets_the_general_causes(tmp_path):
    fix = unread._FSDP_STATE_FIX
    assert fix.index("Causes:") < fix.index("one cause") < fix.index("checkpointed submodule")
    for cause in ("backward called twice", "parameters unused in the loss", "a forward with no backward",
                  "torch.no_grad()"):
        assert cause in fix
    v, acc = _verdict(tmp_path, _FSDP_UNUSED)
    assert not acc and v["culprits"] == []
    assert "_wait_for_post_backward" in v["fix"]
    assert "one cause" in v["fix"] and "parameters unused in the loss" in v["fix"]


def test_fairseq_3353_keeps_its_reading_and_remedy(tmp_path):
    v, acc = _case(tmp_path, "fairseq-3353-fsdp-checkpoint-activations-backward-post-state")
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc
    for w in ("checkpoint_activations with FSDP", "use_reentrant=False", "FSDP(checkpoint_wrapper(module))",
              "disable activation checkpointing with FSDP"):
        assert w in v["fix"]


# --- finding 9 ------------------------------------------------------------------------------------------------------
def _unconvertible(dtype: str) -> str:
    return ("[rank0]: Traceback (most recent call last):\n"
            "[rank0]:   File \"/home/u/train.py\", line 40, in <module>\n"
            "[rank0]:     dist.all_reduce(t)\n"
            f"[rank0]: RuntimeError: Unconvertible NCCL type {dtype}\n")


def test_uint64_is_torchs_missing_mapping_not_ncclss(tmp_path):
    v, acc = _verdict(tmp_path, _unconvertible("UInt64"))
    assert v["cause"] == "invalid_usage" and not acc
    text = v["summary"] + " " + v["fix"]
    assert "in any version" not in text and "NCCL has no datatype" not in text
    assert "no mapping for UInt64" in v["summary"]
    assert "uint32/uint64" in v["fix"] and "ncclUint64" in v["fix"] and "torch.int64" in v["fix"]
    assert "in no version" not in inspect.getsource(nccl)


def test_short_and_bfloat16_read_as_before(tmp_path):
    v, _ = _verdict(tmp_path, _unconvertible("Short"))
    assert v["cause"] == "invalid_usage" and "no mapping for Short" in v["summary"]
    v, acc = _case(tmp_path, "nccl-677-megatron-bf16-irecv-unconvertible-nccl-type")
    assert v["cause"] == "config" and v["culprits"] == [] and not acc


# --- finding 12 -----------------------------------------------------------------------------------------------------
def test_recompute_fix_is_written_once():
    src = inspect.getsource(layer_check) + inspect.getsource(unread)
    assert src.count("did not gather again") == 1
    assert layer_check.SHARDED_RECOMPUTE_FIX in layer_check.recompute_fix()
    assert layer_check.SHARDED_RECOMPUTE_FIX in unread._CKPT_RECOMPUTE_FIX
    for mod, name in ((layer_check, "def recompute_fix"), (unread, "def _jit_build_fix")):
        s = inspect.getsource(mod)
        assert s[:s.index(name)].endswith(")\n\n\n")


def test_recompute_cases_read_as_before(tmp_path):
    for case in ("modalities-361-fsdp2-compile-activation-checkpointing-metadata",
                 "trl-4314-lora-fsdp2-context-parallel-checkpoint-metadata"):
        v, acc = _case(tmp_path, case)
        assert v["cause"] == "config" and v["culprits"] == [] and not acc
        assert "torch.Size([0])" in v["fix"]


# --- finding 13 -----------------------------------------------------------------------------------------------------
def test_ddp_module_wide_is_built_from_its_components():
    wide = unread._R_DDP_MODULE_WIDE.pattern
    assert unread._R_DDP_UNUSED.pattern in wide and unread._R_DDP_STATIC_CHANGED.pattern in wide
    src = inspect.getsource(unread)
    assert src.count("Your training graph has changed in this iteration\\b") == 1
    assert src.count("not used in producing (?:the )?loss") == 1
    for t in ("Expected to mark a variable ready only once", "Expected to have finished reduction in the prior "
              "iteration", "your module has parameters that were not used in producing loss",
              "Your training graph has changed in this iteration", "expect_autograd_hooks_ INTERNAL ASSERT FAILED"):
        assert unread._R_DDP_MODULE_WIDE.search(t)


def test_ddp_cases_read_as_before(tmp_path):
    for case in ("chemprop-853-lightning-ddp-unused-parameters-rank3",
                 "hept-2-static-graph-changed-and-unfinished-reduction"):
        v, acc = _case(tmp_path, case)
        assert v["culprits"] == [] and not acc
