"""The command line, through typer's runner: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from diskmodel import __version__
from diskmodel.cli import app
from diskmodel.errors import ExitCode

from .conftest import ROOT, SCENARIOS
from .test_scenario import VALID

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_catalog_list_shows_both_systems_and_all_13_drives(catalog) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(app, ["catalog", "list"])
    assert result.exit_code == 0, result.output
    for name in ("ds8700-941", "ds8800-951"):
        assert name in result.output
    assert len(catalog.drives) == 13
    for drive in catalog.drives:
        assert drive in result.output
    for raid in catalog.raid_formats:
        assert raid in result.output


@pytest.mark.parametrize("name", ["ds8800-951", "15k-146", "raid5-7+p"])
def test_catalog_show_cites_sources(name: str) -> None:
    result = runner.invoke(app, ["catalog", "show", name])
    assert result.exit_code == 0, result.output
    assert "source:" in result.output or "basis:" in result.output


def test_catalog_show_unknown_name_suggests() -> None:
    result = runner.invoke(app, ["catalog", "show", "ds8800-95"])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert "did you mean" in result.output.lower()
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_check_summarises_each_shipped_scenario(path: Path) -> None:
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    for heading in ("Capacity per tier", "Ranks per DA pair", "Drives per server"):
        assert heading in result.output


def test_check_broken_scenario_is_one_message(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(VALID.replace("drive: 15k-146", "drive: 15k-147"), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert "Traceback" not in result.output
    assert "unknown drive '15k-147'" in result.output
    assert isinstance(result.exception, SystemExit)


def test_check_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "nope.yaml")])
    assert result.exit_code == ExitCode.USAGE
    assert "does not exist" in result.output


def test_run_writes_report_and_json(tmp_path: Path) -> None:
    out, js = tmp_path / "r.html", tmp_path / "r.json"
    scenario = SCENARIOS[0]
    result = runner.invoke(
        app, ["run", str(scenario), "--out", str(out), "--json", str(js), "--no-timestamp"]
    )
    assert result.exit_code == 0, result.output
    assert f"wrote {js}" in result.output
    assert f"wrote {out}" in result.output
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["configurations"][0]["max_iops"] > 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_run_default_report_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    scenario = SCENARIOS[0]
    result = runner.invoke(app, ["run", str(scenario)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "reports" / f"{scenario.stem}.html").is_file()
    assert result.output.strip().endswith(f"wrote reports/{scenario.stem}.html")


def test_run_refuses_to_overwrite_a_foreign_file(tmp_path: Path) -> None:
    precious = tmp_path / "notes.html"
    precious.write_text("my notes", encoding="utf-8")
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "--out", str(precious)])
    assert result.exit_code == ExitCode.OUTPUT_REFUSED
    assert "--force" in result.output
    assert precious.read_text(encoding="utf-8") == "my notes"


def test_run_is_deterministic_without_timestamp(tmp_path: Path) -> None:
    outputs = []
    for i in range(2):
        out, js = tmp_path / f"{i}.html", tmp_path / f"{i}.json"
        args = ["run", str(SCENARIOS[0]), "-q", "--no-timestamp", "--out", str(out)]
        result = runner.invoke(app, [*args, "--json", str(js)])
        assert result.exit_code == 0, result.output
        outputs.append((out.read_bytes(), js.read_bytes()))
    assert outputs[0] == outputs[1]


def test_compare_two_files_side_by_side(tmp_path: Path) -> None:
    a = ROOT / "scenarios" / "ds8700-c3-baseline.yaml"
    b = ROOT / "scenarios" / "ds8800-c3-baseline.yaml"
    js = tmp_path / "c.json"
    result = runner.invoke(
        app, ["compare", str(a), str(b), "--out", str(tmp_path / "c.html"), "--json", str(js)]
    )
    assert result.exit_code == 0, result.output
    names = [c["name"] for c in json.loads(js.read_text(encoding="utf-8"))["configurations"]]
    assert names == [
        "DS8700 C3 baseline (DB2 brokerage OLTP)",
        "DS8800 C3 baseline (DB2 brokerage OLTP)",
    ]


def test_compare_same_file_twice_keeps_names_apart(tmp_path: Path) -> None:
    a = str(SCENARIOS[0])
    js = tmp_path / "c.json"
    result = runner.invoke(
        app, ["compare", a, a, "-q", "--out", str(tmp_path / "c.html"), "--json", str(js)]
    )
    assert result.exit_code == 0, result.output
    names = [c["name"] for c in json.loads(js.read_text(encoding="utf-8"))["configurations"]]
    assert names[1] == f"{names[0]} (2)"


def test_compare_needs_two_files() -> None:
    result = runner.invoke(app, ["compare", str(SCENARIOS[0])])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert "at least two" in result.output
