"""Review of session 33's new diagnose code, finding set r2: readings that were too broad or gave wrong advice, each
narrowed to the shape an expert reads that way, and what reads them now.

1. verdict.launch._kwarg_newer_torch (rule BT (2), centerpoint-59) took any code line that passes the refused keyword
   as DDP's: accelerate's "DistributedDataParallelKwargs(static_graph=True)" refused by an old accelerate read "torch
   older than 1.11, upgrade torch". It now reads only DDP's own call (_builds_ddp): the keyword inside
   DistributedDataParallel( / DDP( / nn.parallel.DistributedDataParallel(, or on a bare continuation line with no
   other call open (Python before 3.8 names a multi-line call's last line: centerpoint-59's "find_unused_parameters=
   True,"), or DDP's call opened with the keyword on a later line. The keyword given to another callable is not DDP's.
2. verdict.launch._symbol_lookup (npkit-38) blamed the program ld.so names first, not the object after "symbol lookup
   error:" -- the one that references the symbol: "python: symbol lookup error: .../libtorch_cuda.so: undefined
   symbol: ncclCommRegister" said "python was built against ...", ldd python and the nccl-tests rebuild. It now names
   the object: torch's own library gets the CUDA library's wheel fix (_torch_lib_fix: ldd libtorch_cuda.so | grep
   nccl), an nccl-tests binary (all_reduce_perf) the NCCL_HOME rebuild, any other object its own rebuild / run against
   the same library, never the nccl-tests text.
3. numerics.SCALER_FIX (the unscale_/step/update order) was given for GradScaler's "No inf checks were recorded for
   this optimizer", which is no order: none of that optimizer's parameters got a gradient from the scaled loss. It
   has its own fix now (numerics.NO_GRAD_FIX: frozen parameters, parameters not in the loss, a loss never
   scaler.scale()d); lvsm-pr19's unscale-twice keeps the order fix.
4. Regexes too narrow for their shape: numerics.R_DIVERGED missed the norm as a logged key ("'grad_norm': nan", HF
   Trainer; "grad_norm=nan", fairseq) -- read now by the key's own value only, not another key's nan;
   signatures.R_LAUNCHER_NOT_FOUND missed zsh's "command not found: torchrun", a given path that is gone
   (".../bin/torchrun: No such file or directory") and accelerate's CLI -- read now (R_LAUNCHER_NOT_FOUND_ZSH for
   zsh's order; two trigger words "accelerate: ", "command not found: "), another program not found still not.
"""
from __future__ import annotations

from ncclDoctor.diagnose import numerics
from tests.conftest import verdict_accused as _verdict


def _config(v: dict, acc: set[int]) -> None:
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


# --- 1. a refused keyword: DDP's own call only ------------------------------------------------------------------------
def _kwarg_tb(line: str, kw: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "train.py", line 50, in <module>\n'
            "    main()\n"
            '  File "train.py", line 20, in main\n'
            f"{line}\n"
            f"TypeError: __init__() got an unexpected keyword argument '{kw}'\n")


def test_accelerates_ddp_kwargs_refusing_static_graph_is_not_an_old_torch(tmp_path):
    v, _ = _verdict(tmp_path, _kwarg_tb("    ddp_kwargs = DistributedDataParallelKwargs(static_graph=True)",
                                        "static_graph"))
    assert "upgrade torch" not in v["fix"].lower() and "torch 1.11" not in v["summary"], v


def test_the_keyword_in_another_call_on_a_ddp_line_is_not_ddps(tmp_path):
    v, _ = _verdict(tmp_path, _kwarg_tb("    acc = Accelerator(kwargs_handlers=[DistributedDataParallelKwargs("
                                        "find_unused_parameters=True)])", "find_unused_parameters"))
    assert "upgrade torch to >= 1.1" not in v["fix"].lower(), v


def test_ddps_continuation_line_still_reads_torch_older_than_the_code(tmp_path):
    v, acc = _verdict(tmp_path, _kwarg_tb("    find_unused_parameters=True,", "find_unused_parameters"))
    _config(v, acc)
    assert "upgrade torch to >= 1.1" in v["fix"].lower() and "drop find_unused_parameters" in v["fix"], v


def test_the_keyword_inside_ddps_call_reads_torch_older_than_the_code(tmp_path):
    for line in ("    model = DDP(model.cuda(), device_ids=[rank], find_unused_parameters=True)",
                 "    model = torch.nn.parallel.DistributedDataParallel(model, static_graph=True)",
                 "    model = DistributedDataParallel("):
        kw = "static_graph" if "static" in line else "find_unused_parameters"
        v, acc = _verdict(tmp_path, _kwarg_tb(line, kw))
        _config(v, acc)
        assert "upgrade torch to >= 1." in v["fix"].lower(), (line, v)


