"""Database logs in a scenario (issue 15): their writes load the storage model, and their commit
time is computed at the waits that load causes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from diskmodel.analyses import predict_scenario
from diskmodel.catalog import load_catalog
from diskmodel.prediction import ScenarioPrediction
from diskmodel.report.json_result import to_json
from diskmodel.scenario import ScenarioError

from ..support.builders import BASE, predict_one, with_data

LOG: dict[str, Any] = {
    "name": "db2log",
    "pool": "p",
    "commit_rate": 2000,
    "pages_per_commit": {1: 0.6, 4: 0.3, 32: 0.1},
}


def _data(**log: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["logs"] = [{**LOG, **log}]
    return data


def test_the_log_is_a_sequential_write_workload_of_its_commits() -> None:
    s = with_data(_data(stripes=2))
    log = s.logs[0]
    w = s.model_workloads[-1]
    assert (w.name, w.pool) == ("db2log", "p")
    ios = 0.6 * 1 + 0.3 * 2 + 0.1 * 2  # a stripe with no page is not written
    assert log.ios_per_commit() == pytest.approx(ios)
    assert w.iops == pytest.approx(2000 * ios)
    assert (w.read_fraction, w.write_sequential_fraction) == (0, 1)
    assert w.write_size_kib == pytest.approx((0.6 + 1.2 + 3.2) * 4 / ios)


def test_a_busy_log_shows_in_the_other_workloads_results() -> None:
    without = predict_one(with_data(copy.deepcopy(BASE)))
    with_log = predict_one(with_data(_data(commit_rate=20000)))
    oltp = [next(w for w in p.workloads if w.name == "oltp") for p in (without, with_log)]
    assert oltp[1].response_time_ms > oltp[0].response_time_ms  # type: ignore[operator]
    ports = [
        max(c.utilization for c in p.components if c.kind == "host_adapter")
        for p in (without, with_log)
    ]
    assert ports[1] > ports[0]
    assert "db2log" in {w.name for w in with_log.workloads}


@pytest.mark.parametrize("rate", [100.0, 2000.0, 20000.0])
def test_contention_never_shortens_a_commit(rate: float) -> None:
    log = predict_one(with_data(_data(commit_rate=rate))).logs[0]
    assert log.commit_time_us is not None
    assert log.commit_time_us >= log.commit_time_idle_us
    assert log.mean_commit_us is not None
    for busy, idle in zip(log.mean_commit_us, log.mean_commit_idle_us, strict=True):
        assert busy >= idle
    for row in log.table:
        assert row.busy_us is not None
        assert all(b >= i for b, i in zip(row.busy_us, row.idle_us, strict=True))


def test_more_other_work_lengthens_the_commit() -> None:
    times = []
    for iops in (500, 2000, 4000):
        data = _data()
        data["workloads"][0]["iops"] = iops
        log = predict_one(with_data(data)).logs[0]
        assert log.commit_time_us is not None
        times.append(log.commit_time_us)
    assert times[0] < times[1] < times[2]


def test_commit_time_never_falls_as_pages_grow() -> None:
    log = predict_one(with_data(_data())).logs[0]
    for k in range(len(log.stripe_counts)):
        idle = [row.idle_us[k] for row in log.table]
        assert idle == sorted(idle)


def test_the_fastest_stripe_count_is_the_shortest_mean() -> None:
    log = predict_one(with_data(_data(stripes=4))).logs[0]
    assert log.mean_commit_us is not None
    assert log.best_stripes == log.stripe_counts[log.mean_commit_us.index(min(log.mean_commit_us))]
    # Mostly 1-page commits: four serial starts cost more than the transfer they save.
    assert log.best_stripes == 1
    assert log.commit_time_us == pytest.approx(log.mean_commit_us[log.stripe_counts.index(4)])


def test_a_saturated_system_gives_no_commit_time() -> None:
    """Past saturation there is no steady state: the back end cannot destage the writes, NVS
    fills and a log write waits for destages without bound."""
    data = _data()
    data["workloads"][0]["iops"] = 10_000_000 / 10
    p = predict_one(with_data(data))
    assert p.saturated
    log = p.logs[0]
    assert (log.saturated, log.commit_time_us, log.writer_busy) == (True, None, None)
    payload = json.loads(to_json(ScenarioPrediction("s", "", p)))
    assert payload["configurations"][0]["logs"][0]["commit_time_us"] is None


def test_an_alternative_can_stripe_the_log() -> None:
    data = _data()
    data["analyses"] = {"compare": [{"name": "striped", "set": {"logs.db2log.stripes": 4}}]}
    sp = predict_scenario(with_data(data), load_catalog())
    assert [p.logs[0].stripes for p in sp.configurations] == [1, 4]
    base, striped = (next(w for w in p.workloads if w.name == "db2log") for p in sp.configurations)
    assert striped.iops > base.iops  # more I/Os per commit


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pool": "nope"}, "logs[0].pool: no pool named 'nope'"),
        ({"name": "oltp"}, "the name 'oltp' is used by 2 workloads and logs"),
        ({"pages_per_commit": {1: 0.5, 4: 0.3}}, "the shares add up to 0.8, not 1"),
        ({"pages_per_commit": 0}, "pages_per_commit: 0 pages"),
        ({"pages_per_commit": 4096, "page_kib": 8}, "one I/O carries at most 16,384 KiB"),
        ({"capacity_gb": 1e6}, "the workloads in pool 'p' need"),
    ],
)
def test_bad_logs_get_one_clear_message(change: dict[str, Any], message: str) -> None:
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(_data(**change))
    assert message in str(caught.value)


@pytest.mark.parametrize("pages", [1, 4, 32, 128])
def test_one_stripe_is_the_storage_models_own_write(pages: int) -> None:
    """k = 1 is the plain single I/O: at light load the storage model's write of the log's
    pages (ports, server, the front end's fixed time and the copy into cache and NVS) takes
    what the log-write model says a one-stripe commit takes."""
    data = _data(commit_rate=1, pages_per_commit=pages)
    data["workloads"][0]["iops"] = 1  # no other work to wait for
    p = predict_one(with_data(data))
    log = p.logs[0]
    write = next(w for w in p.workloads if w.name == "db2log").write_response_time_ms
    assert write is not None
    assert write * 1000 == pytest.approx(log.commit_time_idle_us, rel=2e-3)


def test_a_read_hit_at_light_load_takes_the_front_ends_fixed_time() -> None:
    """DOMAIN.md C6: about 150 us of fixed time per I/O at light load (the DS8800's
    front_end_latency_us); a 4 KiB read hit adds its port transfer."""
    data = copy.deepcopy(BASE)
    data["workloads"][0].update(iops=10, read_fraction=1.0, read_hit_ratio=1.0)
    p = predict_one(with_data(data))
    hit = p.workloads[0].read_response_time_ms
    assert hit is not None
    assert hit * 1000 == pytest.approx(150.0 + 4096 / 760e6 * 1e6, rel=2e-3)


def test_one_stripe_at_load_waits_what_the_storage_model_says() -> None:
    """The same waits in the log section and the workloads table: a one-stripe log of one page
    count commits in exactly the storage model's response for its writes, at load too."""
    p = predict_one(with_data(_data(commit_rate=8000, pages_per_commit=8)))
    log = p.logs[0]
    write = next(w for w in p.workloads if w.name == "db2log").write_response_time_ms
    assert write is not None
    assert log.commit_time_us is not None
    assert log.commit_time_us > log.commit_time_idle_us
    assert log.commit_time_us == pytest.approx(write * 1000, rel=1e-9)
