"""Fix words naming the shape's remedy, shapes round 100 showed read right but with a fix an expert would not give
(rules K, N, L, H, BD (2), CC, T): the verdict stays as it was, the fix names what an expert names for that shape.

- Lightning's PossibleUserWarning "Using `DistributedSampler` with the dataloaders. During `trainer.test()`, it is
  recommended to use `Trainer(devices=1)` ..." alone (hypertorch-292, pytorch-lightning-12862): none, nobody; the fix
  says it is harmless and names a one-device test Trainer and use_distributed_sampler=False. Another Lightning
  warning gets none of those words.
- transformers' "Token indices sequence length is longer than the specified maximum sequence length for this model"
  beside a tokenizing progress bar (llamafactory-2656): none, nobody; the fix names --ddp_timeout, a pre-tokenized
  cache and host memory. The progress bar alone gets none of them.
- NCCL's set-up INFO lines of two nodes with nothing failing (nccl-tests-133): none, nobody; the fix names each node
  alone first, mpirun -x, NCCL_SOCKET_IFNAME, the RoCE GID index and ib_write_bw. One node's lines get none of those.
- DDP's "find_unused_parameters=True ... did not find any unused parameters" with another window's column spliced
  into it (damo-yolo-153): read as the reducer's performance warning (find_unused_parameters=False / static_graph).
- The store client's "failed to connect ... (errno: 113 - No route to host)" (pytorch-85300): store_rendezvous; the
  fix names /etc/hosts, the route and --standalone. A refused connection (errno 111) gets none of those words.
- One rank's watchdog timeout in one of the first collectives (dit-101): rank_missing, nobody named; the fix names a
  py-spy dump of every rank and equal per-rank loops before the collective.
- A debugger's stack of one process inside NCCL's communicator creation (bootstrapInit -> bootstrapNetAccept,
  pytorch-52916): unknown, nobody; the fix names the bootstrap's interface, firewall and MASTER_ADDR. A stack in
  NCCL's group end gets none of those words.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict
from tests.conftest import watchdog_line

_ONE_DEVICE = "Trainer(devices=1, num_nodes=1) for trainer.test()"
_TIMEOUT = "--ddp_timeout"
_NODES = "run the test on each node alone first"
_NO_ROUTE = "fix the /etc/hosts entry so the master's name resolves to its routable IP"
_EVERY = "a py-spy dump of every rank"
_BOOTSTRAP = "open the firewall between the hosts for NCCL's bootstrap ports"


# --- Lightning's test-time DistributedSampler warning ---------------------------------------------------------------
def test_lightning_test_sampler_warning_names_a_one_device_test_trainer(tmp_path):
    text = ("/opt/conda/lib/python3.10/site-packages/pytorch_lightning/trainer/connectors/data_connector.py:224: "
            "PossibleUserWarning: Using `DistributedSampler` with the dataloaders. During `trainer.validate()`, it "
            "is recommended to use `Trainer(devices=1, num_nodes=1)` to ensure each sample/batch gets evaluated "
            "exactly once. Otherwise, multi-device settings use `DistributedSampler` that replicates some samples to "
            "make sure all devices have same batch size in case of uneven inputs.\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert _ONE_DEVICE in v["fix"] and "use_distributed_sampler=False" in v["fix"], v
    assert "harmless warning, nothing to fix" in v["fix"], v


def test_lightning_test_sampler_warning_hard_wrapped_reads_the_same(tmp_path):
    text = ("PossibleUserWarning: Using `DistributedSampler` with the dataloaders. During `trainer.test()`,\n"
            "it is recommended to use `Trainer(devices=1)` to ensure each sample/batch gets evaluated\n"
            "exactly once. Otherwise, multi-device settings use `DistributedSampler` that replicates some\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert _ONE_DEVICE in v["fix"], v


def test_another_lightning_warning_gets_no_test_trainer_words(tmp_path):
    text = ("/usr/lib/python3/site-packages/lightning/pytorch/trainer/connectors/data_connector.py:441: The "
            "'val_dataloader' does not have many workers which may be a bottleneck. Consider increasing the value of "
            "the `num_workers` argument` to `num_workers=7` in the `DataLoader` to improve performance.\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert _ONE_DEVICE not in v["fix"] and "use_distributed_sampler" not in v["fix"], v


# --- the tokenizer's length warning while a dataset is tokenized ----------------------------------------------------
def test_tokenizer_length_warning_names_the_timeout_and_a_pretokenized_cache(tmp_path):
    text = ("Running tokenizer on dataset (num_proc=16):  41%|████      | 81000/197554 [04:12<06:02, 321.50 examples/s]"
            "Token indices sequence length is longer than the specified maximum sequence length for this model "
            "(9031 > 2048). Running this sequence through the model will result in indexing errors\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert _TIMEOUT in v["fix"] and "pre-tokenize once and reuse" in v["fix"], v
    assert "watch host memory (dmesg, free -h)" in v["fix"], v


def test_tokenizer_progress_bar_alone_gets_no_timeout_words(tmp_path):
    text = "Running tokenizer on dataset (num_proc=16):  41%|████      | 81000/197554 [04:12<06:02, 321.5 examples/s]\n"
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert _TIMEOUT not in v["fix"], v


# --- NCCL's set-up INFO lines of several nodes ----------------------------------------------------------------------
def _setup(host: str, pid: int, iface: str) -> str:
    return (f"{host}:{pid}:{pid} [0] NCCL INFO Bootstrap : Using {iface}:10.1.{pid % 200}.4<0>\n"
            f"{host}:{pid}:{pid} [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal "
            "implementation\n"
            f"{host}:{pid}:{pid} [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE ; OOB {iface}:10.1.{pid % 200}.4<0>\n"
            f"{host}:{pid}:{pid} [0] NCCL INFO Using network IB\n")


def test_two_nodes_setup_info_alone_names_the_cross_node_checks(tmp_path):
    text = ("NCCL version 2.18.1+cuda12.1\n" + _setup("gpu-a17", 41207, "eth2") + _setup("gpu-b03", 9915, "bond0")
            + "gpu-b03:9915:10022 [3] NCCL INFO Trees [0] 12/-1/-1->11->10 [1] 12/-1/-1->11->10\n"
            "gpu-a17:41207:41388 [1] NCCL INFO Trees [0] 2/-1/-1->1->0 [1] 2/-1/-1->1->0\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert _NODES in v["fix"] and "mpirun -x" in v["fix"] and "ib_write_bw between the nodes" in v["fix"], v
    assert "NCCL_IB_GID_INDEX" in v["fix"], v


def test_one_node_setup_info_gets_no_cross_node_checks(tmp_path):
    text = ("NCCL version 2.18.1+cuda12.1\n" + _setup("gpu-a17", 41207, "eth2")
            + "gpu-a17:41207:41388 [1] NCCL INFO Trees [0] 2/-1/-1->1->0 [1] 2/-1/-1->1->0\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert _NODES not in v["fix"] and "ib_write_bw" not in v["fix"], v


# --- DDP's unused-parameter notice with a column spliced into it ----------------------------------------------------
def test_ddp_no_unused_notice_spliced_by_a_column_is_the_reducer_warning(tmp_path):
    text = ("[W reducer.cpp:1303] Warning: find_unused_parameters=True was specified in DDP constructor, b│ GPU  PID "
            "USER  GPU MEM  %CPU  Command ut did not find any unused parameters in the forward pass. This flag "
            "results in an extra trav│ ersal of the autograd graph every iteration\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "find_unused_parameters=False when every parameter is used" in v["fix"], v
    assert "static_graph=True" in v["fix"], v


def test_ddp_constructor_head_without_its_notice_gets_no_reducer_words(tmp_path):
    text = "Warning: find_unused_parameters=True was specified in DDP constructor, b\n"
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "find_unused_parameters=False when every parameter is used" not in v["fix"], v


# --- the store client's connect: no route to host -------------------------------------------------------------------
def _connect(host: str, port: int, errno: int, what: str) -> str:
    return (f"[W socket.cpp:601] [c10d] The client socket has failed to connect to [{host}]:{port} (errno: {errno} - "
            f"{what}).\n"
            f"[W socket.cpp:601] [c10d] The client socket has failed to connect to {host}:{port} (errno: {errno} - "
            f"{what}).\n"
            f"[E socket.cpp:655] [c10d] The client socket has failed to connect to any network address of "
            f"(10.20.3.8, {port}).\n")


def test_store_connect_no_route_to_host_names_hosts_route_and_standalone(tmp_path):
    v, acc = _verdict(tmp_path, _connect("trainer-master", 29511, 113, "No route to host"))
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert _NO_ROUTE in v["fix"] and "use --standalone (or localhost) for a single node" in v["fix"], v


def test_store_connect_refused_gets_no_route_words(tmp_path):
    v, acc = _verdict(tmp_path, _connect("trainer-master", 29511, 111, "Connection refused"))
    assert v["cause"] == "store_rendezvous" and not acc, v
    assert _NO_ROUTE not in v["fix"] and "EHOSTUNREACH" not in v["fix"], v


# --- one rank's timeout in one of the first collectives -------------------------------------------------------------
def test_lone_first_collective_timeout_names_a_dump_of_every_rank(tmp_path):
    text = ("RuntimeError: NCCL communicator was aborted on rank 6.  Original reason for failure was: [Rank 6] "
            "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=600000) "
            "ran for 604113 milliseconds before timing out.\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and 6 not in acc, v
    assert _EVERY in v["fix"] and "the same number of iterations" in v["fix"], v


def test_late_collective_timeout_of_one_rank_gets_no_first_collective_words(tmp_path):
    v, acc = _verdict(tmp_path, watchdog_line(2, 48213, "ALLREDUCE", 1800462, 1800000))
    assert 2 not in acc, v
    assert "the same number of iterations" not in v["fix"], v


# --- a debugger's stack inside NCCL's bootstrap ---------------------------------------------------------------------
def test_gdb_stack_in_nccl_bootstrap_names_interface_firewall_and_master_addr(tmp_path):
    text = ("Thread 9 (Thread 0x7fa1c8ff9700 (LWP 88121)):\n"
            "#0  0x00007fa2f1a496a7 in accept () from /lib64/libpthread.so.0\n"
            "#1  0x00007fa27d990a6e in bootstrapNetAccept (listenComm=0x7fa1a0006620, recvComm=0x7fa1c8fe43c0) at "
            "bootstrap.cc:110\n"
            "#2  0x00007fa27d992565 in bootstrapInit (id=0x7fa1c8ffce70, rank=0, nranks=4, commState=0x7fa1a0005070) "
            "at bootstrap.cc:320\n"
            "#3  0x00007fa27d9599a8 in initTransportsRank (comm=0x7fa1a0001060, commId=0x7fa1c8ffce70) at init.cc:560\n"
            "#4  0x00007fa27d95cd2a in ncclCommInitRankSync (newcomm=0x6294aa0, nranks=4, commId=..., myrank=0, "
            "cudaDev=0) at init.cc:845\n"
            "#5  0x00007fa27d956c10 in ncclAsyncThreadMain (args_=0x7c840f50) at group.cc:73\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert _BOOTSTRAP in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"] and "MASTER_ADDR" in v["fix"], v


def test_gdb_stack_in_nccl_group_end_gets_no_bootstrap_words(tmp_path):
    text = ("Thread 1 (Thread 0x7f5b3c4e1740 (LWP 5120)):\n"
            "#0  0x00007f5a1c2d0c21 in ncclGroupEnd () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
            "#1  0x00007f5a6e0a1b2e in c10d::ProcessGroupNCCL::endCoalescing() () from libtorch_cuda.so\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v
    assert _BOOTSTRAP not in v["fix"], v
