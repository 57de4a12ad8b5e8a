"""Cut tracebacks and lone stacks round 83 showed read as "nothing failed" (rules AB (2), BG (6), BD (2), BM (1), N,
T): each shows a process that raised, or one stack of a live process, and no error text -- unknown, culprits
"unknown", nobody innocent.

- A thread-stack dump a signal handler printed (the dumpstacks recipe, 'File: "x.py", line N, in f' under "###
  ProcessID=N, ThreadID=N ###") is read as py-spy's dump of one process (rule BD (2); allennlp-5088, cut mid-frame).
  A "File:" that is no frame (a loader's 'File: "data.json"') is not read so.
- An IPython 8 traceback whose frame listing elides lines ("(...)    421  ...") and is cut in it (scdiffeq-111, a
  ProcessRaisedException from a notebook) is the cut notebook frame; one that ends in its exception line is not cut.
- srun -l's task label before torchrun's tag ("3: [rank3]:   File ...") no longer hides the frames of a traceback cut
  in them (awsome-distributed-ai-460); the same traceback ending in its exception is no cut.
- A traceback header with only its first frame's line cut inside it ('  File "/usr') is the header alone; spawn's
  teardown of a child beside it ("Terminating process P via signal SIGTERM") puts the failed child's block and the
  destructor warning's note into the fix (skyreels-v1-66). The destructor warnings alone stay exit-time noise (rule N).
- A frame line the paste broke in two ('File "x.py", line' / ' 1861, in backward') in a paste with a blank line after
  every line is joined in the tail, which counts lines of text, not blanks or fences (modded-nanogpt-12). A whole
  double-spaced traceback ending in its exception is no cut.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text
from tests.conftest import diagnose_verdict as _verdict


def _unknown_nobody(tmp_path, text: str) -> dict:
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not accused(d), v
    return v


# --- a thread-stack dump of one live process ------------------------------------------------------------------------
_DUMP = ('######### ProcessID=8262, ThreadID=4617211392 #########\n'
         'File: "<string>", line 1, in <module>\n'
         'File: "/env/lib/python3.8/multiprocessing/spawn.py", line 116, in spawn_main\n'
         '  exitcode = _main(fd, parent_sentinel)\n'
         'File: "/env/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
         '  fn(i, *args)\n'
         'File: "/src/mytool/commands/train.py", line 531, in run\n'
         '  return self.trainer.train()\n'
         'File: "/src/mytool/tra\n')


def test_a_signal_handlers_thread_stack_dump_is_one_live_processs_stack(tmp_path):
    v = _unknown_nobody(tmp_path, _DUMP)
    assert "thread-stack dump" in v["summary"] and "py-spy dump of every rank" in v["fix"], v


def test_a_file_field_that_is_no_frame_is_not_a_dump(tmp_path):
    v = _verdict(tmp_path, 'Loading File: "/data/train.json", line 3, in total\nEpoch 1 done\n')
    assert v["cause"] == "none", v


# --- an IPython 8 frame listing with elided lines, cut --------------------------------------------------------------
_IPY = ("W0409 21:38:15.270000 3716 site-packages/torch/multiprocessing/spawn.py:165] Terminating process 51059 via "
        "signal SIGTERM\n"
        "---------------------------------------------------------------------------\n"
        "ProcessRaisedException                    Traceback (most recent call last)\n"
        "Cell In[14], line 1\n"
        "----> 1 model.fit(train_epochs=1500)\n\n"
        "File ~/proj/src/proj/core/_model.py:459, in Model.fit(self, train_epochs, devices, **kwargs)\n"
        "    404 def fit(\n"
        "    405     self,\n"
        "   (...)    421     **kwargs: dict,\n"
        "    422 ) -> None:\n"
        "    4\n")


def test_an_ipython_frame_cut_in_its_elided_listing_is_a_cut_traceback(tmp_path):
    v = _unknown_nobody(tmp_path, _IPY)
    assert "stops inside" in v["summary"] and "ProcessRaisedException" in v["fix"], v


def test_the_same_listing_ending_in_its_exception_is_no_cut(tmp_path):
    v = _verdict(tmp_path, _IPY.replace("    4\n", "--> 423     raise ValueError('bad epochs')\n\n"
                                        "ValueError: bad epochs\n"))
    assert "stops inside" not in v["summary"], v


# --- srun's task label before torchrun's rank tag ---------------------------------------------------------------------
_SRUN = ('3: [rank3]: Traceback (most recent call last):\n'
         '3: [rank3]:   File "/fsx/fsdp/train.py", line 115, in train\n'
         '3: [rank3]:     val_loss, val_ppl = eval_model(\n'
         '3: [rank3]:                         ^^^^^^^^^^^\n'
         '3: [rank3]:   File "/fsx/fsdp/train.py", line 54, in eval_model\n'
         '3: [rank3]:     for batch_idx, input_data in enumerate(dataloader):\n'
         '3: [rank3]:                                  ^^^^^^^^^^^^^^^^^^^^^\n'
         '3: [rank3]:   File "/fsx/env/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 439, i\n')


def test_a_traceback_cut_under_srun_labels_is_read_past_them(tmp_path):
    v = _unknown_nobody(tmp_path, _SRUN)
    assert "stops inside rank 3's traceback" in v["summary"], v


def test_the_same_traceback_ending_in_its_exception_is_no_cut(tmp_path):
    v = _verdict(tmp_path, _SRUN.replace(", line 439, i\n", ", line 439, in __iter__\n"
                                         "3: [rank3]:     return self._get_iterator()\n"
                                         "3: [rank3]: ZeroDivisionError: division by zero\n"))
    assert "stops inside" not in v["summary"], v


# --- a header and its first frame's line cut, beside spawn's teardown -------------------------------------------------
_PG = ("[rank{r}]:[W222 16:41:39.676888813 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been "
       "destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call "
       "destroy_process_group to ensure that any pending NCCL operations have finished in this process. (function "
       "operator())\n")
_THREAD = ("W0222 16:41:40.805000 886 torch/multiprocessing/spawn.py:160] Terminating process 955 via signal SIGTERM\n"
           "Exception in thread Thread-1 (run_infer):\n"
           "Traceback (most recent call last):\n"
           '  File "/usr\n')


def test_a_header_cut_in_its_first_frame_beside_spawns_teardown_is_a_failure(tmp_path):
    v = _unknown_nobody(tmp_path, _PG.format(r=0) + _PG.format(r=1) + _THREAD)
    assert "ProcessRaisedException / ProcessExitedException" in v["fix"], v
    assert "destroy_process_group" in v["fix"], v


def test_the_destructor_warnings_alone_stay_exit_noise(tmp_path):
    v = _verdict(tmp_path, _PG.format(r=0) + _PG.format(r=1))
    assert v["cause"] == "none", v


# --- a double-spaced paste whose last frame line was wrapped ---------------------------------------------------------
_SPACED = ("[rank0]: Traceback (most recent call last):\n\n"
           '[rank0]:   File "/home/u/nanogpt/train_gpt2.py", line 502, in <module>\n\n'
           "[rank0]:     loss.backward()\n\n"
           "[rank0]:     ^^^^^^^^^^^^^^^\n\n"
           '[rank0]:   File "/home/u/py/lib/python3.12/site-packages/torch/autograd/function.py", line 306, '
           "in apply\n\n"
           "[rank0]:     return user_fn(self, *args)\n\n"
           "[rank0]:            ^^^^^^^^^^^^^^^^^^^^\n\n"
           '[rank0]:   File "/home/u/py/lib/python3.12/site-packages/torch/_functorch/_aot_autograd/'
           'runtime_wrappers.py", line\n\n'
           " 1861, in backward\n\n"
           "[rank0]:     out = call_compiled_backward()\n\n"
           "[rank0]:           ^^^^^^^^^^^^^^^^^^^^^\n")


def test_a_double_spaced_traceback_cut_after_a_wrapped_frame_is_a_cut(tmp_path):
    for text in (_SPACED, "```\n" + _SPACED + "\n```\n"):
        v = _unknown_nobody(tmp_path, text)
        assert "stops inside rank 0's traceback" in v["summary"] and "line 1861, in backward" in v["summary"], v


def test_the_double_spaced_traceback_ending_in_its_exception_is_no_cut(tmp_path):
    v = _verdict(tmp_path, _SPACED + "\n[rank0]: ZeroDivisionError: division by zero\n")
    assert "stops inside" not in v["summary"], v
