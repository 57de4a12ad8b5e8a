"""Readers for what the field's tools already write: pure parsers, text in, plain data out.

=================  ===========================================  =========================
format             produced by                                  module
=================  ===========================================  =========================
``nccl-tests``     ``all_reduce_perf`` & co. stdout             ``nccl_tests.parse_text``
``nccl-tests-json`` ``all_reduce_perf -J FILE`` (>= v2.18.5)     ``nccl_tests.parse_json``
``ras``            ``ncclras`` (NCCL >= 2.24 text report)       ``ras.parse_text``
``ras-json``       ``ncclras -f json`` (NCCL >= 2.29)           ``ras.parse_json``
``dcgm``           ``dcgmi diag -r N -j``                       ``dcgm.parse_json``
=================  ===========================================  =========================

``sniff(head, path)`` names the format from a file's first bytes (None: not one of them).
Formats and field names were read from the producers' sources (cited in each module);
the fixtures in ``tests/fixtures/field/`` follow them.
"""

from __future__ import annotations

import json
import re
from typing import Any

SNIFF_BYTES = 8192


def sniff(head: bytes, path: str = "") -> str | None:
    text = head.decode("utf-8", "replace")
    if text.lstrip().startswith("{"):
        if '"DCGM Diagnostic"' in text or '"DCGM GPU Diagnostic"' in text:
            return "dcgm"
        if '"communicators"' in text and ('"nccl_version"' in text or '"missing_ranks' in text):
            return "ras-json"
        if (
            '"minimum_bytes"' in text
            or ('"results"' in text and '"bus_bw"' in text)
            or '"average_bus_bandwidth"' in text
        ):
            return "nccl-tests-json"
        return None
    if re.search(r"nThread \d+ nGpus \d+ minBytes", text) or "Collective test starting:" in text \
            or "# nccl-tests version" in text:
        return "nccl-tests"
    from ncclDoctor.fieldformats.nccl_tests import COLUMNS, headless

    if COLUMNS.search(text) or headless(text):  # a pasted excerpt that starts at the column header or the rows
        return "nccl-tests"
    if "Job summary\n===========" in text or ("\nErrors\n======" in text and "NCCL version" in text):
        return "ras"
    return None


def parse(fmt: str, data: bytes) -> dict[str, Any]:
    """The parsed document for a sniffed format; ValueError says what is wrong with it."""
    from ncclDoctor.fieldformats import dcgm, nccl_tests, ras

    text = data.decode("utf-8", "replace")
    if fmt == "nccl-tests":
        return nccl_tests.parse_text(text)
    if fmt == "ras":
        return ras.parse_text(text)
    try:
        obj = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{fmt}: not valid JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{fmt}: expected a JSON object")
    return {"nccl-tests-json": nccl_tests.parse_json, "ras-json": ras.parse_json, "dcgm": dcgm.parse_json}[fmt](obj)
