"""The copy_services section: what it accepts, and one clear message (file, line, key) for
what it does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from diskmodel.scenario import ScenarioError
from diskmodel.scenario.copy_services import secondary_scenario
from diskmodel.scenario.loading import load_scenario

SHIPPED = Path(__file__).resolve().parents[2] / "scenarios" / "ds8800-metro-mirror-distance.yaml"


def _load(tmp_path: Path, change: Any) -> Any:
    yaml = YAML(typ="safe", pure=True)
    data = yaml.load(SHIPPED.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "s.yaml"
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)
    return load_scenario(path)


def _error(tmp_path: Path, change: Any) -> str:
    with pytest.raises(ScenarioError) as caught:
        _load(tmp_path, change)
    return str(caught.value)


def test_the_shipped_sweep_mirrors_its_workload_to_the_secondary(tmp_path: Path) -> None:
    s = _load(tmp_path, lambda d: None)
    assert s.copy_services is not None
    assert s.copy_services.mirrored([w.name for w in s.workloads]) == {"oltp": "metro"}
    replica = secondary_scenario(s)
    (writes,) = replica.workloads
    assert writes.read_fraction == 0.0
    assert writes.iops == pytest.approx(9000 * 0.3, rel=1e-12)
    assert writes.capacity_gb == 30000
    assert replica.system.model == "ds8800-951"


def test_a_mirror_needs_the_secondary(tmp_path: Path) -> None:
    message = _error(tmp_path, lambda d: d["copy_services"].pop("secondary"))
    assert "copy_services.secondary" in message or "secondary: metro_mirror" in message
    assert "needs the secondary system" in message


def test_metro_mirror_beyond_its_supported_distance(tmp_path: Path) -> None:
    def far(d: dict[str, Any]) -> None:
        d["copy_services"]["links"]["distance_km"] = 400

    assert "beyond Metro Mirror's 300 km" in _error(tmp_path, far)


def test_a_sweep_point_beyond_the_supported_distance(tmp_path: Path) -> None:
    def far(d: dict[str, Any]) -> None:
        d["copy_services"]["metro_mirror"]["distances_km"] = [0, 500]

    assert "500 km is outside 0 to 300 km" in _error(tmp_path, far)


def test_an_unknown_workload_names_the_key_and_the_workloads(tmp_path: Path) -> None:
    def typo(d: dict[str, Any]) -> None:
        d["copy_services"]["metro_mirror"]["workloads"] = ["oltpp"]

    message = _error(tmp_path, typo)
    assert "copy_services.metro_mirror.workloads[0]: no workload named 'oltpp'" in message
    assert "did you mean 'oltp'?" in message


def test_a_secondary_too_small_for_the_replicated_data(tmp_path: Path) -> None:
    def small(d: dict[str, Any]) -> None:
        d["copy_services"]["secondary"]["pools"][0]["ranks"][0]["count"] = 2

    message = _error(tmp_path, small)
    assert "copy_services.secondary.pools" in message
    assert "30,000 GB" in message


def test_a_secondary_drive_the_system_does_not_offer(tmp_path: Path) -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["copy_services"]["secondary"]["pools"][0]["ranks"][0]["drive"] = "15k-450"

    message = _error(tmp_path, wrong)
    assert "copy_services.secondary.pools[0].ranks[0].drive: 15k-450 is not offered" in message


def test_flashcopy_copy_mode_needs_its_hours(tmp_path: Path) -> None:
    def copy(d: dict[str, Any]) -> None:
        d["copy_services"]["flashcopy"] = [{"workload": "oltp", "mode": "copy", "window_hours": 8}]

    assert "copy_hours: mode copy needs" in _error(tmp_path, copy)


def test_flashcopy_of_an_unknown_workload(tmp_path: Path) -> None:
    def copy(d: dict[str, Any]) -> None:
        d["copy_services"]["flashcopy"] = [
            {"workload": "nope", "mode": "nocopy", "window_hours": 8}
        ]

    assert "copy_services.flashcopy[0].workload: no workload named 'nope'" in _error(tmp_path, copy)


def test_a_closed_workload_is_refused_with_the_reason(tmp_path: Path) -> None:
    def closed(d: dict[str, Any]) -> None:
        w = d["workloads"][0]
        del w["iops"]
        w["queue_depth"] = 32

    assert "replication is modelled for workloads with a planned rate" in _error(tmp_path, closed)


def test_an_unknown_key_is_refused(tmp_path: Path) -> None:
    def typo(d: dict[str, Any]) -> None:
        d["copy_services"]["links"]["distance"] = 3

    assert "distance" in _error(tmp_path, typo)


GLOBAL_MIRROR = SHIPPED.with_name("ds8800-global-mirror-week.yaml")


def test_check_opens_and_lists_global_mirrors_measured_file() -> None:
    from diskmodel.api import check, check_text

    checked = check(GLOBAL_MIRROR)
    assert checked.measured is not None
    path, rows = checked.measured
    assert path == (GLOBAL_MIRROR.parent / "measured" / "ds8800-week.csv").resolve()
    assert rows == 1344  # 672 intervals of two scopes
    assert f"{path} (Global Mirror's measured intervals, 1,344 rows;" in check_text(checked)


def test_check_refuses_a_missing_measured_file_with_the_scenarios_file_and_line(
    tmp_path: Path,
) -> None:
    from diskmodel.api import check
    from diskmodel.errors import InputError

    text = GLOBAL_MIRROR.read_text(encoding="utf-8")
    scenario = tmp_path / "gm.yaml"
    scenario.write_text(text.replace("measured/ds8800-week.csv", "nope.csv"), encoding="utf-8")
    rows = enumerate(text.splitlines(), start=1)
    line = next(i for i, row in rows if "measured: measured/ds8800-week" in row)
    with pytest.raises(InputError) as caught:
        check(scenario)
    assert str(caught.value) == (
        f"{scenario}:{line}: copy_services.global_mirror.measured: nope.csv: no such file"
    )
