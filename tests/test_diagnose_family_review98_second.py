"""The second review of session 38's fixes (lead): four readings that named a rank the start named nobody for, on
ordinary pastes -- one lost per-rank print shifting the n-th-print comparison (finding 1); "local rank N" read as
rank N (finding 2); a rank-tagged DataLoader SIGTERM while the whole job was being stopped from outside (finding 3);
a GPU or NPU index named as a rank under torchrun's own launch block for two nodes (finding 4). Each has the
reviewer's input, varied, and the shape the reading was for (round 98's nccl-1417, round 99's ultralytics-16400, a
one-node OOM), still read as it meant. Numbers and hosts are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


def _shapes(rows: list[tuple[int, str]], label: str = "bucket before allreduce", prefix: bool = False) -> str:
    return "".join(f"{f'[rank{r}]: ' if prefix else ''}Rank {r} {label}: torch.Size([{size}])\n" for r, size in rows)


# --- finding 1: one lost print must not make an innocent rank the odd one ---------------------------------------------
def test_a_torn_or_cut_print_names_nobody(tmp_path):
    """The reviewer's inputs and variants: sizes change from call to call but agree across ranks at each call; one
    rank's first print lost (two lines torn into one, a paste starting part way) shifts its list -- nobody named."""
    torn = "Rank 0 bucket before allreduce: torch.Size([25000000])\n" \
           "Rank 1 bucket before allreduce: torch.SRank 2 bucket before allreduce: torch.Size([25000000])\n" \
           + _shapes([(0, "1200000"), (1, "1200000"), (2, "1200000")])
    cut = _shapes([(2, "8, 512"), (0, "8, 640"), (1, "8, 640"), (2, "8, 640"), (0, "8, 384"), (1, "8, 384"),
                   (2, "8, 384")], "input_ids before broadcast", prefix=True)
    cut4 = _shapes([(3, "4096"), (0, "1024"), (1, "1024"), (2, "1024"), (3, "1024"), (0, "77"), (1, "77"),
                    (2, "77"), (3, "77")], "grads before all_reduce")
    for text in (torn, cut, cut4):
        v, acc = verdict_accused(tmp_path, text)
        assert not acc and v["culprits"] in ([], "unknown"), (text, v)


def test_one_rank_that_only_ever_printed_its_own_size_is_still_named(tmp_path):
    """The shape the reading was for (round 98's nccl-1417): the odd rank printed only its size, the others only
    theirs, at every call -- rule D's majority names it."""
    for odd, n in ((0, 8), (5, 6)):
        rows = [(r, "409600" if r == odd else "32768000") for step in range(2) for r in range(n)]
        v, acc = verdict_accused(tmp_path, _shapes(rows, "tensor before allreduce"))
        assert (v["cause"], v["culprits"]) == ("desync", [odd]) and acc == {odd}, (odd, v)


# --- finding 2: a qualified rank is no global rank -------------------------------------------------------------------
def test_a_local_or_parallel_rank_print_is_not_read_as_a_global_rank(tmp_path):
    """The reviewer's input and variants: two nodes' "local rank N" (or a tensor-parallel "tp rank N") prints merge
    under one number if read as ranks; the odd process's global rank is not N, so nobody is named."""
    for word in ("local rank", "local_rank", "tp rank", "dp rank"):
        text = "".join(f"node{n}: {word} {lr} grad before all_reduce: "
                       f"torch.Size([{2048 if (n, lr) == (1, 0) else 4096}])\n" for n in (0, 1) for lr in range(3))
        v, acc = verdict_accused(tmp_path, text)
        assert not acc and v["culprits"] in ([], "unknown"), (word, v)


# --- finding 3: a DataLoader SIGTERM while the job is stopped from outside --------------------------------------------
_SIGTERM = ("[rank{r}]: Traceback (most recent call last):\n"
            "[rank{r}]:   File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/signal_handling.py\", "
            "line 67, in handler\n[rank{r}]:     _error_if_any_worker_fails()\n"
            "[rank{r}]: RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Terminated. \n")


