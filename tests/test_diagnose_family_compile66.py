"""How diagnose reads round 66's cases of fixer h1 (session 23): torch.compile under DistributedDataParallel and the
job's shared software at start-up -- Inductor's C++ build whose CalledProcessError the paste cut inside the compiler's
command (rule AF (2)), DDPOptimizer refusing a graph and naming the setting that avoids it (rules W, AW), a Python
3.11+ traceback cut under the caret marks of torch.compile's frames (rules AN (1), AF (2)), an installed module lacking
the attribute a rank calls at start-up beside another rank's compile failure (rule AF (2), round 41's sentence), and a
library's constructor refusing a keyword argument the entry script passes at its top level (rules AF (2), U (2)).
Each test reads the shape from lines other than the corpus case's own (other ranks, paths, wordings), and a near
shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


# --- Inductor's C++ build, its CalledProcessError cut inside the command ------------------------------------------
def _cpe(rank: int, cmd: str, frame: str = "torch/_inductor/cpp_builder.py\", line 340, in _run_compile_cmd") -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/opt/conda/lib/python3.11/site-packages/{frame}\n"
            f"[rank{rank}]:     subprocess.check_output(args=cmd, cwd=cwd, stderr=subprocess.STDOUT)\n"
            f"[rank{rank}]: subprocess.CalledProcessError: Command '{cmd}\n")


def test_a_compiler_command_cut_inside_its_list_is_the_shared_build(tmp_path):
    """Rule AF (2): torch.compile's Inductor runs g++ on the C++ it generated under /tmp/torchinductor_<user>; the
    paste keeps the CalledProcessError's first arguments only (no "returned non-zero exit status"). The compiler's
    command failed all the same: the toolchain every rank shares, config, no rank -- whichever rank's tag it carries;
    the fix is Inductor's (its cache dir, the compiler), not cpp_extension's ninja."""
    for rank, cmd in ((5, "['/usr/bin/g++', '/tmp/torchinductor_alice/x7/cx7abc.cpp', '-shared', '-fPIC',"),
                      (0, "['g++', '/tmp/torchinductor_bob/q2/cq2zz.cpp', '-D', 'TORCH_INDUCTOR_CPP_WRAPPER', '-O3'")):
        d = _report(tmp_path, _cpe(rank, cmd))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "Inductor" in v["summary"] and "TORCHINDUCTOR_CACHE_DIR" in v["fix"] and "g++" in v["fix"], v


def test_a_cut_command_that_is_no_compiler_or_a_compiler_killed_is_not_the_build(tmp_path):
    """The near shapes: a launcher's CalledProcessError for a worker's python command, cut the same way, is that
    worker's failure (rule A), not the toolchain; a compiler that died on a signal is read by its signal (a kill),
    not as a build that failed."""
    worker = _cpe(5, "['/opt/conda/bin/python', '-u', 'train.py', '--local_rank=5',",
                  "subprocess.py\", line 413, in check_call")
    assert _verdict(tmp_path, worker)["cause"] != "config"
    killed = _cpe(2, "['g++', '/tmp/torchinductor_alice/x7/cx7abc.cpp', '-shared']' died with <Signals.SIGKILL: 9>.")
    assert _verdict(tmp_path, killed)["cause"] != "config"


# --- a library's check naming the Python setting that avoids it ----------------------------------------------------
_DDP_OPT = ("NotImplementedError: DDPOptimizer backend: Found a higher order op in the graph. This is not supported. "
            "Please turn off DDP optimizer using torch._dynamo.config.optimize_ddp=False. Note that this can cause "
            "performance degradation because there will be one bucket for the entire Dynamo graph.")


def test_a_refusal_that_names_the_python_setting_avoiding_it_quotes_it_in_the_fix(tmp_path):
    """Rules W, AW: TorchDynamo's DDPOptimizer refuses a graph holding a higher-order op (activation checkpointing
    under torch.compile and DDP) and names the setting to turn it off. The same code on every rank: config, no rank,
    and the fix quotes the setting as the message gives it; another library's "set x.y = False" the same way."""
    text = ("torch._dynamo.exc.BackendCompilerFailed: backend='compile_fn' raised:\n" + _DDP_OPT + "\n\n"
            "You can suppress this exception and fall back to eager by setting:\n"
            "    import torch._dynamo\n"
            "    torch._dynamo.config.suppress_errors = True\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "torch._dynamo.config.optimize_ddp=False" in v["fix"] and "suppress_errors" not in v["fix"], v["fix"]
    other = "RuntimeError: fused attention is not supported on this device; set kernels.config.use_fused = False\n"
    v = _verdict(tmp_path, other)
    assert v["cause"] == "config" and "kernels.config.use_fused=False" in v["fix"], v


def test_an_environment_setting_or_dynamos_advice_alone_is_not_quoted_as_the_python_setting(tmp_path):
    """The near shapes: a message naming an environment variable keeps that variable's fix (named first), and
    dynamo's fall-back advice printed under a refusal that names no setting is not taken for the setting the check
    names (it is on lines of its own, not the error's)."""
    env = "RuntimeError: P2P is not supported on this system, set NCCL_P2P_DISABLE=1 or use torch.x.y = False\n"
    v = _verdict(tmp_path, env)
    assert "NCCL_P2P_DISABLE=1" in v["fix"] and "torch.x.y=False" not in v["fix"], v["fix"]
    bare = ("NotImplementedError: this op is not supported by the backend\n\n"
            "You can suppress this exception and fall back to eager by setting:\n"
            "    import torch._dynamo\n"
            "    torch._dynamo.config.suppress_errors = True\n")
    v = _verdict(tmp_path, bare)
    assert "suppress_errors=True" not in v["fix"] and "names the setting that avoids" not in v["fix"], v["fix"]


# --- a Python 3.11+ traceback cut under its caret marks -----------------------------------------------------------
_DYNAMO_FRAMES = (
    '[rank{r}]:   File "/env/lib/python3.11/site-packages/torch/_dynamo/output_graph.py", line 1446, in '
    "_call_user_compiler\n"
    "[rank{r}]:     compiled_fn = compiler_fn(gm, self.example_inputs())\n"
    "[rank{r}]:                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    '[rank{r}]:   File "/env/lib/python3.11/site-packages/torch/_dynamo/backends/distributed.py", line 541, in '
    "compile_fn\n"
    "[rank{r}]:     submod_compiler.run(*example_inputs)\n"
    '[rank{r}]:   File "/env/lib/python3.11/site-packages/torch/fx/interpreter.py", line 146, in run\n'
    "[rank{r}]:     self.env[node] = self.run_node(node)\n"
    "[rank{r}]:                      ^^^^^^^^^^^^^^^^^^^\n")


def test_a_traceback_cut_under_the_caret_marks_of_compile_frames_is_a_cut_failure(tmp_path):
    """Rules AN (1), AF (2): the paste stops at Python 3.11's caret marks under a frame's code line, inside
    torch.compile's frames (DDPOptimizer's compile_fn): a process raised and its error was cut -- unknown, nobody
    named, and the fix is torch.compile's (TORCHDYNAMO_VERBOSE, optimize_ddp=False), not 'nothing failed'."""
    d = _report(tmp_path, _DYNAMO_FRAMES.format(r=3))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "TORCHDYNAMO_VERBOSE=1" in v["fix"] and "optimize_ddp=False" in v["fix"], v["fix"]
    plain = ('  File "/work/train.py", line 88, in step\n'
             "    loss = model(batch)\n"
             "           ^^^^^^^^^^^^\n")
    v = _verdict(tmp_path, plain)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "TORCHDYNAMO_VERBOSE" not in v["fix"] and "optimize_ddp" not in v["fix"], v["fix"]


def test_caret_marks_under_a_line_that_is_no_frame_or_before_an_exception_are_not_a_cut(tmp_path):
    """The near shapes: carets under a code line whose line above is no frame (a log's own underline) show no
    traceback; a traceback whose carets are followed by its exception reads that exception, not a cut."""
    underline = "training config loaded\n    lr = 3e-4\n    ^^^^^^^^^\n"
    assert _verdict(tmp_path, underline)["cause"] == "none"
    full = _DYNAMO_FRAMES.format(r=1) + "[rank1]: RuntimeError: boom in the compiled graph\n"
    v = _verdict(tmp_path, full)
    assert "the input stops inside" not in v["summary"], v


# --- an installed module lacking the attribute a rank calls, beside another rank's compile failure ------------------
_ADVICE = ("[rank{r}]: Set TORCH_LOGS=\"+dynamo\" and TORCHDYNAMO_VERBOSE=1 for more information\n\n"
           "[rank{r}]: You can suppress this exception and fall back to eager by setting:\n"
           "[rank{r}]:     import torch._dynamo\n"
           "[rank{r}]:     torch._dynamo.config.suppress_errors = True\n")


def _raised(rank: int, exc: str, call: str = "mlflow.start_run(run_name=args.name)") -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/home/u/proj/train.py\", line 120, in <module>\n"
            f"[rank{rank}]:     {call}\n"
            f"[rank{rank}]: {exc}\n")


