"""Round 105's v3 shapes (session 42): signals, spawn exits and launcher records.

- mp.spawn's join reporting a child killed by a signal ("Exception: process 2 terminated with signal SIGFPE", torch
  1.x) beside detectron2's launch record "Process group URL: tcp://..." (logged when init_process_group raised): no
  Python exception reached spawn, so that child crashed natively first and the URL record is the others' set-up failing
  after it -- unknown, the child's index (a single node's spawn: its global rank) the culprit (lead rules A, AL (2);
  round 105's detectron2-3). NOT read so: the same record under spawn's re-raised exception keeps store_rendezvous.
- PALS' (mpiexec) record pasted without its host ("rank 0 died from signal 11 and dumped core", "rank 4 died from
  signal 9"): read as the host form is, and a native crash beside a SIGKILL of another rank is two processes failing on
  their own -- both culprits, cause unknown, not host_oom of the killed one nor rule J's shared cause (lead rules A,
  J; round 105's ezpz-210). NOT read so: a SIGKILL beside a teardown SIGTERM (signal 15) keeps host_oom of the killed
  rank; the hostless words inside a sentence are not PALS' record.
- spawn's "process 0 terminated with exit code 2333333" under RVC's trainer script (its os._exit(2333333) once
  training is done): the run's normal end, none, nobody (lead rule CF (2); round 105's rvc-99). NOT read so: the same
  code under another script, or another code under RVC's trainer, keeps the lone exit (unknown, process 0).
- an input ending on Open MPI's handler's first line ("[host:pid] *** Process received signal ***"), the signal's name
  cut: a fatal signal of a process no rank names -- unknown, nobody accused, not 'none' (lead rules A, AK (2); round
  105's nccl-1669). NOT read so: the handler's full report (its "Signal: Segmentation fault (11)") keeps its SIGSEGV
  reading, and NCCL's INFO lines alone stay none.
"""

from __future__ import annotations

from tests.conftest import nccl_info
from tests.conftest import verdict_accused as _verdict


# --- a spawn child's signal beside detectron2's "Process group URL" -----------------------------------------------
def _d2_spawn(tail: str, url: str = "tcp://127.0.0.1:54401", gpus: int = 8) -> str:
    return (
        f"Command Line Args: Namespace(config_file='configs/x.yaml', dist_url='{url}', eval_only=False, "
        f"machine_rank=0, num_gpus={gpus}, num_machines=1, opts=[], resume=False)\n"
        f"Process group URL: {url}\n"
        "Traceback (most recent call last):\n"
        '  File "tools/train_net.py", line 154, in <module>\n'
        "    args=(args,),\n"
        '  File "/opt/detectron2/detectron2/engine/launch.py", line 49, in launch\n'
        "    daemon=False,\n"
        '  File "/opt/conda/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 171, in spawn\n'
        "    while not spawn_context.join():\n"
        '  File "/opt/conda/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 107, in join\n'
        "    (error_index, name)\n" + tail)


def test_a_spawn_childs_signal_outranks_the_process_group_url_record(tmp_path):
    v, acc = _verdict(tmp_path, _d2_spawn("Exception: process 2 terminated with signal SIGFPE\n"))
    assert v["cause"] == "unknown" and v["culprits"] == [2] and acc == {2}, v
    assert "SIGFPE" in v["fix"], v["fix"]


def test_another_child_and_signal_beside_the_url_read_the_same(tmp_path):
    text = _d2_spawn("Exception: process 5 terminated with signal SIGSEGV\n", url="tcp://10.0.0.3:29500", gpus=4)
    v, acc = _verdict(tmp_path, "\n".join("> " + x for x in text.splitlines()) + "\n")
    assert v["cause"] == "unknown" and v["culprits"] == [5], v


def test_the_url_record_under_spawns_reraised_exception_keeps_store_rendezvous(tmp_path):
    # no child died of a signal: the record is init_process_group's raise, read as the rendezvous (as before)
    v, acc = _verdict(tmp_path, "Command Line Args: Namespace(dist_url='tcp://127.0.0.1:50152', num_machines=1)\n"
                                "Process group URL: tcp://127.0.0.1:50152\n")
    assert v["cause"] == "store_rendezvous" and not acc, v


# --- PALS' hostless record: a native crash beside a SIGKILL ------------------------------------------------------
def test_pals_hostless_crash_beside_a_sigkill_names_both_ranks(tmp_path):
    v, acc = _verdict(tmp_path, "rank 0 died from signal 11 and dumped core\nrank 4 died from signal 9\n")
    assert v["cause"] == "unknown" and v["culprits"] == [0, 4] and acc == {0, 4}, v
    assert "core dump" in v["fix"] and "OOM killer" in v["fix"], v["fix"]


