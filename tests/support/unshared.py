"""Every store shared between configurations turned off, for tests that compare what a
shared solve gives with what the same solve gives alone, to the bit."""

from __future__ import annotations

import pytest

from diskmodel.configuration import Configuration
from diskmodel.model import costs as costs_module
from diskmodel.model import layout as layout_module
from diskmodel.model import network_build, operating
from diskmodel.model.costs import CostInputs, OpCosts, _CostMemo
from diskmodel.model.layout import Placements
from diskmodel.model.network_build import NetworkBuilder, _sums_of_host_flows
from diskmodel.tiering import placement as placement_module
from diskmodel.tiering.placement import PoolPlacer


def share_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """No store at all: every solver its own builds and layouts, its own operation costs'
    memo, drive gains and Easy Tier placers, the host sums and the workloads' flows made anew,
    every network built (none made from a DA pair variant's)."""

    def own_memo(
        inputs: CostInputs, workloads: tuple[tuple[object, ...], ...], config: Configuration
    ) -> _CostMemo:
        memo = _CostMemo()
        memo.takes(config.ranks)
        return memo

    def own_placer(workloads: object, *, easy_tier: bool) -> PoolPlacer:
        return PoolPlacer(workloads, easy_tier=easy_tier)  # type: ignore[arg-type]

    monkeypatch.setattr(costs_module, "_memo_for", own_memo)
    monkeypatch.setattr(costs_module, "_kept_gain", costs_module.drive_gain)
    monkeypatch.setattr(layout_module, "placer_for", own_placer)
    monkeypatch.setattr(placement_module, "placer_for", own_placer)

    def own(config: Configuration) -> operating.Builds:
        costs = OpCosts(config)
        return operating.Builds(costs, NetworkBuilder(config, costs))

    monkeypatch.setattr(operating, "builds_for", own)
    monkeypatch.setattr(operating, "placements_for", lambda config, costs: Placements())
    monkeypatch.setattr(
        NetworkBuilder,
        "_kept_workload_flows",
        lambda self, w, pool_layout, pool_ranks: self._workload_flows(w, pool_layout, pool_ranks),
    )
    monkeypatch.setattr(
        NetworkBuilder,
        "_host_sums",
        lambda self, active: _sums_of_host_flows(self, active),
    )
    monkeypatch.setattr(network_build, "_da_pair_variants", lambda builder: None)
