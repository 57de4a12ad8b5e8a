"""Trackers and loggers: an experiment tracker's or a logger's own failure (wandb's "wandb: ERROR ..." lines, a
log directory os.makedirs found already there, an object pickle refused), read from the lines that say so.

No cause class covers a tracker's own error (lead rules BG (1), BJ (2)): the verdict's cause and ranks stay what the
reading of the failure says (unknown, culprits [] where every process failed alike: rules J, AX (4), AC (1)), and
these lines only give its fix the remedy an expert names for them -- where they are the failure the verdict reads
(its quoted or cited line, or the failure beside a launcher's report that names none: verdict._unknown_remedies), never
in front of a crash's own fix:

- wandb's own error line ("wandb: ERROR Error communicating with wandb process"): the tracker failed in its own code,
  not a collective -- confirm with WANDB_MODE=disabled, start it on rank 0 only, make its start robust (TRACKER_FIX,
  also verdict.tracker_setup's); "Problem finishing run" is its exit-time finish (atexit), after training: call
  wandb.finish() before the job's stdout tee / log file is closed and restore sys.stdout/sys.stderr before exit
  (round 90's gpt-neox-216);
- a FileExistsError ("[Errno 17] File exists: '...'"): os.makedirs without exist_ok met a directory already there --
  an earlier run's or another process's: os.makedirs(exist_ok=True); a race between processes only where two or more
  are shown making it (two such lines, processes shown failing, a spawned worker's frames): create it once on rank 0
  or a directory per rank (round 90's reagent-214). A name directly under the root is a shared-memory block's clash
  (signatures.R_SHM_EXISTS), not a directory;
- pickle refusing an object ("Can't pickle local object 'SummaryTopic.__init__.<locals>.default'", "cannot pickle
  '_thread.lock' object"): with a process start's frames beside it (ForkingPickler, popen_spawn, process.py start,
  torch's spawn / start_processes, ddp_spawn; parse marks them) the spawn start method pickles what every worker is
  started with -- make the object picklable, create the tracker inside each worker, or launch by script (round 90's
  comet-ml-352); under the DataLoader creating its iterator, what its workers are sent; without them -- a spawned
  child's own traceback (torch's _wrap: a torch.save in the child), the single-process iterator's __next__ (the
  dataset's own pickle.dumps), torch.save of a module holding a lambda, copy.deepcopy -- the object itself must be
  picklable: save the state_dict(), not the module (review 35b #5).
- the W&B API refusing the run's access ("<Response [403]>", "(Error 403: Forbidden)", 401): the entity / project /
  API key's -- check them, wandb login --relogin, WANDB_MODE=offline to confirm (review 35b #6).

Not read so: wandb's warnings and its login prompt (rules K, BU (2)), a tracker's HTTP retries ("Error while calling
W&B API ... <Response [500]>", 429, "retrying": rule T), a FileNotFoundError (a path that is missing, read by
launch._spawned_path_missing and others).
"""

from __future__ import annotations

import re

# wandb's own logger at its ERROR level ("wandb: ERROR Problem finishing run", "wandb: ERROR Error communicating with
# wandb process"): the one pattern and remedy for it (verdict.tracker_setup reads its start-up shapes with them); the
# literal ERROR is in load.TRIGGERS
R_TRACKER_ERROR = re.compile(r"\bwandb: ERROR \S")
R_WANDB_FINISH = re.compile(r"\bwandb: ERROR Problem finishing run\b")
# its retries of the W&B API over HTTP ("wandb: ERROR Error while calling W&B API: ... (<Response [500]>)", "Network
# error (ReadTimeout), entering retry loop"): noise the tracker retries on its own (rule T), no failure of the job --
# a server's error (5xx) or its rate limit (429) only: a 4xx other than 429 (403 / 401: a wrong entity, project or API
# key) is not retried, the tracker's own error (R_TRACKER_DENIED; review 35b #6)
R_TRACKER_RETRY = re.compile(r"<Response \[(?:5\d\d|429)\]>|\bretry(?:ing| loop)\b"
                             # and its login prompt's answer to a choice typed at it ("wandb: ERROR Invalid choice"):
                             # the prompt's, read by rules K, T and BU (2), not a failure of the tracker's code
                             r"|\bwandb: ERROR Invalid choice\b")
