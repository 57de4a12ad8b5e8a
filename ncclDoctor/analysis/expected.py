"""placeholder"""
DEFAULT_BELOW_PCT = 50.0