# --- 2. the dynamic linker's symbol lookup error: the object that references it -------------------------------------
def test_libtorch_cuda_referencing_an_nccl_symbol_under_python_gets_torchs_fix(tmp_path):
    line = ("python: symbol lookup error: /env/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined "
            "symbol: ncclCommRegister\n")
    v, acc = _verdict(tmp_path, line * 2)
    _config(v, acc)
    assert "libtorch_cuda.so" in v["summary"] and "python was built" not in v["summary"], v
    assert "ldd libtorch_cuda.so | grep nccl" in v["fix"] and "nvidia-nccl-cuXX" in v["fix"], v
    assert "ldd python" not in v["fix"] and "nccl-tests" not in v["fix"] and "make NCCL_HOME" not in v["fix"], v


def test_another_program_lacking_an_nccl_symbol_gets_no_nccl_tests_text(tmp_path):
    v, acc = _verdict(tmp_path, "./myapp: symbol lookup error: ./myapp: undefined symbol: ncclCommRegister\n")
    _config(v, acc)
    assert "nccl-tests" not in v["fix"] and "ldd ./myapp | grep nccl" in v["fix"], v


def test_nccl_tests_binary_still_gets_the_nccl_home_rebuild(tmp_path):
    line = ("/opt/nccl-tests/build/all_reduce_perf: symbol lookup error: /opt/nccl-tests/build/all_reduce_perf: "
            "undefined symbol: ncclCommRegister\n")
    v, acc = _verdict(tmp_path, line * 4)
    _config(v, acc)
    assert "make NCCL_HOME=" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v
    assert "ldd /opt/nccl-tests/build/all_reduce_perf | grep nccl" in v["fix"], v


# --- 3. GradScaler: no gradient is no call order ----------------------------------------------------------------------
_NO_INF = ("[rank0]: Traceback (most recent call last):\n"
           '[rank0]:   File "/src/train.py", line 80, in main\n'
           "[rank0]:     scaler.step(optimizer)\n"
           '[rank0]:   File "/env/lib/python3.10/site-packages/torch/amp/grad_scaler.py", line 451, in step\n'
           '[rank0]:     assert len(optimizer_state["found_inf_per_device"]) > 0, "No inf checks were recorded for '
           'this optimizer."\n'
           "[rank0]: AssertionError: No inf checks were recorded for this optimizer.\n")


def test_no_inf_checks_recorded_gets_the_no_gradient_fix(tmp_path):
    assert numerics.fix_for(["AssertionError: No inf checks were recorded for this optimizer."]) == numerics.NO_GRAD_FIX
    v, _ = _verdict(tmp_path, _NO_INF)
    assert v["fix"].startswith(numerics.NO_GRAD_FIX), v
    assert "unscale_ at most once" not in v["fix"] and "requires_grad" in v["fix"], v


def test_unscale_twice_keeps_the_order_fix():
    text = "RuntimeError: unscale_() has already been called on this optimizer since the last update()."
    assert numerics.fix_for([text]) == numerics.SCALER_FIX


# --- 4. regexes widened to their shape --------------------------------------------------------------------------------
def test_grad_norm_as_a_logged_key_with_nan_is_a_divergence():
    for text in ("{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 1e-05, 'epoch': 0.1}",
                 "epoch 001:  10 / 100 loss=2.3, grad_norm=nan, lr=0.001", "| grad_norm nan | clip 1",
                 "grad norm: nan"):
        assert numerics.R_DIVERGED.search(text), text
    for text in ("{'loss': nan, 'grad_norm': 1.25, 'learning_rate': 1e-05}", "grad_norm=0.53, loss=nan"):
        assert not numerics.R_DIVERGED.search(text), text


def test_launcher_not_found_in_zsh_by_path_and_accelerate_is_the_launch_setup(tmp_path):
    for line, name in (("zsh: command not found: torchrun", "torchrun"),
                       ("bash: accelerate: command not found", "accelerate"),
                       ("/bin/sh: 1: accelerate: not found", "accelerate"),
                       ("zsh: command not found: deepspeed", "deepspeed")):
        v, acc = _verdict(tmp_path, line + "\n")
        _config(v, acc)
        assert f"Put {name} on the PATH" in v["fix"], (line, v)
    v, acc = _verdict(tmp_path, "bash: /home/u/miniconda3/envs/old/bin/torchrun: No such file or directory\n")
    _config(v, acc)
    assert "is not there" in v["fix"] and "Put torchrun on the PATH" in v["fix"], v
    v, _ = _verdict(tmp_path, "bash: accelerate: command not found\n")
    assert "python -m accelerate.commands.launch" in v["fix"], v


def test_the_old_launcher_shape_reads_as_before_and_other_programs_do_not(tmp_path):
    v, acc = _verdict(tmp_path, "/bin/sh: 1: torchrun: not found\n")
    _config(v, acc)
    assert "python -m torch.distributed.run" in v["fix"] and "is not there" not in v["fix"], v
    for line in ("bash: nvitop: command not found", "zsh: command not found: torchrunx", "accelerate: 0.25.0"):
        v, _ = _verdict(tmp_path, line + "\n")
        assert v["cause"] != "config", (line, v)
