"""Tiny jobs that benchmarks/gpu_verify.py runs (each prints one JSON line on stdout)."""
