"""Rule texts, one leaf module per code family (``env.py`` holds ENV001..., ``log.py`` LOG001...).

Each module imports only ``ncclDoctor.findings`` and defines ``NAME = rule("CODE", severity, title,
why=..., fix=...)`` constants; the checks that fire a rule import its constant from here, never
from each other. ``ncclDoctor.findings.load_all_rules`` imports every module of this package, so
a new family file is picked up without editing a list.
"""
