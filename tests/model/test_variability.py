"""Service-time variability at the stations (docs/model.md §2): the product form's waits scaled
by (1 + scv) / 2, which for a single server of constant rate is Pollaczek-Khinchine's M/G/1
wait exactly. Theory tests through the whole model: a drive that does not reorder (the device
adapter keeping one command at it) is an M/G/1 station whose service moments are the drive's
own seek, rotation and transfer."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.components import drive
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.model.closed import solve_closed
from diskmodel.model.open import station_states
from diskmodel.units import KIB

from ..support.builders import scenario


def _one_command_per_drive() -> Catalog:
    """The catalog with every system's device adapter keeping one command per drive: a drive
    then never reorders, and its station is M/G/1."""
    base = load_catalog()
    systems = {
        name: s.model_copy(
            update={"device_adapter": s.device_adapter.model_copy(update={"commands_per_hdd": 1})}
        )
        for name, s in base.systems.items()
    }
    return base.model_copy(update={"systems": systems})


CATALOG = _one_command_per_drive()


def _random_reads(iops: float):  # type: ignore[no-untyped-def]
    s = scenario(
        **{
            "workloads.0.iops": iops,
            "workloads.0.read_fraction": 1.0,
            "workloads.0.read_hit_ratio": 0.0,
            "workloads.0.capacity_gb": 8400,  # the 4 ranks' whole stroke
        }
    )
    return Solver(resolve(s, CATALOG))


@pytest.mark.parametrize("iops", [100.0, 1500.0, 3000.0, 4500.0])
def test_the_open_drive_wait_is_pollaczek_khinchine(iops: float) -> None:
    solver = _random_reads(iops)
    net = solver.network(solver.planned_rates())
    states = station_states(net, solver.planned_rates())
    d = solver.config.ranks[0].drive
    op = drive.random_op(d, 4 * KIB, 1.0, write=False)
    for info in net.ranks:
        k = info.station
        lam = float(states.arrival[k, 0])  # operations per second at one drive
        rho = lam * op.mean_s
        pollaczek_khinchine = lam * op.second_moment_s2 / (2 * (1 - rho))
        assert states.utilization[k, 0] == pytest.approx(rho, rel=1e-9)
        assert states.wait_s[k, 0] == pytest.approx(pollaczek_khinchine, rel=1e-9)
        scv = op.second_moment_s2 / op.mean_s**2 - 1
        assert net.scv[k] == pytest.approx(scv, rel=1e-9)
        assert 0.05 < scv < 0.3  # a 15K drive's seek + rotation: far from exponential


def test_waits_are_shorter_than_the_exponential_queues_and_the_closed_law_holds() -> None:
    """Every station's service is less variable than exponential (fixed adapter and processor
    costs, a drive's seek and rotation), so every wait is shorter than the product form's; in
    the closed solution N = X (R + Z) holds exactly and the throughput never passes the
    bottleneck's capacity."""
    solver = _random_reads(3000.0)
    net = solver.network(solver.planned_rates())
    assert np.all(net.scv < 1.0)
    assert np.all(net.wait_factor < 1.0)
    weights = np.array([1.0])
    for population in (1, 16, 64, 256, 1024):
        state = solve_closed(net, weights, population, 0.0, np.zeros(1))
        assert population == pytest.approx(state.throughput * state.response_s, rel=1e-9)
        busiest = float((state.throughput * net.work[0] / net.capacity).max())
        assert busiest <= 1.0 + 1e-9
