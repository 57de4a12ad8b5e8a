"""Rules: pure functions from host facts to findings (env lint, GPUs, RDMA ports, /dev/shm, host limits).

Rule *texts* (code, severity, title, why, fix) are in ``rules/codes/<family>.py``; the
functions here and the analyses elsewhere (``analysis``, ``diagnose``, ``sweep.checks``)
import them from there and never from each other.
"""
