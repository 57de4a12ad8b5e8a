"""Follow-ups from round 108's reviews (session 46): the fix words of argparse's refusal of the local-rank argument
follow which refusal it is. 'The following arguments are required: --local_rank' (torchrun passes none) needs the
argument made optional -- parse_known_args would not supply a required argument; 'unrecognized arguments:
--local-rank=N' (the launcher passed a spelling the script lacks) may be ignored with parse_known_args. Script names
are made up."""

from __future__ import annotations

from ncclDoctor.diagnose.verdict import launch
from tests.conftest import verdict_accused


def test_local_rank_required_fix_makes_it_optional_not_parse_known_args(tmp_path):
    """Lead rule U (2): two workers' argparse demanding --local_rank that torchrun never passes: config, nobody; the
    fix says to make the argument optional with its default from LOCAL_RANK, and does not offer parse_known_args
    (which leaves a required argument missing)."""
    text = "".join("usage: pretrain_vit.py [-h] --cfg FILE --local_rank LOCAL_RANK\n"
                   "pretrain_vit.py: error: the following arguments are required: --local_rank\n" for _ in (0, 1))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "make the argument optional, its default read from the environment (drop required=True" in v["fix"], v
    assert "parse_known_args" not in v["fix"], v
    assert "python -m torch.distributed.launch without --use_env" in v["fix"], v


def test_local_rank_unrecognized_keeps_parse_known_args(tmp_path):
    """The near shape: argparse refusing the launcher's --local-rank=N keeps parse_known_args and torchrun, and says
    nothing of dropping required=True."""
    text = "".join(f"eval_seg.py: error: unrecognized arguments: --local-rank={r}\n" for r in (2, 5))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "use parse_known_args so the launcher's extra argument is ignored" in v["fix"], v
    assert "required=True" not in v["fix"], v


def test_local_rank_fix_words_differ_by_refusal():
    """The function the verdicts use: the two refusals give different remedies, each naming its own argparse
    message."""
    req, unrec = launch._local_rank_fix(True), launch._local_rank_fix(False)
    assert req.startswith("argparse's 'the following arguments are required'") and "parse_known_args" not in req
    assert unrec.startswith("argparse's 'unrecognized arguments'") and "parse_known_args" in unrec


def test_children_with_one_long_error_line_are_not_a_hard_wrap(tmp_path):
    """Review a of round 109 (y1's note): four multiprocessing children printing the same long error line made it the
    longest line, each followed by the next child's 'Process Process-N:' header -- read as a text hard-wrapped at that
    width, which joined the header onto the error and lost the children. The header is a line of its own: no wrap,
    and the four children's refusal reads as autograd's second backward in several processes (invalid_usage)."""
    from ncclDoctor.diagnose import ingest

    err = ("RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after "
           "they have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
           "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
           "if you need to access saved tensors after calling backward.")
    text = "".join(f"Process SpawnProcess-{n}:\nTraceback (most recent call last):\n"
                   f'  File "/srv/envs/py/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap\n'
                   f"    self.run()\n"
                   f'  File "/home/u/proj/fit.py", line {40 + n}, in step\n    total.backward()\n{err}\n'
                   for n in (1, 2, 3, 4))
    assert ingest.wrap(text.encode()) is None
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], v


def test_a_variable_no_launcher_sets_gets_no_launch_advice(tmp_path):
    """Review a of round 109, finding 4's remainder: a job's own check that a variable no launcher sets is missing
    (an access token) is the job's environment -- config, nobody -- and its fix says to export that variable to every
    process, without the launch advice (torchrun, RANK / WORLD_SIZE) meant for torch's env:// variables."""
    text = ("Traceback (most recent call last):\n  File \"/srv/app/finetune.py\", line 7, in <module>\n"
            "    key = need('WANDB_API_KEY')\n"
            "RuntimeError: environment variable WANDB_API_KEY is not set\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "export WANDB_API_KEY in the environment every process starts with" in v["fix"], v
    assert "Launch with torchrun" not in v["fix"] and "MASTER_PORT" not in v["fix"], v
    assert "WANDB_API_KEY and nothing set it" in v["summary"], v


def test_a_launch_variable_keeps_the_launch_advice(tmp_path):
    """The near shape: KeyError of torch's env:// variable keeps the launch reading and its advice."""
    text = ("Traceback (most recent call last):\n  File \"/srv/app/finetune.py\", line 9, in <module>\n"
            "    lr = int(os.environ['LOCAL_RANK'])\nKeyError: 'LOCAL_RANK'\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "launch with torchrun / the deepspeed launcher so LOCAL_RANK is set" in v["fix"], v
    assert "Launch with torchrun" in v["fix"], v
