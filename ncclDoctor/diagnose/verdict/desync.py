"""Ranks out of step (desync): different collectives or call sites at one sequence number, torch's desync
report, DDP's unused parameters, Horovod's tensors ready on some ranks only."""

from __future__ import annotations

import re
from collections import Counter

from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.signatures import (
    FR_ON,
    R_BAD_RNG_STATE,
    R_DS_RANK0_DISAGREE,
    R_VICTIM_EXC,
    R_XRANK_META,
    Event,
)
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _first, _named, quiet


def _desync(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "desync")
    if k is None:
        return None
    return Verdict(
        "desync",
        k.message,
        "Find the code that issues the minority's collective (Flight Recorder frames name "
        "it) and make every rank issue the same collectives in the same order; rerun with "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL to have torch "
        "check collective types and shapes across ranks. At epoch end the usual cause is uneven data: a rank with "
        "one more batch runs one more step (use drop_last=True / a DistributedSampler that gives every rank the "
        "same number of batches, or Join for uneven inputs). Around a checkpoint save, every rank must call "
        "state_dict() and the save (FSDP/ZeRO gather shards in collectives there, even with rank0_only=True): only "
        "the file write is rank 0's.",
        k.confidence,
        k.ranks,
        k.evidence,
    )


_COLL_OPS = {"allreduce", "allgather", "reducescatter", "broadcast", "reduce"}  # not Send/Recv: peers differ there


def _coll_dev(proc: str) -> str:
    _, pid, dev = proc.rsplit(":", 2)
    return f"device {dev} pid {pid}"


