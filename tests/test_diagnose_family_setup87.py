"""Set-up and launch shapes round 87 showed read wrong (rules R, BC (1), BC (2), BR (3), AF (1), BE (2), A, AU (4), K,
T, BJ (4)).

- torchft's lighthouse polling "No quorum, only have 1 participants, need 2" is the job's own rendezvous of a known
  count (min_replicas) with fewer members than it needs: rule R's reading, store_rendezvous, no rank named, nobody
  innocent; the fix names starting every replica group, min_replicas and the lighthouse address (torchft-63, it was
  none). Its lines alone, without the quorum count, stay none.
- A paste that stops in (or right under) a frame of torchrun's elastic store utilities
  (torch/distributed/elastic/utils/store.py: get_all, synchronize, barrier), cut anywhere after its line number, is
  rule BC (1)'s store frame of the launcher: store_rendezvous, culprits "unknown", low (belle-344; itrex-84 the same
  frame with its exception). Not read so where the agent's exit barrier is shown above it (its own reading), nor
  beside a worker's failure record (rule BC (2): the record decides).
- torchrun's "master_addr is only used for static rdzv_backend ..." warning where the torchrun command is shown whole
  on one line with no master address given (nor MASTER_ADDR / PET_MASTER_ADDR set in the lines) is printed for its
  argparse default: set-up chatter, none (rule BR (3); grendel-gs-61, it was config). With --master_addr given, or no
  command shown, rule BP (1)'s config stays.
- bash's "$'\\r': command not found" for a launch script's lines (the script saved with Windows line endings, its
  continued launch command mangled) is rules AF (1) / BE (2)'s launch script that cannot run the job: config,
  culprits [], the fix naming dos2unix (visualglm-6b-48, it was none). A plain "command not found" is not read so.
- torchrun's record of one failed worker whose error_file is a path (not <N/A>) and whose traceback field is cut
  before its exception keeps rule A's reading (unknown, that rank) and its fix now leads with reading that error.json
  (torchft-295). With error_file <N/A> the fix does not.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text
from tests.conftest import diagnose_verdict as _verdict

_LIGHTHOUSE = "torchft::lighthouse: 2025-01-09T19:50:55.{ms}+00:00 - INFO start: {said}\n"


def test_lighthouse_quorum_short_of_its_members_is_store_rendezvous_of_no_rank(tmp_path):
    text = "".join(_LIGHTHOUSE.format(ms=ms, said="No quorum, only have 1 participants, need 2")
                   for ms in (422, 523, 625))
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not accused(d), v
    assert "min_replicas" in v["fix"] and "TORCHFT_LIGHTHOUSE" in v["fix"], v


def test_lighthouse_lines_without_the_quorum_count_stay_none(tmp_path):
    v = _verdict(tmp_path, _LIGHTHOUSE.format(ms=422, said="Lighthouse listening on: http://[::]:29510"))
    assert v["cause"] == "none", v


_OMP = ("WARNING:torch.distributed.run:\n*****************************************\n"
        "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being "
        "overloaded, please further tune the variable for optimal performance in your application as needed.\n"
        "*****************************************\n")
_STORE_FRAME = '  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/elastic/utils/store.py", line 34, in'


def test_paste_cut_in_the_elastic_store_gather_is_store_rendezvous_of_no_rank(tmp_path):
    for tail in (_STORE_FRAME + "\n", "Traceback (most recent call last):\n" + _STORE_FRAME + " get_all\n"
                 "    data = store.get(f\"{prefix}{idx}\")\n"):
        d = diagnose_text(tmp_path, _OMP + tail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not accused(d), (tail, v)
        assert "--node_rank" in v["fix"] and "raise the rendezvous/store timeout" in v["fix"], v


def test_the_same_frame_beside_a_worker_record_or_under_the_exit_barrier_is_not_read_so(tmp_path):
    rec = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 1234) of "
           "binary: /usr/bin/python\n")
    d = diagnose_text(tmp_path, _OMP + rec + "Traceback (most recent call last):\n" + _STORE_FRAME + " get_all\n")
    assert (d["verdict"]["cause"], accused(d)) == ("unknown", {0}), d["verdict"]
    v = _verdict(tmp_path, rec + "ERROR:torch.distributed.elastic.agent.server.api:Error waiting on exit barrier. "
                 "Elapsed: 300.1 seconds\nTraceback (most recent call last):\n"
                 '  File "/x/torch/distributed/elastic/agent/server/api.py", line 906, in _exit_barrier\n'
                 "    store_util.barrier(\n" + _STORE_FRAME + " get_all\n")
    assert "elastic store utilities" not in v["summary"], v


_CMD = "$ CUDA_VISIBLE_DEVICES=0,1 torchrun --standalone --nnodes=1 --nproc-per-node=2 {extra}train.py --bsz 1\n"
_UNUSED = "master_addr is only used for static rdzv_backend and when rdzv_endpoint is not specified.\n"
_STARTED = ("Initializing ->  world_size: 2 rank: 0     in_node_size: 2 in_node_rank: 0\n"
            "Output folder: /tmp/out [29/10 17:14:45]\nLoading cameras from disk... [29/10 17:14:45]\n")


def test_master_addr_warning_for_torchruns_default_is_none(tmp_path):
    d = diagnose_text(tmp_path, _CMD.format(extra="") + _UNUSED + _OMP + _STARTED)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("none", []) and not accused(d), d["verdict"]


def test_master_addr_warning_with_an_address_given_or_no_command_stays_config(tmp_path):
    for text in (_CMD.format(extra="--master_addr=10.0.0.1 ") + _UNUSED + _OMP + _STARTED,
                 "export MASTER_ADDR=10.0.0.1\n" + _CMD.format(extra="") + _UNUSED + _OMP + _STARTED,
                 _UNUSED + _OMP + _STARTED):
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []), (text, v)


_DS = ("[2023-05-23 17:22:18,412] [INFO] [runner.py:541:main] cmd = /usr/bin/python3 -u -m deepspeed.launcher.launch "
       "--world_info=eyJsb2NhbGhvc3QiOiBbMF19 --m --use_lorat  20 e 8   ns l /dataset.json finetune.py\n"
       "[2023-05-23 17:22:21,237] [INFO] [launch.py:229:main] WORLD INFO DICT: {'localhost': [0]}\n")


def test_bash_carriage_return_errors_of_the_launch_script_are_config(tmp_path):
    crlf = "".join(f"finetune/finetune.sh: line {n}: $'\\r': command not found\n" for n in (5, 14, 19))
    d = diagnose_text(tmp_path, "# bash finetune/finetune.sh\n" + crlf + _DS)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not accused(d), v
    assert "dos2unix" in v["fix"] and "CRLF" in v["fix"], v


def test_a_plain_command_not_found_is_not_read_as_line_endings(tmp_path):
    v = _verdict(tmp_path, "finetune/finetune.sh: line 5: nvidia-smi: command not found\n" + _DS)
    assert "dos2unix" not in v["fix"], v


def _record(error_file: str) -> str:
    return ("------------------------------------------------------------\nRoot Cause (first observed failure):\n"
            "[0]:\n  time      : 2025-12-02_07:33:17\n  host      : node-a\n  rank      : 0 (local_rank: 0)\n"
            f"  exitcode  : 1 (pid: 47674)\n  error_file: {error_file}\n"
            "  traceback : Traceback (most recent call last):\n"
            '    File "/usr/lib/python3.10/site-packages/torch/distributed/elastic/multiprocessing/errors/'
            '__init__.py", line 357, i\n')


def test_record_with_an_error_file_and_its_traceback_cut_names_reading_that_error_json(tmp_path):
    d = diagnose_text(tmp_path, _record("/tmp/torchelastic_x/none_y/attempt_0/0/error.json"))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("unknown", {0}), v
    assert "read the worker's error.json / full traceback" in v["fix"], v


def test_record_with_no_error_file_does_not_name_one(tmp_path):
    d = diagnose_text(tmp_path, _record("<N/A>"))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("unknown", {0}), v
    assert "read the worker's error.json" not in v["fix"], v
