"""A mixed z/OS and open-systems configuration written out: the JSON valid against the
published schema, `rmf` only on the z/OS workload, the RMF table only where there are z/OS
workloads; and the RMF paths' mistakes as one message."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from diskmodel.api import predict, to_json
from diskmodel.catalog import load_catalog
from diskmodel.errors import InputError
from diskmodel.measured.rmf import RmfGroup, RmfInterval
from diskmodel.measured.rmf_calibrate import calibrate_rmf
from diskmodel.measured.rmf_scenario import rmf_data
from diskmodel.report.text import prediction_parts
from diskmodel.scenario import Scenario

from ..conftest import ROOT
from ..scenario.json_schema_subset import errors
from .zos_builders import zos_data, zos_scenario

PUBLISHED = ROOT / "docs" / "result.schema.json"


def _mixed() -> Scenario:
    data = zos_data(**{"system.ficon.host_ports": 4})
    data["workloads"].append(
        {
            "name": "aix",
            "pool": "p",
            "iops": 2000,
            "read_fraction": 0.7,
            "read_hit_ratio": 0.5,
            "capacity_gb": 500,
        }
    )
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


def test_a_mixed_result_is_valid_and_writes_rmf_on_the_z_os_workload_only() -> None:
    result = json.loads(to_json(predict(_mixed())))
    assert errors(json.loads(PUBLISHED.read_text(encoding="utf-8")), result) == []
    db2, aix = result["configurations"][0]["workloads"]
    assert set(db2["rmf"]) == {"iosq_ms", "pend_ms", "disc_ms", "conn_ms", "volumes", "lcus", "pav"}
    assert "rmf" not in aix
    assert "channel" in db2["breakdown_ms"]
    assert "channel" not in aix["breakdown_ms"]
    level = result["configurations"][0]["inputs"]["service_level"]["utilization"]
    assert level["channel"] == 0.7


def test_the_terminal_shows_the_rmf_table_for_z_os_workloads_only() -> None:
    (mixed,) = predict(_mixed()).configurations
    text = "\n".join(str(part) for part in prediction_parts(mixed))
    assert "as RMF reports them" in text
    open_only = zos_data()
    open_only["system"].pop("ficon")
    open_only["system"].pop("lcus")
    open_only["workloads"][0].pop("zos")
    plain = Scenario.model_validate(open_only, context={"catalog": load_catalog()})
    (config,) = predict(plain).configurations
    assert "as RMF reports them" not in "\n".join(str(p) for p in prediction_parts(config))


def test_calibrating_a_group_the_scenario_has_no_workload_for_is_one_message() -> None:
    group = RmfGroup("IMSPROD", 1000, 0, 0.05, 0.3, 0.1, 0.7, 0.8, volumes=8, lcus=("a",))
    interval = RmfInterval(dt.datetime(2026, 11, 2, 10), (group,))
    with pytest.raises(InputError, match=r"RMF group 'IMSPROD'.*no workload of that name"):
        calibrate_rmf(zos_scenario(), [interval], load_catalog())


def test_calibrating_a_scenario_without_ficon_is_one_message() -> None:
    data = zos_data()
    data["system"].pop("ficon")
    data["system"].pop("lcus")
    data["workloads"][0].pop("zos")
    plain = Scenario.model_validate(data, context={"catalog": load_catalog()})
    group = RmfGroup("db2", 1000, 0, 0.05, 0.3, 0.1, 0.7, 0.8, volumes=8, lcus=("a",))
    interval = RmfInterval(dt.datetime(2026, 11, 2, 10), (group,))
    with pytest.raises(InputError, match=r"no system\.ficon"):
        calibrate_rmf(plain, [interval], load_catalog())


def test_an_imported_group_needs_its_volumes_or_its_capacity() -> None:
    group = RmfGroup("DB2PROD", 4000, 0.05, 0.04, 0.4, 0.12, 0.7, 0.8)
    interval = RmfInterval(dt.datetime(2026, 11, 2, 10), (group,))
    with pytest.raises(InputError, match="give its volumes or its capacity_gb"):
        rmf_data([interval], None, "ckd", load_catalog(), "rmf.csv")


def test_an_imported_group_with_capacity_only_gets_enough_3390_9_volumes(tmp_path: Path) -> None:
    group = RmfGroup("DB2PROD", 4000, 0.05, 0.04, 0.4, 0.12, 0.7, 0.8, capacity_gb=100)
    interval = RmfInterval(dt.datetime(2026, 11, 2, 10), (group,))
    (w,) = rmf_data([interval], None, "ckd", load_catalog(), "rmf.csv")["workloads"]
    # A 3390-9 holds 7.38 GB in 4 KiB records: 14 volumes for 100 GB.
    assert w["zos"]["volumes"] == 14
    assert w["zos"]["lcus"] == ["lcu-DB2PROD"]
