"""`diskmodel size`: every configuration the sizing search tried or proved it could skip, its
Pareto front and its answer."""

from __future__ import annotations

from dataclasses import dataclass

Choice = tuple[tuple[str, float | str], ...]
"""A sizing configuration: (what was chosen, how many, or which model) for every choice."""


def no_more(a: Choice, b: Choice) -> bool:
    """Configuration `a` has no more of any choice than `b` (and the same model); models are
    alternatives, not quantities, so only equal ones compare."""
    return all(
        x == y if isinstance(x, str) or isinstance(y, str) else x <= y
        for (_, x), (_, y) in zip(a, b, strict=True)
    )


@dataclass(frozen=True, slots=True)
class SizingCandidate:
    """One configuration the sizing search tried.

    choice: (what was chosen, how many): rank groups as "pool: drive raid", "model" (the
    catalog name), "da_pairs", "host_ports", "processor_ways", "cache_gb". error: why it is
    not possible (the hardware or the data do not fit), else None and the rest is meaningful.
    drives, power_w: installed drives of every pool and their power (catalog figures); price:
    by the scenario's prices, None without them.
    response_time_ms: at the planned load (None: saturated). meets: the service level met now
    and in every growth period; broken_in: the first period that breaks it ("now" or the growth
    label) and binding: the limit that breaks there. upgrade: it only adds to the current
    configuration (no rank, DA pair or port removed). response_by_period_ms: the response time
    in each period ("now" first; None: saturated there). uneven: each rank kind whose ranks
    cannot be spread evenly over the DA pairs or the servers, with its counts ("" when every
    kind is even), e.g. "ssd-300: DA 2/1, servers 2/1" (ranks per DA pair from 0, per
    server; the RAID format added where a drive comes in two).
    """

    choice: Choice
    error: str | None
    drives: int = 0
    power_w: float = 0.0
    price: float | None = None
    response_time_ms: float | None = None
    busiest: str = ""
    busiest_utilization: float = 0.0
    meets: bool = False
    broken_in: str | None = None
    binding: str | None = None
    upgrade: bool = False
    response_by_period_ms: tuple[float | None, ...] = ()
    uneven: str = ""


@dataclass(frozen=True, slots=True)
class SizingPruned:
    """A configuration the sizing search did not solve: `bound` names the bound from the
    queueing core that proved it can be neither on the front nor the answer, `detail` gives
    its figures (analyses/size_bounds.py)."""

    choice: Choice
    bound: str
    detail: str


@dataclass(frozen=True, slots=True)
class SizingResult:
    """`diskmodel size`: every configuration tried, the current one first.

    objective: "price" (the scenario's prices) or "drives" (no prices: drive count, then power).
    front: indices of the Pareto front (cost against response time at the planned load, over
    the configurations that are possible and not saturated). cheapest: the cheapest meeting the
    service level now and in every growth period (None: none does); cheapest_upgrade: the same
    among upgrades of the current configuration. periods: "now" and the growth labels.
    method: how the space was searched. service_level: the limits every period must meet.
    pruned: the configurations not solved, each with the bound that let it be skipped
    (`candidates` holds the ones solved; together they are every configuration offered).
    """

    scenario: str
    objective: str
    periods: tuple[str, ...]
    candidates: tuple[SizingCandidate, ...]
    front: tuple[int, ...]
    cheapest: int | None
    cheapest_upgrade: int | None
    method: str
    service_level: tuple[str, ...] = ()
    pruned: tuple[SizingPruned, ...] = ()
