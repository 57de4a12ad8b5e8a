"""Experiment trackers (wandb) deciding a verdict: their own start-up checks and prompts, read by their shape.

- The tracker's own check that it has no credentials in a session that cannot prompt ("wandb: ERROR api_key not
  configured (no-tty). call wandb.login(key=[your_api_key])"), above the traceback of the process that started it:
  a setting of the job's environment every worker is launched with, not a fault of the process that reached
  wandb.init first -- config, culprits [], nobody innocent (lead rules W, BF (3); round 90's zoedepth-112).
- The tracker's interactive login menu ("wandb: (1) Create a W&B account ... wandb: Enter your choice:") printed by
  two or more processes of one job: every such rank blocked reading the one terminal they share, the key or mode
  missing on all of them -- config, culprits [], nobody innocent, with nothing else failing (lead rule BU (2), V (1),
  Q's last sentence; round 90's sftvsrl-1). One process's prompt alone stays rules K and T's reading.
- The tracker's own ERROR line ("wandb: ERROR Error communicating with wandb process") is no cause class: the
  verdict stays the reading of the lines around it, and its fix names the tracker's remedies (trackers.TRACKER_FIX,
  the one text for them).
"""

from __future__ import annotations

import re

from ncclDoctor.diagnose import trackers
from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict

# wandb's own check, at wandb.init / wandb.login, that it has no API key and no terminal to ask for one
R_TRACKER_NO_KEY = re.compile(r"\bwandb: ERROR api_key not configured \(no-tty\)")
# a prompt someone answered: the choice typed after its colon ("wandb: Enter your choice: 2"), alone on the line
R_PROMPT_ANSWERED = re.compile(r"\bwandb: Enter your choice: ?[0-9]{1,2} *$")


def _failure_shown(c: Collected) -> bool:
    """A failure the lines show beside the prompts: a traceback's exception, a worker's or child's failure record, or a
    line announcing an error that is not the tracker's own (its "wandb: ERROR Invalid choice" answers the prompt). A
    prompt's line with an exception glued after its colon is no prompt read (readers.exits): that exception is read."""
    if c.exceptions or c.worker_failures or c.child_failures:
        return True
    return any("wandb: " not in u.text for u in c.unread)


_KEY_FIX = ("Give the tracker its key before the launch, non-interactively: export WANDB_API_KEY=<your API "
            "key> (or run `wandb login` once on the machine, or call wandb.login(key=...) in the parent before it "
            "starts the workers), or run without the service: WANDB_MODE=offline (sync later) or WANDB_MODE=disabled "
            "(WANDB_DISABLED=true / report_to none for a Hugging Face Trainer). Initialise wandb on rank 0 only (log "
            "to wandb from rank 0 only): every rank that calls wandb.init needs the same setting. ")
def tracker_fix(texts: list[str]) -> str:
    """trackers.TRACKER_FIX (or its exit-time finish's remedy) where one of the lines is the tracker's own ERROR line,
    not its HTTP retries; empty otherwise."""
    return "".join(trackers.fix_for([(t, {}) for t in texts if trackers.tracker_error(t)]))


def _no_key(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The tracker's own no-credentials check above the failing process's traceback: config, culprits []."""
    hit = next((u for u in list(c.unread) + list(c.exceptions) if R_TRACKER_NO_KEY.search(u.text)), None)
    if hit is None:
        return None
    proof = [hit.brief()] + [e.brief() for e in (c.worker_failures + c.child_failures)[:2]]
    return Verdict("config", "the experiment tracker's own check says it has no API key and no terminal to ask for "
                   f"one ({hit.text[:200]}): wandb.init raised in the process that started it, a setting of the "
                   "environment every worker is launched with, not that process's fault (wandb api_key not configured "
                   "(no-tty): a non-interactive session cannot prompt)", _KEY_FIX
                   + "Then rerun; the process spawn reported first is only the one that reached wandb.init first.",
                   "medium", [], proof, job_wide=True)


def _login_prompt(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BU (2): the tracker's interactive login menu printed by two or more processes, with nothing else read
    failing (no exception, failure record or unread failure line beside them): config, culprits []. A prompt that was
    answered (a choice after its colon) blocks no rank and is not counted; one process re-prompted after an invalid
    choice shows one unanswered prompt, and its "wandb: ERROR Invalid choice" line says two of the prompts are one
    process's. wandb prints its menu and prompt once in each process that asks (one that waits on its terminal
    prints nothing more), so two unanswered prompts are two processes -- whatever rank tag a collector put on every
    line of the paste (the same "[rank3]:" on all of them says where the paste came from, not that one process asked
    twice)."""
    shown = [e for e in c.samples.get("benign", []) if e.data.get("what") == "tracker login prompt"]
    prompts = [e for e in shown if not R_PROMPT_ANSWERED.search(e.text)]  # one answered ("... choice: 2") blocks nobody
    # each "wandb: ERROR Invalid choice" is one process asked again: its prompts are one process's, not two
    again = sum(1 for u in c.unread if "Invalid choice" in u.text and trackers.R_TRACKER_RETRY.search(u.text))
    if len(prompts) < 2 or len(shown) - again < 2:
        return None  # one process's prompt (re-prompted after an invalid choice, too): rules K and T
    if _failure_shown(c):
        return None  # the failure shown is the reading (rule A, or rule J's unknown), not BU (2)
    return Verdict("config", f"the experiment tracker's interactive login prompt is printed {len(prompts)} times "
                   f"({prompts[0].text[:120]}): every process that calls wandb.init waits for an answer on the one "
                   "terminal they share -- the tracker's API key (or its offline / disabled mode) is not set on any "
                   "rank, and an interactive login prompt cannot be answered by several ranks sharing one terminal",
                   _KEY_FIX, "medium", [], [e.brief() for e in prompts[:4]], job_wide=True)
