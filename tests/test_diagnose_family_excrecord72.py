"""How diagnose reads a framework's exception record printed as JSON (round 72, session 26): fastNLP's "Exception
info:" block ("exc_type": "RuntimeError", then "exc_value": "<message, newlines escaped>", "exc_global_rank": N) is
the exception its traceback's last line would state, read as that line (fastnlp-458: DDP's unfinished-reduction
error, the traceback after it cut -- unknown, nobody named, rule AW). Each test reads the shape from lines other than
the corpus case's own, and a near shape that must NOT be read that way. Pids are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_MSG = ("Expected to have finished reduction in the prior iteration before starting a new one. This error indicates "
        "that your module has parameters that were not used in producing loss. \\nParameter indices which did not "
        "receive grad for rank 2: 17 18")


def _record(type_key: str = "exc_type", value_key: str = "exc_value") -> str:
    return ("Exception info:\n{\n"
            f'  "{type_key}": "RuntimeError",\n'
            f'  "{value_key}": "{_MSG}",\n'
            '  "exc_time": "2025-01-09-10:11:12",\n  "exc_global_rank": 2,\n  "exc_local_rank": 2\n}\n'
            "Start to stop these pids:[4101, 4102, 4103], please wait several seconds.\n")


def test_a_json_exception_record_is_read_as_its_exception(tmp_path):
    """The record's RuntimeError is DDP's unused-parameter error: unknown, nobody named (rule AW), its fix."""
    d = _report(tmp_path, "epoch 1 step 30\n" + _record())
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "find_unused_parameters=True" in v["fix"] and "RuntimeError: Expected" in v["summary"], v


def test_json_with_other_keys_is_no_exception_record(tmp_path):
    """The near shape: the same JSON under other keys ("type", "value": a config or a metrics dump) is no exception
    record: its class is not read as the exception's (at most the line's words are a failure said)."""
    d = _report(tmp_path, "epoch 1 step 30\n" + _record("type", "value"))
    v = d["verdict"]
    assert "RuntimeError" not in v["summary"], v


def test_a_json_exception_record_whose_class_and_message_hold_no_other_trigger_word_is_still_read(tmp_path):
    """A record of a class named neither ...Error nor ...Exception, its message no failure word: the "exc_type" key
    brings it to the reader (load.TRIGGERS), and it is a failure shown -- not 'nothing failed'."""
    d = _report(tmp_path, 'epoch 1 step 30\nException info:\n{\n  "exc_type": "ShardFault",\n  "exc_value": "shard 3 '
                'holds no entry",\n  "exc_global_rank": 0\n}\n')
    v = d["verdict"]
    assert v["cause"] != "none" and "ShardFault" in v["summary"], v


def test_a_json_exception_record_hard_wrapped_at_80_columns_is_still_read(tmp_path):
    """The same record pasted through an 80-column terminal: the value's pieces are joined (its line keeps the last
    piece's number, farther below "exc_type"), and it is still read as the record's RuntimeError."""
    wrapped = "\n".join(line[k:k + 80] for line in _record().split("\n") for k in range(0, max(len(line), 1), 80))
    d = _report(tmp_path, "epoch 1 step 30\n" + wrapped)
    v = d["verdict"]
    assert v["cause"] == "unknown" and "RuntimeError: Expected" in v["summary"], v
