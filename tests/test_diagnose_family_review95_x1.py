"""Review 95 x1 (findings 1, 6, 11, 12): readings of round 95's new diagnose code that were too broad, and what reads
them now. Each test pairs the reviewer's counter-example (the near shape that was misread) with the case's own shape,
which still reads as before.

- #1 c10d bind retried (lead rule BY (1)): any line after c10d's logged bind failure that was not c10d's or the
  launcher's counted as "the job's own lines go on" -- the user's shell prompt printed after torchrun exited too --
  and the launch's rendezvous was never checked: under torchrun's default static rendezvous (--master_port) errno 98
  on the store is fatal. The benign text also named --standalone's port 29400 whatever the port was. Now BY (1) is
  read only under the c10d rendezvous (--standalone, --rdzv-backend c10d, --rdzv-endpoint shown, or the bind on port
  29400 with no static launch shown) and only worker lines after the bind count (no shell prompt, fence or blank
  line); the text names 29400 only when that is the port. Else rule AN (2): store_rendezvous. A benign reading's
  next step printed a cut copy of its sentence before the whole one; it says it once.
- #6 DeepSpeed's model-parallel size from an abandoned deepspeed command stuck to a later run's world_info. Now each
  deepspeed command line sets or clears it, and the runner line's own script arguments, shown without a size, clear it.
- #11 The error words after the bind were matched without a boundary ("rror" in "mirror", "terror"); whole words now.
- #12 The unpickling chain went on through any indented line (a tqdm bar, a config dump); now only through frames,
  the code line right under a frame, and caret marks.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_BIND = ("[W socket.cpp:663] [c10d] The server socket has failed to bind to [::]:{p} (errno: 98 - Address already in "
         "use).\n"
         "[W socket.cpp:663] [c10d] The server socket has failed to bind to 0.0.0.0:{p} (errno: 98 - Address already "
         "in use).\n"
         "[E socket.cpp:699] [c10d] The server socket has failed to listen on any local network address.\n")
_WORKERS = ("[04/18/23 21:09:50] INFO     colossalai - colossalai - INFO: set_device\n"
            "[04/18/23 21:09:51] INFO     colossalai - colossalai - INFO: process group initialized\n")


# --- #1: BY (1) needs the c10d rendezvous and worker lines after the bind --------------------------------------------
def test_a_shell_prompt_after_a_static_rendezvous_bind_failure_is_store_rendezvous(tmp_path):
    v, acc = _verdict(tmp_path, "$ torchrun --nproc_per_node 2 --master_port 29500 train.py\n" + _BIND.format(p=29500)
                      + "(base) user@gpu01:~/proj$\n")
    assert v["cause"] == "store_rendezvous" and not acc, v
    assert "29400" not in v["fix"] and "--standalone" not in v["fix"], v


def test_without_the_prompt_it_stays_store_rendezvous(tmp_path):
    v, _ = _verdict(tmp_path, "$ torchrun --nproc_per_node 2 --master_port 29500 train.py\n" + _BIND.format(p=29500))
    assert v["cause"] == "store_rendezvous", v


def test_a_static_launch_with_worker_lines_after_is_still_fatal(tmp_path):
    v, _ = _verdict(tmp_path, "$ torchrun --nproc_per_node 2 --master_port 29400 train.py\n" + _BIND.format(p=29400)
                    + _WORKERS)
    assert v["cause"] == "store_rendezvous", v


def test_a_prompt_alone_after_the_default_c10d_port_is_store_rendezvous(tmp_path):
    v, _ = _verdict(tmp_path, _BIND.format(p=29400) + "[user@gpu01 proj]$ \n")
    assert v["cause"] == "store_rendezvous", v


def test_the_case_s_shape_on_29400_with_worker_lines_stays_benign(tmp_path):
    v, acc = _verdict(tmp_path, _BIND.format(p=29400) + _WORKERS)
    assert v["cause"] == "none" and not acc, v
    assert "--standalone's default port 29400" in v["fix"], v


def test_a_c10d_endpoint_on_another_port_is_benign_without_naming_29400(tmp_path):
    v, _ = _verdict(tmp_path, "$ torchrun --nnodes 1 --nproc_per_node 2 --rdzv-backend c10d --rdzv-endpoint "
                    "localhost:29500 train.py\n" + _BIND.format(p=29500) + _WORKERS)
    assert v["cause"] == "none", v
    assert "port 29500" in v["fix"] and "29400" not in v["fix"], v


# --- #11: error words are whole words ---------------------------------------------------------------------------------
def test_a_mirror_line_after_the_bind_is_no_error(tmp_path):
    v, _ = _verdict(tmp_path, _BIND.format(p=29400) + "Using mirror https://hf-mirror.com\n"
                    "INFO: using MirroredStrategy with devices ('/gpu:0', '/gpu:1')\n" + _WORKERS)
    assert v["cause"] == "none", v


def test_an_error_after_the_bind_keeps_store_rendezvous(tmp_path):
    v, _ = _verdict(tmp_path, _BIND.format(p=29400) + _WORKERS + "RuntimeError: Address already in use\n")
    assert v["cause"] != "none", v


# --- #6: a model-parallel size is its own run's -----------------------------------------------------------------------
_RUNNER = ("[2024-01-01 10:00:00,000] [INFO] [runner.py:555:main] cmd = /usr/bin/python -u -m "
           "deepspeed.launcher.launch --world_info={w} --master_addr=127.0.0.1 --master_port=29500 "
           "finetune.py --bf16\n")


def test_an_abandoned_command_s_size_does_not_meet_a_later_run(tmp_path):
    v, acc = _verdict(tmp_path, "$ deepspeed --hostfile hostfile finetune.py --model-parallel-size 4 --bf16\n^C\n"
                      "$ deepspeed --num_gpus 2 finetune.py --bf16\n"
                      + _RUNNER.format(w="eyJsb2NhbGhvc3QiOiBbMCwgMV19"))
    assert v["cause"] in ("none", "unknown") and not acc, v
    assert "model-parallel-size=4" not in v["fix"], v


def test_the_case_s_size_on_one_gpu_still_reads_config(tmp_path):
    v, _ = _verdict(tmp_path, "deepspeed --master_port 16666 --hostfile hostfile finetune_demo.py --model-parallel-size"
                    " 4 --mode finetune\n[2023-11-11 02:29:41,086] [INFO] [runner.py:570:main] cmd = /usr/bin/python3 "
                    "-u -m deepspeed.launcher.launch --world_info=eyJsb2NhbGhvc3QiOiBbMF19 --master_addr=127.0\n")
    assert v["cause"] == "config", v


# --- #12: the unpickling chain goes on through a traceback's shape only -----------------------------------------------
_SP = "/opt/conda/lib/python3.8/site-packages"
_STORAGE = (f'  File "{_SP}/torch/storage.py", line 161, in _load_from_bytes\n'
            "    return torch.load(io.BytesIO(b))\n"
            f'  File "{_SP}/torch/serialization.py", line 593, in load\n'
            "    return _legacy_load(opened_file, map_location, pickle_module)\n")  # under a wrapped width
_LOADER = ('  File "/work/train.py", line 310, in train_epoch\n'
           "    for batch in loader:\n"
           f'  File "{_SP}/torch/utils/data/dataloader.py", line 435, in __next__\n'
           "    data = self._next_data()\n")
_TB = "Traceback (most recent call last):\n"


def test_an_indented_progress_line_ends_the_unpickling_chain(tmp_path):
    v, acc = _verdict(tmp_path, _TB + '  File "eval.py", line 30, in <module>\n    cache = pickle.loads(blob)\n'
                      + _STORAGE + " 45%|####5     | 450/1000 [00:12<00:15, 36.1it/s]\n" + _LOADER)
    assert v["cause"] == "unknown" and not acc, v
    assert "DataLoader" in v["fix"] and "_load_from_bytes" not in v["fix"], v


def test_the_unpickling_chain_still_reads_through_its_frames(tmp_path):
    v, _ = _verdict(tmp_path, _TB + '  File "prepare.py", line 31, in <module>\n'
                    '    feats = pickle.load(open(p, "rb"))\n' + _STORAGE
                    + f'  File "{_SP}/torch/serialization.py", line 772, in _legacy_load\n'
                    "    result = unpickler.load()\n")
    assert "(a pickle file, an object store, a collective)" in v["fix"], v


def test_the_benign_sentence_is_said_once_in_the_next_step(tmp_path):
    import subprocess
    import sys
    log = tmp_path / "bind.log"
    log.write_text(_BIND.format(p=29400) + _WORKERS)
    out = subprocess.run([sys.executable, "-m", "ncclDoctor", "diagnose", str(log), "--out", str(tmp_path / "run")],
                         capture_output=True, text=True, timeout=120).stdout
    nxt = next(x for x in out.splitlines() if x.startswith("next: "))
    assert nxt.startswith("next: nothing in these lines is a failure: c10d's"), nxt
    assert nxt.count("c10d's [W]/[E] lines") == 1, nxt
