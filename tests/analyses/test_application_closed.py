"""The application result's `closed` block keeps the Little's law docs/json-schema.md states
for every closed block, population / iops - think time = response time (issue 33 item 8).

It gave the users' think time per transaction (200 ms) beside the storage's rate and response
per I/O: -189 ms by that law on the shipped OLTP application, against 0.715 ms. The numbers
were wrong, not the law: the block is the storage's closed network as solved, whose customers
(the users' I/O streams) spend the think time and the host CPU, spread over their I/Os,
outside the storage between two I/Os."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.api import to_json
from diskmodel.components.host import customers
from diskmodel.prediction import Prediction
from tests.support.builders import BASE, predict_one, with_data

from ..conftest import ROOT
from ..support.shipped import predicted

APPLICATIONS = sorted((ROOT / "scenarios").glob("ds8800-oltp-application*.yaml"))
REL = 1e-9


def _littles_law_holds(closed: dict[str, Any]) -> None:
    cycle_ms = closed["population"] / closed["iops"] * 1000.0
    assert cycle_ms - closed["think_time_ms"] == pytest.approx(closed["response_time_ms"], rel=REL)
    assert closed["think_time_ms"] >= 0


@pytest.mark.parametrize("path", APPLICATIONS, ids=lambda p: p.stem)
def test_the_json_closed_block_of_a_shipped_application_keeps_littles_law(path: Path) -> None:
    assert APPLICATIONS
    result = json.loads(to_json(predicted(path)))
    for configuration in result["configurations"]:
        _littles_law_holds(configuration["closed"])


def test_one_io_at_a_time_the_population_is_the_users_and_the_think_time_per_io() -> None:
    """With one I/O in flight per user, the customers are the users, and each spends its
    think time and its transaction's CPU time (waits included) per I/O outside the storage."""
    path = ROOT / "scenarios" / "ds8800-oltp-application.yaml"
    p = predicted(path).configurations[0]
    assert p.closed is not None
    assert p.application is not None
    app = p.application
    assert p.closed.population == app.users
    outside_ms = app.think_time_ms + app.at.cpu_ms + app.at.cpu_wait_ms
    assert p.closed.think_time_ms == pytest.approx(outside_ms / app.ios_per_transaction, rel=REL)
    assert p.closed.iops == app.at.storage_iops
    assert p.closed.response_time_ms == app.at.storage_response_time_ms
    assert [c.population for c in p.closed.curve] == [t.users for t in app.curve]


def _application(parallel: int, users: int, think_ms: float, cpu_ms: float) -> Prediction:
    data: dict[str, Any] = copy.deepcopy(BASE)
    workload = data["workloads"][0]
    del workload["iops"]
    workload["ios_per_transaction"] = 10.0
    data["application"] = {
        "users": users,
        "think_time_ms": think_ms,
        "cpu_ms_per_transaction": cpu_ms,
        "cpus": 4,
        "parallel_ios": parallel,
    }
    data["analyses"] = {"curve": {"points": 4}}
    return predict_one(with_data(data))


@settings(max_examples=12, deadline=None)
@given(
    parallel=st.integers(1, 8),
    users=st.integers(1, 400),
    think_ms=st.floats(0, 500),
    cpu_ms=st.floats(0, 20),
)
def test_littles_law_holds_with_parallel_ios_and_any_think_time(
    parallel: int, users: int, think_ms: float, cpu_ms: float
) -> None:
    """With p I/Os at once a user counts p / H_p streams; the law holds with a think time
    that is never negative (keeping the users as the population, it would have to be)."""
    p = _application(parallel, users, think_ms, cpu_ms)
    assert p.closed is not None
    assert p.closed.population == customers(users, parallel)
    _littles_law_holds(
        {
            "population": p.closed.population,
            "iops": p.closed.iops,
            "think_time_ms": p.closed.think_time_ms,
            "response_time_ms": p.closed.response_time_ms,
        }
    )
