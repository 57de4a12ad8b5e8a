"""``ncclDoctor sweep-workers``: which DataLoader settings feed the training processes.

    ncclDoctor sweep-workers [--nproc-per-node 2] [--workers 0,1,2,3,4] [--grid] [--max-minutes 5]
    ncclDoctor sweep-workers --loader mypkg.data:make_loader --step-ms 40

Runs the reference DDP trainer (``reference_train``) under torchrun with N ranks once per
configuration of ``num_workers`` x ``pin_memory`` (and ``prefetch_factor`` /
``persistent_workers`` when asked), measures steady-state throughput in several windows
(warm-up excluded; median and spread), and recommends the smallest ``num_workers``
within ``--margin`` of the best, with the reason: loader-bound or compute-bound, and
workers needed ~ worker time per batch / step time (``ncclDoctor.sweep.plan``).

Stages (``run_sweep`` composes them): ``resolve`` options and host facts -> ``measure``
configurations (adaptive or grid) -> ``conclude`` the recommendation, resource checks
and the per-rank analysis of the pick -> the report (same model and exit codes as
``check``; a table and a chart in ``report.md``).

The whole sweep is bounded by ``--max-minutes``: a configuration is not started when
the time left is shorter than the longest run so far, and each run's deadline is the
time left. Ctrl-C stops the running configuration and writes the partial report (130).
"""

from ncclDoctor.sweep.core import SweepOptions, run_sweep

__all__ = ["SweepOptions", "run_sweep"]
