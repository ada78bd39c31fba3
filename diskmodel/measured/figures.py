"""The measured figures calibration fits to, and the model's value of each at an operating
point.

A scope's response times (overall, reads, writes) belong to one workload; the rank
utilisation and the back-end operation rate to the ranks of the workload's pool; the DA and
host-port utilisations to the whole system (a pool's or the system's figure counts once per
interval however many rows of the interval carry it). The interval columns have the same
names (`diskmodel.measured.intervals`); their labels and units are kept with the record a
calibrated scenario carries (`diskmodel.scenario.calibration.FIGURES`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from diskmodel.model.operating import OperatingPoint
from diskmodel.model.results import response_times_ms

SYSTEM = "system"
"""The scope of a figure (and the owner of a parameter) that belongs to the whole system."""


@dataclass(frozen=True)
class Residual:
    """One measured figure (`figure`: a key of `FIGURES`) of one `scope` (a workload, a pool
    or SYSTEM) against the calibrated model (None where the model saturates)."""

    interval: str
    scope: str
    measured: float
    model: float | None
    figure: str = "response_ms"

    @property
    def error(self) -> float | None:
        return None if self.model is None else self.model / self.measured - 1.0


def pool_rank_utilization(point: OperatingPoint, pool: str) -> float:
    """Mean busy fraction of the drives of the ranks in `pool` (what a performance tool
    reports as the pool's rank utilisation)."""
    busy = [
        point.utilization[info.station] for info in point.network.ranks if info.rank.pool == pool
    ]
    return float(np.mean(busy)) if busy else 0.0


def pool_backend_iops(point: OperatingPoint, pool: str) -> float:
    """Disk operations per second on the drives of the ranks in `pool` (reads, stages,
    destage reads and writes, prefetches: what the drives themselves count)."""
    net = point.network
    return float(
        sum(
            point.arrival[info.station] * net.stations[info.station].drives
            for info in net.ranks
            if info.rank.pool == pool
        )
    )


def mean_utilization(point: OperatingPoint, kind: str) -> float:
    """Mean busy fraction of the system's stations of one kind (`device_adapter`: the DA
    pairs; `host_adapter`: the host ports)."""
    busy = [point.utilization[k] for k, st in enumerate(point.network.stations) if st.kind == kind]
    return float(np.mean(busy)) if busy else 0.0


def figure_value(point: OperatingPoint, w: int, pool: str, figure: str) -> float | None:
    """The model's value of a measured figure (`FIGURES`) at an operating point: of the
    network's workload `w` (its response times as the prediction reports them,
    `results.response_times_ms`) or of its `pool`, or the system's."""
    if figure in _RESPONSES:
        return response_times_ms(point, w)[_RESPONSES.index(figure)]
    if figure == "rank_utilization":
        return pool_rank_utilization(point, pool)
    if figure == "backend_iops":
        return pool_backend_iops(point, pool)
    if figure == "da_utilization":
        return mean_utilization(point, "device_adapter")
    if figure == "host_port_utilization":
        return mean_utilization(point, "host_adapter")
    raise ValueError(f"unknown figure {figure!r}")


_RESPONSES = ("response_ms", "read_response_ms", "write_response_ms")
"""The response-time figures, in the order `results.response_times_ms` gives them."""