def test_other_ranks_and_a_host_read_the_same(tmp_path):
    v, acc = _verdict(tmp_path, "x4102c5s1b0n0.hsn.cm.aurora.alcf.anl.gov: rank 9 died from signal 4 and dumped core\n"
                                "x4102c5s2b0n0.hsn.cm.aurora.alcf.anl.gov: rank 3 died from signal 9\n")
    assert v["cause"] == "unknown" and v["culprits"] == [3, 9], v


def test_a_sigkill_beside_the_teardowns_sigterm_keeps_host_oom(tmp_path):
    v, acc = _verdict(tmp_path, "rank 2 died from signal 9\nrank 5 died from signal 15\n")
    assert v["cause"] == "host_oom" and v["culprits"] == [2], v


def test_the_words_in_a_sentence_are_not_palss_record(tmp_path):
    v, acc = _verdict(tmp_path, "I think rank 0 died from signal 11 and dumped core because of the driver\n")
    assert 0 not in acc and v["culprits"] != [0], v


# --- RVC's deliberate end-of-training exit --------------------------------------------------------------------------
def _rvc(script: str, code: int, n: int = 0) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{script}", line 684, in <module>\n'
        "    main()\n"
        f'  File "{script}", line 50, in main\n'
        "    mp.spawn(\n"
        '  File "C:\\env\\lib\\site-packages\\torch\\multiprocessing\\spawn.py", line 239, in spawn\n'
        "    return start_processes(fn, args, nprocs, join, daemon, start_method='spawn')\n"
        '  File "C:\\env\\lib\\site-packages\\torch\\multiprocessing\\spawn.py", line 197, in start_processes\n'
        "    while not context.join():\n"
        '  File "C:\\env\\lib\\site-packages\\torch\\multiprocessing\\spawn.py", line 149, in join\n'
        "    raise ProcessExitedException(\n"
        f"torch.multiprocessing.spawn.ProcessExitedException: process {n} terminated with exit code {code}\n")


def test_rvcs_trainer_leaving_with_its_end_of_training_code_is_none(tmp_path):
    v, acc = _verdict(tmp_path, _rvc("train_nsf_sim_cache_sid_load_pretrain.py", 2333333))
    assert v["cause"] == "none" and v["culprits"] == [] and not acc, v
    assert "os._exit(2333333)" in v["fix"], v["fix"]


def test_rvcs_newer_trainer_path_reads_the_same(tmp_path):
    v, acc = _verdict(tmp_path, _rvc("/home/u/RVC/infer/modules/train/train.py", 2333333))
    assert v["cause"] == "none" and not acc, v


def test_the_same_code_under_another_script_keeps_the_lone_exit(tmp_path):
    v, acc = _verdict(tmp_path, _rvc("train.py", 2333333))
    assert v["cause"] == "unknown" and v["culprits"] == [0], v


def test_another_code_under_rvcs_trainer_keeps_the_lone_exit(tmp_path):
    v, acc = _verdict(tmp_path, _rvc("train_nsf_sim_cache_sid_load_pretrain.py", 1))
    assert v["cause"] == "unknown" and v["culprits"] == [0], v


# --- Open MPI's handler cut after its first line --------------------------------------------------------------------
def _ras(host: str, pid: int) -> str:
    return "".join(nccl_info(h, p, d, "RAS client listening socket at ::1<28028>")
                   for h, p, d in (("gpu-a", 935572, 0), ("gpu-b", 1886882, 6), (host, pid, 0)))


def test_an_input_ending_on_open_mpis_signal_header_is_an_unknown_crash(tmp_path):
    v, acc = _verdict(tmp_path, _ras("gpu-c", 405884) + "[gpu-c:405884] *** Process received signal ***\n")
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "405884" in v["fix"] and "core dump" in v["fix"], v["fix"]


def test_another_host_and_pid_read_the_same(tmp_path):
    v, acc = _verdict(tmp_path, _ras("node17", 77) + "[node17:77] *** Process received signal ***\n\n")
    assert v["cause"] == "unknown" and not acc, v


def test_the_handlers_full_report_keeps_its_signal_reading(tmp_path):
    v, acc = _verdict(tmp_path, _ras("gpu-c", 405884) + "[gpu-c:405884] *** Process received signal ***\n"
                                "[gpu-c:405884] Signal: Segmentation fault (11)\n")
    assert v["cause"] == "unknown" and "SIGSEGV" in v["summary"], v


def test_nccls_info_lines_alone_stay_none(tmp_path):
    v, acc = _verdict(tmp_path, _ras("gpu-c", 405884))
    assert v["cause"] == "none", v
