"""The fix's words for a file-system error tied to the job's distributed layout (round 110, session 47, fixer f6): a
path another node wrote and this one cannot see, ranks racing on one file or directory, a lock file, a cache directory
the process cannot write, a checkpoint read while empty or cut short. None of them is a class of its own (lead rules
BG (4), BJ (2), CK (7): the cause and the culprits stay the reading's); each shape only adds its remedy, first, to the
fix of an ``unknown`` verdict (verdict._unknown_remedies). A shape is read from the exception's own message (its path's
form) or from the frames its traceback names, never from the case's whole line."""

from __future__ import annotations

import re

# datasets' (nlp's) download_and_prepare staging directory "<cache>/<name>/<config>/<version>/<hash>.incomplete",
# made with a bare mkdir: several processes preparing the same dataset in one cache at once (round 110's
# hf-datasets-532, xmp.spawn's processes on a TPU)
_R_INCOMPLETE = re.compile(r"\bFile exists: " + r"['\"][^'\"\n]{1,600}\.incomplete['\"]")
_INCOMPLETE_FIX = (
    "The '.incomplete' directory is the datasets library's staging directory for a dataset being prepared in its "
    "cache: several processes (spawned workers, ranks) preparing the same dataset in one cache at once race to "
    "create it. Prepare the dataset once before the workers start (load_dataset in the parent / main process first), "
    "or let the main process prepare it while the others wait (main_process_first, xm.rendezvous) and then load from "
    "the cache; remove the stale *.incomplete directory from the cache; a newer datasets release locks the "
    "preparation. ")

# a cache directory under a home directory of "/" ("Permission denied: '/.cache'", "/.triton", "/.config"): the
# container runs as a user whose HOME is / (OpenShift's arbitrary UID), which cannot write there (round 110's
# ilab-on-ocp-pr26)
_R_ROOT_HOME_CACHE = re.compile(r"\bPermission denied: ['\"]/\.(?:cache|config|local|triton|nv|huggingface|keras"
                                r"|torch)\b")
_ROOT_HOME_FIX = (
    "The path is a cache directory under a home directory of '/' (HOME=/, the default for a container's arbitrary "
    "user, as OpenShift runs it), which that user cannot write: set HOME / XDG_CACHE_HOME / HF_HOME to a writable "
    "directory in the pod, such as /tmp (TRITON_CACHE_DIR and TORCHINDUCTOR_CACHE_DIR too), or mount a writable "
    "volume at the cache path (an emptyDir). ")

# the HF Trainer's rename of its staging directory into place ("File exists: '.../tmp-checkpoint-x1y2' ->
# '.../checkpoint-414'"): every rank renaming the one checkpoint (round 110's llamafactory-6848)
_R_TMP_CKPT_RENAME = re.compile(r"\bFile exists: ['\"][^'\"\n]{0,600}\btmp-checkpoint-\w{1,40}['\"] -> "
                                r"['\"][^'\"\n]{0,600}\bcheckpoint-\d{1,9}['\"]")
_TMP_CKPT_FIX = (
    "The rename of tmp-checkpoint-* into checkpoint-N found the target already there: another process renamed the "
    "same staging directory first (transformers' _save_checkpoint renames it on every process in some releases). "
    "Upgrade transformers to a release where the checkpoint rename from tmp-checkpoint is done only once (by the "
    "main process), or pin one before that staging directory; save checkpoints only on the main process "
    "(should_save), with save_on_each_node only where output_dir is each node's local disk; remove the existing "
    "checkpoint-N and tmp-checkpoint-* directories (or use a fresh output_dir) before resuming. ")

# a directory under a checkpoint path created where it already exists, no rename ("[Errno 17] File exists:
# '.../checkpoints/flow'"): every rank running the same mkdir (round 110's videotuna-45)
_R_CKPT_DIR_EXISTS = re.compile(r"\bFile exists: ['\"][^'\"\n]{0,600}\b(?:checkpoints?|ckpts?)\b[^'\"\n]{0,200}"
                                r"['\"](?!\s*->)")
_CKPT_DIR_FIX = (
    "A checkpoint directory was created where it already exists: with several processes, every rank runs the same "
    "mkdir and all but the first find it there. Create the checkpoint directory with os.makedirs(..., "
    "exist_ok=True), and on rank 0 only (trainer.is_global_zero / rank_zero_only), with a barrier before the other "
    "ranks use it; a run directory named by a clock must be named once and broadcast from rank 0. ")

