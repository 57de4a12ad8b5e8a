"""Launching and supervising torchrun jobs: generic, with nothing of the probes in it.

``ncclDoctor check`` (the probes) is one client; any job that speaks the control-store
protocol (``store``) is another: a user's own training job with a watcher injected.

=================  =================================================================
``torchrun``       the torchrun command line: one node (--standalone) or c10d, a
                   module or a script
``process``        child environment, start with a log file, teardown and reaping
``store``          the control store (bind or connect) and its key protocol
``supervisor``     ``Supervisor``: phases and deadlines (or a stall policy) from the
                   client, culprit vs victim, evidence hook, stop; -> ``Outcome``
``evidence``       stacks and Flight Recorder before teardown; torchrun's failure record
``multinode``      rendezvous options, the reporting node, node records in the store
``slurm``, ``k8s``  job specs that run one ncclDoctor per node
=================  =================================================================
"""
