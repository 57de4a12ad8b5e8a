"""torch's DeviceMesh, DTensor and pipelining checks round 105 showed unread (rules BA (3), BB (4), BQ (3), BW (2),
CF (3)): each is the same code, model split or install on every process, so no rank is at fault and nobody is
innocent.

- DeviceMesh slicing by a dimension name the mesh was not built with: _get_slice_mesh_dims' "Invalid mesh_dim_names
  ('dp', 'cp') specified. Valid mesh_dim_names are [...]" (automodel-367) and __getitem__'s "Mesh dimension 'ep' does
  not exist." (torchtitan-1396): invalid_usage, culprits [] (usage._mesh_refused), the fix naming the mesh dims and
  the parallel degrees. A bare KeyError of a name (a dict's lookup) keeps its old reading.
- DTensor's dispatch finding "no DeviceMesh from dtensor args for c10d.broadcast_.default" (pytorch-150401: a
  tensor-parallel model's parameters broadcast by DeepSpeed's wrapper): invalid_usage, culprits []. The same text for
  an aten op is not read so.
- torch.distributed.pipelining's own bare assertion in stage_backward (pytorch-129732), also where a paste flattened
  the "[rank0]: " lines two or more to a line (ingest.unflatten_ranks): config, culprits [] (layer_check,
  rule CF (3)). A bare assertion raised in the job's own code keeps its old reading.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_TP = "/opt/venv/lib/python3.11/site-packages/torch/distributed"


def _none_named(v: dict, acc: set[int], cause: str) -> None:
    assert (v["cause"], v["culprits"]) == (cause, []) and not acc, v


# --- DeviceMesh slicing by a name it does not have ------------------------------------------------------------------
def test_invalid_mesh_dim_names_slice_is_the_callers_usage(tmp_path):
    v, acc = _verdict(tmp_path, '[rank5]:   File "/work/fw/distributed/fsdp2.py", line 211, in setup\n'
                                '[rank5]:     mesh[("dp_shard", "tp")]._flatten(mesh_dim_name="dp_tp")\n'
                                f'[rank5]:   File "{_TP}/device_mesh.py", line 702, in __getitem__\n'
                                "[rank5]:     slice_mesh_dims = _mesh_resources._get_slice_mesh_dims(\n"
                                f'[rank5]:   File "{_TP}/device_mesh.py", line 301, in _get_slice_mesh_dims\n'
                                "[rank5]:     raise KeyError(\n"
                                "[rank5]: KeyError: \"Invalid mesh_dim_names ('dp_shard', 'tp') specified. Valid "
                                "mesh_dim_names are ['dp', 'cp', 'tensor'].\"\n")
    _none_named(v, acc, "invalid_usage")
    assert "mesh_dim_names" in v["fix"] and "_flatten" in v["fix"], v


def test_mesh_dimension_does_not_exist_names_no_rank(tmp_path):
    said = ("KeyError: (\"Mesh dimension 'pp' does not exist.\", \"Available mesh dimensions are: "
            "mesh_dim_names=('dp_shard', 'tp')\")")
    v, acc = _verdict(tmp_path, f"[rank3]: {said}\n\n[parallelism]\npipeline_parallel_degree = 4\n\n[rank3]: {said}\n")
    _none_named(v, acc, "invalid_usage")
    assert "expert_parallel_degree" in v["fix"] and "init_device_mesh with named dims" in v["fix"], v


def test_a_plain_keyerror_of_a_name_is_not_a_mesh_refusal(tmp_path):
    v, _ = _verdict(tmp_path, '[rank2]:   File "/work/fw/train.py", line 88, in build\n'
                              "[rank2]:     sizes = cfg['ep']\n"
                              "[rank2]: KeyError: 'ep'\n")
    assert v["cause"] != "invalid_usage", v


# --- DTensor's dispatch: a c10d collective handed DTensors ----------------------------------------------------------
def test_no_devicemesh_for_a_c10d_collective_is_the_callers_usage(tmp_path):
    v, acc = _verdict(tmp_path, f'[rank2]:   File "{_TP}/tensor/_dispatch.py", line 317, in _try_replicate\n'
                                '[rank2]:     assert mesh is not None, f"found no DeviceMesh from dtensor args for '
                                '{op_call}!"\n'
                                "[rank2]: AssertionError: found no DeviceMesh from dtensor args for "
                                "c10d.allreduce_.default!\n"
                                "Traceback (most recent call last):\n"
                                '  File "/home/u/sft.py", line 40, in <module>\n'
                                "    trainer.train()\n")
    _none_named(v, acc, "invalid_usage")
    assert "tp_plan" in v["fix"] and "full_tensor()" in v["fix"], v


def test_no_devicemesh_for_an_aten_op_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, f'[rank2]:   File "{_TP}/tensor/_dispatch.py", line 317, in _try_replicate\n'
                              '[rank2]:     assert mesh is not None\n'
                              "[rank2]: AssertionError: found no DeviceMesh from dtensor args for aten.mm.default!\n")
    assert v["cause"] != "invalid_usage", v


# --- torch.distributed.pipelining's bare assertion ------------------------------------------------------------------
_PIPE = f"{_TP}/pipelining"


def test_pipelining_bare_assert_flattened_is_config(tmp_path):
    t = "[rank2]: "
    v, acc = _verdict(tmp_path,
                      f"{t}Traceback (most recent call last): {t}File \"{_PIPE}/_backward.py\", line 70, in "
                      f"stage_backward {t}extract_tensors_with_grads(stage_output, output_grads) {t}File "
                      f"\"{_PIPE}/_backward.py\", line 49, in extract_tensors_with_grads {t}assert len(output_val) == "
                      "len(grad_val) \n"
                      f"{t}AssertionError {t}The above exception was the direct cause of the following exception: \n"
                      f"{t}Traceback (most recent call last): {t}File \"/srv/job/pipe_train.py\", line 90, in "
                      "<module> \n"
                      f"{t}main() {t}File \"/srv/job/pipe_train.py\", line 71, in main {t}schedule.step(x, "
                      "target=y) \n"
                      f"{t}File \"{_PIPE}/schedules.py\", line 350, in step \n")
    _none_named(v, acc, "config")
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"] and "stage_backward" in v["fix"], v


def test_pipelining_bare_assert_on_its_own_lines_is_config(tmp_path):
    v, acc = _verdict(tmp_path, "[rank1]: Traceback (most recent call last):\n"
                                f'[rank1]:   File "{_PIPE}/_backward.py", line 66, in stage_backward\n'
                                "[rank1]:     extract_tensors_with_grads(stage_output, output_grads)\n"
                                f'[rank1]:   File "{_PIPE}/_backward.py", line 52, in extract_tensors_with_grads\n'
                                "[rank1]:     assert len(output_val) == len(grad_val)\n"
                                "[rank1]: AssertionError\n")
    _none_named(v, acc, "config")


def test_a_bare_assert_in_the_jobs_own_code_keeps_its_reading(tmp_path):
    v, _ = _verdict(tmp_path, "[rank1]: Traceback (most recent call last):\n"
                              '[rank1]:   File "/srv/job/pipe_train.py", line 66, in split_outputs\n'
                              "[rank1]:     assert len(outs) == len(grads)\n"
                              "[rank1]: AssertionError\n")
    assert v["cause"] != "config", v


def test_only_flattened_rank_lines_are_cut():
    from ncclDoctor.diagnose.ingest import unflatten_ranks

    assert unflatten_ranks("[rank4]: AssertionError [rank4]: The above exception was the direct cause\nnext") == (
        "[rank4]: AssertionError\n[rank4]: The above exception was the direct cause\nnext")
    # one prefix behind a clock, a doubled prefix and a prefix quoted mid-message are no flattened lines
    assert unflatten_ranks("2025-01-02 10:00:01 [rank4]: loss 1.5\n[rank0]: [rank0]: step 3\n") is None


def test_a_collectors_host_between_two_rank_prefixes_cuts_nothing():
    # a launcher's prefix over pdsh's host and the rank's own ("[rank3]: 10.0.0.7: [rank5]: ...") is one line: the
    # sweep's rankprefix perturbation of deepspeed-5627 cut it there and lost the traceback's frame (session 42)
    from ncclDoctor.diagnose.ingest import rank_pieces
    assert rank_pieces('[rank3]: 172.27.221.56: [rank5]:   File "/w/test.py", line 64, in main') is None
    assert rank_pieces("[rank1]: node-a.ib: [rank7]: Traceback (most recent call last):") is None
    assert rank_pieces("[rank0]: host-a: x [rank0]: y") == ["[rank0]: host-a: x", "[rank0]: y"]
