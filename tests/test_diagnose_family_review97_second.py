"""The second review of session 37's fixes, findings 5 and 6 (session 38, lead): two readings that had grown too
wide. A download's HTTP retry swallowed the lines after it as its own wrapped error text, even a gloo connection
failure a rank printed just after (finding 5); python-etcd's "Failed to get list of machines" anywhere made the
verdict "etcd down, no worker starts" beside watchdog timeouts that prove collectives ran (finding 6). Each finding
has the reviewer's input, varied, and the shape the original reading was for, still read as it meant. Hosts, ports
and numbers are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused, watchdog_line

_RETRY = ("{p}WARNING:urllib3.connectionpool:Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
          "status=None)) after connection broken by 'NewConnectionError('<urllib3.connection.HTTPSConnection object "
          "at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused')': /api/models/{model}\n")


# --- finding 5: a rank's own connection failure after a download's retry ---------------------------------------------
def test_a_gloo_refusal_after_a_downloads_retry_is_the_ranks_own(tmp_path):
    """The reviewer's inputs and variants: gloo's C++ what() after a terminate, the same under another rank's launcher
    prefix, and c10d's socket.cpp refusal: the ranks could not connect, whatever a download printed before."""
    gloo = ("{q}terminate called after throwing an instance of 'gloo::IoException'\n"
            "{q}  what():  [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:144] connect [{ip}]:{port}: "
            "Connection refused\n")
    c10d = ("{q}[W socket.cpp:663] [c10d] The client socket has failed to connect to [{ip}]:{port} (errno: 111 - "
            "Connection refused).\n")
    for p, q, body, ip, port in (("", "", gloo, "10.0.0.5", 45123), ("[default0]:", "[default1]:", gloo,
                                 "172.16.3.9", 61011), ("", "", c10d, "10.1.2.3", 29500),
                                 ("[default0]:", "[default0]:", gloo, "192.168.7.2", 40000)):
        text = _RETRY.format(p=p, model="bert-base") + body.format(q=q, ip=ip, port=port)
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] in ("network_setup", "store_rendezvous") and v["confidence"] == "high", (p, q, ip, v)
        assert not acc, (p, q, ip, acc)
        assert "urllib3" not in v["summary"], v["summary"]


def test_a_downloads_wrapped_error_is_still_its_own(tmp_path):
    """The shape the wrap reading was for (round 97's pytorch-123714): the client's own error hard-wrapped onto the
    next lines, no header of its own, no torch.distributed source named -- still the download's: no failed
    connection between ranks is read from it."""
    for p in ("", "[default0]:"):
        text = (f"{p}requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max "
                f"retries exceeded with url: /api/models/x (Caused by NewConnectionError('<urllib3.connection.HTTPSC\n"
                f"{p}onnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection "
                "refused'))\n")
        v, acc = verdict_accused(tmp_path, text)
        assert "connections between ranks failed" not in v["summary"] and v["confidence"] != "high", (p, v)
        assert not acc, (p, acc)


# --- finding 6: an etcd client's error beside collectives that ran ----------------------------------------------------
_ETCD = ("{stamp} WARNING: Failed to get list of machines from http://{ip}:2379/v2: MaxRetryError(\"HTTPConnectionPool("
         "host='{ip}', port=2379): Max retries exceeded with url: /v2/machines\")\n")


def test_an_etcd_error_beside_watchdog_timeouts_is_not_etcd_down(tmp_path):
    """The reviewer's input and variants: watchdog timeouts at SeqNums past the first prove the rendezvous finished
    and collectives ran; the etcd line is another client's, so the verdict is the stuck collective's, not etcd's."""
    for ip, ranks, seq in (("10.0.0.9", (0, 1, 3), 12), ("172.20.0.4", (1, 2, 3, 5, 6, 7), 480)):
        text = _ETCD.format(stamp="2024-05-01 10:00:00,000", ip=ip) + "".join(
            watchdog_line(r, seq, "ALLREDUCE", 1800063, 1800000, numel=1) for r in ranks)
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] != "store_rendezvous" and "etcd" not in v["summary"], (ip, v)
        assert not acc & set(ranks), (ip, acc)


def test_an_etcd_error_alone_is_still_etcd_down(tmp_path):
    """The shape the reading was for (lead rule L): python-etcd's client failing with nothing run after it: the
    etcd rendezvous server is not reachable, no rank is at fault."""
    for ip in ("10.0.0.9", "127.0.0.1"):
        text = _ETCD.format(stamp="2024-05-01 10:00:00,000", ip=ip)
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, (ip, v)
        assert "etcd" in v["fix"], v["fix"]
