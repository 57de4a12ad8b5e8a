"""diagnose on Open MPI's runtime failing in its own code before any worker ran ("[host:pid] PRTE ERROR: Bad parameter
in file base/odls_base_default_fns.c at line 962", ORTE's "ORTE_ERROR_LOG: ... in file ... at line N"): the MPI
runtime that starts the processes -- the launch set-up, config, no rank (lead rule X (2)); after Open MPI 5's help box
"A deprecated MPI_Info key was used" (Deprecated key: env), the framework spawning its workers with MPI_Comm_spawn was
written for Open MPI 4 (rule AF (2)), and the fix names that version. Round 71 showed it (tensorrt-llm-2476:
trtllm-bench's executor spawning its worker under Open MPI 5). The near shapes: the same runtime line after a rank's own
error is not read as the launch set-up (the rank's error decides), and the box alone ("will be treated as an error in a
future release", then the run going on) is no failure."""

from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

BOX = ("--------------------------------------------------------------------------\n"
       "WARNING: A deprecated MPI_Info key was used.\n\n"
       "  Deprecated key:   env\n"
       "  Corrected key:    PMIX_ENVAR\n\n"
       "We have updated this for you and will proceed. However, this will be treated\n"
       "as an error in a future release. Please update your application.\n"
       "--------------------------------------------------------------------------\n")
PRTE = "[node-b2:40122] PRTE ERROR: Bad parameter in file base/odls_base_default_fns.c at line 962\n"
HEAD = "[01/02/2025-03:04:05] [TRT-LLM] [I] Initializing Executor.\n"
TAIL = "[01/02/2025-03:04:06] [TRT-LLM] [I] Executor shutdown.\nTraceback (most recent call last):\n"


def test_the_mpi_runtime_failing_before_any_worker_is_the_launch_set_up(tmp_path):
    v = _verdict(tmp_path, HEAD + BOX + PRTE + TAIL)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "'env'" in v["summary"] and "odls" in v["summary"], v
    assert "Open MPI 4" in v["fix"] and "mpi4py" in v["fix"] and "mpirun -n 1" in v["fix"], v
    alone = _verdict(tmp_path, HEAD + PRTE + TAIL)
    assert (alone["cause"], alone["culprits"]) == ("config", []), alone
    assert "Open MPI's runtime" in alone["summary"] and "mpi4py" in alone["fix"], alone
    orte = _verdict(tmp_path, "[node-b2:40122] [[4711,0],0] ORTE_ERROR_LOG: Not found in file plm_rsh_module.c at "
                              "line 412\n")
    assert (orte["cause"], orte["culprits"]) == ("config", []) and "(plm)" in orte["summary"], orte


def test_the_runtime_line_after_a_ranks_own_error_is_not_the_launch_set_up(tmp_path):
    own = ("[rank1]: Traceback (most recent call last):\n"
           '[rank1]:   File "train.py", line 40, in <module>\n'
           "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n")
    v = _verdict(tmp_path, own + PRTE)
    assert "Open MPI's runtime" not in v["summary"], v


def test_the_deprecated_key_box_alone_is_no_failure(tmp_path):
    """Open MPI's box says it updated the key and proceeds: with nothing failing after it, none (rule K)."""
    v = _verdict(tmp_path, HEAD + BOX + "[01/02/2025-03:04:09] [TRT-LLM] [I] Throughput benchmark done.\n")
    assert (v["cause"], v["culprits"]) == ("none", []), v
