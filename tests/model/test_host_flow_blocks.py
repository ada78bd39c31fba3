"""The host ports' and cards' flows made as blocks of arrays (`NetworkBuilder._host_columns`,
issue 30 item 4) are the flows made one by one (`_host_flows`), column for column and bit for
bit, on every shipped scenario that takes that path (no z/OS workload, no Metro Mirror)."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve_scenario
from diskmodel.model.network_build import NetworkBuilder
from diskmodel.scenario import load_scenario

from ..conftest import ROOT

SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_host_flows_made_as_blocks_are_the_flows_made_one_by_one(path: Path) -> None:
    catalog = load_catalog()
    checked = 0
    for config in resolve_scenario(load_scenario(path), catalog, path.parent):
        builder = NetworkBuilder(config)
        if config.hardware.ficon is not None or builder._mirror is not None:
            continue
        everyone = tuple(range(len(config.workloads)))
        for active in (everyone, everyone[:1], everyone[1:]):
            blocks = builder._host_columns(active)
            one_by_one = builder._host_flows(active).columns()
            for ours, theirs in zip(blocks, one_by_one, strict=True):
                assert ours.dtype == theirs.dtype
                assert ours.tobytes() == theirs.tobytes()
        checked += 1
    if checked == 0:
        pytest.skip("z/OS or Metro Mirror: the flows are made one by one")
