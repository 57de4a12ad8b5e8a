"""The shared install failing at start-up, shapes round 89 showed read by their shape (rules AF (2) with its round-41
sentence, Q's last sentence, AU (2), BQ (3), BT (2)): each is one installed piece of the job rejecting another -- or
the build of one failing -- before any communicator exists, the same on every process: config, culprits [], nobody
innocent, and the fix names the remedy an expert gives for that shape.

- Python's bare signature TypeError "__init__() got an unexpected keyword argument 'find_unused_parameters'" raised at
  the job's or framework's call building DDP (its code line passes the keyword), no torch frame shown: DDP takes that
  argument from torch 1.1, so the torch installed is older than the code (rule BT (2); centerpoint-59). The fix says
  upgrade torch to >= 1.1 and, as a workaround, drop the argument. A keyword no torch release takes ('sdevice_ids')
  keeps its invalid_usage reading (rules BK (1), BR (1): torch refusing the caller's wrong argument).
- "ImportError: cannot import name 'all_reduce'" (an older Python's message, no module named) raised by the line
  "from torch.distributed import all_reduce, reduce_op": torch.distributed lacking its own core API is a build without
  distributed support (Windows torch before 1.7; rules Q, AF (2); dialogue-generation-9). The same message from
  another module's import is not read so.
- "RuntimeError: ProcessGroupNCCL is" cut where the paste stops, raised by torch's "pg = ProcessGroupNCCL(...)" line:
  read by the raising frame (rule BQ (3)) as that constructor's check "ProcessGroupNCCL is only supported with GPUs,
  no GPUs found!" -- the process sees no GPU (rules Q, AU (2); ofa-304). The same cut words raised by another line stay
  unread.
- The dynamic linker's "prog: symbol lookup error: prog: undefined symbol: ncclCommRegister" from every process: the
  program (nccl-tests) was built against another NCCL than the libnccl.so it loads (rule AF (2); npkit-38); the fix
  names NCCL_HOME and LD_LIBRARY_PATH. Python's ImportError of an extension's undefined symbol keeps its own reading,
  whose fix now says reinstall the package against the installed torch (horovod-1662), and torch's libtorch_cuda.so
  lacking an NCCL symbol says ldd libtorch_cuda.so | grep nccl (returnn-1802).
- nvcc's "1 error detected in the compilation of ..." after "src/core.cu(717): error: ..." with no run and no JIT
  build record: a source build (a framework's bundled third_party/nccl) failed before anything ran (rule AF (2);
  caffe2-406); the fix names the compiler / CUDA toolkit versions, the submodule checkout and a clean build directory.
  A JIT build's own record (ninja's CalledProcessError, "Error building extension 'X'") keeps its extension reading.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


def _config(v: dict, acc: set[int]) -> None:
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


# --- a torch API's keyword from a later release -----------------------------------------------------------------------
def test_ddp_keyword_of_a_newer_torch_is_the_install_older_than_the_code(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "./tools/train.py", line 133, in <module>\n'
                                "    main()\n"
                                '  File "./tools/train.py", line 128, in main\n'
                                "    logger=logger,\n"
                                '  File "/src/det3d/apis/train.py", line 344, in train_detector\n'
                                "    find_unused_parameters=True,\n"
                                "TypeError: __init__() got an unexpected keyword argument 'find_unused_parameters'\n")
    _config(v, acc)
    assert "upgrade torch to >= 1.1" in v["fix"].lower() and "drop find_unused_parameters" in v["fix"], v


def test_a_misspelt_ddp_keyword_stays_the_callers_usage(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "train.py", line 60, in <module>\n'
                              "    main()\n"
                              '  File "train.py", line 40, in main\n'
                              "    model = DistributedDataParallel(model, sdevice_ids=[0])\n"
                              "TypeError: __init__() got an unexpected keyword argument 'sdevice_ids'\n")
    assert v["cause"] == "invalid_usage", v


# --- torch.distributed's core API not importable ----------------------------------------------------------------------
def test_cannot_import_all_reduce_from_torch_distributed_is_a_build_without_it(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "run.py", line 16, in <module>\n'
                                "    from src.train import (\n"
                                '  File "C:\\proj\\src\\train.py", line 50, in <module>\n'
                                "    from torch.distributed import all_reduce, reduce_op\n"
                                "ImportError: cannot import name 'all_reduce'\n")
    _config(v, acc)
    assert "torch.distributed.is_available()" in v["fix"], v


def test_cannot_import_all_reduce_from_another_module_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "run.py", line 3, in <module>\n'
                              "    from mylib.comm import all_reduce\n"
                              "ImportError: cannot import name 'all_reduce'\n")
    assert "is_available" not in v["fix"], v


# --- ProcessGroupNCCL's no-GPU check, its message cut -----------------------------------------------------------------
_PG_FRAMES = ('  File "/usr/lib/python3.7/dist-packages/torch/distributed/distributed_c10d.py", line 738, in '
              "_new_process_group_helper\n"
              "    pg = ProcessGroupNCCL(prefix_store, rank, world_size, pg_options)\n")


def test_cut_processgroupnccl_refusal_is_read_by_its_raising_line_as_no_gpu(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n" + _PG_FRAMES
                      + "RuntimeError: ProcessGroupNCCL is\n")
    _config(v, acc)
    assert "torch.cuda.is_available()" in v["fix"] and "gloo" in v["fix"], v


def test_the_same_cut_words_raised_by_another_line_stay_unread(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "/w/launch.py", line 20, in setup\n'
                              "    raise RuntimeError(msg)\n"
                              "RuntimeError: ProcessGroupNCCL is\n")
    assert v["cause"] != "config", v


# --- the dynamic linker's symbol lookup error -------------------------------------------------------------------------
def test_symbol_lookup_error_of_every_process_is_a_build_against_another_nccl(tmp_path):
    line = ("/opt/nccl-tests/build/all_reduce_perf: symbol lookup error: /opt/nccl-tests/build/all_reduce_perf: "
            "undefined symbol: ncclCommRegister\n")
    v, acc = _verdict(tmp_path, line * 4)
    _config(v, acc)
    assert "NCCL_HOME" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v


def test_an_extensions_undefined_symbol_keeps_its_reading_with_the_reinstall_fix(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/env/lib/python3.7/site-packages/horovod/torch/mpi_ops.py", line 31, in '
                                "<module>\n"
                                "    from horovod.torch import mpi_lib_v2 as mpi_lib\n"
                                "ImportError: /env/lib/python3.7/site-packages/horovod/torch/mpi_lib_v2.cpython-37m-"
                                "x86_64-linux-gnu.so: undefined symbol: _ZN6caffe26detail37_typeMetaDataInstance_"
                                "preallocated_32E\n")
    _config(v, acc)
    assert "reinstall horovod against the installed torch" in v["fix"], v


def test_libtorch_cuda_lacking_an_nccl_symbol_names_ldd_grep_nccl(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/env/lib/python3.10/site-packages/torch/__init__.py", line 416, in <module>\n'
                                "    from torch._C import *  # noqa: F403\n"
                                "ImportError: /env/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined "
                                "symbol: ncclMemFree\n")
    _config(v, acc)
    assert "ldd libtorch_cuda.so | grep nccl" in v["fix"], v


# --- a source build failing in its compiler ---------------------------------------------------------------------------
def test_nvcc_errors_of_a_source_build_are_the_install(tmp_path):
    v, acc = _verdict(tmp_path, "Compiling src/core.cu                > /src/third_party/nccl/build/obj/core.o\n"
                                'src/core.cu(717): error: identifier "so" is undefined\n\n'
                                '1 error detected in the compilation of "/tmp/tmpxft_00001ee3-11_core.cpp1.ii".\n'
                                "make[4]: *** [/src/third_party/nccl/build/obj/core.o] Error 2\n")
    _config(v, acc)
    assert "compiler" in v["fix"] and "git submodule update --init" in v["fix"], v
    assert "core.cu(717)" in v["summary"], v


def test_a_jit_builds_own_record_keeps_its_extension_reading(tmp_path):
    v, _ = _verdict(tmp_path, "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n"
                              '/w/csrc/adam.cu(12): error: identifier "foo" is undefined\n'
                              '1 error detected in the compilation of "/w/csrc/adam.cu".\n'
                              "ninja: build stopped: subcommand failed.\n"
                              "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit "
                              "status 1.\n"
                              "RuntimeError: Error building extension 'fused_adam'\n")
    assert v["cause"] == "config" and "extension 'fused_adam'" in v["summary"], v
