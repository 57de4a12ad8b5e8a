"""Review 96's findings 5, 6 and 11 (session 38, x3): readings of rounds 96-97's fixes narrowed where an ordinary
input met them. An HSA_OVERRIDE_GFX_VERSION written as a shell variable is no value the text can call wrong (finding
5); a MASTER_ADDR that is rank 0's own host under an interconnect or service alias is no rank 0 elsewhere (finding 6);
NCCL's message head is found only where a host name starts (finding 11). Each finding has the reviewer's input,
varied, and the shape the original fix was for, still read as it meant. Hosts and numbers are made up."""

from __future__ import annotations

import time

from ncclDoctor.diagnose import ingest
from tests.conftest import verdict_accused

_HIP_NO_DEVICE = ('Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
                  "    torch.cuda.set_device(0)\nRuntimeError: HIP error: no ROCm-capable device is detected\n")


# --- finding 5: HSA_OVERRIDE_GFX_VERSION given by a variable ----------------------------------------------------------
def test_a_gfx_override_given_by_a_variable_keeps_the_device_error(tmp_path):
    """The reviewer's input and its variants: the override's value is a shell or batch variable or a command
    substitution, which the text cannot read; nothing is shown wrong, so the device error's own reading stays."""
    for val in ("${GFX_VER}", "$GFX_VER", '"${GFX_VER:-10.3.0}"', "`cat /etc/gfx`", "%GFX_VER%", "'$(get_gfx)'"):
        text = (f"export HSA_OVERRIDE_GFX_VERSION={val}\nexport HIP_VISIBLE_DEVICES=0\npython train.py\n"
                + _HIP_NO_DEVICE)
        v, _ = verdict_accused(tmp_path, text)
        assert v["cause"] == "cuda_error", (val, v)
        assert "is not a version" not in v["summary"], (val, v)


def test_a_gfx_override_written_as_a_target_name_is_still_config(tmp_path):
    """The shape the fix was for: a literal target name (gfx906, gx1030, a bare 1030) is not a version: config."""
    for val in ("gfx906", "gx1030", "'gfx1030'", "1030"):
        text = f"export HSA_OVERRIDE_GFX_VERSION={val}\npython train.py\n" + _HIP_NO_DEVICE
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (val, v)
        assert "9.0.6" in v["fix"], (val, v["fix"])


# --- finding 6: MASTER_ADDR as an alias of rank 0's own host ----------------------------------------------------------
_ENV = ("{{'HOSTNAME': '{host}', 'MASTER_ADDR': '{master}', 'MASTER_PORT': '29500', 'RANK': '0', "
        "'WORLD_SIZE': '16'}}\nepoch 0 step 100 loss 2.31\n")


def test_master_addr_as_the_hosts_alias_is_no_rank0_elsewhere(tmp_path):
    """The reviewer's input and its variants: MASTER_ADDR is rank 0's own node under its interconnect name
    (node01-ib, node01_hsn0, node01.ib), or the host is the service name's pod: the same machine, nothing wrong."""
    for host, master in (("node01", "node01-ib"), ("node01", "node01_hsn0"), ("node01", "node01.ib"),
                         ("GPU3B62-ib0", "GPU3B62"), ("myjob-master-0", "myjob-master")):
        v, acc = verdict_accused(tmp_path, _ENV.format(host=host, master=master))
        assert v["cause"] == "none" and not acc, (host, master, v)


def test_rank0_on_another_named_host_is_still_config(tmp_path):
    """The shape the fix was for (pytorch-137402): two names that are no alias of each other (GPU36DC and GPU3B62,
    node01 and node010, node01 and node02-ib): rank 0 is not on the master's host -- config, nobody named."""
    for host, master in (("GPU36DC", "GPU3B62"), ("node010", "node01"), ("node01", "node02-ib")):
        v, acc = verdict_accused(tmp_path, _ENV.format(host=host, master=master))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (host, master, v)
        assert "--rdzv_backend=static" in v["fix"], v["fix"]


# --- finding 11: NCCL's flattened message heads -----------------------------------------------------------------------
def test_the_message_head_starts_only_where_a_host_name_starts():
    """A head's host:pid:tid is matched only from the start of a name: a run of word characters before it is not
    retried from each position (the regex costs a line's length, not 255 times it)."""
    text = "x" * 4000 + " [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC [0] NCCL INFO Channel 00/1 : x"
    heads = list(ingest._NCCL_HEAD.finditer(text))
    assert [h.group(0) for h in heads] == ["[0] NCCL INFO "] * 2
    glued = "ab" * 3000 + "c:1:2 [0] NCCL INFO a [0] NCCL INFO b"
    assert [h.group(0) for h in ingest._NCCL_HEAD.finditer(glued)] == ["[0] NCCL INFO "] * 2
    # CPU time, not wall clock (a loaded machine does not fail it): 0.015 s anchored, 0.6 s or more unanchored
    t0 = time.process_time()
    for _ in range(50):
        list(ingest._NCCL_HEAD.finditer(glued))
    assert time.process_time() - t0 < 0.3


def test_flattened_nccl_lines_are_still_cut_into_their_messages():
    """The shape the split was for: several messages on one line, with and without the host:pid:tid head, each cut
    with the launcher's prefix before it."""
    line = ("[rank3]: gpu-a:77:77 [3] NCCL INFO NCCL_IB_HCA set to mlx5_0 gpu-a:77:77 [3] NCCL INFO NET/IB : No device "
            "found. gpu-a:77:77 [3] NCCL INFO Using network Socket")
    assert ingest.nccl_pieces(line) == [
        "[rank3]: gpu-a:77:77 [3] NCCL INFO NCCL_IB_HCA set to mlx5_0",
        "[rank3]: gpu-a:77:77 [3] NCCL INFO NET/IB : No device found.",
        "[rank3]: gpu-a:77:77 [3] NCCL INFO Using network Socket"]
    assert ingest.nccl_pieces("[0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC [0] NCCL INFO Channel 00/1 : "
                              "0[0] -> 1[1] via P2P/IPC") == ["[0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
                                                              "[0] NCCL INFO Channel 00/1 : 0[0] -> 1[1] via P2P/IPC"]
