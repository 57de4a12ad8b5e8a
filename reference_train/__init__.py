"""The reference DDP MNIST trainer (filled by the reference-trainer issue).

It will hold: a ConvNet with BatchNorm (SyncBatchNorm on GPU), an IDX reader for real
MNIST files (raw or .gz, torchvision layout), a deterministic synthetic MNIST-format
dataset written to disk when no data is given (never a download), DistributedSampler
with set_epoch, optional AMP, distributed evaluation and a rank-0 checkpoint, and a
per-sample cost knob so loader-bound and compute-bound regimes can both be shown.
Run as ``torchrun --nproc-per-node 2 -m reference_train``.
"""
