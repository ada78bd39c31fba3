"""Where a z/OS device queue ends the curve before any station of the storage does.

A device queue (IOSQ, `model.device_queue`) is an M/M/c station above the storage whose
service is the I/O's whole time below z/OS. Its utilisation, arrivals x that time / servers,
grows faster than the load (the time below grows with it) and has no bound as a station of
the storage nears saturation, so the device queue of every z/OS workload saturates strictly
below the stations' maximum: just below it with HyperPAV's pool, far below it with few
static aliases or none. The maximum of a mix with z/OS workloads is the lower of the two
(`model.saturation.saturating_load`), and the curve ends where IOSQ stops being finite.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from diskmodel.model.bracket import highest_passing
from diskmodel.model.device_queue import DeviceQueues, device_queues
from diskmodel.model.network import Network
from diskmodel.model.open import downstream_s, station_states, storage_responses

FloatArray = NDArray[np.float64]

DEVICE_QUEUE = -1
"""The station index the saturation search gives when a z/OS device queue, not a station of
the storage, saturates first (`Network.stations` has no entry for it)."""


def queues_at(net: Network, rates: FloatArray) -> DeviceQueues | None:
    """The device queues at host `rates` [W] on the network placed for them (None without
    z/OS workloads)."""
    r = np.asarray(rates, dtype=np.float64)[:, None]
    below = storage_responses(net, station_states(net, r))
    return device_queues(net.config, r, downstream_s(net, below))


def busiest_utilization(net: Network, rates: FloatArray) -> float | None:
    """The utilisation of the busiest device queue fed at host `rates` [W] on `net` (None
    when no device queue is fed)."""
    queues = queues_at(net, rates)
    if queues is None:
        return None
    rho = queues.utilization[:, 0]
    rho = rho[queues.lam[:, 0] > 0]
    return float(rho.max()) if rho.size else None


def queues_carry(net: Network, rates: FloatArray) -> bool:
    """Whether every device queue fed at host `rates` [W] on `net` stays below a utilisation
    of 1 (True without z/OS workloads): with the stations' own test, whether the load is
    below the maximum (`Solver.carries`)."""
    rho = busiest_utilization(net, rates)
    return rho is None or rho < 1.0


def device_queue_load(
    network: Callable[[FloatArray], Network], unit: FloatArray, station_max: float, rel_tol: float
) -> float | None:
    """The total rate of the mix `unit` at which its busiest device queue reaches a
    utilisation of 1, to within `rel_tol`, when the stations saturate at `station_max`; None
    when the mix sends no I/O to a device queue (or no station bounds the search)."""
    if not np.isfinite(station_max) or station_max <= 0:
        return None

    # The network the stations' search ended on says whether the mix feeds a device queue.
    config = network(unit * station_max).config
    fed = [w.zos is not None and share > 0 for w, share in zip(config.workloads, unit, strict=True)]
    if config.hardware.ficon is None or not any(fed):
        return None

    def probe(x: float) -> tuple[bool, float | None]:
        rho = busiest_utilization(network(unit * x), unit * x)
        assert rho is not None  # the mix feeds a device queue (above)
        return rho < 1.0, (rho - 1.0 if np.isfinite(rho) else None)

    # The utilisation is 0 at no load and has no bound at the stations' maximum.
    return highest_passing(probe, 0.0, -1.0, station_max, None, rel_tol=rel_tol)


def device_queue_name(net: Network, rates: FloatArray) -> str:
    """The busiest device queue at host `rates` [W] on `net`, in words for the report (its PAV
    mode and aliases are the RMF table's)."""
    queues = queues_at(net, rates)
    assert queues is not None
    row = int(np.argmax(np.where(queues.lam[:, 0] > 0, queues.utilization[:, 0], -np.inf)))
    ficon = net.config.hardware.ficon
    assert ficon is not None
    lcu = ficon.lcus[int(queues.lcu[row])]
    return f"LCU {lcu.name} device queue (IOSQ)"
