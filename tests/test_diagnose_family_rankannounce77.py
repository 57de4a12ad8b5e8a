"""Two processes announcing one rank of one world at init, at once, and Open MPI's start-up help message that says
the job goes on (round 77).

Round 77's powersgd-11 showed it: under `mpirun -np 2` a script that never reads its MPI rank prints "Distributed
init: rank 0/2 - ./output.tmp/dist_init" from both processes -- two processes started as one rank, the launch set
inconsistently (lead rule AA (1)): config, naming no rank. Open MPI's "Failed to create a completion queue (CQ)" help
message before it, its "Error:    Cannot allocate memory" field followed by "You job will continue, but Open MPI will
ignore the "ud" oob component", is a start-up warning (lead rule AZ (4)), not the failure shown. The near shapes: the
announcements of two ranks, the same rank announced again after a failure (a restart), and an "Error:" line no help
message says the job goes on after, are not read that way.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_CQ = ("Failed to create a completion queue (CQ):\n\n"
       "Hostname: gpu-node-7\n"
       "Requested CQE: 16384\n"
       "Error:    Cannot allocate memory\n\n"
       "Check the CQE attribute.\n\n"
       "Open MPI has detected that there are UD-capable Verbs devices on your\n"
       "system, but none of them were able to be setup properly.  This may\n"
       "indicate a problem on this system.\n\n"
       "You job will continue, but Open MPI will ignore the \"ud\" oob component\n"
       "in this run.\n\n")


def test_two_processes_announcing_rank_0_of_2_at_once_is_config_naming_no_rank(tmp_path):
    for head, lines in ((_CQ, ("Distributed init: rank 0/2 - ./output.tmp/dist_init",) * 2),
                        ("", ("Distributed init: rank 0/2 - file:///shared/rdzv",) * 2),
                        ("", ("dist init: rank 1 of 4", "dist init: rank 1 of 4"))):
        d = _report(tmp_path, head + "".join(x + "\n" for x in lines))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (lines, v)
        assert "OMPI_COMM_WORLD_RANK" in v["fix"] and "torchrun" in v["fix"], v


def test_two_ranks_announced_or_one_announced_again_after_a_failure_is_not_read_as_one_rank_twice(tmp_path):
    v = _verdict(tmp_path, "Distributed init: rank 0/2 - ./dist_init\nDistributed init: rank 1/2 - ./dist_init\n")
    assert v["cause"] != "config", v
    restart = ("Distributed init: rank 0/2 - ./dist_init\n"
               "RuntimeError: CUDA error: an illegal memory access was encountered\n"
               "restarting the trainer\n"
               "Distributed init: rank 0/2 - ./dist_init\n")
    assert _verdict(tmp_path, restart)["cause"] != "config"


def test_an_error_field_the_job_does_not_go_on_after_stays_a_failure_shown(tmp_path):
    """Without Open MPI's "job will continue", the "Error:" line is a failure shown, whatever the announcements."""
    cut = _CQ.split("You job will continue")[0]
    v = _verdict(tmp_path, cut + "Distributed init: rank 0/2 - ./dist_init\n" * 2)
    assert v["cause"] != "config", v
    v = _verdict(tmp_path, _CQ)
    assert v["cause"] != "unknown" or "Cannot allocate memory" not in v["summary"], v