# the W&B API refusing the run's credentials or access ("permission denied (<Response [403]>)", "(Error 403:
# Forbidden)" of its CommError, 401 Unauthorized): the entity / project / API key's, which wandb does not retry
# (WANDB_DENIED_FIX; on wandb's ERROR line or its exception: the traceback's last line is the failure read)
R_TRACKER_DENIED = re.compile(r"<Response \[40[13]\]>|\(Error 40[13]: ")
R_FILE_EXISTS = re.compile(r"\bFileExistsError\b|\[Errno 17\] File exists\b")
# a name directly under the root ("File exists: '/000010_locals'"): a shared-memory block's name clashing
# (signatures.R_SHM_EXISTS, read by its own family), not a directory os.makedirs made
R_SHM_NAME = re.compile(r"File exists: '/[^'/\n]{1,255}'")
# the frames of a process start that pickles what it sends a worker (multiprocessing's ForkingPickler in reduction.py,
# popen_spawn_*.py, its spawn.py or torch's, Lightning's ddp_spawn), or torch's DataLoader, whose iterator starts its
# workers through them: parse marks a pickle or FileExistsError line read next to one (the event's data "mp_frame":
# "loader" for the DataLoader's, "spawn" otherwise)
R_MP_FRAME = re.compile(r"(?P<child>\btorch[/\\]multiprocessing[/\\]spawn\.py\b)"
                        r"|multiprocessing[/\\](?:reduction|popen_spawn\w{0,12}|spawn|context|process)\.py\b"
                        r"|\bddp_spawn\b|\bForkingPickler\b|(?P<loader>\butils[/\\]data[/\\]dataloader\.py\b)")
# a frame's function (parse._mp_kind): which of torch's spawn.py or the DataLoader's frames it is
R_FRAME_FUNC = re.compile(r'", line \d{1,7}, in (\w{1,80})')

TRACKER_FIX = ("The experiment tracker's own error (its ERROR line: the tracker's code, not a collective): confirm "
               "with the tracker off (WANDB_MODE=disabled, or WANDB_MODE=offline to keep the run's logs; drop the "
               "tracker's flag, such as --wandb-project), start the wandb run on rank 0 only (wandb.init under rank == "
               "0), then make its start robust: wandb.init(settings=wandb.Settings(start_method=\"thread\")) or a "
               "longer init_timeout (WANDB__SERVICE_WAIT / init_timeout), upgrade / pin wandb, WANDB_DIR on a "
               "writable local disk, network access to api.wandb.ai from the node; guard the tracker -- wrap "
               "wandb.init in try/except on the rank that starts it, so the other ranks are not left waiting. ")
WANDB_FINISH_FIX = ("wandb's 'Problem finishing run' is its exit-time finish (atexit cleanup), after training: the run "
                    "had finished and its checkpoints are written. Call wandb.finish() before the logger's stdout tee "
                    "(a log file wrapping sys.stdout) is closed, restore sys.stdout/sys.stderr before exit, or upgrade "
                    "wandb; WANDB_CONSOLE=off stops wandb's console capture that writes through that stream, and "
                    "WANDB_MODE=disabled confirms the job ends cleanly without the tracker. ")
WANDB_DENIED_FIX = ("The W&B API refused the run's access (403 Forbidden / 401 Unauthorized: a permission, not a "
                    "network retry): check that the entity and project in wandb.init (entity=, project=, or "
                    "WANDB_ENTITY / WANDB_PROJECT) exist and that this account may write to them, and that the API "
                    "key is that account's (WANDB_API_KEY, or wandb login --relogin); WANDB_MODE=offline confirms the "
                    "job runs without the tracker. ")
EXISTS_FIX = ("FileExistsError: the directory already exists (an earlier run, or another process) and os.makedirs "
              "was called without exist_ok: use os.makedirs(exist_ok=True), or clear / rename the output directory "
              "first when an earlier run's files must not be reused. ")
