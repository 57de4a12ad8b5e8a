"""How diagnose reads stores and ports, serving engines and Ray waits, OOM figures and scheduler signals (round 109,
session 46, fixer f8): libuv's listen failure with its EADDRINUSE wrapped off the line, the fix words of a store port
taken (c10d's bind, accelerate's own check), Horovod's newer HTTP-store wait for key 0, Slurm's time limit, a
launcher's record of a rank dead of SIGTERM, a traceback cut in the static rendezvous's TCPStore, Ray's
GetTimeoutError, Mooncake's KV transfer failing, a traceback cut where verl creates its worker group, vLLM's front end
timing out on its engines' handshake, an OOM behind pdsh's host label and torch <= 1.3's 'cached' figure. Each test
reads the shape from lines other than the corpus case's own (other ranks, numbers, paths, names), and a near shape
that keeps its old reading. Hosts, pids, paths and model names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.verdict import memory, unread
from tests.conftest import verdict_accused


# --- libuv's listen failure, its EADDRINUSE wrapped onto the next line ------------------------------------------------
def test_listen_failure_with_code_98_wrapped_reads_as_the_port_taken(tmp_path):
    """Lead rule AN (2): 'code: -98, name: EADD' then 'RINUSE, ...' on the next line is libuv's errno -98, the port
    taken: store_rendezvous, nobody, the port-in-use fix (not the unreachable-store one)."""
    text = ("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
            "port: 51234, useIpv6: false, code: -98, name: EADD\n"
            "RINUSE, message: address already in use\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "store_rendezvous" and not acc and v["culprits"] == [], v
    assert "port 51234 is already in use" in v["summary"], v
    assert "do not start two server instances with the same port on one host" in v["fix"], v


def test_listen_failure_with_another_code_is_not_the_port_taken(tmp_path):
    """The same wrapped failure with libuv's -13 (EACCES) is no port in use; only -98 is."""
    text = ("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
            "port: 51234, useIpv6: false, code: -13, name: EAC\n"
            "CES, message: permission denied\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "already in use" not in v["summary"], v
    assert S.R_ADDR_IN_USE.search("port: 51234, useIpv6: false, code: -98, name: EAD")
    assert not S.R_ADDR_IN_USE.search("port: 51234, useIpv6: false, code: -980, name: X")


# --- a store's port taken: the fix words ------------------------------------------------------------------------------
def test_c10d_bind_in_use_fix_names_a_port_per_job_and_releasing_it_in_tests(tmp_path):
    """c10d's bind on [::] and the fallback failing with errno 98, then spawn's child record: store_rendezvous,
    nobody; the fix gives each concurrent job its own MASTER_PORT and releases the port at the end of each test."""
    text = ("[W socket.cpp:401] [c10d] The server socket has failed to bind to [::]:7321 (errno: 98 - Address already "
            "in use).\n"
            "[W socket.cpp:401] [c10d] The server socket has failed to bind to 0.0.0.0:7321 (errno: 98 - Address "
            "already in use).\n"
            "[E socket.cpp:435] [c10d] The server socket has failed to listen on any local network address.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "store_rendezvous" and not acc and v["culprits"] == [], v
    assert "give each concurrent job its own MASTER_PORT" in v["fix"], v
    assert "destroy_process_group at the end of each test so the store's port is released" in v["fix"], v
    assert "a different port per job" in v["fix"], v  # the corpus's words kept


def test_accelerate_port_busy_fix_names_its_config_file(tmp_path):
    """accelerate launch's own check of the port: the fix names main_process_port in the accelerate config file."""
    text = ("ConnectionError: Tried to launch distributed communication on port `29611`, but another process is "
            "utilizing it. Please specify a different port (such as using the `--main_process_port` flag or "
            "specifying a different `main_process_port` in your config file) and rerun your script.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "store_rendezvous" and not acc, v
    assert "set main_process_port in the accelerate config file" in v["fix"], v


# --- Horovod's HTTP store: the newer wait for key 0 -------------------------------------------------------------------
def _hvd(tail: str) -> str:
    return ("terminate called after throwing an instance of 'gloo::IoException'\n"
            "  what():  [/build/horovod/common/gloo/http_store.cc:57] [/build/horovod/common/gloo/http_store.cc:57] "
            f"Wait timeout after 45 seconds for key(s): {tail}\n"
            "*** SIGABRT received at time=1700000000 on cpu 3 ***\n")


def test_horovod_wait_after_n_seconds_for_key_0_is_rank_0_missing(tmp_path):
    """Lead rules G, Y: 'Wait timeout after 45 seconds for key(s): 0. You may want to increase ...' is a connected
    process waiting for the key rank 0 publishes: rank_missing, rank 0; the fix raises the gloo timeout beyond the
    45 s the line names."""
    v, acc = verdict_accused(tmp_path, _hvd("0. You may want to increase the timeout via HOROVOD_GLOO_TIMEOUT_SECONDS"))
    assert v["cause"] == "rank_missing" and acc == {0}, (v, acc)
    assert "increase HOROVOD_GLOO_TIMEOUT_SECONDS beyond 45 s" in v["fix"], v


def test_horovod_wait_for_another_key_names_nobody(tmp_path):
    """The same wait for key 3 (another rank's key) is no proof that rank 0 is missing."""
    v, acc = verdict_accused(tmp_path, _hvd("3. You may want to increase the timeout via HOROVOD_GLOO_TIMEOUT_SECONDS"))
    assert v["cause"] != "rank_missing" and 0 not in acc, (v, acc)
    assert S.R_STORE_KEY0.search("Wait timeout after 45 seconds for key(s): 0. You may want to increase it")
    assert not S.R_STORE_KEY0.search("Wait timeout after 45 seconds for key(s): 0.5")


# --- the scheduler's stops --------------------------------------------------------------------------------------------
def test_slurm_time_limit_fix_raises_the_time_limit(tmp_path):
    """Slurm's 'CANCELLED ... DUE TO TIME LIMIT' after the launchers' SIGTERM: signal, nobody; the fix raises the
    Slurm --time limit."""
    text = ("iteration 42/ 500 | lm loss: 6.1E+00 |\n"
            "Main process received SIGTERM, exiting\n"
            "Killing subprocess 5120\n"
            "slurmstepd: error: *** STEP 77001.0 ON node17 CANCELLED AT 2023-02-02T10:00:00 DUE TO TIME LIMIT ***\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "signal" and not acc and v["culprits"] == [], v
    assert "raise the Slurm --time limit" in v["fix"], v


def test_launcher_record_of_sigterm_fix_names_the_pbs_walltime(tmp_path):
    """PALS' 'HOST: rank N died from signal 15' with nothing failing before: signal, nobody; the fix names PBS's
    record and walltime beside Slurm's."""
    text = ("I am 1 of 2: 1 on nodeb07 - MASTER_ADDR=nodea03\n"
            "I am 0 of 2: 0 on nodea03 - MASTER_ADDR=nodea03\n"
            "nodea03.cluster: rank 1 died from signal 15\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "signal" and not acc and v["culprits"] == [], v
    assert "check the PBS walltime" in v["fix"] and "qstat -xf" in v["fix"], v


# --- a traceback cut in the static rendezvous's TCPStore --------------------------------------------------------------
def _agent_cut(handler: str, code: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/opt/env/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py", line 711, '
            "in _rendezvous\n"
            "    rdzv_info = spec.rdzv_handler.next_rendezvous()\n"
            f'  File "/opt/env/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/{handler}.py", '
            "line 70, in next_rendezvous\n"
            f"    {code}\n")


def test_cut_in_the_static_rendezvous_tcpstore_names_port_and_address(tmp_path):
    """Lead rule BC (1): the agent's traceback cut at static_tcp_rendezvous's 'self._store = TCPStore(':
    store_rendezvous, nobody; the fix tells a port taken on the master from an unreachable master_addr."""
    v, acc = verdict_accused(tmp_path, _agent_cut("static_tcp_rendezvous", "self._store = TCPStore(  # type: ignore"))
    assert v["cause"] == "store_rendezvous" and not acc, v
    assert "pass a free --master_port / MASTER_PORT" in v["fix"], v
    assert "tell a bind failure from a connect timeout" in v["fix"], v


def test_cut_in_the_dynamic_rendezvous_keeps_the_rendezvous_words(tmp_path):
    """The same cut in the c10d dynamic handler's own code is the rendezvous's, not the static store's."""
    v, _ = verdict_accused(tmp_path, _agent_cut("dynamic_rendezvous", "self._op_executor.run(join_op, deadline)"))
    assert v["cause"] == "store_rendezvous", v
    assert "RendezvousClosedError" in v["fix"] and unread._STATIC_STORE_CUT_FIX not in v["fix"], v


# --- Ray's GetTimeoutError --------------------------------------------------------------------------------------------
def test_ray_get_timeout_fix_names_the_actors(tmp_path):
    """Lead rules P, BN (1): ray.get's GetTimeoutError (a Data actor pool at start-up): unknown, nobody; the fix
    names the actors' resources, their logs and py-spy."""
    text = ('  File "/opt/py/ray/_private/worker.py", line 871, in get_objects\n'
            '  File "python/ray/_raylet.pyx", line 3600, in ray._raylet.CoreWorker.get_objects\n'
            "ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v
    assert "py-spy dump the stuck actors" in v["fix"] and "/tmp/ray/session_latest/logs" in v["fix"], v


def test_a_plain_timeout_error_gets_no_ray_words(tmp_path):
    """A TimeoutError of the job's own code is no Ray get: no actor words."""
    text = ('  File "/work/serve.py", line 12, in wait_ready\n'
            "TimeoutError: the cache server did not answer in 30 s\n")
    v, _ = verdict_accused(tmp_path, text)
    assert unread._RAY_GET_TIMEOUT_FIX not in v["fix"], v
    assert not unread._R_RAY_GET_TIMEOUT.search(text)
    assert unread._R_RAY_GET_TIMEOUT.search("ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.")


# --- Mooncake's KV transfer -------------------------------------------------------------------------------------------
def test_mooncake_transfer_failure_fix_names_the_remote_and_the_link(tmp_path):
    """Lead rule BP (2): Mooncake's transfer timing out and the workers' 'Mooncake transfer failed': unknown,
    nobody; the fix names the remote instance, the link, the transfer timeout."""
    text = ("I0401 10:00:00.100000 1234 transfer_engine_py.cpp:460] Sync batch data transfer timeout after "
            "30000000000ns\n"
            "(Worker_DP1_TP3 pid=5511) ERROR 04-01 10:00:00 [mooncake_connector.py:560] Mooncake transfer failed for "
            "request cmpl-0f0f\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v
    assert "raise the Mooncake / KV transfer timeout" in v["fix"], v


def test_another_connector_failure_gets_no_mooncake_words(tmp_path):
    """Another KV connector's failure line keeps the plain words."""
    text = ("(Worker_DP1_TP3 pid=5511) ERROR 04-01 10:00:00 [nixl_connector.py:560] KV transfer failed for request "
            "cmpl-0f0f\n")
    v, _ = verdict_accused(tmp_path, text)
    assert unread._MOONCAKE_FIX not in v["fix"] and v["cause"] == "unknown", v
    assert not unread._R_MOONCAKE.search(text)
    assert unread._R_MOONCAKE.search("[mooncake_connector.py:560] Mooncake transfer failed for request cmpl-1")


# --- verl's worker group: a traceback cut there -----------------------------------------------------------------------
def _verl_cut(code: str) -> str:
    return ("Waiting for register center actor abCdE_register_center to be ready. Elapsed time: 120 seconds out of "
            "300 seconds.\n"
            '  File "/srv/verl/verl/trainer/main_ppo.py", line 201, in run\n'
            "    trainer.init_workers()\n"
            '  File "/srv/verl/verl/trainer/ppo/ray_trainer.py", line 700, in init_workers\n'
            f"    {code}\n")


def test_cut_where_verl_creates_its_worker_group_names_the_register_center(tmp_path):
    """Lead rules BG (6), BJ (1): the cut names nobody, unknown; the fix names verl's register-center wait, the
    Ray resources and the rank-0 actor's logs."""
    v, acc = verdict_accused(tmp_path, _verl_cut("wg_dict = self.ray_worker_group_cls(resource_pool=pool,"))
    assert v["cause"] == "unknown" and not acc, v
    assert "trainer.ray_wait_register_center_timeout" in v["fix"] and "ray status" in v["fix"], v


def test_cut_in_another_verl_frame_gets_no_register_center_words(tmp_path):
    """A cut at another call of init_workers is not the worker group's creation."""
    v, _ = verdict_accused(tmp_path, _verl_cut("self.actor_rollout_wg.init_model()"))
    assert v["cause"] == "unknown", v
    assert unread._VERL_WORKER_GROUP_FIX not in v["fix"], v
    assert unread._R_VERL_WORKER_GROUP.search("wg_dict = self.ray_worker_group_cls(resource_pool=pool,")


# --- vLLM's front end and its engines' handshake ---------------------------------------------------------------------
_HANDSHAKE = ('(APIServer pid=4100)   File "/opt/py/vllm/v1/engine/core_client.py", line 510, in __init__\n'
              '(APIServer pid=4100)     raise TimeoutError("Timed out waiting for engines to send"\n'
              "(APIServer pid=4100) TimeoutError: Timed out waiting for engines to send initial message on input "
              "socket.\n")


def test_engines_handshake_timeout_at_start_up_is_network_setup(tmp_path):
    """Lead rules AQ (3), BN (1) (round 109's adjudication): the front end's own start-up wait for its engines'
    first message, nothing else failing: network_setup, nobody, low; the fix names the engines' logs and
    VLLM_ENGINE_READY_TIMEOUT_S."""
    v, acc = verdict_accused(tmp_path, _HANDSHAKE)
    assert v["cause"] == "network_setup" and not acc and v["culprits"] == [] and v["confidence"] == "low", v
    assert "VLLM_ENGINE_READY_TIMEOUT_S" in v["fix"], v


def test_engines_handshake_timeout_beside_an_engine_error_is_that_error(tmp_path):
    """The same wait beside an engine core's own error: that error, not the handshake."""
    text = ("(EngineCore_DP0 pid=4200) ValueError: The model's max seq len (32768) is larger than the maximum number "
            "of tokens that can be stored in KV cache (8192).\n" + _HANDSHAKE)
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "network_setup", v
    v2, _ = verdict_accused(tmp_path, _HANDSHAKE)
    assert v2["cause"] == "network_setup", v2


# --- an OOM behind pdsh's host label ----------------------------------------------------------------------------------
_OOM = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 3; 79.15 GiB total "
        "capacity; 77.01 GiB already allocated; 201.50 MiB free; 77.90 GiB reserved in total by PyTorch)")


def test_oom_behind_a_pdsh_host_label_names_no_rank(tmp_path):
    """Lead rules A, U (3), BX (1): 'node-a7: <OOM on GPU 3>' comes from a job pdsh spreads over hosts: GPU 3 is a
    local index, no rank named; gpu_oom."""
    text = f"node-a7:     attn = scores.softmax(dim=-1)\nnode-a7: {_OOM}\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and not acc and v["culprits"] == [], (v, acc)
    assert "max_split_size_mb" in v["fix"], v


def test_oom_without_a_host_label_keeps_naming_its_gpus_rank(tmp_path):
    """The same OOM with no host label: GPU 3, the process's own memory, rank 3 (rule BX (1))."""
    v, acc = verdict_accused(tmp_path, f"    attn = scores.softmax(dim=-1)\n{_OOM}\n")
    assert v["cause"] == "gpu_oom" and acc == {3}, (v, acc)
    assert memory._R_HOST_BEFORE_OOM.search(f"node-a7: {_OOM}")
    assert not memory._R_HOST_BEFORE_OOM.search(f"rank3: {_OOM}")
    assert memory._R_HOST_BEFORE_OOM.search(f"[default0]:node-a7: {_OOM}")  # behind torchrun's role prefix


# --- torch <= 1.3's "cached" ------------------------------------------------------------------------------------------
def test_old_oom_cached_is_the_free_part_of_what_the_process_reserves(tmp_path):
    """Lead rule BX (1): 'A already allocated; ...; X cached' (torch <= 1.3) reserves A + X: a process holding most
    of GPU 1 itself is local rank 1."""
    text = ("RuntimeError: CUDA out of memory. Tried to allocate 3.10 GiB (GPU 1; 15.75 GiB total capacity; 12.20 GiB "
            "already allocated; 2.40 GiB free; 8.00 MiB cached)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and acc == {1}, (v, acc)
    assert "12.21 GiB reserved" in v["summary"], v


def test_old_oom_with_little_of_its_own_memory_names_nobody(tmp_path):
    """The same text where the process holds little (0.30 GiB allocated) of a full GPU: other processes' memory, no
    rank named."""
    text = ("RuntimeError: CUDA out of memory. Tried to allocate 3.10 GiB (GPU 1; 15.75 GiB total capacity; 0.30 GiB "
            "already allocated; 20.00 MiB free; 8.00 MiB cached)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and not acc, (v, acc)
    assert "reserves only 0.31 GiB" in v["fix"], v  # allocated + cached, not the 8 MiB cached alone
