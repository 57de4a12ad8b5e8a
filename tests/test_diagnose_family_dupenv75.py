"""How diagnose reads the launch environments of two processes pasted as dicts, one key a line ('"RANK": "0",'), as
round 75's crypten-296 showed them: two processes of one world (the same WORLD_SIZE, the same MASTER_ADDR) given the
same RANK, then a traceback cut inside init. Two processes claiming one rank is a launch setting shown wrong (lead
rules AA (1), V (1)): config, nobody named. Near shapes -- two ranks told apart, two masters (two worlds), one dict
alone, a world of one -- are not read so. Addresses and names are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_CUT = ("Traceback (most recent call last):\n"
        '  File "/home/u/mpc/party.py", line 40, in <module>\n'
        "    mpc.init()\n"
        '  File "/home/u/mpc/comm.py", line 59, in __init__\n'
        "    rank=self.rank,\n")


def _dict(rank: str, world: str = "3", addr: str = "10.1.2.3", q: str = '"') -> str:
    keys = (("WORLD_SIZE", world), ("RANK", rank), ("BACKEND", "gloo"), ("MASTER_ADDR", addr), ("MASTER_PORT", "29511"))
    return "{\n" + "".join(f"    {q}{k}{q}: {q}{v}{q},\n" for k, v in keys) + "}\n"


def test_two_processes_given_the_same_rank_of_one_world_is_the_launch(tmp_path):
    """JSON or a dict's repr, with a cut traceback after or nothing more: config, nobody accused, the fix a unique
    RANK for each process."""
    for text in ("party A:\n" + _dict("1") + "\nparty B:\n" + _dict("1") + "\n" + _CUT,
                 _dict("0", q="'") + "\n" + _dict("0", q="'")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "unique rank" in v["fix"] and "RANK=1" in v["fix"], v


def test_distinct_ranks_two_masters_one_dict_or_a_world_of_one_is_not_the_same_rank(tmp_path):
    """Near shapes: ranks 0 and 1 of one world, the same rank of two masters' worlds, one dict shown, and two
    processes each a world of one are not two processes claiming one rank."""
    for text in (_dict("0") + "\n" + _dict("1") + "\n" + _CUT,
                 _dict("0") + "\n" + _dict("0", addr="10.9.9.9") + "\n" + _CUT,
                 _dict("0") + "\n" + _CUT,
                 _dict("0", world="1") + "\n" + _dict("0", world="1") + "\n" + _CUT):
        v = _verdict(tmp_path, text)
        assert "claim rank" not in v["summary"], (text, v)
