"""The commercial tool's named Easy Tier skew levels (DOMAIN.md C7).

Kept free of imports so that scenario validation can name them without loading the numerics.
"""

PRESET_LEVELS: dict[str, float] = {
    "very_low": 2.0,
    "low": 3.5,
    "intermediate": 7.0,
    "high": 14.0,
    "very_high": 24.0,
}
