"""Rule texts: bandwidth (BW). Leaf module: imports only ``findings.rule``."""

from ncclDoctor.findings import rule

STRAGGLER = rule(
    "BW001",
    "warning",
    "One rank is slower than the rest",
    why="""
A collective finishes when its slowest rank does: one slow rank (a throttled GPU, a
busy CPU, a slow link) sets the pace for the whole job.
""",
    fix="""
Look at the named rank's node: other processes (top), GPU clocks and throttling
(nvidia-smi -q -d PERFORMANCE), its network link. Rerun to see whether it persists.
""",
)