# llm-foundry's / composer's signal files ("._signal_file_node0_AB12CD", in the working directory): the local leader
# writes and removes one per node; another node's leader sharing the directory (a shared filesystem), or a stale run,
# removed it first (round 110's llm-foundry-1848)
_R_SIGNAL_FILE = re.compile(r"No such file or directory: ['\"][^'\"\n]{0,600}\._signal_file_")
_SIGNAL_FILE_FIX = (
    "The '._signal_file_*' file is llm-foundry's / composer's marker that a node's local rank 0 finished a download "
    "(the tokenizer), written in the working directory and removed after: on a shared filesystem every node's "
    "leader uses the same directory, and one removed the file before the other. Run from a node-local working "
    "directory, or make the signal file path unique per node / not on a shared filesystem; remove stale "
    "._signal_file_* files from the working directory; pre-download the tokenizer before launching so no signal "
    "file is needed; upgrade llm-foundry. ")

# a file of the Hugging Face hub cache missing (".../hub/models--org--name/snapshots/<rev>/..."): a snapshot not
# downloaded, or half downloaded, on the node this rank runs on (a node-local cache; round 110's milabench-281)
_R_HF_HUB_MISSING = re.compile(r"No such file or directory:?\s{0,4}['\"]?[^'\"\n]{0,600}/models--[\w.\-]{1,200}"
                               r"/snapshots/")
_HF_HUB_FIX = (
    "The missing file is in the Hugging Face hub cache (models--*/snapshots/): the model's snapshot is missing or "
    "incomplete in the cache this rank reads -- a cache on a node-local disk (/tmp) that was filled on another node, "
    "or a download cut short or racing another process's. Pre-download the model into the Hugging Face cache once "
    "before launching (huggingface-cli download), on every node when HF_HOME is node-local; or let local rank 0 of "
    "each node download first and the others wait (main_process_first); delete the incomplete snapshot and "
    "re-download; set HF_HUB_OFFLINE=1 once the cache is complete. ")

# the partial results mmcv's / mmengine's collect_results_cpu reads back ("<tmpdir>/part_2.pkl", ".eval_hook" under
# work_dir): another rank dumped it to its own machine's disk, which the collecting process does not see without a
# shared tmpdir (round 110's mmsegmentation-1713)
_R_EVAL_PART = re.compile(r"No such file or directory: ['\"][^'\"\n]{0,600}/part_\d{1,5}\.pkl['\"]")
_EVAL_PART_FIX = (
    "part_N.pkl is a rank's partial evaluation results that the collecting process (rank 0, collect_results_cpu) "
    "reads from a temporary directory: the rank that wrote it runs on a machine whose disk this one does not see. "
    "Put the eval tmpdir on a filesystem shared by all nodes (or use gpu_collect=True): gpu_collect gathers the "
    "results with all_gather instead of files; or mount the same work_dir on every machine; delete a stale "
    ".eval_hook directory before evaluating. ")

# a log file opened for writing whose directory does not exist ("No such file or directory: '.../train_<clock>.log'":
# logging.FileHandler opening it creates the file, not the directories above it; round 110's openpcdet)
_R_LOG_FILE_MISSING = re.compile(r"No such file or directory: ['\"][^'\"\n]{0,600}\.log['\"]")
_LOG_FILE_FIX = (
    "The missing path is a log file the process opens to write: opening it creates the file, not the directories "
    "above it, so its output directory does not exist (or is not writable) where this process runs. Create the "
    "output/log directory before opening the log file (os.makedirs(..., exist_ok=True)), on rank 0 first with a "
    "barrier; check that the output path exists and is writable, and run from the directory the paths are "
    "relative to. ")

# torch.load's unpickler finding no bytes ("EOFError: Ran out of input" under torch/serialization.py's _load /
# _legacy_load): the file it opened is empty or cut short (a save that failed, was interrupted or is still being
# written by another process; a download left incomplete). Only with torch.load's own frames: the same words from a
# spawned child unpickling its parent's data are no file (round 110's pytorch-27043, vfiformer-13)
_R_RAN_OUT = re.compile(r"\bEOFError: Ran out of input\b")
_R_TORCH_LOAD_FRAME = re.compile(r"\btorch[/\\]serialization\.py\b")
_EOF_LOAD_FIX = (
    "'Ran out of input' in torch.load is the unpickler finding the file empty or cut short: the checkpoint was "
    "saved by a run that failed or was interrupted (or a disk that filled), is still being written by another "
    "process, or the path names a placeholder (a git-lfs pointer, a partial download). Verify the path and file "
    "size (ls -l; check the disk was not full when the checkpoint was saved), re-download or re-save the file, and "
    "avoid reading a checkpoint while another process writes it: rank 0 saves, a dist.barrier, then the others "
    "load. ")

