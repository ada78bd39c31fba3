"""Processor complex: two servers (CECs), each a `ways`-core SMP (DOMAIN.md item 2).

Every host I/O costs core time by type (catalog `processor_costs`, microseconds of one core):
read hit, read miss (includes the stage request), fast write, sequential read (prefetch
management amortised), and each destage. An I/O is handled by the server that owns the
rank holding its data (rank i on server i % 2), so each server is an M/M/c queue with
c = ways cores.
"""

from __future__ import annotations

from typing import Literal

from diskmodel.catalog import ProcessorCosts
from diskmodel.components.drive import ServiceMoments
from diskmodel.units import US

ProcessorWork = Literal["read_hit", "read_miss", "write", "sequential_read", "destage"]

CORE_FIGURES: dict[ProcessorWork, str] = {
    "read_hit": "read_hit_us",
    "read_miss": "read_miss_us",
    "write": "write_us",
    "sequential_read": "sequential_read_us",
    "destage": "destage_us",
}
"""The catalog's `processor_costs` figure each kind of work takes its core time from: all
`core_time` reads (a memo of what it gives may key on these figures)."""


def core_time(costs: ProcessorCosts, work: ProcessorWork) -> ServiceMoments:
    """Core time of one unit of `work` (treated as fixed; M/M/c then assumes exponential)."""
    us: float = getattr(costs, CORE_FIGURES[work])
    return ServiceMoments.deterministic(us * US)
