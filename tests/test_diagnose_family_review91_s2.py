"""Review 35b of round 91's diagnose code, fixer s2: three readings that held for wider shapes than an expert reads
so, or said one fix twice.

- Finding 2: a bare AssertionError under `assert len(NAME) > N` was read as "a dataset's own check: the prepared data
  list holds too few entries" (config, a data-prep fix) wherever NAME held a data word as a bare substring -- so
  `device_list`, `gpu_list`, `rank_list`, `data_parallel_ranks` were data lists. Now the name's parts (split at '_',
  '.', a camelCase step) must include a data word (whole, or ending one: 'audiopaths', 'filelist') and none a launch
  unit (device / gpu / rank / node / proc / world / group / worker / host): signatures.data_list_name. A minimum count
  of devices (`assert len(device_list) > 1`) reads as the launch's shape now (lead rules W, Q: config, the devices
  visible / --nproc_per_node fix); gpt-sovits-669's `audiopaths_sid_text_new` keeps its data reading.
- Finding 7: int()'s refusal of a version field accepted a bare 'a' / 'b' / 'dev' as a pre-release part, so a user's
  own `int(args.model_version)` on 'b' read as config (high), "install a release torch build". Now a pre-release tag
  must follow a digit ('0a0', '1rc2'), a split-off dev / post field carry its number ('dev2024...'), or a '+local'
  part be there; the bad argument is the job's own error (rule BJ (2): unknown, no install advice). chinese-clip-124's
  '0a0' keeps its reading.
- Finding 9: the fix's "edit the <size> assert / scale gradient accumulation ..." clause was written twice in
  verdict.launch (_world_assert and _world_literal), and _world_literal re-listed the size names world_cond already
  reads (signatures.R_LAUNCH_SIZE_NAME). Now one helper (_edit_size_assert) holds the clause and _world_literal takes
  the size world_cond read; the words are unchanged.
"""
from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict


def _len_assert(name: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/home/u/proj/train.py", line 52, in <module>\n'
            "    main()\n"
            '  File "/home/u/proj/train.py", line 30, in main\n'
            f"    assert len({name}) > 1\n"
            "AssertionError\n")


# --- 2. an assert on a minimum count: a data list, or the devices ---------------------------------------------------
def test_minimum_count_of_devices_is_the_launch_not_the_data(tmp_path):
    v, acc = _verdict(tmp_path, _len_assert("device_list"))  # the reviewer's datamin.log
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "preprocessing" not in v["fix"] and "audio / image" not in v["fix"], v
    assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "--nproc_per_node" in v["fix"], v
    assert "assert len(device_list) > 1" in v["summary"], v


def test_counts_of_ranks_or_groups_are_not_a_data_list(tmp_path):
    for name in ("rank_list", "data_parallel_ranks", "dist_group_list", "node_list", "gpu_list"):
        v, _ = _verdict(tmp_path, _len_assert(name))
        assert "preprocessing" not in (v.get("fix") or ""), (name, v)


def test_data_list_names_by_whole_parts():
    for name in ("audiopaths_sid_text_new", "self.file_list", "processed_files", "train_samples", "fileList",
                 "metadata", "self.utts", "dataset"):
        assert S.data_list_name(name), name
    for name in ("device_list", "gpu_list", "rank_list", "data_parallel_ranks", "dist_group_list", "worker_files",
                 "deviceList", "listed", "batch"):
        assert not S.data_list_name(name), name


def test_dataset_list_assert_keeps_the_data_reading(tmp_path):
    v, acc = _case(tmp_path, "gpt-sovits-669-spawn-process0-dataset-assert")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "audiopaths_sid_text_new" in v["summary"] and "preprocessing" in v["fix"], v
    v, _ = _verdict(tmp_path, _len_assert("train_files"))
    assert v["cause"] == "config" and "preprocessing" in v["fix"], v


# --- 7. int() on a version's field ----------------------------------------------------------------------------------
def test_bare_letter_to_int_is_the_jobs_own_argument(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"  # the reviewer's verb.log
                                '  File "/home/u/proj/train.py", line 52, in <module>\n'
                                "    ver = int(args.model_version)\n"
                                "ValueError: invalid literal for int() with base 10: 'b'\n")
    assert v["cause"] == "unknown" and not acc, v
    assert "release torch build" not in (v.get("fix") or "") and "packaging.version" not in (v.get("fix") or ""), v


def test_version_fields_need_a_digit_or_a_local_part():
    def field(f: str) -> bool:
        return S.R_VERSION_INT_PARSE.match(f"invalid literal for int() with base 10: '{f}'") is not None
    assert all(field(f) for f in ("0a0", "1rc2", "0b1", "0+cu118", "dev20240101", "post1", "0a0+32f93b1"))
    assert not any(field(f) for f in ("a", "b", "rc", "dev", "alpha", "beta", "devices", "rc1"))


def test_pre_release_torch_version_keeps_its_reading(tmp_path):
    v, acc = _case(tmp_path, "chinese-clip-124-torch-version-0a0-parse-valueerror-launch")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "release torch build" in v["fix"], v


# --- 9. the hard-coded world size's clause, written once ------------------------------------------------------------
def _world(cond: str, msg: str = "") -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/work/nanogpt/train_gpt.py", line 574, in <module>\n'
            f"    assert {cond}\n"
            f"AssertionError{msg}\n")


def test_literal_world_size_clause_said_once_on_each_path(tmp_path):
    clause = "assert / scale gradient accumulation (and the per-rank batch) so the global batch stays the same"
    for cond, msg, size in (("world_size == 8", "", "world_size"), ("tp_size == 2", "", "tp_size"),
                            ('world_size == 8, "needs 8 GPUs"', ": needs 8 GPUs", "world_size"),
                            ("get_world_size() == 8", "", "get_world_size()")):
        v, acc = _verdict(tmp_path, _world(cond, msg))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (cond, v)
        assert v["fix"].count(clause) == 1 and f"edit the {size} {clause}" in v["fix"], (cond, v)


def test_world_size_case_keeps_its_fix(tmp_path):
    v, acc = _case(tmp_path, "modded-nanogpt-115-assert-world-size-8-on-4xh100")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "edit the world_size assert / scale gradient accumulation" in v["fix"], v