RACE_FIX = ("More than one process makes it here (spawned workers, ranks): every process creating the same path at "
            "once is a race condition between processes -- create the directory once on rank 0 before the others use "
            "it (then a barrier), or a unique log directory per rank (the rank in the path). ")
WRITER_FIX = ("A tensorboard log_dir made by every process: create the SummaryWriter / log dir only on rank 0, or "
              "upgrade tensorboardX (its directory_check tolerant of an existing directory). ")

# pickle's refusal, with or without its exception class ("AttributeError: Can't pickle local object 'f.<locals>.g'",
# "TypeError: cannot pickle '_thread.lock' object"); generic.R_FAILURE_WORD holds it too; the literal "t pickle" is in
# load.TRIGGERS
CANT_PICKLE = r"\b(?:Can't|[Cc]annot) pickle\b"
R_CANT_PICKLE = re.compile(CANT_PICKLE)
PICKLE_FIX = ("pickle could not send an object to the spawned workers: the spawn start method (mp.spawn, ddp_spawn) "
              "pickles every argument the workers start with -- the model and what it holds, a logger / tracker "
              "attached to it -- and one holds a local function, a lambda, a lock or a connection. Make the object "
              "picklable (module-level function instead of local function/lambda), create the logger / tracker "
              "inside each worker (on rank 0 only), or avoid mp.spawn pickling the model: launch by script (torchrun; "
              "Lightning's strategy ddp instead of ddp_spawn); drop the logger to confirm. ")
LOADER_PICKLE_FIX = ("pickle could not send the DataLoader's workers what they start with: under the spawn start "
                     "method (the default on macOS and Windows, or mp.set_start_method('spawn')) each worker is sent "
                     "the dataset, its collate_fn and worker_init_fn pickled, and one holds a local function, a "
                     "lambda, a lock or an open file / connection. Make them picklable (module-level function "
                     "instead of local function/lambda; open files and handles inside the worker, in __getitem__ or "
                     "worker_init_fn), and num_workers=0 confirms it. ")
PICKLE_SAVE_FIX = ("pickle could not serialise an object (a lambda, a local function, a lock or an open connection the "
                   "saved or copied object holds): torch.save of a whole module, copy.deepcopy or pickle.dump pickles "
                   "everything it holds -- save the model's state_dict() (torch.save(model.state_dict(), path)), not "
                   "the module, or make the object picklable (module-level function instead of local "
                   "function/lambda). ")
# the object pickle refused named (round 110's icefall-pr284, pytorch-distributed-tczhangzhi-20): a local object
# ("Can't pickle local object 'DataModule.train_dataloaders.<locals>.worker_init_fn'") is a function defined inside
# another one, which pickle cannot store by name -- whatever pickles it (spawn sending a worker, torch.save); a
# function pickle looked up by name in __main__ and did not find ("Can't pickle <function main_worker at 0x..>:
# attribute lookup main_worker on __main__ failed") is one the running __main__ does not hold under that name: the
# script run where __main__ is not its file (an IDE console, a notebook, exec) or the function defined in a nested
# scope -- the spawn start method sends the worker function (mp.spawn's target) that way
R_PICKLE_LOCAL = re.compile(r"\bpickle local object '(?:[\w.]{0,200}\.)?<locals>\.(?P<name>[A-Za-z_]\w{0,80})'")
R_PICKLE_MAIN_LOOKUP = re.compile(r"\battribute lookup (?P<name>[A-Za-z_]\w{0,80}) on __main__ failed\b")
PICKLE_LOCAL_FIX = ("{name} is a local object (defined inside another function, or a lambda), which pickle cannot "
                    "store by name: define {name} at module level (not a local function), or use functools.partial "
                    "of a module-level function; num_workers=0 (DataLoader workers) or the fork start method avoids "
                    "pickling it. ")
PICKLE_MAIN_LOOKUP_FIX = (
    "pickle stores a function by its module and name, and {name} is not found in the running __main__ (the spawn "
    "start method sends the worker function of mp.spawn / multiprocessing that way): the script ran where __main__ is "
    "not its file (an IDE console or runner, a notebook, exec), or {name} is defined in a nested scope. Run the script "
    "as a file (python script.py); define {name} at module top level in an importable .py file, not in a "
    "notebook/IPython or a nested scope; keep the mp.spawn call under if __name__ == '__main__':; or launch with "
    "torchrun / torch.distributed.launch instead of mp.spawn. ")
