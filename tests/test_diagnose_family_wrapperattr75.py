"""How diagnose reads an AttributeError of a private name raised under the __getattr__ of torch's own module wrapper,
as round 75's audiocraft-358 showed it: a library reads FSDP's internal ('_handles') off the wrapper, the installed
torch's FSDP has none, and its __getattr__ falls through to the wrapped model ("'LMModel' object has no attribute
'_handles'"). Code written for another torch's internals is a version mismatch of the shared install (lead rules AF
(2), AX (2)): config, nobody named. Near shapes -- a public name falling through to the model, a private name of
the code's own class with no wrapper frame -- are the code's own. Paths, names and ranks are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_SITE = "/opt/env/lib/python3.10/site-packages/torch"


def _tb(attr: str, cls: str = "SeqModel", wrapper: bool = True, prefix: str = "") -> str:
    lines = ["Traceback (most recent call last):",
             '  File "/home/u/proj/trainer/checkpoint.py", line 77, in load_state_dict',
             "    drop_flat_params(self.model)",
             '  File "/home/u/proj/trainer/checkpoint.py", line 40, in drop_flat_params',
             f"    handles = module.{attr}"]
    if wrapper:
        lines += [f'  File "{_SITE}/distributed/fsdp/fully_sharded_data_parallel.py", line 529, in __getattr__',
                  "    return getattr(self._fsdp_wrapped_module, name)"]
    lines += [f'  File "{_SITE}/nn/modules/module.py", line 1695, in __getattr__',
              "    raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\")",
              f"AttributeError: '{cls}' object has no attribute '{attr}'"]
    return "".join(f"{prefix}{x}\n" for x in lines)


def test_a_private_name_asked_of_fsdp_falling_through_is_the_torch_version(tmp_path):
    """Untagged or under a rank's tag: torch's internals read as another torch had them -- config, nobody accused, the
    fix about the torch version the library needs."""
    for text in (_tb("_handles"), _tb("_flat_param_handles", prefix="[rank1]: ")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "torch version" in v["fix"] and "version mismatch" in v["fix"], v


def test_a_public_name_or_no_wrapper_frame_is_not_the_torch_version(tmp_path):
    """Near shapes: a public name falling through FSDP to the model (the model lacks its own field), or a private name
    raised by nn.Module's lookup with no wrapper's __getattr__ above it (the code's own class), are not read so."""
    for text in (_tb("handles"), _tb("_handles", wrapper=False)):
        v = _verdict(tmp_path, text)
        assert "private attribute" not in v["summary"], v
