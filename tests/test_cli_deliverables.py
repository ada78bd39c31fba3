"""What a planner hands a customer (issue 31 item 7): the report of `size`, the tables as
CSV on `run`, `compare` and `size`. Before: `size` wrote no HTML report, and no command
wrote its tables in a form a spreadsheet opens."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from diskmodel.cli import app
from diskmodel.errors import ExitCode

from .conftest import ROOT

runner = CliRunner()
EXAMPLE = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
SIZING = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"


def _rows(path: Path) -> list[list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# diskmodel "), "the generator mark and the caption"
    return list(csv.reader(lines[1:]))


def test_run_writes_every_table_of_the_report_as_csv(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    result = runner.invoke(
        app, ["run", str(EXAMPLE), "--out", f"{tmp_path}/", "--csv", str(folder), "-q"]
    )
    assert result.exit_code == 0, result.output
    names = {p.stem for p in folder.glob("*.csv")}
    assert {"results", "service-level", "components", "tiers", "configuration"} <= names
    assert {"catalog-figures", "defaults"} <= names
    results = _rows(folder / "results.csv")
    assert results[0][1:] == [
        "DS8800 15K pool + 2 SSD ranks (OLTP, Easy Tier auto)",
        "without the SSD ranks",
        "SSD ranks, Easy Tier off",
        "skew intermediate (conservative sizing)",
    ]
    planned = next(r for r in results if r[0] == "Planned load (IOPS)")
    assert planned[1:] == ["9000"] * 4  # a number a spreadsheet reads, no separator
    level = _rows(folder / "service-level.csv")
    assert level[0][:2] == ["configuration", "limit"]
    assert all(len(row) == len(level[0]) for row in level)
    assert level[1][0] == "DS8800 15K pool + 2 SSD ranks (OLTP, Easy Tier auto)"


def test_compare_writes_csv_and_a_second_run_replaces_its_own_files(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    args = [
        "compare",
        str(ROOT / "scenarios" / "ds8700-c3-baseline.yaml"),
        str(ROOT / "scenarios" / "ds8800-c3-baseline.yaml"),
        "--out",
        f"{tmp_path}/",
        "--csv",
        str(folder),
        "-q",
    ]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, args).exit_code == 0, "its own CSV files are replaced"
    (folder / "results.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    refused = runner.invoke(app, args)
    assert refused.exit_code == ExitCode.OUTPUT_REFUSED
    assert "results.csv: exists and was not written by diskmodel" in refused.output
    assert (folder / "results.csv").read_text(encoding="utf-8") == "a,b\n1,2\n"


def test_csv_needs_a_folder(tmp_path: Path) -> None:
    a_file = tmp_path / "x.csv"
    a_file.write_text("", encoding="utf-8")
    for target in ("-", str(a_file)):
        result = runner.invoke(app, ["run", str(EXAMPLE), "--out", f"{tmp_path}/", "--csv", target])
        assert result.exit_code == ExitCode.OUTPUT_REFUSED, result.output
        assert "--csv" in result.output


def test_size_writes_its_report_json_and_csv(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "size",
            str(SIZING),
            "--out",
            f"{tmp_path}/",
            "--json",
            str(tmp_path / "s.json"),
            "--csv",
            str(tmp_path / "csv"),
            "--no-timestamp",
        ],
    )
    assert result.exit_code == 0, result.output
    page = (tmp_path / "ds8800-size-for-growth.html").read_text(encoding="utf-8")
    assert 'id="chart-sizing"' in page
    assert 'id="sizing"' in page
    data = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    sizing = _rows(tmp_path / "csv" / "sizing.csv")
    assert sizing[0][0] == "configuration"
    assert len(sizing) - 1 == len({*data["sizing"]["front"], 0}), (
        "the front and the current configuration"
    )
    assert f"wrote {tmp_path / 'ds8800-size-for-growth.html'}" in result.output


def test_size_refuses_a_bad_report_name_before_the_search(tmp_path: Path) -> None:
    result = runner.invoke(app, ["size", str(SIZING), "--out", str(tmp_path / "r.pdf")])
    assert result.exit_code == ExitCode.OUTPUT_REFUSED
    assert "r.pdf" in result.output
