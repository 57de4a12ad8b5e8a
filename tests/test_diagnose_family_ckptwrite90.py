"""Checkpoint files failing to write or read, shapes round 90 showed read by their shape (rules A's table, J, T, AI (2),
AK (2), AL (1) / (2), BG (4) / (6), BJ (2)): torch.save's or torch.load's zip archive, or the process writing it,
failing -- the cause stays unknown (no class covers a full disk, a bad file or a native crash), and the fix names what
an expert checks for that shape: the checkpoint storage, the file, the writer process.

- torch.save's zip writer failing ("PytorchStreamWriter failed writing file data/3: file write failed",
  inline_container.cc) in a traceback no rank tag or launcher record names: the write to the checkpoint directory
  failed on storage every rank shares (rules J, AL (1), BJ (2)): culprits [], and the fix names disk space (df -h),
  the quota and fewer kept checkpoints (chatglm-6b-1166, simplerl-reason-19). A rank-tagged traceback ending so keeps
  its lone-rank reading (that rank named), with the same fix.
- mp.spawn's "Process 0 terminated with the following error" whose child's traceback stops in torch.load's zip reader,
  "PytorchStreamReader failed reading zip archive: failed finding central directory" pasted apart from it: process 0
  stays named (rules AL (2), BM (1)) and the fix names a truncated or corrupted checkpoint file (so-vits-svc-169).
- A traceback cut inside a checkpoint save (torchtitan's checkpoint.py save -> dcp_save): the fix names the DCP save's
  storage and its cross-rank collectives, nobody named (rules BG (6), T; torchforge-568). A cut traceback in a save
  function of a module that is no checkpointing keeps the plain cut-traceback fix.
- A native crash inside torch.save's zip writer (PyTorchStreamWriter::writeRecord -> mz_zip_writer_add_mem_ex_v2):
  the SIGSEGV banner vLLM / SGLang / Megatron print ("!!!!!!! Segfault encountered !!!!!!!", native frames in Python's
  frame format) under srun's "93: " task label, or UCX's "Caught signal 11" with one log line of another writer
  before its backtrace: unknown, nobody named -- srun's task label is no rank (rule AI (2)), a host:pid neither
  (rule AC (1)) -- and the fix names the async save's forked writer (save synchronously, fork -> spawn)
  (megatron-bridge-2355, nemo-speech-14906). The banner under a launcher's rank tag names that rank (rule A); a
  banner whose frames are elsewhere gets no zip-writer fix.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_WRITER_TB = ('  File "/env/lib/python3.9/site-packages/torch/serialization.py", line 441, in save\n'
              "    _save(obj, opened_zipfile, pickle_module, pickle_protocol)\n"
              '  File "/env/lib/python3.9/site-packages/torch/serialization.py", line 668, in _save\n'
              "    zip_file.write_record(name, storage.data_ptr(), num_bytes)\n"
              "RuntimeError: [enforce fail at inline_container.cc:471] . PytorchStreamWriter failed writing file "
              "data/3: file write failed\n")


# --- torch.save's zip writer refusing the write -----------------------------------------------------------------------
def test_untagged_streamwriter_failure_is_the_shared_storage(tmp_path):
    v, acc = _verdict(tmp_path, "[2023-06-02 00:34:14,497] [INFO] [torch_checkpoint_engine.py:21:save] [Torch] Saving "
                                "./output/global_step1428/bf16_zero_pp_rank_0_mp_rank_00_optim_states.pt...\n"
                                "Traceback (most recent call last):\n" + _WRITER_TB)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "df -h" in v["fix"] and "disk space" in v["fix"], v


def test_rank_tagged_streamwriter_failure_keeps_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, "".join(f"[rank3]: {x}\n" for x in
                                        ("Traceback (most recent call last):\n" + _WRITER_TB).splitlines()))
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and acc == {3}, v
    assert "df -h" in v["fix"], v


# --- torch.load's zip reader on a truncated file ----------------------------------------------------------------------
def test_spawn_child_cut_in_torch_load_names_a_truncated_checkpoint(tmp_path):
    v, acc = _verdict(tmp_path, "torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
                                "-- Process 0 terminated with the following error:\n"
                                "Traceback (most recent call last):\n"
                                '  File "/usr/lib/python3.8/dist-packages/torch/multiprocessing/spawn.py", line 69, '
                                "in _wrap\n"
                                "    fn(i, *args)\n"
                                '  File "/usr/lib/python3.8/dist-packages/torch/serialization.py", line 242, in '
                                "__init__\n"
                                "    super(_open_zipfile_reader, self).__init__(torch._C.PyTorchFileReader(name))\n"
                                "_**RuntimeError: PytorchStreamReader failed reading zip archive: failed finding "
                                "central directory**_\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v
    assert "truncated checkpoint" in v["fix"] and "re-download" in v["fix"], v


# --- a traceback cut inside a checkpoint save -------------------------------------------------------------------------
def test_traceback_cut_in_dcp_save_names_the_checkpoint_storage(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/src/forge/actors/trainer/titan.py", line 187, in train_step\n'
                                "    self.engine.checkpointer.save(\n"
                                '  File "/env/site-packages/torchtitan/components/checkpoint.py", line 521, in save\n'
                                "    self.dcp_save(\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "DCP save" in v["fix"] and "disk space" in v["fix"], v


def test_traceback_cut_in_another_save_keeps_the_plain_fix(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "train.py", line 10, in <module>\n'
                              "    main()\n"
                              '  File "/src/utils/logger.py", line 52, in save\n'
                              "    self.writer.flush()\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "DCP save" not in v["fix"] and "checkpoint storage" not in v["fix"], v


# --- a native crash in torch.save's zip writer ------------------------------------------------------------------------
_BANNER = ("!!!!!!! Segfault encountered !!!!!!!",
           '  File "<unknown>", line 0, in crc32_16bytes(void const*, unsigned long, unsigned int)',
           '  File "<unknown>", line 0, in mz_zip_writer_add_mem_ex_v2',
           '  File "<unknown>", line 0, in caffe2::serialize::PyTorchStreamWriter::writeRecord(std::string const&, '
           "void const*, unsigned long, bool)")


def test_segfault_banner_in_the_zip_writer_under_an_srun_label(tmp_path):
    v, acc = _verdict(tmp_path, "".join(f" 93: {x}\n" for x in _BANNER))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "fork -> spawn" in v["fix"] and "async checkpoint save" in v["fix"], v


def test_ucx_segfault_with_a_log_line_before_its_zip_writer_backtrace(tmp_path):
    v, acc = _verdict(tmp_path, "[c608-061:2760180:0:2760180] Caught signal 11 (Segmentation fault: address not "
                                "mapped to object at address 0x400581d86000)\n"
                                "[NeMo I 2025-10-08 23:27:54 nemo_logging:393] Scheduled async checkpoint save for "
                                "/ckpt/step=936-last.ckpt\n"
                                "==== backtrace (tid:2760180) ====\n"
                                " 0  /opt/hpcx/ucx/lib/libucs.so.0(ucs_handle_error+0x2cc) [0x4000f1ce278c]\n"
                                " 1  linux-vdso.so.1(__kernel_rt_sigreturn+0) [0x400038ac07f0]\n"
                                " 2  /usr/lib/torch/lib/libtorch_cpu.so(+0x452b904) [0x40003edab904]\n"
                                " 3  /usr/lib/torch/lib/libtorch_cpu.so(mz_zip_writer_add_mem_ex_v2+0x3c8) "
                                "[0x40003ed9e308]\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "zip writer segfault" in v["fix"], v


def test_segfault_banner_under_a_rank_tag_names_that_rank(tmp_path):
    v, acc = _verdict(tmp_path, "".join(f"[rank3]: {x}\n" for x in _BANNER))
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and acc == {3}, v


def test_segfault_banner_elsewhere_gets_no_zip_writer_fix(tmp_path):
    v, _ = _verdict(tmp_path, " 5: !!!!!!! Segfault encountered !!!!!!!\n"
                              ' 5:   File "<unknown>", line 0, in nvmlSystemGetConfComputeSettings\n'
                              ' 5:   File "<unknown>", line 0, in ffi_call\n')
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "zip writer" not in v["fix"] and "gdb" in v["fix"], v