def _coll_split(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule D read through NCCL_DEBUG_SUBSYS=COLL's trace: every member of a communicator issues the same
    collective at each opCount; two processes, each showing one communicator of the same size, that issued different
    collectives at the same opCount took different code paths (a desync, the job hangs there). The trace names devices,
    not ranks, so nobody is named, and none is proven innocent."""
    procs: dict[str, dict] = {}
    for e in c.samples.get("coll_trace", []):
        for proc, comms in e.data.get("procs", {}).items():
            procs.setdefault(proc, {}).update(comms)
    by_size: dict[int, list[tuple[str, dict]]] = {}
    for proc, comms in procs.items():
        sizes = [v["nranks"] for v in comms.values()]
        for v in comms.values():
            if v["nranks"] > 1 and sizes.count(v["nranks"]) == 1:  # one communicator of that size: comparable
                by_size.setdefault(v["nranks"], []).append((proc, v["ops"]))
    for n, group in sorted(by_size.items()):
        if len(group) < 2:
            continue
        for count in sorted(set().union(*(ops.keys() for _, ops in group))):
            here = {proc: ops[count] for proc, ops in group if count in ops and ops[count][0].lower() in _COLL_OPS}
            kinds: dict[str, list[str]] = {}
            for proc, (op, _) in here.items():
                kinds.setdefault(op, []).append(proc)
            if len(kinds) < 2:
                continue
            said = "; ".join(f"{op} on {', '.join(_coll_dev(p) for p in ps)}" for op, ps in
                             sorted(kinds.items(), key=lambda kv: -len(kv[1])))
            ops = " or ".join(sorted(kinds))
            return Verdict(
                "desync",
                f"NCCL's collective trace: a {n}-rank communicator's processes issued different collectives at "
                f"opCount {count:x} ({said}): different code paths (a rank-conditional collective), the job hangs "
                "there; the trace names devices, not ranks: nobody is named",
                f"Make every rank issue the same collectives in the same order: find the code path where some ranks "
                f"call {ops} and others do not (rank-conditional code, a metric or loss reduced on some ranks only, "
                "uneven batches at epoch end). NCCL_DEBUG_SUBSYS=COLL's opCounts show each process's sequence; "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL has torch check collective types and shapes across ranks.",
                "medium", [], [w for _, w in list(here.values())[:4]])
    return None


def _sites_split(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule D without SeqNums: a process's collective timed out (gloo's recv/send, no SeqNum) right under one
    collective call's frame (a barrier) while another process's traceback in the same lines stands at another
    collective site (autograd's backward, where DDP all-reduces the gradients; another collective call), with no
    error of a process's own: the processes issued different collectives at the same point -- a rank-conditional code
    path. Which rank took it the lines cannot say: desync, nobody named, nobody proven innocent."""
    evs = [e for e in c.samples.get("watchdog_timeout", []) if e.data.get("other_sites")]
    if not evs or c.exceptions or any(t.seq is not None for t in c.samples.get("watchdog_timeout", [])):
        return None
    e = evs[0]
    here = e.data["in_collective"]
    there = ", ".join("autograd's backward (DDP's gradient all-reduce)" if n == "backward" else n
                      for n in e.data["other_sites"])
    return Verdict(
        "desync",
        f"a process's {here} timed out (no SeqNum) while another process's traceback in these lines stands at "
        f"another collective ({there}): the processes issued different collectives at the same point -- a "
        "rank-conditional code path (a save, an evaluation or an early-stop decision taken by some ranks only); the "
        "lines name no rank, so nobody is named and nobody proven innocent",
        f"Find the code path that only some ranks take around the {here} (a save / checkpoint, validation or an "
        "early-stop check under `if rank == 0` or a per-rank condition) and make every rank run the same collectives "
        "in the same order: call the barrier / save_model on every rank, and take the same early-stop decision on "
        "every rank (compute it on one rank and broadcast it). Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL to have torch "
        "check collective types across ranks; while it hangs, a py-spy dump of every rank shows which one is "
        "elsewhere.",
        "low", [], [x.brief() for x in evs[:2]])


# DDP's check all-gathers len(parameters), a count of tensors: no model has a million of them, so such a
# count in the slot of the rank DDP names is the payload of another collective that rank was in instead
_NO_MODEL_COUNT = 1_000_000


def _unsent(e) -> bool:
    """A DDP parameter-count line whose other count no rank sends (0, or more tensors than any model has): the slot
    of the check's all-gather was never filled."""
    return e.data["odd_params"] == 0 or e.data["odd_params"] >= _NO_MODEL_COUNT > e.data["reporter_params"]


DDP_ABORTED_WORDS = (
    "; DDP's 'rank K has inconsistent 0 params' lines (or a count no model has) read the slots of its parameter "
    "check's all-gather, which these timeouts aborted before it delivered (every printing rank and every rank they "
    "name timed out in it): a count never sent, so they name no rank and are consequences, not a model mismatch")


def ddp_gather_aborted(c: Collected) -> bool:
    """Every DDP parameter-count line read a count nobody sends, and the printers and the ranks they name all timed
    out in a collective (the check's all-gather): neither side was elsewhere, so the gather was aborted before it
    delivered and its slots name nobody (lead rule AH (1)'s third reading)."""
    evs = [e for e in c.samples.get("ddp_params", []) if not e.data.get("shape")]
    ranks = {e.data["reporter"] for e in evs} | {e.data["odd"] for e in evs}
    return bool(evs) and all(_unsent(e) for e in evs) and ranks <= c.kind_ranks.get("watchdog_timeout", set())


def _ddp_params(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """DDP's constructor found that the ranks' models differ. Its check all-gathers every rank's count
    into uninitialised tensors and names the FIRST slot that differs from the printing rank's own
    count (lead rule AH (1)): one printing rank's line is symmetric -- the named rank was in another
    collective, or the printer was, or the transfer delivered nothing (a count of 0, or one no model
    has, was never sent) -- so it names nobody. Several printing ranks whose own lines all name the
    same rank name that rank (rule D's majority; the printers are innocent)."""
    evs = c.samples.get("ddp_params", [])
    if not evs:
        return None
    shaped = [e for e in evs if e.data.get("shape")]
    if len(shaped) == len(evs):  # only the shape check: a process differs from process 0, neither side is named
        e = shaped[0]
        who = f"rank {e.data['reporter']}" if e.data.get("reporter") is not None else "a process"
        return Verdict(
            "desync",
            f"the ranks built different models before DDP wrapped them: DDP's check (_verify_model_across_ranks) found "
            f"a parameter of {who} with {e.data['shape']} that does not match the same parameter in process "
            f"{e.data['odd']}; the ranks' collectives no longer match, so the others wait (their timeouts follow) -- "
            "which side built the wrong model the lines do not say",
            "Make every rank build the same model on every rank before DDP(...): the same config, the same "
            "checkpoint and model loading path (no rank-conditional layers, a checkpoint every rank reads alike), "
            "the same freezing of parameters; compare the param sizes per rank ([(n, p.shape) for n, p in "
            "model.named_parameters()]) and rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL."
            # its strides wording: the same sizes in another memory layout (round 109's edm-30, refdiff-2, fdm-4)
            + (" The check compared strides: the parameter has the same sizes but another memory layout than in "
               "process 0 (a non-contiguous parameter -- a 1x1 conv weight built by an einsum, permute or view -- or "
               "channels_last on some ranks only): make the parameters contiguous (p.data = p.data.contiguous()) "
               "or give them the same memory format on every rank before wrapping in DDP, with the same torch "
               "version on every rank." if any("not to match strides" in x.text for x in shaped) else ""),
            "medium", [], [x.brief() for x in shaped[:3]])
    if ddp_gather_aborted(c):
        return None  # the timeouts decide (rules B, E, H); verdict() adds DDP_ABORTED_WORDS to their summary
    evs = [e for e in evs if not e.data.get("shape")]
    odd = {e.data["odd"] for e in evs}
    reporters = {e.data["reporter"] for e in evs}
    culprits = sorted(odd) if len(odd) == 1 and len(reporters - odd) > 1 else []
    e = evs[0]
    unsent = _unsent(e)
    return Verdict(
        "desync",
        f"the ranks built different models before DDP wrapped them, or were not in the same collective: rank "
        f"{e.data['reporter']} has {e.data['reporter_params']} parameters, rank {e.data['odd']} "
        f"{e.data['odd_params']}"
        + (f"; {_named(culprits)} is the odd one out (every printing rank names it)" if culprits else
           "; DDP names the first slot of its all-gather that differs, so one printing rank's line does not say "
           "which side is wrong" + (" (a count no rank sends: that slot was never filled -- either rank was in "
                                    "another collective, or the transfer delivered nothing)" if unsent else "")),
        "Build the same model on every rank before DDP(...): the same config and model loading path on every "
        "rank (no rank-conditional layers, a checkpoint every rank can read, the same freezing of parameters); "
        "print sum(p.numel() for p in model.parameters()) per rank to compare. Make every rank reach DDP(...) on the "
        "same code path (no collective, barrier or model reload on some ranks only before it) and rerun with "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL to check the collectives' order" + (
            "; a count that was never sent can also be a transfer that delivered nothing: check the transport with "
            "nccl-tests (-c 1)" if unsent and not culprits else "") + ".",
        "medium" if culprits else "high", culprits, [x.brief() for x in evs[:3]])


# torch's own size checks meeting a size no tensor has: the storage's byte count overflowing int64, or a dimension
# below zero -- a count read from a buffer, never a size the code computed
_R_IMPOSSIBLE_SIZE = re.compile(r"Storage size calculation overflowed with sizes=\[|"
                                r"Trying to create tensor with negative dimension (-\d{1,20})")
_NO_TENSOR_DIM = 1 << 40  # a negative dimension this far from zero is no arithmetic slip (-1): random 64-bit bytes


def _impossible(message: str) -> bool:
    m = _R_IMPOSSIBLE_SIZE.search(message)
    return m is not None and (m.group(1) is None or -int(m.group(1)) >= _NO_TENSOR_DIM)


def _garbage_sizes(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules BB (2), AH (1): a size no tensor has (a storage size overflowing int64, a negative dimension of a
    random 64-bit value) raised where the traceback shows tensors sized from counts the rank's peers sent (a sharded
    model's distributed forward, torchrec's input all-to-all; c10d's all_to_all / all_gather): those counts were never
    sent as such -- the ranks' collectives no longer matched (one rank in another all-to-all, a different number of
    batches) or the transfer delivered garbage. One printing rank's line cannot say which rank went off path:
    desync, nobody named, nobody innocent. Not without such a frame (a size a script computed wrong is its own bug),
    nor beside a timeout or NCCL error, whose families read first."""
    bad = [e for e in c.exceptions if _impossible(e.data.get("message") or e.text)]
    if not bad or not c.samples.get("exchange_frame") or c.kinds.get("watchdog_timeout") or c.kinds.get("nccl_error"):
        return None
    what = (bad[0].data.get("message") or bad[0].text)[:160]
    return Verdict(
        "desync",
        f"the rank raised '{what}' -- a size no tensor has (random 64-bit bytes) -- inside a sharded model's exchange "
        f"(its traceback runs through {_frame_where(c)}): the lengths / split sizes it received from its peers were "
        "never sent as such, so the ranks were no longer in the same collective (one rank in another all-to-all or a "
        "different number of batches) or the transfer delivered garbage; one rank's line does not say which rank went "
        "off path",
        "Make every rank run the same collectives in the same order: the same number of batches on every rank "
        "(drop_last=True, the same dataset length per rank; a rank that runs out of data early calls no all-to-all "
        "while the others do), no rank-conditional forward or train pipeline step; check the input lengths / KJT "
        "lengths each rank feeds the sharded model (non-negative, summing to the values' length). Rerun with "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL (collective order and sizes checked across ranks) and NCCL_DEBUG=INFO; if the "
        "collectives match, test the transport for silent corruption: nccl-tests with -c 1 (all_to_all_perf checks "
        "the data) and NCCL_PROTO=Simple.",
        "low", [], [e.brief() for e in bad[:2]] + [e.brief() for e in c.samples["exchange_frame"][:1]])


# autograd's count check of backward's gradients against its outputs (torch.autograd.backward / _make_grads: "got 1
# tensors and 0 gradients"): a stage's backward handed fewer (or more) gradients than the outputs it ran forward on
_R_GRAD_COUNT = re.compile(r"\bgot (\d{1,9}) tensors and (\d{1,9}) gradients\b")
# the exception classes of a receive that found less in a peer's message than it expected (an empty tensor tuple
# indexed, a missing key, too few values to unpack)
_RECV_SHORT = ("IndexError", "KeyError", "ValueError")


def _pipe_out_of_step(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BR (5), with AH (1) / BB (2), D, BF (2) (round 87's fairscale-895): two processes of a pipeline that
    exchange point-to-point messages (torch RPC) each fail on what the other sent -- this process's traceback ends in
    a receive (its innermost frame a function receiving a peer's message, "_recv_result") finding less in the message
    than it expected (IndexError on an empty tensor tuple, a missing key, too few values), and a remote worker's
    exception relayed by torch RPC ("On WorkerInfo(id=1, name=Worker1):") is backward given another number of
    gradients than its outputs ("got 1 tensors and 0 gradients"). Each side got contents that cannot match what it
    expected from its peer: the stages are out of step in the messages they exchange, desync; with two sides there is
    no majority to say which went out of order, so nobody is named and nobody innocent (the "On WorkerInfo" is where
    the remote error was raised, not proof that worker failed first). Not read so: either side alone (one process's
    own exception, rule BJ (2)), a receive failing on another class, nor beside a timeout or NCCL error."""
    remote = next((x for x in c.samples.get("rpc_remote_exc", []) if (m := _R_GRAD_COUNT.search(
        x.data.get("message") or "")) and m.group(1) != m.group(2)), None)
    if remote is None or c.kinds.get("watchdog_timeout") or c.kinds.get("nccl_error"):
        return None
    local = next((e for e in c.exceptions if not e.data.get("line")
                  and e.data["type"].rpartition(".")[2] in _RECV_SHORT
                  and "recv" in (e.data.get("frame_func") or "").lower()), None)
    if local is None:
        return None
    said = f"{local.data['type']}: {(local.data.get('message') or '')[:120]}"
    code = (local.data.get("frame_code") or "").strip()
    return Verdict(
        "desync",
        f"two processes of a pipeline each fail on the message the other sent: this process's receive "
        f"({local.data['frame_func']}" + (f": '{code[:80]}'" if code else "") + f") raised {said} -- the message "
        f"it received lacks what it expected -- and torch RPC relays that worker {remote.data['worker']} "
        f"({remote.data['name']}) raised '{remote.data['message'][:120]}': its backward was handed another number of "
        "gradients than its outputs. The stages are out of step in the messages they exchange (one sent activations "
        "where the other waited for gradients, or one message too few); with two sides there is no majority to say "
        "which went out of order, so no process is named (the remote worker is where its error was raised, not "
        "proof that it failed first)",
        "Make every stage run the same forward / backward sequence and exchange its messages in the same order: "
        "check the backward gradients count each stage sends against the outputs the next one ran forward on, that "
        "backward is called before the stage waits for gradients, and the transport queue names of activations vs "
        "gradients (a message read from the wrong queue or header); read the full remote traceback on the worker "
        "the RPC names (the lines after 'On WorkerInfo(...)') and rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL. "
        + ("A pipeline wrapper's own bug in that order (fairscale's PipeRPCWrapper, its traceback's library) is fixed "
           "by its version: upgrade fairscale, or move to torch.distributed.pipelining."
           if "fairscale" in (local.data.get("tb_pkgs") or []) else
           "Where a pipeline library drives that exchange (its frames in the traceback), check its version and its "
           "known issues: upgrade it, or move to torch.distributed.pipelining."),
        "low", [], [local.brief(), remote.brief()], job_wide=True)


def _garbage_rng(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules BB (2), AH (1) read through an RNG-state broadcast (round 67's accelerate-3206, as trlx-319 reads the
    same error beside its timeouts): a rank's generator refuses the state it was given ("Invalid mt19937 state", a
    state of the wrong size) where its traceback shows that state set right after a synchronisation that broadcasts
    rank 0's (accelerate's synchronize_rng_state(s)). Rank 0 sends a state its own generator produced, so the value
    the rank received was never sent as such: the ranks were not in the same broadcast (one rank in another collective
    at that point), the nodes' installs disagree on the state's layout, or the transfer delivered garbage. One printing
    rank's line cannot say which side went wrong: desync, nobody named, nobody innocent. Not without that frame (a state
    loaded from a checkpoint file is the file's), nor beside a timeout or NCCL error, whose families read first."""
    bad = [e for e in c.exceptions if R_BAD_RNG_STATE.search(e.data.get("message") or e.text)]
    if not bad or not c.samples.get("rng_sync_frame") or c.kinds.get("watchdog_timeout") \
            or c.kinds.get("nccl_error"):
        return None
    who = f"rank {bad[0].rank}" if bad[0].rank is not None else "a process"
    what = (bad[0].data.get("message") or bad[0].text)[:160]
    return Verdict(
        "desync",
        f"{who} raised '{what}' setting the generator state it had just received in an RNG state broadcast (its "
        f"traceback runs through {_frame_where(c, 'rng_sync_frame')}): rank 0 sends a state its own generator made, "
        "so the value received was never sent as such -- the ranks were not in the same broadcast (another collective "
        "on one side), the nodes' torch builds disagree on the state, or the transfer delivered garbage; one rank's "
        "line does not say which side went off path",
        "The RNG state broadcast (accelerate's synchronize_rng_states, called by its prepared DataLoader at each "
        "epoch for the rng_types it syncs) must be the same collective on every rank at that point: the same "
        "collective order on every rank before it (no rank-conditional collective, evaluation or save on some ranks "
        "only), the same number of batches per rank. Run the same torch/accelerate version on every node (pip show "
        "torch accelerate on each) and a consistent accelerate config per node: the same num_machines and "
        "main_process_ip, each node its own machine_rank. Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL (collective "
        "order and shapes checked across ranks) and NCCL_DEBUG=INFO, with the flight recorder on "
        f"({FR_ON}) to see each rank's last collectives; if they match, test the inter-node "
        "transport for corrupted data with nccl-tests (-c 1). To run meanwhile, skip the sync: rng_types=[] (or "
        "only 'generator') when preparing the DataLoader.",
        "low", [], [e.brief() for e in bad[:2]] + [e.brief() for e in c.samples["rng_sync_frame"][:1]])



