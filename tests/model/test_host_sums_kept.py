"""The host ports' and cards' sums are kept over those stations alone, the first of every
network's (each network adds them into its own sums, `_FlowSums.with_host`): configurations
that differ only in their DA pairs and ranks (a sizing search's back ends) make them once, and
they are, to the bit, the ones each builder sums on its own over all its stations, whose
other cells are 0.0."""

from __future__ import annotations

import numpy as np

from diskmodel.analyses.size import _jobs
from diskmodel.analyses.size_try import sized_configuration, sizing_context
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.model import network_build
from diskmodel.model.layout import forget_placements
from diskmodel.model.network_build import NetworkBuilder, _kept_host_sums, _sums_of_host_flows

from ..conftest import ROOT

GROWTH = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"


def _bits(value: object) -> object:
    if isinstance(value, tuple):
        return tuple(_bits(v) for v in value)
    assert isinstance(value, np.ndarray)
    return (value.shape, value.dtype.str, value.tobytes())


def _parts(value: object) -> tuple[np.ndarray, ...]:
    return value if isinstance(value, tuple) else (value,)  # type: ignore[return-value]


def test_configurations_with_other_ranks_share_the_host_sums_to_the_bit() -> None:
    catalog = load_catalog()
    scenario = load_scenario(GROWTH, catalog).corner("central")
    context = sizing_context(scenario, catalog, GROWTH.parent)
    assert scenario.analyses.size is not None
    _, variants = _jobs(scenario, catalog, scenario.analyses.size.prices)
    configs = [sized_configuration(v, context) for v in variants if not isinstance(v, str)]
    forget_placements()
    widths = set()
    for config in configs:
        builder = NetworkBuilder(config)
        active = tuple(range(len(config.workloads)))
        kept = _kept_host_sums(builder, active)
        own = _sums_of_host_flows(builder, active)
        widths.add(len(builder._stations))
        front = builder._host_stations
        assert _bits(kept.codes) == _bits(own.codes)
        for name in ("cells", "station", "visits", "service"):
            mine, whole = _parts(getattr(kept, name)), _parts(getattr(own, name))
            for a, b in zip(mine, whole, strict=True):
                assert _bits(a) == _bits(np.ascontiguousarray(b[..., :front])), name
                assert not b[..., front:].any(), name  # the ranks': no host flow there
    # Ranks 12-24 and 2 or 4 DA pairs: many widths, one host side made once.
    assert len(widths) > 5
    assert len(network_build._host_sums) == 1