# distributed PyTorch-BigGraph's checkpoint files (embeddings_*.h5 under checkpoint_path) opened where they do not
# exist: every trainer machine reads and writes them in one directory (round 110's pytorch-biggraph-142)
_R_ENOENT_ANY = re.compile(r"No such file or directory|errno = 2\b")
# PBG's own name for a partition's checkpoint, "embeddings_<entity>_<part>.v<version>.h5": the file says whose it is
# where the traceback's frames (torchbiggraph's) are not shown or were cut
_R_PBG_CKPT = re.compile(r"/embeddings_[^'\"/\n]{1,200}_\d{1,5}\.v\d{1,9}\.h5\b")
_PBG_FIX = (
    "Distributed PyTorch-BigGraph reads and writes every partition's checkpoint (embeddings_*.h5) in checkpoint_path "
    "from all its trainer machines: put the checkpoint_path on a filesystem every trainer machine shares (NFS, "
    "shared storage), mounted at the same path on each, or train single-machine if no shared filesystem is "
    "available; start from a clean checkpoint directory. ")

# MosaicML streaming's shard files ("<local>/shard.00085.mds.zstd"): decompressing a shard removes its compressed
# file, and another process sharing that local cache (another node on a shared filesystem, another job) did it first
# (round 110's streaming-400)
_R_STREAM_SHARD = re.compile(r"No such file or directory: ['\"][^'\"\n]{0,600}/shard\.\d{3,6}\.mds"
                             r"(?:\.\w{1,6})?['\"]")
_STREAM_SHARD_FIX = (
    "The missing file is a MosaicML streaming shard in its local cache: decompressing a shard removes its compressed "
    "file, and another process using the same local directory (another node on a shared filesystem, another job) "
    "did it first. Give each node (and each job) its own local cache directory instead of a shared one, on "
    "node-local disk; set keep_zip=True to avoid the remove/decompress race; clean stale shared memory and cache "
    "before the run (streaming.base.util.clean_stale_shared_memory); upgrade mosaicml-streaming. ")

# evaluate's (and datasets' Metric's) cross-process rendezvous over lock files in its cache directory ("Couldn't
# acquire lock on .../exp-rdv.lock from process 4", "Expected to find locked file .../exp-0.arrow.lock from process
# 15 but it doesn't exist"): every process of the metric takes and checks the others' lock files (round 110's
# evaluate-481)
_R_METRIC_LOCK = re.compile(r"\bCouldn't acquire lock on \S{1,600}\.lock from process \d{1,7}\b"
                            r"|\bExpected to find locked file \S{1,600}\.lock from process \d{1,7} "
                            r"but it doesn't exist")
_METRIC_LOCK_FIX = (
    "The metric's processes meet over lock files in its cache directory (evaluate's / datasets' cross-process "
    "rendezvous: each process locks its own .arrow.lock and checks the others'), and one did not find or could not "
    "take another's lock -- the cache is not shared by every node, its file locks do not work across nodes, or "
    "num_process / process_id do not match the processes. Gather the predictions to rank 0 (accelerator.gather / "
    "gather_for_metrics, or torch.distributed) and compute the metric only there; or put the metric cache_dir on a "
    "filesystem shared by all nodes, with working locks, and set num_process and process_id to the global world "
    "size and rank, with a unique experiment_id; clear stale lock files in the cache directory. ")


def fix_for(texts: list[str], pkgs: str = "") -> list[str]:
    """The remedies, in order, for the exception and failure lines ``texts`` (an exception's text with its frames'
    files after it, where the reader kept them); ``pkgs``: the packages the tracebacks' frames name."""
    joined = "\n".join(texts)
    out: list[str] = []

    def add(fix: str) -> None:
        if fix not in out:
            out.append(fix)

    if "File exists" in joined:
        if _R_INCOMPLETE.search(joined):
            add(_INCOMPLETE_FIX)
        if _R_TMP_CKPT_RENAME.search(joined):
            add(_TMP_CKPT_FIX)
        elif _R_CKPT_DIR_EXISTS.search(joined):
            add(_CKPT_DIR_FIX)
    if "Permission denied" in joined and _R_ROOT_HOME_CACHE.search(joined):
        add(_ROOT_HOME_FIX)
    if "No such file" in joined or "errno = 2" in joined:
        for r, fix in ((_R_SIGNAL_FILE, _SIGNAL_FILE_FIX), (_R_HF_HUB_MISSING, _HF_HUB_FIX),
                       (_R_EVAL_PART, _EVAL_PART_FIX), (_R_STREAM_SHARD, _STREAM_SHARD_FIX),
                       (_R_LOG_FILE_MISSING, _LOG_FILE_FIX)):
            if r.search(joined):
                add(fix)
        if ("torchbiggraph" in pkgs or _R_PBG_CKPT.search(joined)) and _R_ENOENT_ANY.search(joined):
            add(_PBG_FIX)
    if "Ran out of input" in joined:
        for t in texts:
            if _R_RAN_OUT.search(t) and _R_TORCH_LOAD_FRAME.search(t):
                add(_EOF_LOAD_FIX)
    if "lock" in joined and _R_METRIC_LOCK.search(joined):
        add(_METRIC_LOCK_FIX)
    return out
