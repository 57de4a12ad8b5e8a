"""Rules for CI gates: a busbw floor (``--min-busbw``) and a saved baseline (``--baseline``).

Codes are in the BW family from 101 up so that they never collide with the bandwidth
analysis rules (BW001...), which are numbered from 1.
"""

from __future__ import annotations

from ncclDoctor.rules.codes.bw import BASELINE_MISMATCH, BELOW_MIN_BUSBW, NO_BUSBW, REGRESSION


