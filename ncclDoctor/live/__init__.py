"""Watching a user's own torchrun job, with no change to its code.

``ncclDoctor run [options] -- torchrun …`` runs the job unchanged and names the hung rank within
seconds; ``ncclDoctor attach PID`` inspects a job that was started without ncclDoctor. The manual
is docs/run.md; the modules:

=================  ===========================================================================
inject/            what runs inside the workers: ``sitecustomize.py`` (chains to the one it
                   shadows, activates in torchrun workers only) and ``_ncd_live_watcher.py``
                   (stack-dump signal, torch's worker server, the progress publisher)
launch.py          the launch line checked, the environment, output and signal pass-through
collector.py       the UDP endpoint the workers' heartbeats arrive at
detect.py          pure logic: stall clock, adaptive threshold, verdict kinds, stragglers
evidence.py        Flight Recorder and stacks from a stuck rank, safest source first
watch.py           the live loop: statuses, "waiting on rank r" lines, verdicts with evidence
run.py             ``ncclDoctor run``
attach.py          ``ncclDoctor attach``
report.py          the report (same model and renderers as ``check``; codes LIVE001-LIVE008)
=================  ===========================================================================
"""
