"""Rules for CI gates: a busbw floor (``--min-busbw``) and a saved baseline (``--baseline``).

Codes are in the BW family from 101 up so that they never collide with the bandwidth
analysis rules (BW001...), which are numbered from 1.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

BELOW_MIN_BUSBW = rule(
    "BW101",
    "error",
    "Bus bandwidth is below the required minimum",
    why="""
The best busbw this run reached, over all message sizes, is below the floor set with
--min-busbw (or min-busbw in the config). Training on this node or network would be
slower than the job was sized for; nccl-tests' busbw is comparable across rank counts,
so one floor works for any world size on the same hardware.
""",
    fix="""
Compare with a healthy node (`ncclDoctor check --baseline ...`), look at the bandwidth
table for where the curve flattens, and check the settings table: a forced
NCCL_PROTO/NCCL_ALGO, NCCL_P2P_DISABLE or a wrong NCCL_SOCKET_IFNAME lowers busbw.
""",
)

REGRESSION = rule(
    "BW102",
    "error",
    "Bus bandwidth regressed against the baseline",
    why="""
At the listed message sizes (and nodes), busbw is lower than in the saved baseline run by
more than the allowed percentage. Something changed since the baseline: a driver, NCCL
or torch version, a setting, a cable or switch port, or another job on the node.
""",
    fix="""
Read the baseline table in the report for which sizes and nodes dropped. Small sizes are
latency-bound and noisy: if only they dropped, rerun or raise --max-regression. If large
sizes dropped on one node, check that node's link and GPU clocks; if everywhere, diff the
settings and versions against the baseline run.
""",
)

BASELINE_MISMATCH = rule(
    "BW103",
    "warning",
    "The baseline is not comparable with this run",
    why="""
The baseline was measured with a different backend, or shares no (table, node, message
size) with this run, so busbw could not be compared and no regression could be detected.
""",
    fix="Save a new baseline with the same options: `ncclDoctor check --save-baseline FILE ...`.",
)

NO_BUSBW = rule(
    "BW104",
    "warning",
    "No bus bandwidth was measured",
    why="""
A busbw gate (--min-busbw, --baseline or --save-baseline) was requested, but the run
produced no bandwidth table (it failed before the sweep, or sizes were excluded), so the
gate could not be applied.
""",
    fix="Fix the run's own findings first, then rerun the check with the same gates.",
)
