"""The command line, through typer's runner: output, exit codes, no tracebacks."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from diskmodel import __version__
from diskmodel.cli import app
from diskmodel.errors import ExitCode

from .conftest import SCENARIOS
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
