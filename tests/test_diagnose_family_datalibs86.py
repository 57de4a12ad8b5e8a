"""Data and training libraries' own failures that round 86 showed read wrong or with a fix that missed the remedy
(rules AN (1), AN (2), AT (1), W, BF (3), U (2), U (3), AC (1), BG (1), BG (4), BJ (2), T).

- A CUDA library's own status for a GPU allocation it could not get (nvJPEG's NVJPEG_STATUS_ALLOCATOR_FAILURE from
  DALI's mixed ImageDecoder while the loader fetches outputs; cuBLAS / cuDNN / cuSOLVER / cuSPARSE's
  *_STATUS_ALLOC_FAILED, cuFFT's CUFFT_ALLOC_FAILED) is a runtime error naming a failed allocation: gpu_oom by rule
  AN (2), no rank where nothing ties it to one (rules U (3), AC (1)); for nvJPEG the fix names each rank's pipeline on
  its own GPU (device_id=local_rank) and the decoder's memory settings (round 86's dali-2866). nvJPEG's other
  statuses (a bad JPEG, an execution failure) are not read as memory.
- A library's own check refusing a value of its settings that another instance already holds and asking for another
  ("ValueError: Reused local directory: [...] vs [...]. Provide a different one.", mosaicml-streaming's
  get_shm_prefix) is rule W's check on a setting the job is built with: config, culprits [] (rules BF (3), U (2));
  the fix names a different value of that setting per job and stale shared memory (round 86's streaming-306). A
  "duplicate" that asks for nothing different keeps its old reading.
- A rank's own IndexError at the end of a traceback through HF datasets' data-file resolution (load_dataset ->
  as_streaming_dataset -> the webdataset builder's _split_generators, tar_paths[0] of an empty list) stays rules
  BG (4) / BJ (2)'s unknown with that rank; the fix now names the data_files / glob resolving on each node (rule T's
  multi-node words; round 86's datasets-8201). An IndexError in the script's own code gets none of those words.
- A library's CUDA check failing with "CUDA: initialization error" (dmlc's CUDA_CALL in decord's NVDEC stream, its
  CHECK condition "e == cudaSuccess || e == cudaErrorCudartUnloading" naming no error) is cuda_error, culprits [] (rules
  AT (1), BG (1), BJ (2)), read by its text, not by the enum its condition compares with; the fix names CUDA in forked
  DataLoader workers (spawn, num_workers=0, CPU decoding; round 86's decord-327). Another CUDA failure of such a
  check keeps the library fix without those words.
- A FileNotFoundError of Megatron's dataset index maps in the index cache ('..._doc_idx.npy' under index-cache), the
  error of one node of a pdsh multi-node run: unknown, no rank named (rules AN (1), BG (4), AC (1), AI (2)); the fix
  names the index cache on a shared filesystem or built per node with a barrier (round 86's megatron-deepspeed-356).
  A missing checkpoint file gets none of those words.
- A rank's own AttributeError on a library class's object ("'Accelerator' object has no attribute 'get'") whose
  traceback runs through an installed package's frames (site-packages/unsloth/: its patched training step), another
  rank's traceback cut before its text: rule AN (1), BG (4) / BJ (2)'s unknown with that rank; the fix names that
  package's remedy -- upgrade it, matching versions (round 86's oevortex-unsloth-12). A 'NoneType' attribute error
  gets no package words.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text
from tests.conftest import diagnose_verdict as _verdict

_DALI = "/usr/local/lib/python3.8/dist-packages/nvidia/dali/"


def _dali(status: str) -> str:
    return ("    for i, data in enumerate(train_loader):\n"
            f'  File "{_DALI}plugin/pytorch.py", line 181, in __next__\n    outputs = self._get_outputs()\n'
            f'  File "{_DALI}pipeline.py", line 682, in share_outputs\n    return self._pipe.ShareOutputs()\n'
            "RuntimeError: Critical error in pipeline:\nError when executing Mixed operator ImageDecoder encountered:\n"
            "Error in thread 0: [/opt/dali/dali/operators/decoder/nvjpeg/nvjpeg_decoder_decoupled_api.h:824] "
            f'NVJPEG error "5" : {status}\n')


def test_nvjpeg_allocator_failure_is_a_gpu_oom_of_no_named_rank(tmp_path):
    d = diagnose_text(tmp_path, _dali("NVJPEG_STATUS_ALLOCATOR_FAILURE"))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("gpu_oom", set()), v
    for word in ("device_id=local_rank for every DALI pipeline", "device_memory_padding", "decode on the CPU"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_cublas_alloc_failed_is_a_gpu_oom_without_the_decoder_words(tmp_path):
    v = _verdict(tmp_path, "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n")
    assert v["cause"] == "gpu_oom", v
    assert "DALI" not in v["fix"] and "free GPU memory" in v["fix"], v


def test_another_nvjpeg_status_is_no_oom(tmp_path):
    v = _verdict(tmp_path, _dali("NVJPEG_STATUS_BAD_JPEG"))
    assert v["cause"] != "gpu_oom", v
    assert "device_id=local_rank" not in v["fix"], v


_SHM = "/opt/conda/lib/python3.10/site-packages/streaming/base/shared.py"


def test_a_library_refusing_a_reused_local_directory_is_config(tmp_path):
    d = diagnose_text(tmp_path, (
        "Traceback (most recent call last):\n  File \"train.py\", line 313, in main\n"
        "    train_loader = build_dataloader(cfg.train_loader, tokenizer)\n"
        f'  File "{_SHM}", line 340, in get_shm_prefix\n'
        "    raise ValueError(f'Reused local directory: {sorted(my_locals_set)} vs ' +\n"
        "ValueError: Reused local directory: ['/data/c4/train'] vs ['/data/c4/train']. Provide a different one.\n"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"], accused(d)) == ("config", [], set()), v
    for word in ("a different local directory", "clean_stale_shared_memory", "/dev/shm"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_a_duplicate_that_asks_for_nothing_different_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 9, in main\n"
                 "    build(cfg)\nValueError: Duplicate key: 'lr' appears twice in the config\n")
    assert v["cause"] != "config" or "Give this job a different" not in v["fix"], v


_DS = "/opt/conda/lib/python3.10/site-packages/datasets/"


def _ds_tb(rank: int, last: str) -> str:
    p = f"[rank{rank}]: "
    return (f"{p}Traceback (most recent call last):\n{p}  File \"train.py\", line 40, in <module>\n"
            f"{p}    ds = load_dataset('webdataset', data_files=files, streaming=True)\n"
            f"{p}  File \"{_DS}load.py\", line 1705, in load_dataset\n"
            f"{p}    return builder_instance.as_streaming_dataset(split=split)\n"
            f"{p}  File \"{_DS}builder.py\", line 1110, in as_streaming_dataset\n"
            f"{p}    splits_generators = {{sg.name: sg for sg in self._split_generators(dl_manager)}}\n" + last)


def test_an_indexerror_in_datasets_split_generators_names_the_data_files(tmp_path):
    p = "[rank9]: "
    d = diagnose_text(tmp_path, _ds_tb(9, (
        f"{p}  File \"{_DS}packaged_modules/webdataset/webdataset.py\", line 79, in _split_generators\n"
        f"{p}    pipeline = self._get_pipeline_from_tar(tar_paths[0], tar_iterators[0])\n"
        f"{p}IndexError: list index out of range\n")))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("unknown", {9}), v
    for word in ("data_files", "check the tar paths (glob) resolve on each node", "shared filesystem"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_an_indexerror_in_the_scripts_own_code_gets_no_data_files_words(tmp_path):
    p = "[rank9]: "
    d = diagnose_text(tmp_path, (f"{p}Traceback (most recent call last):\n"
                                 f"{p}  File \"train.py\", line 40, in <module>\n{p}    main()\n"
                                 f"{p}  File \"train.py\", line 31, in main\n{p}    first = batches[0]\n"
                                 f"{p}IndexError: list index out of range\n"))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("unknown", {9}), v
    assert "data_files" not in v["fix"], v


_DECORD = "/usr/lib/python3.9/site-packages/decord/"


def _decord(said: str) -> str:
    return ('File "/work/video/dataset.py", line 924, in __getitem__\n'
            "vr = decord.VideoReader(path, width=self.width, height=self.height, ctx=self.ctx)\n"
            f'File "{_DECORD}video_reader.py", line 54, in __init__\n'
            f'File "{_DECORD}_ffi/base.py", line 78, in check_call raise DECORDError(err_str) '
            "decord._ffi.base.DECORDError: [12:18:41] /src/decord/src/video/nvcodec/cuda_stream.cc:20: Check failed: "
            f"e == cudaSuccess || e == cudaErrorCudartUnloading CUDA: {said}\n")


def test_a_library_cuda_check_failing_with_initialization_error_names_forked_workers(tmp_path):
    d = diagnose_text(tmp_path, _decord("initialization error at line: 20 in file: cuda_stream.cc"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"], accused(d)) == ("cuda_error", [], set()), v
    assert "initialization error" in v["summary"] and "cudart unloading" not in v["summary"].lower(), v
    for word in ("CUDA cannot be initialized in a forked DataLoader worker", "num_workers=0 for GPU decoding",
                 "multiprocessing_context='spawn'", "decord.cpu(0)"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_another_cuda_failure_of_such_a_check_keeps_the_library_fix(tmp_path):
    v = _verdict(tmp_path, _decord("an illegal memory access was encountered"))
    assert v["cause"] == "cuda_error", v
    assert "forked DataLoader worker" not in v["fix"], v


def test_a_missing_megatron_index_map_on_one_node_names_the_index_cache(tmp_path):
    d = diagnose_text(tmp_path, (
        "c000001: FileNotFoundError: [Errno 2] No such file or directory: "
        "'/data/index-cache/43d5bc1477867ae12d66da383c2b664b_doc_idx.npy'\n"
        "c000002:   File \"/work/Megatron-DeepSpeed/megatron/data/gpt_dataset.py\", line 148, in build_dataset\n"
        "c000002:     dataset = GPTDataset(name, data_prefix, documents, indexed_dataset,\n"))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("unknown", set()), v
    for word in ("filesystem shared by every node", "per-node cache directory", "check the .npy index files exist"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_a_missing_checkpoint_gets_no_index_cache_words(tmp_path):
    v = _verdict(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/iter_0001000/model.pt'\n")
    assert v["cause"] == "unknown", v
    assert "index cache" not in v["fix"], v


_US = "/home/u/.venv/lib/python3.10/site-packages/unsloth/trainer.py"


def _attr_tb(last: str) -> str:
    p = "[rank0]: "
    return (f"{p}Traceback (most recent call last):\n{p}  File \"/home/u/train.py\", line 125, in <module>\n"
            f"{p}    trainer_stats = trainer.train()\n{p}  File \"{_US}\", line 458, in new_train\n"
            f"{p}    return original_train(self, *args, **kwargs)\n"
            f"{p}  File \"{_US}\", line 468, in new_training_step\n"
            f"{p}    for model_ref in [model, getattr(self, 'accelerator', {{}}).get('model', None)]:\n{p}{last}\n"
            "[rank1]: Traceback (most recent call last):\n"
            "[rank1]:   File \"/home/u/train.py\", line 125, in <module>\n"
            "[rank1]:     trainer_stats = trainer.train()\n[rank1]:   File \"/home/u/.venv/li")


def test_an_attributeerror_through_a_librarys_frames_names_that_library(tmp_path):
    d = diagnose_text(tmp_path, _attr_tb("AttributeError: 'Accelerator' object has no attribute 'get'"))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("unknown", {0}), v
    for word in ("upgrade unsloth", "matching unsloth"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_a_nonetype_attributeerror_gets_no_library_words(tmp_path):
    d = diagnose_text(tmp_path, _attr_tb("AttributeError: 'NoneType' object has no attribute 'get'"))
    v = d["verdict"]
    assert (v["cause"], accused(d)) == ("unknown", {0}), v
    assert "upgrade unsloth" not in v["fix"], v
