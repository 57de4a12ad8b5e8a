"""Pure analysis over per-rank records: bandwidth tables, skew, stragglers."""