def test_a_module_lacking_the_attribute_a_rank_calls_is_the_shared_install(tmp_path):
    """Rule AF (2), round 41's sentence: rank 2 alone raises "module 'mlflow' has no attribute 'start_run'" (the
    module imported is not the package: another version, or a local folder of that name shadowing it) while rank 0's
    output ends in torch.compile's advice -- both failing on the software every rank shares: config, no rank, the
    fix naming the module and the shadowing check. The same line with no other rank shown is config too."""
    text = (_raised(2, "AttributeError: module 'mlflow' has no attribute 'start_run'") + _ADVICE.format(r=0)
            + "W0301 10:00:00.000000 4242 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 777 "
              "closing signal SIGTERM\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "mlflow" in v["fix"] and "shadows" in v["fix"] and "TORCHDYNAMO_VERBOSE" in v["fix"], v["fix"]
    v = _verdict(tmp_path, _raised(1, "AttributeError: module 'tensorboardX' has no attribute 'SummaryWriter'",
                                   "writer = tensorboardX.SummaryWriter(log_dir)"))
    assert (v["cause"], v["culprits"]) == ("config", []), v


def test_an_objects_attribute_or_a_module_beside_a_run_failure_is_not_the_install(tmp_path):
    """The near shapes: an object lacking an attribute ("'tuple' object has no attribute 'items'") is the code's own
    data, that rank's failure (rule A); a module's AttributeError beside an NCCL error is no start-up install
    failure; and another rank's compile advice beside a rank's own exception names neither rank alone."""
    v = _verdict(tmp_path, _raised(0, "AttributeError: 'tuple' object has no attribute 'items'", "x = batch.items()"))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    nccl = (_raised(3, "AttributeError: module 'mlflow' has no attribute 'start_run'")
            + "[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled "
              "system error, NCCL version 2.20.5\n")
    assert _verdict(tmp_path, nccl)["cause"] != "config"
    both = _raised(0, "KeyError: 'labels'", "loss = out['labels']") + _ADVICE.format(r=1)
    d = _report(tmp_path, both)
    assert d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]


