"""How numbers are shown to a planner: one place, so the page, its charts and its tables agree.

The rule for percentages follows coverage.py's display of coverage (`Numbers.display_covered`):
a value that is not exactly 0 or 100% is never shown as "0%" or "100%". A component at 99.96%
busy is shown as "99.9%", not "100%", because "100%" would say it is saturated, and one at
0.01% as "0.1%", because "0%" would say it does no work at all. Only a saturated component
(utilisation exactly 1) reads "100%".

Response times are shown with three significant figures at most (the model is not more exact
than that), saturation rates rounded to three significant figures, planned rates as given.
"""

from __future__ import annotations

import math

PERCENT_DECIMALS = 1
"""Decimals of every percentage on the page (utilisation, shares, fractions)."""

SATURATED_TEXT = "saturated"
"""What stands in place of an infinite response time."""


def percent(fraction: float, decimals: int = PERCENT_DECIMALS) -> str:
    """`fraction` (0..1) as a percentage, never rounded onto 0% or 100% unless exactly there.

    >>> percent(0.9996), percent(1.0), percent(0.0001), percent(0.0), percent(0.724)
    ('99.9%', '100.0%', '0.1%', '0.0%', '72.4%')
    """
    value = 100.0 * fraction
    step = 10.0**-decimals
    if 0.0 < value < step:
        value = step
    elif 100.0 - step < value < 100.0:
        value = 100.0 - step
    else:
        value = round(value, decimals)
    return f"{value:.{decimals}f}%"


def milliseconds(value_ms: float) -> str:
    """A time in ms with at most three significant figures ("3.12", "41.8", "250"); inf says so.

    >>> milliseconds(3.1234), milliseconds(41.84), milliseconds(250.4), milliseconds(0.0123)
    ('3.12', '41.8', '250', '0.0123')
    """
    if math.isinf(value_ms):
        return SATURATED_TEXT
    if value_ms == 0:
        return "0"
    digits = max(0, 2 - math.floor(math.log10(abs(value_ms))))
    return f"{value_ms:,.{digits}f}"


def rate(iops: float) -> str:
    """An I/O rate as given, with thousands separators and no false decimals ("25,000").

    >>> rate(25000), rate(1234.5), rate(12.25)
    ('25,000', '1,234', '12.2')
    """
    if iops >= 100:
        return f"{iops:,.0f}"
    return f"{iops:,.1f}"


def rate_3sf(iops: float) -> str:
    """An I/O rate rounded to three significant figures ("41,200"): for modelled limits.

    >>> rate_3sf(41234.0), rate_3sf(987.6), rate_3sf(12.34)
    ('41,200', '988', '12.3')
    """
    if iops <= 0 or not math.isfinite(iops):
        return rate(iops) if math.isfinite(iops) else "unlimited"
    magnitude = math.floor(math.log10(iops))
    rounded = round(iops, 2 - magnitude)
    return rate(rounded) if rounded >= 100 else f"{rounded:,.{max(0, 2 - magnitude)}f}"


def capacity_gb(value_gb: float) -> str:
    """A capacity in GB (decimal, as drive vendors count), TB above 10,000 GB.

    >>> capacity_gb(4380.0), capacity_gb(14016.0)
    ('4,380 GB', '14.0 TB')
    """
    if value_gb >= 10_000:
        return f"{value_gb / 1000.0:,.1f} TB"
    return f"{value_gb:,.0f} GB"


def number(value: float) -> str:
    """A plain figure from the catalog or scenario: integers without decimals, else up to 4
    significant figures ("128", "0.573", "3.5")."""
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:,.4g}"


def broken_text(broken: tuple[str, ...] | list[str]) -> str:
    """What binds at a load, first what binds first (`analyses.limits.binding_names`): every
    broken limit named, "; " between them ("saturated: DA pair 0; response time ≤ 5 ms")."""
    return "; ".join(broken)
