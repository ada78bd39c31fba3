"""The answer as the load rises: the response-time curve with the placement at each load,
where it falls and why, and a closed system's population sweep."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TierPoint:
    """Where one tier stands at one load of the curve (placement follows the load)."""

    pool: str
    tier: str
    small_io_share: float
    used_gb: float
    utilization: float


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The configuration at one total host I/O rate: response time (mean over all host I/O),
    the busiest station, and the placement Easy Tier makes for this load."""

    iops: float
    response_time_ms: float | None
    saturated: bool
    busiest: str
    busiest_utilization: float
    tiers: tuple[TierPoint, ...] = ()


@dataclass(frozen=True, slots=True)
class CurveFall:
    """A stretch of the curve along which the response time falls as the load rises, and why
    (`analyses.curve_falls`): from the point at `from_iops` to the one at `to_iops`.

    placement: Easy Tier's placement differs from point to point along it (it keeps a tier at
    its utilisation target by moving data), each point's response time being that of its own
    placement; detail says how (the tiers' shares of the small I/O and the data they hold at
    both ends). A fall with `placement` false has no explanation in the model (a defect).
    """

    from_iops: float
    to_iops: float
    from_response_time_ms: float
    to_response_time_ms: float
    placement: bool
    detail: str


@dataclass(frozen=True, slots=True)
class ClosedPoint:
    """The closed system at one population, solved on its own."""

    population: int
    iops: float
    response_time_ms: float
    destage_limited: bool = False


@dataclass(frozen=True, slots=True)
class ClosedSystemResult:
    """Closed-system solution: the population given (`population_kind` "queue_depth" or
    "users"), what it settles at, and a sweep of smaller populations, each solved on its own."""

    population: int
    population_kind: str
    think_time_ms: float
    iops: float
    response_time_ms: float
    destage_limited: bool
    curve: tuple[ClosedPoint, ...]
