"""How diagnose reads a job that fails in its set-up, before any rank runs a collective (round 62, session 22, fixer
f1): a process group asked for without a backend on a device torch has none for, a framework's loader refusing the
NCCL library it was pointed at, the build toolchain missing, MPI's own start-up failing, an MPI launcher's remote-start
agent missing, and the env:// rendezvous' own raise with its message cut. Each is a setting or an install every rank
shares (lead rules Q's last sentence, X (2), AF (2)): config, no rank. Each test reads the shape from lines other than
the corpus case's own (another version's wording, device, paths, hosts, numbers), and a near shape that must NOT be
read that way. Format strings are torch's, vLLM's, DeepSpeed's, Open MPI's and the mpi-operator's (sources beside each
test); hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


# --- torch's BackendConfig: no default backend for the accelerator found ------------------------------------------
# distributed_c10d.py (torch 2.5+): raise ValueError(f"We detected accelerator {device_type} on your machine. " f"But we
# don't know which communication backend to use for this accelerator. " "Please specify the `backend` argument in the
# `init_process_group` call.")
def test_no_default_backend_for_the_accelerator_is_the_calls_setting(tmp_path):
    """Lead rule Q's last sentence: init_process_group without a backend on a device torch has no default backend for
    (mps on a Mac, here under a plain traceback with torchrun's record of one local rank) fails in every process
    alike: config, no rank, and the fix says to pass the backend (gloo where NCCL does not exist)."""
    text = ("Traceback (most recent call last):\n"
            '  File "/Users/dev/proj/train.py", line 31, in <module>\n'
            "    dist.init_process_group(rank=rank, world_size=2)\n"
            '  File "/Users/dev/.venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 1960, '
            "in _new_process_group_helper\n"
            "    backend_config = BackendConfig(backend)\n"
            "ValueError: We detected accelerator mps on your machine. But we don't know which communication backend "
            "to use for this accelerator. Please specify the `backend` argument in the `init_process_group` call.\n"
            "E1203 10:00:01.100000 4242 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
            "local_rank: 1 (pid: 4244) of binary: /Users/dev/.venv/bin/python\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert 'backend="gloo"' in v["fix"] and "mps" in v["summary"], v


def test_the_backend_checks_source_listed_by_pytest_is_not_the_error(tmp_path):
    """The near shape: pytest's long traceback lists the check's source (its raise, the message's f-strings); with the
    error line itself cut, those lines are torch's code, not an error raised -- not read as the missing backend."""
    text = ("    def __init__(self, backend):\n"
            "        if backend == Backend.UNDEFINED:\n"
            ">           raise ValueError(f\"We detected accelerator {device_type} on your machine. But we don't know "
            "which communication backend to use for this accelerator.\")\n"
            "                f\"But we don't know which communication backend to use for this accelerator. \"\n")
    assert _verdict(tmp_path, text)["cause"] != "config"


# --- vLLM's pynccl wrapper refusing the NCCL library it was pointed at ----------------------------------------------
# vllm/distributed/device_communicators/pynccl_wrapper.py: logger.error("Failed to load NCCL library from %s. It is
# expected if you are not running on NVIDIA/AMD GPUs. ...", so_file, ...), under vLLM >= 0.8's record header
# "ERROR 08-20 09:48:31 [pynccl_wrapper.py:229] " (the file:line in brackets)
def test_vllms_bracketed_error_record_of_a_library_it_cannot_load_is_the_install(tmp_path):
    """Lead rules AF (2), AT (1): newer vLLM writes its logger's header with the file:line in brackets; its error-level
    record that a worker could not load the NCCL library the job points it at is the shared install, config, no rank
    -- whichever worker printed it."""
    text = ("(VllmWorker rank=0 pid=9101) INFO 03-02 11:20:05 [utils.py:1102] Found nccl from environment variable "
            "VLLM_NCCL_SO_PATH=/opt/nccl/build/lib/libnccl.so.2.23.4\n"
            "(VllmWorker rank=1 pid=9102) ERROR 03-02 11:20:05 [pynccl_wrapper.py:231] Failed to load NCCL library "
            "from /opt/nccl/build/lib/libnccl.so.2.23.4. It is expected if you are not running on NVIDIA/AMD GPUs.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "libnccl.so.2.23.4" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v["fix"]


def test_the_same_words_in_a_bracketed_info_record_are_no_failure(tmp_path):
    """The near shape: the same words in an INFO record of the bracketed header (vLLM retelling the import's failure
    on a platform without NCCL) are no error level, so not the install failing."""
    text = ("INFO 03-02 11:20:05 [pynccl_utils.py:17] Failed to import NCCL library: Failed to load NCCL library from "
            "libnccl.so.2 .\n")
    assert _verdict(tmp_path, text)["cause"] != "config"


# --- no CUDA toolkit to build the ops with ---------------------------------------------------------------------------
# DeepSpeed op_builder/builder.py: raise MissingCUDAException("CUDA_HOME does not exist, unable to compile CUDA op(s)");
# torch/utils/cpp_extension.py: raise OSError('CUDA_HOME environment variable is not set. Please set it to your CUDA
# install root.')
def test_no_cuda_toolkit_to_build_ops_is_the_shared_install(tmp_path):
    """Lead rules AF (2), X (2): the op build finding no CUDA toolkit -- DeepSpeed's MissingCUDAException with its
    class, or torch's cpp_extension OSError under torchrun's record of one local rank -- is the install every node
    shares, before any worker ran a collective: config, no rank, and the fix says to install the toolkit (nvcc) and
    set CUDA_HOME."""
    ds = ("Traceback (most recent call last):\n"
          '  File "/opt/venv/lib/python3.10/site-packages/deepspeed/ops/op_builder/builder.py", line 95, in '
          "installed_cuda_version\n"
          '    raise MissingCUDAException("CUDA_HOME does not exist, unable to compile CUDA op(s)")\n'
          "deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile CUDA "
          "op(s)\n")
    torch_ext = ("Traceback (most recent call last):\n"
                 '  File "/opt/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 2416, in '
                 "_join_cuda_home\n"
                 "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n"
                 "[2025-02-01 10:00:03,100] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: "
                 "1) local_rank: 3 (pid: 5150) of binary: /opt/venv/bin/python\n")
    for name, text in (("ds.log", ds), ("ext.log", torch_ext)):
        d = _report(tmp_path, text, name)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (name, v)
        assert "CUDA_HOME" in v["fix"] and "nvcc" in v["fix"], (name, v["fix"])


def test_cuda_home_on_a_command_line_or_beside_a_ranks_own_failure_is_not_the_toolkit(tmp_path):
    """The near shapes: CUDA_HOME set on the launch command is no failure; and the toolkit's message followed by a
    rank's collective timing out (the job got past its start-up) is not read as the missing toolkit."""
    cmd = "CUDA_HOME=/usr/local/cuda-12.1 torchrun --nproc_per_node 4 train.py --deepspeed ds.json\n"
    assert _verdict(tmp_path, cmd, "cmd.log")["cause"] != "config"
    later = ("CUDA_HOME does not exist, unable to compile CUDA op(s)\n"
             "[rank2]:[E102 10:30:00.000000000 ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation "
             "timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=1024, NumelOut=1024, Timeout(ms)=600000) ran for "
             "600012 milliseconds before timing out.\n")
    assert _verdict(tmp_path, later, "later.log")["cause"] != "config"


# --- the env:// rendezvous' own raise, its message cut -------------------------------------------------------------
# torch/distributed/rendezvous.py: _env_rendezvous_handler's 'master_addr = _get_env_or_raise("MASTER_ADDR")' and
# _get_env_or_raise's 'raise _env_error(env_var)' ("environment variable %s expected, but not set")
def _env_tb(var: str, tail: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/srv/app/train.py", line 12, in <module>\n'
            '    dist.init_process_group("gloo")\n'
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/rendezvous.py", line 246, in '
            "_env_rendezvous_handler\n"
            f'    master_addr = _get_env_or_raise("{var}")\n'
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/rendezvous.py", line 229, in '
            "_get_env_or_raise\n" + tail)


def test_the_env_rendezvous_raising_for_a_variable_with_its_message_cut_is_the_launch(tmp_path):
    """Lead rule Q's last sentence: a traceback whose innermost frames are the env:// rendezvous asking for a variable
    and raising its error for it (the message line cut from the paste) says that variable is unset -- the script was
    started without a launcher: config, no rank, and the fix says to start it with torchrun."""
    d = _report(tmp_path, _env_tb("MASTER_ADDR", "    raise _env_error(env_var)\n"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "MASTER_ADDR" in v["summary"] and "torchrun" in v["fix"], v


def test_a_value_error_at_the_variables_own_frame_is_not_the_variable_unset(tmp_path):
    """The near shape: the variable was set but not a number ('rank = int(_get_env_or_raise("RANK"))' raising int()'s
    ValueError at the caller's own frame, no raise inside _get_env_or_raise): not read as the variable unset."""
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/rendezvous.py", line 235, in '
            "_env_rendezvous_handler\n"
            '    rank = int(_get_env_or_raise("RANK"))\n'
            "ValueError: invalid literal for int() with base 10: 'auto'\n")
    v = _verdict(tmp_path, text)
    assert "RANK unset" not in v["summary"], v


# --- Open MPI's own start-up failing ------------------------------------------------------------------------------
# Open MPI's help-opal-runtime.txt / help-orte-runtime.txt "[...:startup:internal-failure]": "It looks like %s failed
# for some reason; your parallel process is likely to abort. ... here's some additional information (which may only
# be relevant to an Open MPI developer):\n\n  %s failed\n  --> Returned value %s (%d) instead of ORTE_SUCCESS"
def _ompi_help(stage: str, step: str, value: str) -> str:
    return ("--------------------------------------------------------------------------\n"
            f"It looks like {stage} failed for some reason; your parallel process is\n"
            "likely to abort.  There are many reasons that a parallel process can\n"
            f"fail during {stage}; some of which are due to configuration or\n"
            "environment problems.  This failure appears to be an internal failure;\n"
            "here's some additional information (which may only be relevant to an\n"
            "Open MPI developer):\n\n"
            f"  {step} failed\n"
            f"  --> Returned value {value} instead of ORTE_SUCCESS\n"
            "--------------------------------------------------------------------------\n")


def test_open_mpis_own_start_up_failing_is_the_mpi_install_not_a_rank(tmp_path):
    """Lead rule X (2): Open MPI's help message that its own start-up failed in the process (orte_init, the step
    orte_ess_init; or opal_init's shared-memory component selection) is the MPI install or the host's environment
    before any worker ran: config, no rank. The fix follows the step its message names: the shared-memory backing
    (/dev/shm, --mca shmem) for opal_shmem_base_select, the install's components (ompi_info) otherwise."""
    d = _report(tmp_path, _ompi_help("orte_init", "orte_ess_init", "Unable to start a daemon on the local node (-127)"),
                "orte.log")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "ompi_info" in v["fix"] and "orte_ess_init" in v["summary"], v
    d = _report(tmp_path, "Running horovodrun -np 4 python train.py\n"
                + _ompi_help("opal_init", "opal_shmem_base_select", "-1"), "shm.log")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "/dev/shm" in v["fix"] and "--mca shmem posix" in v["fix"], v["fix"]


def test_open_mpis_start_up_message_beside_a_ranks_own_failure_is_not_the_install(tmp_path):
    """The near shape: the same help message where a rank's collective then timed out (the job got past its MPI
    start-up, the message one helper process's) is not read as the MPI install failing."""
    text = (_ompi_help("orte_init", "orte_ess_init", "-1")
            + "[rank1]:[E102 10:30:00.000000000 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=40, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran "
            "for 600010 milliseconds before timing out.\n")
    assert _verdict(tmp_path, text)["cause"] != "config"


# --- an MPI launcher's remote start not found by a shell ----------------------------------------------------------
# Open MPI's rsh launcher: "bash: orted: command not found" (the remote non-interactive shell); the Kubernetes MPI
# operator's /etc/mpi/kubexec.sh ("/opt/kube/kubectl exec ${POD_NAME} -- /bin/sh -c ..."), run by dash
def test_the_launchers_remote_start_not_found_is_the_launch_set_up(tmp_path):
    """Lead rule X (2): a shell that cannot find what the MPI launcher starts its daemons with -- the operator's rsh
    agent script calling kubectl (bash's wording, another line number), or orted on a remote host -- fails before any
    worker ran: config, no rank; the fix names tree spawn for the agent, mpirun --prefix for the daemon."""
    agent = ("+ POD_NAME=bench-worker-3\n"
             "/etc/mpi/kubexec.sh: line 9: /opt/kube/kubectl: command not found\n"
             "command terminated with exit code 127\n")
    d = _report(tmp_path, agent, "agent.log")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "plm_rsh_no_tree_spawn" in v["fix"] and "kubectl" in v["fix"], v["fix"]
    daemon = ("bash: orted: command not found\n"
              "--------------------------------------------------------------------------\n"
              "ORTE was unable to reliably start one or more daemons.\n")
    d = _report(tmp_path, daemon, "daemon.log")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--prefix" in v["fix"], v["fix"]


def test_another_command_not_found_or_an_abort_is_not_the_launchers_remote_start(tmp_path):
    """The near shapes: a helper command a job's script runs that a shell does not find ("/bin/sh: gpustat: command
    not found") is not the launcher's remote start; nor is a line where "orted: " ends another word ("Job aborted:
    ...")."""
    for text in ("/bin/sh: gpustat: command not found\n",
                 "Job aborted: a process exited with status 1\n"):
        v = _verdict(tmp_path, text)
        assert "remote" not in v["summary"] and "daemon" not in v["summary"], (text, v)


# --- srun's --export list, and a container plugin that could not start the tasks' container (round 64) ------------
def test_an_srun_export_list_is_read_as_one_setting_each(tmp_path):
    """srun / sbatch --export="NCCL_DEBUG=INFO,NCCL_IB_DISABLE=1" is a comma-separated list of assignments: NCCL_DEBUG's
    value ends at the comma that starts the next NAME=, so it is not read as the bad value 'INFO,NCCL_IB_DISABLE=1'
    (round 64, pyxis-101); a list value (NCCL_DEBUG_SUBSYS=INIT,NET) keeps its commas and a bad one is still read."""
    line = ('$ srun --export="NCCL_DEBUG=INFO,NCCL_IB_DISABLE=1,UCX_TLS=tcp" -N 1 --ntasks-per-node=4 python '
            "train.py\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] != "config" and "INFO,NCCL_IB_DISABLE" not in v["summary"], v
    bad = 'srun --export="NCCL_DEBUG=INFO,NCCL_IB_TIMEOUT=99" -N 1 python train.py\n'
    v = _verdict(tmp_path, bad)
    assert v["cause"] == "config" and "NCCL_IB_TIMEOUT" in v["summary"], v  # the next assignment's own value


# pyxis (src/pyxis_slurmstepd.c): "pyxis: container start failed with error code: %d", "pyxis: couldn't start
# container", slurm's "spank: required plugin %s: task_init() failed with rc=%d"; enroot's log lines
PYXIS = ("pyxis: imported docker image: registry.local:5000#/trainer:1.2\n"
         "slurmstepd: error: pyxis: container start failed with error code: 1\n"
         "slurmstepd: error: pyxis: printing enroot log file:\n"
         "slurmstepd: error: pyxis:     [ERROR] Command not found: nvidia-container-cli, see "
         "https://github.com/NVIDIA/libnvidia-container\n"
         "slurmstepd: error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1\n"
         "slurmstepd: error: pyxis: couldn't start container\n"
         "slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1\n"
         "slurmstepd: error: Failed to invoke spank plugin stack\n")


def test_a_container_plugin_that_could_not_start_the_container_is_the_launch_set_up(tmp_path):
    """Lead rules X (2), Q: pyxis could not start any task's container (enroot's GPU hook found no
    nvidia-container-cli): no worker process ran -- config, no rank; the fix names what enroot's log says."""
    d = _report(tmp_path, PYXIS)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "nvidia-container-cli" in v["fix"] and "libnvidia-container" in v["fix"] and "98-nvidia.sh" in v["fix"]


def test_an_enroot_like_error_line_without_a_container_start_failure_is_not_read_so(tmp_path):
    """The near shapes: a "[ERROR] Command not found: X" line with no container plugin failing is not the container's
    start (no container wording in the verdict); and a worker's own crash after the container started is the crash."""
    v = _verdict(tmp_path, "[ERROR] Command not found: nvidia-container-cli\n")
    assert "container plugin" not in v["summary"], v
    crash = ("pyxis: imported docker image: registry.local:5000#/trainer:1.2\n"
             "[rank0]: RuntimeError: CUDA error: an illegal memory access was encountered\n")
    v = _verdict(tmp_path, crash)
    assert "container plugin" not in v["summary"] and v["cause"] != "config", v


# CPython's runpy (_get_module_details): "%s: Error while finding module specification for %r (%s: %s)"
def test_a_worker_started_with_a_module_python_cannot_find_is_the_launch_command(tmp_path):
    """Lead rules Q, U (2), W (round 64, so-vits-svc-fork-392): a launcher that restarts the main script for each extra
    worker (Lightning's subprocess launcher) gives it a command whose '__main__' has no spec when the job was started
    from a console-script entry point: config, no rank, the fix says run it with python -m / python script.py."""
    text = ("Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2\n"
            "C:\\proj\\venv\\Scripts\\python.exe: Error while finding module specification for '__main__' "
            "(ValueError: __main__.__spec__ is None)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "__spec__" in v["summary"] and "python -m" in v["fix"] and "devices=1" in v["fix"], v
    assert "10049" not in v["fix"]  # no store warning shown here
    other = ("/usr/bin/python3: Error while finding module specification for 'trainer.main' "
             "(ModuleNotFoundError: No module named 'trainer')\n")
    v = _verdict(tmp_path, other)
    assert v["cause"] == "config" and "PYTHONPATH" in v["fix"] and "devices=1" not in v["fix"], v


def test_a_scripts_own_module_not_found_is_not_the_launch_command(tmp_path):
    """The near shape: a worker's own traceback ending in ModuleNotFoundError (an import inside the script) names no
    launch command: not read as the interpreter's module-spec failure."""
    text = ('Traceback (most recent call last):\n  File "/w/train.py", line 3, in <module>\n    import apex\n'
            "ModuleNotFoundError: No module named 'apex'\n")
    v = _verdict(tmp_path, text)
    assert "module specification" not in v["summary"] and "__spec__" not in v["fix"], v
