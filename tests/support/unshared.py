"""Every store shared between configurations turned off, for tests that compare what a
shared solve gives with what the same solve gives alone, to the bit."""

from __future__ import annotations

import pytest

from diskmodel.configuration import Configuration
from diskmodel.model import operating
from diskmodel.model.costs import OpCosts
from diskmodel.model.layout import Placements
from diskmodel.model.network_build import NetworkBuilder, _sums_of_host_flows


def share_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """No store at all: every solver its own builds and layouts, the host sums and the
    workloads' flows made anew."""

    def own(config: Configuration) -> operating.Builds:
        costs = OpCosts(config)
        return operating.Builds(costs, NetworkBuilder(config, costs))

    monkeypatch.setattr(operating, "builds_for", own)
    monkeypatch.setattr(operating, "placements_for", lambda config, costs: Placements())
    monkeypatch.setattr(
        NetworkBuilder,
        "_kept_workload_flows",
        lambda self, w, pool_layout, pool_ranks, ranks_key: self._workload_flows(
            w, pool_layout, pool_ranks
        ),
    )
    monkeypatch.setattr(
        NetworkBuilder,
        "_host_sums",
        lambda self, active: _sums_of_host_flows(self, active),
    )
