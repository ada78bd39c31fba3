"""Open solution: every station fed a Poisson stream, vectorised over the total host rate.

Ports, DA pairs and drives M/G/1 (Pollaczek-Khinchine with the station's mixed service
moments), servers M/M/c; host-visible response of a class = sum of visits x (wait + its own
service time). No command-queueing credit at the drives (conservative, see docs/model.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.model.network import ClassTimes, SystemModel
from diskmodel.queueing.station import mg1, mmc

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class OpenSolution:
    """Per-station results [K, P] at P total host rates, and per-class response [G, P]."""

    iops: FloatArray
    saturated: NDArray[np.bool_]  # [P]: at or past max_iops
    utilization: FloatArray
    wait_s: FloatArray
    response_s: FloatArray  # mean over all host I/O [P] (inf where saturated)


def station_waits(model: SystemModel, iops: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Utilisation and mean wait [K, P] of every station at total host rates `iops` [P].

    Ports, DA pairs and drives: M/G/1 (Pollaczek-Khinchine) with the station's mixed service
    moments; servers: M/M/c. One vectorised call per station type.
    """
    lam = model.arrival_per_iops[:, None] * iops[None, :]
    servers = np.array([s.servers for s in model.stations])
    multi = servers > 1
    util = np.empty(lam.shape)
    wait = np.empty(lam.shape)
    single = ~multi
    if single.any():
        res = mg1(lam[single], model.service_s[single, None], model.service2_s2[single, None])
        util[single] = res.utilization
        wait[single] = res.wait_time
    if multi.any():
        res = mmc(lam[multi], model.service_s[multi, None], servers[multi, None])
        util[multi] = res.utilization
        wait[multi] = res.wait_time
    return util, wait


def class_times(model: SystemModel) -> ClassTimes:
    """Host-visible visits and service per (workload, class) of a built model."""
    return model.times


def _overall_response(model: SystemModel, times: ClassTimes, wait: FloatArray) -> FloatArray:
    """Mean host response over all I/O [P] from station waits [K, P] (finite waits only)."""
    per_class = times.visits @ wait + times.service_s[:, None]  # [G, P]
    weights = np.array(
        [model.mix_weights[w] * model.mixes[w].fractions[c] for (w, c) in times.keys]
    )
    return np.asarray(weights @ per_class, dtype=np.float64)


def solve_open(model: SystemModel, iops: FloatArray | Sequence[float]) -> OpenSolution:
    """The open network at total host rates `iops` (vectorised over the rates)."""
    rates = np.asarray(iops, dtype=np.float64)
    util, wait = station_waits(model, rates)
    saturated = rates >= model.max_iops * (1 - 1e-12)
    finite_wait = np.where(saturated[None, :], 0.0, wait)
    response = _overall_response(model, class_times(model), finite_wait)
    return OpenSolution(
        iops=rates,
        saturated=saturated,
        utilization=util,
        wait_s=wait,
        response_s=np.where(saturated, np.inf, response),
    )


def curve_rates(model: SystemModel) -> FloatArray:
    """Total host rates of the response-time curve: the scenario's range, or up to saturation."""
    n = model.curve_points
    if model.curve_range is not None:
        return np.linspace(model.curve_range[0], model.curve_range[1], n)
    top = model.max_iops
    return top * np.arange(1, n + 1) / n
