"""A back-end operation size separate from the host transfer (issue 12 item 5): a host that
coalesces small I/Os into larger disk operations makes fewer, larger back-end operations."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.workload import IoMix

from ..support.builders import BASE, predict_one, with_data


def _data(**workload: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["workloads"][0].update({"read_size_kib": 8, "write_size_kib": 8, **workload})
    return data


def _rank_arrivals(data: dict[str, Any]) -> float:
    """Back-end operations per second at the ranks (all drives) at the planned load."""
    config = resolve(with_data(data), load_catalog())
    point = Solver(config).planned_point()
    net = point.network
    ranks = [k for k, s in enumerate(net.stations) if s.kind == "rank"]
    return float(sum(point.arrival[k] * net.stations[k].drives for k in ranks))


def test_the_host_size_given_as_the_back_end_size_changes_nothing() -> None:
    plain = predict_one(with_data(_data()))
    same = predict_one(with_data(_data(backend_kib=8)))
    assert same.max_iops == plain.max_iops
    assert same.response_time_ms == plain.response_time_ms


def test_coalescing_makes_fewer_larger_back_end_operations() -> None:
    mix = IoMix.of(**mix_args(), backend_kib=64)
    assert mix.backend_op("read_miss") == (64 * 1024, 0.125)
    assert mix.backend_op("read_hit") == (8 * 1024, 1.0)
    plain = IoMix.of(**mix_args())
    assert mix.backend_small_io_per_host_io(1.0) == pytest.approx(
        plain.backend_small_io_per_host_io(1.0) / 8
    )
    ops_8 = _rank_arrivals(_data())
    ops_64 = _rank_arrivals(_data(backend_kib=64))
    assert ops_64 == pytest.approx(ops_8 / 8, rel=1e-9)


def mix_args() -> dict[str, Any]:
    return {
        "read_fraction": 0.7,
        "read_hit_ratio": 0.5,
        "read_sequential_fraction": 0.0,
        "write_sequential_fraction": 0.0,
        "read_size_kib": 8,
        "write_size_kib": 8,
        "destage_ratio": 0.6,
    }


def test_coalescing_raises_what_the_drives_carry_and_splitting_lowers_it() -> None:
    plain = predict_one(with_data(_data()))
    coalesced = predict_one(with_data(_data(backend_kib=64)))
    split = predict_one(with_data(_data(read_size_kib=64, write_size_kib=64, backend_kib=16)))
    big = predict_one(with_data(_data(read_size_kib=64, write_size_kib=64)))
    assert coalesced.max_iops > plain.max_iops
    assert split.max_iops < big.max_iops
    assert np.isfinite(coalesced.max_iops)


def test_a_back_end_size_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="backend_kib"):
        with_data(_data(backend_kib=0))
