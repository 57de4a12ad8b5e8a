"""Checkpoint files and caches that several ranks write and read at once, shapes round 90 showed read by their shape
(rules A, J, BG (4), BJ (2), BN (2), T): one rank's own exception names that rank, untagged ones nobody, the cause stays
unknown (no class covers a file race), and the fix names the race an expert names for that shape.

- A save function's frame ("in _save_checkpoint", "in save_checkpoint") whose last frame renames its temporary /
  staging directory into place (os.rename, os.renames, os.py's own renames frame) and the OS refusing it --
  "FileNotFoundError: [Errno 2]" (the source already moved) or "OSError: [Errno 39] Directory not empty" (the target
  already there): another process ran the same rename first, every rank renaming the one checkpoint in a shared
  output_dir (the HF Trainer's _save_checkpoint in some transformers versions). Rank-tagged, that rank (rules BG (4),
  BJ (2); mm-eureka-v0-8, ms-swift-3031); untagged and interleaved, nobody (rules J, BN (2); minicpm-v-144). The fix
  names the tmp-checkpoint rename race, the transformers version, only the main process renaming, a shared output_dir.
  A rename refused outside a save function, and a save's FileNotFoundError not raised by a rename, are not read so.
- A storage error ('Stale file handle', 'No space left on device') ending one rank's own tagged lines: that rank, like
  any other own exception (rules BG (4), BJ (2); ms-swift-6695: datasets' os.chmod of its indices cache file); the
  storage fix stays. Untagged, it still names nobody.
- torch.load's zip reader failing ("PytorchStreamReader failed reading file data/3: file read", "failed finding
  central directory"): the checkpoint file is cut short -- truncated, or still being written by the rank that saves
  it while the others load it (rules BG (4), T; openstl-190). The fix names a dist.barrier after the save, loading on
  rank 0 and broadcasting, a truncated checkpoint, disk space and the shared filesystem. torch.save's own
  PytorchStreamWriter failure keeps its write fix.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_TRAINER = "/opt/conda/lib/python3.10/site-packages/transformers/trainer.py"


# --- a save's rename of its staging directory refused -----------------------------------------------------------------
def test_one_ranks_save_rename_refused_names_it_and_the_rename_race(tmp_path):
    v, acc = _verdict(tmp_path, "[rank1]: Traceback (most recent call last):\n"
                                f'[rank1]:   File "{_TRAINER}", line 3157, in _save_checkpoint\n'
                                "[rank1]:     os.renames(output_dir, checkpoint_dir)\n"
                                '[rank1]:   File "/opt/conda/lib/python3.10/os.py", line 272, in renames\n'
                                "[rank1]:     rename(old, new)\n"
                                "[rank1]: OSError: [Errno 39] Directory not empty: '/out/tmp-checkpoint-ab12cd' -> "
                                "'/out/checkpoint-200'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [1]) and acc == {1}, v
    fix = v["fix"].lower()
    assert "tmp-checkpoint rename race" in fix and "transformers version" in fix, v
    assert "only the main process renames the checkpoint" in fix and "shared output_dir" in fix, v


def test_untagged_interleaved_save_renames_name_nobody_with_the_rename_race(tmp_path):
    v, acc = _verdict(tmp_path, f'  File "{_TRAINER}", line 2274, in _maybe_log_save_evaluate\n'
                                "    self._save_checkpoint(model, trial, metrics=metrics)\n"
                                f'  File "{_TRAINER}", line 2383, in _save_checkpoint\n'
                                "    self._save_checkpoint(model, trial, metrics=metrics)\n"
                                f'  File "{_TRAINER}", line 2383, in _save_checkpoint\n'
                                "    os.rename(staging_output_dir, output_dir)\n"
                                "FileNotFoundError: [Errno 2] No such file or directory: '/work/output/tmp-checkpoint-"
                                "300'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "tmp-checkpoint rename race" in v["fix"] and "transformers version" in v["fix"], v


def test_a_rename_refused_outside_a_save_is_not_the_checkpoint_race(tmp_path):
    v, acc = _verdict(tmp_path, "[rank0]: Traceback (most recent call last):\n"
                                '[rank0]:   File "prep.py", line 40, in build_index\n'
                                "[rank0]:     os.rename(tmp_path, index_path)\n"
                                "[rank0]: FileNotFoundError: [Errno 2] No such file or directory: '/data/idx.tmp'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "rename race" not in v["fix"], v


def test_a_saves_file_not_found_not_raised_by_a_rename_is_not_the_race(tmp_path):
    v, _ = _verdict(tmp_path, "[rank0]: Traceback (most recent call last):\n"
                              '[rank0]:   File "train.py", line 88, in save_checkpoint\n'
                              "[rank0]:     shutil.copy(best_path, last_path)\n"
                              "[rank0]: FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/best.pt'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "rename race" not in v["fix"], v


# --- a storage error ending one rank's own lines ----------------------------------------------------------------------
def test_one_ranks_stale_file_handle_names_that_rank(tmp_path):
    v, acc = _verdict(tmp_path, '[rank3]:   File "/usr/lib/python3/dist-packages/datasets/arrow_dataset.py", line '
                                "4101, in _select_with_indices_mapping\n"
                                "[rank3]:     os.chmod(indices_cache_file_name, 0o666 & ~umask)\n"
                                "[rank3]: OSError: [Errno 116] Stale file handle: '/nfs/cache/indices.arrow'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and acc == {3}, v
    assert "Stale file handle" in v["fix"] and "shared filesystem" in v["fix"], v


def test_an_untagged_stale_file_handle_still_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, '  File "/usr/lib/python3/dist-packages/datasets/arrow_dataset.py", line 4101, in '
                                "_select_with_indices_mapping\n"
                                "    os.chmod(indices_cache_file_name, 0o666 & ~umask)\n"
                                "OSError: [Errno 116] Stale file handle: '/nfs/cache/indices.arrow'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "Stale file handle" in v["fix"], v


# --- torch.load reading a checkpoint cut short ------------------------------------------------------------------------
def test_one_ranks_torch_load_of_a_cut_file_names_the_barrier_after_the_save(tmp_path):
    v, acc = _verdict(tmp_path, "[rank2]: Traceback (most recent call last):\n"
                                '[rank2]:   File "train.py", line 325, in train\n'
                                "[rank2]:     model.load_state_dict(torch.load(best_model_path))\n"
                                '[rank2]:   File "/env/lib/python3.10/site-packages/torch/serialization.py", line '
                                "1888, in load_tensor\n"
                                "[rank2]:     zip_file.get_storage_from_record(name, numel, torch.UntypedStorage)\n"
                                "[rank2]: RuntimeError: PytorchStreamReader failed reading file data/7: file read\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [2]) and acc == {2}, v
    assert "dist.barrier" in v["fix"] and "truncated checkpoint" in v["fix"], v


def test_torch_save_write_failure_keeps_its_write_fix(tmp_path):
    v, _ = _verdict(tmp_path, "[rank0]: Traceback (most recent call last):\n"
                              '[rank0]:   File "train.py", line 90, in save\n'
                              "[rank0]:     torch.save(state, path)\n"
                              "[rank0]: RuntimeError: [enforce fail at inline_container.cc:603] . unexpected pos "
                              "PytorchStreamWriter failed writing file data.pkl: file write failed\n")
    assert "storage under its save path refused the write" in v["fix"], v
    assert "dist.barrier after the save" not in v["fix"] and "rename race" not in v["fix"], v
