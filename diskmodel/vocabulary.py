"""Names and rules of the domain that several layers spell out, in one place.

A leaf: it imports nothing of ours, so every layer may use it (the catalog, the model, the
analyses, the prediction and the report alike).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

TierName = Literal["ssd", "enterprise", "nearline"]
"""An Easy Tier storage tier: SSD, Enterprise (15K and 10K drives) or Nearline (7.2K)."""

TIERS: tuple[TierName, ...] = get_args(TierName)
"""The tiers fastest first, the order every table, chart and placement uses."""


@dataclass(frozen=True)
class ComponentKind:
    """One kind of station of the storage model and how it is written for people.

    key: the model's `Station.kind`, the key of its utilisation ceiling in a scenario's
    `service_level.utilization` (and the resolved service level's), the result's
    `bottleneck_kind` and `component.kind`, and a response time's `breakdown_ms` key.
    label: one station of the kind in a sentence ("its busiest DA pair").
    plural: the kind as a whole ("Utilisation of DA pairs at most").
    ceiling: what its utilisation ceiling limits ("rank (per drive) utilisation ≤ 70%").
    short: a narrow column's heading ("DA").
    front_end: a host I/O waits here before the cache answers (host adapters, processors).
    """

    key: str
    label: str
    plural: str
    ceiling: str
    short: str
    front_end: bool


KIND_TABLE: tuple[ComponentKind, ...] = (
    ComponentKind(
        "host_adapter",
        "host adapter",
        "host adapters (ports and cards)",
        "host adapter",
        "HA",
        front_end=True,
    ),
    ComponentKind("processor", "processor", "processors", "processor", "proc", front_end=True),
    ComponentKind("device_adapter", "DA pair", "DA pairs", "DA pair", "DA", front_end=False),
    ComponentKind("rank", "rank", "ranks", "rank (per drive)", "rank", front_end=False),
)
"""The component kinds in the order of an I/O's path: the one table of their names."""

COMPONENT_KINDS: tuple[str, ...] = tuple(kind.key for kind in KIND_TABLE)
"""Their keys, in that order."""

CHANNEL_KIND = ComponentKind(
    "channel", "FICON channel", "FICON channels", "FICON channel", "chan", front_end=True
)
"""The host's FICON channels (z/OS attachment): a station only where a configuration has
them, so the kinds every configuration has (`KIND_TABLE`) and what is written for them stay as
they are; a z/OS configuration's service level adds the channels' utilisation ceiling."""

STATION_KINDS: tuple[ComponentKind, ...] = (*KIND_TABLE, CHANNEL_KIND)
"""Every kind a station may be, `KIND_TABLE` first (a station's kind index is its place here)."""

COMPONENT_KIND: Mapping[str, ComponentKind] = MappingProxyType({k.key: k for k in STATION_KINDS})
"""Each kind by its key (the channels' too)."""

STATION_KIND_KEYS: tuple[str, ...] = tuple(kind.key for kind in STATION_KINDS)
"""The keys of `STATION_KINDS`, in that order."""


def easy_tier_follows_load(auto: bool, generation: int, tiers: int) -> bool:
    """Whether Easy Tier's placement in a pool depends on the load: Easy Tier on (`auto`), of
    the second generation or later (the first places by I/O density alone, with no load
    limit), over two tiers or more (one tier has nowhere to move data to). The configuration
    carries it (`PoolConfig.placement_follows_load`), the run-time budget estimates by it and
    the report states it (`PoolInput.placement_follows_load`)."""
    return auto and generation >= 2 and tiers >= 2
