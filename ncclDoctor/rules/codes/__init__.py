"""Rule texts as leaf modules, one per family (``log.py``: diagnose's newer LOG codes)."""
