"""Trackers and loggers: an experiment tracker's or a logger's own failure (wandb's "wandb: ERROR ..." lines, a
tensorboard writer's log directory made by several processes at once, a logger spawn cannot pickle), read from the
lines that say so.

No cause class covers a tracker's own error (lead rules BG (1), BJ (2)): the verdict's cause and ranks stay what the
reading of the failure says (unknown, culprits [] where every process failed alike: rules J, AX (4), AC (1)), and
these lines only give its fix the remedy an expert names for them:

- wandb's own error line ("wandb: ERROR Problem finishing run", its traceback below): the tracker failed in its own
  code, not a collective -- start it on rank 0 only, upgrade wandb, WANDB_MODE=disabled to confirm; "Problem
  finishing run" is its exit-time finish (atexit), after training: call wandb.finish() before the job's stdout tee /
  log file is closed and restore sys.stdout/sys.stderr before exit (round 90's gpt-neox-216);
- a FileExistsError ("[Errno 17] File exists: '...'"): os.makedirs without exist_ok on a directory another process
  made a moment earlier -- every process creating one shared path (a tensorboard SummaryWriter's log_dir, a
  checkpoint folder) races: os.makedirs(exist_ok=True), create it once on rank 0 (then a barrier), or a directory per
  rank (round 90's reagent-214);
- pickle refusing an object ("Can't pickle local object 'SummaryTopic.__init__.<locals>.default'", "cannot pickle
  '_thread.lock' object"): the spawn start method (torch.multiprocessing.spawn, Lightning's ddp_spawn) pickles what
  every worker is started with -- the model and what it holds, a logger / tracker attached to the trainer -- and one
  of them holds a local function, a lambda, a lock or a connection: make the object picklable (module-level function
  instead of local function/lambda), create the tracker inside each worker (on rank 0 only), or launch by script
  (torchrun, Lightning's strategy ddp instead of ddp_spawn) so nothing is pickled (round 90's comet-ml-352).

Not read so: wandb's warnings and its login prompt (rules K, BU (2)), a tracker's HTTP retries (rule T), a
FileNotFoundError (a path that is missing, read by launch._spawned_path_missing and others).
"""

from __future__ import annotations

import re

# wandb's own logger at its ERROR level ("wandb: ERROR Problem finishing run", "wandb: ERROR api_key not configured");
# the literal ERROR is in load.TRIGGERS
R_WANDB_ERROR = re.compile(r"\bwandb: ERROR\b")
R_WANDB_FINISH = re.compile(r"\bwandb: ERROR Problem finishing run\b")
R_FILE_EXISTS = re.compile(r"\bFileExistsError\b|\[Errno 17\] File exists\b")

WANDB_FIX = ("wandb's own error (the tracker's code, not a collective): start the wandb run on rank 0 only "
             "(wandb.init under rank == 0), upgrade wandb, and WANDB_MODE=disabled (or WANDB_CONSOLE=off) to confirm "
             "the job runs without it. ")
WANDB_FINISH_FIX = ("wandb's 'Problem finishing run' is its exit-time finish (atexit cleanup), after training: the run "
                    "had finished and its checkpoints are written. Call wandb.finish() before the logger's stdout tee "
                    "(a log file wrapping sys.stdout) is closed, restore sys.stdout/sys.stderr before exit, or upgrade "
                    "wandb. ")
EXISTS_FIX = ("FileExistsError: os.makedirs without exist_ok met a directory another process had made a moment "
              "earlier -- every process creating the same path at once, a race condition between processes (spawned "
              "workers, ranks): use os.makedirs(exist_ok=True), create the directory once on rank 0 before the others "
              "use it (then a barrier), or a unique log directory per rank (the rank in the path). ")
WRITER_FIX = ("A tensorboard log_dir made by every process: create the SummaryWriter / log dir only on rank 0, or "
              "upgrade tensorboardX (its directory_check tolerant of an existing directory). ")

# pickle's refusal, with or without its exception class ("AttributeError: Can't pickle local object 'f.<locals>.g'",
# "TypeError: cannot pickle '_thread.lock' object"); the literal "t pickle" is in load.TRIGGERS
R_CANT_PICKLE = re.compile(r"\b(?:Can't|[Cc]annot) pickle\b")
PICKLE_FIX = ("pickle could not send an object to the spawned workers: the spawn start method (mp.spawn, ddp_spawn) "
              "pickles every argument the workers start with -- the model and what it holds, a logger / tracker "
              "attached to it -- and one holds a local function, a lambda, a lock or a connection. Make the object "
              "picklable (module-level function instead of local function/lambda), create the logger / tracker "
              "inside each worker (on rank 0 only), or avoid mp.spawn pickling the model: launch by script (torchrun; "
              "Lightning's strategy ddp instead of ddp_spawn); drop the logger to confirm. ")


def fix_for(texts: list[str]) -> str:
    """The tracker's or logger's remedy for the failure lines ``texts`` (exceptions, lines no family reads), or ''."""
    fix = ""
    if any("wandb: ERROR" in t and R_WANDB_ERROR.search(t) for t in texts):
        fix += WANDB_FIX
        if any(R_WANDB_FINISH.search(t) for t in texts):
            fix += WANDB_FINISH_FIX
    exists = [t for t in texts if ("FileExists" in t or "Errno 17" in t) and R_FILE_EXISTS.search(t)]
    if exists:
        fix += EXISTS_FIX + (WRITER_FIX if any("tensorboard" in t.lower() for t in exists) else "")
    if any("pickle" in t and R_CANT_PICKLE.search(t) for t in texts):
        fix += PICKLE_FIX
    return fix
