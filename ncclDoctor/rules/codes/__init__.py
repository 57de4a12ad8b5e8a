"""Rule texts as leaf modules, one per family: each imports only ``ncclDoctor.findings.rule``."""
