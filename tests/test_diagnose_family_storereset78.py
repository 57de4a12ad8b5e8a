"""The TCPStore client's connect-time reset in round 78.

vllm-18362: a world of one builds its TCPStore; the client's connect-time ping is reset ("[W... TCPStore.cpp:125]
[c10d] recvValue failed on SocketImpl(...): Connection reset by peer", unprefixed: before any group, its C++ frames
TCPStore::ping under the constructor) and the retry warning of that same connect follows ("TCP client failed to
connect/validate to host <redacted>:58159 - retrying (try=0, ...): Connection reset by peer"). Nothing fails after:
rules N and L, none. The retry line carried the reset and a reporter's "<redacted>" host, so it was read as a peer
that left (early_exit). Near shape: the same retry line with a reset and no reset warning before it keeps its
reading (something at that address cut the connection).
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_RESET = ("[W519 18:43:28.514281000 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=22, addr=[<redacted>]"
          ":58160, remote=[<redacted>]:58159): Connection reset by peer\n"
          "frame #3: c10d::TCPStore::ping() + 200 (0x116b4e68c in libtorch_cpu.dylib)\n\n")
_RETRY = ("[W519 18:43:28.518309000 TCPStore.cpp:350] [c10d] TCP client failed to connect/validate to host "
          "<redacted>:58159 - retrying (try=0, timeout=1800000ms, delay=610ms): Connection reset by peer\n")


def test_the_retry_of_a_connect_reset_before_any_group_is_nothing_failing(tmp_path):
    d = _report(tmp_path, _RESET + _RETRY)
    v = d["verdict"]
    assert v["cause"] == "none" and not _accused(d), v
    assert "VPN" in v["fix"], v


def test_a_reset_retry_with_no_reset_warning_before_it_is_not_read_so(tmp_path):
    assert _report(tmp_path, _RETRY)["verdict"]["cause"] != "none"
