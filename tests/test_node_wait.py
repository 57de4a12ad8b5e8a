"""``NCCLDOCTOR_NODE_WAIT_S``: the testing aid that caps the reporting node's waits for other
nodes after its torchrun has exited (``check.coordinate.node_wait``, docs/multinode.md). Quick
tier, pure; the real run that sets it is
tests/test_run_rules.py::test_run102_a_node_that_never_started_is_named."""

from __future__ import annotations

import pytest

from ncclDoctor.check import coordinate


def test_unset_keeps_every_default(monkeypatch):
    monkeypatch.delenv("NCCLDOCTOR_NODE_WAIT_S", raising=False)
    assert coordinate.node_wait(coordinate.NODE_RECORDS_S) == 10.0
    assert coordinate.node_wait(coordinate.SETTLE_S) == 15.0
    assert coordinate.node_wait(3.0) == 3.0


def test_a_positive_number_caps_each_wait_and_never_lengthens_one(monkeypatch):
    monkeypatch.setenv("NCCLDOCTOR_NODE_WAIT_S", "1")
    assert [coordinate.node_wait(s) for s in (coordinate.NODE_RECORDS_S, coordinate.SETTLE_S, 3.0)] == [1.0] * 3
    monkeypatch.setenv("NCCLDOCTOR_NODE_WAIT_S", "60")
    assert coordinate.node_wait(coordinate.NODE_RECORDS_S) == 10.0


@pytest.mark.parametrize("value", ["", "soon", "0", "-1", "nan", "inf"])
def test_anything_else_is_ignored(monkeypatch, value):
    monkeypatch.setenv("NCCLDOCTOR_NODE_WAIT_S", value)
    assert coordinate.node_wait(coordinate.SETTLE_S) == 15.0
