"""Round 70's read of FFmpeg's (libav's) own decoder log lines in a training log: "[h264 @ 0x559ba07e2640] mmco:
unref short failure", printed by the video decoder of the data pipeline (DataLoader workers decoding a video dataset)
that conceals the frame and goes on. Its word "failure" announces no failure of the job (lead rules K, N): with
nothing else failing, nothing failed (none), and the fix says the lines are harmless decoder warnings and what to
collect if the run stalls (lead rule T). The near shapes, the same words without libav's "[<context> @ 0x...]"
prefix, stay a failure no family reads. Addresses are made up; the wordings are FFmpeg's."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_BAR = "Train:   0%|          | 0/198 [00:00<?, ?it/s]"
_WARNINGS = ("[h264 @ 0x55e2f48ee700] mmco: unref short failure\n"
             "[h264 @ 0x559bbe772b80] mmco: unref short failure\n"
             "[hevc @ 0x55c3c885eb40] error while decoding MB 12 7, bytestream -5\n")


def test_ffmpeg_decoder_warnings_alone_are_nothing_failed(tmp_path):
    """Only libav's decoder warnings after a progress bar (glued to it or on their own lines): none, nobody named,
    and the fix calls them harmless FFmpeg decoder warnings and names py-spy for a stall."""
    for text in (_BAR + "[h264 @ 0x559ba07e2640] mmco: unref short failure\n" + _WARNINGS, _BAR + "\n" + _WARNINGS):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "none" and not _accused(d), v
        assert "FFmpeg" in v["fix"] and "harmless" in v["fix"] and "py-spy" in v["fix"], v


def test_the_same_words_without_libavs_prefix_stay_a_failure(tmp_path):
    """"mmco: unref short failure" without the "[h264 @ 0x...]" prefix, or a failure line naming an address in
    another shape: no decoder's log line, still a failure no family reads (never none)."""
    for line in ("mmco: unref short failure\n", "decode failure @ 0x559ba07e2640 in worker 3\n",
                 "[worker3 @ step 12] batch failure: corrupt sample\n"):
        v = _verdict(tmp_path, _BAR + "\n" + line)
        assert v["cause"] != "none" and "FFmpeg" not in v["fix"], (line, v)


def test_decoder_warnings_beside_a_real_error_leave_it_read(tmp_path):
    """Decoder warnings before a rank's own exception: the exception decides, the warnings change nothing."""
    v = _verdict(tmp_path, _WARNINGS + "Traceback (most recent call last):\n"
                 '  File "train.py", line 40, in <module>\n    main()\n'
                 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    assert v["cause"] == "gpu_oom", v
