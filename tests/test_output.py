"""Output files: atomic, and never over a file diskmodel did not write unless forced."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from diskmodel.errors import ExitCode, OutputError
from diskmodel.output import is_diskmodel_output, write_output

REPORT = '<!doctype html><html><head><meta name="generator" content="diskmodel 0.1.0">'


def test_writes_new_file_and_parents(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "r.html"
    write_output(target, REPORT)
    assert target.read_text(encoding="utf-8") == REPORT
    assert is_diskmodel_output(target)


def test_replaces_an_earlier_report(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    target.write_text(REPORT + "old", encoding="utf-8")
    write_output(target, REPORT + "new")
    assert target.read_text(encoding="utf-8").endswith("new")


def test_refuses_a_foreign_file_without_force(tmp_path: Path) -> None:
    target = tmp_path / "budget.xlsx"
    target.write_bytes(b"precious")
    with pytest.raises(OutputError, match="--force") as info:
        write_output(target, REPORT)
    assert info.value.exit_code == ExitCode.OUTPUT_REFUSED
    assert target.read_bytes() == b"precious"
    write_output(target, REPORT, force=True)
    assert target.read_text(encoding="utf-8") == REPORT


def test_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        write_output(tmp_path, REPORT)


def test_no_temporary_file_left_behind(tmp_path: Path) -> None:
    write_output(tmp_path / "r.json", '{"generator": "diskmodel 0.1.0"}')
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_report_gets_ordinary_file_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        target = write_output(tmp_path / "r.html", REPORT)
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
