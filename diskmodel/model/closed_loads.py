"""The closed solution's stations (`model.closed`): per station of the network, the work per
closed host I/O (the closed workloads mixed by their weights: what the host waits for and what
it does not) and the utilisation the open workloads add (`ClosedLoads`), and the MVA network's
stations, identical ranks merged into one flow-equivalent station of all their drives
(`mva_stations`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.model.network import Network

FloatArray = NDArray[np.float64]

# Largest share of a station the asynchronous stream may take in the closed solution; at this
# cap the destage path is saturated (NVS full) and the closed class gets the remainder.
RHO_CAP = 0.995


@dataclass(frozen=True)
class ClosedLoads:
    """Per station [K], per closed host I/O (the closed workloads mixed by `weights`): busy
    seconds the host waits for (`visible`, a rank's for all its drives in `demand`), busy
    seconds it does not (`asynchronous`: destage, prefetch), visible arrivals, and the
    utilisation the open workloads add (`background`)."""

    visible: FloatArray
    demand: FloatArray
    asynchronous: FloatArray
    visible_arrival: FloatArray
    arrival: FloatArray
    background: FloatArray
    background_arrival: FloatArray
    servers: FloatArray


def closed_loads(net: Network, weights: FloatArray, open_rates: FloatArray) -> ClosedLoads:
    visible_work = net.work - net.async_work
    drives = np.array([s.drives for s in net.stations], dtype=np.float64)
    servers = net.servers
    visible = weights @ visible_work
    return ClosedLoads(
        visible=visible,
        demand=visible * drives,  # MVA: a rank is one station holding all its drives
        asynchronous=weights @ net.async_work,
        visible_arrival=weights @ net.visible_arrival,
        arrival=weights @ net.arrival,
        # Open workloads that alone saturate a station have no steady state (the prediction
        # says so); the closed class is then solved with that station held at the cap.
        background=np.minimum(open_rates @ net.work / servers, RHO_CAP),
        background_arrival=open_rates @ net.arrival,
        servers=servers,
    )


def _key(value: float) -> float:
    """A load rounded to 10 significant digits, to group ranks that carry the same load."""
    return float(f"{value:.10g}")


def mva_stations(net: Network, loads: ClosedLoads) -> list[list[int]]:
    """The MVA network's stations: every port, server and DA pair the closed class visits, and
    the ranks grouped: identical ranks (same gain, width and loads) become one flow-equivalent
    station of all their drives (exact for product form; keeps hundreds of ranks fast).
    Returns the member stations of each MVA station."""
    members: list[list[int]] = []
    groups: dict[tuple[object, ...], int] = {}
    for k in np.flatnonzero(loads.demand > 0).tolist():
        gain = net.gains[k]
        if gain is None:
            members.append([k])
            continue
        key = (
            np.round(gain, 9).tobytes(),
            net.stations[k].drives,
            _key(loads.demand[k]),
            _key(loads.asynchronous[k]),
            _key(loads.background[k]),
        )
        if key in groups:
            members[groups[key]].append(k)
        else:
            groups[key] = len(members)
            members.append([k])
    return members
