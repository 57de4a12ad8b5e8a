"""ncclDoctor: a cluster doctor for PyTorch distributed training.

``ncclDoctor check`` probes collectives under torchrun, ``ncclDoctor diagnose`` explains
a failed run from its logs, ``ncclDoctor sweep-workers`` tunes DataLoader workers.
The library is the product; ``ncclDoctor.cli`` is a thin skin over it.
"""

__version__ = "0.1.0"
