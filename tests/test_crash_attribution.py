"""Who died first when torchrun noticed the victim first.

The fixture is torchrun's failure summary from a real run of this suite on a busy host
(`--inject exit:0`: rank 0 SIGKILLed as the OOM killer would): torchrun's "Root Cause
(first observed failure)" is rank 1, which it stopped with SIGTERM after its gloo read
failed with "Connection reset by peer"; rank 0's SIGKILL is listed under the other
failures. The report must still name rank 0, killed by SIGKILL, and rank 1 as its
victim."""

from __future__ import annotations

from ncclDoctor.analysis.verdict import crash_findings
from ncclDoctor.launch.evidence import torchrun_failures
from ncclDoctor.launch.supervisor import Outcome, RankState
from tests.conftest import ROOT

LOG = (ROOT / "tests" / "fixtures" / "torchrun" / "sigkill_noticed_after_its_peer.log").read_text()
RESET = ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error [127.0.0.1]:1456: "
         "Connection reset by peer. This is typically caused by a remote worker hanging or bugs in the application.")


def test_the_failure_summary_is_parsed_with_signals_and_error_files():
    f = torchrun_failures(LOG)
    root, [other] = f["root_cause"], f["others"]
    assert (root["rank"], root["signal"], root["exitcode"]) == (1, "SIGTERM", -15)
    assert root["error_file"].endswith("attempt_0/1/error.json")  # the "(SIGTERM)" after the pid no longer hides it
    assert (other["rank"], other["signal"], other["error_file"]) == (0, "SIGKILL", None)


def test_the_killed_rank_is_named_not_the_peer_torchrun_noticed_first():
    failures = torchrun_failures(LOG)
    for rec in [failures["root_cause"], *failures["others"]]:
        rec["message"] = None  # the error files are not in the fixture; rank 1's error is in its phase record
    ranks = {
        0: RankState(0, phase="all_reduce", state="enter", left={"init", "inventory", "smoke"}),
        1: RankState(1, phase="all_reduce", state="error", error=RESET, left={"init", "inventory", "smoke"}),
    }
    verdict = crash_findings(Outcome("failed", 1, 3.0, ranks, {}), lambda r: "192.0.2.2 (vm)", {}, failures, {})
    assert int(verdict.code) == 4
    [f] = verdict.findings
    assert f.code == "RUN004" and f.ranks == [0]
    assert "killed by SIGKILL" in f.message and "OOM" in f.message and "Ranks [1] failed after it" in f.message


# torchrun's own log from a real run of this suite on a loaded host (`--inject exit:0`, one node): rank 1, SIGTERMed,
# was still writing its @record error file when torchrun's agent read it -- an empty file, a JSONDecodeError in the
# agent, and no "Root Cause" summary at all: nobody recorded rank 0's SIGKILL
AGENT_CRASH = (ROOT / "tests" / "fixtures" / "torchrun" / "agent_crash_jsondecode.log").read_text()


def test_torchruns_own_agent_crash_is_read_from_its_log_and_nothing_else_is():
    from ncclDoctor.launch.evidence import agent_crash

    assert agent_crash(AGENT_CRASH).startswith("json.decoder.JSONDecodeError: Expecting value")
    assert torchrun_failures(AGENT_CRASH) == {"root_cause": None, "others": []}
    assert agent_crash(LOG) is None  # a summary printed: the agent did its job
    worker = ("Traceback (most recent call last):\n  File \".../torch/distributed/elastic/multiprocessing/errors/"
              "__init__.py\", line 355, in wrapper\n    return f(*args, **kwargs)\nRuntimeError: injected crash\n")
    assert agent_crash(worker) is None  # a worker's @record frame is not the agent's


def test_a_crash_with_no_record_because_torchrun_crashed_says_why_no_signal_shows(tmp_path):
    from ncclDoctor.launch.evidence import torchrun_record

    (tmp_path / "torchrun.log").write_text(AGENT_CRASH)
    failures = torchrun_record(tmp_path)
    ranks = {
        0: RankState(0, phase="smoke", state="leave", seq=4, left={"init", "inventory", "smoke"}),  # killed there
        1: RankState(1, phase="all_reduce", state="enter", seq=5, left={"init", "inventory", "smoke"}),  # waits
    }
    verdict = crash_findings(Outcome("failed", 1, 3.0, ranks, {}), lambda r: "192.0.2.2 (vm)", {}, failures, {})
    [f] = verdict.findings
    assert f.code == "RUN004" and f.ranks == [0], f.message
    assert ("torchrun's own agent crashed before it printed its failure record (json.decoder.JSONDecodeError"
            in f.message)
    assert "no exit code or signal of any rank was recorded" in f.message
    assert "race in torch's elastic agent" in f.message
    assert "Ranks [1] failed after it" in f.message