# --- a library's constructor refusing the keyword the entry script passes at its top level --------------------------
def _top(rank: int, call: str, exc: str, carets: bool = False, deeper: str = "") -> str:
    p = f"[rank{rank}]: "
    return (f"{p}Traceback (most recent call last):\n"
            f"{p}  File \"/home/u/exp/run_small.py\", line 27, in <module>\n"
            f"{p}    {call}\n"
            + (f"{p}          {'^' * 40}\n" if carets else "")
            + (f"{p}  File \"/home/u/exp/run_small.py\", line 9, in {deeper}\n{p}    return build(**kw)\n"
               if deeper else "")
            + f"{p}{exc}\n"
            + f"{p}[W301 10:00:07.154035416 ProcessGroupNCCL.cpp:1250] WARNING: process group has NOT been destroyed "
              "before it is being destructed\n")


def test_a_constructor_refusing_the_scripts_top_level_keyword_is_the_install_version(tmp_path):
    """Rules AF (2), U (2): the entry script's top-level line builds an installed library's object with a keyword its
    version does not take ("TrainerArgs.__init__() got an unexpected keyword argument 'grad_ckpt'"; Python 3.9's
    unqualified "__init__()"; 3.11's caret marks under the call): every worker runs that line on the same install --
    config, no rank, the fix about the library's version and the keyword."""
    for rank, call, exc, carets in (
            (3, "args = TrainerArgs(lr=3e-4, grad_ckpt=True)",
             "TypeError: TrainerArgs.__init__() got an unexpected keyword argument 'grad_ckpt'", False),
            (0, "model = GPTConfig(n_layer=12, use_rope=True)",
             "TypeError: __init__() got an unexpected keyword argument 'use_rope'", False),
            (1, "cfg = ModelConfig.__class__(name='x', attn_impl='sdpa')",
             "TypeError: ModelConfig.__init__() got an unexpected keyword argument 'attn_impl'", True)):
        d = _report(tmp_path, _top(rank, call, exc, carets))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (exc, v)
        kw = exc.rsplit("'", 2)[1]
        assert kw in v["fix"] and "pip install" in v["fix"] and "version" in v["fix"], v["fix"]


def test_a_keyword_refused_deeper_or_by_a_method_or_without_its_frame_is_not_the_install(tmp_path):
    """The near shapes: the same refusal raised in a function the script calls (a deeper frame between) is the code's
    own call, rule A's reading; a method refusing a keyword at the top level ("forward() got an unexpected keyword
    argument") is no constructor of an installed class; and the bare line with no frame says nothing of where."""
    exc = "TypeError: TrainerArgs.__init__() got an unexpected keyword argument 'grad_ckpt'"
    deeper = _top(2, "args = make_args(cfg)", exc, deeper="make_args")
    assert _verdict(tmp_path, deeper)["cause"] != "config"
    method = _top(2, "out = model(input_ids, labels=y)",
                  "TypeError: forward() got an unexpected keyword argument 'labels'")
    assert _verdict(tmp_path, method)["cause"] != "config"
    assert _verdict(tmp_path, f"[rank2]: {exc}\n")["cause"] != "config"
