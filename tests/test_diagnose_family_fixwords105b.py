"""Fix words naming the shape's remedy, shapes round 105 showed read right but with a fix an expert would not give
(rules A, AK (2), BG (4), K, T): the verdict stays as it was, the fix names what an expert names for that shape.

- torchrun's agent's "Rendezvous complete for workers. Result:" block with restart_count=0 and "Starting worker
  group", nothing failing (torchx-492, under Ray's "(CommandActor pid=N)" prefix): none, nobody; the fix says the
  first rendezvous round completed with no failure or restart, no action needed, and where the workers' own output
  is. A restart_count above 0 (the group was restarted after a failure) gets none of those words.
- torchelastic's worker event "torchelastic.worker.status.SUCCEEDED" (yolov5-5160): none, nobody; the fix says the
  worker group finished SUCCEEDED, no action needed, and what to check if the other node hangs. The FAILED event
  stays a failure.
- A SIGSEGV whose backtrace is NCCL's cuMem code over the driver's cuMemCreate (ncclCuMemHostEnable at
  ncclCommInitRank: vllm-27868): unknown, nobody; the fix names NCCL_CUMEM_HOST_ENABLE=0 / NCCL_CUMEM_ENABLE=0 and the
  driver. A crash in other NCCL frames keeps the NCCL-library fix without the cuMem words.
- A lone untagged FileNotFoundError for a data file path (pytorch-42107): unknown, nobody; the fix says to check the
  path on every worker, restore the files, and launch so one failed worker stops the job. A missing program (a bare
  name) gets none of those words.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_RDZV_OK = "no failure or restart"
_SUCCEEDED = "the worker group finished SUCCEEDED"
_CUMEM = "NCCL_CUMEM_HOST_ENABLE=0"
_DATA = "check the data path exists"


# --- torchrun's rendezvous result, first round ----------------------------------------------------------------------
def _rdzv_block(prefix: str, restarts: int, world: int, rank: int) -> str:
    api = "INFO:torch.distributed.elastic.agent.server.api:[default]"
    fields = [f"restart_count={restarts}", "master_addr=node-a17", "master_port=29511", f"group_rank={rank}",
              f"group_world_size={world}", "local_ranks=[0, 1]", f"role_ranks=[{2 * rank}, {2 * rank + 1}]",
              f"global_world_sizes=[{2 * world}, {2 * world}]"]
    return (f"{prefix}{api} Rendezvous complete for workers. Result:\n"
            + "".join(f"{prefix}  {f}\n" for f in fields) + f"{prefix}\n"
            f"{prefix}{api} Starting worker group\n"
            f"{prefix}INFO:torch.distributed.elastic.multiprocessing:Setting worker0 reply file to: "
            f"/tmp/torchelastic_ab12cd/none_x9/attempt_{restarts}/0/error.json\n")


def test_rendezvous_complete_first_round_says_nothing_failed(tmp_path):
    for prefix, world, rank in (("", 4, 3), ("ray/1 (CommandActor pid=7730) ", 3, 1)):
        v, acc = _verdict(tmp_path, _rdzv_block(prefix, 0, world, rank))
        assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
        assert _RDZV_OK in v["fix"] and "no action needed" in v["fix"] and "workers' own output" in v["fix"], v


def test_rendezvous_after_a_restart_gets_no_first_round_words(tmp_path):
    v, acc = _verdict(tmp_path, _rdzv_block("", 2, 2, 1))
    assert v["cause"] == "none" and not acc, v
    assert _RDZV_OK not in v["fix"], v


# --- torchelastic's worker event SUCCEEDED ---------------------------------------------------------------------------
def _te_event(state: str, rank: int) -> str:
    return ('{"name": "torchelastic.worker.status.' + state + '", "source": "WORKER", "timestamp": 0, "metadata": '
            '{"run_id": "job7", "global_rank": ' + str(rank) + ', "group_rank": 1, "worker_id": "51234", "role": '
            '"default", "hostname": "gpu-b", "state": "' + state + '", "total_run_time": 812, "rdzv_backend": '
            '"c10d", "raw_error": null, "metadata": "{\\"group_world_size\\": 2, \\"entry_point\\": \\"python\\", '
            '\\"local_rank\\": [1], \\"role_rank\\": [3], \\"role_world_size\\": [4]}", "agent_restarts": 0}}\n')


def test_worker_event_succeeded_says_the_group_finished(tmp_path):
    text = ("INFO:torch.distributed.elastic.agent.server.api:Local worker group finished (SUCCEEDED). Waiting 300 "
            "seconds for other agents to finish\n" + _te_event("SUCCEEDED", 3))
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert _SUCCEEDED in v["fix"] and "no action needed" in v["fix"] and "other agent's logs" in v["fix"], v


def test_worker_event_failed_stays_a_failure(tmp_path):
    v, _ = _verdict(tmp_path, _te_event("FAILED", 3))
    assert v["cause"] != "none", v
    assert _SUCCEEDED not in v["fix"], v


# --- a segfault in NCCL's cuMem path --------------------------------------------------------------------------------
def _segv(frames: list[tuple[str, int, str]]) -> str:
    return ("(EngineCore_DP1 pid=41187) INFO 03-02 11:20:45 [p2p_nccl_engine.py:51] set_p2p_nccl_context, "
            "original_values: {'NCCL_CUMEM_ENABLE': None}\n"
            "!!!!!!! Segfault encountered !!!!!!!\n"
            '  File "./signal/../sysdeps/unix/sysv/linux/x86_64/libc_sigaction.c", line 0, in 0x00007f3a1104532f\n'
            + "".join(f'  File "{f}", line {n}, in {fn}\n' for f, n, fn in frames)
            + '  File "/build/nccl/src/init.cc", line 1790, in ncclCommInitRank\n'
            '  File "<unknown>", line 0, in ffi_call\n')


def test_segfault_in_nccl_cumem_names_cumem_switches_and_driver(tmp_path):
    v, acc = _verdict(tmp_path, _segv([("<unknown>", 0, "cuMemCreate"),
                                       ("misc/cudawrap.cc", 95, "ncclCuMemHostEnable()"),
                                       ("misc/cudawrap.cc", 290, "ncclCudaLibraryInit()")]))
    assert v["cause"] == "unknown" and not acc, v
    assert _CUMEM in v["fix"] and "NCCL_CUMEM_ENABLE=0" in v["fix"] and "NVIDIA driver" in v["fix"], v


def test_segfault_in_other_nccl_frames_gets_no_cumem_words(tmp_path):
    v, acc = _verdict(tmp_path, _segv([("src/graph/search.cc", 812, "ncclTopoCompute"),
                                       ("src/init.cc", 640, "initTransportsRank")]))
    assert v["cause"] == "unknown" and not acc, v
    assert _CUMEM not in v["fix"], v


# --- one worker's FileNotFoundError of a data file ------------------------------------------------------------------
def test_lone_missing_data_file_names_the_data_path_remedies(tmp_path):
    for path in ("/data/coco/train2017/000000315242.jpg", "/mnt/shards/imagenet/val/n01440764_10026.JPEG"):
        v, acc = _verdict(tmp_path, f"FileNotFoundError: [Errno 2] No such file or directory: '{path}'\n")
        assert v["cause"] == "unknown" and not acc, v
        assert _DATA in v["fix"] and "shared filesystem" in v["fix"] and "torchrun" in v["fix"], v
        assert path.rsplit("/", 1)[0] in v["fix"], v


def test_missing_program_gets_no_data_path_words(tmp_path):
    v, acc = _verdict(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: 'ninja'\n")
    assert not acc, v
    assert _DATA not in v["fix"], v


def test_worker_event_succeeded_with_a_flag_as_entry_point_stays_config(tmp_path):
    v, _ = _verdict(tmp_path, _te_event("SUCCEEDED", 1).replace('\\"entry_point\\": \\"python\\"',
                                                                 '\\"entry_point\\": \\"true\\"'))
    assert v["cause"] == "config", v
    assert _SUCCEEDED not in v["fix"], v
