"""Rules: pure functions from facts to findings. No I/O, no judging elsewhere."""
