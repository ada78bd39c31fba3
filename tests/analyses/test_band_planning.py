"""The band's planning maximum at each corner (`planning_max_iops`) continues the calls a
whole prediction begins with only as far as that figure needs; it must be the figure the whole
prediction reports, to the bit: the same curve points, solved together as the whole curve
solves them, and the same searches."""

from __future__ import annotations

from pathlib import Path

import pytest

import diskmodel
from diskmodel.analyses.predict import begin, planning_max_iops, predict_configuration
from diskmodel.configuration import Configuration, resolve, resolve_scenario
from diskmodel.scenario.files import scenario_catalog

from ..conftest import SCENARIOS

# Easy Tier placing for each load, and not; a ceiling that never binds before saturation
# (c5's pool before its ranks are added); a closed application; ranges (the band's corners).
_NAMES = (
    "c5-auto-rebalance.yaml",
    "ds8700-c3-baseline.yaml",
    "ds8800-15k-plus-2-ssd.yaml",
    "ds8800-oltp-application-hdd.yaml",
    "ds8800-measured-peaks.yaml",
)


def _configurations(path: Path) -> list[Configuration]:
    scenario = diskmodel.load_scenario(path)
    catalog = scenario_catalog(scenario.catalog, path.parent, None)
    configs = list(resolve_scenario(scenario, catalog, path.parent))
    if scenario.ranges:
        configs += [
            resolve(scenario.corner(which, {}), catalog, path.parent, name=which)
            for which in ("pessimistic", "optimistic")
        ]
    return configs


@pytest.mark.parametrize("path", [p for p in SCENARIOS if p.name in _NAMES], ids=lambda p: p.stem)
def test_the_planning_maximum_is_the_whole_predictions(path: Path) -> None:
    for config in _configurations(path):
        whole = predict_configuration(config).service_level.max_iops
        assert planning_max_iops(begin(config)) == whole, config.name
