"""What a scenario is judged by (the `service_level` section): a response-time target and
utilisation ceilings per component kind.
"""

from __future__ import annotations

from pydantic import Field

from diskmodel.scenario.values import Model

UTILIZATION_LIMIT = 0.7
"""Default planning ceiling on every component's utilisation: the level at which the report
has always warned (an M/M/1 station's wait is then 2.3 service times and rising steeply)."""
RESPONSE_TIME_TARGET_MS = 5.0
"""Default response-time target: a common service level for random OLTP I/O on HDD-based
enterprise storage (a 15K drive serves 150 to 180 random database I/Os per second at 5 to 7
ms, IBM's published planning figures)."""


class UtilizationLimits(Model):
    """Planning ceilings on utilisation per component kind (fractions)."""

    host_adapter: float = Field(
        UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for host adapter ports"
    )
    processor: float = Field(
        UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for processors"
    )
    device_adapter: float = Field(
        UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for device adapter pairs"
    )
    rank: float = Field(UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for ranks (drives)")
    channel: float = Field(
        UTILIZATION_LIMIT,
        gt=0.0,
        le=1.0,
        description="ceiling for FICON channels (z/OS; a configuration with system.ficon)",
    )


class ServiceLevel(Model):
    """What the planner sizes to: a response-time target and utilisation ceilings.

    Results report the load at which each configuration still meets all of them beside its
    saturation rate."""

    response_time_ms: float = Field(
        RESPONSE_TIME_TARGET_MS, gt=0.0, le=1e5, description="mean response time target, ms"
    )
    read_response_time_ms: float | None = Field(
        None, gt=0.0, le=1e5, description="mean read response time target, ms"
    )
    utilization: UtilizationLimits = Field(
        UtilizationLimits(), description="utilisation ceilings per component kind"
    )
