"""The configuration against the service level: each planning limit, the planning maximum,
and the planned load grown."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class LimitResult:
    """One planning limit: its target, the value at the planned load, whether it is met there,
    and the highest total rate at which it is still met (None: met up to saturation).

    kind: "response_time", "read_response_time" or "utilization"; component: for a utilisation
    limit, the component kind it applies to and, at `max_iops`, the component reaching it.
    """

    kind: str
    label: str  # e.g. "response time ≤ 5 ms", "rank utilisation ≤ 70%"
    target: float
    value: float | None  # at the planned load (None: saturated)
    met: bool
    max_iops: float | None
    component: str | None = None


@dataclass(frozen=True, slots=True)
class ServiceLevelResult:
    """The configuration against the service level.

    met: every limit met at the planned load. max_iops: the highest total host rate at which
    every limit is met (the planning maximum); binding: the label of the limit that binds
    there. iops_at_target: the rate at which the mean response time reaches the target.
    broken: what binds at the planned load, first what binds first ("saturated: <station>"
    at a saturated load, then every limit exceeded there; empty when met).
    """

    met: bool
    max_iops: float
    binding: str
    iops_at_target: float | None
    limits: tuple[LimitResult, ...]
    broken: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GrowthPoint:
    """The configuration at its planned load times `factor` (closed: population times it).

    utilization: the busiest station's utilisation of each component kind (`host_adapter`,
    `processor`, `device_adapter`, `rank`; 1 where it saturates), what the utilisation limits
    are measured by. meets_service_level: every limit met; broken: what binds there, first
    what binds first ("saturated: <station>" past saturation, then every limit exceeded, in
    the order a rising load breaks them: `analyses.limits.binding_names`); binding: the first
    of them (None if none); label: the period ("year 3") or the factor ("\u00d7 1.5") as
    reports name the point."""

    factor: float
    iops: float
    response_time_ms: float | None
    saturated: bool
    busiest: str
    busiest_utilization: float
    meets_service_level: bool
    binding: str | None
    label: str = ""
    broken: tuple[str, ...] = ()
    utilization: dict[str, float] = field(default_factory=dict)
