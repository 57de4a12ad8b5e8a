"""How diagnose reads notebooks, notebook launchers, torch_xla on TPU and accelerate's test runs (round 110, session 47,
fixer f2): Lightning refusing to fork once CUDA is initialised; notebook_launcher's own CUDA check shown in a rich
(boxed) traceback cut below it; torch_xla's "Runtime is already initialized" refusal of xmp.spawn; a notebook's
ProcessExitedException cut where the children were forked; torch_xla's XRT client failing its session call in a
spawned child (rule CK (2)); absl's crash-handler SIGTERM lines of torn-down TPU workers (rule CK (8)); and the fix
words of a spawned child's SIGFPE / SIGSEGV, env:// with a variable unset, accelerate's kernel advisory beside a rank's
own exception and the store client's connect warning beside a failure no family explains. Each test reads the shape
from lines other than the corpus case's own (other ranks, numbers, paths, names), and a near shape that keeps its old
reading. Hosts, paths and names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.verdict import unread
from tests.conftest import verdict_accused


def _tb(frames: list[tuple[str, int, str, str]], last: str, prefix: str = "") -> str:
    """A Python traceback (FILE, LINE, FUNC, CODE per frame) ending in LAST, each line under PREFIX."""
    lines = ["Traceback (most recent call last):"]
    for f, n, fn, code in frames:
        lines += [f'  File "{f}", line {n}, in {fn}', f"    {code}"]
    lines.append(last)
    return "".join(f"{prefix}{x}\n" for x in lines)


def _spawn_parent(n: int, last: str, env: str = "/opt/venv/lib/python3.11/site-packages") -> str:
    """mp.spawn's parent traceback ending in spawn's report LAST about process N."""
    return _tb([("/work/proj/run_train.py", 57, "<module>", "mp.spawn(worker, args=(cfg,), nprocs=4, join=True)"),
                (f"{env}/torch/multiprocessing/spawn.py", 328, "spawn",
                 'return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")'),
                (f"{env}/torch/multiprocessing/spawn.py", 284, "start_processes", "while not context.join():"),
                (f"{env}/torch/multiprocessing/spawn.py", 184, "join", "raise ProcessExitedException(")],
               last)


# --- Lightning refusing to fork: CUDA already initialised ------------------------------------------------------------
def test_lightning_refusing_to_fork_after_cuda_init_is_config_with_its_notebook_fix(tmp_path):
    """Rules Q, W (round 110's lightning-21561): Lightning's launcher's own check, CUDA initialised before
    the fork: config, nobody; the fix names the notebook's cells, the kernel restart, a script with strategy='ddp'."""
    text = ("GPU available: True (cuda), used: True\n"
            "RuntimeError: Lightning can't create new processes if CUDA is already initialized. Did you manually "
            "call `torch.cuda.*` functions, have moved the model to the device, or allocated memory on the GPU any "
            "other way? Please remove any such calls, or change the selected strategy.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "restart the Python kernel" in v["fix"] and "strategy='ddp'" in v["fix"], v
    assert "use devices=1 in the notebook" in v["fix"], v


def test_torch_refusing_cuda_in_a_forked_worker_keeps_its_spawn_fix(tmp_path):
    """Near shape: torch's own 'Cannot re-initialize CUDA in forked subprocess' keeps the start-method fix, no
    Lightning words."""
    text = _tb([("/srv/app/worker_pool.py", 31, "run", "torch.cuda.set_device(idx)")],
               "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you "
               "must use the 'spawn' start method")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "set_start_method('spawn')" in v["fix"] and "ddp_notebook" not in v["fix"], v
    assert S.R_CUDA_FORK.search("Lightning can't create new processes if CUDA is already initialized.") is not None


# --- notebook_launcher's own check, in a rich traceback cut below it -------------------------------------------------
def _rich(frame_line: int, check_line: int, env: str = "/usr/local/lib/python3.10/site-packages") -> str:
    w = 100
    rows = ["╭" + " Traceback (most recent call last) ".center(w - 2, "─") + "╮",
            "│ /tmp/ipykernel_417/2290017734.py:7 in <module>".ljust(w - 1) + "│",
            "│".ljust(w - 1) + "│",
            f"│ {env}/accelerate/launchers.py:{frame_line} in notebook_launcher".ljust(w - 1) + "│",
            "│".ljust(w - 1) + "│",
            f"│   {check_line - 1:>3} │   │   │".ljust(w - 1) + "│",
            f"│   {check_line:>3} │   │   │   if torch.cuda.is_initialized():".ljust(w - 1) + "│"]
    return "\n".join(rows) + "\n"


def test_rich_traceback_cut_at_notebook_launchers_cuda_check_is_config(tmp_path):
    """Rules Q, W (round 110's hf-notebooks-265): the frame raised two lines below notebook_launcher's own
    'if torch.cuda.is_initialized():' check, the box cut before its ValueError: the launcher refused to fork,
    config, nobody; the fix creates the Accelerator, model and dataloaders inside the launched function."""
    v, acc = verdict_accused(tmp_path, _rich(131, 129))
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "create the Accelerator, model and dataloaders only inside the training function" in v["fix"], v
    assert "restart the kernel" in v["fix"], v


def test_rich_frame_far_below_the_cuda_check_is_not_read_as_it(tmp_path):
    """Near shape: the frame's line is far below the check shown (the launcher's start_processes call raising, the
    check only context): not the launcher's refusal."""
    v, acc = verdict_accused(tmp_path, _rich(145, 129))
    assert v["cause"] != "config" and not acc, v
    assert S.R_RICH_CUDA_CHECK.search("│   129 │   │   if torch.cuda.is_initialized():  │") is not None


# --- torch_xla: the runtime initialised before xmp.spawn ------------------------------------------------------------
def test_xla_runtime_already_initialized_before_xmp_spawn_is_config(tmp_path):
    """Rules Q, W, CK (round 110's xla-9303): torch_xla's own refusal, and a notebook's capitalised print of it: the
    parent used the XLA device before spawning, config, nobody; the fix says not to touch the device first."""
    for last in ("RuntimeError: Runtime is already initialized. Do not use the XLA device before calling xmp.spawn.",
                 "!!! xmp.spawn FAILED: Runtime ALREADY initialized."):
        text = _tb([("/kaggle/working/train_tpu.py", 212, "<module>", "xmp.spawn(_mp_fn, args=(flags,), nprocs=8)"),
                    ("/usr/local/lib/python3.11/site-packages/torch_xla/_internal/pjrt.py", 198, "spawn",
                     "raise RuntimeError('Runtime is already initialized. Do not use the XLA ...')")], last)
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "config" and not acc and v["culprits"] == [], (last, v)
        assert "Runtime is already initialized" in v["fix"] and "move all XLA initialisation" in v["fix"], v


def test_runtime_already_initialized_without_xmp_spawn_is_not_the_xla_reading(tmp_path):
    """Near shape: another runtime's 'already initialized' with no xmp.spawn on the line is not torch_xla's refusal."""
    v, acc = verdict_accused(tmp_path, "RuntimeError: Runtime already initialized (ort session 2)\n")
    assert v["cause"] != "config" and "xmp.spawn" not in v["fix"], v
    assert S.R_XLA_RUNTIME_INIT.search("xmp.spawn failed: runtime ALREADY initialised") is not None


# --- a notebook's ProcessExitedException cut where the children were forked ----------------------------------------
def _ipy_cut(code: str) -> str:
    return ("Launching training on 4 GPUs.\n"
            "---------------------------------------------------------------------------\n"
            "ProcessExitedException                    Traceback (most recent call last)\n"
            "/tmp/ipykernel_5512/1198822301.py in <module>\n"
            "----> 2 notebook_launcher(train_loop, (net, loaders), num_processes=4)\n\n"
            "~/venvs/a/lib/python3.9/site-packages/accelerate/launchers.py in notebook_launcher(function, args, "
            "num_processes, mixed_precision, use_port)\n"
            f"--> 140                 {code}\n")


def test_notebook_processexited_cut_in_a_fork_start_is_unknown(tmp_path):
    """Rules AU (1), BG (6), AB (2) (round 110's accelerate-664): the message naming the child and its code or signal
    is cut, and the children were forked (no __main__ re-import): unknown, nobody; the fix asks for the message and
    names CUDA before notebook_launcher."""
    v, acc = verdict_accused(tmp_path, _ipy_cut(
        "start_processes(launcher, args=args, nprocs=num_processes, start_method='fork')"))
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], v
    assert "Show the full ProcessExitedException text (which process, exit code or signal)" in v["fix"], v
    assert "do not initialise CUDA in the notebook before notebook_launcher (fork start method)" in v["fix"], v


def test_notebook_processexited_cut_in_an_mp_spawn_keeps_the_main_reimport_reading(tmp_path):
    """Near shape: the notebook's own mp.spawn (start method spawn) keeps round 73's config: the children cannot
    re-import the kernel's __main__."""
    text = ("---------------------------------------------------------------------------\n"
            "ProcessExitedException                    Traceback (most recent call last)\n"
            "/tmp/ipykernel_880/3310229.py in <module>\n"
            "----> 9 mp.spawn(demo_basic, args=(world,), nprocs=world, join=True)\n\n"
            "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py in start_processes(fn, args, "
            "nprocs, join, daemon, start_method)\n"
            "--> 197         while not context.join():\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "Run the example as a script, not from a notebook" in v["fix"], v
    assert unread._R_FORK_START.search("start_processes(fn, nprocs=2, start_method=\"fork\")") is not None
    assert unread._R_FORK_START.search('start_method="spawn"') is None


# --- torch_xla's XRT client failing its session call in a spawned child ---------------------------------------------
def _xrt_child(n: int, tail: str) -> str:
    env = "/usr/local/lib/python3.7/dist-packages"
    return ("Exception: \n\n" f"-- Process {n} terminated with the following error:\n" + _tb(
        [(f"{env}/torch/multiprocessing/spawn.py", 19, "_wrap", "fn(i, *args)"),
         (f"{env}/torch_xla/distributed/xla_multiprocessing.py", 231, "_start_fn", "_setup_replication()"),
         (f"{env}/torch_xla/distributed/xla_multiprocessing.py", 223, "_setup_replication",
          "device = xm.xla_device()"),
         (f"{env}/torch_xla/core/xla_model.py", 52, "get_xla_supported_devices",
          "xla_devices = torch_xla._XLAC._xla_get_devices()")], tail))


def test_xrt_session_call_failing_in_a_spawned_child_is_that_processes_runtime_error(tmp_path):
    """Rules AL (2), AN (2), CK (2) (round 110's xla-1911): xmp.spawn's child N fails in xm.xla_device() with the XRT
    client's 'Check failed: session.Run(...)': cuda_error, process N; the fix names the TPU runtime and the cut
    status."""
    v, acc = verdict_accused(tmp_path, _xrt_child(
        3, "RuntimeError: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:1207 : Check failed: "
           "session.Run({tensorflow::Output(result, 0)}, &outputs) == ::tensorflow::Status::OK() (Unavailable: "
           "failed to connect vs. OK)"))
    assert v["cause"] == "cuda_error" and acc == {3} and v["culprits"] == [3], v
    assert "get the full XRT error text" in v["fix"] and "restart the TPU runtime / reconnect" in v["fix"], v


def test_another_xla_error_in_a_spawned_child_keeps_its_exception_reading(tmp_path):
    """Near shape: the child's own Python error in the same frames (a device-count check) stays the child's
    exception, not an accelerator runtime error."""
    v, acc = verdict_accused(tmp_path, _xrt_child(
        5, "RuntimeError: Cannot replicate if number of devices (1) is different from 8"))
    assert v["cause"] != "cuda_error", v
    # the reading kept: torch_xla's own device-count check of the launch, config, nobody (review a of round 110, #8)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "Make the devices each process sees match the launch" in v["fix"], v
    assert S.R_XRT_CLIENT_RUN.search("xrt_computation_client.cc:88 : Check failed: session->session()->Run(")


# --- absl's crash handler: TPU workers torn down by SIGTERM from an unidentified pid -------------------------------
def test_absl_sigterm_from_an_unidentified_pid_is_unknown_teardown(tmp_path):
    """Rule CK (8) (round 110's xla-5616): absl's FailureSignalHandler of two processes reporting SIGTERM from a pid
    the lines do not identify, no exception, record or rank: unknown, nobody; the fix asks for the first worker's
    error and names the sender pid."""
    text = ("*** SIGTERM received by PID 2207 (TID 2207) on cpu 14 from PID 1931; stack trace: ***\n"
            "PC: @     0x7f11d60c807c  (unknown)  __poll\n"
            "E1102 07:41:55.104210    2207 coredump_hook.cc:360] RAW: Remote crash gathering disabled for SIGTERM.\n"
            "*** SIGTERM received by PID 2209 (TID 2209) on cpu 3 from PID 1931; stack trace: ***\n"
            "E1102 07:41:55.311842    2209 process_state.cc:1109] RAW: Raising 15 signal with default behavior\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], v
    assert "Find the first worker's own error (the process that was not SIGTERM'd)" in v["fix"], v
    assert "find what PID 1931 is" in v["fix"], v


def test_glog_sigterm_of_a_paddle_worker_keeps_its_reading(tmp_path):
    """Near shape: glog's own form (its '(@0x...)' address, a hex thread id) is not the absl teardown reading."""
    text = "[SignalInfo: *** SIGTERM (@0x2b1) received by PID 913 (TID 0x7f3a1c2e5740) from PID 689 ***]\n"
    v, acc = verdict_accused(tmp_path, text)
    assert "absl" not in v["summary"] and not acc, v
    # the reading kept: a job process's handler logging the SIGTERM it got, the job stopped from outside (signal,
    # nobody; review a of round 110, #8)
    assert v["cause"] == "signal" and v["culprits"] == [], v
    assert "Find who sent SIGTERM" in v["fix"], v
    assert S.R_GLOG_SIGNAL.search(text).group(3) == "689"
    absl = S.R_GLOG_SIGNAL.search("*** SIGTERM received by PID 77 (TID 77) on cpu 5 from PID 12; stack trace: ***")
    assert absl is not None and absl.group(3) == "12"


# --- fix words: SIGFPE, the TPU's native crash ----------------------------------------------------------------------
def test_spawned_child_sigfpe_names_dmesgs_trap_divide_error(tmp_path):
    """Rules A, AL (2) (round 110's trellis-288): mp.spawn's child 2 died of SIGFPE: unknown, process 2; the fix names
    the kernel's 'trap divide error' line."""
    text = ("W0702 11:02:10.512000 1403 torch/multiprocessing/spawn.py:160] Terminating process 77120 via signal "
            "SIGTERM\n" + _spawn_parent(2, "torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated "
                                           "with signal SIGFPE"))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and acc == {2}, v
    assert "check dmesg for 'trap divide error' naming the library" in v["fix"], v


def test_spawned_child_sigsegv_names_the_tpu_remedies_not_the_divide_trap(tmp_path):
    """Round 110's xla-3136: a spawned child's SIGSEGV names the TPU's version match and fewer cores; the SIGFPE
    words stay out."""
    v, acc = verdict_accused(tmp_path, _spawn_parent(
        1, "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV"))
    assert v["cause"] == "unknown" and acc == {1}, v
    assert "match torch, torch_xla and the TPU runtime versions" in v["fix"], v
    assert "try with fewer cores (nprocs=1) to isolate" in v["fix"] and "trap divide error" not in v["fix"], v


# --- fix words: env:// with a variable unset ------------------------------------------------------------------------
def test_env_rendezvous_missing_variable_names_torchrun_for_it(tmp_path):
    """Rules CJ (1), Q (round 110's finetrainers-315): the fix names the variable torch's check says is unset and
    torchrun for one GPU (a one-process accelerate launch runs plain python)."""
    v, acc = verdict_accused(tmp_path, "ValueError: Error initializing torch.distributed using env:// rendezvous: "
                                       "environment variable WORLD_SIZE expected, but not set\n")
    assert v["cause"] == "config" and not acc, v
    assert "launch with torchrun / torch.distributed.launch so WORLD_SIZE is set" in v["fix"], v
    assert "so RANK is set" not in v["fix"], v


# --- fix words: accelerate's kernel advisory beside a rank's own exception -----------------------------------------
def _assert_rank(advisory: str) -> str:
    return (advisory + _tb(
        [("/env/lib/python3.10/site-packages/accelerate/test_utils/scripts/test_script.py", 702, "main",
          "process_execution_check()"),
         ("/env/lib/python3.10/site-packages/accelerate/test_utils/scripts/test_script.py", 91,
          "process_execution_check", 'assert text.startswith("Currently in the main process\\n"), "Main process was '
          'not first"')],
        "AssertionError: Main process was not first")
        + "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 40110 closing signal SIGTERM\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 40111) of "
        "binary: /env/bin/python\n")


def test_kernel_advisory_beside_a_ranks_exception_names_the_kernel_upgrade(tmp_path):
    """Rules A, K, T (round 110's accelerate-2084): local rank 1's own AssertionError, accelerate's kernel advisory
    above it: unknown, rank 1; the fix names the kernel upgrade with the version the advisory shows."""
    v, acc = verdict_accused(tmp_path, _assert_rank(
        "Detected kernel version 4.15.0, which is below the recommended minimum of 5.5.0; this can cause the process "
        "to hang. It is recommended to upgrade the kernel to the minimum version or higher.\n"))
    assert v["cause"] == "unknown" and acc == {1}, v
    assert "upgrade the kernel to 5.5.0 or later (kernel 4.15.0 can cause hangs)" in v["fix"], v


def test_no_kernel_advisory_no_kernel_words(tmp_path):
    """Near shape: the same failure without the advisory: the same reading, no kernel words."""
    v, acc = verdict_accused(tmp_path, _assert_rank(""))
    assert v["cause"] == "unknown" and acc == {1}, v
    assert "upgrade the kernel" not in v["fix"], v
    assert "upgrade the kernel to 5.5.0 or later (kernel 3.10.0 can cause hangs)" in unread.kernel_words(
        ("3.10.0", "5.5.0"))


# --- fix words: the store client's connect warning beside a failure no family explains -----------------------------
def _win_test(warning: str) -> str:
    base = "D:\\Apps\\Py312\\Lib\\site-packages\\accelerate"
    return (_tb([(f"{base}\\commands\\test.py", 56, "test_command",
                  "result = execute_subprocess_async(cmd, env=os.environ.copy())"),
                 (f"{base}\\test_utils\\testing.py", 571, "execute_subprocess_async", "raise RuntimeError(")],
                f"RuntimeError: 'accelerate-launch {base}\\test_utils\\scripts\\test_script.py' failed with "
                "returncode 1")
            + "\nThe combined stderr from workers follows:\n" + warning + "Traceback (most recent call last):\n")


def test_windows_connect_warning_beside_an_unexplained_failure_names_the_local_address(tmp_path):
    """Rules L, BM (2), BG (6) (round 110's accelerate-2508): accelerate test's launch failing, the workers' traceback
    cut, a store client's retried 10049 warning: unknown, nobody; the fix names gloo and MASTER_ADDR=127.0.0.1."""
    v, acc = verdict_accused(tmp_path, _win_test(
        "[W socket.cpp:663] [c10d] The client socket has failed to connect to [WIN-7Q2LK0A]:29511 (system error: "
        "10049 - The requested address is not valid in its context.).\n"))
    assert v["cause"] == "unknown" and not acc, v
    assert "on Windows use the gloo backend (NCCL is not built in) and set MASTER_ADDR=127.0.0.1 / localhost" in \
        v["fix"], v


def test_no_connect_warning_no_address_words(tmp_path):
    """Near shape: the same failure without the warning: the same reading, no address words."""
    v, acc = verdict_accused(tmp_path, _win_test(""))
    assert v["cause"] == "unknown" and not acc, v
    assert "MASTER_ADDR=127.0.0.1" not in v["fix"], v
    (tmp_path / "w").mkdir()
    w, _ = verdict_accused(tmp_path / "w", _win_test(
        "[W socket.cpp:697] [c10d] The client socket has failed to connect to [box-3]:29500 (system error: 10049 - "
        "The requested address is not valid in its context.).\n"))
    assert w["cause"] == "unknown" and "MASTER_ADDR=127.0.0.1" in w["fix"], w
