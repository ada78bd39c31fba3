"""Work shared between workloads of the same inputs gives, to the bit, what making it for each
workload alone gives (issue 30 item 5): the operation costs and a drive's busy time shared by
cost inputs (`OpCosts.kept`), a network's flows shared by workloads holding the same shares
(`NetworkBuilder`), a placement's shares made once per distinct row (`tiering.placement`), and
a network's sums taken in two parts, the host side's once per configuration (`_FlowSums`)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model import Solver
from diskmodel.model.costs import OpCosts
from diskmodel.model.network import Network
from diskmodel.model.network_build import _flow_sums
from diskmodel.workload import IO_CLASSES

from ..support.builders import BASE, with_data

_SIZES = (4, 8, 64)
_LEVELS = (3.0, 8.0, 24.0)


def _config(kinds: list[tuple[int, int, int]], easy_tier: bool) -> Configuration:
    """A two-tier pool with one workload per (I/O size, skew level, rate) in `kinds`."""
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["easy_tier"] = "auto" if easy_tier else "off"
    data["pools"][0]["ranks"] = [
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 4},
    ]
    base = data["workloads"][0]
    data["workloads"] = [
        {
            **base,
            "name": f"w{k}",
            "iops": 400 * (1 + rate),
            "capacity_gb": 300,
            "read_size_kib": _SIZES[size],
            "write_size_kib": _SIZES[size],
            "skew": {"level": _LEVELS[level]},
        }
        for k, (size, level, rate) in enumerate(kinds)
    ]
    return resolve(with_data(data), load_catalog())


def _network(config: Configuration, scale: float) -> Network:
    rates = np.array([w.iops or 0.0 for w in config.workloads]) * scale
    return Solver(config).network(rates)


def _arrays(network: Network) -> dict[str, bytes]:
    """Every array a network holds (its own and its class times'), as bytes."""
    out: dict[str, bytes] = {}
    for holder, prefix in ((network, ""), (network.times, "times.")):
        for f in dataclasses.fields(holder):
            value = getattr(holder, f.name)
            if isinstance(value, np.ndarray):
                out[prefix + f.name] = value.tobytes()
    out["gains"] = b"".join(g.tobytes() for g in network.gains if g is not None)
    out["layout"] = repr(network.layout).encode()
    return out


@settings(max_examples=10, deadline=None)
@given(
    kinds=st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 1)), min_size=1, max_size=5
    ).map(lambda ks: ks + ks),  # every kind at least twice: something to share
    easy_tier=st.booleans(),
    scale=st.sampled_from([0.5, 1.0, 2.5]),
)
def test_the_shared_path_equals_each_workload_made_alone(
    kinds: list[tuple[int, int, int]], easy_tier: bool, scale: float
) -> None:
    config = _config(kinds, easy_tier)
    shared = _arrays(_network(config, scale))
    with pytest.MonkeyPatch.context() as patch:
        # Every workload its own cost inputs: nothing shared by costs, rank times or flows.
        patch.setattr(OpCosts, "kept", lambda self, w, mix: w)
        alone = _arrays(_network(config, scale))
    assert shared.keys() == alone.keys()
    for name in shared:
        assert shared[name] == alone[name], name


def _columns(
    draw: st.DrawFn, n: int, workloads: int, stations: list[int]
) -> tuple[np.ndarray, ...]:
    """`Flows.columns` of `n` random flows at `stations`."""
    floats = st.floats(0.0, 10.0, allow_subnormal=False)
    return (
        np.array(draw(st.lists(st.integers(0, workloads - 1), min_size=n, max_size=n)), np.int64),
        np.array(
            draw(st.lists(st.integers(0, len(IO_CLASSES) - 1), min_size=n, max_size=n)), np.int64
        ),
        np.array(draw(st.lists(st.sampled_from(stations), min_size=n, max_size=n)), np.int64),
        *(np.array(draw(st.lists(floats, min_size=n, max_size=n)), np.float64) for _ in range(3)),
        np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool),
        np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool),
        np.array(draw(st.lists(floats, min_size=n, max_size=n)), np.float64),
    )


@settings(max_examples=60, deadline=None)
@given(data=st.data(), split=st.integers(1, 7), n_a=st.integers(0, 30), n_b=st.integers(0, 30))
def test_sums_of_flows_at_disjoint_stations_add_to_the_sums_of_all(
    data: st.DataObject, split: int, n_a: int, n_b: int
) -> None:
    """Two parts of a network's flows that share no station, a's the first `split` stations
    (the host ports' and cards'), b's the others: the sums of all the flows (in order, part a
    first) are b's sums over every station with a's, over its own stations, added in
    (`_FlowSums.with_host`), to the bit."""
    W, K = 3, 8
    a = _columns(data.draw, n_a, W, list(range(split)))
    b = _columns(data.draw, n_b, W, list(range(split, K)))
    weights = np.array([1.0, 250.0, 3.5])
    both = tuple(np.concatenate([x, y]) for x, y in zip(a, b, strict=True))
    whole = _flow_sums(both, W, K, weights)
    added = _flow_sums(b, W, K, weights).with_host(_flow_sums(a, W, split, weights))
    for x, y in zip((*whole.cells, *whole.station), (*added.cells, *added.station), strict=True):
        assert x.tobytes() == y.tobytes()
    assert whole.codes.tobytes() == added.codes.tobytes()
    assert whole.visits.tobytes() == added.visits.tobytes()
    assert whole.service.tobytes() == added.service.tobytes()
