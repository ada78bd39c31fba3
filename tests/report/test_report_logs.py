"""The logs in the text summary and the HTML report: what a DBA reads to decide on striping."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel.analyses import predict_scenario
from diskmodel.catalog import load_catalog
from diskmodel.prediction import ScenarioPrediction
from diskmodel.report.html import build_report
from diskmodel.report.table import Output
from diskmodel.report.text import render
from tests.support.builders import BASE, with_data


@pytest.fixture(scope="module")
def striped_oltp_log() -> ScenarioPrediction:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["logs"] = [
        {
            "name": "db2log",
            "pool": "p",
            "commit_rate": 1500,
            "pages_per_commit": {1: 0.7, 2: 0.3},
            "stripes": 4,
        }
    ]
    data["analyses"] = {"compare": [{"name": "unstriped", "set": {"logs.db2log.stripes": 1}}]}
    return predict_scenario(with_data(data), load_catalog())


def test_the_text_summary_gives_each_logs_commit_time(striped_oltp_log: ScenarioPrediction) -> None:
    text = " ".join(render(striped_oltp_log).split())
    log = striped_oltp_log.baseline.logs[0]
    assert log.commit_time_us is not None
    assert f"mean commit {log.commit_time_us:,.0f} us" in text
    assert "fastest with 1 stripe" in text
    assert "Log db2log: mean commit time at the planned load" in text


def test_the_report_warns_of_a_stripe_count_that_commits_slower(
    striped_oltp_log: ScenarioPrediction,
) -> None:
    report = build_report(striped_oltp_log, generated="")
    warned = [a.text for a in report.alerts if "log db2log" in a.text]
    assert len(warned) == 1  # the baseline's 4 stripes; the unstriped alternative is fastest
    assert "with 1 stripe it would take" in warned[0]
    keys = [t.key for t in report.tables]
    assert "logs" in keys
    assert "log-db2log" in keys
    logs = next(t for t in report.tables if t.key == "logs")
    stripes = next(r for r in logs.rows if r.header == "db2log: stripes (I/Os per commit)")
    assert [c.text for c in stripes.cells] == ["4 (1.30)", "1 (1.00)"]


def test_a_workload_without_reads_shows_no_read_time(striped_oltp_log: ScenarioPrediction) -> None:
    text = render(striped_oltp_log, Output(terminal=False, width=200))
    line = next(ln for ln in text.splitlines() if ln.startswith("db2log"))
    assert "saturated" not in line
