"""Fix words for benign readings and unknown errors round 108 showed read with the right verdict but a fix an expert
would not give (session 45; rules K, N, T, L, BM (2), BJ (2), BG (1), AC (1), CG (2), CI): the verdict stays as it
was, the fix names the shape's remedy.

- DDP's reducer warning "Grad strides do not match bucket view strides" (csdn-142724291): none; the fix adds
  .contiguous() after transpose()/permute()/view()/einops.rearrange.
- c10d's "[c10d - debug]" tracing of a store starting (pytorch-173909): none; the fix says TORCH_CPP_LOG_LEVEL /
  TORCH_DISTRIBUTED_DEBUG only add these lines.
- The store client's retried 10049 warning at a host name (llama-452): none; the fix says MASTER_ADDR=127.0.0.1
  instead of the machine's hostname, or make the name resolve. At an address it gets none of those words.
- EAGAIN on a file ("BlockingIOError: [Errno 11] Resource temporarily unavailable: '<file>'", HDF5's "unable to lock
  file, errno = 11"; pytorch-examples-813, ompi-6535): unknown, nobody; the fix names one writer (rank 0), a file per
  rank, HDF5 locking. EAGAIN with no file gets none of those words.
- Ray's /dev/shm warnings with its "deleting files in /dev/shm" hint (gpustack-5014, open-instruct-1067): none; the
  fix names --shm-size, Ray's object store size and stale files (rule CI).
- vLLM's "Loading model weights took N GB" lines alone (hf-deepseek-v3-25): none; the fix says what runs after loading
  and what to collect if it hangs there, Ray's workers only where Ray's prefix shows.
- A test's per-rank prints of a collective's result under srun -l's tag (nersc-416584): none; the fix says the results
  agree on all N ranks -- or, where they differ, says so and gives no "agree" words.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- DDP's reducer grad-strides warning ------------------------------------------------------------------------------
def test_grad_strides_warning_names_contiguous_after_a_view(tmp_path):
    for text in ("[rank3]:[W reducer.cpp:1300] Warning: Grad strides do not match bucket view strides. This may "
                 "indicate grad was not created according to the gradient layout contract, or that the param's "
                 "strides changed since DDP was constructed.  This is not an error, but may impair performance.\n",
                 "2) /opt/env/lib/python3.10/site-packages/torch/autograd/graph.py:744: UserWarning: Grad strides do "
                 "not match bucket view strides. This may indicate grad was not created according to the gradient "
                 "layout contract, or that the param's strides changed since DDP was constructed. This is not an "
                 "error, but may impair performance.\n"):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
        assert ".contiguous() after transpose()/permute()/view()/einops.rearrange" in v["fix"], v
        assert "harmless performance warning" in v["fix"], v
    # near shape: another benign torch warning keeps its own words and gets none of these
    v, acc = _verdict(tmp_path, "[W ProcessGroupNCCL.cpp:2291] Warning: 0TORCH_NCCL_AVOID_RECORD_STREAMS=1 has no "
                                "effect for point-to-point collectives. (function operator())\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "TORCH_NCCL_AVOID_RECORD_STREAMS" in v["fix"], v
    assert "einops.rearrange" not in v["fix"], v


# --- c10d's debug tracing of a store starting ------------------------------------------------------------------------
def test_c10d_debug_store_start_says_the_log_settings_only_add_the_lines(tmp_path):
    v, acc = _verdict(tmp_path,
                      "[I207 08:01:02.000011 TCPStore.cpp:274] [c10d - debug] The server has started on port = 41877.\n"
                      "[I207 08:01:02.000042 socket.cpp:946] [c10d] The client socket has connected to [node-a]:41877 "
                      "on SocketImpl(fd=12, addr=[node-a]:50120, remote=[node-a]:41877).\n"
                      "[I207 08:01:02.000090 TCPStore.cpp:319] [c10d - debug] TCP client connected to host "
                      "10.4.0.7:41877\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "TORCH_CPP_LOG_LEVEL / TORCH_DISTRIBUTED_DEBUG only add these debug lines" in v["fix"], v


# --- the store client's retried 10049 warning -----------------------------------------------------------------------
def _w10049(host: str, port: int) -> str:
    return (f"[W socket.cpp:663] [c10d] The client socket has failed to connect to [{host}]:{port} (system error: "
            "10049 - The requested address is not valid in its context.).\n")


def test_retried_10049_at_a_host_name_says_master_addr_instead_of_the_hostname(tmp_path):
    for host in ("DESKTOP-Q7K2M.lab.example.org", "gpu-box-12"):
        v, acc = _verdict(tmp_path, _w10049(host, 29517))
        assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
        assert "MASTER_ADDR=127.0.0.1 (or localhost) instead of the machine's hostname" in v["fix"], v
        assert "make the hostname resolve to a reachable IPv4 address (hosts file / DNS)" in v["fix"], v
    # near shape: the same warning at an address keeps its benign reading with none of the hostname words
    v, acc = _verdict(tmp_path, _w10049("::ffff:10.8.1.4", 29517))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "benign retried warning" in v["fix"], v
    assert "instead of the machine's hostname" not in v["fix"], v


# --- EAGAIN on a file: a lock or open conflict ----------------------------------------------------------------------
def test_eagain_on_a_checkpoint_file_gets_the_one_writer_fix(tmp_path):
    for text in ("BlockingIOError: [Errno 11] Resource temporarily unavailable: '/scratch/u17/run4/model_best.pth'\n",
                 "Traceback (most recent call last):\n  File \"train.py\", line 311, in <module>\n    main()\n"
                 "  File \"train.py\", line 240, in save_ckpt\n    torch.save(state, fname)\n"
                 "OSError: [Errno 11] Resource temporarily unavailable: \"ckpt_epoch3.pt\"\n"):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert "save the checkpoint from one process only (global rank 0)" in v["fix"], v
        assert "its own checkpoint file name" in v["fix"], v
    # near shape: EAGAIN with no file after it (a socket's recv) keeps the plain words
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"serve.py\", line 52, in loop\n"
                                "    data = sock.recv(4096)\n"
                                "BlockingIOError: [Errno 11] Resource temporarily unavailable\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "Read the full output around that line" in v["fix"], v
    assert "HDF5_USE_FILE_LOCKING" not in v["fix"] and "global rank 0" not in v["fix"], v


def test_hdf5_unable_to_lock_file_gets_the_hdf5_locking_words(tmp_path):
    v, acc = _verdict(tmp_path,
                      "Traceback (most recent call last):\n  File \"landscape.py\", line 97, in evaluate\n"
                      "    f = h5py.File(out_path, 'a')\n"
                      "  File \"h5py/h5f.pyx\", line 102, in h5py.h5f.open\n"
                      "OSError: Unable to open file (unable to lock file, errno = 11, error message = 'Resource "
                      "temporarily unavailable')\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "HDF5_USE_FILE_LOCKING=FALSE" in v["fix"], v
    assert "h5py's parallel (mpio) driver" in v["fix"], v


# --- Ray's /dev/shm warnings -----------------------------------------------------------------------------------------
_HINT = ("You may be able to free up space by deleting files in /dev/shm. If you are inside a Docker container, you "
         "may need to pass an argument with the flag '--shm-size' to 'docker run'.\n")


def test_raylet_shm_request_warning_names_shm_size_and_the_object_store(tmp_path):
    v, acc = _verdict(tmp_path, "[2025-11-02 17:03:11,002 W 812 812] (raylet) store_runner.cc:83: System memory "
                                "request exceeds memory available in /dev/shm. The request is for 34359738368 bytes, "
                                "and the amount available is 17179869184 bytes.\n" + _HINT)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "give the container a larger /dev/shm (docker run --shm-size=<N>g or --ipc=host" in v["fix"], v
    assert "--object-store-memory" in v["fix"], v
    # the raylet's warning line alone is read too (review b of round 108, finding 7; rule CI wants --shm-size)
    v, acc = _verdict(tmp_path, "[2025-11-02 17:03:11,002 W 812 812] (raylet) store_runner.cc:83: System memory "
                                "request exceeds memory available in /dev/shm. The request is for 34359738368 bytes, "
                                "and the amount available is 17179869184 bytes.\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "Nothing to fix in these lines" in v["fix"], v
    assert "--object-store-memory" in v["fix"], v
    # rule CI: a failure after the warning is read by its own class (a DataLoader worker's bus error), not none
    v, acc = _verdict(tmp_path, _HINT + "RuntimeError: DataLoader worker (pid 9120) is killed by signal: Bus error. "
                                "It is possible that dataloader's workers are out of shared memory. Please try to "
                                "raise your shared memory limit.\n")
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", []) and not acc, v


def test_ray_tmp_fallback_wrapped_otherwise_reads_the_same(tmp_path):
    v, acc = _verdict(tmp_path, "(raylet, ip=10.3.3.9) 2025-06-01 09:00:00,101\tWARNING services.py:2070 -- WARNING: "
                                "The object store is using /tmp instead of /dev/shm because\n"
                                "/dev/shm has only 2147483648 bytes available. This will harm performance! You may be "
                                "able to free up space by deleting files in /dev/shm.\nIf you are inside a Docker "
                                "container, you can increase /dev/shm size by passing '--shm-size=4.1gb' to 'docker "
                                "run'.\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "accept the /tmp fallback: it is only slower, nothing fails" in v["fix"], v


# --- vLLM's weights-loaded lines -------------------------------------------------------------------------------------
def test_vllm_weights_loaded_under_ray_names_what_runs_after_loading(tmp_path):
    v, acc = _verdict(tmp_path, "INFO 03-14 11:20:07 model_runner.py:1012] Loading model weights took 38.2210 GB\n"
                                "(RayWorkerWrapper pid=5120, ip=10.9.0.12) INFO 03-14 11:20:19 model_runner.py:1012] "
                                "Loading model weights took 38.2210 GB [repeated 7x across cluster]\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "wait longer: profiling / KV-cache and graph capture run after loading" in v["fix"], v
    assert "if it hangs after weight loading, collect py-spy stacks of every ray worker" in v["fix"].lower(), v
    assert "--gpu-memory-utilization" in v["fix"], v


def test_vllm_weights_loaded_without_ray_names_no_ray_worker(tmp_path):
    v, acc = _verdict(tmp_path, "INFO 05-02 08:00:41 [default_loader.py:272] Loading model weights took 14.99 GiB\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "wait longer: profiling / KV-cache and graph capture run after loading" in v["fix"], v
    assert "Ray worker" not in v["fix"] and "ray status" not in v["fix"], v


# --- a test's per-rank prints of a collective's result ---------------------------------------------------------------
def _prints(values: dict[str, list[float]]) -> str:
    out = []
    for op, vals in values.items():
        out += [f"{r:2d}: {op} result: tensor({x:.4f}, device='cuda:{r % 4}')" for r, x in enumerate(vals)]
    return "\n".join(out) + "\n"


def test_collective_results_that_agree_on_every_rank_say_so(tmp_path):
    text = (" 0: Rank 0 size 6 device cuda:0 count 4\n"
            + "".join(f"{r:2d}: local result: tensor({r * 7.5 - 3:.4f}, device='cuda:{r % 4}')\n" for r in range(6))
            + _prints({"broadcast": [-3.0] * 6, "allreduce": [58.5] * 6}))
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "the broadcast and all-reduce results agree on all 6 ranks" in v["fix"], v
    # behind a collector's timestamp, srun -l's tag still names the rank that printed
    v, acc = _verdict(tmp_path, "".join(f"2026-02-03T04:05:06.{i:06d}Z {line}\n"
                                        for i, line in enumerate(_prints({"allreduce": [7.25] * 3}).splitlines())))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "the all-reduce results agree on all 3 ranks" in v["fix"], v


def test_collective_results_that_differ_say_so_and_not_agree(tmp_path):
    v, acc = _verdict(tmp_path, _prints({"allreduce": [12.0, 12.0, 12.0, 4.0, 12.0]}))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "the all-reduce results printed differ between ranks" in v["fix"], v
    assert "agree on all" not in v["fix"], v
    # vectors that agree in their first element and differ after it differ too (review b of round 108, finding 10)
    v, acc = _verdict(tmp_path, "".join(f"{r}: allreduce result: tensor([3.0000, {r}.5000], device='cuda:{r}')\n"
                                        for r in range(4)))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "the all-reduce results printed differ between ranks" in v["fix"], v
    assert "agree on" not in v["fix"], v
