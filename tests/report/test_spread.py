"""SSD ranks over the DA pairs and servers: one verdict in `check`, the report and the tier
sweep (issue 31 item 4).

Before: three SSD ranks split 2/1 got a green "SSD ranks balanced" in the report (it looked
only at the servers, and only for a difference above one) while `check` and the sweep table
showed 2/1; the sweep's zig-zag had no explanation and dealt its ranks round-robin.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from diskmodel.analyses import predict_scenario
from diskmodel.api import load_scenario
from diskmodel.cli import app
from diskmodel.report import spread
from diskmodel.report.html import render_html

from ..conftest import ROOT, SCENARIOS
from ..support.builders import with_data
from ..support.shipped import predicted

TWO_SSD = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"


def _three_ssd(tmp_path: Path) -> Path:
    text = TWO_SSD.read_text(encoding="utf-8").replace(
        "{drive: ssd-300, raid: raid5-6+p+s, count: 2}",
        "{drive: ssd-300, raid: raid5-6+p+s, count: 3}",
    )
    path = tmp_path / "three-ssd.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _check_verdicts(path: Path) -> dict[str, str]:
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # the lines as wrapped, joined again
    found = re.findall(r"SSD ranks of pool (\S+): \d+, (.*?); placement", text)
    return dict(found)


def test_three_ssd_ranks_split_2_1_are_uneven_in_check_and_the_report(tmp_path: Path) -> None:
    path = _three_ssd(tmp_path)
    assert _check_verdicts(path) == {
        "oltp": "NOT spread evenly (DA pairs 2/1, servers 2/1): the DA pair and server "
        "holding more carry more of the hot I/O"
    }
    prediction = predicted(path)
    assert spread.uneven_ssd(prediction.baseline) == [("oltp", 3, "DA pairs 2/1, servers 2/1")]
    html = render_html(prediction, timestamp=False)
    assert "its 3 SSD ranks are not spread evenly (DA pairs 2/1, servers 2/1)" in html
    assert "SSD ranks spread evenly" not in html
    assert "balanced across the servers" not in html  # the old green banner


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_check_and_the_report_judge_every_shipped_scenario_alike(path: Path) -> None:
    verdicts = _check_verdicts(path)
    baseline = predicted(path).baseline
    judged = {pool: text for pool, _, text in spread.uneven_ssd(baseline)}
    assert set(verdicts) == {pool for pool, _, _ in spread.ssd_spread(baseline)}
    for pool, verdict in verdicts.items():
        if pool in judged:
            assert verdict.startswith(f"NOT spread evenly ({judged[pool]})")
        else:
            assert verdict.startswith("spread evenly")


def _alternating_with_sweep() -> dict[str, Any]:
    """SSD and 15K groups alternating in the file: round-robin would put both SSD ranks on
    DA pair 0."""
    data = load_scenario(TWO_SSD).model_dump(mode="python")
    data = copy.deepcopy(data)
    ranks = [
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 1},
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 15},
    ]
    data["pools"][0]["ranks"] = ranks
    data["analyses"] = {
        "curve": {"points": 12},
        "tier_sweep": {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": [0, 1]},
    }
    return data


def test_the_tier_sweep_places_its_ranks_balanced_and_says_so() -> None:
    scenario = with_data(_alternating_with_sweep())
    prediction = predict_scenario(scenario)
    assert spread.uneven_ssd(prediction.baseline) == [("oltp", 2, "DA pairs 2/0, servers 2/0")]
    plus0, plus1 = prediction.tier_sweep
    assert plus0.da_pair_spread == (1, 1)  # re-placed balanced
    assert plus1.da_pair_spread in {(2, 1), (1, 2)}
    html = render_html(prediction, timestamp=False)
    assert "places its ranks with system.rank_placement: balanced" in html
    chart = html[html.index('id="chart-sweep"') :]
    assert f"uneven {spread.counts_text(plus1.da_pair_spread)}" in chart
    assert "ringed and labelled" in chart
