"""A Flight Recorder dump is named <TORCH_FR_DUMP_TEMP_FILE><rank>, and the prefix is the
user's: `fr_dump_0` is rank 0's dump even without the word "rank" in it."""

import json
import shutil
from pathlib import Path

from tests.conftest import run_cli

HANG = Path(__file__).parent / "fixtures" / "fr" / "recorded" / "hang" / "pickle"


def test_dumps_named_by_a_user_prefix_are_read_with_their_rank(tmp_path):
    for r in range(3):
        shutil.copy(HANG / f"comm_lib_trace_rank_{r}", tmp_path / f"fr_dump_{r}")
    proc = run_cli("diagnose", str(tmp_path), "--json", "--out", str(tmp_path / "out"))
    rep = json.loads(proc.stdout)
    inputs = {Path(i["path"]).name: i for i in rep["results"]["diagnose"]["inputs"]}
    assert {n: (i["kind"], i["rank_hint"]) for n, i in inputs.items()} == {
        "fr_dump_0": ("fr", 0), "fr_dump_1": ("fr", 1), "fr_dump_2": ("fr", 2)}
    assert not any(i["notes"] for i in inputs.values())
