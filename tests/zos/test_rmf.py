"""RMF measurements: the CSV read (and its mistakes named), the intervals chosen, imported as
z/OS workloads, and a calibration against the components that recovers the parameters a
synthetic measurement was made with."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.errors import InputError
from diskmodel.measured.rmf import (
    RMF_COMPONENTS,
    RmfGroup,
    RmfInterval,
    is_rmf_csv,
    load_rmf,
    parse_rmf,
    pick,
)
from diskmodel.measured.rmf_calibrate import (
    calibrate_rmf,
    calibrated_yaml,
    calibration_text,
    model_components,
)
from diskmodel.measured.rmf_scenario import rmf_data

from .zos_builders import zos_scenario

HEADER = (
    "time,group,io_rate,iosq_ms,pend_ms,disc_ms,conn_ms,read_fraction,read_hit_ratio,"
    "write_hit_ratio,transfer_kib,volumes,lcus\n"
)


def test_a_csv_is_read_with_its_groups_per_interval(tmp_path: Path) -> None:
    path = tmp_path / "rmf.csv"
    path.write_text(
        HEADER
        + '2026-11-02 10:00,DB2PROD,"4,000",0.05,0.04,0.4,0.12,70%,0.8,1,4,8,a;b\n'
        + "2026-11-02 10:00,BATCH,500,0,0.05,0.01,0.3,0.9,0.95,1,56,4,c\n"
        + "2026-11-02 10:15,DB2PROD,5000,0.08,0.05,0.5,0.12,0.7,0.8,1,4,8,a;b\n",
        encoding="utf-8",
    )
    assert is_rmf_csv(path)
    first, second = load_rmf(path)
    assert first.time == dt.datetime(2026, 11, 2, 10)
    db2, batch = first.groups
    assert db2.io_rate == 4000
    assert db2.read_fraction == 0.7
    assert db2.lcus == ("a", "b")
    assert db2.response_ms == pytest.approx(0.05 + 0.04 + 0.4 + 0.12)
    assert batch.transfer_kib == 56
    assert pick([first, second], ["io"], "f") == [second]
    assert pick([first, second], ["2026-11-02 10:00", "io"], "f") == [first, second]


def test_an_interval_csv_is_not_an_rmf_csv(tmp_path: Path) -> None:
    path = tmp_path / "week.csv"
    path.write_text("time,io_rate,read_fraction\n2026-11-02 10:00,100,0.7\n", encoding="utf-8")
    assert not is_rmf_csv(path)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            "2026-11-02 10:00,G,100,0,0.1,0.1,x,0.7,0.8,1,4,8,a",
            r"row 2, column conn_ms: 'x' is not",
        ),
        ("2026-11-02 10:00,G,100,0,0.1,0.1,0.1,70,0.8,1,4,8,a", r"above 1 \(did you mean 0.7\?\)"),
        ("yesterday,G,100,0,0.1,0.1,0.1,0.7,0.8,1,4,8,a", "column time: not an ISO 8601"),
        ("2026-11-02 10:00,G,100,0,0.1,0.1,0.1,0.7,0.8,1,4,2.5,a", "column volumes: a whole"),
        ("2026-11-02 10:00,G,-5,0,0.1,0.1,0.1,0.7,0.8,1,4,8,a", "must be a number >= 0"),
    ],
)
def test_a_mistake_names_the_row_and_the_column(row: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_rmf(HEADER + row + "\n", "rmf.csv")


def test_a_missing_column_is_named() -> None:
    with pytest.raises(InputError, match="missing column"):
        parse_rmf("time,group,io_rate,iosq_ms\n", "rmf.csv")


def _interval(minute: int, rate: float) -> RmfInterval:
    """An interval of the single group `db2` at `rate`, its components still to be measured."""
    group = RmfGroup("db2", rate, 0.0, 0.0, 0.0, 0.0, 0.7, 0.8, volumes=8, lcus=("a",))
    return RmfInterval(dt.datetime(2026, 11, 2, 10, minute), (group,))


TRUE = {"front_end_latency_us": 185.0, "pend_light_us": 62.0, "destage_ratio": 0.35}
"""The parameters the synthetic measurement is made with."""


def _synthetic() -> list[RmfInterval]:
    """Three intervals at rising load, each component the model's at `TRUE` (what RMF would
    report of a system the model describes exactly)."""
    catalog = load_catalog()
    truth = zos_scenario(
        **{
            "system.front_end_latency_us": TRUE["front_end_latency_us"],
            "system.ficon.pend_light_us": TRUE["pend_light_us"],
            "workloads.0.destage_ratio": TRUE["destage_ratio"],
            "system.lcus.0.pav": "static",
            "system.lcus.0.aliases": 8,
        }
    )
    out = []
    for minute, rate in ((0, 2500.0), (15, 4500.0), (30, 6500.0)):
        blank = _interval(minute, rate)
        model = model_components(truth, blank, catalog)["db2"]
        group = RmfGroup(
            "db2",
            rate,
            *(float(model[c] or 0.0) for c in RMF_COMPONENTS),
            0.7,
            0.8,
            volumes=8,
            lcus=("a",),
        )
        out.append(RmfInterval(blank.time, (group,)))
    return out


def test_calibration_against_the_components_recovers_the_parameters() -> None:
    catalog = load_catalog()
    # Started from the catalog's figures and a destage ratio of 0.6, not from the truth.
    start = zos_scenario(**{"system.lcus.0.pav": "static", "system.lcus.0.aliases": 8})
    result = calibrate_rmf(start, _synthetic(), catalog)
    fitted = {p.key.rsplit(".", 1)[-1]: p.value for p in result.parameters}
    assert fitted["front_end_latency_us"] == pytest.approx(TRUE["front_end_latency_us"], rel=0.02)
    assert fitted["pend_light_us"] == pytest.approx(TRUE["pend_light_us"], rel=0.02)
    assert fitted["destage_ratio"] == pytest.approx(TRUE["destage_ratio"], rel=0.05)
    assert result.rms < 0.01
    assert all(p.pinned for p in result.parameters)
    text = calibration_text(result, "synthetic.csv")
    assert "system.ficon.pend_light_us" in text
    assert "IOSQ" in text


def test_the_calibrated_scenario_keeps_its_comments() -> None:
    catalog = load_catalog()
    start = zos_scenario(**{"system.lcus.0.pav": "static", "system.lcus.0.aliases": 8})
    result = calibrate_rmf(start, _synthetic()[:1], catalog)
    text = (
        "# a comment that stays\nschema_version: 1\nname: t\nsystem:\n  model: ds8800-951\n"
        "  ficon: {channels: 4}\nworkloads:\n  - name: db2\n    destage_ratio: 0.6\n"
    )
    out = calibrated_yaml(text, result)
    assert out.startswith("# a comment that stays")
    assert "front_end_latency_us" in out
    assert "pend_light_us" in out


def test_imported_groups_become_z_os_workloads() -> None:
    group = RmfGroup("DB2PROD", 4000, 0.05, 0.04, 0.4, 0.12, 0.7, 0.8, volumes=16, lcus=("a",))
    interval = RmfInterval(dt.datetime(2026, 11, 2, 10), (group,))
    data = rmf_data([interval], None, "ckd", load_catalog(), "rmf.csv")
    (w,) = data["workloads"]
    assert w["iops"] == 4000
    assert w["zos"] == {"lcus": ["a"], "volumes": 16, "volume_model": "3390-9"}
    assert w["capacity_gb"] <= 16 * 8.51 * 49152 / 56664  # 12 records of 4 KiB a track


def test_rmf_s_own_headings_are_read_with_read_percent_in_percent(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text(
        "time,Storage Group,DEVICE ACTIVITY RATE,AVG IOSQ TIME,AVG PEND TIME,AVG DISC TIME,"
        "AVG CONN TIME,READ %,READ H/R,WRITE H/R\n"
        "2026-11-02 10:00,SGDB2,1234.5,0.012,0.105,0.350,0.140,75.0,0.912,1.000\n",
        encoding="utf-8",
    )
    assert is_rmf_csv(path)
    ((group,),) = (i.groups for i in load_rmf(path))
    assert group.group == "SGDB2"
    assert group.io_rate == 1234.5
    assert group.read_fraction == pytest.approx(0.75)
    assert group.read_hit_ratio == pytest.approx(0.912)
    assert group.response_ms == pytest.approx(0.012 + 0.105 + 0.350 + 0.140)
