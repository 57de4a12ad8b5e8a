"""Code that runs under torchrun, one process per rank.

``probes.worker`` is the entry point (``python -m torch.distributed.run ... -m
probes.worker --config FILE``); ``probes.control`` talks to the supervising CLI's
control store; ``probes.collectives`` has one module per collective, each with the same
small interface as nccl-tests' files (bytes moved, bus-bandwidth factor, run, check).
"""
