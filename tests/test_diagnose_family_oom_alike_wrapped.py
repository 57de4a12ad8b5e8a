"""How diagnose reads several processes' CUDA OOMs interleaved in one paste, once the paste is wrapped.

- Shape: torch 1.x's OOM text from several processes of one host, their output interleaved: the first line holds the
  exception's class ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 32.00 GiB (GPU 6; ...)"), the
  others only the allocator's own message ("CUDA out of memory. Tried to allocate 32.00 GiB (GPU 1; ...)"), their
  class glued onto another process's line. Each line is that process's own OOM, with the same request and the same
  figures on another GPU: every shown process ran out alike, the job's per-GPU memory does not fit -- lead rules J
  and U (3) (a GPU index alone names no rank; the processes are untagged, AC (1)): gpu_oom, nobody accused. Round
  95's colossalai-4537 showed it: right as pasted, but wrapped at 80 or 120 columns (or wrapped, then quoted) it
  accused rank 6. The bare line held no trigger word and was read only as the line right after the first OOM; the
  blank places unwrap() leaves for the pieces it joins moved it further down, so only GPU 6's OOM was read, and rule
  BX (1) (one OOM, its own allocator's figures) named local rank 6. The allocator's text "out of memory. Tried to
  allocate" is now a trigger (load.TRIGGERS): such a line is read wherever it stands.
- Not read so: one process's OOM alone (one GPU index, its own allocator's figures: rule BX (1) still names local
  rank N, wrapped or not); a line that only says "CUDA out of memory" with no request (advice, a summary) is no
  trigger of its own.
Sizes and figures are made up.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_FIGS = ("79.20 GiB total capacity; 54.76 GiB already allocated; 22.56 GiB free; 55.44 GiB reserved in total by "
         "PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  "
         "See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF")
_HEAD = ("args: Namespace(plugin='gemini', batch_size=16, max_length=4096, grad_checkpoint=True, "
         "offload_optim_frac=0.0, offload_param_frac=0.0)\nModel params: 6.28 B\n")


def _oom(gpu: int, cls: str = "") -> str:
    return f"{cls}CUDA out of memory. Tried to allocate 32.00 GiB (GPU {gpu}; {_FIGS}"


def _wrapped(text: str, width: int = 80) -> str:
    """A terminal's hard wrap: the rest of each long line on the next, at column WIDTH."""
    return "\n".join("\n".join(x[k:k + width] for k in range(0, len(x), width)) if len(x) > width else x
                     for x in text.split("\n"))


_INTERLEAVED = (_HEAD + _oom(6, "torch.cuda.OutOfMemoryError: ") + ": \n" + _oom(1) + _oom(0)[:120] + "\n")


def test_interleaved_ooms_on_several_gpus_accuse_nobody_as_pasted(tmp_path):
    v, acc = _verdict(tmp_path, _INTERLEAVED)
    assert v["cause"] == "gpu_oom" and not acc, v


def test_interleaved_ooms_on_several_gpus_accuse_nobody_once_wrapped(tmp_path):
    for width in (80, 120):
        v, acc = _verdict(tmp_path, _wrapped(_INTERLEAVED, width))
        assert v["cause"] == "gpu_oom" and not acc, (width, v)


def test_a_bare_oom_line_apart_from_the_first_is_read(tmp_path):
    text = _HEAD + _oom(6, "torch.cuda.OutOfMemoryError: ") + "\nBooster init max CUDA memory: 3770.59 MB\n\n" + _oom(1)
    v, acc = _verdict(tmp_path, text + "\n")
    assert v["cause"] == "gpu_oom" and not acc, v


# --- near shape: one process's OOM alone keeps naming its local rank (rule BX (1)) ----------------------------------
def test_one_processs_oom_alone_keeps_its_local_rank_once_wrapped(tmp_path):
    text = _HEAD + _oom(6, "torch.cuda.OutOfMemoryError: ") + "\n"
    for t in (text, _wrapped(text, 80)):
        v, acc = _verdict(tmp_path, t)
        assert v["cause"] == "gpu_oom" and acc == {6}, v