def _meta_split(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AH (1) and D read through torch's cross-rank check of a ShardedTensor's metadata (round 72's
    torchrec-1591, adjudicated): every rank all-gathers its shards' metadata and compares each rank's global size
    (dtype, requires_grad, pin_memory) with the first rank's ("ShardedTensor global_size property does not match from
    different ranks! Found global_size=... on rank:0, and global_size=... on rank:1"). The ranks handed one collective
    different values -- a cross-rank count mismatch, not one rank's own argument refused alike everywhere (rules BB (4),
    AV) -- and the check names the first rank that differs from the first one, so with no majority nobody is named and
    nobody is innocent. Not its local check of one rank's own shards, nor beside a timeout or NCCL error, whose
    families read first."""
    bad = [(e, m) for e in c.exceptions if (m := R_XRANK_META.search(e.data.get("message") or e.text))]
    if not bad or c.kinds.get("watchdog_timeout") or c.kinds.get("nccl_error"):
        return None
    e, m = bad[0]
    prop, a, ra, b, rb = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)
    return Verdict(
        "desync",
        f"torch's cross-rank check of a sharded tensor's metadata found the ranks disagree: {prop}={a} on rank {ra} "
        f"and {prop}={b} on rank {rb} (every rank all-gathers its shards' metadata and compares them): the ranks built "
        "the same ShardedTensor from different sizes or properties, so the collective-built tensor cannot be "
        "assembled; the check names the first rank that differs from the first one, not the wrong one",
        "Give the ShardedTensor the same global_size on every rank (and the same dtype / requires_grad): every rank "
        "must build it from the same table sizes and the same sharding plan. With torchrec / row-wise sharding the "
        "table's num_embeddings (a managed-collision table's mch_size / zch size) must be the same on every rank "
        "and, where the sharder splits rows evenly, a multiple of (divisible by) the world size / number of devices; "
        "no per-rank random or data-derived table sizes (fix the seed / deterministic table sizes). When building it "
        "yourself with init_from_local_shards, check each rank's local shard sizes and offsets add up to the same "
        "global size. TORCH_DISTRIBUTED_DEBUG=DETAIL checks collectives' shapes across ranks.",
        "medium", [], [x.brief() for x, _ in bad[:2]])


def _ds_disagree(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AH (1), BF (2) and D read through DeepSpeed's own cross-rank check (round 76's llamafactory-4428,
    adjudicated): assert_ints_same_as_other_ranks broadcasts rank 0's list (ZeRO-3's fetch: the ids of the parameters
    it is about to all-gather) and raises on a rank whose own list differs ("disagreement between rank0 and rank6:
    rank0: [...], rank6: [...]"): the ranks are about to issue different gathers, a desync. The comparison of one rank
    with rank 0 is symmetric and two ranks give no majority: nobody is named and nobody is innocent. Only the raised
    message (its "rank0: [" list), not the source line of its raise a traceback echoes; not beside a timeout or NCCL
    error, whose families read first."""
    bad = [(e, m) for e in c.exceptions if (m := R_DS_RANK0_DISAGREE.search(e.data.get("message") or e.text))]
    if not bad or c.kinds.get("watchdog_timeout") or c.kinds.get("nccl_error"):
        return None
    e, m = bad[0]
    return Verdict(
        "desync",
        f"DeepSpeed's cross-rank check (assert_ints_same_as_other_ranks) found rank {m.group(1)}'s list differ from "
        "rank 0's: under ZeRO-3 it compares the ids of the parameters each rank is about to all-gather, so the ranks "
        "were about to issue different gathers (a different sub-module / parameter order on some ranks: an MoE layer "
        "routing tokens to different experts per rank, a rank-conditional forward); one rank against rank 0 gives no "
        "majority: the lines do not say which side is wrong",
        "Make every rank fetch the same parameters in the same order on every rank: for an MoE model under ZeRO-3 mark "
        "the MoE block as a ZeRO-3 leaf module (deepspeed.utils.set_z3_leaf_modules(model, [MoEBlockClass])) so its "
        "experts are gathered whole, or train with ZeRO-2 (stage 2) instead; check no forward / evaluation path runs "
        "on some ranks only (the same data on every rank's step count, the same seed). NCCL_DEBUG=INFO and "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL show the collectives each rank issues.",
        "low", [], [x.brief() for x, _ in bad[:2]])

