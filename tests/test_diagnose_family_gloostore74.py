"""How diagnose reads the C++ backtrace of an exception thrown inside gloo's own store read at a gloo group's set-up
("frame #10: gloo::rendezvous::PrefixStore::wait(...)", below tcp::Context::createAndConnectAllPairs,
rendezvous::Context::connectFullMesh and ProcessGroupGloo's constructor), as round 74's rlinf-925 showed it (frames
only, each behind a Ray actor's "(EnvWorker pid=..., ip=...)" prefix, the message lost): the wait for the peers'
addresses failed -- store_rendezvous, nobody named (lead rule AI (1)); the Ray actor's prefix is no rank (rule AD (2)).
The near shapes -- torch's own c10d::PrefixStore frame, gloo's pair connect under connectFullMesh, the set-up frames
without the store read, gloo's own "connectFullMesh failed" text -- are not read as that store read. Paths, pids and
addresses are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_P = "(RolloutWorker pid=20417, ip=10.3.8.21) "
_SO = " (0x7f3a5c21e0f9 in /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so)\n"
_WAIT = (_P + "frame #9: gloo::rendezvous::PrefixStore::wait(std::vector<std::string, std::allocator<std::string> > "
         "const&, std::chrono::duration<long, std::ratio<1l, 1000l> > const&) + 0x109" + _SO)
_PAIRS = (_P + "frame #10: gloo::transport::tcp::Context::createAndConnectAllPairs(std::shared_ptr<gloo::IStore>) "
          "+ 0xa18" + _SO)
_MESH = (_P + "frame #11: gloo::rendezvous::Context::connectFullMesh(std::shared_ptr<gloo::rendezvous::Store>, "
         "std::shared_ptr<gloo::transport::Device>&) + 0x5c" + _SO)
_CTOR = (_P + "frame #12: c10d::ProcessGroupGloo::ProcessGroupGloo(c10::intrusive_ptr<c10d::Store, "
         "c10::detail::intrusive_target_default_null_type<c10d::Store> > const&, int, int,\n")


def test_gloos_own_store_read_at_set_up_in_a_backtrace_is_the_rendezvous(tmp_path):
    """The frames from gloo's PrefixStore::wait up to ProcessGroupGloo's constructor, behind a Ray actor's prefix:
    store_rendezvous, nobody accused (the actor's pid is no rank), the fix asking for every worker and the store."""
    d = _report(tmp_path, _WAIT + _PAIRS + _MESH + _CTOR)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
    assert "every worker" in v["fix"] and "MASTER_ADDR" in v["fix"], v


def test_the_read_frame_alone_without_a_prefix_is_the_same_rendezvous(tmp_path):
    """A paste keeping only the read's own frame (its get), no Ray prefix: the same reading."""
    v = _verdict(tmp_path, _WAIT.replace(_P, "").replace("::wait(", "::get("))
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v


def test_other_frames_of_the_set_up_are_not_the_store_read(tmp_path):
    """Near shapes: torch's own c10d::PrefixStore frame (not gloo's rendezvous read), gloo's pair connect under
    connectFullMesh, or the set-up frames with no store read below them: not read as the rendezvous; gloo's own
    "connectFullMesh failed" text stays gloo's connection (network_setup, rule L)."""
    shapes = (_WAIT.replace("gloo::rendezvous::PrefixStore", "c10d::PrefixStore") + _PAIRS + _MESH,
              _P + "frame #9: gloo::transport::tcp::Pair::connect(std::vector<char, std::allocator<char> > const&) "
              "+ 0x3c" + _SO + _PAIRS + _MESH + _CTOR,
              _MESH + _CTOR)
    for i, text in enumerate(shapes):
        assert _verdict(tmp_path, text, f"near{i}.log")["cause"] != "store_rendezvous", text
    failed = ("RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] "
              "no error\n")
    assert _verdict(tmp_path, failed + _MESH, "mesh.log")["cause"] == "network_setup"
