"""Facts about a host: data only, no judging. Rules read these (``ncclDoctor.rules``).

Every collector returns plain JSON-able data and never raises for a missing tool or
device: it records ``{"skipped": "<why>"}`` instead, so a report says "skipped", not
"failed".
"""

from ncclDoctor.facts.host import collect_host_facts

__all__ = ["collect_host_facts"]
