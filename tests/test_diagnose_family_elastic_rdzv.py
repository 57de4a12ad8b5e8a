"""Round 97's elastic rendezvous backends (lead rules K, L, N).

pytorch-123714: torchrun --rdzv-backend=etcd-v2 with no --rdzv-endpoint; urllib3's "Retrying (Retry(total=1, ...))
after connection broken by 'NewConnectionError(... [Errno 111] Connection refused)': /v2/machines" warnings, then
python-etcd's "ERROR:etcd.client:Failed to get list of machines from http://localhost:2379/v2: MaxRetryError(...)".
The refusals are the etcd client's HTTP connection to the rendezvous key-value store, not a socket between ranks:
store_rendezvous, culprits [] (rule L), where it was read network_setup. A refused gloo/NCCL connection between ranks
(no HTTP client in its words) keeps its network_setup reading.

dlrover-pr507: an elastic agent's start-up INFO only, its "The node node_name attempts to join the next round of the
rendezvous 'elastic' with timeout 600." read as a failure in unknown words (store_rendezvous, low) for its word
"timeout"; a time limit given as a parameter announces nothing, so the lines are start-up chatter: cause none (rules
K, N). A line where the join did time out keeps its failure reading.
"""
from __future__ import annotations

from tests.conftest import verdict_accused


def _etcd_refused(host: str, port: int, retries: int) -> str:
    warn = "".join(
        f"WARNING:urllib3.connectionpool:Retrying (Retry(total={n}, connect=None, read=None, redirect=None, "
        f"status=None)) after connection broken by 'NewConnectionError('<urllib3.connection.HTTPConnection object at "
        f"0x7f{n:010x}>: Failed to establish a new connection: [Errno 111] Connection refused')': /v2/machines\n"
        for n in range(retries - 1, -1, -1))
    return ("torchrun --nnodes=2:4 --nproc-per-node=4 --rdzv-backend=etcd-v2 --rdzv-id=job7 train.py\n"
            "I0301 10:00:00.000000 139 torch/distributed/launcher/api.py:188] Starting elastic_operator with launch "
            "configs:\n\n" + warn +
            f"ERROR:etcd.client:Failed to get list of machines from http://{host}:{port}/v2: MaxRetryError("
            f"\"HTTPConnectionPool(host='{host}', port={port}): Max retries exceeded with url: /v2/machines (Caused "
            "by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f00aa>: Failed to establish a "
            "new connection: [Errno 111] Connection refused'))\")\n"
            "Traceback (most recent call last):\n")


def test_etcd_client_refused_is_the_rendezvous_store(tmp_path):
    for host, port, retries in (("localhost", 2379, 2), ("10.1.2.3", 12379, 3)):
        v, acc = verdict_accused(tmp_path, _etcd_refused(host, port, retries))
        assert v["cause"] == "store_rendezvous" and v["culprits"] == [] and not acc, v


def test_etcd_client_error_wrapped_onto_its_own_line_stays_the_store(tmp_path):
    # the paste hard-wrapped the client's error: its "onnection: [Errno 111] Connection refused'))\")" piece alone
    for cut in ("Failed to establish a new c", "Failed to establish a new connection: [Err"):
        wrapped = "".join(line.replace(cut, cut + "\n") if line.startswith("ERROR:etcd") else line
                          for line in _etcd_refused("etcd-0.svc", 2379, 2).splitlines(keepends=True))
        v, acc = verdict_accused(tmp_path, wrapped)
        assert v["cause"] == "store_rendezvous" and not acc, v


def test_etcd_client_error_wrapped_under_a_prefix_on_every_line_stays_the_store(tmp_path):
    # the same wrapped piece when a launcher or collector put its prefix on every line, the piece's included: the
    # prefix is no record head of the piece's own (round 97's pytorch-123714 under the torchrun-role, py-logging and
    # sglang variants)
    cut = "Failed to establish a new c"
    wrapped = "".join(line.replace(cut, cut + "\n") if line.startswith("ERROR:etcd") else line
                      for line in _etcd_refused("localhost", 2379, 2).splitlines(keepends=True))
    for prefix in ("[default1]:", "[2024-05-01 12:00:00,123] [INFO] ", "[2025-02-26 11:16:37 TP3] "):
        text = "".join(prefix + line for line in wrapped.splitlines(keepends=True))
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "store_rendezvous" and not acc, (prefix, v)


def test_refused_connection_between_ranks_stays_network_setup(tmp_path):
    text = ("torchrun --nnodes=2 --nproc-per-node=2 train.py\n"
            "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.0.0.7]:41234: "
            "Connection refused\n"
            "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.0.0.8]:41877: "
            "Connection refused\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "network_setup" and not acc, v
    # the same refusals right after an HTTP client's retry warning (a download's): gloo's own lines, still read
    http = ("WARNING:urllib3.connectionpool:Retrying (Retry(total=0, connect=None, read=None, redirect=None, "
            "status=None)) after connection broken by 'NewConnectionError('<urllib3.connection.HTTPSConnection "
            "object at 0x7f01>: Failed to establish a new connection: [Errno 111] Connection refused')': /api/x\n")
    v, acc = verdict_accused(tmp_path, http + text)
    assert v["cause"] == "network_setup" and not acc, v


def _agent_start(run: str, nproc: int, timeout: int, tail: str) -> str:
    return ("WARNING:torch.distributed.run:\n*****************************************\n"
            "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system "
            "being overloaded, please further tune the variable for optimal performance in your application as "
            "needed.\n*****************************************\n"
            "[2024-02-01 09:00:01,100] [INFO] [training.py:436:launch_agent] Starting elastic_operator with launch "
            f"configs:\n  entrypoint       : train.py\n  nproc_per_node   : {nproc}\n  rdzv_backend     : static\n"
            f"  rdzv_configs     : {{'rank': 0, 'timeout': {timeout + 300}, 'node_unit': 1}}\n"
            "  max_restarts     : 2\n\n"
            "[2024-02-01 09:00:01,102] [INFO] [training.py:336:_invoke_run] [default] starting workers for "
            "entrypoint: python\n"
            "[2024-02-01 09:00:01,102] [INFO] [training.py:123:next_rendezvous] The node node_name attempts to join "
            f"the next round of the rendezvous '{run}' with timeout {timeout}.\n" + tail)


def test_agent_joining_with_timeout_parameter_is_nothing_failing(tmp_path):
    for run, nproc, timeout in (("elastic", 2, 600), ("job-42", 8, 1800)):
        joined = ("[2024-02-01 09:00:01,103] [INFO] [training.py:138:next_rendezvous] The node has joined round 0 of "
                  f"the {run} rendezvous as rank 0 in a world of size 1.\n")
        v, acc = verdict_accused(tmp_path, _agent_start(run, nproc, timeout, joined))
        assert v["cause"] == "none" and v["culprits"] == [] and not acc, v


def test_join_that_timed_out_stays_a_failure(tmp_path):
    tail = ("[2024-02-01 09:10:01,103] [ERROR] [training.py:140:next_rendezvous] The node node_name timed out "
            "joining the rendezvous 'elastic' with timeout 600.\n")
    v, acc = verdict_accused(tmp_path, _agent_start("elastic", 2, 600, tail))
    assert v["cause"] == "store_rendezvous" and not acc, v  # its old reading (review 96 finding 10)
