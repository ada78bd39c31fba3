"""The secondary of a mirror, solved as a storage system of its own under the replicated
writes (`secondary_writes`): its data placed for that load, its network built and solved
open, each replicated workload's write response there, its busiest station.

The network builder is passed in (`build`), so that the primary's builder, which needs these
times, can call this module without the two importing each other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.components import cache
from diskmodel.configuration import Configuration
from diskmodel.model.costs import OpCosts
from diskmodel.model.layout import PoolLayout, layout
from diskmodel.model.open import class_responses, station_states

if TYPE_CHECKING:
    from diskmodel.model.network import Network

Build = Callable[[Configuration, Mapping[str, PoolLayout], OpCosts], "Network"]


@dataclass(frozen=True)
class SecondaryWrites:
    """The secondary at one load: per workload (its index on the secondary) the write
    response (seconds; inf where its path saturates or NVS is full), the busiest station's
    utilisation and name."""

    write_s: tuple[float, ...]
    utilization: float
    busiest: str
    saturated: bool


def secondary_writes(config: Configuration, rates: ArrayLike, build: Build) -> SecondaryWrites:
    """Solve the secondary `config` at its workloads' write `rates` (module docstring)."""
    r = np.asarray(rates, dtype=np.float64)
    costs = OpCosts(config)
    net = build(config, layout(config, r, costs), costs)
    states = station_states(net, r)
    per_class = class_responses(net, states)[:, 0]
    saturated = bool(states.saturated[:, 0].any())
    hw = config.hardware
    dirty = net.dirty_bytes_by_server(r[:, None], states.wait_s, states.speed_factor)
    nvs_server = cache.nvs_bytes_per_server(hw.system, hw.cache_gb)
    full = bool(np.asarray(cache.nvs_full(dirty, nvs_server)).any())
    # Each workload's write response: the mean over its write classes, by their shares.
    write_s = [0.0] * len(config.workloads)
    for g, (w, io_class) in enumerate(net.times.keys):
        if io_class.endswith("write"):
            f = config.workloads[w].mix.fractions
            share = f[io_class] / (f["random_write"] + f["sequential_write"])
            write_s[w] += math.inf if saturated or full else float(per_class[g]) * share
    utilization = np.where(states.saturated[:, 0], 1.0, states.utilization[:, 0])
    k = int(np.argmax(utilization))
    return SecondaryWrites(tuple(write_s), float(utilization[k]), net.stations[k].name, saturated)
