"""The facade as a script uses it: each command's work is a few calls of `diskmodel.api`,
with no terminal in between (the command line's own tests drive the same calls through
typer: tests/test_cli*.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel import api
from diskmodel.errors import InputError, OutputError

from .conftest import ROOT

MEASURED = ROOT / "scenarios" / "measured"


def test_log_striping_gives_the_commit_times_the_logwrite_help_quotes() -> None:
    """`diskmodel logwrite --help`: a DS8800 with 8 Gb/s ports gives 168 us for 1 page and
    2.5 ms for 128 (IBM measured about 170 us and 2.5 ms; tests/test_logwrite.py)."""
    summary = api.log_striping()
    assert summary.pages == api.LOG_PAGES
    assert summary.stripes == (1, 2, 4, 8)
    one_page, many_pages = summary.times_us[0][0], summary.times_us[-1][0]
    assert round(one_page) == 168
    assert many_pages == pytest.approx(2500, rel=0.01)
    assert "Log write:" in api.log_striping_text(summary)


def test_log_striping_names_a_system_the_catalog_lacks() -> None:
    with pytest.raises(InputError, match="no system 'ds9999'"):
        api.log_striping("ds9999")


def test_catalog_lookups() -> None:
    assert api.catalog_names("ds88") == ["ds8800-951"]
    assert "ds8800-951" in api.catalog_listing()
    assert "15k-146" in api.catalog_entry("15k-146")
    with pytest.raises(InputError, match="15k-146"):  # a close name is suggested
        api.catalog_entry("15k-14")


def test_plan_outputs_refuses_two_results_on_standard_output_before_any_work() -> None:
    assert api.plan_outputs(None, None, "s") == [api.Planned("html", Path("reports/s.html"))]
    assert api.plan_outputs(None, "-", "s", default_out=None) == [api.Planned("json", None)]
    with pytest.raises(OutputError, match="only one result"):
        api.plan_outputs("-", "-", "s")


def test_imported_scenario_passes_check(tmp_path: Path) -> None:
    """`import --config` then `check`, through the facade: the intervals chosen, the hardware
    read, a complete scenario written that validates, its configuration summarised."""
    csv = MEASURED / "ds8800-week.csv"
    chosen = api.select_intervals(csv, ["io", "mbs"])
    assert len(chosen) == 2
    hardware = api.read_hardware(MEASURED / "ds8800-hardware.yaml")
    scenario = tmp_path / "base.yaml"
    scenario.write_text(api.imported_yaml(chosen, csv, hardware=hardware), encoding="utf-8")
    checked = api.check(scenario)
    assert checked.path == scenario
    assert checked.heatmaps == ()
    text = api.check_text(checked)
    assert f"{checked.scenario.name}: valid" in text
    assert f"  {scenario} (this scenario)" in text


def test_a_scenario_without_a_size_section_offers_nothing_to_size() -> None:
    path = ROOT / "scenarios" / "ds8800-15k-pool.yaml"
    with pytest.raises(InputError, match="offers nothing to size"):
        api.size_candidates(api.load_scenario(path), path)
