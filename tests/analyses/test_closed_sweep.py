"""A closed system's sweep reaches past its population (issue 31 item 8): it stopped at the
population, so "what if the queue depth doubles" needed a second scenario file."""

from __future__ import annotations

from diskmodel.api import load_scenario, predict
from diskmodel.report.html import render_html

from ..conftest import ROOT


def test_the_closed_sweep_goes_to_twice_the_population_and_holds_it() -> None:
    path = ROOT / "scenarios" / "ds8800-c3-baseline.yaml"
    prediction = predict(load_scenario(path), base_dir=path.parent)
    closed = prediction.baseline.closed
    assert closed is not None
    populations = [p.population for p in closed.curve]
    assert populations == sorted(set(populations))
    assert populations[0] == 1
    assert populations[-1] == 2 * closed.population
    at = next(p for p in closed.curve if p.population == closed.population)
    assert at.iops == closed.iops  # the planned population's own solution, on the sweep
    doubled = closed.curve[-1]
    assert doubled.iops > at.iops
    assert doubled.response_time_ms > at.response_time_ms
    assert "up to twice the scenario" in render_html(prediction, timestamp=False)
