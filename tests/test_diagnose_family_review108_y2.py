"""Review b of round 108's fixes (session 45, y2): the reviewer's inputs, varied, that failed before each fix.

- Per-rank prints of a collective's result (rules K, CG (2)): a rank below the highest that printed no result is named
  with the hang words, and "agree on all N ranks ... no action needed" is not said (finding 1); one rank's print claims
  no agreement (finding 1); a vector's elements past the first are compared (finding 2); torchrun's "[rankN]: " prefix
  is read like srun -l's tag (finding 8).
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


def _lines(tag, values, op="allreduce"):
    return "".join(f"{tag(r)}{op} result: tensor({v}, device='cuda:{r % 8}')\n" for r, v in values.items())


def test_rank_missing_from_collective_prints_is_named_with_hang_words(tmp_path):
    text = "".join(f"{r}: Rank {r} size 6 device cuda:{r} count 6\n" for r in range(6))
    text += _lines(lambda r: f"{r}: ", {0: "21.", 1: "21.", 2: "21.", 3: "21.", 5: "21."})
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "rank 4 printed no result" in v["fix"], v
    assert "py-spy dump (py-spy dump --pid PID) of rank 4's process" in v["fix"], v
    assert "agree on the 5 ranks that printed one" in v["fix"], v
    assert "agree on all" not in v["fix"] and "no action needed" not in v["fix"], v


def test_one_rank_print_claims_no_agreement(tmp_path):
    v, acc = _verdict(tmp_path, _lines(lambda r: f"{r}: ", {5: "-3.2500"}))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "only rank 5 printed a result, so there is nothing to compare it with" in v["fix"], v
    assert "agree on" not in v["fix"], v


def test_vector_results_differing_past_the_first_element_differ(tmp_path):
    vec = {r: f"[9.0000, {r * 3 + 1}.2500, 4.0000]" for r in range(3)}
    v, acc = _verdict(tmp_path, _lines(lambda r: f"{r}: ", vec))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "the all-reduce results printed differ between ranks" in v["fix"], v
    assert "agree on" not in v["fix"], v
    # the same vector on every rank still agrees
    v, acc = _verdict(tmp_path, _lines(lambda r: f"{r}: ", {r: "[9.0000, 2.5000]" for r in range(3)}))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "the all-reduce results agree on all 3 ranks" in v["fix"], v


def test_torchrun_rank_prefix_prints_are_read(tmp_path):
    v, acc = _verdict(tmp_path, _lines(lambda r: f"[rank{r}]: ", {r: "16." for r in range(4)}, op="all_reduce"))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "the all-reduce results agree on all 4 ranks" in v["fix"], v


def test_tensorpipe_listener_address_in_use_names_the_taken_port(tmp_path):
    text = ("[rank2]: terminate called after throwing an instance of 'std::runtime_error'\n"
            "[rank2]:   what():  In init at /usr/src/pytorch/third_party/tensorpipe/tensorpipe/transport/uv/"
            "listener_impl.cc:71 \"rv < 0: address already in use\"\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not acc, v
    assert "the port it binds is already taken on this host" in v["fix"], v
    assert "ss -ltnp" in v["fix"] and "rpc.shutdown()" in v["fix"], v
    assert "TP_SOCKET_IFNAME" not in v["fix"] and "link-local" not in v["fix"], v


def test_store_no_route_to_a_longer_name_is_worded_as_a_check(tmp_path):
    v, acc = _verdict(tmp_path, "[rank5]: RuntimeError: The client socket has failed to connect to any network address "
                                "of (node07, 31200). The client socket has failed to connect to node07.hpc.example.org:"
                                "31200 (errno: 113 - No route to host).\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert ("node07 resolves to node07.hpc.example.org here: check that node07.hpc.example.org is an address on the "
            "network the nodes share") in v["fix"], v
    assert "another network's name:" not in v["fix"], v


def test_ipv6_warnings_before_a_refused_connect_get_the_refused_words_not_the_ipv6_only_words(tmp_path):
    warn = ("[W socket.cpp:663] [c10d] The IPv6 network addresses of (trainer-3, 41000) cannot be retrieved "
            "(gai error: -2 - Name or service not known).\n")
    refused = "[W socket.cpp:601] [c10d] The client socket has failed to connect to [trainer-3]:41000 (errno: 111 - " \
              "Connection refused).\n"
    text = (warn + refused) * 3 + ("torch.distributed.DistNetworkError: The client socket has timed out after 900s "
                                   "while trying to connect to (trainer-3, 41000).\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "trainer-3:41000 was reached but nothing listened on that port" in v["fix"], v
    assert "falls back from IPv6 to IPv4" not in v["fix"], v
    # the IPv6 warnings alone before the timeout keep the IPv6-only words
    v, acc = _verdict(tmp_path, warn * 3 + "torch.distributed.DistNetworkError: The client socket has timed out after "
                                           "900s while trying to connect to (trainer-3, 41000).\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "falls back from IPv6 to IPv4" in v["fix"], v


def test_eagain_on_a_device_path_claims_no_checkpoint_race(tmp_path):
    text = ("Traceback (most recent call last):\n  File \"reader.py\", line 12, in <module>\n"
            "    port = open('/dev/ttyACM3')\n"
            "BlockingIOError: [Errno 11] Resource temporarily unavailable: '/dev/ttyACM3'\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "on '/dev/ttyACM3': it could not be opened or locked without blocking" in v["fix"], v
    assert "lsof /dev/ttyACM3" in v["fix"], v
    assert "save the checkpoint from one process only" not in v["fix"], v
    # a checkpoint path keeps the race words
    v, acc = _verdict(tmp_path, text.replace("/dev/ttyACM3", "/scratch/run9/last.ckpt"))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "save the checkpoint from one process only" in v["fix"], v


def test_vllm_v1_model_loading_line_gets_the_vllm_words(tmp_path):
    text = ("(RayWorkerWrapper pid=7781, ip=10.2.0.5) INFO 02-11 09:12:44 [gpu_model_runner.py:1801] Model loading "
            "took 31.0712 GiB and 22.47 seconds\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "are start-up progress: the workers loaded their weights" in v["fix"], v


def test_ray_dev_shm_warning_with_its_hint_wrapped_names_shm_size(tmp_path):
    text = ("[2026-04-02 11:20:05,101 W 77 77] (raylet) store_runner.cc:83: System memory request exceeds memory "
            "available in /dev/shm. The request is for 20401094656 bytes, and the amount available is 16106127360 "
            "bytes.\nYou may be able to free up space by deleting files in\n/dev/shm. If you are inside a Docker "
            "container, you may need to pass an argument with the flag '--shm-size' to 'docker run'.\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "Ray's warning that /dev/shm is smaller than its object store asks for" in v["fix"], v
    assert "--shm-size" in v["fix"] and "--object-store-memory" in v["fix"], v