def test_a_tagged_sigterm_beside_the_jobs_outside_stop_names_nobody(tmp_path):
    """The reviewer's inputs and variants: Slurm cancelling the step (time limit, or by the user), or torchrun's agent
    receiving a death signal: the SIGTERM reaching one rank's loader workers is the job's stop (rule J)."""
    stops = ("slurmstepd: error: *** STEP 123456.0 ON gpu-node-07 CANCELLED AT 2026-12-05T10:11:12 DUE TO TIME LIMIT "
             "***\n",
             "W1205 10:11:12.123000 140 torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM "
             "death signal, shutting down workers\n")
    for r, pid in ((1, 4521), (3, 88)):
        for stop in stops:
            for text in (stop + _SIGTERM.format(r=r, pid=pid), _SIGTERM.format(r=r, pid=pid) + stop):
                v, acc = verdict_accused(tmp_path, text)
                assert v["cause"] == "signal" and not acc and v["culprits"] in ([], "unknown"), (r, stop, v)


def test_one_ranks_own_tagged_sigterm_alone_still_names_it(tmp_path):
    """The shape the reading was for (round 99's ultralytics-16400): one rank's loader SIGTERM under its own tag,
    nothing showing the job stopped from outside -- that rank."""
    for r, pid in ((0, 1234), (6, 77)):
        v, acc = verdict_accused(tmp_path, _SIGTERM.format(r=r, pid=pid))
        assert (v["cause"], v["culprits"]) == ("signal", [r]), (r, v)


# --- finding 4: torchrun's launch block for two nodes ----------------------------------------------------------------
_OOM = ("Traceback (most recent call last):\n  File \"train.py\", line 210, in <module>\n    loss.backward()\n"
        "RuntimeError: {word} out of memory. Tried to allocate 2.00 GiB ({dev} {i}; 60.97 GiB total capacity; "
        "55.10 GiB "
        "already allocated; 1.20 GiB free; 58.90 GiB reserved in total by PyTorch)\n")
_LAUNCH = ("I1205 10:00:00.000000 140 torch/distributed/launcher/api.py:188] Starting elastic_operator with launch "
           "configs:\n  entrypoint       : train.py\n  min_nodes        : {n}\n  max_nodes        : {n}\n"
           "  nproc_per_node   : 8\n  run_id           : job1\n  rdzv_backend     : c10d\n"
           "  rdzv_endpoint    : 10.0.0.1:29400\n  max_restarts     : 0\n")
_RESULT = ("[default] Rendezvous complete for workers. Result:\n  restart_count=0\n  master_addr=10.0.0.1\n"
           "  master_port=29500\n  group_rank={g}\n  group_world_size={n}\n")


def test_an_index_under_a_multi_node_launch_names_no_rank(tmp_path):
    """The reviewer's finding with torchrun's own printouts (its launch-config block, one field a line, and its
    rendezvous result): two nodes, so NPU/GPU 3 is local rank 3 of some node -- no global rank named."""
    for dev in ("NPU", "GPU"):
        for head in (_LAUNCH.format(n=2), _RESULT.format(g=1, n=2), _LAUNCH.format(n=4)):
            v, acc = verdict_accused(tmp_path, head + _OOM.format(dev=dev, word=dev.replace("GPU", "CUDA"), i=3))
            assert v["cause"] == "gpu_oom" and not acc and v["culprits"] in ([], "unknown"), (dev, head, v)


def test_an_index_under_a_one_node_launch_still_names_its_rank(tmp_path):
    """The shape the reading was for (round 98's touchnet-100, rule BX (1)): one node, the process's own figures --
    the index is the rank."""
    for dev, i in (("NPU", 3), ("GPU", 2)):
        for head in ("", _LAUNCH.format(n=1), _RESULT.format(g=0, n=1)):
            v, acc = verdict_accused(tmp_path, head + _OOM.format(dev=dev, word=dev.replace("GPU", "CUDA"), i=i))
            assert (v["cause"], v["culprits"]) == ("gpu_oom", [i]), (dev, head, v)
