"""Open and mixed networks: reduction to known cases, saturation, conservation."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.queueing import mixed_network, mva_multiclass, open_network

EXACT = 1e-12


def test_open_multiclass_single_server_is_processor_sharing() -> None:
    D = np.array([[0.002, 0.004], [0.005, 0.001], [0.003, 0.003]])
    lam = np.array([[50.0, 20.0], [100.0, 40.0]])
    result = open_network(lam, D)
    U = lam @ D.T  # [load, K]
    np.testing.assert_allclose(result.utilization, U, rtol=EXACT)
    expected = D[None, :, :] / (1.0 - U[:, :, None])
    np.testing.assert_allclose(result.residence_time, expected, rtol=EXACT)
    np.testing.assert_allclose(result.response_time, expected.sum(axis=1), rtol=EXACT)
    np.testing.assert_allclose(result.queue_length, U / (1 - U), rtol=EXACT)  # M/M/1 L
    np.testing.assert_array_equal(result.throughput, lam)


def test_open_saturation_only_reaches_classes_that_use_the_station() -> None:
    D = np.array([[0.010, 0.0], [0.001, 0.002]])
    result = open_network(np.array([120.0, 10.0]), D)  # station 0 at 120%
    assert result.saturated.tolist() == [True, False]
    assert result.utilization[0] == 1.0
    assert np.isposinf(result.response_time[0])
    assert np.isfinite(result.response_time[1])
    assert np.isposinf(result.queue_length[0])


def test_open_delay_station_adds_its_demand_only() -> None:
    result = open_network([0.0, 50.0, 99.0], [0.004, 0.010], servers=[np.inf, 1])
    np.testing.assert_allclose(result.residence_time[:, 0], 0.004, rtol=EXACT)
    assert np.all(result.utilization[:, 0] == 0)


DEMANDS_OPEN = np.array([[0.003], [0.002], [0.001]])
DEMANDS_CLOSED = np.array([[0.004, 0.002], [0.001, 0.006], [0.010, 0.010]])
SERVERS = [1, 1, np.inf]


def test_mixed_without_open_load_is_the_closed_network() -> None:
    result = mixed_network(
        np.array([0.0]), DEMANDS_OPEN, [4, 3], DEMANDS_CLOSED, [0.05, 0.02], SERVERS
    )
    closed = mva_multiclass(DEMANDS_CLOSED, [4, 3], [0.05, 0.02], SERVERS)
    np.testing.assert_allclose(result.closed_throughput, closed.throughput, rtol=EXACT)
    np.testing.assert_allclose(result.closed_residence_time, closed.residence_time, rtol=EXACT)


def test_mixed_without_closed_customers_is_the_open_network() -> None:
    lam = np.array([[40.0], [120.0]])
    result = mixed_network(lam, DEMANDS_OPEN, [0, 0], DEMANDS_CLOSED, 0.0, SERVERS)
    open_only = open_network(lam, DEMANDS_OPEN, SERVERS)
    np.testing.assert_allclose(result.open_response_time, open_only.response_time, rtol=EXACT)
    np.testing.assert_allclose(result.utilization, open_only.utilization, rtol=EXACT)


@pytest.mark.parametrize("method", ["exact", "schweitzer", "linearizer"])
def test_mixed_conservation_laws(method: str) -> None:
    lam = np.array([[30.0], [150.0], [250.0]])
    N = np.array([4, 3])
    Z = np.array([0.05, 0.02])
    result = mixed_network(lam, DEMANDS_OPEN, N, DEMANDS_CLOSED, Z, SERVERS, method=method)  # type: ignore[arg-type]
    X = result.closed_throughput
    np.testing.assert_allclose(
        X * (result.closed_response_time + Z), np.broadcast_to(N, X.shape), rtol=1e-9
    )
    # Utilisation adds the open load and the closed throughputs' demands.
    expected_U = lam @ DEMANDS_OPEN.T + X @ DEMANDS_CLOSED.T
    expected_U[:, 2] = 0.0  # the delay station
    np.testing.assert_allclose(result.utilization, expected_U, rtol=1e-9)
    # Open classes see the closed customers: slower than in the open network alone.
    alone = open_network(lam, DEMANDS_OPEN, SERVERS)
    assert np.all(result.open_response_time > alone.response_time)
    assert not result.saturated.any()


def test_mixed_saturated_by_open_load_is_explicit() -> None:
    lam = np.array([[100.0], [400.0]])  # 400/s x 3 ms = 120% at station 0
    result = mixed_network(lam, DEMANDS_OPEN, [2, 2], DEMANDS_CLOSED, 0.0, SERVERS)
    assert result.saturated.tolist() == [False, True]
    assert np.isposinf(result.open_response_time[1]).all()
    assert (result.closed_throughput[1] == 0).all()
    assert not np.isnan(result.utilization).any()
