"""Rule texts, one leaf module per family (importing only ``findings.rule``)."""
