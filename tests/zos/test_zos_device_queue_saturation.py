"""Where the device queues (IOSQ) saturate: the busiest queue's utilisation is arrivals x time
below z/OS / servers, IOSQ has a steady state exactly while it is below 1, and with few aliases
that happens long before any station saturates (shipped alias sweep, no PAV: about 22,500 I/O/s
against the ranks' 68,800)."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.analyses.predict import begin
from diskmodel.api.predicting import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model import Solver
from diskmodel.model.device_queue import busiest_device_queue
from diskmodel.model.results import workloads
from diskmodel.model.saturation import station_load

from ..conftest import ROOT
from .zos_builders import zos_config

SWEEP = ROOT / "scenarios" / "ds8800-zos-alias-sweep.yaml"


def sweep(name: str) -> Configuration:
    catalog = load_catalog()
    return resolve(dict(load_scenario(SWEEP, catalog).alternatives(catalog))[name], catalog)


def busiest_at(config: Configuration, total: float) -> float:
    """The busiest device queue's utilisation at `total` I/O/s of the planned mix, the time
    below z/OS read back from the workloads' RMF components (response less IOSQ)."""
    solver = Solver(config)
    rates = solver.planned_rates() / solver.planned_rates().sum() * total
    below = []
    for w in workloads(solver.open_point(rates)):
        assert w.rmf is not None
        assert w.response_time_ms is not None
        below.append((w.response_time_ms - (w.rmf.iosq_ms or 0.0)) * 1e-3)
    return float(busiest_device_queue(config, rates[:, None], np.array(below)[:, None])[0])


def steady_up_to(config: Configuration, top: float) -> float:
    """The highest total rate (of the planned mix) with a finite response, by halving."""
    solver = Solver(config)
    unit = solver.planned_rates() / solver.planned_rates().sum()
    lo, hi = 1.0, top
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if np.isfinite(solver.open_point(unit * mid).response_s):
            lo = mid
        else:
            hi = mid
    return lo


@pytest.mark.parametrize(
    ("pav", "aliases", "per_server"),
    [
        ("none", 0, 4000 / 8),  # 8 volumes at 500 I/O/s, one I/O at a time each
        ("static", 12, 4000 / 8 / 2),  # 12 aliases over 8 volumes: the busiest have 1
        ("hyperpav", 4, 4000 / 12),  # one pool of 8 bases and 4 aliases
    ],
)
def test_the_busiest_device_queue_is_arrivals_times_service_over_servers(
    pav: str, aliases: int, per_server: float
) -> None:
    config = zos_config(**{"system.lcus.0.pav": pav, "system.lcus.0.aliases": aliases})
    (w,) = workloads(Solver(config).open_point(Solver(config).planned_rates()))
    assert w.rmf is not None
    assert w.response_time_ms is not None
    below_s = (w.response_time_ms - (w.rmf.iosq_ms or 0.0)) * 1e-3
    assert busiest_at(config, 4000.0) == pytest.approx(per_server * below_s, rel=1e-9)


@pytest.mark.parametrize(
    "name", ["DS8800 z/OS alias-count sweep (16 EAV volumes, 16,000 I/O/s)", "HyperPAV, 8 aliases"]
)
def test_iosq_has_a_steady_state_exactly_while_the_busiest_device_queue_is_below_1(
    name: str,
) -> None:
    config = sweep(name)
    solver = Solver(config)
    unit = solver.planned_rates() / solver.planned_rates().sum()
    stations_max, _ = station_load(solver.network, unit, solver.follows_load)
    edge = steady_up_to(config, stations_max)
    # With few aliases the device queues saturate far below the stations' maximum, and the
    # maximum is where they do.
    assert edge < 0.6 * stations_max
    assert begin(config).maximum == pytest.approx(edge, rel=1e-3)
    # Just below the edge the busiest queue is at 1 (to the read-back of the time below
    # z/OS as response less an IOSQ near infinite), and well below it, below 1.
    assert busiest_at(config, edge * (1 - 1e-9)) == pytest.approx(1.0, abs=1e-6)
    assert busiest_at(config, edge * 0.99) < 0.995


def test_the_maximum_stops_where_a_device_queue_saturates() -> None:
    config = sweep("DS8800 z/OS alias-count sweep (16 EAV volumes, 16,000 I/O/s)")
    maximum = begin(config).maximum
    assert maximum == pytest.approx(steady_up_to(config, maximum), rel=1e-3)


@pytest.mark.parametrize(
    "name", ["DS8800 z/OS alias-count sweep (16 EAV volumes, 16,000 I/O/s)", "HyperPAV, 8 aliases"]
)
def test_a_load_is_carried_exactly_below_a_device_queue_maximum(name: str) -> None:
    # The catalog band's screen asks `carries` whether a figure moves the maximum: where a
    # device queue sets it, the stations alone would carry loads past it.
    begun = begin(sweep(name))
    solver = Solver(begun.solver.config)
    assert solver.carries(begun.unit, begun.maximum * (1 - 1e-3))
    assert not solver.carries(begun.unit, begun.maximum * (1 + 1e-3))


def test_past_the_device_queue_maximum_only_iosq_is_unknown() -> None:
    # No PAV: the device queues saturate at about 22,500 I/O/s, the storage at 68,800.
    config = sweep("DS8800 z/OS alias-count sweep (16 EAV volumes, 16,000 I/O/s)")
    begun = begin(config)
    solver = Solver(config)
    (w,) = workloads(solver.open_point(begun.unit * begun.maximum * 1.2))
    assert w.rmf is not None
    assert w.response_time_ms is None
    assert w.rmf.iosq_ms is None
    below = (w.rmf.pend_ms, w.rmf.disc_ms, w.rmf.conn_ms)
    assert all(v is not None and 0 < v < 50 for v in below)
    # Below the maximum the four add up to the response time, as before.
    (w,) = workloads(solver.open_point(begun.unit * begun.maximum * 0.9))
    assert w.rmf is not None
    assert w.response_time_ms is not None
    parts = (w.rmf.iosq_ms, w.rmf.pend_ms, w.rmf.disc_ms, w.rmf.conn_ms)
    assert sum(p or 0.0 for p in parts) == pytest.approx(w.response_time_ms, rel=1e-12)
