"""How far the answer moves over ranges: the inputs given as ranges (`BandResult`) and the
catalog's unpublished figures (`CatalogBandResult`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BandPoint:
    """The response time at one load of the curve at the pessimistic and the optimistic corner
    (None where that corner saturates)."""

    iops: float
    pessimistic_ms: float | None
    optimistic_ms: float | None


SAMPLED_METHOD = "corners and a sample"
"""How `BandResult.method` begins when some ranges were sampled."""


@dataclass(frozen=True, slots=True)
class BandResult:
    """What the inputs given as ranges do to the answer (the baseline's).

    inputs: (dotted key, low, high) of every range. method: how the band was found. The
    prediction itself is at the central point (every range at its middle); each pair here is
    (pessimistic, optimistic): every range at its end that makes the system slower (planned
    rate high, read hit ratio low, destage ratio high, skew low), or faster, all together;
    where some ranges move the answer either way (read and sequential fractions), the slowest
    and the fastest over a sample of them (`sampled`). Response times are None where the
    corner saturates at the planned load.
    """

    inputs: tuple[tuple[str, float, float], ...]
    method: str
    response_time_ms: tuple[float | None, float | None]
    max_iops: tuple[float, float]
    planning_max_iops: tuple[float, float]
    curve: tuple[BandPoint, ...]

    @property
    def sampled(self) -> bool:
        """Whether some ranges were sampled (the band is a sample's envelope, an inner
        estimate), not only taken at their two ends."""
        return self.method.startswith(SAMPLED_METHOD)


@dataclass(frozen=True, slots=True)
class EstimateEffect:
    """One catalog estimate that moves the answer (`analyses.catalog_band`): its label, where
    it is in the catalog (`entry.key`), its value and range, and the maximum and the planned
    response time (None: saturated) with it at the low and at the high end of its range, the
    other estimates at their values."""

    label: str
    key: str
    value: float
    low: float
    high: float
    max_iops: tuple[float, float]
    response_time_ms: tuple[float | None, float | None]
    moves_max: bool  # one end moves the maximum beyond the band's threshold

    @property
    def max_spread(self) -> float:
        """How far apart the two ends put the maximum (IOPS)."""
        return abs(self.max_iops[1] - self.max_iops[0])


@dataclass(frozen=True, slots=True)
class CatalogBandResult:
    """The answer over the ranges of the catalog's unpublished figures (the baseline's;
    `analyses.catalog_band`): the maximum (low, high) and the planned response time at the
    pessimistic and the optimistic corner (None: saturated there), the estimates that move
    either by more than `threshold` of the central answer, largest effect first, how many
    estimates this configuration uses, and whether the maximum is set by an estimate (the
    bottleneck's figures are not published)."""

    threshold: float
    max_iops: tuple[float, float]
    response_time_ms: tuple[float | None, float | None]
    contributors: tuple[EstimateEffect, ...]
    estimates_tried: int
    bottleneck_estimated: bool  # some contributor moves the maximum beyond the threshold
