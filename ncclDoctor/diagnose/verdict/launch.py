"""The launch itself wrong (config, no rank): a launcher's arguments the script refuses (several workers' exit code
2), the launcher's own set-up check, a framework's check of the job's settings or of a package they need, a module
not installed, NCCL absent, a watchdog timeout of a few seconds, a
library's version that cannot start the launch mode the settings ask for."""

from __future__ import annotations

import re

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.generic import PARALLEL_UNFIT_FIX, R_PARALLEL_UNFIT, parallel_dim_words
from ncclDoctor.diagnose.lone import lone_failure
from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.signatures import strip_prefixes
from ncclDoctor.diagnose.state import QUIET_KINDS, Collected
from ncclDoctor.diagnose.verdict.base import (
    Verdict,
    exception_frame_texts,
    horovod_framework_flag,
    horovod_rebuild,
    jit_cache_shared,
    legacy_launch_shown,
)
from ncclDoctor.diagnose.verdict.noise import finished, harmless_warn


def _launch_arg(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """argparse ending a worker (exit code 2) on the local-rank argument the launcher passes or leaves out: a
    launcher/script mismatch of the job's set-up (config) that every worker hits; the rank the launcher's record
    shows failing is named by lead rule A."""
    evs = c.samples.get("launch_arg", [])
    if not evs:
        return None
    # argparse's own "error:" line, where shown, says what it refused: a usage print read from the command line alone
    # (its error line cut off, ``cut``) steps aside for it
    e = next((x for x in evs if not x.data.get("cut")), evs[0])
    if e.data.get("opts"):
        return _opts_malformed(e, evs)
    lone = lone_failure(c)
    ranks: list[int] = []  # lead rules Q and U (2): every worker is launched the same way, the record's rank too
    if e.data.get("crlf"):
        return Verdict(
            "config", "the interpreter could not open the script it was launched with, and the message is printed "
            "over itself (\"': [Errno 2] No such file or directory\" over \"python: can't open file '...\"): the "
            "script path ends in a carriage return ('\\r'), from a launch script saved with Windows CRLF line "
            "endings -- every worker is started with that same path (exit code 2), a launch setting of the job, not "
            "a fault of any rank", "Convert the launch script to Unix line endings (dos2unix run.sh, or sed -i "
            "'s/\\r$//' run.sh; the editor's LF setting, git's core.autocrlf), so the script path it passes has no "
            "trailing '\\r'; check the path exists from the directory the launcher is run in, then relaunch.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if e.data.get("folder"):
        return _script_a_folder(e, evs)
    if e.data.get("script") and e.data["arg"][:1] in TYPO_DASHES:
        return _option_as_script(e, evs)
    if e.data.get("script") and S.R_INTERPRETER_NAME.match(e.data["arg"].replace("\\", "/").rsplit("/", 1)[-1]):
        return _interpreter_as_script(e, evs)
    if e.data.get("script"):
        return Verdict(
            "config", f"the interpreter could not open the script it was launched with ('{e.data['arg'][:200]}': "
            "No such file or directory) and exited with code 2: every worker is started with that same path, a "
            "launch setting of the job, not a fault of any rank", "Give the launcher the right script path (relative "
            "paths are resolved from the directory the launcher is run in: cd to the repository or pass the full "
            "path), then relaunch; check the file exists on every node.", "high", [], [x.brief() for x in evs[:2]],
            job_wide=True)
    if e.data.get("module"):
        return _no_module_spec(e, evs, "Windows store connect warning" in {
            x.data.get("what") for x in c.samples.get("benign", [])})
    if e.data.get("usage_cut") or e.data.get("headless"):
        return _usage_cut(e, evs)
    if e.data.get("usage"):
        return _usage_error(e, evs)
    said = ("the script requires " + e.data["arg"] + " but the launcher (torchrun) passes no such argument"
            if e.data["missing"] else
            "the launcher passed " + e.data["arg"] + "=N and the script's argparse does not accept that spelling")
    return Verdict(
        "config",
        f"{lone.who + ' exited' if lone is not None else 'the worker exited'} with argparse's usage error: {said} "
        "-- a mismatch between the launcher and the script that every worker hits, not a fault of the run",
        _local_rank_fix(e.data["missing"]),
        "high", ranks, [x.brief() for x in evs[:2]], job_wide=True)


def _local_rank_fix(missing: bool) -> str:
    """The fix for argparse refusing the launcher's local-rank argument. 'Required' (the script demands --local_rank
    and the launcher passed none): the argument must become optional -- parse_known_args would not help, the required
    argument is still absent. 'Unrecognized' (the launcher passed a spelling the script lacks): the script must accept
    it, or ignore it with parse_known_args, or be launched by torchrun, which passes none."""
    said = ("argparse's 'the following arguments are required' (its usage error, exit code 2) names the argument. "
            if missing else "argparse's 'unrecognized arguments' (its usage error, exit code 2) names the argument. ")
    launchers = ("torch.distributed.launch of torch >= 2.0 passes --local-rank=N (older ones and DeepSpeed's launcher "
                 "--local_rank=N), torchrun passes none and sets the LOCAL_RANK env variable: ")
    both = ("accept both spellings (parser.add_argument('--local-rank', '--local_rank', type=int, dest='local_rank', "
            "default=int(os.environ.get('LOCAL_RANK', 0))))")
    if missing:
        return (said + launchers + "make the argument optional, its default read from the environment (drop "
                "required=True and " + both + "), or read LOCAL_RANK from os.environ (int(os.environ['LOCAL_RANK'])) "
                "in the script; or launch with the launcher the script was written for (python -m "
                "torch.distributed.launch without --use_env / --use-env, which passes it): a launcher / script "
                "argument mismatch.")
    return (said + launchers + "read LOCAL_RANK from os.environ (int(os.environ['LOCAL_RANK'])) in the script, or "
            + both + ", or use parse_known_args so the launcher's extra argument is ignored; or launch with torchrun "
            "(torch.distributed.launch --use-env; --use_env on torch < 2.0, which passes no --local_rank either): a "
            "launcher / script argument mismatch.")


def _interpreter_as_script(e, evs: list) -> Verdict:
    """Lead rules Q, U (2) (round 105's llamafactory-1212): the script the interpreter could not open is named like
    an interpreter ("python3.8: can't open file 'python'"): the launch command was written with the interpreter
    before the script ("accelerate launch python train.py", "torchrun --nproc_per_node 2 python train.py"), and the
    launcher, which starts the interpreter itself, took that word for the script. Every worker is started so: config,
    culprits []."""
    arg = e.data["arg"][:200]
    return Verdict(
        "config", f"the interpreter could not open the script it was launched with ('{arg}': No such file or "
        "directory) and exited with code 2: that path is an interpreter's name, so the launch command passed "
        f"'{arg}' where the script path belongs (e.g. 'accelerate launch python train.py', 'torchrun ... python "
        "train.py') -- every worker is started with it, a launch setting of the job, not a fault of any rank",
        f"Fix the launch command: don't pass the interpreter name as the script -- remove the stray '{arg}' after the "
        "launcher, whose first argument is the script path (accelerate launch train.py ..., torchrun "
        "--nproc_per_node N train.py ..., python -m torch.distributed.run ... train.py); the launcher starts its own "
        "Python for every worker. Then relaunch.", "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _opts_malformed(e, evs: list) -> Verdict:
    """Lead rules U (2), Q (round 101's maskrcnn-benchmark-1075): a launcher's record of the worker command it ran
    shows the script's trailing config overrides (yacs' merge_from_list of args.opts) not forming KEY VALUE pairs
    (signatures.opts_malformed: an odd count, or a word in a key's place that is no config key, top-level as
    OUTPUT_DIR or dotted as SOLVER.BASE_LR -- such as a formula 'images_per_gpu x 1000' pasted literally).
    Every worker is launched with the same arguments and fails merging them, so the worker the record quotes (its
    --local_rank) is no culprit: config, culprits []."""
    opts = e.data["opts"]
    bad = next((opts[i] for i in range(0, len(opts), 2) if not S.R_OPTS_KEY.match(opts[i])), None)
    return Verdict(
        "config",
        "the launcher's record of the worker command it ran exited non-zero, and the script's trailing config "
        f"overrides are not KEY VALUE pairs ({' '.join(repr(o) for o in opts)[:200]}: "
        + (f"'{bad}' stands where a config key must" if bad is not None else "an odd count, a key without its value")
        + ") -- yacs' merge_from_list (cfg.merge_from_list(args.opts)) refuses such a list the same way in every "
        "worker, all launched with the same arguments, so no rank is at fault",
        "Fix the command-line config overrides: after the script's flags (--config-file <yaml>) each KEY must be "
        "followed by exactly one VALUE, a literal of the key's type -- compute a formula given in the docs "
        "(e.g. 'images_per_gpu x 1000' for MODEL.RPN.FPN_POST_NMS_TOP_N_TRAIN is a number: 1000 x images per GPU, "
        "2000 for 2) and pass the number, not the words; quote a value holding spaces; pass the --config-file the "
        "README names. Run the worker command once as one process (python tools/train_net.py ...) to see yacs' own "
        "error (a non-existent config key, a type mismatch), then relaunch: python -m torch.distributed.launch "
        "--nproc_per_node=$NGPUS tools/train_net.py --config-file <yaml> KEY VALUE ...",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# The dashes a word processor, a web page or a chat puts where '-' was typed (hyphen, en dash, em dash, minus sign,
# their small and full-width forms): no argparse reads an option written with one
TYPO_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"


def _option_as_script(e, evs: list) -> Verdict:
    """The path the interpreter could not open is an option whose dashes are typographic ("can't open file
    '\u2014nproc_per_node=4'"): the launcher's argparse does not take '\u2014nproc_per_node' for an option, so it
    reads it as the training script's path and starts every worker with it (lead rules Q, U (2)) -- config, no rank,
    whatever the launcher's record names. The remedy is the command line retyped with ASCII '--' (a command copied
    from a web page or a document carries an em dash where '--' was written), the launcher's options before the
    script path."""
    arg = e.data["arg"][:200]
    opt = "--" + arg.lstrip(TYPO_DASHES + "-")
    return Verdict(
        "config", f"the interpreter could not open the script it was launched with ('{arg}', exit code 2): a "
        "launcher option written with a typographic dash (an em dash or en dash, not ASCII '--') is no option to "
        "the launcher, which passes it on as the script path -- every worker is started with it, a launch setting "
        "of the job, not a fault of any rank",
        f"Retype the command with ASCII hyphens: '{opt}', not '{arg}' (a command copied from a web page or a "
        "document turns '--' into an em dash '\u2014'; fix every option of the line, also the script's own ones); "
        "the launcher's options go before the script path, then relaunch.", "high", [], [x.brief() for x in evs[:2]],
        job_wide=True)


def _script_a_folder(e, evs: list) -> Verdict:
    """The interpreter a worker was started with was given a folder for its script and found no __main__.py in it
    ("can't find '__main__' module in 'C:\\'"): the script path every worker is launched with (lead rule U (2)) --
    config, no rank, whatever the launcher's record then names. A drive's root or a lone backslash is the shell's
    doing: bash's '\\' line continuations typed into Windows cmd reach the launcher as an argument of their own, and the
    first one that is no option is taken for the script."""
    path = e.data["arg"]
    lone = path.strip() in ("\\", "/", "") or re.fullmatch(r"[A-Za-z]:[\\/]?", path.strip()) is not None
    return Verdict(
        "config",
        f"the interpreter was given a folder ('{path[:200]}') where the script belongs and found no __main__ module "
        "in it: every worker is started with that same script path, a launch setting of the job, not a fault of any "
        "rank, whatever the launcher's record then names"
        + ("; a drive's root or a lone backslash for the script is a '\\' line continuation (bash's) typed in "
           "Windows cmd, which passes the backslash on as an argument and takes it for the script" if lone else ""),
        ("Write the launch command on one line in Windows cmd (its line continuation is '^', PowerShell's a "
         "backtick; a backslash continues lines only in bash), or use torchrun from a bash shell, so the launcher "
         "gets the training script's path. " if lone else "")
        + "Give the launcher the right script path (the .py file, e.g. tools/train.py, not its folder; relative paths "
        "are resolved from the directory the launcher is run in), then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _no_module_spec(e, evs: list, win_warn: bool) -> Verdict:
    """The interpreter a worker was started with could not find the module of its ``python -m`` (runpy's "Error while
    finding module specification for 'M' (...)"): the command the launcher starts every extra worker with cannot run
    (lead rules Q, U (2), W) -- config, no rank. For '__main__' (__main__.__spec__ is None) the launcher restarted the
    main script by its module name, and the job was started from a console-script entry point that has none."""
    mod, why = e.data["module"], e.data["module_why"]
    main = mod == "__main__"
    # the reason cut off by the paste: for '__main__' it can only be that __main__ has no spec (runpy finds no other)
    why = why or ("ValueError: __main__.__spec__ is None, the reason cut off and implied" if main else
                  "its reason cut off")
    return Verdict(
        "config",
        f"a worker's interpreter could not start: the command it was launched with has Python run the module "
        f"'{mod}', and Python found no module specification for it ({why})"
        + (": a launcher that starts each extra worker again from the main script (Lightning's subprocess launcher "
           "for DDP, hydra-style launchers) rebuilds that command from __main__.__spec__ and sys.argv[0], and a job "
           "started from a console-script entry point (an .exe or bin wrapper) has no module spec to give it"
           if main else "")
        + " -- every worker it starts gets that same command, a launch setting of the job, not a fault of any rank",
        ("Start the job so that its main module has a spec: run it as a module with python -m PACKAGE (the "
         "package's own __main__, with the same arguments) or python path/to/script.py, instead of the console "
         "entry point (the .exe / bin wrapper), so the launcher's restart command for the other workers is valid; or "
         "avoid the restart: strategy='ddp_spawn' (workers forked from the running process) or train on a single GPU "
         "(devices=1) where one is enough. " if main else
         f"Check the launch command: 'python -m {mod}' needs {mod} importable in the interpreter the worker runs "
         "(installed in that environment, or the working directory / PYTHONPATH holding it), the same on every node. ")
        + ("The store client's 10049 warning beside it is benign (it retries the next address; MASTER_ADDR=127.0.0.1 "
           "avoids it)." if win_warn else ""),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _usage_cut(e, evs: list) -> Verdict:
    """argparse's usage block printed alone, the paste ending inside it (parse._usage_cut): argparse prints it so when
    it refuses a command line, its "error:" line cut off. The launcher's own usage (torch.distributed.launch / run,
    torchrun) is the launcher refusing the command it was given before any worker started (lead rule X (2)); a
    script's is the script refusing the arguments every worker is launched with (lead rules U (2), W): config, no
    rank, at medium confidence -- what was refused is not shown."""
    prog = e.data["usage_cut"] or "SCRIPT"
    # its head line shown, or only the rows argparse wraps its usage onto (parse._usage_headless: the paste starts
    # below "usage: PROG [-h]", round 83's megatron-deepspeed-178)
    usage = (f"'usage: {prog} [-h] ...', the paste cut before its 'error:' line" if not e.data.get("headless") else
             f"its rows of options ('{e.text.strip()[:80]} ...'), the paste starting below its 'usage:' line and cut "
             "before its 'error:' line")
    if e.data.get("launcher"):
        return Verdict(
            "config",
            f"the launcher printed its own argparse usage ({usage}): it refused the command it was given and started "
            "no worker -- the launch command, a setting of the job, not a fault of any rank",
            "Check the launch command against the launcher's usage: its options (--nproc-per-node, --nnodes, "
            "--node-rank, --master-addr / --master_addr, --master-port) go before the training script, each with its "
            "value, and the training_script it requires last, followed by the script's own arguments. A wrapper "
            "script that builds the command from variables can leave one empty (an address or node rank from a "
            "command of the wrapper that failed above, e.g. 'command not found'): set those values explicitly, or "
            "launch with torchrun directly; run the command again to see argparse's error line, then relaunch.",
            "medium", [], [x.brief() for x in evs[:2]], job_wide=True)
    if e.data.get("local_underscore"):
        # the usage declares the local rank only as --local_rank: what it refused is most likely the --local-rank=N
        # torch >= 2.0's torch.distributed.launch appends (its deprecation notice names that spelling; round 81's
        # colbert-213, lora-79)
        return Verdict(
            "config",
            f"the script printed argparse's usage ({usage}), which declares the local rank only as --local_rank: "
            "argparse prints it so when it refuses the arguments the script was started with, and "
            "torch.distributed.launch of torch >= 2.0 appends --local-rank=N (the hyphen spelling) to every worker's "
            "command line -- the launch arguments, not a fault of any rank",
            "--local-rank vs --local_rank: torch.distributed.launch of torch >= 2.0 passes --local-rank=N, and the "
            "script's argparse only declares --local_rank. Use torchrun and read LOCAL_RANK from the environment "
            "(int(os.environ['LOCAL_RANK']); torchrun passes no argument), or accept both spellings in argparse "
            "(parser.add_argument('--local-rank', '--local_rank', type=int, dest='local_rank')); or, keeping "
            "torch.distributed.launch, pass --use-env and read LOCAL_RANK the same way. Read argparse's error line "
            "under the usage to confirm the argument refused, then relaunch.",
            "medium", [], [x.brief() for x in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the script printed argparse's usage ({usage}): "
        "argparse prints it so when it refuses the arguments the script was started with, and every worker is "
        "launched with that same command line -- the launch arguments, not a fault of any rank",
        "Read argparse's error line under the usage (it names the argument refused or missing). Most often the "
        "launcher passes an argument the script does not declare: torch.distributed.launch of torch >= 2.0 passes "
        "--local-rank=N (older ones and DeepSpeed's launcher --local_rank=N), torchrun none (it sets LOCAL_RANK): "
        "read int(os.environ['LOCAL_RANK']) in the script or accept both spellings (parser.add_argument("
        "'--local-rank', '--local_rank', type=int, dest='local_rank')), or launch with torchrun; otherwise check the "
        f"launch arguments against the script's own options (python {prog} --help) and fix the command line once "
        "for every worker, then relaunch.",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


_ARG_TYPES = {"int": "integer", "float": "number"}


def _value_fix(flag: str, data: dict) -> str:
    """The fix where argparse refused one argument's value (signatures.R_ARG_VALUE_ERROR): an empty value is a
    variable the launch command substitutes that is unset on this machine (lead rules U (2), W, Q)."""
    name = flag.split("/")[-1].lstrip("-")
    val = data.get("value")
    if data.get("type") and val in ("''", '""'):
        rankish = "rank" in name.replace("-", "_").lower() or "world" in name.lower()
        return (f"Fix the job spec so the {name} argument is not empty: "
                f"{flag} '' is what the launch command gives where the variable it substitutes ($VAR) is unset on "
                "this compute -- "
                + ("fill in the rank / world-size from the launcher's environment (pass a valid integer "
                   f"{flag} (set RANK env var), or use env:// init and read RANK from the environment), "
                   if rankish else
                   f"pass a valid {_ARG_TYPES.get(data['type'], data['type'])} {flag} (set the variable it is built "
                   "from), ")
                + "and check the variable is defined where the job runs (echo it in the launch script)")
    if data.get("type"):
        return (f"Pass a valid {_ARG_TYPES.get(data['type'], data['type'])} {flag} (argparse refused {val}: check "
                "the value, or the variable the launch command builds it from)")
    return (f"Give {flag} a value argparse accepts ({data['said'][:120]}; python train.py --help lists its choices and "
            "arguments)")


def _one_rank_refused(e, evs: list) -> int | None:
    """The rank whose prefix argparse's refusal of one argument's value carries (readers.crash ``tagged``), where no
    other rank and no untagged line shows the same refusal; None otherwise (every worker's command line)."""
    if not e.data.get("said") or e.data.get("tagged") is None:
        return None
    tags = {x.data.get("tagged") for x in evs if x.data.get("said") and x.data.get("arg") == e.data["arg"]}
    return e.data["tagged"] if len(tags) == 1 else None


def _usage_error(e, evs: list) -> Verdict:
    """argparse refusing the arguments a worker was started with (not the local-rank one): every worker is launched
    with the same command line (lead rules U (2), W), so it is config and no rank, whatever a launcher's record then
    lists as failed. A launcher's own option among the refused ones was written after the script's path, where the
    launcher hands everything to the script. One argument's value refused under one rank's prefix alone is that
    rank's command line (a per-rank or per-node variable): still config and no rank, at medium (review 106
    finding 4)."""
    arg = e.data["arg"]
    opt = S.R_LAUNCHER_OPT.match(arg)
    flag = (arg.split() or [arg])[0].split("=", 1)[0]
    one = _one_rank_refused(e, evs)
    if one is not None:  # review 106 finding 4: one rank's argparse refused a value no other rank is shown refusing
        return Verdict(
            "config",
            f"rank {one}'s script refused the value it was started with ('{strip_prefixes(e.text).strip()[:160]}') "
            f"and exited with its usage error (exit code 2): the line carries rank {one}'s prefix and no other rank "
            f"shows the same refusal, so it was rank {one}'s command line -- a value built from a per-rank or "
            "per-node variable that is unset or wrong on that worker or node -- a launch argument, not a fault of "
            "the rank's own run",
            _value_fix(flag, e.data) + f": check the variable rank {one}'s command line is built from on its worker "
            "or node (echo it in the launch script), then relaunch.",
            "medium", [], [x.brief() for x in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the script's argparse refused the arguments it was started with ('{strip_prefixes(e.text).strip()[:160]}') "
        "and exited with its usage error (exit code 2): every worker is launched with that same command line, so "
        "the launch arguments are wrong for all of them -- not a fault of any rank, whatever the launcher then "
        "lists as failed"
        + (f"; {flag} is the launcher's own option, given after the training script, so the launcher passed it on to "
           "the script" if opt else ""),
        ((f"Put {flag} before the training script: launcher options go between the launcher and the script's path, "
          f"and everything after the path is the script's own arguments (argument order): <launcher> {flag} ... "
          "train.py <train.py arguments> (python -m paddle.distributed.launch, torchrun, deepspeed alike). "
          if opt else "")
         + ("Give the script the arguments its argparse requires (its usage line lists them)" if e.data["missing"]
            else _value_fix(flag, e.data) if e.data.get("said") else
            "Check the launch arguments against the script's own options (python train.py --help)")
         + ": fix the command line (or the config/launch script that builds it) once for every worker, then "
         "relaunch."),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# What a rank's own failure or a hang leaves: a settings check among these is not what stopped the job.
_NOT_SETTINGS = ("watchdog_timeout", "nccl_error", "cuda_error", "cuda_oom", "ib_completion", "heartbeat", "crash",
                 "gloo_error", "socket_error", "store_timeout", "dataloader")


def _run_failed(c: Collected, but: str = "") -> bool:
    """A rank's own run is shown failing (an NCCL, CUDA, timeout, connection... failure: ``_NOT_SETTINGS``, less
    ``but``): the job got past its launch, so a setting or install reading steps aside."""
    return any(c.kinds.get(k) for k in _NOT_SETTINGS if k != but)


# An import failing inside the installed packages: a module lacking a name another asks it for ("AttributeError:
# module 'numba' has no attribute 'cuda'", "ImportError: cannot import name ..."), one library's version rejecting
# another's. A module not installed at all (ModuleNotFoundError) is generic.py's config, with its own fix.
_IMPORT_FAILED = re.compile(r"^ImportError$")
_MODULE_LACKS = re.compile(r"^module '[\w.]{1,80}' has no attribute '\w{1,80}'")


def _one_error_alone(c: Collected) -> tuple[list, str, str] | None:
    """The tracebacks' ends when they all say one and the same error and nothing else failed (no NCCL, CUDA,
    timeout or connection failure: _run_failed): those ends, the error's type and its message."""
    if _run_failed(c):
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]
    said = {(e.data["type"], e.data["message"]) for e in excs}
    if len(said) != 1:
        return None
    kind, message = next(iter(said))
    return excs, kind, message


def _one_error_matching(c: Collected, cls: str, pattern: re.Pattern) -> tuple[list, str, str, re.Match] | None:
    """``_one_error_alone`` where that one error is of class ``cls`` (whatever module names it) and its message
    matches ``pattern`` from its start: the tracebacks' ends, the error's type and message, and the match."""
    one = _one_error_alone(c)
    if one is None:
        return None
    excs, kind, message = one
    m = pattern.match(message or "")
    if kind.rpartition(".")[2] != cls or m is None:
        return None
    return excs, kind, message, m


def _import_alike(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules J, Q and AF (2): every worker the launcher started ends its traceback on the same import failure
    (the untagged tracebacks of torchrun's shared output, one per worker it launched, or one per rank tag), with no
    NCCL, CUDA, timeout or connection failure shown: the job's shared install fails to load, the same on every
    process, so the rank a launcher's record names (the first exit it noticed) is no culprit: config, no rank."""
    one = _one_error_alone(c)
    if one is None:
        return None
    excs, kind, message = one
    if not (_IMPORT_FAILED.match(kind) or (kind == "AttributeError" and _MODULE_LACKS.match(message or ""))):
        return None
    procs = max((e.data.get("procs") or 0 for e in c.samples.get("launch_procs", [])), default=0)
    tags = {e.rank for e in excs if e.rank is not None}
    # a process ends on one uncaught exception: as many traceback ends as workers launched are every worker's, even
    # under one tag (a collector's prefix on every line, not a process's)
    every = (procs >= 2 and len(excs) >= procs
             or len(tags) >= 2 and all(e.rank is not None for e in excs) and tags >= set(c.ranks))
    if kind == "ImportError" and (d := _dist_import_lacks(excs, message)) is not None:
        return d
    if not every:
        return (_module_lacks(c, excs, message) if kind == "AttributeError"
                else _installed_lacks_name(c, excs, kind, message))
    n = procs if procs >= 2 and len(excs) >= procs else len(tags)
    return Verdict(
        "config",
        f"every worker of the job ({n}, as many as the launcher started) stopped at start-up on the same import "
        f"failure ({kind}: {message[:200]}, {excs[-1].where}): the installed packages every process loads do not "
        "load together -- one library missing, or its version lacking what another asks it for -- so no rank is at "
        "fault; the launcher's record names only the first exit it noticed",
        _name_lacking(message or "")
        + "Read the traceback's frames: the library whose import fails and the one it asks for a name. Install "
        "versions that match (the failing package's requirements / release notes; pip show / conda list for both; "
        "python -c 'import X' alone reproduces it without the launcher), in the one environment every node runs, then "
        "relaunch.",
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


# Python's "cannot import name 'N' from 'M' (PATH)" where PATH is an installed package's file (site- / dist-packages):
# the installed M lacks N. Python says "partially initialized module ... (most likely due to a circular import)" for
# the code's own import cycle: not this.
_INSTALLED_FILE = re.compile(r"\((?:[^()\n]{0,300}?[/\\])?(?:site|dist)-packages[/\\][^()\n]{1,300}\)\s*$")


def _own_package(e, top: str) -> str:
    """The file of the frame that raised ``e`` (parse: ``frame_file``) where it lies in the project's own checkout of
    package ``top`` -- a folder of that name on its path, outside site- / dist-packages ("cn_clip/training/main.py",
    "D:\\repo\\cn_clip\\training\\main.py"): the package the import names is the repository's own code, not a third
    party's install (round 81's chinese-clip-114, -217). Else ''."""
    path = e.data.get("frame_file") or ""
    if not top or "site-packages" in path or "dist-packages" in path:
        return ""
    return path if top in re.split(r"[/\\]", path)[:-1] else ""


def _installed_lacks_name(c: Collected, excs: list, kind: str, message: str) -> Verdict | None:
    """Lead rule AF (2), round 41's sentence (one installed library rejecting another at start-up because their
    versions do not match is config, culprits [], even when no version is printed and only one traceback shows it),
    as round 79's open-sora-32 reads it: every exception shown is one ImportError "cannot import name 'N' from 'M'
    (PATH)" with PATH an installed package's file, raised while modules are imported (the traceback's innermost frame
    is a module's top level, 'in <module>': parse's ``top_level``), no NCCL, CUDA, timeout or connection failure. The
    code every worker imports was written for another version of M than the one installed: the same install and the
    same import on every worker, so config, no rank, even where a launcher's record names the one exit it saw. Not
    read so: a name imported from the project's own files (no site-packages path), a circular import, an import inside
    a function of the run, or a launcher showing more workers started than tracebacks (rule A reads its record)."""
    m = _import_from(message)
    if (not _IMPORT_FAILED.match(kind.rpartition(".")[2]) or m is None
            or not _INSTALLED_FILE.search(message) or "circular import" in message
            or not all(e.data.get("top_level") for e in excs)
            or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings"))
            or _one_worker_of_several(c, excs)):
        return None
    top = m.group("mod").split(".", 1)[0]
    own = _own_package(excs[-1], top)
    if own:
        # the importing script is the checkout's own {top}/, the module came from an installed copy: a stale install
        # of the project shadows the repository (lead rule AF (2); round 81's chinese-clip-217)
        return Verdict(
            "config",
            f"the job stopped at start-up importing its modules: the script importing it ({own}) is the repository's "
            f"own {top} package, but {m.group(2)} was loaded from an installed copy in site-packages that has no "
            f"{m.group(1)} ({kind}: {message[:200]}, {excs[-1].where}) -- a stale pip-installed {top} shadows the "
            "repository's code (an older release of the same project), the same install and the same import on every "
            "worker, so no rank is at fault, whatever rank the launcher's record names first",
            f"A stale pip-installed {top} shadows the repository: uninstall the stale site-packages {top} (pip "
            f"uninstall {top}) and reinstall the package from the repo (pip install -e . in the repository root), or "
            f"set PYTHONPATH to the repository root so its {top}/ is imported first (python -c 'import {top}; "
            f"print({top}.__file__)' under the launcher's interpreter shows which copy loads), in the one environment "
            "every node runs, then relaunch.",
            "medium", [], [e.brief() for e in excs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the job stopped at start-up importing its modules: the installed {top} has no {m.group(1)} in "
        f"{m.group(2)} ({kind}: {message[:200]}, {excs[-1].where}) -- a version mismatch between the code and the "
        f"installed {top} (the name added, renamed or removed between releases), the same install and the same "
        "import on every worker, so no rank is at fault, whatever rank the launcher's record names first",
        _name_lacking(message) + f"Install the {top} version the repository pins (its requirements.txt / setup.py; "
        f"pip install {top}==<pinned version>), in the one environment every node runs, then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# "module 'wandb' has no attribute 'init'": the module the name imports is not the package the code calls
_MODULE_ATTR = re.compile(r"^module '(?P<mod>[\w.]{1,80})' has no attribute '(?P<attr>\w{1,80})'")
# torch.distributed's core API, defined in every torch build that has distributed support since torch 1.0: the
# package lacking one of them is a build without it (torch.distributed.is_available() False -- Windows wheels before
# 1.7, some macOS / mobile builds), not a version missing a newer name. The c10d stores (Store, TCPStore, FileStore,
# HashStore, PrefixStore: torch.distributed's own since torch 1.0, from its compiled c10d bindings) count too: the
# elastic launcher's "from torch.distributed import Store" failing is the same build without them (round 109's
# yolov6-345, python -m torch.distributed.launch dying at its own import)
_DIST_CORE = frozenset(("init_process_group", "is_initialized", "get_rank", "get_world_size", "barrier", "all_reduce",
                        "broadcast", "all_gather", "destroy_process_group", "new_group", "ReduceOp", "group",
                        "Store", "TCPStore", "FileStore", "HashStore", "PrefixStore"))


def _dist_unbuilt(who: str, said: str, excs: list) -> Verdict:
    """Lead rule Q's last sentence with AF (2)'s round-41 sentence: torch.distributed lacking its own core API (an
    attribute or an import of it, ``_DIST_CORE``) is a torch build without distributed support, the install every
    worker loads: config, no rank."""
    return Verdict(
        "config",
        f"{who} stopped on torch.distributed lacking its own core function ({said}, "
        f"{excs[-1].where}): the installed torch build has no distributed support "
        "(torch.distributed.is_available() is False -- a Windows build before torch 1.7, some macOS builds), "
        "the same install every worker loads, so no rank is at fault",
        "Check torch.distributed.is_available() under the launcher's interpreter. Install a PyTorch build with "
        "distributed support (upgrade PyTorch: on Windows 1.7 or later, where only the gloo backend exists -- "
        "backend gloo, not nccl; or run on Linux), or run without torch.distributed.launch, as one process on a "
        "single GPU; then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# Python's "cannot import name 'N'" (3.7+ adds "from 'M' (PATH)"): the installed M has no N -- its version is not the
# one the importing code was written for (N added, renamed or removed between releases). The module is optional here;
# the readings that need it ask for group "mod".
_CANNOT_IMPORT = re.compile(r"\bcannot import name '(?P<name>\w{1,80})'(?: from '(?P<mod>[\w.]{1,160})')?")


def _import_from(message: str) -> re.Match | None:
    """The first "cannot import name 'N' from 'M'" of the message (the form that names the module)."""
    return next((m for m in _CANNOT_IMPORT.finditer(message) if m.group("mod")), None)


# _dist_import_lacks reads _CANNOT_IMPORT at the message's start, the module named by the message or, where an older
# Python names none, by the frame's own code line ("from torch.distributed import all_reduce, reduce_op")
_FROM_DIST_IMPORT = re.compile(r"^from torch\.distributed import\b")


def _dist_import_lacks(excs: list, message: str) -> Verdict | None:
    """Lead rule Q's last sentence with AF (2)'s round-41 sentence (round 89's dialogue-generation-9): every exception
    shown is one ImportError of a name of torch.distributed's core API (_DIST_CORE: all_reduce, init_process_group...)
    from torch.distributed -- named by the message, or by the raising frame's code line where an older Python's
    message names no module -- raised while modules are imported. torch.distributed lacking its own core functions is
    a build without distributed support (Windows before 1.7), the install every worker loads: config, no rank. A name
    torch.distributed added in a later release (not core), or another module's name, is not read so
    (_installed_lacks_name reads an installed package lacking a name)."""
    m = _CANNOT_IMPORT.match(message or "")
    if m is None or m.group("name") not in _DIST_CORE or any(
            e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    if m.group("mod") is not None:
        if m.group("mod") != "torch.distributed":
            return None
    elif not all(_FROM_DIST_IMPORT.match((e.data.get("frame_code") or "").strip()) for e in excs):
        return None
    ranks = sorted({e.rank for e in excs if e.rank is not None})
    who = f"rank {', '.join(map(str, ranks))}" if ranks else "the process shown"
    return _dist_unbuilt(who, f"ImportError: {message[:200]}", excs)


# torch.distributed's process-group class of a backend -> (its name, its availability check, its build flags): the
# class is exported only where that backend was compiled in (distributed_c10d imports it from torch._C under a
# try/except ImportError), so its absence is the build, not the release -- ProcessGroupGloo is there since torch 1.0
_PG_BACKENDS = {
    "ProcessGroupGloo": ("gloo", "is_gloo_available", "USE_DISTRIBUTED=1, USE_GLOO=1; on macOS libuv installed"),
    "ProcessGroupNCCL": ("nccl", "is_nccl_available", "USE_DISTRIBUTED=1, USE_NCCL=1; a CUDA build, Linux only"),
    "ProcessGroupMPI": ("mpi", "is_mpi_available", "USE_DISTRIBUTED=1, USE_MPI=1 with an MPI found at build time"),
    "ProcessGroupUCC": ("ucc", "is_ucc_available", "USE_DISTRIBUTED=1, USE_C10D_UCC=1 with UCC found at build time"),
}


def _backend_unbuilt(who: str, attr: str, message: str, excs: list, beside: str) -> Verdict:
    """Lead rule Q's last sentence with AF (2)'s round-41 sentence (round 94's pytorch-33506): torch.distributed
    lacking a backend's process-group class (``_PG_BACKENDS``: "module 'torch.distributed' has no attribute
    'ProcessGroupGloo'") is a torch build without that backend compiled in -- the shared install, config, no rank; the
    fix names the backend's availability check and build flags rather than a newer torch."""
    name, check, flags = _PG_BACKENDS[attr]
    # NCCL is in Linux CUDA builds only: on Windows / macOS no official wheel has it, so reinstalling cannot help --
    # gloo is that platform's backend (as _device_index_none says); on Linux the CPU-only wheel lacks it too
    remedy = ("NCCL is compiled only into Linux CUDA builds of torch: on Windows or macOS use backend='gloo' "
              "(init_process_group('gloo'); no official wheel there has NCCL, so reinstalling cannot help); on Linux "
              "install the CUDA wheel of torch (a CPU-only +cpu wheel has no ProcessGroupNCCL), or build torch with "
              f"nccl ({flags}); " if name == "nccl" else
              "Reinstall a torch build with distributed support (the official wheel for the platform), or build torch "
              f"with {name} ({flags}); ")
    return Verdict(
        "config",
        f"{who} stopped on torch.distributed lacking the {name} backend's process-group class (AttributeError: "
        f"{message[:200]}, {excs[-1].where}): {attr} is exported only where {name} was compiled into torch, so this "
        f"is a torch build without {name} (a source build without it, a macOS build without distributed backend, "
        f"a CPU-only or platform wheel that has none) -- the same install every worker loads{beside}",
        f"Check the build: python -c 'import torch.distributed as dist; print(dist.is_available(), "
        f"dist.{check}())' -- the {attr} class is missing in a torch build without {name}. " + remedy
        + f"code or tests that must also run on builds without it: check dist.{check}() first and skip when {name} is "
        f"unavailable (torch's tests: @requires_{name}()); then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _module_lacks(c: Collected, excs: list, message: str) -> Verdict | None:
    """Lead rule AF (2), round 41's sentence: the one exception shown -- of one rank or of several, however few of
    the workers -- is an installed module lacking the attribute the code calls on it ("AttributeError: module 'wandb'
    has no attribute 'init'"), with no NCCL, CUDA, timeout or connection failure shown (``_one_error_alone``). The
    module every process imports is not the package the code was written for (another version, a broken install, or
    a local file or folder of that name shadowing it): the install every worker loads alike, config, no rank -- one
    rank reaches the call first (a rank-0-only logger's init), the others would fail on it too. An object's attribute
    ("'NoneType' object has no attribute") is the code's own data: not this; nor a lone worker that a launcher's
    failure record names (rule A, test_one_workers_import_failure_of_four_is_still_that_workers)."""
    m = _MODULE_ATTR.match(message or "")
    if m is None or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    mod, attr = m.group("mod"), m.group("attr")
    # a launcher's record names the failed worker: rule A reads it (one of several launched) -- but not a torch build
    # lacking torch.distributed's core API, which every worker it starts loads alike (rule Q's last sentence: round
    # 77's rife-280, torch.distributed.launch's CalledProcessError naming its one '--local_rank=0')
    if (c.worker_failures or c.child_failures) and not (mod == "torch.distributed" and attr in _DIST_CORE):
        return None
    top = mod.split(".", 1)[0]
    ranks = sorted({e.rank for e in excs if e.rank is not None})
    who = f"rank {', '.join(map(str, ranks))}" if ranks else "the process shown"
    compiled = sorted({b.rank for b in c.samples.get("benign", []) if b.data.get("dynamo") and b.rank is not None}
                      - set(ranks))
    beside = (f"; rank {', '.join(map(str, compiled))} failed on its own too, in torch.compile (its output ends in "
              "torch._dynamo's advice): the job's shared software failing at start-up on more than one rank, no "
              "rank's own fault" if compiled else "")
    if mod == "torch.distributed" and attr in _DIST_CORE:
        return _dist_unbuilt(who, f"AttributeError: {message[:200]}", excs)
    if mod == "torch.distributed" and attr in _PG_BACKENDS:
        return _backend_unbuilt(who, attr, message, excs, beside)
    if mod.startswith("torch.") and mod.count(".") == 1 and attr.isidentifier():
        # a subpackage of torch itself (torch.xpu, torch.cuda, torch.backends): torch imported as a whole, so no
        # local file shadows it -- the installed torch build has no such API: a release older than the code that
        # calls it (a test or a framework from a newer branch), or a build without that backend compiled in
        return Verdict(
            "config",
            f"{who} stopped on the installed torch lacking an API the code calls (AttributeError: {message[:200]}, "
            f"{excs[-1].where}): this torch build has no {mod}.{attr} -- a torch older than the code calling it "
            "(a test file or framework newer than the installed torch), or a build without that backend or "
            f"feature compiled in -- the same install every worker loads{beside}",
            f"Check the installed torch: python -c 'import torch, {mod}; print(torch.__version__, "
            f"hasattr({mod}, \"{attr}\"))'. Use matching torch / test (framework) versions: the torch wheel of "
            f"the release the code was written for, or a build with {mod}.{attr} (rebuild torch with that backend "
            "enabled, its USE_* build flag and its library found at build time); where the code must run on builds "
            f"without it, guard with hasattr({mod}, '{attr}') and skip that check; then relaunch."
            + _OLD_API_FIX.get((mod, attr), ""),
            "medium", [], [e.brief() for e in excs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"{who} stopped on an installed module lacking what the code calls on it (AttributeError: "
        f"{message[:200]}, {excs[-1].where}): the '{mod}' that Python imported is not the package the script was "
        "written for -- another version, a broken install, or a local file or folder named like it shadowing the "
        f"package -- the same install every worker loads{beside}",
        f"Check what '{mod}' resolves to under the launcher's interpreter: python -c 'import {mod}; print({mod}."
        f"__file__, getattr({mod}, \"__version__\", None))'. A path in the working directory (a folder or file named "
        f"{top}/ or {top}.py next to the script, or a leftover run directory) shadows the installed package: rename "
        f"or remove it; otherwise reinstall the package (pip install -U --force-reinstall {top}) at the version that "
        f"has {mod}.{attr} (module '{mod}' has no attribute '{attr}' in the version installed), in the one "
        "environment every node runs, or turn off the feature that calls it in the script's settings; then "
        "relaunch."
        + (" The torch.compile failure beside it: rerun with TORCHDYNAMO_VERBOSE=1 for its error, or disable "
           "compile (compile=False) to confirm the model runs eager; torch._dynamo.config.suppress_errors = True "
           "falls back to eager where compiling fails." if compiled else ""),
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# an API of torch's that a known release added, the one the code needs at least (round 110's pytorch-examples-457,
# -465: torch 0.4 and mp.spawn, which came with torch 1.0): the upgrade, and the launch that older torch has
_OLD_API_FIX = {
    ("torch.multiprocessing", "spawn"): (
        " torch.multiprocessing.spawn came with torch 1.0: upgrade PyTorch to 1.0 or later "
        "(torch.multiprocessing.spawn was added in 1.0) -- check torch.__version__ in the environment that runs the "
        "script -- or, on the old torch, launch with torch.distributed.launch instead of mp.spawn (one process per "
        "GPU)."),
}


# A class's constructor refusing a keyword argument: "Config.__init__() got an unexpected keyword argument
# '_norm_class'" (Python 3.10+ names the class; older ones print "__init__() got ...")
_KWARG_REFUSED = re.compile(r"^(?:(?P<cls>[A-Za-z_]\w{0,80})\.)?__init__\(\) got an unexpected keyword argument "
                            r"'(?P<kw>\w{1,80})'")


def _kwarg_refused(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) (round 41's sentence) and U (2): every exception shown is one TypeError of a class's
    constructor refusing a keyword argument, raised by a call at the entry script's top level (the traceback's
    innermost frame is 'in <module>': parse._top_frame), with no NCCL, CUDA, timeout or connection failure. The script
    builds an installed library's object with arguments that library's version does not take (written for another
    release): every worker runs the same line against the same install, so config, no rank -- whichever rank's tag
    the traceback carries. A keyword refused deeper in the code (a method, a function of the run) is not read here."""
    one = _one_error_matching(c, "TypeError", _KWARG_REFUSED)
    if one is None:
        return None
    excs, kind, message, m = one
    if not all(e.data.get("top_level") for e in excs) or any(
            e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    cls, kw = m.group("cls") or "the class", m.group("kw")
    return Verdict(
        "config",
        f"the script's own top-level call failed at start-up: {cls}'s constructor refuses the keyword argument "
        f"'{kw}' ({kind}: {message[:200]}, {excs[-1].where}) -- the installed library that defines {cls} is of "
        "another version than the script was written for (the argument renamed, removed or not yet added); every "
        "worker runs the same line against the same install, so no rank is at fault",
        f"Match the script and the installed library: check the installed version of the package that defines "
        f"{cls} (pip show <package>; python -c 'import <package>; print(<package>.__version__)' under the "
        "launcher's interpreter) against the version the script was written for, then install that version (pip "
        "install <package>==<version>, or pip install -U <package> to upgrade, or install it from the same commit "
        f"as the script), or change the call to the installed version's signature ({cls}'s current name for "
        f"'{kw}'). Run the script once without the launcher to confirm; then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)



# torch's own API arguments that older releases lack: the keyword -> (the API that takes it, the torch release it
# arrived in). Python refusing one of them ("__init__() got an unexpected keyword argument 'find_unused_parameters'")
# is a torch older than the code calling it, not a misspelt argument (lead rule BT (2))
_TORCH_KWARG_SINCE = {
    "process_group": ("DistributedDataParallel", "1.0"),
    "find_unused_parameters": ("DistributedDataParallel", "1.1"),
    "gradient_as_bucket_view": ("DistributedDataParallel", "1.7"),
    "static_graph": ("DistributedDataParallel", "1.11"),
}


# a call to DDP itself, as code writes it: DistributedDataParallel(, nn.parallel.DistributedDataParallel(, DDP(
_DDP_NAME = re.compile(r"(?:[\w.]{0,120}\.)?(?:DistributedDataParallel|DDP)")
# a call opening (its callee's dotted name) or a parenthesis closing, in a code line
_CALL_PAREN = re.compile(r"[A-Za-z_][\w.]{0,160}\(|\(|\)")


def _builds_ddp(code: str, kw: str) -> bool:
    """Whether the code line a keyword's refusal was raised on is DDP's own call: the line passes the keyword inside
    DDP's call (DistributedDataParallel(..., kw=...), DDP(...), nn.parallel.DistributedDataParallel(...), also
    through a call nested in it: DDP(model, **dict(kw=...))), or passes
    it on a line of its own with no call open on it (the call opened on a line above, as Python before 3.8 reports a
    call spread over lines: "find_unused_parameters=True,"), or opens DDP's call with the keyword on a later line.
    The keyword given to another callable on that line (accelerate's DistributedDataParallelKwargs(static_graph=True),
    a dict(...), a config class) is not DDP's."""
    at = code.find(f"{kw}=")
    if at < 0:
        return any(_DDP_NAME.fullmatch(m.group(0)[:-1]) for m in _CALL_PAREN.finditer(code) if m.group(0) != "(")
    opened: list[str] = []
    for m in _CALL_PAREN.finditer(code, 0, at):
        if m.group(0) == ")":
            if opened:
                opened.pop()
        else:
            opened.append(m.group(0)[:-1])
    return not opened or any(_DDP_NAME.fullmatch(name) for name in opened)


def _innermost(e) -> tuple[str, str]:
    """An exception's innermost frame: its file and code line (the frame_file / frame_code parse read, else the
    first of the frames above the input's last exception line, parse.input_tail's tail_frames, innermost first)."""
    file, code = e.data.get("frame_file") or "", e.data.get("frame_code") or ""
    frames = e.data.get("tail_frames") or ()
    if not code and frames:
        file, code = file or frames[0][0], frames[0][2]
    return file, code


# the same refusal with its line cut before the keyword's name ("__init__() got an unexpected keywor": a stored
# excerpt or a terminal's width ending the line): what Python raises there is a keyword refused, its name lost
_KWARG_REFUSED_CUT = re.compile(r"^(?:(?P<cls>[A-Za-z_]\w{0,80})\.)?__init__\(\) got an unexpected"
                                r"(?P<rest>[ a-z']{0,14})$")


def _kwarg_cut_ddp(excs: list, kind: str, message: str, m: re.Match) -> Verdict | None:
    """Lead rule BT (2) for a refusal whose line is cut before the keyword's name (round 109's fairseq-3945:
    "TypeError: __init__() got an unexpected keywor"): every exception shown is that one TypeError, raised on a code
    line that opens DDP's own call (DistributedDataParallel( / DDP(, _builds_ddp) in a framework's or the job's
    frame, with no frame of torch. DDP's constructor refusing a keyword a framework passes it is the installed torch
    older than the code every worker runs (the keywords DDP gained across releases: process_group, bucket_cap_mb,
    find_unused_parameters, gradient_as_bucket_view, static_graph): config, culprits [], even with one spawned
    child's traceback. Another class named by the message, or a code line that does not open DDP's call, is not
    read here."""
    if m.group("cls") not in (None, "DistributedDataParallel") or not " keyword argument '".startswith(
            m.group("rest").rstrip() or " "):
        return None
    for e in excs:
        file, code = _innermost(e)
        if not code or not _builds_ddp(code, "\0") or re.search(r"(?:site|dist)-packages[/\\]torch[/\\]", file):
            return None
    return Verdict(
        "config",
        f"the code's call building torch's DistributedDataParallel passes a keyword argument the installed torch "
        f"refuses ({kind}: {message[:200]}, {excs[-1].where}; the line is cut before the keyword's name): DDP's "
        "constructor gained its keywords across torch releases (process_group in 1.0, find_unused_parameters in 1.1, "
        "gradient_as_bucket_view in 1.7, static_graph in 1.11), so the torch installed is older than the framework "
        "code every worker runs -- a version mismatch of the shared install, so no rank is at fault",
        "Upgrade torch to the release the framework requires (its README / requirements / setup.py pins; "
        "gradient_as_bucket_view needs torch >= 1.7, static_graph >= 1.11): check torch.__version__ in the training "
        "environment (python -c 'import torch; print(torch.__version__)' under the launcher's interpreter) and pip "
        "list for the torch and framework versions, or use a framework release matching the installed torch; the "
        "full error line names the keyword. As a workaround on the old torch, drop that keyword from the "
        "DistributedDataParallel(...) call. Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _kwarg_newer_torch(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BT (2) (rule AF (2)'s round-41 sentence; round 89's centerpoint-59): every exception shown is one
    Python signature TypeError of a constructor refusing a keyword argument that torch's API takes from a later
    release on (_TORCH_KWARG_SINCE: DDP's find_unused_parameters from torch 1.1), raised at the job's or framework's
    own call -- its code line is DDP's own call (_builds_ddp: the keyword inside DistributedDataParallel( / DDP(, or on
    a continuation line with no other call open) -- with no frame of torch shown and no NCCL, CUDA,
    timeout or connection failure. The shared install is older than the code every worker runs: config, culprits [],
    even with no version printed and one rank's traceback. Not read so: a keyword no torch release takes (a misspelt
    'sdevice_ids': usage._ddp_kwarg's invalid_usage), a refusal raised inside torch's own frames, another class
    named by the message, or the keyword passed on that line to another callable (accelerate's
    DistributedDataParallelKwargs(static_graph=True) refused by an old accelerate: the generic reading of a library
    older than the code)."""
    one = _one_error_matching(c, "TypeError", _KWARG_REFUSED)
    if one is None:
        one = _one_error_matching(c, "TypeError", _KWARG_REFUSED_CUT)
        if one is None:
            return None
        return _kwarg_cut_ddp(*one)
    excs, kind, message, m = one
    kw = m.group("kw")
    if kw not in _TORCH_KWARG_SINCE:
        return None
    api, since = _TORCH_KWARG_SINCE[kw]
    if m.group("cls") not in (None, api):
        return None
    for e in excs:
        file, code = _innermost(e)
        if not _builds_ddp(code, kw) or "torch" in (e.data.get("tb_pkgs") or ()) or re.search(
                r"(?:site|dist)-packages[/\\]torch[/\\]", file):
            return None
    return Verdict(
        "config",
        f"the job's call building torch's {api} passes '{kw}' and the installed torch refuses it ({kind}: "
        f"{message[:200]}, {excs[-1].where}): {api} takes {kw} from torch {since} on, so the torch installed is older "
        "than the code every worker runs -- a version mismatch between framework code and torch, the shared install "
        "alike on every worker, so no rank is at fault",
        f"Upgrade torch to >= {since} ({api}'s {kw} arrived in torch {since}; check torch.__version__ on every "
        "node: python -c 'import torch; print(torch.__version__)' under the launcher's interpreter, and which "
        f"{api} class the call wraps -- torch's or a library's such as apex's, reinstalled against the installed "
        "torch): install the torch / CUDA versions the repo "
        f"documents (its README / requirements), the same on every node. As a workaround on the old torch, drop "
        f"{kw} from the {api}(...) call (the code must then not rely on what it does). Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# a call refusing a keyword argument, the callee's name first ("pipeline() got an unexpected keyword argument
# 'mb_args'", "Trainer.__init__() got ...": the class for a constructor)
_FN_KWARG_REFUSED = re.compile(r"^(?:[\w.]{0,120}?(?P<cls>\w{1,80})\.)?(?P<fn>\w{1,80})\(\) got an unexpected keyword "
                               r"argument '(?P<kw>\w{1,80})'")


def _entry_kwarg_refused(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) (round 41's sentence) and U (2), as round 75's pippy-1130 reads them: every exception shown is
    one TypeError of a call refusing a keyword argument, raised on the code line of the script's first function -- the
    one frame right under the entry script's top level, in the same file (its run(args) / main(): parse._entry_call)
    -- where that line itself calls the refused name ("pipe = pipeline(" refused as "pipeline() got an unexpected
    keyword argument 'mb_args'"), with no NCCL, CUDA, timeout or connection failure and no launcher record naming one
    worker of several. The script's start-up calls a library's API with a keyword the installed version does not
    take (written for another release): every worker runs that line against the same install, config, no rank. A
    refusal deeper in the run (a training phase's own function), one passed on through another call (the line calls
    another name, as build(**kw) refused as a constructor's), or with no frame shown is not read here."""
    one = _one_error_matching(c, "TypeError", _FN_KWARG_REFUSED)
    if one is None:
        return None
    excs, kind, message, m = one
    if any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings", "top_level")):
        return None
    fn, kw = (m.group("cls") if m.group("fn") == "__init__" and m.group("cls") else m.group("fn")), m.group("kw")
    if not all(fn in (e.data.get("entry_call") or ()) for e in excs):
        return None
    if _one_worker_of_several(c, excs):
        return None  # rule A reads the launcher's record
    return Verdict(
        "config",
        f"the script's start-up code (the first function its top level calls) called {fn}() with the keyword "
        f"argument '{kw}' and the installed {fn}() does not take it ({kind}: {message[:200]}, {excs[-1].where}): the "
        f"script was written for another version of the library that defines {fn} than the one installed (the "
        "argument added, renamed or removed between releases) -- a version mismatch of the install every worker runs "
        "the same line against, so no rank is at fault",
        f"Match the script and the installed library: find the package {fn} is imported from (the script's imports) "
        f"and check its installed version (pip show <package>; for torch's own APIs, torch.distributed.*, python -c "
        "'import torch; print(torch.__version__)') against the "
        "version the script or example was written for (its README / requirements); install that version (pip "
        "install -U <package>, or a nightly / pre-release -- pip install --pre torch -- where the API is newer than "
        f"any release), or use the example matching the installed version, or change the call to the installed "
        f"signature of {fn}() (its current name for '{kw}'). Run the script once without the launcher to confirm; "
        "then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# torch.distributed's own API refusing the keywords it is called with, the callee named with its module ("torch.
# distributed.distributed_c10d.init_process_group() got multiple values for keyword argument 'backend'", "... got an
# unexpected keyword argument 'device_id'")
_TORCH_DIST_KWARG = re.compile(r"^torch\.distributed\.[\w.]{0,120}?(?P<fn>\w{1,80})\(\) got (?:multiple values for|an "
                               r"unexpected) keyword argument '(?P<kw>\w{1,80})'")


def _torch_api_refused(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2) (round 41's sentence: one installed library rejecting another's API at start-up is config),
    as round 78's alpaca-lora-4bit-95 reads it: every exception shown is one TypeError of torch.distributed's own
    function refusing the keywords it was called with, no NCCL, CUDA, timeout or connection failure
    (``_one_error_alone``). The caller -- a training library's set-up (transformers' TrainingArguments calling
    init_process_group) or a patch of it -- was written for another torch than the one installed: the same install
    on every worker, so config, no rank, even where the launcher's record names the worker that exited first."""
    one = _one_error_matching(c, "TypeError", _TORCH_DIST_KWARG)
    if one is None:
        return None
    excs, kind, message, m = one
    fn, kw = m.group("fn"), m.group("kw")
    return Verdict(
        "config",
        f"torch.distributed's {fn}() refused the keyword '{kw}' it was called with ({kind}: {message[:200]}, "
        f"{excs[-1].where}): the code calling it -- a training library's start-up (transformers' / accelerate's "
        "device set-up) or a patch of it -- was written for another torch than the one installed; every worker "
        "runs the same call against the same install, so no rank is at fault, whatever a launcher's record names",
        f"A version mismatch: check the transformers version and accelerate version (or the library whose frame "
        f"calls {fn}(), the traceback's frame above torch's) against the installed torch (python -c 'import "
        "torch, transformers, accelerate; print(torch.__version__, "
        "transformers.__version__, accelerate.__version__)'): pin the library release made for that torch "
        "(pip install transformers==<version>, or upgrade torch), and remove any monkeypatch of "
        f"{fn} that passes '{kw}' twice; run the script once without the launcher to confirm, then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# torch.distributed's functions that take a process group (get_world_size(group=None), get_rank(group=None), ...)
# refused one as having no parameter at all: "get_world_size() takes 0 positional arguments but 1 was given" -- the
# pre-1.0 (THD) torch.distributed, whose get_world_size() / get_rank() took none
_OLD_DIST_API = re.compile(r"^(?:torch\.distributed\.)?(?P<fn>get_world_size|get_rank|get_backend|barrier)\(\) takes 0 "
                           r"positional arguments but \d{1,2} (?:were|was) given")


def _old_dist_api(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2) with round 41's sentence (a torch API a framework needs missing from the install), as round
    86's apex-115 reads it: every exception shown is one TypeError of torch.distributed's get_world_size() /
    get_rank() (the calls that take a process group since torch 1.0) refusing the group it was passed as a function
    of no arguments at all, with no NCCL, CUDA, timeout or connection failure. That is the pre-1.0 torch.distributed
    API under code written for a later torch (apex's SyncBatchNorm asks for its group's size): the install every
    process loads alike, config, no rank. A frame of the script's own (outside the installed packages) raising it is
    a helper of the same name, not torch's: not read here."""
    one = _one_error_matching(c, "TypeError", _OLD_DIST_API)
    if one is None:
        return None
    excs, kind, message, m = one
    if any(e.data.get("frame_file") and not S.R_SITE_PACKAGE.search(e.data["frame_file"]) for e in excs):
        return None
    fn = m.group("fn")
    return Verdict(
        "config",
        f"torch.distributed's {fn}() refused a process-group argument as a function of no arguments ({kind}: "
        f"{message[:200]}, {excs[-1].where}): the installed torch.distributed is the pre-1.0 (THD) API, which had "
        f"no group parameter, and the code calling {fn}(group) -- a library such as apex -- was written for a later "
        "torch: a version mismatch of the shared install, the same on every process, no rank at fault",
        f"Upgrade PyTorch to a release the calling library supports (torch >= 1.0: {fn}(group) exists there), or "
        "install the older release of that library made for the installed torch; an apex / torch version mismatch "
        "is fixed by reinstalling apex for the installed torch (rebuild it after upgrading torch). With torch >= 1.0 "
        "use torch.nn.SyncBatchNorm under DistributedDataParallel with one process per GPU "
        "(torch.distributed.launch / torchrun). Check the versions with python -c 'import torch; "
        "print(torch.__version__)' and pip show apex; then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# A C++ container's own lookup failure ("_Map_base::at" from std::unordered_map::at, "map::at", MSVC's "invalid
# unordered_map<K, T> key"): a key the table does not hold
_MAP_AT = re.compile(r"^(?:std::)?(?:_Map_base|unordered_map|map)::at\b|^invalid (?:unordered_)?map<K, T> key\b")


def _init_backend_unknown(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule Q's last sentence (a shared setting the build cannot run) and AF (2), as round 86's imagenet-fast-21
    reads them: every exception shown is one C++ map lookup failure ("RuntimeError: _Map_base::at") raised by the
    innermost frame of torch.distributed's own init_process_group, with no NCCL, CUDA, timeout or connection failure.
    init_process_group's first lookup by a key the job chose is its backend's name (the pre-c10d THD build's table of
    the backends it was built with): the backend asked for is not one this build has -- a setting every process is
    launched with, config, no rank. The same words raised later in the run (a collective's wait: the MPI backend's
    datatype table, round 74's pytorch-116393) are not this: read by their own rules."""
    one = _one_error_matching(c, "RuntimeError", _MAP_AT) or _one_error_matching(c, "IndexError", _MAP_AT)
    if one is None:
        return None
    excs, kind, message, _m = one
    if not all(e.data.get("frame_func") == "init_process_group"
               and "torch" in e.data.get("frame_file", "") and "distributed" in e.data.get("frame_file", "")
               for e in excs):
        return None
    return Verdict(
        "config",
        f"torch.distributed's init_process_group failed in its own C++ set-up call on a lookup of a key its table "
        f"does not hold ({kind}: {message[:120]}, {excs[-1].where}): the key is the backend name the job passed "
        "(backend=..., a --dist-backend argument), one this torch build does not know -- the pre-c10d (THD) "
        "torch.distributed of torch < 1.0 has no nccl backend (torch 0.3's offers tcp, gloo and mpi); the same "
        "setting on every process, no peer, store or network involved, so no rank is at fault",
        "Pass a backend name this build has (--dist-backend gloo, or tcp on torch 0.3; lowercase backend string as "
        "init_process_group backend=...), or upgrade PyTorch (torch >= 0.4 for the nccl backend, torch >= 1.0 for "
        "c10d's) so the backend name the script asks for exists; check the torch version (python -c 'import torch; "
        "print(torch.__version__)') and the init_method / dist_url the script passes along; then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# Python refusing to construct a class whose abstract methods are not all implemented: "Can't instantiate abstract
# class HFLM with abstract method greedy_until" (3.12+: "... without an implementation for abstract method
# 'greedy_until'")
_ABSTRACT_UNBUILT = re.compile(r"^Can't instantiate abstract class (?P<cls>\w{1,80}) with(?:out an implementation "
                               r"for)? abstract methods? '?(?P<meth>\w{1,80})")


def _abstract_unbuilt(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) and Q, as round 86's lm-evaluation-harness-891 reads them: every exception shown is one
    TypeError of Python refusing to construct a class that leaves one of its base's abstract methods unimplemented,
    with no NCCL, CUDA, timeout or connection failure. The class and the base that declares the method are the job's
    shared code -- the package's class written against another version of its own base (a method renamed between
    releases, a mixed or forked copy on the path) -- and every rank builds the same class at start-up: config, no
    rank, even where a launcher's record names only the first worker to exit (rule A's lone failure does not name a
    rank for a shared install)."""
    one = _one_error_matching(c, "TypeError", _ABSTRACT_UNBUILT)
    if one is None:
        return None
    excs, kind, message, m = one
    cls, meth = m.group("cls"), m.group("meth")
    return Verdict(
        "config",
        f"Python refused to build {cls}: it does not implement the abstract method {meth} its base class declares "
        f"({kind}: {message[:200]}, {excs[-1].where}) -- {cls} and its base come from different versions of the "
        "same code (a method renamed between releases, or a mixed / forked copy of the package found first), a "
        "version mismatch of the install every worker builds alike at start-up, so no rank is at fault",
        f"A version mismatch within the shared code: install one consistent version of the package that defines "
        f"{cls}: reinstall it (pip uninstall it, then "
        "pip install -e . in one clean checkout, or pip install <package>==<version>) and remove the mixed / forked "
        "copy other code may import first (python -c 'import <package>; print(<package>.__file__)' under the "
        f"launcher's interpreter shows which one loads); or use the model class matching the installed API, whose "
        f"base names the method {cls} implements (a method renamed between releases: {meth} in one, its new name "
        "in the other). Run once without the launcher to confirm, then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# DDP's constructor refusing a model with no parameter to train (torch/nn/parallel/distributed.py:
# "DistributedDataParallel is not needed when a module doesn't have any parameter that requires a gradient.")
_NO_TRAINABLE = re.compile(r"^DistributedDataParallel is not needed when a module doesn't have any parameter that "
                           r"requires a gradient")


def _no_trainable(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules Q, W and V (1): every exception shown is DDP's constructor refusing the model because none of its
    parameters requires a gradient, with no NCCL, CUDA, timeout or connection failure (``_one_error_alone``). The
    model was built with every parameter frozen -- a config's frozen/fixed module list covering every trainable
    module, requires_grad=False set on all of them, or a stage that trains nothing -- the same settings every rank is
    started with, so no rank is at fault even where a launcher's record names the worker that exited first: config,
    no rank. One rank's refusal beside peers that time out (a rank-conditional freeze: the others wait in DDP's own
    check) is a run that failed across ranks, not read here."""
    one = _one_error_matching(c, "RuntimeError", _NO_TRAINABLE)
    if one is None:
        return None
    excs, kind, message, _ = one
    return Verdict(
        "config",
        f"DDP refused the model at start-up: none of its parameters requires a gradient ({kind}: {message[:200]}, "
        f"{excs[-1].where}) -- the settings froze every module the run would train (a config's frozen / fixed "
        "module list covering them all, requires_grad=False on every parameter, a training stage with nothing left "
        "to train), the same settings every rank starts with, so no rank is at fault; a launcher's record names only "
        "the worker that exited first",
        "Leave at least one trainable parameter: check the config's list of frozen / fixed modules (fixed_modules, "
        "freeze, frozen_stages...) against the stage being trained and unfreeze the modules it trains (their "
        "parameters' requires_grad=True); print sum(p.numel() for p in model.parameters() if p.requires_grad) before "
        "DDP(...) to confirm it is above 0. If nothing is meant to train (evaluation, a feature extractor), run it "
        "without DDP (a single GPU, or the model unwrapped on every rank); find_unused_parameters=True is for "
        "parameters that get no gradient in a step, not for a model with none to train.",
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


def _one_worker_of_several(c: Collected, excs: list) -> bool:
    """The exceptions shown are one worker's of several launched (a launcher's record of a child failure, or more
    processes launched or failed than tracebacks shown): rule A reads the launcher's record, not a shared setting."""
    procs = max((e.data.get("procs") or 0 for e in c.samples.get("launch_procs", [])), default=0)
    workers = max((e.data.get("workers") or 0 for e in c.worker_failures), default=0)
    return bool(c.child_failures) or max(procs, workers) > max(1, len(excs))


# an object of a named class lacking what the code calls on it (S.R_CLASS_ATTR); _ANY: any object's, builtins too
_OBJECT_ATTR = S.R_CLASS_ATTR
_OBJECT_ATTR_ANY = re.compile(r"^'(?P<cls>[A-Za-z_]\w{0,80})' object has no attribute '(?P<attr>\w{1,80})'")


def _object_lacks(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2) (round 41's sentence: one installed library rejecting another's API at start-up is config):
    every exception shown is one AttributeError of an object of a named class lacking the attribute the code asks
    for, raised in a traceback whose root is runpy's module runner (parse._module_main: the process runs a package's
    own module, `python -m pkg.mod`, as a launcher starts a library's server or worker -- not the user's script),
    with no NCCL, CUDA, timeout or connection failure (``_one_error_alone``). One package's released code calling on
    another's object what that object's installed version does not have is the two installs not matching: the same
    on every worker, so config, no rank; the launcher that then kills its worker names nobody (rule M). A script's
    own traceback (its root 'in <module>' of a .py file), None's attribute, or a launcher's record naming one worker
    of several is not read here."""
    one = _one_error_matching(c, "AttributeError", _OBJECT_ATTR)
    if one is None:
        return None
    excs, kind, message, m = one
    if (m.group("cls") == "NoneType"
            or not all(e.data.get("module_main") for e in excs)
            or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings", "elastic_frame"))):
        return None
    if _one_worker_of_several(c, excs):
        return None  # rule A reads the launcher's record
    cls, attr = m.group("cls"), m.group("attr")
    return Verdict(
        "config",
        f"the library module the launcher started stopped at start-up on an object lacking what its code calls "
        f"({kind}: {message[:200]}, {excs[-1].where}): the package's own code asks a {cls} for '{attr}', which the "
        f"installed version of the library that defines {cls} does not have -- the two installed packages are of "
        "versions that do not match (one newer than the other), the same install every worker loads, so no rank is "
        "at fault; the launcher's kill of its worker names nobody",
        f"Install matching versions of the two packages: the one whose module failed (the traceback's frames) and the "
        f"one that defines {cls} (pip show both; the failing package's requirements / release notes name the "
        "version it needs). Upgrade the older one (pip install -U <package>), or pin both to a release pair made "
        "together; where the failing package was installed from source (a git checkout), install its dependency "
        f"from source too at the matching commit, so {cls} has '{attr}'. Run the module once without the launcher "
        "to confirm, then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)

# an installed library's file (site-packages/<pkg>/ or dist-packages/<pkg>/): its package
_LIB_FILE = re.compile(r"(?:site|dist)-packages[/\\](?P<pkg>\w{1,60})[/\\]")
# torch autograd's call of a custom Function's backward (torch/autograd/function.py apply: "return user_fn(self,
# *args)")
_AUTOGRAD_APPLY = re.compile(r"torch[/\\]autograd[/\\]function\.py$")


def _lib_backward_attr(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules BW (2), AF (2) (round 41's sentence), J (round 110's megatron-bridge-824): every exception shown is
    one AttributeError of an object of a named class (not None's) lacking an attribute, raised in an installed
    library's own autograd Function backward -- the raising frame is a `backward` in site-packages/<pkg>/ (not
    torch's), called right from torch/autograd/function.py's apply (the tail frames, innermost first) -- with no NCCL,
    CUDA, timeout or connection failure. A layer's backward asking its own weight for what the framework should have
    attached to it (Transformer Engine's Linear asking a Float8Tensor weight for main_grad) is the model's parameters
    and the installed framework / library pair, the same on every rank: config, culprits [], even with one rank's tag
    on the error line. Not read so: the error in a forward or in the job's own code (rule BJ (2)'s rank), None's
    attribute, a backward not reached through autograd's apply, or a launcher's record naming one worker of
    several."""
    one = _one_error_matching(c, "AttributeError", _OBJECT_ATTR_ANY)
    if one is None:
        return None
    excs, kind, message, m = one
    cls, attr = m.group("cls"), m.group("attr")
    if cls == "NoneType" or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    pkgs = set()
    for e in excs:
        tail = list(e.data.get("tail_frames") or ())
        file, func = str(e.data.get("frame_file") or ""), e.data.get("frame_func")
        if not file and tail:
            file, func = str(tail[0][0]), tail[0][1]
        pm = _LIB_FILE.search(file)
        if (pm is None or pm.group("pkg") == "torch" or func != "backward" or len(tail) < 2
                or not _AUTOGRAD_APPLY.search(str(tail[1][0]))):
            return None
        pkgs.add(pm.group("pkg"))
    if len(pkgs) != 1 or _one_worker_of_several(c, excs):
        return None
    pkg = pkgs.pop()
    return Verdict(
        "config",
        f"{pkg}'s own layer backward (an autograd Function, reached through torch's autograd) asked an object of "
        f"class {cls} for '{attr}', which it does not have ({kind}: {message[:200]}, {excs[-1].where}): the model's "
        f"parameters as the installed framework builds them do not carry what this {pkg} release expects -- the "
        "framework and library versions and the model's precision settings every rank shares, so the rank shown "
        "raising it is no culprit",
        f"Use matching {pkg} and framework versions (the framework's recipe / container pins them: pip show {pkg} and "
        f"the framework, then install the pair released together), or upgrade {pkg} to a release whose backward "
        f"handles {cls} weights; as a workaround turn off the setting that makes the weights {cls} or asks for "
        f"'{attr}'"
        + (" (main_grad is the fp32 gradient buffer Megatron's DDP wrapper attaches to each weight: disable "
           "gradient_accumulation_fusion when using FP8 params, disable FP8 parameters (fp8_param / "
           "--fp8-param-gather) or keep bf16 master weights, or run the recipe in bf16 (fp8 off) as a workaround; "
           "use matching Transformer Engine and Megatron-core / Megatron-Bridge versions)"
           if attr == "main_grad" else "") + ". Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# a model's forward refusing a keyword its caller passes ("FluxTransformer2DModel.forward() got an unexpected keyword
# argument 'image_emb'"): a class's own forward, named as Python 3.10+ names it
_FORWARD_KWARG = re.compile(r"^(?P<cls>[A-Za-z_]\w{0,80})\.forward\(\) got an unexpected keyword argument "
                            r"'(?P<kw>\w{1,80})'")
# a wrapper's call passing its arguments through (nn.Module's _call_impl "forward_call(*args, **kwargs)", accelerate's
# model_forward, autocast's decorate_autocast "func(*args, **kwargs)", DDP's "self.module(*inputs, **kwargs)")
_PASS_THROUGH = re.compile(r"\(\*\w{1,20}, \*\*\w{1,20}\)")


def _forward_kwarg_refused(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules BT (2), AF (2) (round 41's sentence; round 110's cpu095-ipa-easycontrol): every exception shown is
    one TypeError of a model class's forward refusing a keyword argument ("X.forward() got an unexpected keyword
    argument 'k'"), raised where a wrapper of an installed package (torch's nn.Module / DDP / autocast, accelerate's
    model_forward) passes the job's arguments through (*args, **kwargs) -- the innermost frame such a pass-through in
    site-packages (the innermost frame read in full or the tail's) -- and some frame above is the job's own (a file
    outside site-packages and Python's own library: tb_script) or its command's (a console entry point, runpy:
    tb_entry; then the call is the installed framework's and the fix names no file), with no frame of
    the model class's own forward (Python refuses at the call) and no NCCL, CUDA, timeout or connection failure. The job
    calls the model's forward with an argument the installed class does not take: the script written for another
    version (or a project's own modified fork) of the library that defines the class, the same script and install on
    every worker -- config, culprits [], even with one rank's traceback. Not read so: the refusal raised on the job's
    own code line (its own model, rule BJ (2)), an innermost frame that is not a pass-through, a traceback with no
    frame of the job, or a launcher's record naming one worker of several."""
    one = _one_error_matching(c, "TypeError", _FORWARD_KWARG)
    if one is None:
        return None
    excs, kind, message, m = one
    if any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    scripts = []
    for e in excs:
        tail = list(e.data.get("tail_frames") or ())
        if e.data.get("frame_file"):
            # the innermost frame read in full (parse's frame_file / frame_code), whether the tail holds it or not: a
            # short traceback reads as a deeper one does (review a of round 110, #3)
            tail = [(e.data["frame_file"], e.data.get("frame_func"), e.data.get("frame_code"))]
        if not tail or not (e.data.get("tb_script") or e.data.get("tb_entry")):
            return None
        file, _, code = tail[0]
        if _LIB_FILE.search(str(file)) is None or not _PASS_THROUGH.search(code or ""):
            return None
        scripts.append(e.data.get("tb_script") or "")
    if _one_worker_of_several(c, excs):
        return None
    cls, kw = m.group("cls"), m.group("kw")
    # the job's own file, where a frame of it is shown; Python's own library or a console entry point is not it: then
    # the call is an installed library's, and the fix names no file (review a of round 110, #4)
    script = re.split(r"[/\\]", str(scripts[-1]))[-1]
    pkgs = [p for p in excs[-1].data.get("tb_pkgs") or () if p != "torch"]
    caller = "the job's call" if script else (
        f"the installed {pkgs[0]}'s call" if pkgs else "an installed library's call")
    align = (f"align {script} with the installed model API" if script else
             "install the versions of the framework that calls the model and of the model's library that match "
             "each other (the framework's pinned requirements)")
    return Verdict(
        "config",
        f"{caller} of the model passes '{kw}' and the installed {cls}.forward() does not take it ({kind}: "
        f"{message[:200]}, {excs[-1].where}; refused at the call, through the wrappers' pass-through): the script "
        f"was written for another version of {cls} (another release of the library that defines it, or a project's "
        "own modified copy of the class) than the one installed -- the same script against the same install on "
        "every worker, so no rank is at fault",
        f"Check the forward signature of {cls} against the call passing {kw}: check which class the model is loaded "
        f"with (a project's own modified {cls}, imported from the project's source, not the library's stock class), "
        "install the library version / fork the project pins (pip install -e of the project's patched library, or "
        f"its requirements), or drop the {kw} argument or {align}. Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


_SUPER_LACKS = re.compile(r"^'super' object has no attribute '(?P<attr>\w{1,80})'")


def _super_lacks(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2) (round 41's sentence: one installed library rejecting another's API is config), as round 92's
    mmcv-2171 reads it: every exception shown is one AttributeError "'super' object has no attribute 'A'" in a
    traceback through an installed package's frames (tb_pkgs) or of a private name (a base class's internals, which
    change between releases; its frames wrapped past reading), with no NCCL, CUDA, timeout or connection failure
    (``_one_error_alone``): the package's class calls super().A on the class it subclasses from another library
    (mmcv's SyncBatchNorm wrapper on torch's SyncBatchNorm, whose _specify_ddp_gpu_num torch 1.9 removed), which the
    installed version of that library no longer (or not yet) has -- the two installs' versions do not match, the same
    on every rank: config, no rank. The frame that RAISED it (parse: frame_file) must be an installed package's
    (site-packages/<pkg>/, not torch's own): a traceback through a model's forward always shows torch's call machinery
    (module.py _call_impl), so a torch frame above proves nothing. Only where the raising frame was not read (its
    lines carry no trigger word, or a paste wrapped past reading) does a private name fall back, and then only where
    no frame was read at all (mmcv-2171 wrapped at 80) or those read run through an installed library other than
    torch (tb_pkgs: mmcv-2171's registry / norm frames) -- not torch's call machinery alone; no package is named.
    The script's own class raising it (its own models/x.py: the code's own error, rule BJ (2)), a dunder name, or a
    launcher's record naming one worker of several is not read here."""
    one = _one_error_matching(c, "AttributeError", _SUPER_LACKS)
    if one is None:
        return None
    excs, kind, message, m = one
    attr = m.group("attr")
    if (attr.startswith("__")
            or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings"))):
        return None
    # the raising frame: an installed package's own code (not torch's), or -- no frame read -- a private name (a base
    # class's internals, which change between releases)
    files = [str(e.data.get("frame_file") or "") for e in excs]
    raised = [S.R_SITE_PACKAGE.search(f) for f in files if f]
    if raised:
        if not all(raised) or any(r.group(1).split(".")[0] == "torch" for r in raised):
            return None  # the script's own class (or torch's own code): not a mismatch of two installs
        pkg = raised[-1].group(1).split(".")[0]
    elif attr.startswith("_") and (not (read := [p.split(".")[0] for e in excs for p in e.data.get("tb_pkgs") or []])
                                   or any(p != "torch" for p in read)):
        pkg = ""  # no frame read (a wrapped paste), or those read run through an installed library other than torch
    else:
        return None
    if _one_worker_of_several(c, excs):
        return None  # rule A reads the launcher's record
    who = f"{pkg}'s code" if pkg else "an installed library's code (the frame that raised it)"
    lib = pkg or "that library"
    return Verdict(
        "config",
        f"{who} called super().{attr}() and the class it subclasses has no '{attr}' ({kind}: {message[:200]}, "
        f"{excs[-1].where}): {lib} subclasses a class of another installed library (torch's) as an older or newer "
        f"version of it had that class -- '{attr}' was removed from (or not yet added to) the installed version, so "
        "the two installs' versions do not match, the same install on every rank: no rank is at fault",
        (f"Install matching torch / {pkg} versions (or {pkg} and whichever library's class it subclasses): check the "
         f"torch version (pip show torch {pkg}) against the versions {pkg}'s install table or requirements name, then "
         f"upgrade {pkg} to a release built for the installed torch (pip install -U {pkg}; for a package with "
         "compiled ops, the wheel built for that torch and CUDA version), or downgrade torch to the release that "
         f"still has '{attr}'" if pkg else
         "Install matching versions of torch and the library whose class calls super()."
         f"{attr}() (the full traceback names it: the installed package whose frame raised it): check "
         "both versions (pip show torch and that package) against the versions the library's install table or "
         "requirements name, then upgrade the library to a release built for the installed torch (for a package "
         "with compiled ops, the wheel built for that torch and CUDA version), or downgrade torch to the release "
         f"that still has '{attr}'")
        + ("; torch 1.9 removed _specify_ddp_gpu_num from SyncBatchNorm, so until the versions match norm_cfg "
           "SyncBN -> BN also runs" if attr == "_specify_ddp_gpu_num" else "") + ". Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _wrapper_internal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) (round 41's sentence: one installed library asking another for what its installed version
    lacks) and AX (2) (reached mid-run), as round 75's audiocraft-358 reads them: every exception shown is one
    AttributeError of a PRIVATE name ('_handles') raised under the __getattr__ of torch's own module wrapper (FSDP,
    whose __getattr__ forwards a name it lacks to the wrapped model, so the error names the model's class:
    parse._wrapper_getattr), with no NCCL, CUDA, timeout or connection failure (``_one_error_alone``). Code that reads
    a wrapper's underscore attribute reads torch's internals, which change between releases: a library written for
    another torch than the one installed -- the same install on every rank, config, no rank. A public name falling
    through to the model (the model's own attribute, or code reading the model's field off the wrapper) is the code's
    own, not read here; nor a launcher's record naming one worker of several."""
    one = _one_error_matching(c, "AttributeError", _OBJECT_ATTR_ANY)
    if one is None:
        return None
    excs, kind, message, m = one
    if (not m.group("attr").startswith("_")
            or m.group("attr").startswith("__") or not all(e.data.get("wrapper_getattr") for e in excs)
            or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings"))):
        return None
    if _one_worker_of_several(c, excs):
        return None  # rule A reads the launcher's record
    cls, attr = m.group("cls"), m.group("attr")
    return Verdict(
        "config",
        f"the code asked torch's module wrapper (FSDP / DDP) for its private attribute '{attr}' and the installed "
        f"torch's wrapper has none, so its __getattr__ fell through to the wrapped {cls} ({kind}: {message[:200]}, "
        f"{excs[-1].where}): the library calling it reads torch's internals as another torch version had them -- a "
        "version mismatch of the install every rank shares, so no rank is at fault",
        f"Match the library and torch versions: the code that reads '{attr}' (the frames above the error) relies on "
        "FSDP internals of the torch version it was written for (a version mismatch) -- check the torch version (pip "
        "show torch; the library's requirements or release notes name the one it needs) and pin torch to it (pip "
        "install torch==<that version>), or upgrade the library to a release made for the installed torch (pip "
        "install -U <library>); until they match, run without the wrapper that needs it (FSDP off in the run's "
        "settings, or DDP) to confirm. Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _fsdp_wrap_attr(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) (one installed library asking another for what its installed version lacks) and BF (4) (FSDP
    refusing the model it wraps is a check on shared settings), as round 77's lumina-mgpt-14 reads them: every
    exception shown is one AttributeError "'C' object has no attribute 'A'" raised under FSDP's own wrapping of the
    model at construction (auto-wrap, meta-device materialisation: parse._fsdp_wrap), no frame of other code between,
    with no NCCL, CUDA, timeout or connection failure (``_one_error_alone``). FSDP calls what it needs of the model's
    modules (reset_parameters to materialise a meta-device model) and the model library's class has none: the
    installed torch and model library (transformers) do not fit each other or FSDP's settings, the same model and
    install on every rank, so the rank whose traceback shows it is not at fault: config, no rank. Not where a
    launcher's record names one worker of several failing."""
    one = _one_error_matching(c, "AttributeError", _OBJECT_ATTR_ANY)
    if one is None:
        return None
    excs, kind, message, m = one
    if (not all(e.data.get("fsdp_wrap") for e in excs)
            or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings"))):
        return None
    if _one_worker_of_several(c, excs):
        return None  # rule A reads the launcher's record
    cls, attr = m.group("cls"), m.group("attr")
    meta = attr == "reset_parameters"
    return Verdict(
        "config",
        f"FSDP, wrapping the model at construction, called '{attr}' on the model's {cls} and that class has none "
        f"({kind}: {message[:200]}, {excs[-1].where})"
        + (": FSDP materialises a model built on the meta device by calling each module's reset_parameters, which "
           f"{cls} does not define" if meta else "")
        + " -- the installed torch and the model's library (transformers) do not fit each other or the FSDP "
        "settings, the same model and install on every rank, so no rank is at fault",
        "Make FSDP's wrapping fit the model: "
        + ("give FSDP a param_init_fn that materialises the meta-device modules (param_init_fn=lambda m: "
           "m.to_empty(device=torch.cuda.current_device(), recurse=False), or sync_module_states=True with the "
           "model loaded on rank 0) instead of relying on reset_parameters, or "
           if meta else "")
        + f"install the torch and transformers versions the project pins (check the torch version and transformers "
        f"version: pip show torch transformers; its requirements name them), so that {cls} has '{attr}' or FSDP no "
        "longer asks for it; then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# A call refused for its arguments: "_set_master_addr_port() takes 3 positional arguments but 4 were given", "f()
# missing 1 required positional argument: 'x'", "f() got an unexpected keyword argument 'y'" (the callee's name first)
_SIGNATURE_REFUSED = re.compile(r"^(?:[\w.]{1,120}\.)?(?P<fn>\w{1,80})\(\) (?:takes (?:from \d{1,3} to )?\d{1,3} "
                                r"positional arguments? but \d{1,3} (?:were|was) given|missing \d{1,3} required "
                                r"(?:positional|keyword-only) arguments?|got an unexpected keyword argument)")


def _agent_api_mismatch(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2) (round 41's sentence: one installed library rejecting another's API at start-up is config):
    every exception shown is one TypeError refusing a call's arguments, raised right under a frame of torch's own
    elastic launcher code (torchrun's agent, its rendezvous: parse._elastic_frame), with no NCCL, CUDA, timeout or
    connection failure. torch's launcher calls its own hooks with the signature of the installed torch; a method that
    refuses it is an override written against another torch -- a framework's agent subclassing torch's (DeepSpeed's
    --elastic_training DSElasticAgent) -- so the installed versions do not match: config, no rank (no worker ran). A
    TypeError raised in the script's own frames is not read here."""
    one = _one_error_matching(c, "TypeError", _SIGNATURE_REFUSED)
    if one is None:
        return None
    excs, kind, message, m = one
    if not all(e.data.get("elastic_frame") for e in excs):
        return None
    fn = m.group("fn")
    return Verdict(
        "config",
        f"torch's elastic launcher code called {fn}() and the installed method refused the call's arguments ({kind}: "
        f"{message[:200]}, {excs[-1].where}): the method is an override from a library written against another torch "
        "version (a framework's elastic agent subclassing torch's, such as DeepSpeed's --elastic_training agent), "
        "so the installed torch and that library do not match -- a version mismatch of the shared install, before "
        "any worker ran, no rank at fault",
        f"Match the library and torch versions: find which package defines the {fn} override (the frames above the "
        "error: deepspeed/elasticity/elastic_agent.py is DeepSpeed's) and upgrade it to a release made for the "
        "installed torch version (pip install -U deepspeed), or downgrade torch / pin torch to the version that "
        "library supports (its requirements or release notes name a compatible version); check both with pip show "
        "torch <package>. Until they match, launch without that library's elastic agent (drop --elastic_training, "
        "use torchrun's own). Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)




# a library whose API a serving / training framework calls from its own installed code and that changes between
# releases, known by the class names its API has: (the class pattern, the library's pip name, the framework's
# switch for running without it). FlashInfer's attention wrappers (BatchPrefillWithPagedKVCacheWrapper,
# BatchDecodeWithPagedKVCacheWrapper: begin_forward / plan / run took other arguments release to release)
_LIB_API_CLASSES = (
    (re.compile(r"^(?:Batch|Single)\w{0,60}Wrapper$"), "flashinfer",
     "run without FlashInfer (sglang: drop --enable-flashinfer or pass --disable-flashinfer, the Triton attention "
     "backend; vLLM: VLLM_ATTENTION_BACKEND=FLASH_ATTN)"),
)
_METHOD_REFUSED = re.compile(r"^(?P<cls>\w{1,80})\.(?P<fn>\w{1,80})\(\) (?:takes (?:from \d{1,3} to )?\d{1,3} "
                             r"positional arguments? but \d{1,3} (?:were|was) given|missing \d{1,3} required "
                             r"(?:positional|keyword-only) arguments?|got an unexpected keyword argument)")


def _lib_api_mismatch(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BT (2) with rule AF (2)'s round-41 sentence (round 109's sglang-565): every exception shown is one
    Python signature TypeError of a method of a known third-party library's class (_LIB_API_CLASSES: FlashInfer's
    Batch...Wrapper) refusing the arguments an installed framework's own code passes -- the innermost frame is in
    that framework's package (site-packages/<framework>/, not the library's) and its code line calls the method named
    -- with no NCCL, CUDA, timeout or connection failure. The installed library is of another release than the
    framework was written against, the same install for every worker: config, culprits [], even with one worker's
    traceback. A class the table does not know, a frame of the job's own script, or the library's own frame is not
    read here; nor where the library's name (flashinfer) appears nowhere in the traceback's frames or message (a
    path, module, function or package of it): another library's BatchSamplerWrapper is not FlashInfer's (review a of
    round 109, finding 3)."""
    one = _one_error_matching(c, "TypeError", _METHOD_REFUSED)
    if one is None:
        return None
    excs, kind, message, m = one
    cls, fn = m.group("cls"), m.group("fn")
    lib = next(((name, off) for pat, name, off in _LIB_API_CLASSES if pat.match(cls)), None)
    if lib is None:
        return None
    name, off = lib
    if not any(name in f"{file} {func} {code}".lower() for e in excs for file, func, code in
               (e.data.get("tail_frames") or ())) and name not in message.lower():
        return None  # the class name alone is no proof of the library: its name must appear in the lines (finding 3)
    fws = set()
    for e in excs:
        file, code = _innermost(e)
        pm = _LIB_FILE.search(file)
        if pm is None or pm.group("pkg") == name or f".{fn}(" not in code:
            return None
        fws.add(pm.group("pkg"))
    if len(fws) != 1:
        return None
    fw = fws.pop()
    return Verdict(
        "config",
        f"{fw}'s own code calls {name}'s {cls}.{fn}() and the installed {name} refuses the call's arguments ({kind}: "
        f"{message[:200]}, {excs[-1].where}): {name}'s API changed between releases, so the installed {name} is not "
        f"the one this {fw} release was written against -- a version mismatch of the shared install, the same on "
        "every worker, so no rank is at fault",
        f"Match the {name} version to the {fw} release: pin the {name} wheel {fw} was built against (the version "
        f"{fw}'s requirements / install docs name for that release, built for the installed torch and CUDA), or "
        f"upgrade {fw} to a release written for the installed {name}; check pip show {fw} {name} torch and reinstall "
        f"them as one matching set (a fresh environment). As a workaround, {off}. Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _name_lacking(message: str) -> str:
    """The fix's first sentence where the import failure is Python's "cannot import name 'N' from 'M'": the installed
    package (M's top-level name) lacks N in that version; a name or module path with a leading underscore is a private
    API, which changes between releases without notice. Else ''."""
    m = _import_from(message)
    if m is None:
        return ""
    name, mod = m.group("name"), m.group("mod")
    top = mod.split(".", 1)[0]
    private = name.startswith("_") or any(p.startswith("_") for p in mod.split("."))
    return (f"The installed {top} has no {name} in {mod}: that {top} version is not the one the script was written "
            f"for (the name added, renamed or removed between releases) -- check the {top} version (pip show {top}; "
            f"python -c 'import {top}; print({top}.__version__)' under the launcher's interpreter) and upgrade or "
            f"downgrade {top} to the release the script requires (pip install {top}==<that version>, or its nightly "
            "where the name is newer than any release)"
            + (f"; {name if name.startswith('_') else mod} is a private API ({mod}), which changes between releases "
               "without notice: pin that exact version, or move the script to the public API that replaced it"
               if private else "")
            + f"; an older copy of {top} found first on the path (a user site-packages under ~/.local, PYTHONPATH) "
            "hides the one installed in the environment. ")


# An installed library's own version check refusing it at import (diffusers' check_min_version in its example scripts:
# "ImportError: This example requires a source install from HuggingFace diffusers (see ...), but the version found is
# 0.14.0"; "X requires foo>=1.2, but found foo==1.0"): one library's version rejected, said in words
_VERSION_REQUIRED = re.compile(
    r"\brequires? (?:a )?source install\b|\brequires? [\w.-]{1,40} ?(?:>=|==|~=|>)\s?v?\d|"
    r"\brequires? (?:\w+ ){0,3}version\b|\bversion found is\b|\bbut found (?:version )?v?\d|"
    r"\b(?:installed|found) version\b[^\n]{0,60}?\b(?:required|requires|not supported|too old|incompatible)\b")


def _version_required(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2), with round 41's addition: a start-up ImportError whose own words say an installed library's
    version is not the one required (an example script's check_min_version, "requires foo>=X, but found Y"), and no
    NCCL, CUDA, timeout or connection failure or other exception: one installed library rejected at import -- the
    install every worker loads alike, config, no rank, even where only one traceback is shown (each worker runs the same
    check on the same install; a launcher's record names only the first exit it noticed)."""
    one = _one_error_alone(c)
    if one is None:
        return None
    excs, kind, message = one
    if not _IMPORT_FAILED.match(kind.rsplit(".", 1)[-1]) or not _VERSION_REQUIRED.search(message or ""):
        return None
    return Verdict(
        "config",
        f"the job stopped at start-up on a library's version check ({kind}: {message[:200]}, {excs[-1].where}): the "
        "installed version is not the one the code requires -- the install every worker imports, so each runs the same "
        "check and fails it alike, and no rank is at fault, whatever rank the launcher's record names first",
        f"Install the version the check asks for, as its own words say ('{message[:200]}'): upgrade the package "
        "(pip install -U <package>, or pip install <package>==<the version required>), or where it asks for a source "
        "install, install it from its repository (pip install git+https://github.com/<org>/<package>, the "
        "install-from-source instructions the message links); a library's example scripts check the library version "
        "at import (check_min_version) and want the release or commit they came from -- or check out the examples "
        "of the installed version instead. Do it in the one environment every worker runs (pip show <package> under "
        "the launcher's interpreter), then relaunch.",
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


# Python's own report of a module not installed at all: "ModuleNotFoundError: No module named 'X'" (an ImportError
# saying the same on older Pythons)
_NO_MODULE = re.compile(r"\bNo module named '?([\w.]{1,80})")


def _module_missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) and Q: the worker's traceback ends at start-up in a module that is not installed, with no
    NCCL, CUDA, timeout or connection failure shown and no other exception: every worker imports the same
    environment, so each would stop on the same import even where only one traceback (or one launcher record, of the
    first exit it noticed) is shown -- config, no rank. A rank whose run is shown failing steps aside (rule A)."""
    if _run_failed(c):
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]
    if not excs or not all(e.data["type"].endswith(("ModuleNotFoundError", "ImportError"))
                           and _NO_MODULE.search(e.data["message"] or "") for e in excs):
        return None
    name = _NO_MODULE.search(excs[-1].data["message"]).group(1)
    top = name.split(".", 1)[0]
    own = _own_package(excs[-1], top)
    if own:
        # the script importing it lies inside the checkout's own {top}/ folder: the project's package is not on the
        # path the workers start with (lead rules AF (2), Q; round 81's chinese-clip-114)
        return Verdict(
            "config",
            f"the worker stopped at start-up importing '{name}' ({excs[-1].data['type']}: "
            f"{excs[-1].data['message'][:200]}, {excs[-1].where}), the repository's own package: the script importing "
            f"it ({own}) lies inside that {top}/ folder, so it is the project's code, not a third party's, and Python "
            "finds it only when the folder holding it is on the path -- every worker starts with the same path, so "
            "each stops on the same import, not one rank's fault, whatever rank the launcher's record names first",
            f"Put the repository root (the folder holding {top}/) on the workers' PYTHONPATH: export "
            f"PYTHONPATH=${{PYTHONPATH}}:<repository root> (on Windows set PYTHONPATH=<repository root> in the shell "
            "that runs the launcher: a bash script's export may not reach the workers there) and run from the "
            f"repository root; or install the project (pip install -e . in the repository root). Check with python -c "
            f"'import {top}' under the launcher's interpreter, then relaunch.",
            "high", [], [e.brief() for e in excs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the worker stopped at start-up importing a module that is not installed ({excs[-1].data['type']}: "
        f"{excs[-1].data['message'][:200]}, {excs[-1].where}): every worker imports the same Python environment, so "
        "each would stop on the same import -- a shared install missing, not one rank's fault, whatever rank the "
        "launcher's record names first",
        f"Install '{name}' in the Python environment every worker runs (ModuleNotFoundError: No module named "
        f"'{name}': the package that ships "
        "it, at the version matching torch and the framework that imports it -- read the frame above the error for "
        f"which one; pip install {top} where the package bears the module's name, and the repository's own "
        "requirements with pip install -r requirements.txt / pip install -e . in its root; for a library's optional "
        "backend, its install notes or the setting that picks the backend), the "
        "same Python environment on every rank and node (which python / which torchrun, sys.executable under the "
        "launcher: python -m torch.distributed.run starts the workers with that same python), then "
        "relaunch." + (_SPAWN_IMPORT_FIX.format(top=top) if _spawned(c) else ""),
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


# a frame of the spawn start method's machinery: torch.multiprocessing.spawn's start_processes / join, multiprocessing's
# spawn.py (a child's spawn_main) or its popen_spawn_* (the parent starting a child)
_R_SPAWN_FRAME = re.compile(r"multiprocessing[/\\](?:spawn|popen_spawn_\w{1,10})\.py\b|\bspawn_main\(")
# what an expert adds where those processes are started by spawn: each child is a fresh interpreter that re-imports
# what it runs by module name, so a package the parent reached only by its working directory or registered at run time
# (a plugin named on the command line, a sys.path entry the script added) is not there (round 83's allennlp-4428)
_SPAWN_IMPORT_FIX = (
    " The processes were started with the spawn start method (torch.multiprocessing.spawn; DataLoader workers under "
    "spawn too): each is a fresh interpreter that re-imports every module by name, so a package the parent found "
    "only through its working directory, a sys.path entry the script added, or a plugin the framework loads by "
    "name (AllenNLP's --include-package {top}, fairseq's --user-dir) must be importable on its own there: make {top} "
    "importable in the "
    "spawned processes -- run from the package's parent directory with PYTHONPATH=. (export PYTHONPATH=$PWD), or pip "
    "install -e the package -- and check the package name; num_workers=0 shows whether the DataLoader workers are the "
    "processes that fail.")


def _spawned(c: Collected) -> bool:
    """Whether the lines show the processes started by the spawn start method: torch.multiprocessing.spawn's record
    of a child, or a traceback (cut where the paste stops, or whole: a spawned child's own, failing in spawn_main
    while it unpickles what its parent sent, round 92's mass-44) through spawn's own frames."""
    return (any(e.data.get("launcher") == "torch.multiprocessing.spawn" for e in c.child_failures + c.worker_failures)
            or any(_R_SPAWN_FRAME.search(e.text) for e in c.samples.get("tb_cut", []))
            or any(e.data.get("spawn_tb") for e in c.exceptions))


# a spawned child unpickling the function its parent sent and not finding it in the __main__ it re-imported: pickle's
# "Can't get attribute 'demo_basic' on <module '__main__' (built-in)>" (a notebook's kernel: its __main__ cannot be
# imported) or "... on <module '__main__' from 'train.py'>" (the function defined under the script's __main__ guard, or
# made at run time). Group 1: the function's name
_R_MAIN_UNPICKLE = re.compile(r"^Can't get attribute '([\w.<>]{1,120})' on <module '__main__'")
# the frames of a spawned child's own start: multiprocessing's spawn_main / _main, unpickling what its parent sent
_R_SPAWN_CHILD_FUNC = re.compile(r"^(?:spawn_main|_main)$")


def _spawn_main_unpickle(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules J and Q with BL (1)'s reading of a launch-structure fault (round 109's pytorch-ddp-example-ppak10):
    every exception shown is a spawned child's own AttributeError "Can't get attribute 'FN' on <module '__main__'
    ...>" raised while it unpickles its worker function (its traceback runs through multiprocessing's spawn_main /
    _main: crash.py's ``spawn_tb``, or the raising frame is one of them), and nothing distributed failed. The spawn
    start method starts each child as a new interpreter that re-imports __main__ and looks the function up by name; a
    notebook's __main__ (built-in) cannot be imported, and a function defined under the script's __main__ guard is not
    there. Every child meets it alike before any process group exists, so spawn's 'process N terminated with exit
    code 1' names its child index, not a culprit: config, no rank."""
    if _run_failed(c):
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]
    if not excs or not all(
            e.data.get("type", "").rpartition(".")[2] == "AttributeError"
            and _R_MAIN_UNPICKLE.match(e.data.get("message") or "")
            and (e.data.get("spawn_tb") or _R_SPAWN_CHILD_FUNC.match(e.data.get("frame_func") or ""))
            for e in excs):
        return None
    fn = _R_MAIN_UNPICKLE.match(excs[-1].data["message"]).group(1)
    notebook = "(built-in)" in excs[-1].data["message"]
    n = len(excs)
    return Verdict(
        "config",
        f"{'every spawned child shown (' + str(n) + ')' if n > 1 else 'the spawned child shown'} died at start-up "
        f"unpickling its worker function '{fn}' ({excs[-1].data['type']}: {excs[-1].data['message'][:160]}, "
        f"{excs[-1].where}): the spawn start method re-imports __main__ in each child and looks the function up by "
        "name, and "
        + ("a notebook's __main__ (built-in) cannot be imported" if notebook else
           "the __main__ it re-imported does not define it (defined under the if __name__ == '__main__' block, or "
           "made at run time)")
        + " -- every child fails alike before any process group exists, the way the job was launched, so the "
        "child index spawn reports (process N terminated) is no culprit",
        f"Move the worker function ('{fn}') into an importable .py module and import it where mp.spawn is called: the "
        "spawn start method cannot unpickle functions defined in the notebook's __main__ (nor ones defined under a "
        "script's __main__ block). Or run the script as a file (python script.py, or torchrun --nproc_per_node N "
        "script.py instead of mp.spawn) with the worker defined at module level and the process start under an if "
        "__name__ == '__main__' guard in a script; in a notebook use a notebook launcher (accelerate "
        "notebook_launcher, the Lightning ddp_notebook strategy) or torch.multiprocessing.start_processes(..., "
        "start_method='fork') where no CUDA was initialised in the kernel before it.",
        "high", [], [e.brief() for e in excs[:3]], job_wide=True)


# The dynamic linker refusing a compiled extension module at import, a symbol it was linked against missing from the
# libraries loaded with it: "ImportError: .../site-packages/bmtrain/optim/_cuda.cpython-310-x86_64-linux-gnu.so:
# undefined symbol: _ZNK3c107SymBool10guard_boolEPKcl". The extension was compiled against another version of the
# library that defines the symbol (a C++ name of torch's c10 / ATen: another torch than the one installed). Group so:
# the extension's file (its path when given), sym: the symbol.
_EXT_SYMBOL = re.compile(r"^(?P<so>[^\s:]{0,400}?\.so(?:\.[\w.]{1,20})?): undefined symbol: (?P<sym>[\w.@$]{1,300})")
# the package an installed file belongs to: the folder under site-packages / dist-packages
_SITE_PKG = re.compile(r"[/\\](?:site|dist)-packages[/\\](?P<pkg>[A-Za-z_][\w.-]{0,80}?)(?:-[\d.]+[^/\\]*)?"
                       r"(?:\.egg)?[/\\]")
# a C++ (Itanium ABI) name's outermost namespace: "_ZN3c10...", "_ZNK2at...", "_ZN5torch..."; the Python binding's
# THP* functions are torch's too
_MANGLED_NS = re.compile(r"^_ZN[rVKRO]{0,4}(?P<n>\d{1,3})")
_TORCH_NS = ("c10", "at", "torch", "caffe2", "THP", "THC")


def _symbol_owner(sym: str) -> str | None:
    """The library that should define SYM, from its name: torch for a C++ name in c10 / at / torch / caffe2 (or a
    THP* binding), a CUDA library from its C prefix (_SYMBOL_LIBS), else None."""
    m = _MANGLED_NS.match(sym)
    if m:
        n = int(m.group("n"))
        ns = sym[m.end():m.end() + n]
        return "torch" if ns in _TORCH_NS else None
    if sym.startswith("_Z"):
        return "torch" if any(t in sym[:40] for t in ("THP", "c10", "2at", "5torch")) else None
    return next((name for p, name, _ in _SYMBOL_LIBS if sym.lower().startswith(p.lower())), None)


def _torch_lib_fix(owner: str, base: str) -> str:
    """The fix where torch's own library (libtorch_cuda.so) lacks a symbol of a CUDA library it links at run time
    (NCCL, cuBLAS, cuDNN...: round 82's vllm-21633, ncclCommWindowRegister): torch was built against a newer version
    of that library than the one the process loads -- a pip wheel (nvidia-*-cuXX) left older than torch's pin, or an
    older copy ahead of it on LD_LIBRARY_PATH / LD_PRELOAD. Not a rebuild of torch: the library is to match torch."""
    name, _, so = owner.partition(" (")
    so = so.rstrip(")").split(" / ")[0]
    wheel = next((w for _, n, w in _SYMBOL_LIBS if n == owner), "its nvidia wheel")
    head = name[:1].upper() + name[1:]
    return (f"{head} version mismatch: torch ({base}) was built against a newer {name} than the {so} this process "
            f"loads. Upgrade {wheel} to the version torch was built with (pip show torch lists the {wheel} it "
            "requires; pip install -U that version), or reinstall torch with its matching "
            f"{wheel} wheel (pip install --force-reinstall torch, and the framework built for that torch; pip "
            f"check); unset LD_LIBRARY_PATH / LD_PRELOAD pointing at an older {so} -- check which {so} is loaded "
            f"(ldd {base} | grep {so.split('.')[0].removeprefix('lib')}; cat /proc/<pid>/maps | grep "
            + so.split(".")[0] + "), the same on every node. ")


def _ext_symbol(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2) with round 41's addition (one installed library rejecting another at start-up): every
    traceback shown ends in Python's ImportError (or OSError) of a compiled extension module that the dynamic linker
    refuses for an undefined symbol, with no NCCL, CUDA, timeout or connection failure shown. The extension was built
    against another version of the library that defines the symbol (most often torch: a c10 / ATen C++ name) than the
    one installed -- the shared install every worker imports, so each stops on the same import even where one
    traceback is shown, whatever rank a launcher's record names first: config, no rank. NCCL's own probes of a
    library ("dlvsym failed on ...: undefined symbol", INFO) are no exception and are not read here."""
    if _run_failed(c):
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]
    said = [_EXT_SYMBOL.match(e.data.get("message") or "") for e in excs]
    if not excs or not all(said) or not all(e.data["type"].rpartition(".")[2] in ("ImportError", "OSError")
                                            for e in excs):
        return None
    m = said[-1]
    so, sym = m.group("so"), m.group("sym")
    base = so.replace("\\", "/").rsplit("/", 1)[-1]
    p = _SITE_PKG.search(so)
    pkg = p.group("pkg") if p else base.split(".", 1)[0]
    owner = _symbol_owner(sym)
    by = owner or "the library that defines it"
    torch = owner == "torch"
    fix = (_torch_lib_fix(owner, base) if pkg == "torch" and owner and not torch else
           f"Rebuild {pkg} against the installed {by}, or install the {by} version it was compiled against: "
           f"pip uninstall {pkg}, then reinstall {pkg} against the installed {by}, from source in this "
           f"environment (pip install --no-build-isolation --no-cache-dir {pkg}, or python setup.py install in its "
           f"checkout) so its extension compiles against the {by} that is installed -- --no-build-isolation keeps "
           "pip from building it against "
           "another torch it downloads; a prebuilt wheel must be one made for this exact torch / CUDA version. "
           + ("Check both versions under the launcher's interpreter (python -c 'import torch; print("
              "torch.__version__, torch.version.cuda)'; pip show {pkg}) against the torch version its requirements.txt"
              " / release notes name, and keep the same torch version on every node. ".replace("{pkg}", pkg)
              if torch else
              f"Check which {by} loads (ldd {base}; LD_LIBRARY_PATH) and its version against the one {pkg} was built "
              "with, the same on every node. "))
    return Verdict(
        "config",
        f"the worker stopped at start-up importing {pkg}'s compiled extension {base}: the dynamic linker found an "
        f"undefined symbol, {sym} ({excs[-1].data['type']}, {excs[-1].where}) -- the extension was compiled against "
        f"another version of {by} than the one installed{' (a C++ name of torch c10 / ATen)' if torch else ''}, a "
        "version mismatch of the shared install every worker imports alike, so each would stop on the same import; no "
        "rank is at fault, whatever rank a launcher's record names first",
        fix + f"python -c 'import {pkg}' alone reproduces it without the launcher; then relaunch.",
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


# The names an optional package of distributed training is imported under, by its own docs' convention ("import
# bmtrain as bmt", "import horovod.torch as hvd"): frameworks import such a package inside a guard (try: ... except
# ImportError: pass, or only when a setting asks for it), so where it is not installed or fails to import the name is
# left unbound and the first use raises NameError. Name -> (the import that binds it, the package to install).
_OPTIONAL_MODULES = {
    "bmt": ("import bmtrain as bmt", "bmtrain"), "bmtrain": ("import bmtrain", "bmtrain"),
    "hvd": ("import horovod.torch as hvd", "horovod"), "horovod": ("import horovod", "horovod"),
    "apex": ("import apex", "apex"), "deepspeed": ("import deepspeed", "deepspeed"),
    "xformers": ("import xformers", "xformers"), "flash_attn": ("import flash_attn", "flash-attn"),
    "bnb": ("import bitsandbytes as bnb", "bitsandbytes"), "bitsandbytes": ("import bitsandbytes", "bitsandbytes"),
    "te": ("import transformer_engine.pytorch as te", "transformer_engine"),
    "transformer_engine": ("import transformer_engine", "transformer_engine"),
    "xm": ("import torch_xla.core.xla_model as xm", "torch_xla"), "torch_xla": ("import torch_xla", "torch_xla"),
    "torch_npu": ("import torch_npu", "torch_npu"),
    "amp": ("from apex import amp", "apex"),
}
# what to install where a package's PyPI name is another project's (apex on PyPI is not NVIDIA's), and the way round it
_OPTIONAL_INSTALL = {
    "apex": ("Install NVIDIA apex in the Python environment every worker runs, built from its source with its "
             "C++/CUDA extensions (git clone https://github.com/NVIDIA/apex; pip install -v --no-build-isolation "
             "--config-settings \"--build-option=--cpp_ext\" --config-settings \"--build-option=--cuda_ext\" ./ -- "
             "`pip install apex` from PyPI is another project), or run without apex amp: torch.cuda.amp instead of "
             "apex (the script's native-AMP option, or its AMP opt level O0 / amp off)"),
}
_NAME_UNDEFINED = re.compile(r"^name '(?P<name>\w{1,80})' is not defined\b")
# The guard's other form: the name bound to None where the import failed ("try: from apex import amp / except
# ImportError: amp = None"), so the first call through it raises AttributeError: 'NoneType' object has no attribute
# 'initialize' -- read only where the frame's code line shows that call on the name itself (_R_NONE_CALL, its group
# name) and the attribute is the one the message names
_R_NONE_CALL = re.compile(r"(?:^|[^\w.])(?P<name>[A-Za-z_]\w{0,40})\.(?P<attr>\w{1,80})\(")


def _none_placeholder(e) -> re.Match | None:
    """An AttributeError "'NoneType' object has no attribute 'X'" raised by a frame whose code line calls NAME.X(...):
    the match of that call (its group name), else None."""
    m = S.R_NONE_ATTR.match(e.data.get("message") or "") if e.data["type"].rpartition(".")[2] == "AttributeError" \
        else None
    call = _R_NONE_CALL.search(e.data.get("frame_code") or "") if m else None
    return call if call is not None and call.group("attr") == m.group("attr") else None


def _optional_unbound(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) and Q (rule AW: code every rank runs): every traceback shown ends in a NameError for the name
    an optional distributed-training package is imported under (_OPTIONAL_MODULES: "name 'bmt' is not defined" is
    bmtrain's "import bmtrain as bmt"), with no NCCL, CUDA, timeout or connection failure shown. The framework imports
    that package inside a guard; the name is unbound because the package is not installed, or failed to import, in
    the environment every worker runs -- the shared install, so every worker would stop on the same name, even where
    one traceback and a launcher's record of one local rank are shown: config, no rank. A NameError of the script's
    own name (a typo, a variable) stays the script's bug (verdict.unread._script_bug)."""
    if _run_failed(c):
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]
    said = [_NAME_UNDEFINED.match(e.data.get("message") or "") for e in excs]
    if excs and not all(said) and not any(e.data.get("in_handler") for e in excs):
        said = [_none_placeholder(e) for e in excs]  # the guard's other form: the name bound to None
        if not all(said):
            return None
        err = f"AttributeError: {excs[-1].data.get('message') or ''}"[:160]
    elif not excs or not all(said) or any(e.data["type"].rpartition(".")[2] != "NameError"
                                          or e.data.get("in_handler") for e in excs):
        return None
    else:
        err = f"NameError: name '{said[0].group('name')}' is not defined"
    names = {m.group("name") for m in said}
    if len(names) != 1 or (name := next(iter(names))) not in _OPTIONAL_MODULES:
        return None
    stmt, pkg = _OPTIONAL_MODULES[name]
    how = ("left unbound" if err.startswith("NameError") else f"set to None ({name} = None in the guard's except)")
    return Verdict(
        "config",
        f"the worker stopped at start-up on {err} ({excs[-1].where}): '{name}' is the name {pkg} is imported under "
        f"({stmt}), which frameworks import only inside a guard that leaves it {how} where the import fails -- so "
        f"{pkg} is not installed, or failed to import, in the environment every worker runs: a shared install "
        "missing, the same on every process, not one rank's fault, whatever rank the launcher's record names first",
        (_OPTIONAL_INSTALL[pkg] + ". Check" if pkg in _OPTIONAL_INSTALL
         else f"Install {pkg} in the Python environment every worker runs (pip install {pkg}, or its setup.py install "
         "/ the install steps of the framework's README for its multi-GPU mode, at the version matching torch), then "
         "check") + f" it imports on its own: python -c '{stmt}' under the launcher's interpreter (which python) "
        "-- an ImportError there (a missing CUDA extension, a torch version mismatch) is the error the framework's "
        f"guard hid behind the {err.partition(':')[0]}; the same environment on every node, then relaunch.",
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


def _usage_exit(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules U (2) and Q: torchrun's failure table shows several workers failing -- an entry under its
    "Failures:" list (the failures besides its root cause) or more than one entry -- every one shown with exit code
    2, and nothing else: no exception, no NCCL, CUDA, timeout or connection failure. Exit status 2 is how a Python
    process ends on its command line before it runs (argparse's usage error, "unrecognized arguments"; the
    interpreter's "can't open file"); several workers ending so at once were all started with the same wrong command
    line, so the table's ranks are no culprits: config, at medium confidence, the workers' own stderr not being
    shown. One worker's exit 2 alone (another launcher's record, a lone entry) stays that worker's (lead rule A)."""
    fails = c.child_failures + c.worker_failures
    codes = {e.data.get("exitcode") for e in fails}
    table = all(e.kind == "child_failed" and (e.data.get("root") or e.data.get("listed")) for e in fails)
    several = any(e.data.get("listed") for e in fails) or len({e.data.get("pid") for e in fails}) > 1
    if codes != {2} or not table or not several or _run_failed(c) or any(not e.data.get("line")
                                                                         for e in c.exceptions):
        return None
    return Verdict(
        "config",
        "the launcher's record shows its worker(s) exiting with code 2 and no exception of their own: exit code 2 is "
        "Python's status for a command line it refuses before the script runs (argparse's usage error, "
        "'unrecognized arguments'; the interpreter's \"can't open file\" for a wrong script path) -- every worker "
        "is launched with the same arguments, so no rank is at fault",
        "Check the worker's own stderr (the usage line argparse prints above the record names the argument). Most "
        "often torch.distributed.launch of torch >= 2.0 passes --local-rank=N where the script's argparse only "
        "accepts --local_rank: accept both spellings (parser.add_argument('--local-rank', '--local_rank', "
        "type=int, dest='local_rank')), or read LOCAL_RANK from the environment and launch with torchrun (no "
        "argument passed); else correct the script path or arguments in the launch command, then relaunch.",
        "medium", [], [e.brief() for e in fails[:2]], job_wide=True)


# the CUDA library a symbol's name comes from, and the pip wheel that ships it (torch's CUDA builds depend on them)
_SYMBOL_LIBS = (("cublasLt", "cuBLASLt (libcublasLt.so)", "nvidia-cublas-cuXX"),
                ("cublas", "cuBLAS (libcublas.so)", "nvidia-cublas-cuXX"),
                ("cudnn", "cuDNN (libcudnn.so)", "nvidia-cudnn-cuXX"),
                ("cufft", "cuFFT (libcufft.so)", "nvidia-cufft-cuXX"),
                ("cusparse", "cuSPARSE (libcusparse.so)", "nvidia-cusparse-cuXX"),
                ("cusolver", "cuSOLVER (libcusolver.so)", "nvidia-cusolver-cuXX"),
                ("curand", "cuRAND (libcurand.so)", "nvidia-curand-cuXX"),
                ("nvrtc", "NVRTC (libnvrtc.so)", "nvidia-cuda-nvrtc-cuXX"),
                ("nccl", "NCCL (libnccl.so)", "nvidia-nccl-cuXX"),
                ("cuda", "the CUDA runtime or driver (libcudart.so / libcuda.so)", "nvidia-cuda-runtime-cuXX"))
# what shows the processes that printed it ended: a crash handler, a worker's or launcher's record of its death
_DIED = {"crash": "a crash handler's signal", "ray_died": "Ray's report of its worker dying",
         "fatal_python": "a Fatal Python error", "child_failed": "the launcher's failure record",
         "worker_failed": "a worker's failure record"}


# what may follow the driver's NVML library failing a process mid-run: the others timing out on it in a collective,
# their watchdog's abort (lead rule AX (2))
_AFTER_DRIVER = ("watchdog_timeout", "heartbeat", "crash")


def _nvml_too_old(evs: list, timed_out: bool) -> Verdict:
    """Lead rules AF (2), AX (2): the NVIDIA driver's NVML library (libnvidia-ml) lacks a function the torch build
    calls ("undefined symbol: nvml..."): the driver installed is older than the build needs -- the host's shared
    install, config, no rank; ranks timing out in a collective beside it wait on the process it failed."""
    e = evs[0]
    sym, lib = e.data["symbol"], e.data["driver_lib"]
    return Verdict(
        "config",
        f"the NVIDIA driver's NVML library {lib} has no {sym} ('{e.text.strip()[:200]}', {e.where}): the torch build "
        "looks up a driver function that the installed driver is too old to have -- the driver too old for this "
        "PyTorch, a host install every process loads alike, not a rank's fault"
        + ("; the ranks timing out in a collective beside it waited for the process it failed" if timed_out else ""),
        f"Upgrade the NVIDIA driver to one at least as new as this PyTorch build's CUDA needs (nvidia-smi shows the "
        f"driver and the highest CUDA it supports; the libnvidia-ml.so that loads must export {sym}: "
        f"nm -D {lib.rsplit('/', 1)[-1]} | grep {sym}), or install a PyTorch build for the CUDA version the driver "
        "supports -- match PyTorch build and driver on every node; check that no older libnvidia-ml.so copy (a "
        "container's, LD_LIBRARY_PATH) is found before the driver's own.",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


def _lib_unloadable(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) and J: a library's loader could not resolve a function in a shared library ("Cannot load
    symbol cublasLtGetVersion"), and the processes then died (a crash handler's SIGABRT, a worker's death). The
    library installed is missing or of another version than the code calling it expects: the job's shared install,
    which every process loads alike, so no rank is at fault (a Ray actor's name or pid is no rank, rule AD (2)):
    config. None when an NCCL, CUDA, timeout or connection failure is shown (a rank's own run failing), or nothing
    died (a loader that goes on without the function)."""
    evs = c.samples.get("lib_unloadable", [])
    drv = [e for e in evs if e.data.get("driver_lib")]
    if drv and not any(c.kinds.get(k) for k in _NOT_SETTINGS if k not in _AFTER_DRIVER):
        return _nvml_too_old(drv, bool(c.kinds.get("watchdog_timeout")))
    gone = [e for e in evs if e.data.get("lib")]
    if gone and not _run_failed(c):
        return _lib_not_loaded(gone)
    looked = [e for e in evs if e.data.get("lookup")]
    if looked and not _run_failed(c):
        return _symbol_lookup(looked)
    evs = [e for e in evs if e.data.get("symbol")]
    if not evs or not any(c.kinds.get(k) for k in _DIED) and not c.exceptions:
        return None
    if _run_failed(c, but="crash"):
        return None
    e = evs[0]
    sym = e.data["symbol"]
    lib, wheel = next(((name, w) for p, name, w in _SYMBOL_LIBS if sym.lower().startswith(p.lower())),
                      (f"the shared library that exports {sym}", None))
    times = max(x.data.get("repeated", 0) for x in evs)
    alike = (f", repeated {times}x across the cluster (Ray's count of the same line from its workers)" if times else
             f", from {len({x.where for x in evs})} lines" if len(evs) > 1 else "")
    died = ("the processes then died (" + ", ".join(w for k, w in _DIED.items() if c.kinds.get(k)) + ")"
            if any(c.kinds.get(k) for k in _DIED) else "a traceback followed")
    return Verdict(
        "config",
        f"a library loader could not resolve {sym} from {lib} ({e.text[:200]}, {e.where}){alike}, and {died}: the "
        f"library installed is missing or of another version than the code that calls it was built for (a {lib} "
        "version mismatch with torch or an extension such as TransformerEngine, or another copy found first on "
        "LD_LIBRARY_PATH) -- the job's shared install, which every worker loads alike, so no rank is at fault",
        f"Make the {lib} that loads the one the code was built for: compare the CUDA version torch and the extensions "
        "were built with (python -c 'import torch; print(torch.version.cuda)', TransformerEngine's / apex's build) "
        "with the CUDA library versions installed (pip list | grep nvidia"
        + (f"; the {wheel} wheel" if wheel else "") + ", ldconfig -p) and the CUDA toolkit and driver versions "
        "(nvidia-smi); find which copy is loaded first (LD_LIBRARY_PATH, a system CUDA under /usr/local/cuda ahead "
        "of the pip wheels; LD_DEBUG=libs python -c 'import torch'), then reinstall the matching version "
        + (f"(reinstall {wheel} matching torch's CUDA) " if wheel else "")
        + "or use a container whose CUDA libraries match, the same on every node, and relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _symbol_lookup(evs: list) -> Verdict:
    """Lead rule AF (2) (one installed library rejecting another; round 89's npkit-38): the dynamic linker stopped the
    program at run time on a function its libraries do not define ("all_reduce_perf: symbol lookup error: ...:
    undefined symbol: ncclCommRegister"), every process shown alike, before any communicator exists. The object ld.so
    names after "symbol lookup error:" is the one that references the symbol (the program itself, or a library it
    loaded): that object was built against another version of the library that defines the symbol (its headers newer
    than the libnccl.so.2 loaded: an API that NCCL release lacks) -- the shared install every process loads: config,
    no rank, whichever process printed it. The fix is the object's: an nccl-tests binary (all_reduce_perf...) rebuilt
    with NCCL_HOME; torch's own library (libtorch_cuda.so under python) matched by the CUDA library's wheel
    (_torch_lib_fix), not a rebuild; any other object rebuilt against, or run with, the same library version."""
    e = evs[0]
    sym, obj = e.data["symbol"], e.data["lookup"]
    prog = e.data.get("lookup_prog") or obj
    base = obj.replace("\\", "/").rsplit("/", 1)[-1] or obj
    pbase = prog.replace("\\", "/").rsplit("/", 1)[-1] or prog
    lib, wheel = next(((name, w) for p, name, w in _SYMBOL_LIBS if sym.lower().startswith(p.lower())),
                      ("the library that should define it", None))
    nccl = lib.startswith("NCCL")
    known = wheel is not None
    tests = nccl and (base.endswith(("_perf", "_perf_mpi")) or "nccl-tests" in obj)
    torch_lib = base.startswith("libtorch") and known
    short = lib.split(" (")[0]
    n = len({x.where for x in evs})
    who = base if base == pbase else f"{base}, a library {pbase} loaded,"
    if torch_lib:
        fix = _torch_lib_fix(lib, base)
    elif tests:
        fix = (f"Build and run {base} against the same NCCL (an NCCL version mismatch between build and runtime): "
               f"check which library it loads (ldd {obj} | grep nccl; "
               "LD_LIBRARY_PATH) against the one whose headers it was built with; rebuild nccl-tests against the NCCL "
               "used: make clean; make NCCL_HOME=<that NCCL's install> (MPI=1 MPI_HOME=... if used), and put the same "
               f"NCCL's lib first on LD_LIBRARY_PATH at run time -- or use an NCCL version that has {sym} (an "
               "nccl-tests release matching the installed NCCL version), the same on every node. ")
    else:
        fix = (f"Build and run {base} against the same version of {short}: check which one it loads (ldd {obj} | "
               "grep " + (lib.split("(")[1].split(".")[0].removeprefix("lib") if known else "<library>")
               + f"; LD_LIBRARY_PATH) against the one whose headers it was built with; rebuild {base} against the "
               "version it runs with, or put the version it was built with first on LD_LIBRARY_PATH (or install a "
               f"version that has {sym}), the same on every node. ")
    return Verdict(
        "config",
        f"{pbase} stopped at run time on the dynamic linker's 'symbol lookup error': {who} references {sym}, which is "
        f"undefined in the libraries loaded ({e.text.strip()[:200]}, {e.where}"
        + (f", the same from {n} lines: every process shown" if n > 1 else "")
        + f") -- {base} was built against another version of {lib} (one that defines {sym}) than the one loaded "
        "at run time, a version mismatch of the shared install every process loads alike, so no rank is at fault",
        fix + "Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _lib_not_loaded(evs: list) -> Verdict:
    """Lead rules AF (2) and AT (1): a shared library the job needs could not be loaded at start-up, said as an error
    (a framework's dynamic loader, Python's ImportError/OSError): the install every process loads alike -- the
    library absent from the loader's path, or built for a newer C runtime than the host's (the linker's "version
    `GLIBC_2.14' not found") -- so no collective ran and no rank is at fault: config. An error line is itself the
    failure shown: nothing need die after it."""
    e = next((x for x in evs if x.data.get("glibc")), evs[0])
    lib, ver = e.data["lib"], e.data.get("glibc")
    nccl = "nccl" in lib.lower()
    why = (f"the host's C runtime ({e.data['libc']}) lacks {ver}, which that {lib} build requires: a build made for a "
           "newer OS (glibc) than this host's" if ver else
           f"the loader does not find {lib} on its path (not installed, or its directory not on LD_LIBRARY_PATH)")
    return Verdict(
        "config",
        f"a shared library the job needs could not be loaded at start-up ({e.text[:200]}, {e.where}): {why} -- the "
        "job's shared install, which every process loads alike, failed before any collective ran, so no rank is at "
        "fault",
        (f"Install a {lib} built for this host: the host's glibc version is what ldd --version prints, and objdump -T "
         f"{lib} | grep GLIBC lists the versions the library needs -- take a build of it for this OS's glibc ("
         + ("an NCCL build matching the OS glibc and the CUDA version the framework was built with: the distribution's "
            "libnccl2 package, or the framework's own wheel that bundles NCCL" if nccl else
            "the distribution's own package, or one built on this OS")
         + "), or upgrade the OS / glibc (a container image of a newer OS). " if ver else
         f"Install {lib} " + ("(NCCL, for the CUDA version the framework was built with) " if nccl else "")
         + "in the environment every process runs, or find where it is installed (ldconfig -p | grep "
         + lib.split(".so")[0] + "; find / -name '" + lib.split(".so")[0] + ".so*'). ")
        + (f"The message names the variable that points at the library's file: set {var} to the full path of a "
           f"{lib} that exists (export {var}=/path/to/{lib}, the same on every node), or unset it to take the one "
           "the loader finds. " if (var := e.data.get("path_var")) else "")
        + "Point LD_LIBRARY_PATH at the directory of the library to load (export LD_LIBRARY_PATH=DIR:"
        "$LD_LIBRARY_PATH, the same on every node; ldd on the library shows what it resolves), then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _launcher_shim(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules X (2) and AF (2): the Windows console-script launcher (torchrun.exe, deepspeed.exe: the .exe shim
    pip writes, which starts the Python interpreter whose path it embeds) could not create that process, before any
    worker existed: the install or environment the launcher was written for (a moved or removed Python, a venv or
    conda env copied elsewhere, another env's Scripts first on PATH), config with no rank. None when a rank's own
    run is shown failing (an NCCL, CUDA, timeout or connection failure: the job got past its launch)."""
    evs = c.samples.get("launcher_shim", [])
    if not evs or _run_failed(c):
        return None
    using = next((e.data["using"] for e in evs if e.data.get("using")), "")
    return Verdict(
        "config",
        f"the launcher itself failed before any worker started ('{evs[0].text[:160]}', {evs[0].where}): on Windows a "
        "console script such as torchrun.exe is a small launcher that starts the Python interpreter whose path was "
        "written into it at install time, and it could not create that process"
        + (f" ({using[:160]})" if using else "") + " -- the Python install or environment it was made for moved, "
        "was removed or is not the active one: the launch set-up, no rank",
        "Run the launcher through the environment's own Python instead of its .exe shim: python -m "
        "torch.distributed.run --standalone --nproc_per_node=N script.py (the same as torchrun); check which torchrun "
        "is found first (where torchrun, the Python path it embeds: python -c \"import sys; print(sys.executable)\" "
        "in the environment you meant) and reinstall torch in that environment (pip install --force-reinstall "
        "torch) so its Scripts\\torchrun.exe points at it. On Windows from Git Bash/MINGW, run from the "
        "activated conda/venv environment. Windows: use WSL or a single GPU (NCCL multi-GPU training needs Linux or "
        "WSL); with one GPU the script needs no launcher: run it directly (python script.py).",
        "high", [], [e.brief() for e in evs[:2]], job_wide=True)


def _cann_python_env(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules CD (its launch-environment reading) and AZ (3), as round 105's llamafactory-5638 reads them: CANN's
    EC0010 -- its graph engine / TBE compiler, started by a process group's first HCCL call, could not import its own
    Python module ("No module named 'tbe....'") -- under an Ascend header naming one rank: the toolkit's Python
    packages are not on the path of the Python every worker runs (set_env.sh not sourced, CANN installed for another
    Python, te / tbe wheels missing), a setting every worker shares, not that rank or its NPU: config, no rank.
    Not rule AN (2)'s device error: no runtime call on the device is shown failing. None when a device error, an OOM,
    a timeout or a peer's loss is shown beside it (the run got further; those read first), nor where an Ascend
    device's own error (EE9999 / EZ9999, "error from device(chipId:N", an aicore error) is shown for any chip or rank
    (readers.crash: device_error): that NPU failed. Medium, not high, where only one rank is shown (review 105 (3)
    finding 3)."""
    evs = c.samples.get("cann_python_env", [])
    if not evs or _run_failed(c) or any(e.data.get("device_error") for e in evs):
        return None
    shown = {e.data["head_rank"] for e in evs if e.data.get("head_rank") is not None} | {
        r for r in c.ranks if r is not None}
    e = evs[0]
    said = f"{e.data['exc']}: {e.data['msg'][:200]}"
    who = f"rank {e.data['head_rank']}" if e.data.get("head_rank") is not None else "a worker"
    return Verdict(
        "config",
        f"CANN's EC0010 on {who} ({e.where}): its compiler (TBE, started by the process group's first HCCL call) "
        f"failed to import its own Python module [{said}] -- the CANN toolkit's Python packages are not importable "
        "from the Python the job runs, an environment every worker is launched with, not a fault of that rank or "
        "its NPU",
        "Source the CANN set_env.sh (source /usr/local/Ascend/ascend-toolkit/set_env.sh, or the set_env.sh of the "
        "toolkit path you installed) in every worker's environment before launching, so PYTHONPATH points at CANN's "
        "python site-packages (te / tbe); run in the Python environment CANN was installed for (reinstall / repair "
        "the CANN toolkit's te / tbe wheels into the training Python otherwise) and match CANN, torch_npu and Python "
        "versions; check with python -c 'import tbe, te' under the launcher's interpreter, then relaunch.",
        "high" if len(shown) > 1 else "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


def _source_build(evs: list) -> Verdict:
    """Lead rule AF (2) (round 89's caffe2-406): a source build stopped in its compiler (nvcc's "N error detected in
    the compilation of ...", readers.crash's ``source_build``), no exception and no run shown: the build of the job's
    software -- a framework's bundled NCCL (third_party/nccl) made by its make / cmake, an extension -- failed before
    anything ran, the install every process would load: config, no rank. A JIT build's own failure record (ninja's
    CalledProcessError, "Error building extension") is read by the build branch of ``_settings_check`` instead. The
    NCCL words (a bundled third_party/nccl, USE_SYSTEM_NCCL, USE_NCCL=OFF) only where the failing file is NCCL's
    (``nccl_build``: its path, or make's lines after it, name NCCL's tree); another build (flash-attn's kernels, an
    extension) gets the build environment's fix alone."""
    e = evs[0]
    nccl = any(x.data.get("nccl_build") for x in evs)
    return Verdict(
        "config",
        f"the source build stopped in its compiler ('{e.data['message'][:200]}', {e.where}): the build of the job's "
        + ("software (the framework's bundled NCCL, third_party/nccl, built by its make / cmake)" if nccl else
           "software (a library or extension compiled from source)")
        + " failed before anything "
        "ran -- the CUDA toolkit version, the host compiler or the source checkout do not build together, the install "
        "every process would load, so no rank is at fault",
        "Read the compiler's first error (the 'error:' line above). Then fix the build environment: a CUDA toolkit "
        "version and host compiler (gcc) version pair the source supports (nvcc --version; gcc --version), a clean, "
        "complete source checkout (git submodule update --init --recursive"
        + (", so a bundled third_party/nccl matches the framework's commit" if nccl else "")
        + ") and a clean build directory (rm -rf build, then rebuild). "
        + ("For a framework building its bundled NCCL, build against a prebuilt / system NCCL instead "
           "(USE_SYSTEM_NCCL=1 with NCCL_ROOT, or an NCCL version the framework supports, built standalone), or build "
           "without NCCL (USE_NCCL=OFF) where one GPU is used; or install the framework's prebuilt binaries instead "
           "of building from source." if nccl else
           "Check that the version being built supports this CUDA toolkit and GPU architecture (its README's "
           "requirements; TORCH_CUDA_ARCH_LIST / the -arch flags to the GPUs there are) and the installed torch it "
           "builds against; or install a prebuilt wheel / binary matching the torch and CUDA versions instead of "
           "building from source."),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# DeepSpeed's batch identity, which its _batch_assertion checks (one wording for the framework-check and the
# batch-assert fixes: review 92 s2, finding 15)
_DS_BATCH_EQ = "train_batch_size = micro_batch_per_gpu x gradient_accumulation_steps x world_size"


# The op's name as a DeepSpeed op (its torch_extensions directory, DS_BUILD_<NAME>): the CPU optimizers' and fused
# optimizers' ops, the async I/O and inference ops -- a build of another extension gets the generic words
_R_DS_OP = re.compile(r"(?:cpu|fused)_[a-z]{1,20}|async_io|transformer(?:_inference)?|quantizer|utils|"
                      r"sparse_attn|evoformer_attn|fp_quantizer|ragged_(?:ops|device_ops)|inference_core_ops")


def _op_build(evs: list, build: str, text: str) -> Verdict:
    """The JIT build or load of an op the job compiles on first use failing at start-up (lead rule AF (2)): ninja /
    the compiler exiting non-zero, 'Error building extension', the .so the others wait for missing from
    ~/.cache/torch_extensions -- or DeepSpeed's CPU optimizer's destructor finding no compiled op
    (S.R_DS_OP_UNSET: its __init__'s CPUAdamBuilder().load() raised, round 93's lmflow-471, simple-grpo-7). The shared
    software every rank builds or loads alike: config, no rank. The fix names the op: its DS_BUILD_<NAME> switch and
    its builder's one-line load where it is one of DeepSpeed's."""
    e = evs[0]
    # the destructor's line is the evidence only where no line of the build or load itself is shown
    unset = next((x for x in evs if x.data.get("op_unset")), None) if all(
        x.data.get("op_unset") for x in evs if x.data.get("build")) else None
    if unset is None and e.data.get("op_unset"):
        e = next(x for x in evs if x.data.get("build") and not x.data.get("op_unset"))
        text = e.data["type"] + ": " + e.data["message"]
    what = f"extension '{build}'" if build != "op" else "an op (a C++/CUDA extension)"
    ds = build if _R_DS_OP.fullmatch(build) else None
    shown = (f"{unset.data['op_unset']}'s destructor found no compiled op (\"{unset.data['message'][:120]}\", "
             f"{unset.where}): its __init__ loads the {build} op (CPUAdamBuilder().load() for DeepSpeedCPUAdam, a "
             "JIT build on first use) and that load raised, so the object never got it"
             if unset is not None else f"torch's cpp_extension JIT build, {text[:200]}, {e.where}")
    own = ("Find the load's own error above the destructor's lines (ninja's / the compiler's output, 'Error building "
           f"extension', an ImportError of {build}.so), or run it once alone: {S.ds_op_load_cmd(build)}. "
           if unset is not None and ds and build.startswith("cpu_") else
           "Read the compiler's own error above 'ninja: build stopped: subcommand failed' (the first 'error:' line). ")
    return Verdict(
        "config",
        f"the job stopped at start-up building or loading {what} it compiles on first use ({shown}): the build "
        "toolchain (CUDA toolkit, compiler, ninja) every rank shares failed, and one rank builds while the others "
        "wait on the same build, so the rank that printed it is no culprit",
        own + "Then check the build environment every node shares: CUDA_HOME / nvcc matching torch's CUDA (nvcc "
        "--version against python -c 'import torch; print(torch.version.cuda)'), a gcc/g++ version that CUDA "
        "toolkit supports, ninja installed (pip install ninja); for DeepSpeed run ds_report (which ops are "
        "compatible and installed) and pre-build the op at install instead of on first use ("
        + (S.ds_op_rebuild(build) if ds else "DS_BUILD_OPS=1 or DS_BUILD_<OP>=1 pip install deepspeed")
        + "); clear a stale or half-written build dir (clear torch_extensions cache: ~/.cache/torch_extensions"
        + (f"/<py_cu>/{build}" if ds else "") + ", or TORCH_EXTENSIONS_DIR on a local disk each node can write) and "
        "relaunch every rank."
        + (f" To train without the op meanwhile: {S.DS_OFFLOAD_OFF} -- ZeRO's "
           "offload_optimizer device none, or a torch optimizer." if ds and build.startswith("cpu_") else ""),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _dispatch_uneven(e, evs: list) -> Verdict:
    """Lead rule W (round 104's llamafactory-2763): accelerate's own check in its DataLoaderDispatcher refusing
    per-process batches of different sizes under dispatch_batches=True (an IterableDataset, streaming): the main
    process fetches every process's batch and concatenates them, so an uneven batch (a short last batch, unpadded
    sequence lengths) cannot be dispatched. The dataloader settings every process shares: config, no rank."""
    return Verdict(
        "config",
        f"accelerate's DataLoaderDispatcher refuses batches of different size ('{e.text.strip()[:200]}', {e.where}): "
        "with dispatch_batches=True (the default for an IterableDataset, e.g. a streaming dataset) the main process "
        "fetches the batches of every process and concatenates them, and the batches it fetched differ in size (a "
        "short last batch, sequences padded to different lengths) -- the dataloader settings every process shares, "
        "not a rank's fault",
        "Pass split_batches=True (the main process fetches one full batch and slices it into num_processes equal "
        "parts; the batch size then counts all processes), or dispatch_batches=False (each process fetches its own "
        "batch) -- accelerate's DataLoaderConfiguration / Accelerator(dispatch_batches=False, split_batches=True), "
        "in the HF Trainer accelerator_config split_batches / dispatch_batches in TrainingArguments; or make every "
        "batch the same size: pad to a fixed length (padding='max_length' / pad_to_multiple_of) when streaming an "
        "IterableDataset, and drop_last=True / equal batch sizes for the last batch. Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _jit_cache(e, evs: list) -> Verdict:
    """Lead rules AF (2), BV (4), J (round 104's pytorch-173679): a module of the JIT compiler's own kernel cache
    (Triton's ~/.triton/cache, Inductor's /tmp/torchinductor_<user>) failing to load -- the shared software every rank
    builds and loads the same way, whichever rank printed it: config, no rank. 'Stale file handle' (or another
    storage error) says the cache sits on a network filesystem that other processes rewrite."""
    path, why = e.data["jit_cache"], e.data.get("jit_why") or ""
    inductor = "torchinductor_" in path
    var = "TORCHINDUCTOR_CACHE_DIR" if inductor else "TRITON_CACHE_DIR"
    disk = S.R_STORAGE_ERR.search(why)
    return Verdict(
        "config",
        f"{'Inductor' if inductor else 'Triton'}'s JIT cache cannot load one of its compiled modules ({path}"
        + (f": {why}" if why else "") + f"; {e.where}"
        + (f", {len(evs)} tracebacks alike" if len(evs) > 1 else "") + "): the kernels torch.compile builds are "
        "loaded from a cache every process of the job shares"
        + (f" -- '{disk.group(0)}' is that cache's storage failing under it: a cache directory on a network "
           "filesystem (NFS) that other ranks or nodes rewrite while this process reads it" if disk else
           " -- a module written partly or by another build (processes compiling into one cache at once)")
        + "; the shared software's build, not a rank's fault",
        (f"Give the compiler's cache a node-local disk: export {var}=/tmp/torchinductor_cache (Inductor's cache "
         "on a node-local disk, per node or per rank; Triton's TRITON_CACHE_DIR, which Inductor's kernels also use, "
         "local too) -- do not share Inductor's cache over NFS between ranks and nodes; clear Inductor's cache (rm "
         f"-rf {root.group(0) if (root := _INDUCTOR_ROOT.match(path)) else path.rsplit('/', 2)[0]}, and "
         "~/.triton/cache) so it is rebuilt, then relaunch." if inductor else
         f"Give the compiler's cache a node-local disk: export {var}=/tmp/triton_cache (TRITON_CACHE_DIR on a "
         "node-local disk, per node or per rank, and TORCHINDUCTOR_CACHE_DIR local too) -- do not share "
         "~/.triton/cache over NFS between ranks and nodes; clear the Triton cache (rm -rf ~/.triton/cache, and the "
         f"stale {path.rsplit('/', 2)[0] if '/' in path else path} entries) so it is rebuilt, then relaunch."),
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


# Inductor's own cache directory in a module's path (/tmp/torchinductor_<user>): what to clear (review 104 (1) 7)
_INDUCTOR_ROOT = re.compile(r"[^\s:]*?/torchinductor_[^/\s]+")


def _settings_check(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A framework's own check of the job's settings failing (lead rule W, parse._traceback_tail's ``settings``):
    DeepSpeed's batch-size assert, an `assert x % world_size == 0`, a launcher's dist_url check, a model that needs a
    feature the setup lacks, torch's missing rendezvous handler. Every rank is started with the same settings, so the
    rank a launcher's record shows exiting on it is no culprit (rule Q): config, culprits []. Only when no exception
    of another kind and no NCCL, CUDA, timeout or connection failure is shown: those are a rank's own run failing."""
    evs = [e for e in c.exceptions if e.data.get("settings")]
    if not evs or _run_failed(c, but="crash" if _assert_aborts(c, evs) else ""):
        return None
    if any(not e.data.get("source_build") for e in evs):  # a build's own failure record says it (a JIT build's)
        evs = [e for e in evs if not e.data.get("source_build")]
    elif not any(not e.data.get("line") for e in c.exceptions):
        return _source_build(evs)
    tried = any(e.data.get("config_path") for e in evs)  # a decoding try of that check's value is part of it
    if any(not e.data.get("settings") and not e.data.get("line") and not _spawn_wrapper(e)
           and not (tried and e.data.get("decode_try")) for e in c.exceptions):
        return None  # another exception class shown (a rank's own runtime error): rule A reads it
    e = evs[0]
    said = e.data["settings"]
    if e.data.get("dispatch_uneven"):
        return _dispatch_uneven(e, evs)
    if e.data.get("jit_cache"):
        return _jit_cache(e, evs) if jit_cache_shared(evs) else None
    if e.data.get("no_handler") is not None:
        return _no_handler(e, evs)
    if e.data.get("dist_init"):
        return _dist_init_check(e, evs)
    if e.data.get("choices"):
        return _choices(c, e)
    if e.data.get("device_count"):
        return _device_count(e, evs)
    if e.data.get("host_assert"):
        return _host_assert(e, evs)
    if e.data.get("version_parse"):
        return _version_parse(e, evs)
    if e.data.get("data_min"):
        return _data_min(e, evs)
    if e.data.get("no_data"):
        return _no_data(e, evs)
    if e.data.get("replica_min"):
        return _replica_min(e, evs)
    if e.data.get("test_skip"):
        return _test_skip(e, evs)
    if e.data.get("unreadable"):
        return _unreadable(e, evs)
    if e.data.get("model_id"):
        return _model_id(e, evs)
    if e.data.get("reused"):
        return _reused(e, evs)
    if e.data.get("stages"):
        return _stages_world(e, evs)
    if e.data.get("world_assert"):
        return _world_assert(e, evs)
    if e.data.get("ckpt_world"):
        return _ckpt_world(e, evs)
    if e.data.get("ckpt_arg"):
        return _ckpt_arg(e, evs)
    if e.data.get("ds_config"):
        return _ds_config(e, evs)
    if e.data.get("world_divisible"):
        return _world_divisible(e, evs)
    if e.data.get("cfg_multiple"):
        return _cfg_multiple(e, evs)
    if e.data.get("model_type"):
        return _model_type(e, evs)
    if e.data.get("compile_dtensor"):
        return _compile_dtensor(e, evs)
    if e.data.get("config_path"):
        return _config_path(e, evs)
    if S.R_PLAN_CONSTRAINTS.search(said):
        return _plan_constraints(e, evs)
    if (on := S.R_SETTINGS_CHECK.search(said)) is not None and on.group("enabled"):
        return _enabled_setting(e, evs, on.group("enabled"))
    text = e.data["type"] + (": " + e.data["message"] if e.data["message"] else f" (from `{said}`)")
    if e.data["message"] and said not in e.data["message"]:
        text += f" -- {said}"
    adv = S.R_SETTINGS_ADVICE.search(e.data["message"] or said)  # the check's own advice (an env setting)
    build = next((x.data["build"] for x in evs if x.data.get("build") not in (None, "op")),
                 "op" if any(x.data.get("build") for x in evs) else None)
    tk = next((x for x in evs if x.data.get("toolkit")), None)
    if tk is not None:  # no CUDA toolkit to build an op with (lead rules AF (2), X (2)): the install every node shares
        return Verdict(
            "config",
            f"the job stopped at start-up because no CUDA toolkit was found to compile the CUDA ops it builds "
            f"('{tk.data['message'][:160]}', {tk.where}): CUDA_HOME is unset or points nowhere and no nvcc is on the "
            "path (DeepSpeed's op builder checks it even while `import deepspeed` -- its launcher too -- lists the "
            "ops it can build, before any worker starts): the install every node shares, no rank's fault",
            "Install the CUDA toolkit (nvcc) matching torch's CUDA version (python -c 'import torch; "
            "print(torch.version.cuda)'; conda install -c nvidia cuda-toolkit=<that version>, or the system "
            "cuda-toolkit package) and export CUDA_HOME=/usr/local/cuda (its root, where bin/nvcc is) in the "
            "environment of the launcher and every node; or use a deepspeed version with the ops pre-built "
            "(DS_BUILD_OPS=1 pip install deepspeed on a host with the toolkit, then ds_report) so nothing compiles at "
            "start-up. Then relaunch.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    ind = next((x for x in evs if x.data.get("inductor")), None)
    if ind is not None:  # torch.compile's Inductor compiling its generated C++ with the host's compiler (rule AF (2))
        return Verdict(
            "config",
            f"torch.compile's Inductor failed building the C++ it generated ({text[:200]}, {ind.where}): its "
            "cpp_builder runs the host's C++ compiler (g++) on the wrapper / kernels it writes under its cache dir "
            "(/tmp/torchinductor_<user>), and that compiler call failed -- the toolchain every rank compiles with "
            "alike, so the rank that printed it is no culprit",
            "Run the compiler command from the CalledProcessError by hand (or rerun with TORCH_LOGS=\"+inductor\" "
            "TORCHDYNAMO_VERBOSE=1) to see the compiler's own error. Then fix the toolchain every node shares: a "
            "working g++ / gcc that the installed torch supports (build-essential, or conda install gxx_linux-64 in "
            "the environment; CXX pointing at it), the Python and torch headers it includes, and room in the cache "
            "dir (TORCHINDUCTOR_CACHE_DIR on a local, writable disk; clear a stale /tmp/torchinductor_<user>). "
            "Until then, run without the C++ wrapper (torch._inductor.config.cpp_wrapper = False, or mode='default' "
            "instead of reduce-overhead / max-autotune), or disable torch.compile to confirm the model runs eager; "
            "upgrade torch if its Inductor generates code the compiler rejects.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if build:  # the JIT build of an op every rank loads failing at start-up (lead rule AF (2))
        return _op_build(evs, build, text)
    sx = next((x for x in evs if x.data.get("stub")), None)
    if sx is not None:  # a compiled function that takes nothing in the installed build, called with arguments
        return _binding_stub(sx)
    ax = next((x for x in evs if x.data.get("args")), None)
    if ax is not None:  # a compiled class refusing the arguments its caller passes: two versions of one install
        return _binding_args(ax)
    bx = next((x for x in evs if x.data.get("binding") and not x.data.get("args")), None)
    if bx is not None:  # one installed library refusing another's binding at start-up (lead rule AF (2), last sentence)
        said = bx.data["message"] if bx.data["line"] else f"{bx.data['type']}: {bx.data['message']}"
        return Verdict(
            "config",
            f"the installed libraries do not match: pybind11 cannot construct '{bx.data['binding']}' ({said[:160]}, "
            f"{bx.where}), a class built on a C++ binding the installed build (torch) does not expose to it -- one "
            "install every process shares, so no rank is at fault",
            "Install versions that match: the torch version (or build, nightly) the package that failed requires "
            "(its requirements / install notes; pip show torch and the package's own version; python -m "
            "torch.utils.collect_env), or the package's release made for the installed torch; reinstall both in "
            "the one environment every node runs (a stale egg or a second site-packages on the path gives the same "
            "error), then relaunch.",
            "high", [], [bx.brief()], job_wide=True)
    pkg = S.R_NEEDS_PACKAGE.search(said) or S.R_WITHOUT_PACKAGE.search(said)
    if pkg is not None:  # the framework's check that the settings need a package not installed (lead rule AF (2))
        return Verdict(
            "config",
            f"the job stopped at start-up on a framework's own check that a package is missing, {text[:300]} "
            f"({e.where}): the settings ask for a feature that needs '{pkg.group(1)}', and the Python environment "
            "every worker imports does not have it -- a shared install, so every rank would fail the same check and "
            "the rank that printed it is no culprit",
            f"Install the missing package in the environment the workers run (pip install {pkg.group(1).lower()}, "
            "the project's optional / parallel-inference requirements, built for the torch and CUDA installed; the "
            "same Python environment for every worker, on every node: check with python -c 'import "
            + pkg.group(1).replace("-", "_").lower() + "' under the "
            "launcher's interpreter), or launch without the setting that needs it (the feature's option off, "
            "its degree 1), then relaunch every rank.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if S.R_NO_SHARED_DIR.search(said):  # a cluster launcher's shared job folder missing (lead rule X (2))
        return Verdict(
            "config",
            f"the launcher stopped before any worker ran: it found no shared folder for the job ({text[:200]}, "
            f"{e.where}) -- the cluster-wide directory it puts the job's folder and its file:// rendezvous in does not "
            "exist on this host, a launch set-up every node shares, no rank's fault",
            "Give the launcher a shared folder that every node mounts (its --job_dir / output dir on a shared file "
            "system, or the path its get_shared_folder() expects, such as /checkpoint/<user>), then resubmit the "
            "Slurm job; on a single machine without Slurm run the training script itself under torchrun "
            "(torchrun --nproc_per_node N main.py) instead of the submitit launcher.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if S.R_LAUNCHER_SLOTS.search(said):  # the runner's check of the hosts and slots asked for (lead rules X (2), W)
        return Verdict(
            "config",
            f"the launcher stopped before any worker ran: its check of the hosts and GPU slots it was asked for "
            f"failed ({text[:200]}, {e.where}) -- --include/--exclude (or the hostfile) name a host or GPU slot the "
            "resource pool does not have (without a hostfile the pool is this host's visible GPUs, as 'localhost'), "
            "a launch setting every worker shares, no rank's fault",
            "Ask only for GPUs the host has: count them (nvidia-smi -L; CUDA_VISIBLE_DEVICES, if set, leaves only "
            "those, renumbered from 0) and give slots from that count (deepspeed --include localhost:0 for GPU 0, "
            "--include localhost:0,1 for two), or --num_gpus N instead of --include; with a hostfile, one line "
            "'hostname slots=N' per host, the names as --include writes them. Check the launch script's line "
            "continuations (a missing backslash runs the next line as its own command, dropping those arguments), "
            "then relaunch.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if "of the rendezvous endpoint" in said:  # the launcher's endpoint setting refused (lead rules X (2), V (1))
        return Verdict(
            "config",
            f"the launcher refused its rendezvous endpoint before any worker ran ({text[:200]}, {e.where}): a "
            "launch setting (--rdzv-endpoint, or --master_addr:--master_port) that is not a host and a port as "
            "written, no rank's fault",
            "Correct the rendezvous endpoint on the launch command line: --master_addr (or the host part of "
            "--rdzv-endpoint) must be a bare host name, IPv4 or IPv6 address and --master_port an integer port, "
            "with nothing else inside the value -- check the shell's quoting (a stray or unbalanced quote, an "
            "unexpanded variable, a trailing character) by echoing the command the script builds; then relaunch "
            "every node with the same endpoint.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if S.settings_clash(said):  # two settings the framework cannot combine (lead rule W)
        return _clash_verdict(e, said, text, evs)
    if S.R_SETTINGS_REFUSED.search(said):  # the launch's device mapping (lead rules W, AA (1))
        device = S.R_SAME_DEVICE.search(said) is not None
        return Verdict(
            "config",
            f"the job stopped on a framework's own check of how the launch maps processes to GPUs, {text[:300]} "
            f"({e.where}): "
            + ("several processes of one communication group use the same CUDA device" if device else
               "a model loaded across the GPUs (device_map) cannot be trained by several processes")
            + " -- every process is started the same way, so no rank is at fault",
            ("Give every worker its own GPU (one GPU per worker): set CUDA_VISIBLE_DEVICES per worker or pick the "
             "device ordinal from the local rank (torch.cuda.set_device(LOCAL_RANK), the framework's gpu_id / device "
             "option; a Dask/Ray cluster with one worker per GPU), and check the launcher starts no more workers than "
             "GPUs." if device else
             "Either train with one process (python script.py, --num_processes=1, NPROC_PER_NODE=1) when the model is "
             "loaded with device_map='auto', or drop device_map (device_map={'': LOCAL_RANK}) so each process holds "
             "its own copy under DDP / DeepSpeed; check the launch variables (NPROC_PER_NODE, NNODES, NODE_RANK, "
             "WORLD_SIZE, CUDA_VISIBLE_DEVICES) really reach the launcher (exported, or on its command line).")
            + " Then relaunch every rank.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    own = S.R_NO_MULTI_GPU_OWN_OPTION.search(said)
    if own and S.R_DIST_FEATURE_REFUSED.search(said):  # one feature refused under distributed running (rule W)
        return Verdict(
            "config",
            f"the job stopped on a framework's own check that one feature cannot run distributed, {text[:300]} "
            f"({e.where}): a settings conflict between that feature and the distributed launch, the same on every "
            "process -- no rank is at fault",
            f"Do what the message itself offers ({(own.group(1) or own.group(2)).strip()}), or run that feature "
            "without the distributed launch; then relaunch every rank.",
            "medium", [], [x.brief() for x in evs[:2]], job_wide=True)
    if S.R_NO_MULTI_GPU.search(said) and not own:
        # the code path has no distributed mode at all (lead rules W, U (2), BQ (3)); a refusal that names its own
        # option is one feature's conflict with distributed running, read below (rule W)
        where = said + (e.data.get("frame_file") or "")  # FastDP's / an HF-Trainer-style n_gpu only where shown
        hf = any(k in where for k in ("transformers", "fastDP", "fastdp", "fast-differential-privacy", "n_gpu"))
        return Verdict(
            "config",
            f"the job stopped on a framework's own check that refuses multi-GPU / distributed runs, {text[:300]} "
            f"({e.where}): this code path has no distributed mode, and every process started with several GPUs "
            "visible (or by a distributed launcher) meets the same check -- a launch setting: no rank is at fault",
            "Multi-GPU / distributed training is not supported by this trainer: run on a single GPU "
            + ("(CUDA_VISIBLE_DEVICES=0, so the framework counts n_gpu=1)" if hf else "(CUDA_VISIBLE_DEVICES=0)")
            + ", launched with plain python, not torchrun/distributed (no torch.distributed.launch, accelerate or "
            "deepspeed launcher); for several GPUs use the library's own distributed scripts"
            + (" (its DeepSpeed / ZeRO variant with a deepspeed_config, where it ships one)" if hf else "")
            + " or a library release that supports multi-GPU.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the job stopped on a framework's own check of its settings, {text[:300]} ({e.where}): the settings every "
        "process is started with (batch sizes, the world size, the launch URL, a feature the GPUs or the build lack) "
        "do not fit together, so the rank that printed it is no culprit -- every rank would fail the same check",
        f"Make the settings that check names agree with the launch: {_DS_BATCH_EQ} (DeepSpeed), "
        "gradient_accumulation_steps a multiple of world_size "
        "(divisible by it), --nproc_per_node / --num_gpus / the number of machines as the config expects, an "
        "explicit --dist-url tcp://MASTER_IP:PORT for several machines, an init_method this platform's torch "
        "supports (env:// or file://; no tcp:// handler on Windows), or a GPU/build with the feature the model "
        "requires (flash attention needs compute capability >= 8.0; else num_shard 1). Then relaunch every rank."
        + (f" The check itself names a setting to try: '{adv.group(1).strip()}'." if adv else "")
        + (" The check counts Ray actors against the parallel sizes: an engine looking up its worker actors by name "
           "(found fewer than dp x tp) -- check the Ray placement / actor names (every worker actor created under the "
           "name the engine looks up before it looks), the parallel sizes against the GPUs given to that engine "
           "(dp x tp = its GPUs) and matching framework / vLLM versions (the actor naming changes between releases)."
           if " actors" in said and _R_ACTORS_COUNTED.search(said) else "")
        + _ckpt_shards(said) + _world_literal(said) + _divisible_named(said) + _ds_batch_world(said)
        # a parallel size against what it splits (vLLM's "Total number of attention heads (12) must be divisible by
        # tensor parallel size (8)"; round 109's fsdrive-21): the remedies where the size cannot change; the world
        # size against the parallel sizes (Megatron's "world size (6) is not divisible by tensor model parallel size
        # (4) times pipeline ..."): the parallel-sizes advice alone (review a of round 109, finding 6)
        + (" " + (parallel_dim_words(said) or PARALLEL_UNFIT_FIX).rstrip() if R_PARALLEL_UNFIT.search(said) else ""),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# DeepSpeed's batch identity with its figures ("... * world_size 8 != 2 * 1 * 1": train_batch_size, then
# micro_batch_per_gpu, gradient_acc_step and the world size DeepSpeed sees)
_R_DS_BATCH_FIGURES = re.compile(r"\bworld_size (?P<batch>\d{1,9}) != (?P<micro>\d{1,9}) \* (?P<acc>\d{1,9}) \* "
                                 r"(?P<world>\d{1,9})\b")


def _divisible_named(said: str) -> str:
    """The fix's sentence where the check names two settings, one to be divisible by the other
    (S.R_DIVISIBLE_NAMED): make the first divisible by the second; for Megatron's layers over pipeline stages, its
    uneven split too. Else ''."""
    m = S.R_DIVISIBLE_NAMED.search(said)
    if m is None or "_" not in m.group("a") + m.group("b"):  # settings' names, not prose ("it must be divisible by")
        return ""
    a, b = m.group("a"), m.group("b")
    pipe = ("layers" in a and "pipeline" in b)
    # the values the check names, not launch settings: a name with "_" can be a runtime count (local_tokens) or the
    # model's config (hidden_size) as well as a setting (review 108 a finding 5)
    return (f" The check names the two values: make {a} divisible by {b} (a {b} that divides {a}), in the settings or "
            "inputs each comes from"
            + ("; or use uneven pipeline splits (num_layers_in_first_pipeline_stage / "
               "num_layers_in_last_pipeline_stage, account_for_embedding_in_pipeline_split / "
               "account_for_loss_in_pipeline_split), and check the recipe's parallel sizes against the model config "
               "and the world size" if pipe else "") + ".")


def _ds_batch_world(said: str) -> str:
    """The fix's sentence where DeepSpeed's batch identity shows its figures (_R_DS_BATCH_FIGURES) and the world size
    DeepSpeed saw is 1 while the batch asks for more: DeepSpeed saw one process -- the launch did not start (or
    DeepSpeed did not join) the others. Else ''."""
    m = _R_DS_BATCH_FIGURES.search(said)
    if m is None or m.group("world") != "1":
        return ""
    batch, per = int(m.group("batch")), int(m.group("micro")) * int(m.group("acc"))
    if batch <= per:
        return ""
    fits = f" (the batch fits a world size of {batch // per})" if per and batch % per == 0 else ""
    return (" DeepSpeed saw a world size of 1" + fits + ": launch the expected number of GPUs (deepspeed --num_gpus "
            "/ torchrun --nproc_per_node) so world_size matches, and check CUDA_VISIBLE_DEVICES / that the launcher "
            "actually started all ranks (init the process group before deepspeed.initialize); or set "
            "train_batch_size \"auto\" in the DeepSpeed config.")


# a settings check's message counting Ray actors ("has 0 actors, but vllm_dp_size: 2 * vllm_tp_size: 4 = 8 is
# expected": verl's async vLLM server looking up its worker actors by name; round 91's rllm-147)
_R_ACTORS_COUNTED = re.compile(r"\b\d{1,6} actors\b")


def _no_handler(e, evs: list) -> Verdict:
    """Lead rules Q (last sentence) and W: torch's rendezvous() found no handler for the init_method's scheme
    (signatures.R_NO_HANDLER). An empty scheme ("No rendezvous handler for ://") is an init_method / --dist_url that
    reached init_process_group empty; a scheme torch names (env://, tcp://) in a Windows install's traceback is that
    torch build lacking it (the Windows wheels before TCPStore had only file://). Either is a launch setting or build
    every process shares: config, no rank."""
    scheme = e.data["no_handler"]
    said = e.data["settings"]
    if not scheme:
        return Verdict(
            "config",
            f"init_process_group was given an empty init_method ('{said[:120]}', {e.where}): the rendezvous URL "
            "(the script's --dist_url / dist_url, or init_method=) reached torch with no scheme at all -- not env://, "
            "tcp:// or file:// -- so no rendezvous was even tried; a launch setting every process shares, no rank",
            "Set init_method (the script's --dist_url / dist_url) to a full URL: env:// when launching with "
            "torch.distributed.launch/torchrun (they export MASTER_ADDR/MASTER_PORT, RANK and WORLD_SIZE), or "
            "tcp://HOST:PORT with --rank / --world_size given to every process (file:///shared/path for a shared "
            "file); check the launch script passes the argument (an unset shell variable gives the empty URL). Then "
            "relaunch every rank.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    win = any(x.data.get("windows") for x in evs)
    return Verdict(
        "config",
        f"this torch build has no rendezvous handler for {scheme}:// ('{said[:120]}', {e.where})"
        + (": on Windows, torch builds without TCPStore (before 1.8) support only the file:// rendezvous and the "
           "gloo backend, so env:// and tcp:// cannot work there" if win else
           ": the init_method's scheme is not one this torch knows (env://, tcp://, file://)")
        + " -- the build or launch setting every process shares, not a rank's fault",
        ("Use init_method file:// on Windows (init_process_group('gloo', init_method='file:///C:/path/to/"
         "sharedfile', rank=R, world_size=N)) with the gloo backend, or upgrade torch (its later Windows builds have "
         "the env:// and tcp:// rendezvous), or run on Linux / WSL; on one GPU, run without distributed init (no "
         "init_process_group, single GPU). " if win else
         "Give init_method (the script's --dist_url) a scheme this torch supports: env:// with the launcher's "
         "MASTER_ADDR/MASTER_PORT, tcp://HOST:PORT or file:///shared/path; check the torch version if the script "
         "expects another handler. ")
        + "Then relaunch every rank.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _dist_init_check(e, evs: list) -> Verdict:
    """Lead rules W and U (2): an exception raised right in a framework's own distributed set-up function (parse's
    dist-init frame: mmengine's init_dist, DI-engine's dist_init) whose words name the launch -- its launcher type
    refused ("Invalid launcher type: none"), a rank it needs not given ("please indicate rank explicitly"). The way
    the job was launched, which every process shares: config, no rank."""
    said = e.data["settings"]
    return Verdict(
        "config",
        f"the framework's own distributed set-up ({e.data['dist_init']}) refused the way the job was launched "
        f"('{e.data['type'].rsplit('.', 1)[-1]}: {said[:160]}', {e.where}): the launcher it expects (torchrun / "
        "torch.distributed.launch, srun for Slurm) did not start the process or was not named, so it has no rank or "
        "world to join -- a launch setting every process shares, no rank's fault",
        "Start the job the way the framework's set-up expects: launch with torchrun / torch.distributed.launch "
        "(python -m torch.distributed.launch --nproc_per_node N script.py), which set RANK / WORLD_SIZE, or with "
        "srun under Slurm, and set the script's launcher argument to match (--launcher pytorch for torchrun, slurm "
        "under srun; 'none' only runs it undistributed); or pass rank and world size explicitly to the set-up call "
        "(its rank= / world_size= arguments). Then relaunch every process.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _no_data(e, evs: list) -> Verdict:
    """Lead rules W, U (2): the script's own check found no data at the path its arguments give and asked for the
    arguments to be checked (signatures.R_NO_DATA_ARGS): the command line every worker is started with, config, no
    rank -- its own words name the argument."""
    said = e.data["settings"]
    return Verdict(
        "config",
        f"the script stopped on its own check that it found no data to train on ('{said[:200]}', {e.where}): the "
        "dataset path its arguments give holds nothing it can read -- the launch arguments every worker is started "
        "with, so each stops the same way and no rank is at fault",
        f"Verify the arguments as the check asks ('{said[:200]}'): the dataset path argument it names must point at "
        "the folder layout the script expects (an existing directory, on every node, holding the data files or the "
        "sub-folders of them it reads -- the parent folder where it wants one, and the file extensions and folder "
        "names it recognises); fix the path or the folder layout in the launch command or its config file, check it "
        "with one process first, then relaunch every worker.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _reused(e, evs: list) -> Verdict:
    """Lead rules W, BF (3) and U (2), as round 86's streaming-306 reads them: a library's own check refusing a value of
    its settings that another instance already holds, asking for a different one (signatures.R_REUSED_SETTING:
    mosaicml-streaming's "Reused local directory: [...] vs [...]. Provide a different one."). The value is one the job
    is built with, the same on every worker, and the other holder is another job or dataset on the host (or a crashed
    run's leftover registration): config, no rank."""
    what, said = e.data["reused"], e.data["settings"]
    return Verdict(
        "config",
        f"a library's own check refused the {what} this job was given because another instance already holds it "
        f"({e.data['type']}: {said[:200]}, {e.where}): another running job or another dataset of this one on the "
        f"same host (or a crashed run's leftover registration) uses the same {what} -- a setting the job is built "
        "with, the same on every worker, so no rank is at fault",
        f"Give this job a different {what}: one of its own per job and per dataset instance (a unique local path / "
        "name for each, not shared with another run or another dataset on the host), or stop the other run that "
        "holds it; where no other run is alive, the holder is a crashed run's leftover registration (its shared "
        "memory under /dev/shm): clean it, then relaunch every worker. (mosaicml-streaming registers each "
        "StreamingDataset's local cache dir in shared memory on the host: one StreamingDataset per local dir, and "
        "streaming.base.util.clean_stale_shared_memory() after a crashed run; newer releases handle more of it.)",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _unreadable(e, evs: list) -> Verdict:
    """Lead rules U (2) and W, as round 72's adjudication (videochat-flash-33) reads them: the script's own check that a
    data, model or checkpoint file its settings name cannot be read, the path in its words
    (signatures.R_PATH_UNREADABLE). The data path (and the list of files it names) is what every worker is launched
    with, so every rank stops on the same check and the one whose traceback is shown is no culprit: config, no rank."""
    said = e.data["settings"]
    url = re.search(r"\b[a-z][a-z0-9+.-]{1,10}://", said) is not None
    return Verdict(
        "config",
        f"the script stopped on its own check that a file its settings name can't be read ({e.data['type']}: "
        f"{said[:200]}, {e.where}): the dataset path (data_path, the data yaml / annotation list it names) every "
        "worker is launched with points at a file that is not there or not readable"
        + (" -- here a URL in the data list, which the loader reads as a local path" if url else "")
        + "; every rank builds the same dataset from it, so no rank is at fault",
        "Check the annotation / video paths the data config lists: every file it names must exist as a local path "
        "under the data root on every node (download the videos locally and point data_path / the data yaml's "
        "folder at them"
        + ("; a URL in the data list is not fetched -- replace it by the downloaded file's local path" if url else "")
        + "), readable by the job's user, and in a format the loader decodes (video decoding (decord/av) installed, "
        "an uncorrupted dataset file); test the dataset with one process first, then relaunch every worker.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _config_path(e, evs: list) -> Verdict:
    """Lead rules BF (3) and U (2), as round 75's baichuan-13b-148 reads them: a framework's own check that the config
    file a launch argument names does not exist (signatures.R_CONFIG_PATH_REFUSED: HfDeepSpeedConfig's "Expected a
    string path to an existing deepspeed config ... Received: ds.json", after its base64 try failed). The --deepspeed
    path is what every worker is launched with, resolved against each worker's working directory, so every rank stops
    on the same check: config, no rank."""
    said = e.data["settings"]
    m = S.R_CONFIG_PATH_REFUSED.search(said)
    got = (m.group("got") or "").strip("'\"`.,") if m else ""
    what = ((m.group("what") or "").strip() if m else "") or "the framework's"
    return Verdict(
        "config",
        f"the job stopped at start-up on the framework's own check that the {what} config file it was given does "
        f"not exist ({e.data['type']}: {said[:200]}, {e.where}): the path"
        + (f" '{got}'" if got else "")
        + " every worker is launched with is not found from the working directory the workers run in (a relative "
        "path, a typo, or a file not on every node), so the value was tried as an inline config and refused; every "
        "rank reads the same argument, so no rank is at fault",
        "Pass an existing config file: give the --deepspeed argument (or the config path setting) an absolute path "
        + (f"to {got} " if got else "")
        + "-- or launch from the directory that holds it -- and check it exists and is readable on every node (ls -l "
        "<path> from the launch directory); the deepspeed config path resolves against each worker's working "
        "directory, not the script's folder. Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _stages_world(e, evs: list) -> Verdict:
    """Lead rule W (rule AC (1) for the untagged tracebacks), as round 75's accelerate-2497 reads it: a pipeline
    framework's own check that the processes launched and the stages the model was split into do not match
    (signatures.R_STAGES_WORLD: PiPPy's "Number of ranks is larger than number of stages, some ranks are unused"). The
    split (split_points, the stage count) and the process count are what every rank is given, so every rank stops on
    the same check and none is at fault: config, no rank."""
    said = e.data["settings"]
    return Verdict(
        "config",
        f"the pipeline framework stopped on its own check that the stages and the processes do not match "
        f"({e.data['type']}: {said[:200]}, {e.where}): the model was split into a number of pipeline stages other "
        "than the number of processes launched (one stage per rank), the split settings and the launch's process "
        "count every rank is given alike, so no rank is at fault",
        "Make the number of pipeline stages equal the number of processes: launch as many processes as the split gives "
        "stages (accelerate launch --num_processes N, torchrun --nproc_per_node N, or CUDA_VISIBLE_DEVICES listing N "
        "GPUs), or split the model into as many stages as processes (explicit split_points, one per stage boundary, "
        "instead of split_points='auto', or a num_stages / pipeline-parallel size equal to the world size); print the "
        "stage count the split gives before building the stages to confirm, then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _compile_dtensor(e, evs: list) -> Verdict:
    """Lead rules AW, BB (1), AF (2), as round 76's cache-dit-460 reads it: torch.compile (Dynamo) failing while it
    traces a graph over DTensor arguments (signatures.R_DYNAMO_EXC, R_DTENSOR_ARG: "Dynamo failed to run FX node with
    fake tensors: call_function <built-in function linear>(*(DTensor(local_tensor=...").  The model, its placements
    on the device mesh and the torch build are the same on every rank, so every rank compiles the same graph and fails
    on it alike, even where one rank's traceback is the only one shown: the shared software stack, config, no rank."""
    said = e.data["settings"]
    ranks = sorted({x.rank for x in evs if x.rank is not None})
    who = f"rank {', '.join(map(str, ranks))}" if ranks else "the process shown"
    return Verdict(
        "config",
        f"{who} stopped in torch.compile tracing the model over DTensor ({e.data['type']}: {said[:200]}, {e.where}): "
        "Dynamo fails on an op whose arguments are DTensors (the tensor-parallel / FSDP2 sharded model) -- the same "
        "graph, placements and torch build on every rank of the mesh, so every rank fails on it alike, a limit of the "
        "torch.compile + DTensor stack this torch version has, not one rank's fault",
        "Run without torch.compile (drop --compile / disable compile) to confirm the model runs eager under the same "
        "parallelism; or upgrade torch (a newer PyTorch version traces DTensor ops with dynamic shapes better -- "
        "errors on a SymInt are DTensor's sharding propagation meeting a symbolic size), or compile with"
        " dynamic=False / torch._dynamo.mark_static on the inputs so the shapes are static; "
        "rerun with TORCHDYNAMO_VERBOSE=1 for the full stack and check the torch version every node runs.",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


def _enabled_setting(e, evs: list, what: str) -> Verdict:
    """Lead rules W, BF (3), U (2), as round 92's deit-103 reads them: a framework's own check that names a training
    setting switched on and what the model is then expected to be ("When knowledge distillation is enabled, the model
    is expected to return a Tuple[Tensor, Tensor] ..."): the setting and the model every worker is launched with do
    not fit each other, the same on every rank, so the rank shown raising it is no culprit: config, no rank."""
    said = e.data["settings"]
    return Verdict(
        "config",
        f"the job stopped on the framework's own check of its {what} setting ({e.data['type']}: {said[:200]}, "
        f"{e.where}): {what} is switched on and the model chosen does not provide what it then needs -- the settings "
        "and the model every worker is launched with, so the rank shown raising it is no culprit",
        f"Make the {what} settings fit the model: either switch {what} off for this model (the setting's none / off "
        f"value in the launch arguments or config), or choose a model built for {what} -- one that returns what the "
        "check names (the framework's model variant for that mode) -- and keep the matching options together (the "
        "loss / teacher / mode arguments the framework documents for it). Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _model_type(e, evs: list) -> Verdict:
    """Lead rules W, BF (4), AF (2), as round 76's lightning-thunder-pr2629 reads it: a framework's own check of the
    type of the model handed to its wrapper (signatures.R_MODEL_TYPE_CHECK: thunder.distributed.fsdp's "Expected
    `model` to be of type `thunder.core.module.ThunderModule`, but got Sequential"). The model and the order the
    script wraps it in are the same on every rank, so the rank shown raising it is no culprit: config, no rank."""
    said = e.data["settings"]
    m = S.R_MODEL_TYPE_CHECK.search(said)
    want = m.group("want") if m else "the type it names"
    short = want.rsplit(".", 1)[-1]
    return Verdict(
        "config",
        f"the framework's wrapper refused the model it was handed ({e.data['type']}: {said[:200]}, {e.where}): it "
        f"expects a {short} -- a model already wrapped or converted by the framework's own step -- and got another "
        "type, the wrapping order in the script every rank runs alike, so the rank shown raising it is no culprit",
        f"Wrap the model in the order the framework expects: make it a {want} first (the framework's own "
        "compile / jit / wrap step"
        + (": thunder.jit before fsdp, thunder.distributed.fsdp(thunder.jit(model))" if "thunder" in want.lower()
           else "") + "), then hand that to the wrapper; check the order of the wrapping calls against the "
        "framework's current docs and update the example or script written for another version's order; then "
        "relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _ds_config(e, evs: list) -> Verdict:
    """Lead rules W and Q, as round 92's apps-9, belle-154, instructerc-16 and pickscore-2 read them: a training
    framework's own check of the DeepSpeed config against the job's other settings (signatures.R_DS_CONFIG_CHECK) --
    transformers' integration finding the DeepSpeed config disagreeing with TrainingArguments, DeepSpeed's own batch
    assertion deriving a batch size of 0 from train_batch_size, gradient_accumulation_steps and the world, accelerate
    refusing its own config's DeepSpeed keys beside a deepspeed_config_file. The config file and the arguments every
    worker is launched with are the same on every rank, so the rank shown raising it (or a launcher's record of its
    exit) is no culprit: config, no rank."""
    kind, said = e.data["ds_config"], e.data["settings"]
    text = (f"{e.data['type']}: {said[:240]}" if e.data.get("line") or not e.data["message"] else
            f"{e.data['type']}: {e.data['message'][:240]}")
    if kind == "acc":
        what = ("accelerate refused its own config's DeepSpeed settings beside a deepspeed_config_file: with a "
                "DeepSpeed config file given, the accelerate config may not set them too")
        fix = ("With a deepspeed_config_file, remove gradient_accumulation_steps, gradient_clipping, zero_stage, "
               "offload_optimizer_device / offload_param_device, zero3_save_16bit_model and mixed_precision from the "
               "accelerate config (the --config_file given, else ~/.cache/huggingface/accelerate/default_config.yaml) "
               "and set them in the DeepSpeed config file instead ('auto' where accelerate should fill them); or "
               "recreate the config with `accelerate config`, which asks only what a deepspeed_config_file needs.")
    elif kind == "batch":
        what = ("DeepSpeed's own batch-size assertion found a batch size below 1: the micro batch per GPU and the "
                "gradient accumulation steps it derives from train_batch_size and the world size do not fit the GPUs "
                "launched")
        fix = (f"Make the DeepSpeed config's batch settings fill the world: {_DS_BATCH_EQ} (the number of GPUs; "
               "micro_batch_per_gpu is train_micro_batch_size_per_gpu), each at least 1 -- a train_batch_size "
               "below gradient_accumulation_steps x world size gives a micro batch "
               "of 0; set train_micro_batch_size_per_gpu and gradient_accumulation_steps and leave train_batch_size "
               "out (or, under the HF Trainer, set all three to 'auto' so per_device_train_batch_size and "
               "gradient_accumulation_steps fill them), and check the world size the launch really starts.")
    else:
        what = ("transformers' DeepSpeed integration found the DeepSpeed config disagreeing with TrainingArguments "
                "(the values it lists, 'ds X vs hf Y')")
        fix = ("Set the DeepSpeed config values the check lists to 'auto' (its own advice: 'auto' values are filled "
               "from TrainingArguments), or make each match TrainingArguments: train_batch_size = per-device batch x "
               "gradient_accumulation_steps x world size, the optimizer's lr and the scheduler's warmup_max_lr / "
               "warmup_num_steps = learning_rate / warmup_steps, fp16.enabled / bf16.enabled = --fp16 / --bf16 (one "
               "mixed precision setting in both).")
    return Verdict(
        "config",
        f"the job stopped at start-up on a framework's own check of its DeepSpeed config ({text}, {e.where}): {what} "
        "-- the config and arguments every worker is launched with, the same on every rank, so the rank shown "
        "raising it is no culprit",
        fix + " Then relaunch every rank.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _world_divisible(e, evs: list) -> Verdict:
    """Lead rules W and BF (4), as round 76's lightning-thunder-248 reads it (and round 72's axolotl-2250 reads FSDP
    refusing the shared model): a sharding framework's own check that a parameter's dimension does not split evenly
    over the processes (signatures.R_WORLD_DIVISIBLE: thunder's FSDP "requires the first dimension of the parameter
    'lm_head.weight' (32001) to be divisible by the world size (8)"). The model every rank builds and the process
    count every rank is launched with are the same on every rank, so the rank shown raising it is no culprit: config,
    no rank."""
    said = e.data["settings"]
    m = S.R_WORLD_DIVISIBLE.search(said)
    what = f"'{m.group('what')}'" if m and m.group("what") else "a parameter"
    return Verdict(
        "config",
        f"the sharding framework stopped on its own check that {what} does not split evenly over the processes "
        f"({e.data['type']}: {said[:200]}, {e.where}): its dimension is not divisible by the world size -- the model "
        "every rank builds and the process count every rank is launched with, the same on every rank, so the rank "
        "shown raising it is no culprit",
        f"Make the sharded dimension of {what} divisible by the world size: pad it to a multiple of the number of "
        "processes (for an embedding or lm_head, pad the vocabulary: padded_vocab_size / pad_to_multiple_of a "
        "multiple of the world size, resize_token_embeddings), or launch a number of GPUs that divides it "
        "(--nproc-per-node / --nproc_per_node, the number of nodes), or use a sharding mode that allows uneven "
        "sharding (padding the last shard; another shard_mode / sharding strategy); then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _cfg_multiple(e, evs: list) -> Verdict:
    """Lead rules W and BF (3), as round 79's ttt-video-dit-22 reads them: the model's own assertion that a value is a
    multiple of a setting of its config ("hidden_states.size(1) % self.config.mini_batch_size == 0", "Sequence len must
    be multiple of mini batch size."). The config and the data shapes it sets (frames, resolution, sequence length)
    are the same on every rank, so the rank shown raising it is no culprit: config, no rank -- unlike rule BJ (2)'s
    exception with no check naming a shared setting."""
    name = e.data["cfg_multiple"]
    if (named := _divisible_named(e.data["settings"])):  # its message names both settings (rules W, Q)
        m = S.R_DIVISIBLE_NAMED.search(e.data["settings"])
        return Verdict(
            "config",
            f"the model stopped on its own check that {m.group('a')} is a multiple of {m.group('b')} "
            f"({e.data['type']}: {e.data['settings'][:200]}, {e.where}): {m.group('b')} does not divide "
            f"{m.group('a')} -- settings every rank runs with, so the rank shown raising it is no culprit",
            named.strip() + " Then relaunch.",
            "medium", [], [x.brief() for x in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the model stopped on its own check that a value is a multiple of its config's {name} ({e.data['type']}: "
        f"{e.data['settings'][:200]}, {e.where}): the configured {name} does not divide the value the settings give "
        "(a sequence length set by the frames, resolution or context length in the config) -- settings every rank "
        "runs with, so the rank shown raising it is no culprit",
        f"Adjust config so that {name} divides the value the check tests: choose {name} as a divisor "
        "of the sequence length, or change the inputs that set that length (num_frames / video length, resolution, "
        f"max length) to a multiple of {name}, or pad sequence in the code to a multiple of {name}; then relaunch.",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


def _plan_constraints(e, evs: list) -> Verdict:
    """Lead rules W and Q: a sharding planner's own check that the user's constraints leave a table no sharding type
    and compute kernel to use (torchrec's enumerator, signatures.R_PLAN_CONSTRAINTS; round 72's torchrec-1614). The
    constraints and tables are what every rank is given (collective_plan makes the plan on one rank and broadcasts
    it), so no rank is at fault: config."""
    said = e.data["settings"]
    table = re.search(r"\bconstraints for (\S{1,80})", said)
    return Verdict(
        "config",
        f"the sharding planner stopped on its own check ({e.data['type']}: {said[:200]}, {e.where}): after the "
        "user's constraints were applied no sharding type and compute kernel combination is left for "
        + (f"table '{table.group(1)}'" if table else "a table")
        + " -- the embedding table config and ParameterConstraints every rank is given (the planner runs on one rank "
        "and broadcasts the plan), so no rank is at fault",
        "Loosen the ParameterConstraints of that table so at least one sharding type and compute kernel pair is "
        "allowed: its sharding_types (table_wise, row_wise, column_wise, data_parallel ...) and compute_kernels "
        "(fused, dense, ...) lists must share a combination the sharders support on this device and the table's "
        "embedding table config (dimension, data type) allows -- e.g. drop the compute_kernels constraint or add "
        "EmbeddingComputeKernel.FUSED / DENSE, and pass sharders whose sharding types include the one asked for; "
        "check the planner's topology (compute_device, world size) matches the launch, then relaunch every rank.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _ckpt_world(e, evs: list) -> Verdict:
    """Lead rules W, Q, J (round 96's deepspeed-6441, glm-136): a loader's own check that the checkpoint it resumes
    was written by the data-parallel world size launched now fails (signatures.R_CKPT_WORLD: DeepSpeed's
    _load_zero_checkpoint, "The checkpoint being loaded used a DP world size of 8 but the current world size is 16"):
    ZeRO partitions the optimizer states per data-parallel rank when it saves, and cannot repartition them to another
    world size. Every rank loads the same checkpoint under the same launch and fails the same check, so the rank whose
    line was pasted is no culprit: config, culprits []."""
    saved, now = e.data["ckpt_world"]
    zero = "ZeRO" in e.data["type"] or "ZeRO" in (e.data.get("message") or "")
    return Verdict(
        "config",
        f"the job stopped loading its checkpoint on the loader's own check ({e.data['type'].rpartition('.')[2]}: "
        f"{(e.data.get('message') or '')[:160]}, {e.where}): the checkpoint was saved by a data-parallel world size "
        f"of {saved} and the job now runs {now}"
        + (", and ZeRO's optimizer states, partitioned per data-parallel rank when saved, cannot be repartitioned to "
           "another world size" if zero else "")
        + " -- every rank loads the same checkpoint under the same launch and fails the same check, so no rank is at "
        "fault",
        f"Resume with the same data-parallel world size the checkpoint was saved with ({saved}): the same number of "
        "GPUs / nodes as when saving (the world size over the tensor / pipeline parallel sizes). To continue on "
        + (f"{now} instead, convert the ZeRO checkpoint to a universal checkpoint (ds_to_universal.py, then "
           "load_universal / --universal-checkpoint), or consolidate with zero_to_fp32.py and load the module "
           "weights only: load_module_only / load_optimizer_states=False (--no-load-optim, and "
           "--no-load-lr-scheduler) so the ZeRO optimizer state is not loaded -- the optimizer restarts fresh."
           if zero else
           f"{now} instead, reshard / convert the checkpoint to the new world size with the library's own "
           "converter, or load the model weights only, not the optimizer states (the optimizer restarts fresh).")
        + " Then relaunch every rank.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _ckpt_arg(e, evs: list) -> Verdict:
    """Lead rules W, Q, J (round 100's megatron-lm-296): a loader's own check that an argument the checkpoint was
    saved with is the one launched now fails (signatures.R_CKPT_ARG: Megatron-LM's checkpointing._compare,
    "tensor_model_parallel_size value from checkpoint (1) is not equal to the input argument value (2)"). Every rank
    is launched with the same arguments and loads the same checkpoint, so every rank fails the same check and the
    process whose traceback was pasted is no culprit: config, culprits []."""
    name, saved, now = e.data["ckpt_arg"]
    parallel = "parallel" in name or "world" in name
    return Verdict(
        "config",
        f"the job stopped loading its checkpoint on the loader's own check ({e.data['type'].rpartition('.')[2]}: "
        f"{(e.data.get('message') or '')[:200]}, {e.where}): the checkpoint was saved with {name} = {saved} and the "
        f"job was launched with {now} -- every rank is launched with the same arguments and loads the same "
        "checkpoint, so every rank fails the same check and no rank is at fault",
        f"Launch with the value the checkpoint was saved with ({name} {saved}: the matching command-line argument, "
        f"e.g. --{name.rpartition('.')[2].replace('_', '-')} {saved}), or let the loader take the checkpoint's own "
        "arguments (Megatron: --use-checkpoint-args). "
        + (f"To run with {now} instead, convert / reshard the checkpoint to that parallel layout first (Megatron's "
           "tools/checkpoint_util.py or checkpoint converter with --target-tensor-parallel-size / "
           "--target-pipeline-parallel-size), so the checkpoint's tensor / pipeline parallel layout matches the "
           "launch; " if parallel else
           f"To run with {now} instead, convert the checkpoint to it with the framework's converter, or load the "
           "model weights only (finetune: --finetune / --no-load-optim / --no-load-rng); ")
        + "then relaunch every rank.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# Llama 2's / Code Llama's checkpoints by size: the model-parallel size each was saved with, one consolidated.NN.pth
# shard per process (Meta's download: 7B 1, 13B 2, 34B 4, 70B 8)
_LLAMA_SHARDS = "Llama 2 / Code Llama: 7B MP=1, 13B MP=2, 34B MP=4, 70B MP=8 -- the count of consolidated.*.pth files"


def _world_assert(e, evs: list) -> Verdict:
    """Lead rules W, AE, BQ (3) (round 88's codellama-95): a traceback ends in an `assert` whose condition compares a
    size the launch sets with fixed quantities only (readers.crash.world_cond: "assert model_parallel_size ==
    len(checkpoints)", "assert world_size % tp_size == 0"; not a gathered or data-dependent value), its message shown
    or cut: every process is launched with that size and fails the same check, so the layout does not fit -- config,
    no rank, whichever process printed it. The fix's checkpoint-shard sentence where the condition names the
    checkpoint's shards ("ckpt"), hedged where it is cut at a call in a loader's start-up frame ("cut": Llama.build's
    check goes on to len(checkpoints)); a general one otherwise."""
    cond, size, ckpt = e.data["settings"].strip(), e.data["world_assert"], e.data.get("world_ckpt") or ""
    shards = ("the model parallel size a checkpoint was saved with is the number of checkpoint shards, so run one "
              "process / GPU per checkpoint shard (torchrun --nproc_per_node = the number of shards; "
              + _LLAMA_SHARDS + ") or reshard / merge the checkpoint to the model parallel size of the GPUs there "
              "are; check that the checkpoint directory and tokenizer belong to the same model")
    if ckpt == "ckpt":
        how = shards
    elif ckpt == "cut":
        how = ("the condition goes on past the line shown; where it counts the checkpoint's shard files (a "
               "Llama-style loader's build: model_parallel_size == len(checkpoints)), " + shards + "; otherwise "
               "match --nproc_per_node x nnodes to what it counts")
    else:
        how = ("set the launch's world size (torchrun --nproc_per_node x --nnodes, or the processes mpirun / the "
               "launcher starts) and the parallel sizes (tensor / pipeline / data / expert / sequence parallel) so "
               "that the condition holds -- each parallel size must divide the world size, and a size compared with "
               "a config field or device count must equal or fit it")
    return Verdict(
        "config",
        f"the job stopped on a check of its parallel layout ({e.data['type']}"
        f"{': ' + e.data['message'][:120] if e.data.get('message') else ''}, raised by '{cond[:160]}', {e.where}): the "
        f"check compares {size}, which the launch sets (the number of processes started), with a fixed quantity "
        "the job's model, checkpoint or config gives -- every process is launched alike and fails it the same way, "
        "so no rank is at fault",
        f"Launch the world the check expects: {size} must match what the condition compares it with"
        + (f" ({shown})" if (shown := _assert_shown(cond)) else "") + " -- " + how
        + (f"; or, where the script only hard-codes that number of processes, {_edit_size_assert(size)}"
           if _R_LITERAL_SIZE.search(shown) else "")
        + ", then relaunch." + (_XRT_WORLD_FIX if "xrt_world_size()" in cond else ""),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# the fix's sentence where the condition compares torch_xla's world (xm.xrt_world_size(): the TPU cores the XLA
# runtime gives, the processes xmp.spawn starts, one per core) with the world size a setting names (fairseq's
# distributed_init: "assert xm.xrt_world_size() == args.distributed_world_size"; round 108's fairseq-2527)
_XRT_WORLD_FIX = (" On a TPU, xm.xrt_world_size() is the number of TPU cores the XLA runtime gives (xmp.spawn starts "
                  "one process per core, nprocs): match nprocs / --distributed-world-size to xm.xrt_world_size(), or "
                  "leave the world size unset on TPU and let the framework's own TPU launch (fairseq's --tpu) set it; "
                  "check XRT_TPU_CONFIG / the TPU type and its core count.")


# the condition of an assert line as the fix quotes it: after the keyword, without a trailing '#' comment
_R_ASSERT_COND = re.compile(r"^\s*assert\s{1,8}(?P<cond>[^#\n]{1,160})")
# ... that compares the size with a bare number ("world_size == 8"): a number of processes the script hard-codes
_R_LITERAL_SIZE = re.compile(r"(?:==|>=|<=)\s{0,2}\d{1,6}\s*$|^\s*\d{1,6}\s{0,2}(?:==|>=|<=)")


def _assert_shown(src: str) -> str:
    """An assert line's condition as written, its message and comment left off ('' where none is read)."""
    m = _R_ASSERT_COND.match(src)
    if m is None:
        return ""
    return S.before_top_comma(m.group("cond")).strip()


def _edit_size_assert(size: str) -> str:
    """The fix's clause for an assert that hard-codes the number of processes (the world or a parallel size against
    a bare number: _R_LITERAL_SIZE), said once for _world_assert and _world_literal: edit the assert, keeping the
    global batch by the gradient accumulation."""
    return (f"edit the {size} assert / scale gradient accumulation (and the per-rank batch) so the global batch stays "
            "the same with the GPUs there are")


def _world_literal(said: str) -> str:
    """The fix's sentence where the check is a bare `assert` line comparing the world size (or a parallel size the
    launch sets) with a number the script hard-codes ("assert world_size == 8 # this code is designed for 8xH100":
    round 91's modded-nanogpt-115; lead rules W, Q, U (2)): launch that many processes, or edit the assert and keep
    the global batch by the gradient accumulation. Else ''."""
    from ncclDoctor.diagnose.readers.crash import world_cond

    if not S.R_ASSERT_WORLD.match(said) or (wc := world_cond(said, "", "")) is None:
        return ""
    shown, size = _assert_shown(said), wc[0]  # the size world_cond read (S.R_LAUNCH_SIZE_NAME's names)
    if not _R_LITERAL_SIZE.search(shown):
        return ""
    return (f" The check is the script's own assert on the {size} ({shown}): it is written for that number of "
            "processes -- launch that many (torchrun --nproc_per_node x --nnodes = the number it asserts, one GPU "
            f"each), or {_edit_size_assert(size)}.")


def _ckpt_shards(said: str) -> str:
    """The fix's sentence where the check names the model-parallel size a checkpoint was saved with
    (signatures.R_CKPT_MP): the world size must match the number of checkpoint shards, one process (and GPU) per
    shard, or the checkpoint resharded to the world there is. Else ''."""
    m = S.R_CKPT_MP.search(said)
    if m is None:
        return ""
    mp = m.group("mp")
    return (f" The checkpoint was saved for model-parallel size {mp} (MP={mp}: one shard per model-parallel rank): "
            "the world size must match the number of checkpoint shards (match world size to MP: nproc_per_node = "
            "model parallel size) -- one process per shard, one GPU per shard "
            f"(torchrun --nproc_per_node {mp} on a machine with {mp} GPUs) -- or reshard / merge the checkpoint to the "
            "model-parallel size of the GPUs there are (MP=1 for a single GPU) before loading it.")


def _spawn_wrapper(e) -> bool:
    """mp.spawn's parent re-raising a child's error (ProcessRaisedException; the child's own traceback is printed
    below it), or a launcher's CalledProcessError for the command of the worker it ran (torch 1.x's
    torch.distributed.launch, a wrapper running accelerate / torchrun: lead rule M; round 81's
    nvidia-semantic-segmentation-59): the parent's report that the child failed, not a second exception of its own."""
    return str(e.data.get("type") or "").endswith(("ProcessRaisedException", "CalledProcessError"))


def _device_count(e, evs: list) -> Verdict:
    """Lead rules W and Q: a framework's own check that the devices a process sees are as many as its launch expects
    failed before anything ran (torch_xla's replication set-up in an xmp.spawn child: "Cannot replicate if number of
    devices (1) is different from 8"). Which devices a process sees and how many processes are started are the
    launch's settings, the same for every child, so the child spawn names (its index, rule Q) is no culprit: config."""
    xla = "replicat" in e.data["message"].lower()  # torch_xla's replication set-up words it so
    # a bare AssertionError under the job's own `assert len(<devices>) > N` (readers.crash's device_min): its condition
    # is the check, the list its name says
    cond = e.data["settings"].split(" #", 1)[0].strip() if e.data.get("device_min") else ""
    return Verdict(
        "config",
        (f"the job's own check of the devices it sees failed before anything ran, '{cond[:160]}' (AssertionError, "
         f"{e.where}): the process sees fewer devices ({e.data['device_min']}) than the check needs"
         if cond else
         f"a framework's own check of the launch failed before anything ran ({e.data['type']}: "
         f"{e.data['message'][:200]}, {e.where}): the number of devices a process sees differs from the number its "
         "launch expects")
        + " -- the devices visible and the process count are set-up every process shares, so the "
        "process that printed it is no culprit (spawn's process index is no rank)",
        "Make the devices each process sees match the launch: start as many processes as devices (nprocs must match "
        "the devices per host, or leave nprocs unset to use them all; torchrun --nproc_per_node the same) and check "
        "which devices are visible to each (CUDA_VISIBLE_DEVICES, TPU_NUM_DEVICES / XRT configuration)."
        + (" With torch_xla's xmp.spawn, do not acquire the XLA device in the parent process: a call of "
           "xm.xla_device() (or any XLA tensor) before xmp.spawn claims the devices before the fork, so each child's "
           "replication setup sees one -- acquire the device inside the spawned function, and with "
           "start_method='fork' keep the parent free of XLA work." if xla else "")
        + (" Here the process sees fewer GPUs than its settings ask for (the check's lines under the exception): "
           "match the allocation to the requested GPUs -- request as many per node as the trainer uses (Slurm: "
           "#SBATCH --gres=gpu:N or --gpus-per-node=N, --ntasks-per-node matching the devices), or lower the "
           "trainer's gpus / devices to what is visible (nvidia-smi; an empty or shorter CUDA_VISIBLE_DEVICES)."
           if e.data.get("devices_seen") else "")
        + " Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _binding_stub(e) -> Verdict:
    """Lead rules AF (2) with round 41's sentence, BR (1) (round 88's transformerengine-1365): pybind11 refused the
    arguments of a compiled function whose one listed signature takes none ("UbufP2PCommOverlap(): incompatible
    function arguments ... 1. () -> None"): the installed library keeps only a stub under that name -- an API its
    version deprecated or removed, or a feature its build left out -- and the application code calling it was written
    for another version. The same install on every process, even where one process's line (its device) is shown
    (rule Q): config, no rank."""
    fn = e.data["binding"]
    return Verdict(
        "config",
        f"pybind11 refused the arguments of the compiled function {fn} ({e.data['settings'][:120]}, {e.where}): the "
        f"installed library's {fn} takes no arguments at all ('() -> None', a stub), while the Python code calling it "
        "passes buffers and sizes -- the library installed and the application calling it are of versions that do "
        "not match (an API the installed version deprecated or removed, or a feature its build left out); one "
        "install every process shares, so no rank is at fault",
        f"Match the library and application versions: {fn} is deprecated or was not built into the installed "
        "library -- run the application version written for the installed library (upgrade the application to the "
        "library's current API), or install / rebuild the library version (and build options: the feature compiled "
        "in) the application expects; check both versions (pip show, the package's __version__) in the environment "
        "every node runs. Turning off the application setting that takes that path avoids the call; then relaunch.",
        "high", [], [e.brief()], job_wide=True)


def _binding_args(e) -> Verdict:
    """Lead rule AF (2), round 41's sentence: pybind11 refused the arguments a compiled class of an installed library
    (torch._C's TCPStore) was constructed with -- it lists the one signature it has, and the call passed more (a
    keyword argument it does not know). The compiled part is of another version than the Python code calling it (a
    launcher newer than the torch._C it loads: two torch installs mixed, pip over conda, a stale copy on the path), the
    same install on every process, before any rank exists: config, no rank. Not the store being unreachable."""
    cls, kw = e.data["binding"], e.data.get("kwargs")
    if (port := e.data.get("invoked_port")) is not None and port > 65535 and (cls or "").endswith("TCPStore"):
        return _store_port_range(e, port)
    pkg = cls.split(".", 1)[0] if cls else ""  # the listing cut: the frame above the error names the library
    name = "PyTorch" if pkg == "torch" else pkg
    cut = bool(e.data.get("binding_cut"))  # the listing cut inside the class's name: its module is known
    return Verdict(
        "config",
        f"pybind11 refused the arguments "
        f"{(('a compiled class of ' + cls) if cut else cls.rsplit('.', 1)[-1]) if cls else 'a compiled class'} was "
        f"constructed with ({e.data['message'].split('. The following', 1)[0][:120]}, {e.where}): the compiled class"
        f"{(' (of ' + cls + ', the listing cut)' if cut else ' ' + cls) if cls else ''} accepts only the signatures "
        "pybind11 lists, and the Python code calling it "
        + (f"passed {kw}, which it does not know" if kw else "passed other arguments")
        + f" -- most often the installed {pkg or 'library'} is a mix of versions (its Python code newer or older "
        "than its compiled part), one install every process shares, before any rank ran: no rank is at fault, and "
        "nothing was unreachable",
        (f"A {name} version mismatch inside one environment: reinstall {name} cleanly -- pip uninstall {pkg} (repeat "
         f"until pip finds none; conda remove {pkg} too where conda installed one), then install one {pkg} build "
         "(pip or conda, not both) in a clean environment; check that the launcher and the library are the same "
         f"install (python -c 'import {pkg}; print({pkg}.__version__, {pkg}.__file__)' under the interpreter the "
         "launcher runs" + (", python -m torch.distributed.run rather than a torchrun script of another environment "
                            "on PATH" if pkg == "torch" else "") + ")" if pkg else
         "The frame above the error names the library whose compiled class refused the call: a version mismatch "
         "inside one environment -- reinstall that library cleanly (pip uninstall it until pip finds none, then one "
         "install, pip or conda, not both, in a clean environment) at the version its caller expects")
        + ", the same on every node, then relaunch.",
        "high", [], [e.brief()], job_wide=True)


def _model_id(e, evs: list) -> Verdict:
    """Lead rules BF (3), U (2), Q (round 108's hf-space-temp-org-kosmos-g): transformers' own check that the model it
    was given is neither a local folder nor a model identifier it can reach on the Hub (signatures.R_HF_MODEL_ID):
    the model path or name every worker is launched with (or the token / network it needs) cannot be read -- a
    launch setting, config, no rank, even beside a launcher's record of the one worker that printed it."""
    return Verdict(
        "config",
        f"the job stopped on the model loader's own check ({e.data['settings'][:200]}, {e.where}): the model path or "
        "name it was given is not a local folder and is not a valid model identifier the Hub lists (a wrong name or "
        "path, a private or gated repository without a token, or no access to huggingface.co) -- the model every "
        "worker is launched with, so the worker a launcher records exiting is no culprit",
        "Pass a correct model path or Hugging Face model identifier (the repository name as huggingface.co lists it, "
        "or a local checkpoint folder that exists where the workers run: check the working directory / relative "
        "path the launch uses, and check the model path passed to every worker); for a private or gated repo log in "
        "or pass a token (huggingface-cli login, HF_TOKEN / use_auth_token); or download the checkpoint into a local "
        "folder and point the script at it; check the container can reach huggingface.co (or set HF_HUB_OFFLINE "
        "with a local cache). Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _store_port_range(e, port: int) -> Verdict:
    """Lead rules Q (last sentence), V (1), W, BR (1) (round 108's vits-52): pybind11 refused TCPStore's constructor
    and the arguments it shows it was invoked with give the port as a number no TCP port can be (above 65535; the
    binding takes a 16-bit unsigned port): the MASTER_PORT (or the script's hard-coded port) every process is started
    with is shown wrong -- config, no rank; not a torch version mix, which _binding_args reads otherwise."""
    return Verdict(
        "config",
        f"pybind11 refused TCPStore's constructor ({e.data['message'].split('. The following', 1)[0][:120]}, "
        f"{e.where}): it was invoked with port {port}, larger than any TCP port (0-65535; the binding takes the port "
        "as a 16-bit unsigned integer) -- the MASTER_PORT (or the port the script hard-codes) every process is "
        "started with cannot work, before any rank ran: no rank is at fault",
        f"MASTER_PORT {port} is out of the valid port range 0-65535: use a port below 65536 -- set MASTER_PORT to a "
        "free port such as 29500 (pick a free port in 1024-65535; ss -ltnp shows those taken), in the environment or "
        "where the script sets it (os.environ['MASTER_PORT'] = ..., a hard-coded port in the training script or its "
        "config); older torch releases did not check it, newer ones refuse it. Then relaunch every rank.",
        "high", [], [e.brief()], job_wide=True)


def _dtype_clash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules Q and AF (2): a rank's traceback ends in torch refusing two tensors of different floating dtypes
    (signatures.R_DTYPE_CLASH: a matmul of float32 inputs with float64 weights). Which precision the model and its
    data are built in is a setting every rank shares, and the op fails the same on every rank that reaches it --
    even where only one rank's traceback shows it -- so no rank is at fault: config, no rank. Only when that error
    is the one failure shown (no NCCL, CUDA, timeout or connection failure, no other exception)."""
    one = _one_error_alone(c)
    if one is None:
        return None
    excs, kind, message = one
    if kind.rpartition(".")[2] in ("ValueError", "AssertionError") and (f := S.R_FSDP_FLATTEN.search(message or "")):
        return _fsdp_flatten(excs, kind, message, f)
    if not (kind.endswith("RuntimeError") and S.R_DTYPE_CLASH.search(message or "")):
        return None
    return Verdict(
        "config",
        f"{_ranks_word(excs)} traceback ends in {kind}: {message[:160]} ({excs[0].where}): the model's weights or "
        "buffers and the data it is given are in different precisions (float32 vs float64), a setting every rank is "
        "built with alike -- the same op fails the same on every rank that reaches it, so no rank is at fault",
        "Make the model and data dtype consistent: set one default dtype for the whole run (the training script's "
        "--default_dtype, torch.set_default_dtype / model.to(dtype) before building the model), and check that a "
        "loaded checkpoint or foundation model and the values computed from the data (per-element reference "
        "energies, normalisation constants) use that same dtype; then relaunch every rank.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# a missing path as FileNotFoundError says it ("[Errno 2] No such file or directory: '/mnt/x/gen_760000.pth'")
_R_ENOENT_PATH = re.compile(r"No such file or directory: ['\"](?P<path>[^'\"\n]{1,400})['\"]")
# the entry script's own call starting its workers (mp.spawn(main_worker, nprocs=..., args=(config,))): each
# worker runs the same function with the same arguments
_R_SPAWN_CALL = re.compile(r"\b(?:mp|multiprocessing|torch\.multiprocessing)\.spawn\(|\bspawn\([^)\n]{0,200}\bnprocs=")


def _lone_missing_file(c: Collected) -> tuple[list, str, str, str] | None:
    """The one error shown when it is a FileNotFoundError naming a path, with no launcher record of a failed worker
    and one output's tag at most (a collector's prefix on every line, no other rank's lines): its tracebacks' ends,
    type, message and path -- what ``_spawned_path_missing``, ``_launch_config_missing`` and ``_log_dir_missing`` then
    tell apart by where the path came from."""
    if c.child_failures or c.worker_failures:
        return None
    one = _one_error_alone(c)
    if one is None:
        return None
    excs, kind, message = one
    m = _R_ENOENT_PATH.search(message or "")
    tags = {e.rank for e in excs}
    if kind.rpartition(".")[2] != "FileNotFoundError" or m is None or len(tags) != 1 or set(c.ranks) - tags:
        return None
    return excs, kind, message, m.group("path")


def _spawned_path_missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules U (2) and BF (3), as round 77's propainter-71 reads them: the one exception shown is a
    FileNotFoundError for a path, no process or rank named anywhere (no launcher record, spawn's own "Process N
    terminated" absent; a rank tag only where the same tag is on the spawning call too, the whole output's), and the
    entry script's traceback is cut at its mp.spawn(..., nprocs=..., args=...) call (parse.input_tail's tb_cut):
    every spawned worker runs the same function with the same config, so the path it opens (a checkpoint, model or
    data path in that config) is one every worker is launched with -- a launch setting, config, no rank. Not where a
    rank or process is named (rule BG (4): one rank's own FileNotFoundError), nor beside any other failure
    (``_one_error_alone``)."""
    lone = _lone_missing_file(c)
    if lone is None:
        return None
    excs, kind, message, path = lone
    tag = excs[0].rank  # one tag on the error and the spawning call alike: the whole output's, not a worker's
    cut = next((e for e in c.samples.get("tb_cut", []) if e.data.get("what") == "frames" and e.data.get("rank") == tag
                and _R_SPAWN_CALL.search(e.data.get("code") or "")), None)
    if cut is None:
        return None
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return Verdict(
        "config",
        f"{kind}: {message[:240]} ({excs[0].where}), and the entry script starts its workers with "
        f"'{cut.data['code'][:120]}' ({cut.where}), its traceback cut there before any process is named: every "
        f"spawned worker runs the same function with the same config, so {path[:200]} is a path every worker is "
        "launched with (a checkpoint, model or data path in the config or the code) that does not exist where the "
        "job runs -- a launch setting, not a rank's fault",
        f"Fix the path in the config: '{path[:200]}' (No such file or directory) -- a hard-coded path from another "
        f"machine or an unset default in the config / code the workers are launched with. Download the pretrained "
        f"checkpoint {name} (the project's README links its weights) and point the config's checkpoint / "
        "pretrained / resume path at where it is (ls it on every node), or leave that path empty to train without "
        "it; then relaunch.",
        "medium", [], [excs[0].brief(), cut.brief()], job_wide=True)


# a function that reads the command line or the config file it names (train.py's _parse_args, parse_opt, get_args,
# load_config): what it opens is a path the launch command gave every worker
_R_ARGS_FUNC = re.compile(r"^_{0,2}(?:parse_(?:args|opts?|config|cfg|arguments)|get_(?:args|config|cfg|opts?)|"
                          r"load_(?:config|cfg)|read_(?:config|cfg)|setup_(?:config|cfg|args))\w{0,20}$")
# a config file's name (cifar10.yml, configs/base.yaml, args.json, opts.toml)
_R_CONFIG_FILE = re.compile(r"\.(?:ya?ml|json|toml|cfg|ini|conf)$", re.I)


def _launch_config_missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules Q, U (2) and AF (1), as round 105's spikingformer-5 reads them: the one exception shown is a
    FileNotFoundError for a config file (a .yml / .yaml / .json / .toml / .cfg name) raised in the script's own
    argument / config parsing (a frame named _parse_args, parse_opt, get_config, load_config), under a multi-worker
    launcher (torch.distributed.launch / torchrun's OMP_NUM_THREADS banner or deprecation notice, or a second
    traceback starting after it), no rank or process named (one tag on every line at most, a collector's) and no
    launcher record: every worker is started with the
    same config path, which does not exist from the working directory -- config, no rank. Not read so: a data or
    checkpoint file missing (rule BG (4): one worker's own read), the same error outside argument parsing, or one
    named rank's traceback."""
    lone = _lone_missing_file(c)
    if lone is None:
        return None
    excs, kind, message, path = lone
    if not _R_CONFIG_FILE.search(path) or not any(_R_ARGS_FUNC.match(e.data.get("frame_func") or "") for e in excs):
        return None
    launcher = any(b.data.get("what") in ("launch deprecated", "torchrun OMP_NUM_THREADS banner")
                   for b in c.samples.get("benign", []))
    at = excs[-1].where.rpartition(":")
    more = len(excs) > 1 or any(t.data.get("what") == "header" and t.where.rpartition(":")[0] == at[0]
                                and int(t.where.rpartition(":")[2]) > int(at[2]) for t in c.samples.get("tb_cut", []))
    if not (launcher or more):
        return None
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return Verdict(
        "config",
        f"{kind}: {message[:240]} ({excs[0].where}), raised while the script parses its arguments "
        f"({excs[0].data.get('frame_func')}): every worker the launcher starts is given the same config path, and "
        f"'{path[:200]}' does not exist from the directory the job runs in -- a launch argument every worker shares, "
        "not a rank's fault",
        f"Fix the config file path: No such file or directory: '{path[:200]}' -- check the launch command's config "
        f"argument (-c / --config): pass the correct path to {name} (relative to the working directory, or an absolute "
        f"path), or run from the directory holding {name}; then relaunch."
        # only for a job torch.distributed.launch ran (its warning or launch.py shown), not torchrun's banner or a
        # second traceback alone (review 105 (1) finding 8)
        + (" (Use torchrun instead of the deprecated torch.distributed.launch; its warning itself is harmless.)"
           if legacy_launch_shown(c) else ""),
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# a code line opening a file for writing ('open(path, "w")', a multi-line call's last line '"w")', mode="a"): the
# file is created, so only its folder can be missing
_R_WRITE_MODE = re.compile(r"""(?:^|[,(=\s])["'][wa]b?\+?["']\s*[,)]""")


def _log_dir_missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules X (2), U (2) and W, as round 81's tacotron2-16 reads them: the one exception shown is a
    FileNotFoundError for a file the process creates -- a log file (a .log name), or a path its code line opens for
    writing -- no rank named apart from one tag on every line, no launcher record of a failed worker: the folder it
    writes into does not
    exist (a relative folder, read from the working directory), which is the launch's set-up every process shares (a
    launcher writing one log per GPU, a script its log): config, no rank. Not read so: a path opened to be read (a
    dataset, a checkpoint: rule BG (4) where a rank is named), an exception tagged with a rank, or beside any other
    failure (``_one_error_alone``)."""
    lone = _lone_missing_file(c)
    if lone is None:
        return None
    excs, kind, message, path = lone
    folder, _, name = path.replace("\\", "/").rpartition("/")
    code = excs[-1].data.get("frame_code") or ""
    if not folder or not (name.lower().endswith(".log") or _R_WRITE_MODE.search(code)):
        return None
    return Verdict(
        "config",
        f"{kind}: {message[:240]} ({excs[-1].where}): the process was creating "
        + (f"its log file {name}" if name.lower().endswith(".log") else f"the file {name}")
        + f" in '{folder}', and that folder does not exist"
        + (" (a relative path, read from the directory the job was started in)" if not path.startswith(("/", "\\"))
           and ":" not in path[:3] else "")
        + " -- a set-up of the launch every process shares (a launcher writing one log per GPU, a script its "
        "output), not a rank's fault; a launcher that dies so starts none of the workers after it",
        f"Create the log directory before launching (mkdir {folder}; mkdir -p {folder} for a nested one), or give "
        "the correct log path in the launch arguments or config; a relative path is read from the working "
        "directory, so run from the repository root (where the project expects its logs/ and output folders), or "
        "use the standard launcher (torchrun) in place of a project's own launch script; then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# Ray's own version check of a process joining a running cluster (ray._private.utils.check_version_info): "Version
# mismatch: The cluster was started with:" then the cluster's and this process's Ray / Python versions
_R_RAY_VERSIONS = re.compile(r"^Version mismatch: The cluster was started with:")


def _ray_version_mismatch(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AF (2) (round 41's sentence: one installed stack refusing another for their versions) and X (2) (a
    set-up check failing before any worker runs), as round 94's logic-rl-30 reads them: the one error shown is Ray's
    version check refusing a process (a driver's ray.init) that attaches to a running Ray cluster started with another
    Ray or Python version -- the environments the cluster and the job were started from, before any worker ran:
    config, no rank, nobody innocent. Not read so beside any other failure (``_one_error_alone``), nor another
    "version mismatch" message (a library's own check: _version_required and the install readings)."""
    one = _one_error_alone(c)
    if one is None or not _R_RAY_VERSIONS.match(one[2] or ""):
        return None
    excs, kind, message = one
    return Verdict(
        "config",
        f"{kind}: {message[:160]} ({excs[-1].where}): Ray refused this process because the Ray cluster it attaches "
        "to was started with another Ray and/or Python version than the process (its lines below the error list "
        "both) -- a cluster started from another environment (another conda env or venv, another node's install), "
        "or a stale Ray cluster still running from an earlier install; the check runs in ray.init, before any worker "
        "starts, so no rank is at fault",
        "Run the same Ray version on every node and the same Python version on every node as the job: stop the "
        "stale Ray cluster (ray stop on every node) and restart the Ray cluster (ray stop / ray start) from the "
        "job's environment (activate the same conda/venv on all nodes before ray start --head / ray start "
        "--address=HEAD:6379), or pip install ray==<the cluster's version> in the job's environment; check that "
        "RAY_ADDRESS (or ray.init(address=...)) points at the cluster you meant, not one left from another install "
        "(unset it to start a local one); then relaunch.",
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


# torch's device-index check given None ("Expected a torch.device with a specified index or an integer, but
# got:None"; torch < 1.10: "Expected a cuda device ..."): torch.cuda.set_device(x) with x None -- a local rank or
# device the script reads from its arguments and the launch never gave it
_R_DEVICE_NONE = re.compile(r"^Expected a (?:torch\.device|cuda device) with a specified index or an integer, "
                            r"but got: ?None\s*$")


def _device_index_none(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AU (2) (set_device failing at start-up) and U (2) (the launch arguments every worker is started
    with), with rule Q for a launcher's record naming the local rank that failed first, as round 94's loveda-52 reads
    them: the one error shown is torch's device-index check given None -- the script selects its GPU with a local
    rank it reads from its arguments (args.local_rank, default None), and the launch did not pass it (torchrun, and
    torch.distributed.launch with --use_env, give LOCAL_RANK in the environment instead of --local_rank). Every worker
    started so reads None alike: config, no rank, nobody innocent. Not read so: the check given another value (a
    device without an index, "got:cuda": the code's own device string), or beside any other failure
    (``_one_error_alone``)."""
    one = _one_error_alone(c)
    if one is None or not (one[1].rpartition(".")[2] == "ValueError" and _R_DEVICE_NONE.match(one[2] or "")):
        return None
    excs, kind, message = one
    rec = (" (the launcher's record of the local rank it saw fail first names no culprit: each worker it started "
           "reads the same missing argument)" if c.worker_failures or c.child_failures else "")
    win = any(S.R_WIN_PATH.search(e.text or "") for e in [*excs, *c.worker_failures, *c.child_failures])
    return Verdict(
        "config",
        f"{kind}: {message[:160]} ({excs[-1].where}): the script selected its GPU (torch.cuda.set_device) with a "
        "local rank or device index that is None -- an argument (--local_rank, default None) the launch never "
        "passed: torchrun, and torch.distributed.launch with --use_env, give each worker LOCAL_RANK in its "
        "environment rather than a --local_rank argument, and a script started without any launcher gets neither; "
        f"every worker started so reads None alike, a launch setting, not a rank's fault{rec}",
        "Give the script its local rank: read LOCAL_RANK from the environment (int(os.environ['LOCAL_RANK'])) where "
        "args.local_rank is None -- torchrun does not pass --local_rank -- or launch with python -m "
        "torch.distributed.launch --nproc_per_node N (without --use_env it passes --local_rank / --local-rank; "
        "the script's argparse needs that argument); for a single GPU without the launcher, set args.local_rank "
        "(0) before torch.cuda.set_device. "
        + ("On Windows, NCCL is not available: use the gloo backend (init_process_group('gloo')). " if win else "")
        + "Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _not_a_checkout(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules J and Q: the tracebacks end on GitPython's InvalidGitRepositoryError (a script recording its commit
    with git.Repo('.') at start-up; round 72's xmem-138, both workers alike) and nothing else failed: the directory
    every worker is launched from is not a git checkout (a downloaded archive, a copied folder) -- the launch set-up
    every process shares, so no rank is at fault: config."""
    one = _one_error_alone(c)
    if one is None:
        return None
    excs, kind, message = one
    if kind.rpartition(".")[2] != "InvalidGitRepositoryError":
        return None
    return Verdict(
        "config",
        f"{_ranks_word(excs)} traceback ends in {kind}: {message[:160]} ({excs[-1].where}): the script looks up the "
        "git repository it runs from (git.Repo('.'), to record its commit) and the working directory it was launched "
        "from is not a git repository -- the same for every worker, which each stop on it before any process group "
        "exists, so no rank is at fault",
        "Run from the repository root of a git checkout: git clone the project (rather than a downloaded zip or a "
        "copied folder) and launch from inside it, or git init there and commit once; or remove the git lookup in "
        "train.py (the git_info / git.Repo('.') lines that only log the commit) so the working directory needs no "
        ".git. Then relaunch every worker.",
        "high", [], [e.brief() for e in excs[:2]], job_wide=True)


# What to do about FSDP's flatten check, by the property its parameters differ in (signatures.R_FSDP_FLATTEN)
_FSDP_FLATTEN_FIX = {
    "dtype": (
        "FSDP flattens every parameter of a wrapped unit into one FlatParameter, which needs the same dtype for all "
        "parameters: cast the model once before wrapping so that none differs -- a PEFT / LoRA adapter is often "
        "created in float32 beside a base model loaded in bfloat16 (torch_dtype=torch.bfloat16): cast the "
        "trainable (LoRA) parameters to the same dtype (model.to(torch.bfloat16), or the LoRA/adapter weights to "
        "bfloat16), or load the base model in float32 and let FSDP's mixed_precision policy "
        "(MixedPrecision(param_dtype=torch.bfloat16), accelerate's / the trainer's mixed_precision=bf16, fsdp_config) "
        "give the bf16 compute instead of a uniform dtype by hand; use_orig_params=True does not lift this check. "
        "A model cast to bf16 in part (a train-dtype switch that leaves embeddings / norms in fp32): cast the whole "
        "model to one dtype before wrapping in FSDP (model.to(torch.bfloat16), embeddings and norms included), or "
        "use FSDP MixedPrecision with float32 parameters instead of mixed bf16/fp32 parameters (FSDP2: "
        "MixedPrecisionPolicy(param_dtype=torch.bfloat16) over fp32 master weights); keep layers the model loads in "
        "fp32 (norms, embeddings) in the same dtype or wrap them separately (their own FSDP unit); FSDP2's "
        "fully_shard shards each parameter on its own; until then train in float32. "),
    "requires_grad": (
        "With use_orig_params=False FSDP flattens a unit's parameters into one FlatParameter, which is either "
        "trainable or frozen: set use_orig_params=True (accelerate's fsdp_use_orig_params: true, the trainer's "
        "fsdp_config) to mix frozen and trainable parameters (a PEFT / LoRA adapter over a frozen base model), or "
        "wrap the trainable modules in their own FSDP units (an auto_wrap_policy such as PEFT's lambda policy) so "
        "each unit is uniform. "),
    "device": (
        "FSDP needs every parameter of a wrapped unit on one device when it flattens them: move the model to the "
        "process's own GPU before wrapping (or pass device_id=torch.cuda.current_device(); with a model loaded on the "
        "CPU or the meta device, sync_module_states=True / param_init_fn), and load it without device_map='auto', "
        "which spreads it over several devices. "),
    "integer": (
        "FSDP flattens every parameter of a wrapped unit into one floating FlatParameter and cannot flatten integer "
        "parameters -- quantized (int8/4-bit) weights: bitsandbytes' load_in_8bit stores int8, and load_in_4bit "
        "packs the weights as uint8 unless told otherwise. For QLoRA under FSDP load in 4-bit with "
        "bnb_4bit_quant_storage set to the floating dtype the rest of the model uses (BitsAndBytesConfig("
        "load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16), torch_dtype the same; axolotl's qlora adapter "
        "with fsdp does this), so every parameter has the same floating dtype for all parameters of a unit; 8-bit "
        "(load_in_8bit) weights cannot be sharded by FSDP -- train without FSDP (DDP or one GPU) or keep the "
        "integer parameters out of FSDP (ignored_modules / ignored_states), never mixed dtypes in a wrapped module. "),
}


def _fsdp_flatten(excs: list, kind: str, message: str, f: re.Match) -> Verdict:
    """Lead rules Q, W and AF (2): FSDP's own check refusing to flatten a wrapped unit's parameters into one
    FlatParameter because they differ in dtype, requires_grad or device (signatures.R_FSDP_FLATTEN). Every rank wraps
    the same model with the same settings, so every rank fails the same check at wrap time, even where one rank's
    traceback shows it: the model's set-up, config, no rank (called by _dtype_clash: the one failure shown)."""
    what = ("device" if f.group("device") else "integer" if f.group("integer") else "dtype" if f.group("orig")
            else f.group("what"))
    differ = {"dtype": "dtypes", "requires_grad": "requires_grad (frozen and trainable)", "device": "devices",
              "integer": ""}[what]
    return Verdict(
        "config",
        f"{_ranks_word(excs)} traceback ends in FSDP's own check {kind}: {message[:160]} ({excs[0].where}): wrapping "
        f"the model, FSDP found the parameters of one unit "
        + ("of an integer dtype (quantized weights)" if what == "integer" else f"in different {differ}")
        + " and cannot flatten them into one "
        "FlatParameter -- the model and FSDP settings every rank is built with alike, so every rank fails the same "
        "check at wrap time and no rank is at fault",
        _FSDP_FLATTEN_FIX[what] + "Print the parameters' dtype, requires_grad and device before wrapping "
        "({(p.dtype, p.requires_grad, p.device) for p in model.parameters()}) to see which differ, fix the model's "
        "set-up once for every rank, then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _ranks_word(excs: list) -> str:
    ranks = sorted({e.rank for e in excs if e.rank is not None})
    if not ranks:
        return "a process's"
    return f"rank {ranks[0]}'s" if len(ranks) == 1 else f"ranks {', '.join(map(str, ranks))}'"


def _assert_aborts(c: Collected, evs: list) -> bool:
    """Every settings check shown is a C assert() (glibc's "Assertion `...' failed.", which calls abort()) and every
    crash handler shown reports SIGABRT: those crashes are the checks' own aborts, not a rank's run failing."""
    crashes = c.samples.get("crash", [])
    return (all(e.data.get("aborts") for e in evs)
            and all(x.data.get("signal") == 6 for x in crashes))


def _data_min(e, evs: list) -> Verdict:
    """Lead rules BF (3), Q (round 91's gpt-sovits-669): a bare AssertionError under its `assert len(<data list>) >
    N` line (readers.crash's data_min) -- a dataset's own check, at construction, that the prepared list every worker
    loads holds enough usable entries: the data the job is launched with, config, no rank; a spawn's "Process 0" is
    its child index, not a culprit. Not read so: an assert on a count of ranks / devices, or on one batch's tensors."""
    cond, name = e.data["settings"], e.data["data_min"]
    cond = cond.split(" #", 1)[0].strip()
    return Verdict(
        "config",
        f"the job stopped at start-up on a dataset's own check of the data it loads, '{cond[:160]}' (AssertionError, "
        f"{e.where}): the prepared list ({name}) holds too few usable entries -- the same data list every worker "
        "loads, so every rank fails the same check and the process shown is no culprit",
        f"Check the training list / dataset preparation (filelist not empty): make '{cond[:120]}' hold -- the list "
        "file the config names must exist and hold entries whose paths (audio / image / feature files) exist and "
        "pass the loader's filters (lengths, missing features). Rerun data preprocessing (the project's data-prep / "
        "feature-extraction steps) so the extracted files are there, check the list's paths point at them (the "
        "experiment / logs folder the config names), and keep the batch size smaller than the dataset; then "
        "relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _test_skip(e, evs: list) -> Verdict:
    """Lead rules Q, W, AU (2) (round 93's ci-infra-132): torch's distributed test harness exiting on its own guard
    that the host has the GPUs a test needs, "sys.exit(TEST_SKIPS[f"multi-gpu-{x}"].exit_code)" (readers.crash's
    test_skip; SystemExit 77 for two GPUs, reported FAILED where the runner does not treat the code as a skip): no
    collective, store or NCCL call failed -- the job ran on a host with fewer GPUs than the test asks for, a launch
    setting every process shares: config, no rank. Not read so: the harness's other skip keys (a backend, a world
    size), and a test failing on its own error."""
    key = e.data["test_skip"]
    return Verdict(
        "config",
        f"the test exited on the distributed test harness's own guard that the host has the devices it needs "
        f"('{e.data['settings'][:120]}', TEST_SKIPS['{key}'], {e.where}): its exit code is the harness's skip code, "
        "so no collective, store or NCCL call failed -- the job ran on a runner with fewer GPUs (CUDA devices "
        "visible) than the test asks for, a setting every process shares, so no rank is at fault",
        "Run the distributed tests on a multi-GPU runner (at least 2 CUDA devices for a multi-gpu-2 guard; check "
        "the CI runner GPU count, nvidia-smi -L, and CUDA_VISIBLE_DEVICES / GPU count the job sees), or let the test "
        "skip there: mark it with skip_if_lt_x_gpu(n) / skip when torch.cuda.device_count() < n, and treat the "
        "harness's TEST_SKIPS exit codes (77 for multi-gpu-2) as a skip in the test runner rather than a failure.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _replica_min(e, evs: list) -> Verdict:
    """Lead rules W, BU (1), AC (1) (round 93's darts-1945): a bare AssertionError under a distributed sampler's own
    `assert self.num_samples >= 1 ...` (readers.crash's replica_min) -- the sampler splits the data set over the
    processes launched and a replica was left with no sample: a data set (often a prediction / validation set)
    smaller than the world, a layout every rank shares, so config, no rank, the untagged traceback naming none. Not
    read so: a num_samples check outside a sampler (neither the sampler's total_size nor its frame shown)."""
    cond = e.data["settings"].split(" #", 1)[0].strip()
    return Verdict(
        "config",
        f"the job stopped on a distributed sampler's own check, '{cond[:160]}' (AssertionError, {e.where}): the "
        "sampler splits the data set over the processes launched and a replica got no sample -- the data set "
        "(often the prediction / validation set) is smaller than the number of processes (the world size), the "
        "launch's layout every rank shares, so no rank is at fault",
        "Make the data set at least as large as the number of processes, or run this step on fewer devices: predict "
        "/ evaluate on a single device (a separate Trainer with devices=1 for predict, or strategy 'auto' on one "
        "GPU), or with fewer devices / larger eval set; in Lightning, use_distributed_sampler=False (or the "
        "framework's sampler settings: drop_last, an unrepeated sampler) keeps the loader from splitting it.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _version_parse(e, evs: list) -> Verdict:
    """Lead rules AF (2) (round 41's sentence), BT (2), BV (3) (round 91's chinese-clip-124): a job's or framework's
    own int() parse of an installed library's version string raised on its pre-release, dev or local part ('0a0' of
    an NGC container's torch "2.1.0a0+...", '0+cu118', 'dev2024...') -- code every worker runs on the one install, so
    the shared install not matching the code: config, no rank, even untagged or with one traceback. Not read so: an
    int() of a value that is not a version's field (a setting, a file's content), rule BJ (2)'s code error."""
    part = e.data["version_parse"]
    code = str(e.data.get("frame_code") or "").strip()
    return Verdict(
        "config",
        f"the job stopped at start-up in its own parse of an installed library's version string: int() refused its "
        f"field '{part}' ({e.data['type']}: {e.data['message'][:160]}, {e.where}"
        + (f": '{code[:120]}'" if code else "") + "): the installed build reports a pre-release, dev or local "
        "version (NGC / source builds of torch say 'x.y.0a0+<commit>') that the code's hand-written parse does not "
        "expect -- the one install every worker imports and the same check every worker runs, so no rank is at fault",
        "Parse the version with packaging.version (from packaging import version; version.parse(torch.__version__) "
        "<= version.parse('1.8.0'), or torch.__version__'s own TorchVersion comparison) instead of int() of each "
        "dot-separated field -- patch the version comparison in the code that raised -- or install a release torch "
        "build (pip install torch==<x.y.z>, whose torch version string has no pre-release / local part) in the "
        "environment every worker runs; then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _compiler_assert(e, evs: list, cond: str, at: str) -> Verdict:
    """Lead rules AF (2), AX (2), BV (4) (round 91's vmamba-265): a JIT compiler's own assertion (Triton's, MLIR's,
    LLVM's C++ assert, readers.crash._host_assert's compiler_assert) aborted a process while compiling the job's
    kernels -- the same kernel, compiler and GPU architecture on every rank, so the shared build failing: config, no
    rank, even with one untagged process's abort shown and the launcher's SIGTERM of the others after it. Not read
    so: an assertion in the job's own C/C++ (a dataloader's, a library's host check), nor a device-side assertion."""
    return Verdict(
        "config",
        f"a process aborted on the JIT compiler's own assertion while compiling the job's kernels, '{cond[:160]}' "
        f"({at}, {e.where}): Triton / MLIR / LLVM refused to lower a kernel for this GPU -- the same kernel, compiler "
        "version and GPU architecture on every rank, so every rank fails the same build (the launcher's SIGTERM of "
        "the other workers follows it); no rank is at fault",
        "This is the compiler (triton) failing on this GPU architecture, not the job's data: check that the Triton "
        "version supports the GPU (nvidia-smi; Triton's kernels in Mamba2 / flash-attention-style libraries need "
        "Ampere or newer, sm80+, and many fail on V100 / sm70 or older), and install matching torch / triton "
        "versions (upgrade triton, or the torch release that pins a newer one: pip show triton torch); else use "
        "the kernel's alternative path (the library's non-Triton implementation or forward type, a CUDA / reference "
        "kernel instead of its Triton one; torch.compile off) or a GPU the kernels support. Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _host_assert(e, evs: list) -> Verdict:
    """A library's own host-side assertion on the launch shape or its buffer settings (readers.crash._host_assert:
    DeepEP's EP_HOST_ASSERT on num_ranks against NUM_MAX_NVL_PEERS, on its chunk sizes per RDMA rank): every rank
    is launched with the same sizes and the same buffer config, so every rank fails the same check (lead rules W, Q)
    -- config, no rank. The fix is the condition itself: change the launch or the settings until it holds."""
    cond, at = e.data["host_assert"], e.data.get("assert_at") or e.where
    if e.data.get("compiler_assert"):
        return _compiler_assert(e, evs, cond, at)
    if e.data.get("no_case"):
        return _no_case(e, evs, cond, at)
    return Verdict(
        "config",
        f"the job stopped on a library's own host-side check of its settings, '{cond}' ({at}, {e.where}): the "
        "condition relates the launch shape (ranks, nodes, GPUs per node) or the library's buffer/chunk settings, "
        "which every rank is started with alike, so every rank fails the same check -- no rank is at fault",
        f"Change the launch configuration or the library's settings until '{cond}' holds: read that line of {at} "
        "for what each name is. A check of the process count against sizes (num_processes * B * T against the "
        "tokens of a data shard, in a dataloader's init) fails on every process alike: launch fewer processes "
        "(mpirun -np, --nproc_per_node), lower the per-process batch size or sequence length (the total batch "
        "size), or give it a larger dataset shard. For DeepEP: the internode (normal) kernels need num_ranks > "
        "NUM_MAX_NVL_PEERS, "
        "i.e. all 8 GPUs per node (torchrun --nproc_per_node=8 on each node), else use the intranode test on one "
        "node or low_latency_mode=True (test_low_latency.py); a chunk check (num_max_nvl_chunked_recv_tokens / "
        "num_rdma_ranks against the NVL and RDMA chunked send tokens) is the Buffer's Config (get_dispatch_config / "
        "get_combine_config, the tuning ranges of test_internode.py): raise the NVL receive chunk (and the NVL "
        "buffer size) or lower the NVL/RDMA chunk sizes for this many RDMA ranks (nodes). Then relaunch every rank.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# DeepEP named in a line (its package deep_ep, its checkout DeepEP/, its kernels' csrc/kernels/internode.cu /
# intranode.cu): its launch.cuh switches are what _no_case names
_R_DEEPEP = re.compile(r"(?i)\bdeep_?ep\b|csrc/kernels/(?:inter|intra)node(?:_ll)?\.cu\b")


def _no_case(e, evs: list, cond: str, at: str) -> Verdict:
    """Lead rules W, Q (round 99's deepep-255): a library's switch on the launch's rank count reached its default
    branch, an assertion whose only content is its message ('false and "Unsupported RDMA ranks"': DeepEP's
    SWITCH_RDMA_RANKS / SWITCH_RANKS in launch.cuh instantiate its kernels for a fixed set of counts). The count is the
    launch shape every rank shares (its nodes, its processes), so every rank fails the same check: config, no rank.
    The fix is a count the kernels are compiled for, or a case for this one."""
    what = e.data["no_case"]
    rdma = "rdma" in what.lower() or "node" in what.lower()
    # DeepEP's own files and counts only where the lines name DeepEP: the assertion idiom is any library's
    # (review 98 finding 7)
    deepep = any(_R_DEEPEP.search(x.text or "") for x in [e, *evs])
    if deepep and rdma:
        fix = ("Launch on a supported number of RDMA ranks (nodes): DeepEP's internode kernels take num_ranks / "
               "NUM_MAX_NVL_PEERS (8 GPUs per node) RDMA ranks and SWITCH_RDMA_RANKS in csrc/kernels/launch.cuh has a "
               "case only for some counts (2, 4, 8, 16, ...: not 3, 5, 6, 7), so run the EP group on 2 or 4 nodes "
               "(num_nodes / WORLD_SIZE set to match), or add a case for this number of RDMA ranks to "
               "SWITCH_RDMA_RANKS and rebuild DeepEP. A single node runs the intranode path (test_intranode.py). ")
    elif deepep:
        fix = (f"Launch a supported number of {what}: the library's kernels have a case only for some counts "
               "(DeepEP's SWITCH_RANKS in csrc/kernels/launch.cuh: 2, 4 or 8 ranks on one node), so change the "
               "process count (--nproc_per_node, WORLD_SIZE) to one of them, or add a case for this count and "
               "rebuild. ")
    else:
        fix = (f"Launch a supported number of {what}: the library's kernels have a case only for some counts (its "
               f"switch on the count, at {at}), so change the "
               + ("number of nodes (--nnodes, WORLD_SIZE)" if rdma else "process count (--nproc_per_node, WORLD_SIZE)")
               + " to one it has a case for, or add a case for this count and rebuild the library. ")
    return Verdict(
        "config",
        f"the job stopped on a library's own check that it has no kernels for this many {what}, '{cond}' ({at}, "
        f"{e.where}): its kernels are compiled for a fixed set of counts (a switch with a case per count, this one's "
        "default branch), and the count is the launch shape every rank shares -- every rank fails the same check, "
        "no rank is at fault",
        fix + f"Read that line of {at} for the counts it takes; then relaunch every rank.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _choices(c: Collected, e) -> Verdict | None:
    """The script's own list of the settings combinations it accepts ("Valid configurations (base model / tokenizer):")
    printed before a process exited (lead rules W, Q): the values every process is given are not one of them, so the
    one process a launcher's record shows exiting is no culprit -- config, no rank. Without an exit shown, the list
    stopped nothing."""
    fails = [x for x in c.child_failures + c.worker_failures if (x.data.get("exitcode") or 0) > 0]  # its own exit
    if not fails:
        return None
    what = e.data["settings"]
    return Verdict(
        "config",
        f"the script stopped on its own check of its settings: it printed the combinations it accepts, '{what}' "
        f"({e.where}), and a process exited with code {fails[0].data['exitcode']} -- the values every process is "
        "started with are not one of those combinations, so every rank would stop the same way and the process "
        "the launcher's record names is no culprit",
        f"Read the list under '{what}' (the lines after it in the output) and launch with one combination it names: "
        "check each setting it pairs (the model and its matching tokenizer, a vocabulary size, a version) in the "
        "launch command or config against what is actually loaded (the model's config.json, the tokenizer's "
        "vocabulary size: len(tokenizer)), correct them -- the same for every rank -- and relaunch.",
        "high", [], [e.brief()] + [x.brief() for x in fails[:1]], job_wide=True)


# DeepSpeed's pipeline engine (PipelineModule; Megatron-DeepSpeed's default GPT model) partitions gradients itself and
# takes ZeRO stage 0 or 1 only (deepspeed/runtime/pipe/engine.py asserts zero_optimization_stage() < 2)
_ZERO_PIPE = re.compile(r"(?i)\bZeRO\b[^\n]{0,80}?\bpipeline|\bpipeline[^\n]{0,80}?\bZeRO\b")


# DeepSpeed's engine refusing no_sync under ZeRO stage 2/3 ("no_sync context manager is incompatible with gradient
# partitioning logic of ZeRO stage 3", DeepSpeedEngine.no_sync): a trainer's gradient accumulation enters no_sync on
# the engine -- the accumulation setting and the trainer / DeepSpeed versions every rank runs (round 109's
# deepspeed-6793, as round 108's e5-v-23)
_NO_SYNC_ZERO = re.compile(r"\bno_sync\b[^\n]{0,120}?\bZeRO\b")
_NO_SYNC_ZERO_FIX = (
    " no_sync is incompatible with ZeRO-3 gradient partitioning (and ZeRO-2's): do not use no_sync with ZeRO stage "
    "2/3 -- set gradient_accumulation_steps=1 in the trainer and set gradient accumulation in the DeepSpeed config "
    "and let the engine handle it, or use ZeRO stage 1 (ZeRO stage 1/2 instead of stage 3 if accumulation needs "
    "no_sync); or match DeepSpeed and transformers/accelerate versions (a trainer release that skips no_sync under "
    "DeepSpeed, or a DeepSpeed release that tolerates it).")


def _clash_verdict(e, said: str, text: str, evs: list) -> Verdict:
    """A framework's own check that two of the job's settings cannot be combined (signatures.settings_clash, lead
    rule W): the settings every rank is started with, config, no rank; the fix names the check's two sides."""
    m = S.R_SETTINGS_CLASH.search(said)
    first, rest = said[:m.start()].strip(" :'\"`"), re.sub(r"^with\s+", "", said[m.end():].strip(" .:'\"`"))
    sides = (f" ('{first[:80]}' against '{rest[:80]}')" if first and rest else f" ('{first[:80]}')" if first else "")
    fix = (f"Change one of the settings the check names{sides} so the two fit together, the same on every rank's "
           "command line and config file (the launch script's arguments, the framework's config such as the "
           "DeepSpeed config JSON), then relaunch every rank.")
    if R_PARALLEL_UNFIT.search(said):  # the clash is the parallel layout against the world (generic.R_PARALLEL_UNFIT)
        fix = PARALLEL_UNFIT_FIX + parallel_dim_words(said) + fix
    if _NO_SYNC_ZERO.search(said):
        fix += _NO_SYNC_ZERO_FIX
    if _ZERO_PIPE.search(said):
        fix = ("DeepSpeed's pipeline engine (PipelineModule, used whenever the model is built as pipeline stages -- "
               "Megatron-DeepSpeed's default, even with --pipeline-model-parallel-size 1) supports ZeRO stage 0 or 1 "
               "only: use ZeRO-1 (--zero-stage 1, zero_optimization.stage 1 in the DeepSpeed config) with pipeline "
               "parallelism, or build the model without the pipeline engine (Megatron-DeepSpeed's "
               "--no-pipeline-parallel) to use ZeRO-2/3. " + fix)
    return Verdict(
        "config",
        f"the job stopped on a framework's own check that two of its settings cannot be combined, {text[:300]} "
        f"({e.where}): the settings every process is started with conflict, so the rank that printed it is no "
        "culprit -- every rank would fail the same check",
        fix, "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _launch_setup(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The launcher's own check of its set-up failing before any worker ran (lead rule X (2)): config, no rank."""
    evs = c.samples.get("launch_setup", [])
    if not evs or c.kinds.get("watchdog_timeout") or c.kinds.get("nccl_error"):
        return None
    path = next((e for e in evs if e.data.get("master_path")), None)
    if path is not None:  # lead rules V (1), AA (1): the master address every worker is given is a file path
        return Verdict(
            "config",
            f"the launch command gives every worker the master address {path.data['master_path']}, a file path, not a "
            "host: a multi-node runner (DeepSpeed's, accelerate's over pdsh/ssh) takes the first node's address from "
            "what a remote shell prints, and that node's shell rc files (.bashrc, a sourced script) printed this "
            "first, so no rank can reach a rendezvous there -- a launch setting shown wrong, no rank",
            "Stop the remote shells' rc files from printing in non-interactive shells (guard echo lines in .bashrc "
            "with `[[ $- == *i* ]]` or remove them), or pass the master's address explicitly: deepspeed --master_addr "
            "IP, accelerate's main_process_ip (--main_process_ip), torchrun --master-addr.",
            "medium", [], [path.brief()], job_wide=True)
    local = next((e for e in evs if e.data.get("master_local")), None)
    if local is not None:  # lead rules V (1), AA (1): the master address the runner chose reaches only its own host
        addr = local.data["master_local"]
        what = ("a loopback address" if addr.startswith("127.") else "the unspecified address (every interface "
                "to a server binding it, the host itself to a client connecting to it)" if addr == "0.0.0.0"
                else "Docker's default bridge (docker0, 172.17.0.0/16)")
        return Verdict(
            "config",
            f"DeepSpeed's runner chose {addr} as the master address for node {local.data['master_node']}: {what}, "
            "an address every host has as its own, so the other nodes' workers look for the rendezvous on their own "
            "host -- a launch setting, no rank (the runner takes the first address `hostname -I` prints when no "
            "--master_addr is given)",
            f"Pass the master's routable address explicitly: deepspeed --master_addr {local.data['master_node']} (the "
            "address the hostfile names for the first node), and pin the interface the collectives use "
            "(NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME, e.g. eth0; not docker0 or lo).",
            "medium", [], [local.brief()], job_wide=True)
    box = [e for e in evs if e.data.get("container")]  # a container plugin (pyxis) could not start the tasks'
    if box and not (c.child_failures or c.worker_failures or any(not x.data.get("line") for x in c.exceptions) or any(
            v and k not in QUIET_KINDS + ("launch_setup", "traceback_tail") for k, v in c.kinds.items())):
        return _container_start(box, [e for e in evs if e.data.get("container_why")])
    evs = [e for e in evs if not e.data.get("container") and not e.data.get("container_why")]
    if not evs:
        return None
    ssh = next((e.data["ssh"] for e in evs if e.data.get("ssh")), None)
    mpi = next((e.data["mpi"] for e in evs if e.data.get("mpi")), None)
    ro = sorted({e.data["readonly"] for e in evs if e.data.get("readonly")})
    pdsh = sorted({e.data["pdsh"] for e in evs if e.data.get("pdsh")})
    # the ssh client's own failure to reach a host (parse: ssh_host) is read like pdsh's: only where nothing else ran
    reach = list(dict.fromkeys(e.data["ssh_host"] for e in evs if e.data.get("ssh_host")))
    ompi = [e for e in evs if e.data.get("ompi_init")]  # Open MPI's own start-up failing (readers.settings)
    agent = [e for e in evs if e.data.get("agent")]  # the launcher's remote start not found by a shell
    mpich = [e for e in evs if e.data.get("mpich")]  # MPICH's / Intel MPI's own start-up failing (readers.settings)
    rte = [e for e in evs if e.data.get("mpi_rte")]  # Open MPI's runtime (ORTE, PRRTE) failing in its own code
    launcher = [e for e in evs if e.data.get("launcher_missing")]  # the launcher itself not found by the shell
    # the shell's refusal (or pdsh's ssh failing, which a connection lost mid-run also gives) is the launch's
    # set-up only where nothing else ran: no worker's failure, exception or other family beside it (the
    # launcher's own "failed to run ..." line is a failure shown, line=True)
    if (ro or pdsh or reach or ompi or agent or rte or launcher) and not ssh and not mpi and not mpich and (
            c.child_failures or c.worker_failures or any(not x.data.get("line") for x in c.exceptions) or any(
                v and k not in QUIET_KINDS + ("launch_setup", "traceback_tail") for k, v in c.kinds.items())):
        return None
    if reach and not pdsh and not ro and not ssh and not mpi:
        dns = [e for e in evs if e.data.get("ssh_dns")]
        why = next((e.data["ssh_why"] for e in evs if e.data.get("ssh_why")), "")
        return Verdict(
            "config",
            f"ssh could not reach {', '.join(reach[:4])} before any worker started"
            + (f" ('{why}'" + (": the host names do not resolve, DNS)" if dns else ")") if why else "")
            + ": a multi-node launcher (horovodrun's ssh check, mpirun, pdsh) reaches its hosts over ssh to start the "
            "workers, and that launch set-up (the hostfile's names, name resolution, passwordless ssh) is wrong -- no "
            "rank ran",
            (_ssh_localhost_fix(reach) if any(_R_LOCALHOST.match(h) for h in reach) else "")
            + "Check that every host name in the hostfile resolves from the launching node (getent hosts HOST; DNS or "
            "/etc/hosts, a Kubernetes headless service for pods) and that passwordless ssh works (ssh -o "
            "PasswordAuthentication=no HOST hostname must print the host name), the ssh port open; where the hosts "
            "are reached another way (Kubernetes' MPI operator sets mpirun's rsh agent, OMPI_MCA_plm_rsh_agent, to "
            "kubectl exec), launch with that launcher's own command (mpirun) instead of an ssh check; then relaunch.",
            "high", [], [e.brief() for e in evs[:2]], job_wide=True)
    if pdsh and not ro and not ssh and not mpi:
        return Verdict(
            "config",
            f"pdsh could not ssh into {', '.join(pdsh[:4])} ('ssh exited with exit code 255', ssh's own connect or "
            "authentication failure) before any worker started: the launch set-up (passwordless ssh, the hostfile's "
            "host names) is wrong, no rank ran",
            "Set up passwordless ssh from the launching node to every host pdsh reaches, localhost included on one "
            "node (ssh-keygen; ssh-copy-id HOST, the key in ~/.ssh/authorized_keys; then `ssh -o "
            "PasswordAuthentication=no HOST hostname` must print the host name), check the hostfile's names; or do "
            "without pdsh: on one node launch locally without a hostfile (deepspeed --no_ssh / --launcher=local "
            "style single-node launch), or start each node yourself.",
            "high", [], [e.brief() for e in evs[:2]], job_wide=True)
    if ro and not ssh and not mpi:
        return Verdict(
            "config",
            f"the remote shell refused the environment the launcher exports before its command ('{', '.join(ro[:4])}: "
            "readonly variable'): a multi-host launcher (colossalai run / fabric, over ssh from its hostfile) sends "
            "'export ... && torchrun ...', the export fails on that host and torchrun never starts -- the launch "
            "set-up, before any worker ran, so no rank is at fault",
            "Do not pass those variables through the launcher (they are the ssh session's own: SSH_CONNECTION, "
            "SSH_CLIENT, SSH_REMOTE_USER are set readonly by the host's shell profile): unset them from the "
            "environment the launcher copies, or remove the readonly declaration on the hosts; or run torchrun on each "
            "node yourself with the same arguments instead of the ssh launcher, after checking the hostfile's host "
            "names and passwordless ssh to each.",
            "high", [], [e.brief() for e in evs[:2]] + [x.brief() for x in c.exceptions[:1]], job_wide=True)
    if ompi and not ssh and not mpi:
        return _ompi_init(ompi)
    if agent and not ssh and not mpi:
        return _agent_missing(agent)
    if launcher and not ssh and not mpi:
        return _launcher_missing(launcher)
    if mpich and not ssh and not mpi:
        return _mpich_init(mpich)
    if rte and not ssh and not mpi and not ompi:
        return _mpi_runtime(rte)
    if ssh:
        probe = next((e.data["ssh_check"] for e in evs if e.data.get("ssh_check")), None)
        dns = any(e.data.get("ssh_dns") for e in evs)  # ssh's own line beside it: the name does not resolve
        said = (f"DeepSpeed's runner could not reach host {probe[:160]} of its hostfile by ssh ('was not reachable "
                "via ssh'" + (", and ssh could not resolve that host name, DNS" if dns else "") + ")"
                if probe else f"'{ssh[:160]}' exited with 255, ssh's own connect or authentication failure")
        return Verdict(
            "config",
            f"the launcher's check that it can reach a node by passwordless ssh failed ({said}) before any worker "
            "started: the launch set-up (ssh keys, the hostfile's host names) is wrong, no rank ran",
            "Set up passwordless ssh from the launching node to every node of the hostfile (ssh-keygen; ssh-copy-id "
            "HOST; then `ssh -o PasswordAuthentication=no HOST hostname` must print the host name), check the "
            "hostfile's names and addresses (that each resolves: getent hosts HOST, DNS or /etc/hosts) and the ssh "
            "port / known_hosts; on one node drop the hostfile, or pass --no_ssh_check when the nodes are reached "
            "another way (a launcher that starts each node itself).",
            "high", [], [e.brief() for e in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"MPI failed to start in the process ('An error occurred in {mpi} on a NULL communicator', "
        "MPI_ERRORS_ARE_FATAL): the process called MPI's initialisation without an MPI launcher that provides it "
        "(or PMI/PMIx could not be reached) -- a launch/bootstrap setting every rank shares, not one rank's fault",
        "Launch the job under an MPI launcher (mpirun / srun --mpi=pmix) when the code initialises MPI, or keep MPI "
        "out of it: bootstrap what needs it over NCCL/gloo instead (Transformer Engine / Megatron's "
        "tp_comm_overlap: --tp-comm-bootstrap-backend nccl); check that the MPI library matches the launcher's.",
        "high", [], [e.brief() for e in evs[:2]], job_wide=True)


# oneCCL (torch's xccl / ccl backend on Intel GPUs) over its MPI transport: what its start-up under torchrun needs
_ONECCL_MPI_FIX = (
    "The job runs oneCCL (its |CCL_ log lines), whose MPI transport (CCL_ATL_TRANSPORT=mpi, the default of Intel's "
    "builds, 'process launcher: hydra') initialises Intel MPI in every worker and expects an mpiexec / mpirun (hydra) "
    "process manager: under torchrun there is none. Either switch oneCCL to its OFI transport with its own process "
    "launcher off (export CCL_ATL_TRANSPORT=ofi CCL_PROCESS_LAUNCHER=none, so that oneCCL under torchrun takes the "
    "ranks torchrun gives and never calls MPI_Init; CCL_ZE_IPC_EXCHANGE=sockets where pidfd is refused), or launch "
    "with mpiexec instead of torchrun (mpiexec -n N python train.py, with the ranks taken from MPI's PMI_RANK / "
    "PMI_SIZE). ")


def _mpich_init(evs: list) -> Verdict:
    """MPICH's or Intel MPI's own start-up failing in the process ("Fatal error in PMPI_Init_thread", its error stack
    naming the step: "PMI_Get_appnum returned -1"; lead rule X (2)): MPI's initialisation found no process manager to
    talk to (PMI), or its transport could not start -- before any worker ran a collective, the same launch in every
    process: config, no rank, whatever the workers' exits (a SIGSEGV after the abort) say next."""
    fn = evs[0].data["mpich"]
    why = next((e.data["mpich_why"] for e in evs if e.data.get("mpich_why")), None)
    pmi = why is not None and "pmi" in why.lower()
    oneccl = any(e.data.get("oneccl") for e in evs)
    return Verdict(
        "config",
        f"MPI's own start-up failed in the process ('Fatal error in {fn}', {evs[0].where}"
        + (f"; its error stack ends in {why}" if why else "") + ")"
        + (": MPI's PMI client found no process manager to talk to -- the process was not started by the MPI "
           "launcher (mpiexec / mpirun, hydra) whose PMI server it expects" if pmi else "")
        + (", and oneCCL is the library that initialised MPI" if oneccl else "")
        + " -- a launch/bootstrap set-up every process shares, before any worker ran a collective, not one rank's "
        "fault (the workers' exits after it are its consequence)",
        (_ONECCL_MPI_FIX if oneccl else "")
        + "A process that calls MPI_Init must be started by the MPI launcher it was built with: mpiexec / mpirun "
        "(hydra) -n N, or srun --mpi=pmi2 / pmix, which give it its PMI server; a script started by torchrun or "
        "python alone has none (PMI_Get_appnum / PMI_KVS_Get return -1). Keep MPI out of a torchrun launch instead "
        "(no mpi4py / MPI-based library initialised in the workers), and check for stale PMI_* environment variables "
        "(PMI_FD, PMI_RANK, PMI_SIZE from an outer mpiexec or an earlier job) that make MPI look for a PMI server that "
        "is gone; run only one job at a time per node, each with a unique master_port. Test the MPI set-up alone first "
        "(mpiexec -n 2 hostname, then an MPI hello world) with the same MPI the library was built against.",
        "high", [], [e.brief() for e in evs[:2]], job_wide=True)


# ssh failing to reach this host itself (round 104's deepspeedexamples-894: a DeepSpeed launch, the autotuner's,
# over pdsh/ssh to localhost where no sshd listens): one node needs no ssh at all
_R_LOCALHOST = re.compile(r"(?:localhost|127\.\d+\.\d+\.\d+|::1)\Z", re.I)
_SSH_LOCALHOST_ONE_NODE = (
    "on one node the launcher needs no ssh -- launch it locally without a hostfile (deepspeed --num_gpus N with no "
    "--hostfile, or --launcher / --no_ssh where it offers them; the DeepSpeed autotuner's launch too; torchrun "
    "--standalone); where it must ssh, ")
_SSH_LOCALHOST_SSHD = (
    "start an SSH server on the node (sshd listening on the ssh port, 22 unless set) and set up passwordless ssh to "
    "localhost (ssh-keygen and authorized_keys: ssh-copy-id localhost; ssh localhost must work without a password). ")


def _ssh_localhost_fix(reach: list[str]) -> str:
    """ssh refused on this node itself (round 104's deepspeedexamples-894): the ssh-less single-node launch only where
    every host ssh could not reach is this node (review 104 (1) finding 4: a hostfile naming localhost and other
    hosts is a several-node launch, which must ssh); sshd and passwordless ssh to localhost either way."""
    one = all(_R_LOCALHOST.match(h) for h in reach)
    return ("ssh to this node itself (localhost) failed: " + (_SSH_LOCALHOST_ONE_NODE if one else "the launcher ssh-es "
            "into this node too, like its other hosts: ") + _SSH_LOCALHOST_SSHD)


def _container_start(box: list, why: list) -> Verdict:
    """A Slurm container plugin (pyxis over enroot) failing to start the tasks' container (lead rules X (2), Q): no
    worker process started, every task alike -- the container runtime's set-up on the node, config, no rank. enroot's
    log lines, when shown, name what failed: a command its hook runs that is not installed, the hook, a variable."""
    cmd = next((e.data["container_cmd"] for e in why if e.data.get("container_cmd")), None)
    hook = next((e.data["container_hook"] for e in why if e.data.get("container_hook")), None)
    var = next((e.data["container_var"] for e in why if e.data.get("container_var")), None)
    said = "; ".join(x for x in (f"'{cmd}' is not installed" if cmd else "",
                                  f"the hook {hook} exited non-zero" if hook else "",
                                  f"{var} is unset in the environment enroot runs with" if var else "") if x)
    nvidia = bool(cmd and "nvidia" in cmd) or bool(hook and "nvidia" in hook)
    return Verdict(
        "config",
        f"the container plugin could not start the tasks' container ('{box[0].data['container'][:120]}', "
        f"{box[0].where})" + (f": enroot's log says {said}" if said else "") + " -- no worker process started, on "
        "every task alike, so the launch set-up (the container runtime and its hooks on the node) is wrong, no rank's "
        "fault",
        ("enroot's GPU hook (/etc/enroot/hooks.d/98-nvidia.sh) runs nvidia-container-cli from libnvidia-container to "
         "give the container the GPUs: install libnvidia-container-tools / the nvidia-container-toolkit on every "
         "compute node (nvidia-container-cli info must work there), or leave the hook out where no GPU is wanted. "
         if nvidia else "Read enroot's log that pyxis prints after the failure: it names the enroot hook or command "
         "that failed; fix it on every compute node. ")
        + ("enroot's scripts expect HOME (and XDG paths) in the task's environment: export HOME in the job script or "
           "do not strip it (srun --export=ALL,... keeps the environment; a bare --export=VAR list drops HOME). "
           if var else "")
        + "Check the same image and command by hand on one node (enroot start / srun --container-image=IMAGE "
        "nvidia-smi) before the full job, then relaunch.",
        "high", [], [e.brief() for e in (box + why)[:3]], job_wide=True)


def _agent_missing(evs: list) -> Verdict:
    """A shell that cannot find what the MPI launcher starts its daemons with on the other hosts (lead rule X (2)):
    the daemon itself (orted / prted not on the remote host's PATH) or the remote-start agent's command (the MPI
    operator's kubexec.sh calling kubectl) -- the launch set-up, before any worker ran: config, no rank."""
    e = evs[0]
    name, cmd, shell = e.data["agent"], e.data["agent_cmd"], e.data["agent_shell"]
    where = f"'{strip_prefixes(e.text).strip()[:160]}', {e.where}"
    if name == "sshd":
        return Verdict(
            "config",
            f"the workers' start command could not run the ssh server: {shell} finds no {cmd} ({where}), so the "
            "MPI launcher (mpirun over ssh: an MPIJob's launcher reaching its worker pods) has no ssh server to "
            "reach, no rank ever started and the job's output never came -- the launch set-up (the container "
            "image every worker runs), no rank's fault",
            "Run the workers in an SSH-enabled container: install openssh-server in the container image (apt-get "
            "install openssh-server, so /usr/sbin/sshd exists, with its host keys and /run/sshd) and set up "
            "passwordless ssh between the launcher and the workers (the MPI Operator launcher ssh keys it mounts); "
            "or launch without ssh (use srun/PMIx instead of ssh for mpirun, or the image's own launcher). Then "
            "resubmit the job.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if name == "kubectl":
        return Verdict(
            "config",
            f"the MPI launcher's remote-start agent could not run: {shell} calls {cmd}, and that host has no such "
            f"program ({where}), so the orted daemons it starts on the worker pods never ran and no rank started -- "
            "the launch set-up (the launcher's agent and the images it runs in), no rank's fault",
            "The Kubernetes MPI operator's mpirun starts its daemons through the rsh agent "
            "(plm_rsh_agent=/etc/mpi/kubexec.sh, which runs kubectl exec into each worker pod), and kubectl exists "
            "only in the launcher pod (/opt/kube/kubectl, put there by the operator's init container). With Open "
            "MPI's tree spawn (orted --tree-spawn) the daemons on the workers start the next ones through the same "
            "agent, where no kubectl exists: turn tree spawn off (mpirun --mca plm_rsh_no_tree_spawn 1, or "
            "OMPI_MCA_plm_rsh_no_tree_spawn=1 in the launcher's environment), or install kubectl at that path (and "
            "on the PATH) in the worker image with the RBAC to exec into pods; check that the launcher image and the "
            "mpi-operator version match (kubectl delivery, the hostfile and kubexec.sh it writes). Then resubmit "
            "the MPIJob.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the MPI launcher could not start its daemon on a host: the remote shell ({shell}) does not find {cmd} "
        f"({where}), so no worker was started there -- the launch set-up (Open MPI's install and PATH on the "
        "remote hosts), no rank's fault",
        f"Make {name} findable by the non-interactive shell the launcher starts on every host: launch with mpirun "
        "--prefix /path/to/openmpi (or the full path of mpirun, which implies it), or set PATH and LD_LIBRARY_PATH "
        "to Open MPI's bin and lib in the remote shell's startup file before any interactive-only guard (~/.bashrc), "
        f"or export them with mpirun -x PATH -x LD_LIBRARY_PATH; check `ssh HOST which {name}` prints it, with the "
        "same Open MPI version installed at the same path on every node. Then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _launcher_missing(evs: list) -> Verdict:
    """A shell that cannot find the launcher itself (signatures.R_LAUNCHER_NOT_FOUND: "/bin/sh: 1: torchrun: not
    found", "bash: accelerate: command not found", "bash: /env/bin/torchrun: No such file or directory"; zsh's
    "zsh: command not found: torchrun"), with nothing else run (lead rules X (2), AF (2)): the launch command's
    environment has no launcher on its PATH (an environment not activated, torch / deepspeed / accelerate not
    installed in it, sudo's secure PATH, a framework's CLI running the launcher through /bin/sh), or the path it is
    given is gone -- no worker ever started, config, no rank (round 89's llamafactory-5217)."""
    e = evs[0]
    name, cmd = e.data["launcher_missing"], e.data["launcher_cmd"]
    module, pkg = {"torchrun": ("torch.distributed.run", "torch"), "accelerate": ("accelerate.commands.launch",
                   "accelerate")}.get(name, ("deepspeed.launcher.runner", "deepspeed"))
    gone = "/" in cmd and "No such file or directory" in e.text
    return Verdict(
        "config",
        f"the shell that runs the launch command cannot find the launcher: {e.data['launcher_shell']} finds no {cmd} "
        f"('{strip_prefixes(e.text).strip()[:160]}', {e.where}), so the launcher never ran and no worker started -- "
        "the launch set-up (the environment the command runs in), no rank's fault",
        (f"The path the launch command gives, {cmd}, is not there: the environment it points to was removed, "
         "moved or rebuilt elsewhere (a script's hard-coded path, a stale path the shell remembered: hash -r), so "
         f"point the command at the environment that has {pkg} now. " if gone else "")
        + f"Put {name} on the PATH of the shell that launches: activate the environment where {pkg} is installed "
        f"(conda activate ENV / source VENV/bin/activate; `which {name}` must print it) or install {pkg} in the "
        "environment the command runs in; under sudo, whose secure_path drops the environment's bin, run without "
        f"sudo or keep the PATH (sudo -E env PATH=$PATH ...); where pip installed it with --user, add the pip scripts "
        "directory (e.g. ~/.local/bin) to PATH; or call the launcher through the interpreter that "
        f"has {pkg}: python -m {module} with the same arguments"
        + (" (accelerate launch's own arguments)" if name == "accelerate" else "")
        + f" (a framework's CLI that starts {name} itself runs it from the "
        "PATH it was started with). Then relaunch every node.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _ompi_init(evs: list) -> Verdict:
    """Open MPI's own start-up failing in the process (its "It looks like opal_init failed for some reason" help
    message; lead rule X (2)): the MPI install or the host's environment it starts in, before any worker ran a
    collective -- config, no rank. The step its message names says which part (its shared-memory component: the
    host's /dev/shm or session directory)."""
    stages = list(dict.fromkeys(e.data["ompi_init"] for e in evs))
    step = next((e.data["ompi_step"] for e in evs if e.data.get("ompi_step")), None)
    shm = step is not None and "shmem" in step
    return Verdict(
        "config",
        f"Open MPI's own start-up failed in the process ({', '.join(stages[:3])} failed"
        + (f": {step} failed" if step else "") + f", {evs[0].where}) before any worker ran a collective"
        + (": it found no usable shared-memory component (mmap, posix or sysv segments for its on-node transport)"
           if shm else "")
        + " -- the MPI install or the host's environment it starts in, which every process of the job shares, not "
        "a rank's fault",
        ("Give Open MPI a shared-memory backing it can use: /dev/shm mounted and writable with room (in a container "
         "docker run --shm-size=1g or --ipc=host; Kubernetes: an emptyDir with medium Memory on /dev/shm), a "
         "writable local session directory (TMPDIR, or OMPI_MCA_orte_tmpdir_base / --mca orte_tmpdir_base /tmp, not "
         "a full or network file system), or pick the component explicitly (mpirun --mca shmem posix, or mmap); "
         "ompi_info | grep shmem lists the components the install has -- none listed: reinstall Open MPI. "
         if shm else
         "Run mpirun with --mca <framework>_base_verbose 100 (the failed step's framework) to see which component "
         "failed, and check the Open MPI install and environment: ompi_info runs and lists its components, one Open "
         "MPI version on every node and the one Horovod / mpi4py was built against (no second MPI first on PATH or "
         "LD_LIBRARY_PATH), no stale OMPI_MCA_* settings, a writable TMPDIR and /dev/shm; reinstall Open MPI if "
         "components are missing. ")
        + "Then relaunch; Horovod can also run without MPI (horovodrun --gloo).",
        "high", [], [e.brief() for e in evs[:2]], job_wide=True)


# Open MPI's runtime frameworks, by the directory or file name of the source its error names (orte/mca/odls/...,
# base/odls_base_default_fns.c): what the runtime was doing when it failed
_RTE_FRAMEWORKS = (("odls", "launching the processes on the node (odls, its local launch)"),
                   ("plm", "starting its daemons on the hosts (plm)"),
                   ("rmaps", "mapping the processes onto the hosts' slots (rmaps)"),
                   ("ras", "reading the hosts it was allocated (ras)"),
                   ("ess", "setting up its own environment (ess)"),
                   ("grpcomm", "exchanging the daemons' start-up data (grpcomm)"))


def _mpi_runtime(evs: list) -> Verdict:
    """Open MPI's runtime (ORTE up to Open MPI 4, PRRTE in 5) logging an error of its own code ("PRTE ERROR: Bad
    parameter in file base/odls_base_default_fns.c at line 962") with nothing else failing (lead rule X (2)): the MPI
    runtime that starts the processes failed before any worker ran -- config, no rank. Where Open MPI 5's help box
    says the application passed a deprecated MPI_Info key (its MPI_Comm_spawn's "env"), the application or its mpi4py
    was written for Open MPI 4 and runs on 5's runtime: the installed MPI does not match what the framework expects
    (lead rule AF (2)). Round 71's tensorrt-llm-2476 (trtllm-bench spawning its executor's worker) showed it."""
    e = evs[0]
    rte, what, where = e.data["mpi_rte"], e.data.get("rte_what") or "an error", e.data.get("rte_file") or ""
    fw, doing = next(((k, d) for k, d in _RTE_FRAMEWORKS if re.search(rf"(?<![a-z]){k}(?![a-z])", where)),
                     (None, None))
    name = "PRRTE, Open MPI 5's runtime" if rte == "PRTE" else "ORTE, the runtime of Open MPI up to 4.x"
    info, key = e.data.get("mpi_info"), e.data.get("mpi_info_key")
    summary = (f"Open MPI's runtime ({name}) failed in its own code ('{what}' in {where or 'its source'}, {e.where})"
               + (f" while {doing}" if doing else "") + " before any worker ran: the launch set-up -- the MPI install "
               "and how the job asks it to start its processes -- which every process shares, not a rank's fault")
    if info:
        summary += ("; just before, Open MPI's help box said the application passed a deprecated MPI_Info key"
                    + (f" ('{key}')" if key else "") + ", a key of Open MPI 4's MPI_Comm_spawn that Open MPI 5 "
                    "(PMIx, PRRTE) rewrites: the framework (or its mpi4py, spawning its workers with MPI_Comm_spawn, "
                    "as an MPIPoolExecutor does) was written for an older Open MPI version than the one installed")
    fix = ("Use the Open MPI version the framework supports -- Open MPI 4.x where it spawns its workers itself with "
           "MPI_Comm_spawn (e.g. TensorRT-LLM's executor, through mpi4py): check `mpirun --version` / `ompi_info "
           "--version`, install openmpi 4.1 (or downgrade the image's) and rebuild mpi4py against it (pip install "
           "--force-reinstall --no-cache-dir --no-binary mpi4py mpi4py); or start the program under mpirun yourself "
           "so that nothing is spawned: mpirun -n 1 --allow-run-as-root --oversubscribe <command> (as root, or "
           "OMPI_ALLOW_RUN_AS_ROOT=1 "
           "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1). " if info else
           "Check the Open MPI install the job starts with: one Open MPI version on every node and the one mpi4py / "
           "Horovod / the framework was built against (`mpirun --version`, `ompi_info --version`, no second MPI "
           "first on PATH or LD_LIBRARY_PATH, no stale OMPI_MCA_* / PRTE_MCA_* settings); where the framework spawns "
           "its workers with MPI_Comm_spawn (mpi4py's MPIPoolExecutor), use the Open MPI version it documents "
           "(often Open MPI 4.x) or start it under mpirun yourself (mpirun -n 1 --allow-run-as-root --oversubscribe "
           "<command>). ")
    fix += (f"To see which step fails rerun mpirun with --{'prtemca' if rte == 'PRTE' else 'mca'} {fw}_base_verbose "
            "100; then relaunch." if fw else "Then relaunch.")
    return Verdict("config", summary, fix, "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


# the communication libraries a framework's backend option names (its factory compiles each in only when built with
# it): an "unknown backend" of one of these is a build without it, of any other name a setting misspelt
_COMM_LIBS = frozenset(("nccl", "rccl", "hccl", "mccl", "cncl", "xccl", "oneccl", "ccl", "mpi", "gloo", "ucc",
                        "cuda-ipc", "cuda_ipc", "custom", "native"))


# ProcessGroupNCCL's constructor's own first check (ProcessGroupNCCL.cpp's TORCH_CHECK), the one message it raises
# that starts with its class's name
_PG_NCCL_NO_GPU = "ProcessGroupNCCL is only supported with GPUs, no GPUs found!"


def _nccl_no_gpu_cut(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules BQ (3), Q's last sentence and AU (2) (round 89's ofa-304): every exception shown is one RuntimeError
    raised by torch's own line constructing ProcessGroupNCCL (distributed_c10d.py's "pg = ProcessGroupNCCL(...)", the
    raising frame) whose message, cut where the paste stops, is the start of that constructor's check that the process
    sees no GPU ("ProcessGroupNCCL is only supported with GPUs, no GPUs found!"). Read by the raising frame: the
    process has no visible CUDA device (a CPU-only torch, a runtime without GPUs, CUDA_VISIBLE_DEVICES hiding them),
    a setting every rank shares: config, no rank. The complete message is readers.nccl's no_nccl (_no_nccl); a cut
    message that is not that check's start, or raised by another line, is not read so."""
    if _run_failed(c):
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]
    if not excs:
        return None
    for e in excs:
        said = (e.data.get("message") or "").strip()
        if (e.data.get("type") or "").rpartition(".")[2] != "RuntimeError" or len(said) < 19 \
                or not _PG_NCCL_NO_GPU.startswith(said) or "ProcessGroupNCCL(" not in (e.data.get("frame_code") or ""):
            return None
    e = excs[-1]
    return Verdict(
        "config",
        f"torch's ProcessGroupNCCL constructor refused to start (RuntimeError: {e.data['message'][:120]}, {e.where}, "
        "the message cut): raised by the line 'pg = ProcessGroupNCCL(...)', whose first check is 'ProcessGroupNCCL is "
        "only supported with GPUs, no GPUs found!' -- the process sees no CUDA device (a CPU-only torch build, a "
        "runtime or container without a GPU, CUDA_VISIBLE_DEVICES hiding them), a setting every rank shares, so no "
        "rank is at fault",
        "Give the processes a GPU or leave the nccl backend: check python -c 'import torch; "
        "print(torch.__version__, torch.cuda.is_available(), torch.cuda.device_count())' and nvidia-smi in the same "
        "environment -- install a CUDA build of torch (not CPU-only) matching the driver, select a GPU runtime "
        "(Colab: Runtime > Change runtime type > GPU), and do not hide the GPUs (CUDA_VISIBLE_DEVICES); or run on CPU "
        "with the gloo backend (init_process_group('gloo'), the framework's --cpu option). Then relaunch.",
        "high", [], [x.brief() for x in excs[:2]], job_wide=True)


# A framework's own arithmetic on the count of visible GPUs, where a zero count fails it: the device index taken modulo
# that count (mmdet's _init_dist_pytorch: "num_gpus = torch.cuda.device_count(); torch.cuda.set_device(rank %
# num_gpus)") -- a ZeroDivisionError there says the process sees no GPU (lead rule CD). The count's name holds "gpu"
# or "device", or is torch's own call; a modulo of any other value is the code's own arithmetic
_R_SET_DEVICE_MOD = re.compile(r"\bset_device\([^\n]{0,80}?%\s{0,3}\(?\s{0,3}"
                               r"(?:[\w.]{0,40}(?:gpu|GPU|device|devices)\w{0,20}\b|torch\.cuda\.device_count\(\))")
_R_ZERO_DIVISION = re.compile(r"(?:integer )?(?:division|modulo)\b[^\n]{0,40}\bzero\b")


def _no_gpu_modulo(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule CD (round 101's mmdetection-368): every traceback shown ends in one ZeroDivisionError raised by the
    line pinning the process's GPU from its rank modulo the visible-GPU count (_R_SET_DEVICE_MOD: mmdet's
    "torch.cuda.set_device(rank % num_gpus)", num_gpus = torch.cuda.device_count()), nothing else failing: that count
    was zero -- the process sees no GPU at all (CUDA_VISIBLE_DEVICES, a CPU-only build, the driver or container
    runtime), the launch environment every process shares, as torch's "no GPUs found": config, culprits [], nobody
    innocent, whether one or several untagged processes print it. A ZeroDivisionError of other code (a loss over an
    empty batch count) keeps the unread reading (rule BG (1))."""
    one = _one_error_matching(c, "ZeroDivisionError", _R_ZERO_DIVISION)
    if one is None:
        return None
    excs, kind, message, _ = one
    code = [e.data.get("set_device_code") or e.data.get("frame_code") or "" for e in excs]
    if any(not _R_SET_DEVICE_MOD.search(x) for x in code):
        return None
    e = excs[-1]
    n = len(excs)
    return Verdict(
        "config",
        f"{'every one of ' + str(n) + ' tracebacks' if n > 1 else 'the traceback'} ends in {kind}: {message[:120]} "
        f"({e.where}) raised by '{code[-1].strip()[:120]}', the line pinning the process's "
        "GPU from its rank modulo the visible-GPU count (torch.cuda.device_count()) before any collective: that count "
        "was 0 -- the process sees no GPU at all, the launch environment every process shares (CUDA_VISIBLE_DEVICES, "
        "a CPU-only torch build, the driver or container runtime), so no rank is at fault",
        "No GPU visible: torch.cuda.device_count() returned 0 in every process. Check in the same environment "
        "python -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available(), "
        "torch.cuda.device_count())' and nvidia-smi: install a CUDA-enabled PyTorch build matching the NVIDIA driver "
        "(not the CPU-only wheel), do not hide the GPUs (CUDA_VISIBLE_DEVICES empty or wrong), run a container with "
        "its GPU runtime (docker run --gpus all), and launch one process per visible GPU (--nproc_per_node = the "
        "GPUs nvidia-smi shows; dist_train.sh's GPUS). Then relaunch.",
        "high", [], [x.brief() for x in excs[:2]], job_wide=True)


# torch's launcher's own frame turning its command-line arguments into the agent's config (torch/distributed/run.py's
# config_from_args: --nnodes, --nproc-per-node, --rdzv-endpoint / --master-addr, checked there), or the legacy
# torch.distributed.launch's call of it
_R_LAUNCHER_ARGS_FRAME = re.compile(r"\btorch[/\\]distributed[/\\](?:run|launch)\.py\", line \d{1,7}, ?"
                                    r"in config_from_args\b")


def _launcher_args_cut(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules Q, W, U (2) (round 100's s1-106): the input stops inside torchrun's own traceback at its
    config_from_args frame (parse.input_tail's tb_cut), its error line cut: the launcher raised checking its own
    arguments (the node count, processes per node, rendezvous endpoint), before any worker process or rendezvous
    started -- a launch setting, no rank ever ran: config, culprits [], nobody innocent. Lines of the launch script
    before it (a shell's arithmetic error, an empty variable printed) are that launch's own. Not read so where an
    exception line, a worker's failure or a rank's own failure is shown (the launch got past its arguments), nor for
    a cut in another frame of the launcher (its agent, a worker's wait: unread._cut_traceback)."""
    cut = [e for e in c.samples.get("tb_cut", []) if e.data.get("what") == "frames"]
    if len(cut) != 1 or cut[0].data.get("func") != "config_from_args" or not _R_LAUNCHER_ARGS_FRAME.search(
            cut[0].text):
        return None
    if _run_failed(c) or c.worker_failures or c.child_failures or any(
            not e.data.get("line") for e in c.exceptions):
        return None
    ev = cut[0]
    said = [u.text.strip() for u in c.unread[:2]]
    return Verdict(
        "config",
        f"the input stops inside torchrun's own traceback at config_from_args ({ev.text[:200]}), its error line cut: "
        "the launcher raised turning its command-line arguments into its config (--nnodes, --nproc-per-node, "
        "--rdzv-endpoint / --master-addr), before any worker process or rendezvous started"
        + (f"; the launch script's own lines before it failed too ('{said[0][:160]}')" if said else "")
        + " -- a launch setting, no rank ever ran, so no rank is at fault",
        "Check the arguments the launch passes to torchrun (torchrun --nnodes / --nproc_per_node / --rdzv_endpoint): "
        "--nnodes must be a number >= 1 (or MIN:MAX), "
        "--nproc-per-node the GPUs per node, and --rdzv-endpoint / --master-addr a non-empty host:port. Where a "
        "Slurm script computes them (nnodes from $SLURM_NNODES / $SLURM_JOB_NUM_NODES, the head node IP from "
        "scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1), run it inside an allocation (sbatch / salloc, "
        "srun) so those variables are set -- empty, they give 0 nodes, an empty host and a division by 0 in the "
        "script's own arithmetic; echo the torchrun command before running it, or on one node run plain torchrun "
        "--nproc-per-node N. Run torchrun again to see its error line, then relaunch.",
        "medium", [], [ev.brief()] + [u.brief() for u in c.unread[:2]], job_wide=True)


_NCCL_WARNING = "PyTorch is not compiled with NCCL"


def _failed_else(c: Collected) -> bool:
    """Whether the lines show a failure other than the "no NCCL" lines: an exception, a line announcing one, a
    launcher's failure record, or a family of the failing kinds."""
    return bool(c.exceptions or c.unread or c.worker_failures or c.child_failures or any(
        n for k, n in c.kinds.items() if k not in QUIET_KINDS and k not in ("no_nccl", "setup_done")))


def _no_nccl(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The nccl backend asked for where NCCL cannot run: torch built without it (the CPU wheel)
    or no GPU visible to the process. A setting of the job, not a fault of a rank."""
    evs = c.samples.get("no_nccl", [])
    if not evs:
        return None
    uv = next((e for e in evs if e.data.get("what") == "libuv"), None)
    if uv is not None:
        return Verdict(
            "config",
            "creating the TCPStore failed because it was asked to use the libuv backend and this PyTorch build has no "
            "libuv support (the Windows wheels): a setting every process shares, not a connection or a rank failing",
            "Set USE_LIBUV=0 in the environment of every process (or pass use_libuv=False to the TCPStore / "
            "init_method 'env://?use_libuv=0'); on Windows run multi-GPU training under WSL (Linux builds have libuv "
            "and NCCL), or train on a single GPU without torchrun.",
            "high", [], [uv.brief()], job_wide=True)
    win = next((e for e in evs if e.data.get("what") == "windows_cut"), None)
    if win is not None:  # a traceback cut in init_process_group past the store, nccl asked on Windows (parse.finish)
        return Verdict(
            "config",
            "a Windows install asked for the nccl backend (init_process_group(backend=\"nccl\"), "
            f"{win.data['backend']}) and its traceback ends inside init_process_group past the store's creation "
            f"({win.where}): the store was got, so any store-client connect warning before it was a retried one, and "
            "what failed is making the NCCL process group -- torch's Windows wheels have no NCCL (the exception line, "
            "'Distributed package doesn't have NCCL built in', is not in the input): a setting every process shares, "
            "no rank at fault",
            "Windows has no NCCL: use the gloo backend on Windows (accelerate picks it when NCCL is unavailable: "
            "update accelerate), or run multi-GPU training under WSL2 / Linux; for one GPU set accelerate config to "
            "no distributed training (single GPU). Give the full exception text below the traceback to confirm."
            + (f" The store client's connect warning(s) to [{win.data['connect']}] before it were retried attempts "
               "(lead rule BM (2)), harmless once the store was got: that name resolves here (the hosts file, a VPN "
               "or Docker Desktop's entry) to an address not usable from this machine -- set MASTER_ADDR=127.0.0.1 / "
               "localhost on one machine, or fix the hosts file entry." if win.data.get("connect") else ""),
            "medium", [], [win.brief()], job_wide=True)
    gd = next((e for e in evs if e.data.get("what") == "gloo_device"), None)
    if gd is not None:  # torch's GlooDeviceFactory has no creator for the transport (lead rules Q, AP)
        return Verdict(
            "config",
            "creating the gloo process group failed because this torch build has no gloo device for the transport "
            f"it asked for ('{strip_prefixes(gd.text).strip()[:120]}', {gd.where}): the torch install (or its "
            "GLOO_DEVICE_TRANSPORT setting) every process shares cannot serve the gloo backend -- no address was "
            "tried yet, not a network or a rank failing",
            "Install a torch build whose gloo has a device for this platform (on Windows an official wheel of torch "
            ">= 2.4, built with libuv: the gloo transport unsupported here means an old or custom build), and unset "
            "GLOO_DEVICE_TRANSPORT unless it names a transport the build has (TCP on Linux/macOS, UV on Windows); "
            "or run multi-GPU training under WSL/Linux, or skip init_process_group / DDP for single-GPU training.",
            "high", [], [gd.brief()], job_wide=True)
    lib = next((e for e in evs if e.data.get("what") == "library"), None)
    if lib is not None:
        # XLA's (JAX, TensorFlow) collectives dlopen libnccl at the first one: none loadable on the library path
        return Verdict(
            "config",
            "the framework could not load the NCCL library (libnccl.so) for its first collective, so no multi-GPU "
            "collective can run: the install every process shares lacks a loadable NCCL, not a rank or the network",
            "Install the NCCL that matches the framework's CUDA build: for JAX the CUDA wheels (pip install "
            "'jax[cuda12]', which brings nvidia-nccl-cu12), for others the nvidia-nccl-cu12 wheel or the system "
            "libnccl2 package; make libnccl.so.2 findable (LD_LIBRARY_PATH, ldconfig -p | grep nccl) and keep the "
            "CUDA/cuDNN/NCCL versions the framework was built for.",
            "high", [], [lib.brief()], job_wide=True)
    hvd = next((e for e in evs if e.data.get("what") == "hvd_no_cuda"), None)
    if hvd is not None:  # Horovod installed without CUDA, given GPU tensors (lead rules AF (2), Q): the shared install
        flag = horovod_framework_flag([hvd.text, str(hvd.data.get("frame_file") or ""), *exception_frame_texts(c)])
        return Verdict(
            "config",
            "Horovod was given GPU tensors and the installed Horovod was built without CUDA "
            f"('{strip_prefixes(hvd.text).strip()[:160]}', {hvd.where}): its collectives have no GPU operations, "
            "and every rank runs that same install -- the rank whose traceback is shown is no culprit",
            "Horovod built without CUDA: reinstall Horovod with GPU support -- with the CUDA toolkit / nvcc visible "
            f"when building Horovod, {horovod_rebuild(flag, gpu=True)} (the no-cache build, so pip does not reuse a "
            "CPU-only wheel), against the framework and CUDA the job runs; horovodrun --check-build must list NCCL "
            "among its tensor operations on every node. Then relaunch every rank.",
            "high", [], [hvd.brief()], job_wide=True)
    mpi = next((e for e in evs if e.data.get("what") == "cuda_mpi"), None)
    if mpi is not None:  # the mpi backend given GPU tensors, its MPI build not CUDA-aware (lead rule Q's last sentence)
        return Verdict(
            "config",
            "the mpi backend was given GPU tensors and the MPI library torch uses is not CUDA-aware "
            f"('{strip_prefixes(mpi.text).strip()[:160]}'): the backend and the MPI build every process shares "
            "cannot carry device memory, not a fault of any rank or of the network",
            "Use the nccl (RCCL) backend for GPU tensors (init_process_group backend='nccl', or "
            "'cpu:gloo,cuda:nccl'); keep backend mpi only with a CUDA-aware MPI (Open MPI built with CUDA/ROCm, UCX: "
            "ompi_info --parsable --all | grep mpi_built_with_cuda_support) and a torch built against it, or move "
            "tensors to CPU before MPI collectives. Then relaunch every rank.",
            "high", [], [mpi.brief()], job_wide=True)
    bad = next((e for e in evs if e.data.get("what") == "backend"), None)
    if bad is not None:  # init_process_group's backend refused by name (lead rules L, Q): a setting, no rank
        return Verdict(
            "config",
            f"init_process_group was given a backend this torch does not have ('{bad.data['backend']}': "
            f"{strip_prefixes(bad.text).strip()[:160]}): a removed or unknown backend name, a setting every process "
            "is started with, not a fault of any rank or of the network",
            "Pass a backend this torch provides: backend='nccl' for GPU tensors, backend='gloo' for CPU tensors "
            "(or 'mpi' in a build with MPI; 'cpu:gloo,cuda:nccl' for both); the old TCP backend was removed from "
            "c10d -- tcp://HOST:PORT stays valid only as the init_method (where the ranks meet), not as the "
            "backend. Check the spelling where a config passes it (dist_backend), then relaunch.",
            "high", [], [bad.brief()], job_wide=True)
    arg = next((e for e in evs if e.data.get("what") == "backend_arg"), None)
    if arg is not None:  # an argument the shared backend cannot take (lead rule Q): the code every rank runs
        name, backend = arg.data["arg"], arg.data["backend"]
        return Verdict(
            "config",
            f"a torch.distributed call was given the argument {name}, which the {backend} backend does not support "
            f"('{strip_prefixes(arg.text).strip()[:160]}', {arg.where}): the backend and the code every rank runs "
            "(torch on Windows has no NCCL: gloo is its backend there), so the rank the launcher saw exit first is "
            "no culprit",
            f"Drop {name} from that call when the backend is {backend} (e.g. dist.barrier() without device_ids, "
            "or pass it only when dist.get_backend() == 'nccl'); for multi-GPU training with the nccl backend run "
            "on Linux or under WSL, or train on a single GPU without torchrun. Then relaunch every rank.",
            "high", [], [arg.brief()], job_wide=True)
    cb = next((e for e in evs if e.data.get("what") == "unbuilt_c10d"), None)
    if cb is not None:  # torch built without the c10d backend asked for (lead rule Q's last sentence)
        name = cb.data["backend"]
        how = ("MPI is only included if you build PyTorch from source on a host that has MPI installed (USE_MPI=1)"
               if name == "mpi" else f"the {name} backend is only in torch builds made with it (USE_{name.upper()}=1)")
        return Verdict(
            "config",
            f"init_process_group asked for the {name} backend, which this torch build does not have "
            f"('{strip_prefixes(cb.text).strip()[:160]}', {cb.where}): {how} -- the install every process "
            "shares, so no rank is at fault",
            f"Use a backend the installed torch has built in: backend='nccl' for GPU tensors (the nccl backend), "
            f"backend='gloo' for CPU tensors (torch.distributed.is_{name}_available() tells whether this build has "
            f"the {name} backend); to use the {name} backend, build PyTorch from source with {name.upper()} "
            f"(USE_{name.upper()}=1, on a host that has {'MPI' if name == 'mpi' else name.upper()} installed) or "
            "install a distribution whose torch has it built in. Then relaunch every process.",
            "high", [], [cb.brief()], job_wide=True)
    ub = next((e for e in evs if e.data.get("what") == "unbuilt_backend"), None)
    if ub is not None:  # a framework's own communication layer refusing a backend by name (lead rule Q's last sentence)
        name = ub.data["backend"]
        said = strip_prefixes(ub.text).strip()[:160]
        if name.lower() in _COMM_LIBS:  # a real library: this build was made without it
            return Verdict(
                "config",
                f"the framework's communication layer refused the '{name}' backend as unknown ('{said}', {ub.where}): "
                f"a real communication library its factory knows only when the build compiled it in -- the installed "
                f"build has no {name} support; every worker runs that build, so no rank is at fault",
                f"Install (or rebuild) the framework with {name} support: a build made without it (a source build "
                "without its multi-GPU / NCCL build options, or a wheel for another platform) cannot create that "
                "communicator. Reinstall the official wheel for this CUDA version or rebuild with that backend's "
                "support enabled (its multi-GPU and NCCL options on), check the library is found (ldconfig -p | grep "
                "nccl), or pick a communication backend the build has; with one GPU, run without tensor parallelism.",
                "high", [], [ub.brief()], job_wide=True)
        return Verdict(
            "config",
            f"the framework's communication layer does not know the backend name it was given ('{name}': "
            f"'{said}', {ub.where}): a setting every worker is started with names no backend (a misspelling or an "
            "option of another version), not a fault of any rank or of the network",
            f"Set the communication backend option to a name this version supports (check its spelling, '{name}', "
            "against the framework's documentation for the installed version; nccl for NVIDIA GPUs), then relaunch.",
            "high", [], [ub.brief()], job_wide=True)
    nb = next((e for e in evs if e.data.get("what") == "no_backend"), None)
    if nb is not None:  # init_process_group with no backend on a device torch has none by default for (rule Q)
        dev = nb.data.get("accel") or "this accelerator"
        return Verdict(
            "config",
            f"init_process_group was called without a backend and torch has no default communication backend for "
            f"the accelerator it found ({dev}: '{strip_prefixes(nb.text).strip()[:160]}', "
            f"{nb.where}): the call every process makes, on the platform every process runs, fails before any "
            "rank meets the others -- a setting, no rank at fault",
            "Specify the backend in the init_process_group call (or the framework's setting that passes it: "
            "deepspeed.init_distributed(dist_backend=...), accelerate's config): init_process_group(backend=\"gloo\") "
            "where no NCCL exists (mps is not supported by nccl: on a Mac use gloo and keep the tensors a collective "
            "is given on the cpu), backend=\"nccl\" on NVIDIA GPUs; torch.distributed.is_backend_available(name) "
            "tells which this build has. Then relaunch every rank.",
            "high", [], [nb.brief()], job_wide=True)
    nocuda = next((e for e in evs if e.data.get("what") == "no_cuda"), None)
    if nocuda is not None:  # CUDA-only code in a build without CUDA (lead rules Q, AF (2)): the build every rank runs
        api = nocuda.data.get("api") or "CUDA"
        return Verdict(
            "config",
            f"code that calls torch's {api} API ran in a torch build without {api} "
            f"('{strip_prefixes(nocuda.text).strip()[:120]}', {nocuda.where}): a CPU build, or another accelerator's "
            "(Intel XPU, ROCm) running a CUDA-only path -- the same build and the same code on every rank, so the "
            "rank a launcher saw exit first is no culprit",
            f"Make the code and the build agree, then relaunch every rank. On an accelerator other than {api} (Intel "
            "XPU: torch.xpu): find the CUDA-only call in the traceback (torch.cuda.stream / current_stream / "
            "set_device, .cuda(), device='cuda') and use the device-agnostic API (torch.accelerator, torch.xpu, "
            "torch.get_device_module(device)); inside torch itself (FSDP2's foreach_all_gather using "
            "torch.cuda.stream in older releases) upgrade torch to a version with device-agnostic FSDP2 / the "
            "matching torch / intel-extension / oneccl build, or patch that call to the device's own stream. On "
            f"NVIDIA GPUs install torch's {api} build (python -c 'import torch; print(torch.version.cuda, "
            "torch.cuda.is_available())' must not print None False)"
            + ("; on a machine with no NVIDIA GPU (macOS, whose torch has no CUDA), run the processes on the device "
               "it has -- device 'mps' or 'cpu' instead of 'cuda', no torch.cuda.set_device, the gloo backend instead "
               "of nccl." if api == "CUDA" else "."),
            "high", [], [nocuda.brief()], job_wide=True)
    hid = next((e for e in evs if e.data.get("what") == "hidden"), None)
    if hid is not None:  # CUDA_VISIBLE_DEVICES hiding every GPU beside the nccl backend (lead rule Q's last sentence)
        failed = bool(c.worker_failures or c.child_failures or c.kinds.get("worker_failed")
                      or c.kinds.get("child_failed") or c.exceptions)
        return Verdict(
            "config",
            f"the launch hides every GPU from its processes ('{strip_prefixes(hid.text).strip()[:160]}': "
            f"CUDA_VISIBLE_DEVICES empty or -1) while the job asks for the nccl backend ({hid.data['backend']}): "
            "NCCL needs a CUDA device in every rank, so no rank can run it"
            + ("; the failure the launcher then records is that setting, which every rank shares, not one rank's "
               "fault" if failed else " -- a setting every rank shares, not one rank's fault"),
            "Make the GPUs visible (no GPU visible: drop CUDA_VISIBLE_DEVICES=\"\" / -1 from the launch, or list the "
            "GPU ids the job may use, one per process: CUDA_VISIBLE_DEVICES=0,1; python -c 'import torch; "
            "print(torch.cuda.is_available())' must print True in that environment); for a CPU-only run use the gloo "
            "backend instead (init_process_group('gloo'), or backend='cpu:gloo,cuda:nccl'): the nccl backend needs a "
            "GPU.",
            "high", [], [hid.brief()], job_wide=True)
    warn_only = all(_NCCL_WARNING in e.text and not e.data.get("pg_nccl") for e in evs)
    if warn_only and _failed_else(c):
        # torch.cuda.nccl's warning alone, printed wherever torch.cuda.nccl.is_available() is called in a build
        # without NCCL -- nn.DataParallel's torch.cuda.comm on every Windows and Jetson wheel, which then falls back
        # and runs -- with no process group asking for NCCL, beside another failure: that failure is read by its
        # own rule (lead rules A, J, T; review r3 of session 35)
        return None
    nogpu = any("no GPUs found" in e.text for e in evs)
    win = next((e for e in evs if e.data.get("windows") and e.data.get("what") not in ("library", "no_cuda")), None)
    if win is not None and not nogpu:  # the nccl backend asked of a Windows install (lead rule Q's last sentence)
        return Verdict(
            "config",
            ("this Windows install of torch has no NCCL, and only its warning is shown (nothing here asks for the "
             "nccl backend: a job that does fails on every rank) " if warn_only else
             "the job asked for the nccl backend on Windows ")
            + f"('{strip_prefixes(win.text).strip()[:120]}', "
            f"{win.where}): NCCL is not available on Windows -- torch's Windows builds have no NCCL, gloo is their "
            "backend -- so every process the launcher starts fails the same way and the process its record names "
            "is no culprit",
            "Use the gloo backend on Windows (init_process_group('gloo'); accelerate and Lightning pick it where NCCL "
            "is unavailable in their newer versions), or run multi-GPU training on Linux / WSL2; for one GPU, launch "
            "without distributed training (accelerate config: no distributed / single GPU, num_processes 1, "
            "distributed_type NO; or python script.py without torchrun).",
            "medium" if warn_only else "high", [], [e.brief() for e in evs[:3]], job_wide=True)
    # torch.cuda.nccl's own warning: a CUDA build of torch without NCCL (NVIDIA's Jetson / aarch64 wheels), not a
    # CPU-only one (round 90's nccl-1561)
    cuda_only = not nogpu and any("PyTorch is not compiled with NCCL" in e.text for e in evs)
    return Verdict(
        "config",
        ("torch.cuda.nccl's warning is the only failure shown (no process group asking for NCCL is in the lines): "
         if warn_only and cuda_only else "the job asked for the nccl backend where NCCL cannot run: ")
        + ("no GPU is visible to the process" if nogpu else
           "this torch is a CUDA build without NCCL support (torch.cuda.nccl says it was not compiled with it: "
           "torch.distributed.is_nccl_available() is False), the install every process shares"
           + (", so a job asking for the nccl backend fails on every rank" if warn_only else "") if cuda_only else
           "this torch is built without NCCL (a CPU-only build)"),
        ("PyTorch not compiled with NCCL support: install a torch build with NCCL (the CUDA wheel from pytorch.org "
         "for x86_64), or on Jetson / aarch64, whose NVIDIA wheels ship without NCCL, build PyTorch from source with "
         "NCCL (USE_NCCL=1 USE_SYSTEM_NCCL=1 against the NCCL built for the board; jetson-containers' "
         "ENABLE_DISTRIBUTED_JETSON_NCCL) -- or use the gloo backend there. " if cuda_only else "")
        + "On CPU use the gloo backend (init_process_group('gloo'), or 'cpu:gloo,cuda:nccl' to pick per device); "
        "Windows / macOS torch builds have no NCCL: use gloo there, and skip or guard the code (tests) that asks "
        "for nccl where torch.distributed.is_nccl_available() is False; "
        "for GPUs install torch's CUDA build (a PyTorch build with CUDA/NCCL) and check that the GPUs are visible "
        "(nvidia-smi, CUDA_VISIBLE_DEVICES, the container's --gpus; python -c 'import torch; "
        "print(torch.cuda.is_available(), torch.distributed.is_nccl_available())' must print True True); on another "
        "accelerator use the backend "
        "its own build provides (hccl with torch_npu on Ascend NPUs, xccl on Intel GPUs; DeepSpeed picks it "
        "from its accelerator, DS_ACCELERATOR, and dist_backend).",
        "medium" if warn_only else "high", [], [e.brief() for e in evs[:3]])


# torch's collective timeouts default to 10 min (NCCL) / 30 min; under a second no collective of a step is sure to fit
_TINY_TIMEOUT_MS = 1_000


def _tiny_timeout(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A watchdog timeout whose Timeout(ms) is a few seconds or less: the setting, not a hang, made
    it fire (a timeout passed in ms where seconds were meant, or set tiny to test the knob)."""
    evs = [e for e in c.samples.get("watchdog_timeout", [])
           if e.data.get("timeout_ms") is not None and e.data["timeout_ms"] < _TINY_TIMEOUT_MS]
    if not evs:
        return None
    ms = min(e.data["timeout_ms"] for e in evs)
    return Verdict(
        "config",
        f"the collective timeout is {ms} ms (Timeout(ms)={ms}): far shorter than any real collective waits for its "
        "peers, so the watchdog fired on a normal collective; nothing shows a rank at fault",
        "Set a sane timeout (minutes): init_process_group(timeout=timedelta(minutes=10)) or the launcher's/"
        "framework's timeout knob (check it is not read as milliseconds where seconds were meant); rerun.",
        "high", [], [e.brief() for e in evs[:3]], job_wide=True)


def _cuda_fork(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch refusing CUDA in a process started by fork after its parent initialised CUDA (parse: ``cuda_fork``): the
    start method every worker of the pool is started with (vLLM's multiproc workers, a DataLoader's, a
    multiprocessing.Pool), a launch setting all share (lead rules AF (2), Q): config, no rank. The waits after it (a
    store's 'k/N clients joined', a rendezvous or collective timeout) are its consequence: the workers that could not
    set their device never reached init_process_group."""
    evs = c.samples.get("cuda_fork", [])
    if not evs:
        return _rdma_fork(c)
    waits = [w for k, w in (("store_timeout", "store's wait for its clients"), ("uniqueid_wait", "ncclUniqueId wait"),
                            ("watchdog_timeout", "collective timeout")) if c.kinds.get(k)]
    notebook = ""
    if any("notebook" in e.text or "in any cell" in e.text or e.data.get("notebook") for e in evs):
        # accelerate's notebook_launcher forks its workers from the notebook's kernel (the only start method a
        # notebook's functions survive): CUDA must stay uninitialised in the kernel until it is called
        notebook = ("The notebook launcher forks its workers from the notebook's own process, so nothing may touch "
                    "CUDA before notebook_launcher() is called: restart the kernel, and run no torch.cuda "
                    "call before notebook_launcher (no .cuda()/.to('cuda') and no import that initialises CUDA: check "
                    "each import alone with torch.cuda.is_initialized(); move such imports and the model's creation "
                    "inside the function you launch: create the Accelerator, model and dataloaders only inside the "
                    "training function passed to notebook_launcher, and keep any model passed in as an argument on "
                    "the CPU), then call notebook_launcher first; or run the code as a script "
                    "with accelerate launch (or torchrun) instead: a script may start its workers with the spawn "
                    "method (a notebook's own functions cannot be pickled for it).")
    if all(e.data.get("xla") for e in evs):
        # torch_xla's PJRT spawn refusing a parent that already initialised the XLA runtime (round 110's xla-9303)
        return Verdict(
            "config",
            f"xmp.spawn refused to start its workers: the calling process had already initialised the XLA runtime "
            f"('{evs[0].data['said'][:160]}', {len(evs)} line(s)) -- the state every worker is started from, so no "
            "rank is at fault",
            "Runtime is already initialized: the process that calls xmp.spawn used the XLA device first. Do not use "
            "the XLA device (xm.xla_device(), torch_xla.device(), xla_real_devices, a tensor or model on the TPU) in "
            "any cell or line before xmp.spawn; move all XLA initialisation (the device, the model, the data loaders) "
            "inside the spawned function; restart the notebook kernel and call xmp.spawn before touching the TPU, or "
            "run the training as a script instead of notebook cells. Under PJRT (PJRT_DEVICE=TPU) unset "
            "XRT_TPU_CONFIG (XRT is removed), and pass nprocs=None (all devices) or 1.",
            "high", [], [e.brief() for e in evs[:3]], job_wide=True)
    if any("create new processes if CUDA" in e.text for e in evs):
        # Lightning's fork strategies (ddp_notebook, ddp_fork) refuse to fork at all once the parent initialised CUDA
        # (round 110's lightning-21561): the remedy is the notebook's own cells, or a script with a spawn strategy
        notebook = ("Lightning's ddp_notebook / fork strategy forks its workers from the notebook's (or script's) own "
                    "process, so nothing may touch CUDA before trainer.fit: restart the Python kernel, then remove "
                    "torch.cuda.* calls / model.to('cuda') before trainer.fit in the notebook (load the model on CPU "
                    "and let Lightning move it; no CUDA tensor or torch.cuda query in earlier cells); or run the "
                    "training as a script with strategy='ddp' (torchrun / python train.py) instead of ddp_notebook, "
                    "or use devices=1 in the notebook. " + notebook)
    return Verdict(
        "config",
        f"a worker process could not use CUDA: it was started with the fork start method after its parent had "
        f"initialised CUDA ('{evs[0].data['said'][:160]}', {len(evs)} line(s)) -- the start method every worker is "
        "started with, so no rank is at fault"
        + (f"; the {' and '.join(waits)} after it is its consequence (the forked workers never reached "
           "init_process_group)" if waits else ""),
        notebook
        or "Start the workers with the spawn start method: for vLLM set VLLM_WORKER_MULTIPROC_METHOD=spawn (and "
        "keep the engine's creation under `if __name__ == '__main__':`); with multiprocessing / torch.multiprocessing "
        "call set_start_method('spawn') (or torch.multiprocessing.spawn); for a DataLoader whose workers touch CUDA "
        "pass multiprocessing_context='spawn' or keep CUDA out of its dataset. Or do not initialise CUDA in the parent "
        "before it forks (no torch.cuda call or CUDA tensor before the engine / pool / DataLoader is created).",
        "high", [], [e.brief() for e in evs[:3]], job_wide=True)


def _rdma_fork(c: Collected) -> Verdict | None:
    """Lead rules W, BA (5), AG: an RDMA library's own fork-safety check (libfabric's EFA provider: "For the libfabric
    EFA provider to work safely when fork() is called, you will need to set ... RDMAV_FORK_SAFE ... Your job will now
    abort.") ending a process that forked (a DataLoader worker, a subprocess) after the library registered memory:
    the SIGABRT after it is the library's deliberate abort naming a host setting every process shares, not rule A's
    signal with no cause -- config, no rank (round 90's guided-diffusion-130). Open MPI's warning of the same fork,
    which lets the job run on, is not read so (signatures.R_RDMA_FORK)."""
    evs = c.samples.get("fork_unsafe", [])
    if not evs:
        return None
    lib = evs[0].data["lib"]
    return Verdict(
        "config",
        f"the {lib} (an RDMA fabric library loaded by the MPI / NCCL stack) saw fork() called after it registered "
        f"memory and aborted the process itself ('{evs[0].data['said']}'): its fork-safety setting "
        "(RDMAV_FORK_SAFE) is not set, a host setting every process shares, so no rank is at fault",
        "Set RDMAV_FORK_SAFE=1 (and FI_EFA_FORK_SAFE=1 for the libfabric EFA provider) in the job's environment, or "
        "avoid fork after the fabric is initialised: DataLoader num_workers=0 or multiprocessing_context='spawn' "
        "(the spawn / forkserver start method), no subprocess forked from the trainer after MPI / NCCL init; on a host "
        "without EFA keep MPI off the OFI/EFA provider (FI_PROVIDER=tcp or shm; Open MPI --mca mtl ^ofi); or upgrade "
        "libfabric / aws-ofi-nccl / rdma-core to versions with fork support.",
        "high", [], [e.brief() for e in evs[:3]], job_wide=True)


def _launch_mode(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A library's warning, with nothing failing shown, that its installed version supports only one bootstrap for a
    feature the settings turn on (parse: ``launch_mode``; Transformer Engine's userbuffers for --tp-comm-overlap before
    1.9 start only under MPI): the job was launched some other way, a launch setting every rank shares (lead rules
    V (1), W): config, no rank. The crash that may follow is read by its own lines when they are shown."""
    evs = c.samples.get("launch_mode", [])
    if not evs or c.exceptions or c.child_failures or c.worker_failures or finished(c):
        return None
    if c.samples.get("nccl_error") or any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
        return None
    e = evs[0]
    who, mode = e.data["who"], e.data["mode"]
    ver = f" v{e.data['version']}" if e.data.get("version") else ""
    mpi = mode.upper() == "MPI"
    return Verdict(
        "config",
        f"{who}{ver} warns ('{e.data['said'][:160]}', {c.kinds.get('launch_mode', 1)} time(s)) that this installed "
        f"version supports only the {mode} bootstrap for a feature the settings turn on, and the job was not started "
        "that way: a launch setting every rank shares, not a rank's fault; these lines show nothing failing beyond "
        "that warning",
        ("Launch every rank under MPI (mpirun -np N ..., or srun --mpi=pmix under Slurm) with a PyTorch built with "
         "MPI, so the MPI bootstrap can start; or " if mpi else
         f"Launch every rank so the {mode} bootstrap can start; or ")
        + f"upgrade {who} to a version that bootstraps over torch.distributed (Transformer Engine >= 1.9 for its "
        "userbuffers: --tp-comm-bootstrap-backend nccl), or turn off the feature that needs it (--tp-comm-overlap "
        "for TP comm+GEMM overlap). Collect the full output of a run if it then stops: the failure itself is not in "
        "these lines.",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)
