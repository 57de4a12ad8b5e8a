"""Fix texts round 79 showed missing, verdicts unchanged (rules BG (6), AB (2), S, AW, BK (1), AU (1), BJ (1), AD (2)).

- A paste cut inside torch.distributed's init_process_group (its last frame distributed_c10d.py's init_process_group,
  its code line a continuation such as "timeout=t"; habitat-lab-1036): that code line is the source the process ran,
  not a failure's words, so the cut frame is read -- unknown, nobody named, and the fix says what init_process_group's
  error text would tell and what to check (MASTER_ADDR/MASTER_PORT, world_size, SLURM_*, GLOO_SOCKET_IFNAME). A cut in
  the job's own function is the plain cut traceback's reading.
- googletest's EXPECT_NEAR failing under its "file:line: Failure" header ("The difference between ct[j] and
  expected_result is 85, which exceeds 1e-5"; paddle-9967): rule S's wrong results -- its fix isolates the reduction
  (stream synchronisation before the read, nccl-tests -c 1, NCCL_PROTO / NCCL_ALGO, NCCL_P2P_DISABLE=1). Another gtest
  assertion (EXPECT_EQ's "Expected equality") is not read so.
- An AttributeError "'NoneType' object has no attribute 'data'" raised on a code line reading that attribute off a
  parameter's .grad ("allreduce(param.grad.data)"; lightzero-196): a parameter with no gradient -- skip None gradients,
  unused parameters, find_unused_parameters. The same error on a code line that reads no gradient is not read so.
- Ray's ActorDiedError whose owner died with its node ("Owner's node has crashed"; easyr1-324): read as Ray losing
  that node (unknown, nobody named); the fix names the node's raylet log, host memory, /tmp/ray disk space and the
  /dev/shm size. An owner that exited another way is not read so.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_PG_FRAMES = (
    'Traceback (most recent call last):\n'
    '  File "train.py", line 81, in <module>\n'
    '    trainer.train()\n'
    '  File "/opt/lib/rl/ddp_utils.py", line 268, in init_distrib_slurm\n'
    '    backend, store=tcp_store, rank=world_rank, world_size=world_size\n')


def test_a_traceback_cut_inside_init_process_group_names_its_setup(tmp_path):
    v = _verdict(tmp_path, _PG_FRAMES + '  File "/opt/conda/lib/python3.7/site-packages/torch/distributed/'
                 'distributed_c10d.py", line 610, in init_process_group\n    timeout=t\n')
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [], "low"), v
    assert "init_process_group" in v["summary"], v
    for word in ("paste the full error text (the exception line is cut)", "MASTER_ADDR/MASTER_PORT", "SLURM_",
                 "GLOO_SOCKET_IFNAME", "NCCL_DEBUG=INFO"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_a_traceback_cut_in_the_jobs_own_function_is_a_plain_cut(tmp_path):
    v = _verdict(tmp_path, _PG_FRAMES + '  File "/opt/lib/rl/ddp_utils.py", line 290, in wait_peers\n'
                 '    timeout=t\n')
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "GLOO_SOCKET_IFNAME" not in v["fix"] and "Paste the full traceback" in v["fix"], v


_GTEST_HEAD = "[10:08:19] [Step 1/1] /src/ops/nccl_op_test.cu.cc:237: Failure\n"


def test_a_gtest_near_check_on_a_reduced_value_is_wrong_results(tmp_path):
    v = _verdict(tmp_path, _GTEST_HEAD +
                 "[10:08:19] [Step 1/1] The difference between out[i] and expected is 85, which exceeds 1e-5, where\n"
                 "[10:08:19] [Step 1/1] out[i] evaluates to 0,\n"
                 "[10:08:19] [Step 1/1] [ FAILED ] NCCLTester.ncclReduceOp (9 ms)\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("synchronize the stream before reading the reduced buffer", "nccl-tests with data checking on (-c 1)",
                 "NCCL_P2P_DISABLE=1", "NCCL_DEBUG=INFO"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_a_gtest_equality_failure_is_not_read_as_a_value_check(tmp_path):
    v = _verdict(tmp_path, _GTEST_HEAD +
                 "[10:08:19] [Step 1/1] Expected equality of these values:\n"
                 "[10:08:19] [Step 1/1]   status\n"
                 "[10:08:19] [Step 1/1] [ FAILED ] NCCLTester.ncclInit (9 ms)\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "reduced buffer" not in v["fix"] and "NCCL_P2P_DISABLE" not in v["fix"], v


def _grad_tb(code: str) -> str:
    return ('Traceback (most recent call last):\n'
            '  File "train.py", line 169, in <module>\n'
            '    train(cfg)\n'
            '  File "/opt/conda/lib/python3.10/site-packages/ding/policy/base_policy.py", line 427, in sync_gradients\n'
            f'    {code}\n'
            "AttributeError: 'NoneType' object has no attribute 'data'\n")


def test_a_none_gradient_read_in_a_gradient_sync_names_unused_parameters(tmp_path):
    v = _verdict(tmp_path, _grad_tb("allreduce(param.grad.data)"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("param.grad is None", "skip None gradients", "unused parameters", "find_unused_parameters"):
        assert word in v["fix"], (word, v)


def test_a_none_attribute_off_another_object_is_not_a_missing_gradient(tmp_path):
    v = _verdict(tmp_path, _grad_tb("allreduce(batch.data)"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "param.grad is None" not in v["fix"], v


_ACTOR_DIED = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
               "        class_name: Runner\n"
               "        actor_id: 28507c63735529c3265367b501000000\n")


def test_an_actor_whose_owner_node_crashed_is_ray_losing_the_node(tmp_path):
    v = _verdict(tmp_path, _ACTOR_DIED + "The actor is dead because its owner has died. Owner Id: 01000000ffff Owner "
                 "Ip address: 10.0.0.9 Owner worker exit type: SYSTEM_ERROR Worker exit detail: Owner's node has "
                 "crashed.\n")
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [], "low"), v
    assert "10.0.0.9" in v["summary"] and "owner" in v["summary"], v
    for word in ("raylet.out", "/tmp/ray disk space", "shared memory /dev/shm size", "ray status before the crash"):
        assert word in v["fix"], (word, v)


def test_an_actor_whose_owner_exited_otherwise_is_not_a_lost_node(tmp_path):
    v = _verdict(tmp_path, _ACTOR_DIED + "The actor is dead because its owner has died. Owner Id: 01000000ffff Owner "
                 "Ip address: 10.0.0.9 Owner worker exit type: INTENDED_USER_EXIT Worker exit detail: Owner's worker "
                 "process has been terminated by the user.\n")
    assert v["cause"] == "unknown" and "/tmp/ray disk space" not in v["fix"], v
