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
