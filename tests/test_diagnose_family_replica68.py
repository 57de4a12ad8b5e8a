"""How diagnose reads Google Cloud's managed training recording one replica failing (round 68, session 25:
vertex-ai-samples-pr1504): Vertex AI's "The replica workerpool1-1 exited with a non-zero status of 1. Termination
reason: Error." (AI Platform's "The replica master 0 ..."), its message carrying the head of that replica's traceback
with its newlines escaped. A launcher's record of one process tree failing alone (rules A, I), but a replica is a
machine of a worker pool, not a rank, and no rank is printed (rule AI (2)'s per-node task): cause by the exit (1: an
exception not shown, unknown; 9 / 137: SIGKILL, host memory), nobody named, the fix naming the replica; where its
traceback runs into huggingface_hub's download, the fix names pre-downloading the model. Each test reads the shape from
lines other than the corpus case's own (other replicas, pools, frames), and a near shape that must NOT be read that
way. Paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _record(replica: str, frames: str, status: str = "1") -> str:
    return ("Training pipeline failed:\n"
            'message: "The replica ' + replica + " exited with a non-zero status of " + status + ". Termination "
            'reason: Error. \\nTraceback (most recent call last):\\n  File \\"/usr/lib/python3.10/runpy.py\\", line '
            '196, in _run_module_as_main\\n' + frames + '"\n')


_HUB = ('  File \\"/opt/conda/lib/python3.10/site-packages/transformers/modeling_utils.py\\", line 3016, in '
        "from_pretrained\\n    resolved_archive_file = cached_file(pretrained_model_name_or_path, filename)\\n"
        '  File \\"/opt/conda/lib/python3.10/site-packages/huggingface_hub/file_download.py\\", line 1461, in '
        "hf_hub_download\\n    http_get(\\n")
_OWN = ('  File \\"/app/trainer/task.py\\", line 88, in main\\n    model = build_model(args)\\n'
        '  File \\"/app/trainer/model.py\\", line 41, in build_model\\n    layers = make_layers(cfg)\\n')


def test_a_vertex_replicas_exit_1_into_the_hubs_download_names_the_replica_and_the_download(tmp_path):
    """Replica workerpool0-0 exited with 1, its traceback cut inside hf_hub_download under from_pretrained: unknown,
    nobody named, the fix naming the replica and downloading the model once (HF_HUB_OFFLINE / local_files_only)."""
    d = _report(tmp_path, _record("workerpool0-0", _HUB))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "workerpool0-0" in v["fix"] and "HF_HUB_OFFLINE" in v["fix"] and "hf_hub_download" in v["fix"], v


def test_a_replicas_exit_with_its_own_frames_names_the_replica_but_no_download(tmp_path):
    """The near shape: the same record whose traceback is the job's own code (no Hub frame): the replica is named,
    no download is claimed."""
    v = _report(tmp_path, _record("workerpool1-3", _OWN))["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "workerpool1-3" in v["fix"] and "HF_HUB_OFFLINE" not in v["fix"], v


def test_a_replica_killed_by_sigkill_is_host_memory_with_no_rank(tmp_path):
    """AI Platform's 'ran out-of-memory and exited with a non-zero status of 9(SIGKILL)', and a status of 137 (the
    shell's 128 + 9): host memory, nobody named (a replica is a machine)."""
    for line in ("The replica master 0 ran out-of-memory and exited with a non-zero status of 9(SIGKILL)\n",
                 "The replica workerpool1-0 exited with a non-zero status of 137. Termination reason: Error.\n"):
        d = _report(tmp_path, "Filling up shuffle buffer (this may take a while): 251889 of 1280000\n" + line)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("host_oom", []) and not _accused(d), (line, v)


def test_another_tools_non_zero_status_line_is_no_replica_record(tmp_path):
    """The near shape: a tool's own 'Process exited with a non-zero status of 1' (no replica) is not read as the
    service's record of a replica."""
    v = _report(tmp_path, "Running kubecfg update\nProcess exited with a non-zero status of 1\n")["verdict"]
    assert "replica" not in v["summary"] and "Vertex" not in v["fix"], v
