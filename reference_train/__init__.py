"""The reference DDP MNIST trainer (see ``reference_train.__main__`` for usage)."""
