"""Tier results in the outputs: the tier sweep in the text, JSON and HTML reports, and the
per-tier MB/s share and utilisation in the JSON."""

from __future__ import annotations

import itertools
import json

from diskmodel import predict
from diskmodel.catalog import load_catalog
from diskmodel.report.html import render_html
from diskmodel.report.json_result import to_json
from diskmodel.report.text import render
from diskmodel.scenario import load_scenario
from tests.conftest import ROOT

CATALOG = load_catalog()
POOL = ROOT / "scenarios" / "ds8800-15k-pool.yaml"


def test_ssd_sweep_in_every_output() -> None:
    scenario = load_scenario(POOL)
    prediction = predict(scenario, catalog=CATALOG, base_dir=POOL.parent)
    sweep = prediction.tier_sweep
    assert [t.added for t in sweep] == [0, 1, 2, 4]
    # Each SSD rank added takes more of the small I/O, and never lowers the maximum (it may
    # leave it where another component, a DA pair, limits it; the maximum is searched to 1e-4).
    assert all(b.max_iops >= a.max_iops * (1 - 1e-4) for a, b in itertools.pairwise(sweep))
    assert sweep[-1].max_iops > sweep[0].max_iops
    assert all(b.tier_small_io_share > a.tier_small_io_share for a, b in itertools.pairwise(sweep))
    assert sweep[0].tier_small_io_share == 0.0

    data = json.loads(to_json(prediction))
    assert [t["added"] for t in data["tier_sweep"]] == [0, 1, 2, 4]
    assert data["tier_sweep"][2]["tier_small_io_share"] == sweep[2].tier_small_io_share
    tier = data["configurations"][0]["tiers"][0]
    assert set(tier) >= {"capacity_gb", "small_io_share", "mb_share", "utilization"}

    assert "Tier sweep" in render(prediction)
    html = render_html(prediction, timestamp=False)
    assert 'id="tier-sweep"' in html
    assert "+4" in html


def test_two_ssd_ranks_compare_with_the_pool_without_them() -> None:
    path = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
    configs = {p.name: p for p in predict(load_scenario(path), catalog=CATALOG).configurations}
    with_ssd = configs["DS8800 15K pool + 2 SSD ranks (OLTP, Easy Tier auto)"]
    without = configs["without the SSD ranks"]
    off = configs["SSD ranks, Easy Tier off"]
    assert with_ssd.max_iops > off.max_iops > without.max_iops
    assert with_ssd.response_time_ms is not None
    assert off.response_time_ms is not None
    assert with_ssd.response_time_ms < off.response_time_ms