# a print's label naming a collective whose tensors must have one size on every rank; not the object collectives
# (gather_object, all_gather_object: any size), an all-to-all (uneven splits are allowed), nor a print of what came
# back (its size is the collective's output, not what the rank handed it)
_R_SIZED_COLL = re.compile(r"(?i)\b(?:all[ _-]?gather|gather|all[ _-]?reduce|reduce[ _-]?scatter|broadcast)")
_R_NOT_INPUT = re.compile(r"(?i)object|all[ _-]?to[ _-]?all|\bafter\b|gathered|reduced|\bresults?\b|\boutputs?\b|"
                          r"received|\bout\b")
# a gather's label: torch's all_gather takes a list of outputs of unequal sizes (it gathers them by per-rank broadcasts)
# and gather is send/recv, so per-rank sizes that follow the data (a short last shard, a per-rank token count) are
# legal there, and no rank's size is the wrong one (review 98 finding 5)
_R_GATHER_COLL = re.compile(r"(?i)\b(?:all[ _-]?)?gather")


def _first_size_split(prints) -> tuple[str, dict] | None:
    """The first call at which a job's own prints of what it hands a sized collective differ (verdict._print_sizes,
    verdict._rank_shapes): PRINTS yields (label, key, sizes) -- the printer's key (a rank, a (rank, device)) and the
    sizes it printed under that label in order. Labels of no sized collective, or of its output, are left out; the
    labels are merged by their words (lower case). Returns the label and {key: size} at the first n-th print where
    two or more keys printed it with different sizes, or None."""
    seen: dict[str, dict] = {}
    for label, key, sizes in prints:
        if not _R_SIZED_COLL.search(label) or _R_NOT_INPUT.search(label):
            continue
        seen.setdefault(" ".join(label.lower().split()), {}).setdefault(key, []).extend(sizes)
    for label, by in seen.items():
        if len(by) < 2:
            continue
        for i in range(min(len(v) for v in by.values())):
            sizes = {k: v[i] for k, v in by.items()}
            if len(set(sizes.values())) > 1:
                return label, sizes
    return None


