"""Names of the domain that several layers spell out, in one place."""

from __future__ import annotations

from typing import Literal, get_args

TierName = Literal["ssd", "enterprise", "nearline"]
"""An Easy Tier storage tier: SSD, Enterprise (15K and 10K drives) or Nearline (7.2K)."""

TIERS: tuple[TierName, ...] = get_args(TierName)
"""The tiers fastest first, the order every table, chart and placement uses."""
