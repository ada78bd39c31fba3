"""The application above the storage (issue 12 item 1): users, think time, host CPU and I/Os
per transaction solved as one closed network with the storage."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.analyses import predict_scenario
from diskmodel.catalog import load_catalog
from diskmodel.components.host import concurrent_streams, customers, harmonic
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.model.application import TransactionState
from diskmodel.scenario import ScenarioError

from ..conftest import ROOT
from ..support.builders import BASE, with_data

REL = 1e-9


def _data(ios: float = 10.0, **application: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    w = data["workloads"][0]
    del w["iops"]
    w["ios_per_transaction"] = ios
    data["application"] = {"users": 50, "think_time_ms": 100, **application}
    return data


def _at(data: dict[str, Any], users: int | None = None) -> TransactionState:
    config = resolve(with_data(data), load_catalog())
    assert config.application is not None
    point = Solver(config).closed_point(users or config.application.users)
    assert point.transactions is not None
    return point.transactions


def test_streams_are_p_over_the_harmonic_number() -> None:
    assert concurrent_streams(1) == 1.0
    assert harmonic(4) == pytest.approx(25 / 12)
    assert concurrent_streams(4) == pytest.approx(4 / (25 / 12))
    assert customers(10, 4) == round(10 * 4 / (25 / 12))


@settings(max_examples=40)
@given(
    users=st.integers(1, 300),
    think_ms=st.floats(0, 2000),
    cpu_ms=st.floats(0, 50),
    cpus=st.integers(1, 32),
    ios=st.floats(0.5, 40),
    parallel=st.integers(1, 8),
)
def test_littles_law_and_the_split_hold_for_the_whole_loop(
    users: int, think_ms: float, cpu_ms: float, cpus: int, ios: float, parallel: int
) -> None:
    t = _at(
        _data(
            ios,
            users=users,
            think_time_ms=think_ms,
            cpu_ms_per_transaction=cpu_ms,
            cpus=cpus,
            parallel_ios=parallel,
        )
    )
    assert users == pytest.approx(t.transactions_per_s * (t.response_s + t.think_s), rel=1e-9)
    assert t.cpu_s + t.cpu_wait_s + t.storage_s == pytest.approx(t.response_s, rel=1e-9)
    assert t.storage_iops == pytest.approx(t.transactions_per_s * ios, rel=REL)
    # never above either bound
    if cpu_ms > 0:
        assert t.transactions_per_s <= cpus / (cpu_ms * 1e-3) * (1 + 1e-9)
        assert t.cpu_utilization == pytest.approx(t.transactions_per_s * cpu_ms * 1e-3 / cpus)
    if think_ms + cpu_ms > 0:
        assert t.transactions_per_s <= users / ((think_ms + cpu_ms) * 1e-3) * (1 + 1e-9)


def test_with_no_cpu_time_it_is_the_storage_only_closed_model() -> None:
    """Users who think Z between transactions of k I/Os, with no CPU time, load the storage as
    users who think Z / k between I/Os (product form: only the demand per cycle matters)."""
    app = _at(_data(8.0, users=40, think_time_ms=80))
    plain: dict[str, Any] = copy.deepcopy(BASE)
    w = plain["workloads"][0]
    del w["iops"]
    w.update(users=40, think_time_ms=10.0)
    config = resolve(with_data(plain), load_catalog())
    point = Solver(config).closed_point(40)
    assert point.closed is not None
    assert app.storage_iops == pytest.approx(point.closed.throughput, rel=1e-9)
    assert app.storage_response_s == pytest.approx(point.closed.response_s, rel=1e-9)


def test_with_storage_almost_free_the_rate_reaches_the_cpu_bound() -> None:
    t = _at(
        _data(0.001, users=2000, think_time_ms=0, cpu_ms_per_transaction=10, cpus=4), users=2000
    )
    assert t.transactions_per_s == pytest.approx(400.0, rel=1e-3)
    assert t.cpu_utilization == pytest.approx(1.0, abs=1e-3)


def test_the_rate_rises_with_users_and_levels_at_the_lower_bound() -> None:
    data = _data(10.0, think_time_ms=50, cpu_ms_per_transaction=2, cpus=8)
    rates = [_at(data, n) for n in (1, 5, 20, 80, 300, 1000)]
    tps = [t.transactions_per_s for t in rates]
    response = [t.response_s for t in rates]
    assert tps == sorted(tps)
    assert response == sorted(response)
    sp = predict_scenario(with_data(data), load_catalog())
    app = sp.baseline.application
    assert app is not None
    bound = min(app.storage_bound_tps, app.cpu_bound_tps or math.inf)
    assert tps[-1] <= bound * (1 + 1e-6)
    assert tps[-1] >= 0.9 * bound


@pytest.mark.parametrize("users", [20, 100, 500])
def test_a_storage_upgrade_never_lowers_the_transaction_rate(users: int) -> None:
    data = _data(20.0, users=users, think_time_ms=200, cpu_ms_per_transaction=4, cpus=16)
    smaller = _at(data)
    data["pools"][0]["ranks"][0]["count"] = 8
    data["workloads"][0]["capacity_gb"] = 4000
    bigger = _at(data)
    assert bigger.transactions_per_s >= smaller.transactions_per_s * (1 - 1e-9)
    assert bigger.storage_response_s <= smaller.storage_response_s * (1 + 1e-9)


def test_parallel_ios_shorten_a_transaction_at_light_load() -> None:
    one = _at(_data(16.0, users=1, think_time_ms=100, cpu_ms_per_transaction=2))
    four = _at(_data(16.0, users=1, think_time_ms=100, cpu_ms_per_transaction=2, parallel_ios=4))
    assert four.storage_s < one.storage_s
    # The CPU time is not overlapped by the streams.
    assert four.cpu_s + four.cpu_wait_s == pytest.approx(0.002, rel=0.05)


def test_the_shipped_application_scenarios_and_their_report() -> None:
    from diskmodel.analyses import compare_scenarios
    from diskmodel.api import load_scenario, render_html, to_json
    from diskmodel.report.table import Output
    from diskmodel.report.text import render

    names = ("", "-hdd", "-cpu-bound")
    paths = [ROOT / "scenarios" / f"ds8800-oltp-application{n}.yaml" for n in names]
    sp = compare_scenarios([(load_scenario(p), p.parent) for p in paths], load_catalog())
    base, no_ssd, cpu_bound = (p.application for p in sp.configurations)
    assert base is not None
    assert no_ssd is not None
    assert cpu_bound is not None
    assert base.limited_by == "storage"
    assert cpu_bound.limited_by == "host CPU"
    assert base.at.transactions_per_s > no_ssd.at.transactions_per_s
    assert cpu_bound.at.cpu_utilization > 0.99
    text = " ".join(render(sp, Output(terminal=False, width=200)).split())
    assert "application order entry (500 users" in text
    assert "Comparison at 500 users" in text
    html = render_html(sp)
    assert "chart-application" in html
    assert "The application at its planned users" in html
    assert '"transactions_per_s"' in to_json(sp)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"drop": "application"}, "has no 'application' section"),
        ({"workload": {"iops": 100}}, "give either 'ios_per_transaction'"),
        ({"second": {"queue_depth": 8}}, "closed (queue_depth, luns or users) beside the"),
        ({"application": {"users": 0}}, "users"),
    ],
)
def test_bad_application_input_gets_one_clear_message(change: dict[str, Any], message: str) -> None:
    data = _data()
    if "drop" in change:
        del data["application"]
    if "workload" in change:
        data["workloads"][0].update(change["workload"])
    if "second" in change:
        other = copy.deepcopy(BASE["workloads"][0])
        del other["iops"]
        other.update(name="batch", capacity_gb=100, **change["second"])
        data["workloads"].append(other)
    if "application" in change:
        data["application"].update(change["application"])
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert message in str(caught.value)


def test_an_application_without_workloads_is_refused() -> None:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["application"] = {"users": 5}
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert "no workload gives ios_per_transaction" in str(caught.value)
