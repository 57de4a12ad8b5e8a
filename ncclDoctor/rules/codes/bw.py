"""BW rule texts: measured bandwidth: CI thresholds, baselines, slow nodes and links.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.analysis.structure``, ``ncclDoctor.ci`` (the CI gates, BW101-BW104) and
``ncclDoctor.check.analyse`` (BW001, a straggler).
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


SLOW_NODE = rule(
    "BW201",
    "error",
    "A node's network is slow",
    why="""
Every point-to-point exchange this node took part in ran far below the bandwidth other
node pairs reach, while its partners were fast with other nodes. Every collective that
crosses nodes runs at the pace of its slowest link, so this node slows the whole job.
""",
    fix="""
On the named node: check the link speed and errors (ethtool IFACE, ip -s link; ibstat
and the port counters on InfiniBand), traffic shaping (tc qdisc show), and whether the
traffic takes the interface you expect (NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME). Exclude
the node (sbatch --exclude=HOST) until it is fixed, and rerun the check.
""",
)


SLOW_LINK = rule(
    "BW202",
    "warning",
    "The link between two nodes is slow",
    why="""
Both nodes are fast with other partners, so neither node is slow as a whole: the path
between them is (a switch port, a cable, a routing or ECMP imbalance).
""",
    fix="Check the switch ports and the route between the two named nodes (traceroute, the fabric's port counters).",
)


UNLOCALIZED = rule(
    "BW203",
    "warning",
    "Slow inter-node bandwidth that cannot be pinned on one node",
    why="""
Localization compares node pairs with each other. With two nodes there is a single pair
and nothing to compare it with; when most nodes are slow there is no known-good node to
test the suspects against.
""",
    fix="Rerun with more nodes (including some known to be healthy), or compare the inter-node busbw with what the "
        "fabric should deliver.",
)


SLOW_INSIDE_NODE = rule(
    "BW204",
    "warning",
    "One node's intra-node all_reduce is slow",
    why="""
All nodes ran the same intra-node all_reduce at the same time; this node reached far less
bus bandwidth than the others. Inside a node that points at its GPUs, NVLink/PCIe
topology, or CPU load rather than the network.
""",
    fix="On the named node check nvidia-smi topo -m, GPU clocks and throttling, and other processes (top, nvidia-smi).",
)

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

BELOW_REFERENCE = rule(
    "BW301",
    "warning",
    "busbw is far below the platform's published reference",
    why="""
ncclDoctor recognised this platform (GPU model and count from NVML, RDMA ports from
sysfs) in its table of published busbw floors (Azure and Google fleet health checks,
each row with its source; `ncclDoctor check` prints the row it used). A node below the
floor is one those operators would drain: a degraded NVLink/NVSwitch, a PCIe link
trained down, a missing GPUDirect RDMA path or a slow NIC. The reference was measured
at a large message size; the check only judges when its sweep reached that size.
""",
    fix="""
Rerun with the reference's size (e.g. `ncclDoctor check -e 16G`) to confirm; then look at
`ncclDoctor env` (NVLink state, PCIe width, IB ports) and the NCCL_* settings in the
report (a forced NCCL_ALGO/NCCL_PROTO or NCCL_P2P_DISABLE=1 costs bandwidth). Compare with
nccl-tests on the same node. `--expected-below PCT` sets how far below counts (default 90,
nccl-tests' NCCL_TESTS_MIN_BW margin).
""",
)