# spawned children dying as they read their start-up data from the parent (multiprocessing's spawn_main -> _main ->
# reduction.pickle.load(from_parent): "_pickle.UnpicklingError: pickle data was truncated"): the parent stopped
# sending it mid-way -- it died (the OOM killer) or failed while pickling; the children are its consequence (lead rule
# BS (5); round 110's pytorch-47489, mmdetection-5301, pick-benchmark-9). Only in a spawned child's own traceback
# (parse's spawn_tb: its spawn_main frame): torch.load of a checkpoint file cut short says the same words
R_PICKLE_TRUNCATED = re.compile(r"\bUnpicklingError: pickle data was truncated\b")
PICKLE_TRUNCATED_FIX = (
    "'pickle data was truncated' in a spawned child (spawn_main -> pickle.load(from_parent)) is the child reading its "
    "start-up data from the parent and finding it cut off: the parent stopped sending it mid-way. Find the parent "
    "process's own error (it died or failed while writing the spawn data): check its traceback, dmesg for the OOM "
    "killer (a parent killed while pickling a large dataset or model for each child); reduce what is pickled to the "
    "children (large datasets/objects in args) or build them inside the worker; set DataLoader num_workers=0 or use "
    "the fork start method to test; check /dev/shm and host memory (check /dev/shm size in a container: docker "
    "--shm-size). ")


def tracker_error(text: str) -> bool:
    """The tracker's own ERROR line, not its HTTP retries (rule T) nor its login prompt's "Invalid choice"."""
    return "wandb: ERROR" in text and bool(R_TRACKER_ERROR.search(text)) and not R_TRACKER_RETRY.search(text)


def fix_for(lines: list[tuple[str, dict]], procs: int = 0) -> list[str]:
    """The tracker's or logger's remedies for the failure lines read (``lines``: each line's text and its event's
    data; the caller passes only the failure the verdict reads), in order; ``procs``: how many processes the lines
    show failing."""
    fix: list[str] = []
    texts = [t for t, _ in lines]
    denied = any("wandb" in t and R_TRACKER_DENIED.search(t) for t in texts)
    if denied or any(tracker_error(t) for t in texts):
        fix.append(WANDB_DENIED_FIX if denied else WANDB_FINISH_FIX if any(R_WANDB_FINISH.search(t) for t in texts)
                   else TRACKER_FIX)
    exists = [(t, d) for t, d in lines if ("FileExists" in t or "Errno 17" in t) and R_FILE_EXISTS.search(t)
              and not R_SHM_NAME.search(t)]
    if exists:
        fix.append(EXISTS_FIX)
        if procs >= 2 or len(exists) >= 2 or any(d.get("mp_frame") for _, d in exists):
            fix.append(RACE_FIX)
        if any("tensorboard" in t.lower() for t, _ in exists):
            fix.append(WRITER_FIX)
    pickle = [d for t, d in lines if "pickle" in t and R_CANT_PICKLE.search(t)]
    if pickle:
        frames = {d.get("mp_frame") for d in pickle}
        fix.append(LOADER_PICKLE_FIX if "loader" in frames else PICKLE_FIX if "spawn" in frames else PICKLE_SAVE_FIX)
        for t in texts:
            if (m := R_PICKLE_LOCAL.search(t)) and (f := PICKLE_LOCAL_FIX.format(name=m["name"])) not in fix:
                fix.insert(0, f)
            if (m := R_PICKLE_MAIN_LOOKUP.search(t)) and (
                    f := PICKLE_MAIN_LOOKUP_FIX.format(name=m["name"])) not in fix:
                fix.insert(0, f)
    if any("truncated" in t and R_PICKLE_TRUNCATED.search(t) and d.get("spawn_tb") for t, d in lines):
        fix.append(PICKLE_TRUNCATED_FIX)
    return fix
