"""How diagnose reads a file-system error tied to the job's distributed layout (round 110, session 47, fixer f6): c10d's
FileStore failing to open its own file, a metric's lock-file rendezvous, a cache under HOME=/, ranks racing on a
directory or a rename, a signal file, the HF hub cache, a rank's partial results on another machine's disk, a log
file's missing directory, torch.load finding an empty file, PyTorch-BigGraph's and MosaicML streaming's files, and the
two line heads (milabench's '<run> [stderr] ', a runner's '[host:index]:') and the wrapped ENOENT path they came with.
Each test reads the shape from lines other than the corpus case's own (other ranks, numbers, paths, names), and a near
shape that keeps its old reading. Hosts, pids, paths and model names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import files
from ncclDoctor.diagnose.signatures import strip_prefixes
from ncclDoctor.diagnose.verdict import store
from tests.conftest import verdict_accused


def _tb(frames: list[tuple[str, int, str, str]], last: str, head: str = "") -> str:
    out = [f"{head}Traceback (most recent call last):"]
    for path, line, func, code in frames:
        out += [f'{head}  File "{path}", line {line}, in {func}', f"{head}    {code}"]
    return "\n".join(out + [head + last]) + "\n"


def _unknown(tmp_path, text, ranks=()):
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and acc == set(ranks), (v, acc)
    return v


# --- c10d's FileStore ----------------------------------------------------------------------------------------------
_INIT_FRAMES = [("/home/ana/exp/run_ddp.py", 58, "main", "dist.init_process_group('nccl', init_method=url, rank=r)"),
                ("/opt/py/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", 433,
                 "init_process_group", "store, rank, world_size = next(rendezvous_iterator)"),
                ("/opt/py/lib/python3.8/site-packages/torch/distributed/rendezvous.py", 97,
                 "_file_rendezvous_handler", "store = FileStore(path, world_size)")]


def test_filestore_file_missing_under_ddp_frames_is_the_store(tmp_path):
    """Rules L, Y, J, AC (1): the FileStore's own open failing under init_process_group's file:// rendezvous, other
    processes' prints around it: store_rendezvous, nobody; the fix names a fresh file:// path and tcp:// / env://."""
    text = ("Using device: 6\n" + _tb(_INIT_FRAMES, "RuntimeError: open(/scratch/ana/pg_store_0412): No such file or "
                                      "directory") + "Using device: 1\nUsing device: 4\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "store_rendezvous" and not acc and v["culprits"] == [], (v, acc)
    assert "switch to tcp:// or env:// initialisation" in v["fix"], v
    assert "unique file:// path per run" in v["fix"], v


def test_the_same_open_message_from_a_dataset_library_is_no_store(tmp_path):
    """Near shape: the same 'open(PATH): No such file or directory' under a data library's frames is no c10d store."""
    text = _tb([("/home/ana/exp/data.py", 12, "load", "db = lmdbx.open_env(path)")],
               "RuntimeError: open(/scratch/ana/train.mdb): No such file or directory")
    v, acc = verdict_accused(tmp_path, text)
    # the reading it keeps: an untagged traceback of code every process runs, no store: unknown, nobody
    # (review 110 b #9)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "file://" not in v["fix"], v
    assert store._R_FILESTORE_OPEN.search(text)  # the message matches: the frames are what tell them apart


# --- a metric's lock-file rendezvous, under a runner's "[host:index]:" ---------------------------------------------
def test_metric_lock_rendezvous_under_a_host_index_head_is_read(tmp_path):
    """Rules J, BJ (2), AC (1), AQ (3): evaluate's own ValueErrors from its lock files, each behind a runner's
    '[host:index]:' head (no global rank): unknown, nobody; the fix names computing the metric on rank 0."""
    (tmp_path / "a.log").write_text("[gpu-a:2]:ValueError: Couldn't acquire lock on /srv/hf/metrics/f1/default/"
                                    "run-3-rdv.lock from process 2.\n")
    text = ("[gpu-b:5]:ValueError: Expected to find locked file /srv/hf/metrics/f1/default/run-3-0.arrow.lock from "
            "process 13 but it doesn't exist.\n")
    v = _unknown(tmp_path, text)
    assert "compute the metric only there" in v["fix"], v
    assert "put the metric cache_dir on a filesystem shared by all nodes" in v["fix"], v


def test_host_index_head_is_stripped_but_an_address_is_not():
    """The head is a host and a small index; '[host:29500]:' (a port) is an address and stays."""
    assert strip_prefixes("[gpu-b:5]:ValueError: x") == "ValueError: x"
    assert strip_prefixes("[gpu-b:29500]: connect failed") == "[gpu-b:29500]: connect failed"


def test_a_filelock_timeout_gets_no_metric_rendezvous_words():
    """Near shape: filelock's own timeout on some .lock names no metric rendezvous."""
    assert not files.fix_for(["filelock._error.Timeout: The file lock '/srv/cache/x.lock' could not be acquired."])
    assert files.fix_for(["ValueError: Couldn't acquire lock on /c/m/e-rdv.lock from process 7."])


# --- milabench's head, an ENOENT path wrapped onto its own line, the HF hub cache -----------------------------------
def test_run_stream_head_then_rank_tag_and_a_wrapped_hub_path(tmp_path):
    """Rules BG (4), AN (1), A: rank 9's own FileNotFoundError behind milabench's '<run> [stderr] ' head, its path
    wrapped onto the next line: culprit 9, unknown; the path is in the HF hub cache, so the fix names
    pre-downloading."""
    head = "llm-lora.node117.hpc.example.org [stderr] [rank9]: "
    text = (_tb([("/w/venv/lib/python3.11/site-packages/safetensors/torch.py", 308, "load_file",
                  "with safe_open(filename, framework=\"pt\") as f:")],
                "FileNotFoundError: No such file or directory: ", head)
            + '"/w/cache/huggingface/hub/models--acme--tiny-llm/snapshots/0a1b2c/model.safetensors"\n')
    v = _unknown(tmp_path, text, {9})
    assert "pre-download the model into the hugging face cache once before launching" in v["fix"].lower(), v


def test_an_enoent_message_cut_without_its_path_gets_no_hub_words(tmp_path):
    """Near shape: the message cut, the next line a frame (no quoted path): nothing joined, no hub cache words."""
    text = ("[rank2]: FileNotFoundError: No such file or directory:\n"
            '[rank2]:   File "/w/run.py", line 3, in <module>\n')
    v, _ = verdict_accused(tmp_path, text)
    assert "Hugging Face hub cache" not in v["fix"], v
    assert files.fix_for(['FileNotFoundError: No such file or directory: "/h/hub/models--a--b/snapshots/1/w.bin"'])


# --- races on a directory or a rename --------------------------------------------------------------------------------
def test_datasets_incomplete_dir_race(tmp_path):
    """Rules J, BG (1), BJ (2): untagged FileExistsErrors on a datasets cache's '.incomplete' staging directory:
    unknown, nobody; the fix names preparing the dataset once and removing the stale directory."""
    exc = ("FileExistsError: [Errno 17] File exists: '/home/bo/.cache/huggingface/datasets/json/default-77aa/"
           "0.0.0/9f8e7d.incomplete'")
    text = _tb([("/opt/py/lib/python3.8/os.py", 223, "makedirs", "mkdir(name, mode)")], exc) * 2
    v = _unknown(tmp_path, text)
    assert "remove the stale *.incomplete directory from the cache" in v["fix"], v
    assert "Prepare the dataset once before the workers start" in v["fix"], v


def test_checkpoint_dir_exists_after_a_jobs_own_words_is_read(tmp_path):
    """Rule CK (7): EEXIST after the job's own words, no exception class ('Run aborted: [Errno 17] File exists: ...
    /ckpts/...'): read (the trigger 'Errno 17]'), unknown, nobody; the fix names makedirs(exist_ok) on rank 0."""
    text = "Run aborted: [Errno 17] File exists: '/nfs/team/runs/exp_20240102/ckpts/unet'\n"
    v = _unknown(tmp_path, text)
    assert "os.makedirs(..., exist_ok=True)" in v["fix"], v
    # near shape: EEXIST on a path that is no checkpoint's gets no checkpoint words
    assert not files.fix_for(["Run aborted: [Errno 17] File exists: '/nfs/team/tmp/scratch'"])


def test_trainer_tmp_checkpoint_rename_names_the_upgrade(tmp_path):
    """Rules BG (4), BJ (2): rank 3's own rename of tmp-checkpoint-* into checkpoint-N refused: culprit 3, unknown;
    the fix names the transformers upgrade and should_save, not a mkdir."""
    exc = ("FileExistsError: [Errno 17] File exists: 'out/run7/tmp-checkpoint-k2j9' -> 'out/run7/checkpoint-1200'")
    text = _tb([("/opt/py/lib/python3.11/os.py", 272, "renames", "rename(old, new)")], exc, "[rank3]: ")
    v = _unknown(tmp_path, text, {3})
    assert "checkpoint rename from tmp-checkpoint is done only once" in v["fix"], v
    assert "(should_save)" in v["fix"], v
    assert "Create the checkpoint directory with" not in v["fix"], v


# --- a cache under HOME=/ ---------------------------------------------------------------------------------------------
def test_permission_denied_on_a_cache_under_root_home(tmp_path):
    """Rules BG (4), BJ (2): rank 5's PermissionError on '/.triton': culprit 5; the fix names a writable HOME."""
    v = _unknown(tmp_path, "[rank5]: PermissionError: [Errno 13] Permission denied: '/.triton'\n", {5})
    assert "set HOME / XDG_CACHE_HOME / HF_HOME to a writable directory in the pod" in v["fix"], v
    # near shape: a denied path that is no cache under '/' gets no HOME words
    assert not files.fix_for(["PermissionError: [Errno 13] Permission denied: '/data/shared/x.bin'"])


# --- files another process removed, wrote elsewhere, or never made ----------------------------------------------------
def test_signal_file_removed_by_another_node(tmp_path):
    """llm-foundry's signal file gone before rank 8 removed it: culprit 8; the fix names a node-local directory."""
    text = _tb([("/venv/lib/python3.10/site-packages/llmfoundry/utils/builders.py", 530, "build_tokenizer",
                 "os.remove(signal_file_path)")],
               "FileNotFoundError: [Errno 2] No such file or directory: '._signal_file_node1_ZX81QA'", "[rank8]: ")
    v = _unknown(tmp_path, text, {8})
    assert "make the signal file path unique per node / not on a shared filesystem" in v["fix"], v


def test_partial_results_pickle_from_another_machine(tmp_path):
    """mmcv's collect step missing another rank's part_N.pkl: unknown, nobody; the fix names a shared tmpdir or
    gpu_collect."""
    text = ('  File "/venv/lib/python3.9/site-packages/mmengine/fileio/backends.py", line 90, in get\n'
            "    with open(filepath, 'rb') as f:\n"
            "FileNotFoundError: [Errno 2] No such file or directory: "
            "'/work/seg/work_dirs/run2/.dist_test/part_5.pkl'\n")
    v = _unknown(tmp_path, text)
    assert "Put the eval tmpdir on a filesystem shared by all nodes (or use gpu_collect=True)" in v["fix"], v


def test_log_file_whose_directory_is_missing(tmp_path):
    """A log file opened for writing under a directory that does not exist: the fix names creating the directory."""
    text = _tb([("/usr/lib/python3.11/logging/__init__.py", 1205, "_open", "return open_func(self.baseFilename,")],
               "FileNotFoundError: [Errno 2] No such file or directory: '/srv/out/det/exp3/log_20250101-101010.log'")
    text += ("E0102 10:10:11.000000 5120 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
             "local_rank: 0 (pid: 5177) of binary: /venv/bin/python3\n")
    v = _unknown(tmp_path, text, {0})
    assert "Create the output/log directory before opening the log file (os.makedirs(..., exist_ok=True))" in v[
        "fix"], v
    # near shape: a missing data file is no log file
    assert _LOG not in "".join(files.fix_for(["FileNotFoundError: [Errno 2] No such file or directory: '/d/a.jsonl'"]))


_LOG = "a log file the process opens to write"


def test_pbg_checkpoint_partition_missing(tmp_path):
    """PyTorch-BigGraph's partition checkpoint missing (h5py's errno 2): the fix names a shared checkpoint_path."""
    text = _tb([("/venv/lib/python3.8/site-packages/torchbiggraph/checkpoint_storage.py", 330,
                 "load_entity_partition", 'with h5py.File(path, "r") as hf:')],
               "OSError: Unable to open file (unable to open file: name = '/mnt/kg/model/embeddings_user_3.v12.h5', "
               "errno = 2, error message = 'No such file or directory', flags = 0, o_flags = 0)")
    v = _unknown(tmp_path, text)
    assert "train single-machine if no shared filesystem is available" in v["fix"], v


def test_streaming_shard_removed_by_another_process(tmp_path):
    """A MosaicML streaming shard's compressed file gone: the fix names a local cache per node and keep_zip."""
    text = ("FileNotFoundError: [Errno 2] No such file or directory: '/lustre/x/cache_a/train/shard.00412.mds.zstd'\n")
    v = _unknown(tmp_path, text)
    assert "set keep_zip=True to avoid the remove/decompress race" in v["fix"], v


# --- torch.load finding an empty file ---------------------------------------------------------------------------------
def test_torch_load_ran_out_of_input(tmp_path):
    """torch.load's unpickler finding no bytes: unknown, nobody; the fix names the file's size and a barrier."""
    text = _tb([("/home/li/proj/model.py", 77, "restore", "sd = torch.load(ckpt_path, map_location='cpu')"),
                ("/venv/lib/python3.10/site-packages/torch/serialization.py", 1040, "load",
                 "return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)"),
                ("/venv/lib/python3.10/site-packages/torch/serialization.py", 1258, "_legacy_load",
                 "magic_number = pickle_module.load(f, **pickle_load_args)")], "EOFError: Ran out of input")
    v = _unknown(tmp_path, text)
    assert "verify the path and file size" in v["fix"].lower(), v
    assert "avoid reading a checkpoint while another process writes it" in v["fix"], v


def test_ran_out_of_input_in_a_spawned_child_gets_no_checkpoint_words(tmp_path):
    """Near shape: a spawned child unpickling its parent's data ('Ran out of input' under multiprocessing's spawn
    frames) is no checkpoint file."""
    text = _tb([("/usr/lib/python3.10/multiprocessing/spawn.py", 126, "_main",
                 "self = reduction.pickle.load(from_parent)")], "EOFError: Ran out of input")
    v, _ = verdict_accused(tmp_path, text)
    assert "avoid reading a checkpoint while another process writes it" not in v["fix"], v
    assert files.fix_for(['EOFError: Ran out of input\n/x/torch/serialization.py'])


def test_a_wrap_before_the_class_word_and_the_path_is_joined(tmp_path):
    """The same rank-tagged ENOENT behind milabench's head, hard-wrapped at 80 columns: cut between 'FileNotFound' and
    'Error:', and the path line cut too (unwrapping leaves a blank line before the joined path): still rank 4's own
    error, the hub cache words in its fix."""
    head = "sd-multi.gpu-node-22.lab.internal.examples1.nolog [stderr] [rank4]: "
    lines = [head + "Traceback (most recent call last):",
             head + '  File "/scratch/venv/lib/python3.10/site-packages/safetensors/torch.py", line 311, in load_file',
             head + '    with safe_open(filename, framework="pt", device=device) as f:',
             head + "FileNotFoundError: No such file or directory: ",
             '"/scratch/cache/huggingface/hub/models--someorg--diffusion-base/snapshots/77aa99bb00/vae/weights.bin"']
    assert lines[3][:80].endswith("FileNotFound")  # the wrap falls right before the class's last word
    text = "\n".join("\n".join(x[k:k + 80] for k in range(0, len(x), 80)) for x in lines) + "\n"
    v = _unknown(tmp_path, text, {4})
    assert "pre-download the model into the hugging face cache once before launching" in v["fix"].lower(), v


def test_a_cut_class_needs_two_humps_before_its_last_word():
    """Near shape: a line that ends in one capitalised word ('... Done') before a line 'Error: ...' is two lines."""
    from ncclDoctor.diagnose import ingest
    assert ingest._cut_class("x [rank1]: FileNotFound", "Error: No such file")
    assert not ingest._cut_class("step 7 Done", "Error: disk quota exceeded")
