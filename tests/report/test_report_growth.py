"""Growth in the reports (issue 14): periods named, the first one that breaks the service level."""

from __future__ import annotations

import copy
from typing import Any

from diskmodel.analyses import predict_scenario
from diskmodel.catalog import load_catalog
from diskmodel.report.html import build_report
from diskmodel.report.text import render
from tests.support.builders import BASE, with_data


def test_growth_names_its_periods_and_the_first_one_that_breaks() -> None:
    """Issue 14: compound growth is reported by period, with the period that first breaks the
    service level and the limit that breaks."""
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["analyses"] = {"growth": {"rate": 0.5, "per": "quarter", "periods": 6}}
    sp = predict_scenario(with_data(data), load_catalog())
    growth = sp.baseline.growth
    assert [g.label for g in growth] == [f"quarter {k}" for k in range(1, 7)]
    first = next(g for g in growth if not g.meets_service_level)
    assert all(g.meets_service_level for g in growth[: growth.index(first)])
    text = " ".join(render(sp).split())
    assert f"first breaks at {first.label} ({first.factor:.3g}x the load)" in text
    report = build_report(sp, generated="")
    note = next(t.note for t in report.tables if t.key == "growth")
    assert f"first broken at {first.label}" in note


def test_an_uneven_spread_over_da_pairs_is_named_in_the_tier_sweep() -> None:
    """Issue 14: an odd SSD-rank count put the extra rank on one DA pair and lowered the
    maximum with nothing in the table saying why."""
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["easy_tier"] = "auto"
    data["analyses"] = {
        "tier_sweep": {"pool": "p", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": [2, 3]}
    }
    sp = predict_scenario(with_data(data), load_catalog())
    two, three = sp.tier_sweep
    assert two.da_pair_spread == (1, 1)
    assert three.da_pair_spread == (2, 1)
    text = " ".join(render(sp).split())
    assert "(uneven: DA pairs 2/1)" in text
    table = next(t for t in build_report(sp, generated="").tables if t.key == "tier-sweep")
    assert table.rows[1].cells[-1].text == "uneven: DA pairs 2/1"
    assert table.rows[0].cells[-1].text == ""
