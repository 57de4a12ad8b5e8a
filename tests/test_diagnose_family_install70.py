"""How diagnose reads a shared install that fails at import (round 70, session 25): Python's ImportError of a compiled
extension module that the dynamic linker refuses for an undefined symbol (built against another torch), and a
NameError for the name an optional distributed-training package is imported under (its guarded import failed). Both
are lead rule AF (2)'s shared install -- config, no rank -- even beside a launcher's record of one local rank. Each test
reads the shape from lines other than the round's cases (another package, symbol, name, rank), and a near shape that
must NOT be read that way. Hosts and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import nccl_info, watchdog_line

# torchrun's elastic agent logging the first worker exit it noticed (one local rank only)
_AGENT = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: {lr} (pid: 7311) of "
          "binary: /opt/venv/bin/python\n")


def _ext_tb(so: str, sym: str) -> str:
    return ("Traceback (most recent call last):\n  File \"/srv/det/train.py\", line 7, in <module>\n"
            "    from mmcv.ops import nms\n"
            "  File \"/usr/local/lib/python3.11/dist-packages/mmcv/ops/__init__.py\", line 2, in <module>\n"
            "    from .. import _ext\n"
            f"ImportError: {so}: undefined symbol: {sym}\n")


# --- a compiled extension refused for an undefined symbol (lead rule AF (2), round 41's addition) -------------------
def test_an_extension_with_an_undefined_torch_symbol_is_the_shared_install(tmp_path):
    """One traceback ends in ImportError of a package's compiled extension with an undefined C++ symbol of torch's
    c10 / ATen, and the agent's record names local rank 1: the extension was compiled against another torch --
    config, nobody named, and the fix rebuilds that package against the installed torch."""
    so = "/usr/local/lib/python3.11/dist-packages/mmcv/_ext.cpython-311-x86_64-linux-gnu.so"
    for sym in ("_ZN2at4_ops10zeros_like4callERKNS_6TensorE", "_ZNK3c1010TensorImpl4sizeEl"):
        text = "*" * 41 + "\n" + _ext_tb(so, sym) + _AGENT.format(lr=1)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (sym, v)
        assert "Rebuild mmcv against the installed torch" in v["fix"] and "--no-build-isolation" in v["fix"], v
        assert "undefined symbol" in v["summary"] and sym in v["summary"], v


def test_an_extension_missing_a_cuda_library_symbol_names_that_library(tmp_path):
    """The same refusal for a plain C symbol of a CUDA library: config, and the library is named from the symbol."""
    so = "/opt/venv/lib/python3.10/site-packages/fused_ops/kernels.cpython-310-x86_64-linux-gnu.so"
    v = _report(tmp_path, _ext_tb(so, "cublasLtMatmulAlgoGetHeuristic"))["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "cuBLASLt" in v["fix"] and "Rebuild fused_ops" in v["fix"], v


def test_an_undefined_symbol_beside_a_collective_timeout_or_in_ncclinfo_is_not_read_so(tmp_path):
    """The near shapes: the same ImportError beside another rank timing out in a collective (a rank's own run failing:
    not a start-up import alone), and NCCL's own INFO probe of an optional function ("dlvsym failed ...: undefined
    symbol", it goes on) are not read as an extension built against another torch."""
    so = "/usr/local/lib/python3.11/dist-packages/mmcv/_ext.cpython-311-x86_64-linux-gnu.so"
    for text in (_ext_tb(so, "_ZNK3c1010TensorImpl4sizeEl") + watchdog_line(3, 41, "ALLREDUCE", 600012, 600000),
                 nccl_info("gpu-3", 5120, 0, "dlvsym failed on mlx5dv_reg_dmabuf_mr - /lib/x86_64-linux-gnu/"
                           "libmlx5.so.1: undefined symbol: mlx5dv_reg_dmabuf_mr, version MLX5_1.25")
                 + nccl_info("gpu-3", 5120, 0, "Init COMPLETE comm 0x55d1 rank 0 nranks 2 cudaDev 0 busId 1000")):
        v = _report(tmp_path, text)["verdict"]
        assert "against the installed" not in v["fix"], (text, v)


# --- a NameError for an optional package's import name (lead rules AF (2), AW) --------------------------------------
def test_a_name_error_of_an_optional_packages_alias_is_the_shared_install(tmp_path):
    """One rank-tagged traceback ends in NameError for 'hvd' (horovod.torch's import name), and the agent's record
    names local rank 0: the guarded import left it unbound, horovod not installed or not importable -- config,
    nobody named, and the fix installs horovod and checks its import alone."""
    text = ("[rank0]: Traceback (most recent call last):\n[rank0]:   File \"/srv/rl/main.py\", line 88, in <module>\n"
            "[rank0]:     hvd.init()\n[rank0]: NameError: name 'hvd' is not defined\n" + _AGENT.format(lr=0))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "pip install horovod" in v["fix"] and "import horovod.torch as hvd" in v["fix"], v


def test_a_name_error_of_the_scripts_own_name_or_beside_a_timeout_is_not_read_so(tmp_path):
    """The near shapes: a NameError of a name of the script's own (a variable) keeps the launcher record's reading of
    its lone worker, and an optional package's NameError beside a collective timeout (the run got past its start)
    is not read as a missing install."""
    own = "NameError: name 'model_cfg' is not defined\n" + _AGENT.format(lr=0)
    v = _report(tmp_path, own)["verdict"]
    assert v["cause"] != "config" and "pip install" not in v["fix"], v
    late = ("[rank1]: NameError: name 'bmt' is not defined\n"
            + watchdog_line(0, 12, "ALLREDUCE", 1800011, 1800000))
    v = _report(tmp_path, late)["verdict"]
    assert "pip install bmtrain" not in v["fix"], v