def _print_sizes(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules D, BB (2) read through the job's own prints (round 69's lightning-17085): each process printing the
    tensor it hands to a collective ("x before all gather: tensor(..., device='cuda:1') torch.Size([21551])"), two
    devices at the same call (the n-th print of that label on each) with different sizes: the ranks issued one
    collective with different sizes, which all_gather / all_reduce / broadcast require to be equal -- a desync in the
    size. A device index is no rank (every node has a cuda:0), so nobody is named and nobody is innocent. Not for
    prints of the same size, nor of one device only (one process's calls differ from step to step), nor beside a
    timeout or NCCL error, whose families read first."""
    evs = c.samples.get("coll_print")
    if not evs or c.kinds.get("watchdog_timeout") or c.kinds.get("nccl_error"):
        return None
    split = _first_size_split((label, (e.rank, dev), [size]) for e in evs for label, dev, size in
                              e.data.get("prints") or [])
    if not split:
        return None
    label, sizes = split
    shown = ", ".join(f"{dev}{'' if r is None else f' (rank {r})'} [{sz}]" for (r, dev), sz in sizes.items())
    proof = [e.brief() for e in evs if any(" ".join(p[0].lower().split()) == label for p in
                                           e.data.get("prints") or [])][:3]
    return Verdict(
        "desync",
        f"the job's own prints show the processes handing tensors of different sizes to the same collective "
        f"('{label}': {shown}): a collective such as all_gather needs the same tensor size on every rank, so "
        "the ranks issued it with different sizes (its result is garbage, or it hangs); the prints name "
        "devices, not ranks, and do not say which size is the wrong one",
        "all_gather (and all_reduce, broadcast, reduce_scatter) needs the same size on every rank: where the "
        "sizes come from the data (an uneven last batch, a DistributedSampler without drop_last, a per-rank "
        "count), gather the sizes first (all_gather of each rank's length), pad every rank's tensor to the "
        "largest size, gather, then cut each rank's part back to its length; or gather Python objects of any "
        "size with all_gather_object; use drop_last=True / equal shards where the sizes should match. "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL checks each collective's shapes across ranks.",
        "medium", [], proof, job_wide=True)


def _rank_shapes(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule D's majority read through the job's own prints (rules AH (1), BV (1); round 98's nccl-1417): each
    process printing, under the rank it names, the shape of the tensor it hands to a sized collective ("Rank 7 tensor
    before allreduce: torch.Size([32768000])"), and at the same call (the n-th print of that label on each rank) two or
    more ranks with different sizes, nothing failing beside them (the job hung, or its results are wrong): the ranks
    issued one collective with different sizes -- a desync in the size. all_reduce, broadcast and reduce_scatter need
    one size on every rank, and here each print ties its size to its rank itself, which rule BV (1) asks of a timeout
    line: exactly one rank's size against a size two or more ranks agree on names that rank, the agreeing ranks
    innocent; otherwise nobody is named and nobody is innocent. An all_gather or gather takes unequal sizes (torch
    gathers a list of unequal outputs by per-rank broadcasts; gather is send/recv) and per-rank sizes follow the data
    (a short last shard, a per-rank token count), so there nobody is named, as verdict._print_sizes reads it (review
    98 finding 5). Not for prints of one size, of what came back (a label "after" the collective, its output: the
    sizes of its results), of an object or all-to-all collective (any size is allowed), nor beside any failure
    (base.quiet), whose families read first."""
    evs = c.job_prints.get("rank_shapes")
    if not evs or not quiet(c):
        return None
    # one event per file, in the order read: a rank's prints in several files follow on
    prints = [(label, r, sizes) for e in evs for label, by in e.data["prints"].items() for r, sizes in by.items()]
    split = _first_size_split(prints)
    if not split:
        return None
    label, sizes = split[0], dict(sorted(split[1].items()))
    counts = Counter(sizes.values())
    gather = bool(_R_GATHER_COLL.search(label))
    odd = [sz for sz, n in counts.items() if n == 1]
    named = not gather and len(counts) == 2 and len(odd) == 1 and max(counts.values()) >= 2
    if named:
        # the n-th prints line up only if no print was lost (two ranks' lines torn into one, a paste starting part
        # way): the odd rank never printed the others' size under this label, and none of them ever printed its
        # size -- otherwise one shifted list makes an innocent rank look odd (second review of session 38, finding 1)
        every: dict[int, set[str]] = {}
        for lab, r, szs in prints:
            if " ".join(lab.lower().split()) == label:
                every.setdefault(r, set()).update(szs)
        agreed = next(sz for sz in counts if sz != odd[0])
        named = all((agreed not in szs) if sizes.get(r) == odd[0] else (odd[0] not in szs)
                    for r, szs in every.items())
    culprits = [r for r, sz in sizes.items() if named and sz == odd[0]]
    groups = "; ".join(f"{_named(sorted(r for r, x in sizes.items() if x == sz))} [{sz}]" for sz in counts)
    if gather:
        return Verdict(
            "desync",
            f"the job's own prints, each naming its rank, show the ranks handing tensors of different sizes to the "
            f"same gather ('{label}': {groups}), with nothing failing beside them: a gather's per-rank sizes may "
            "differ (torch's all_gather takes a list of outputs of unequal sizes, gather is send/recv) and follow the "
            "data (an uneven last batch, a DistributedSampler without drop_last, a per-rank count), but "
            "all_gather_into_tensor and an output list sized from this rank's own shape need one size on every "
            "rank -- mismatched counts hang or give wrong results; the sizes come from the data, so no rank's size "
            "is the wrong one and nobody is named",
            "Where the gather's sizes come from the data, exchange sizes first (all_gather of each rank's length), "
            "pad every rank's tensor to the largest size, gather, then cut each rank's part back to its length; or "
            "give all_gather an output list sized per rank, or use all_gather_object for objects of any size; use "
            "drop_last=True / equal shards where the sizes should match. Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL "
            "(torch checks each collective's shapes across ranks).",
            "low", [], [e.brief() for e in evs[:3]], job_wide=True)
    return Verdict(
        "desync",
        f"the job's own prints, each naming its rank, show the ranks handing tensors of different sizes to the same "
        f"collective ('{label}': {groups}), with nothing failing beside them: all_reduce (and broadcast, "
        "reduce_scatter) needs the same tensor size on every rank, and NCCL does not check sizes across ranks -- "
        "mismatched counts hang or give wrong results"
        + (f"; {_named(culprits)}'s size is the one against the others, which agree: it took the rank-conditional "
           "size, the agreeing ranks are victims" if named else
           "; no single size stands against the others that agree, so nobody is named"),
        "Make the collective's arguments identical on all ranks: pass the same tensor size to all_reduce on every "
        "rank (same tensor shape/numel on every rank for all_reduce, all_gather, broadcast, reduce_scatter)"
        + (f" -- remove the rank-conditional tensor size on {_named(culprits)}" if named else "")
        + "; where the sizes come from the data, exchange sizes first (all_gather of each rank's length) and pad "
        "tensors to a common size before the collective, or use all_gather_object for objects of any size. Rerun "
        "with TORCH_DISTRIBUTED_DEBUG=DETAIL (collective fingerprint / shape check: torch checks each collective's "
        "shapes across ranks and names the rank that differs).",
        "medium" if named else "low", culprits, [e.brief() for e in evs[:3]], job_wide=not named)


def _shape_numel(dims: list[int], world: int) -> set[int]:
    """What one rank handed to a gather, read from a printed shape: the whole shape, or the shape past a first
    dimension that is the world (the gathered tensor's stacked form, [world, ...])."""
    whole = 1
    for d in dims:
        whole *= d
    out = {whole}
    if len(dims) > 1 and dims[0] == world:
        out.add(whole // world)
    return out


def _gathered_shapes(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BV (1) (rules D, AH (1), BF (2)): the job's own prints of a tensor it (all-)gathers, labelled by a
    gather ("gathered_logits shape: torch.Size([4, 906, 32020])"), one per process of the world -- at least as many as
    NumelOut/NumelIn of a rank's watchdog timeout in an ALLGATHER says -- whose shapes differ, and that timeout's
    NumelIn one of those shapes (the whole shape, or past a first dimension that is the world): the ranks entered
    one gather with different Numel, a desync, not a rank never arriving (round 91's ms-swift-2117). The prints name
    no rank (rule AC (1)); rule D's majority -- one size against two or more that agree, that one the timed-out rank's
    own NumelIn -- names that rank, otherwise nobody; nobody is innocent. Not for prints of one shape, fewer prints
    than the world, prints not labelled by a gather, or a timeout whose NumelIn none of the shapes gives; nor for
    one process's prints over several steps (a rank tag's or one file's prints that count steps), which count as
    one print, nor prints under two or more rank tags fewer than the world (parse's shape src: review 91's
    shapes.log)."""
    evs = [e for e in c.samples.get("coll_print", []) if e.data.get("shape")]
    ts = [t for t in c.samples.get("watchdog_timeout", []) if t.op and "GATHER" in t.op.upper()
          and t.numel_in and t.numel_out and t.numel_out % t.numel_in == 0 and t.numel_out > t.numel_in]
    if not evs or not ts:
        return None
    by = {label: [([int(d) for d in size.split(",") if d], src) for size, src in sizes if size]
          for label, sizes in c.shape_prints.items() if "gather" in label}
    for t in ts:
        world = t.numel_out // t.numel_in
        for label, prints in by.items():
            # one print per process: a rank's (or a step-counting file's) later prints are its own history over
            # steps -- variable-length batches on one rank -- and say nothing of the other ranks. A rank tag is
            # the print's source where the prints count steps or carry two or more ranks' tags; one tag on every
            # print with no step counter (a collector tagging a whole paste) and an untagged print with none stand
            # for a process of their own
            tags = {tag for _, (tag, _) in prints if tag}
            first, seen = [], set()
            for dims, (tag, stepped) in prints:
                src = tag if tag and (stepped or len(tags) > 1) else stepped
                if src is None or src not in seen:
                    seen.add(src)
                    first.append(dims)
            first = first[:world]
            if len(first) < world or len({tuple(x) for x in first}) < 2:
                continue
            numels = [_shape_numel(x, world) for x in first]
            if not any(t.numel_in in n for n in numels):
                continue
            counts = Counter(tuple(x) for x in first)
            odd = [k for k, n in counts.items() if n == 1]
            named = (len(counts) == 2 and len(odd) == 1 and max(counts.values()) >= 2 and t.rank is not None
                     and t.numel_in in _shape_numel(list(odd[0]), world))
            sizes = ", ".join("[" + ", ".join(map(str, x)) + "]" for x in first[:8])
            who = f"rank {t.rank}" if t.rank is not None else "a rank"
            return Verdict(
                "desync",
                f"the job's own prints of '{label}' show the {world} processes of the gather with different shapes "
                f"({sizes}), and {who} timed out in {t.op} #{t.seq} with NumelIn={t.numel_in}, one of those shapes: "
                "the ranks entered one gather with different sizes (all_gather needs the same shape on every rank), "
                "not a rank that never arrived"
                + (f"; {who}'s size is the one against the others that agree" if named else
                   "; the prints name no rank and no single size stands against the others that agree, so nobody is "
                   "named"),
                "all_gather needs the same shape on every rank: pad each rank's tensor to a common shape (gather "
                "every rank's length first, pad to the largest, gather, cut each part back), gather fixed-size "
                "tensors instead (pooled embeddings rather than full-sequence logits), or gather objects of any size "
                "with all_gather_object. Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL (torch checks each collective's "
                "shapes across ranks and names the rank that differs) and NCCL_DEBUG=INFO.",
                "medium" if named else "low", [t.rank] if named else [],
                [t.brief()] + [e.brief() for e in evs[:3]], job_wide=not named)
    return None


def _peer_done(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules D and H read through a functional collective's printed result (round 67's pytorch-117486): every
    rank shown timing out does so in its group's FIRST collective (SeqNum 1), an all-to-all, while a process prints a
    completed functional collective's result (AsyncCollectiveTensor's repr waits for it). The ranks timing out completed
    no collective of the group, so the printing process is a peer, and it got through its side of the exchange: it was
    not missing (rule H needs the rank absent). In an all-to-all a peer finishes while another waits only when the
    amounts they exchange disagree -- their split sizes do not match -- so the ranks took different sizes into one
    collective (rule D's different Numel); with no majority shown, nobody is named and nobody is innocent. Not where a
    launcher records a rank other than those timing out failing on its own, nor where the result carries a timing-out
    rank's own tag."""
    done = c.samples.get("funcol_done")
    if not done:
        return None
    ts = [t for st in c.ranks.values() for t in st.timeouts.values()] + [
        e for e in c.samples.get("watchdog_timeout", []) if e.rank is None]
    if not ts or any(t.seq != 1 or not (t.op or "").upper().startswith("ALLTOALL") for t in ts):
        return None
    timed = {t.rank for t in ts if t.rank is not None}
    if any(e.rank in timed for e in done):
        return None  # a timing-out rank's own print: from before, or of another group
    if any(e.rank not in timed for e in c.child_failures + c.worker_failures) or any(
            not e.data.get("line") and not R_VICTIM_EXC.match(e.data.get("type") or "") for e in c.exceptions):
        return None  # a failure of its own elsewhere: rule A / I read it first
    who = f"rank {', '.join(map(str, sorted(timed)))}" if timed else "a rank"
    return Verdict(
        "desync",
        f"{who} timed out inside collective #1 ({ts[0].op}), its group's first, while another process printed the "
        "completed result of a functional collective (AsyncCollectiveTensor): a peer got through its side of the "
        "all-to-all, so no rank was missing from it -- in an all-to-all a peer finishes while another still waits "
        "when the amounts they exchange disagree: the ranks' split sizes do not match (what one rank sends another "
        "does not expect); the lines do not say which rank's split sizes are the wrong ones",
        "Every rank's all_to_all_single (or all_to_all) split sizes must match its peers': rank i's "
        "output_split_sizes[j] equals rank j's input_split_sizes[i], each list sums to its tensor's first dimension, "
        "and a rank passing None uses equal splits, so either every rank passes split sizes or none does (the same "
        "split sizes on every rank where the split is even). Exchange the counts first (an all_to_all_single of the "
        "input_split_sizes gives each rank its output_split_sizes) and size the output from them; print each rank's "
        "input/output split sizes and shapes before the call. Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL (collective "
        "shapes checked across ranks) and NCCL_DEBUG=INFO; a functional collective (AsyncCollectiveTensor) is "
        "waited on when first used, so print or use its result on every rank.",
        "medium", [], [t.brief() for t in ts[:2]] + [e.brief() for e in done[:1]])


def _frame_where(c: Collected, kind: str = "exchange_frame") -> str:
    """The exchange frame's file and function, as the traceback prints them."""
    e = c.samples[kind][0]
    m = re.search(r'([\w.-]{1,80}[/\\][\w.-]{1,80}\.py)", line \d{1,6}, in (\w{1,60})', e.text)
    return f"{m.group(1)}'s {m.group(2)}" if m else "the library's distributed code"


def _desync_report(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch's fingerprint check (or NCCL's) says outright that ranks issued different
    collectives: a desync of the code paths. Both ranks it names are where to look; neither
    is a victim or a culprit on its own."""
    evs = c.samples.get("desync_report", [])
    if not evs:
        return None
    e = evs[0]
    prints = e.data.get("prints") or []
    sides = [f"rank {p['rank']} runs {p.get('op') or '?'}" + (f" #{p['seq']}" if p.get("seq") is not None else "")
             + (f" shape [{p['shape']}]" if p.get("shape") else "") for p in prints]
    what = "; ".join(sides) or (f"around rank {e.data['around']}" if e.data.get("around") is not None else "")
    differ = f" (they differ in: {e.data['differ']})" if e.data.get("differ") else ""
    if not what and differ:
        what, differ = e.data["differ"], ""
    return Verdict(
        "desync",
        f"the ranks issued different collectives at the same point: {what}{differ}. Two code paths diverged (a "
        "rank-dependent branch, data-dependent shapes or bucket sizes, an extra call on some ranks)",
        "Make every rank issue the same collectives in the same order with the same shape: pad or split evenly so "
        "shapes match, keep logging/metric calls identical on all ranks, avoid rank-conditional collectives. "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL checks each collective's fingerprint across ranks; for NCCL's own check, "
        "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL logs each call." + (
            " FSDP checked its forward order: every rank must run the same modules in the same forward order (no "
            "rank-conditional code or data-dependent branches around FSDP-wrapped modules, the same model code and "
            "library versions on every rank, the same wrapping policy and use_orig_params setting)."
            if any(x.data.get("fsdp") for x in evs) else "") + (
            " gloo checked a received message against the size its sender announced: each send must meet a recv "
            "of the same message size and dtype (match send/recv sizes, tensor shapes and the order of point-to-point "
            "calls between each pair of processes), and every process must run the same torch version (a "
            "different build's gloo, tcp or uv transport, frames messages alike only within one version)."
            if any(x.data.get("gloo") for x in evs) else "") + (
            " An object gather (all_gather_list, all_gather_object) pickles each worker's data into one buffer: "
            "every worker must call it together, the same number of times. The workers out of sync: one ran out of "
            "memory and skipped a batch, or finished its epoch early (give every worker the same number of batches "
            "per worker, drop_last), or rank-conditional code (layer drop / LayerDrop, a branch on the rank) made "
            "them call it differently (DDP with find_unused_parameters=True for layers skipped at random); a message "
            "larger than the gather's buffer fails the same way (fairseq: --all-gather-list-size)."
            if any(x.data.get("objects") for x in evs) else ""),
        "medium" if all(x.data.get("objects") for x in evs) else "high", [], [x.brief() for x in evs[:2]])


def _hvd_split(recs: list[tuple[str, list[int]]], evs: list[Event], world: int) -> Verdict | None:
    """Lead rule D read through Horovod's stall inspector: when the ready lists split the ranks into disjoint groups,
    each waiting in tensors no other group submitted, no rank is merely behind -- the groups submitted different
    tensors (a desync). One lone rank against a group of at least two that agree took the rank-conditional path: it is
    the culprit, the agreeing ranks innocent. With no such majority (two pairs, several groups) nobody is named."""
    if any(how != "ready" for how, _ in recs):
        return None
    groups: list[frozenset[int]] = []
    for _, rs in recs:
        g = frozenset(rs)
        if g not in groups:
            groups.append(g)
    if len(groups) < 2 or any(a & b for i, a in enumerate(groups) for b in groups[i + 1:]):
        return None
    shown = set().union(*groups)
    fix = ("Every rank must submit the same tensors in the same order: look for rank-conditional code or a "
           "data-dependent branch (inconsistent shapes, a loss allreduce or metric computed on some ranks only) around "
           "the collectives of {who}. HOROVOD_TIMELINE shows which tensors each rank submitted; py-spy dump --pid PID "
           "on each rank shows where it waits. HOROVOD_STALL_CHECK_TIME_SECONDS sets when the warning is printed.")
    names = "; ".join(f"{_named(sorted(g))} ready in {sum(frozenset(rs) == g for _, rs in recs)} tensor(s)"
                      for g in groups)
    lone = [g for g in groups if len(g) == 1]
    if len(groups) == 2 and len(lone) == 1 and max(len(g) for g in groups) >= 2:
        odd = sorted(lone[0])
        whole = shown == set(range(world))
        return Verdict(
            "desync",
            f"Horovod's stall inspector shows the ranks waiting in different tensors ({names}): {_named(odd)} "
            "submitted a collective the other ranks, which agree among themselves, never did -- it took another code "
            "path (a rank-conditional branch, inconsistent shapes); the agreeing ranks are victims",
            fix.format(who=_named(odd)), "high" if whole else "medium", odd, [e.brief() for e in evs[:3]])
    return Verdict(
        "desync",
        f"Horovod's stall inspector shows the ranks waiting in different tensors ({names}): the groups submitted "
        "different collectives, and no single rank stands against a majority, so the lines cannot say which took the "
        "other path",
        fix.format(who="each group"), "low", [], [e.brief() for e in evs[:3]])


def _recv_garbage(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules BB (2), BR (5), D (round 96's pytorch-pr110408): the job's own print of a tensor it received in a
    point-to-point exchange (its label names the receive: "recv_tensor=tensor([2.8026e-45, 0.0000e+00], ...)") holds
    a value no float32 tensor a peer computed sends -- nonzero and below float32's smallest normal number, the bit
    pattern of a small integer read as a float (2.8026e-45 is the integer 2) -- with nothing else failing: the bytes
    delivered were of another dtype or size than the receiver posted, i.e. the two sides' send and recv disagree (an
    int64 tensor sent into a float32 receive buffer). Impossible contents from a peer exchange are a desync; two sides
    give no majority, so nobody is named and nobody is innocent (the prints' numbers are the job's). Not for received
    values a float can hold (zeros, ordinary numbers), nor such a value in a print that names no receive."""
    bad = c.samples.get("recv_garbage")
    if not bad or not quiet(c):
        return None
    e = bad[0]
    v = e.data["garbage"][0]
    as_int = round(v / 1.401298464324817e-45)
    return Verdict(
        "desync",
        f"the job's own print of a tensor it received ({e.data['label']}) holds {v:.4e}, a value no float32 tensor "
        f"a peer computed sends: nonzero and below float32's smallest normal number, it is the bit pattern of the "
        f"integer {as_int} read as a float -- the bytes delivered were of another dtype (or size) than the receive "
        "posted, so the two sides' send and recv disagree (an integer tensor sent into a float receive buffer), with "
        "no error, hang or timeout shown; with two sides there is no majority to say which side is wrong",
        "Use the same dtype for send and recv tensors, and the same number of elements: match dtype and numel of the "
        "P2POp isend/irecv tensors on both peers (batch_isend_irecv, dist.send / dist.recv, isend / irecv) -- give "
        "send_tensor and recv_tensor an explicit dtype (torch.arange(2, dtype=torch.float), not an int64 arange "
        "sent into a float32 buffer), and check tensor dtype/shape before batch_isend_irecv (assert each side's "
        "dtype and shape, or exchange them first). Wait on the requests (req.wait()) before reading the received "
        "tensor. Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL to check the p2p calls match; if they do, verify the "
        "transport with a known pattern: nccl-tests with -c 1 (sendrecv_perf) and NCCL_PROTO=Simple.",
        "low", [], [x.brief() for x in bad[:2]], job_wide=True)
