"""The whole command, fuzzed: `diskmodel check` and `diskmodel run --json --out` on mutated files.

Through typer's runner, every case ends in exit 0 with both output files written (a JSON
result that passes the invariants, an HTML report with the generator mark), or in exit 3/4
with one message naming the file, no traceback, and no output file left behind. Output paths
that are not ours are never replaced without --force, and the same input gives byte-identical
files.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from typer.testing import CliRunner

from diskmodel.cli import app
from diskmodel.errors import ExitCode

from .conftest import SCENARIOS
from .support.budget import fuzz_settings
from .support.invariants import check_result_json, no_hang
from .support.scenarios import VALID
from .support.strategies import dump_yaml, edge_scenarios, mutated_bytes, mutated_documents

pytestmark = pytest.mark.fuzz

runner = CliRunner()
FAILED = {ExitCode.INVALID_INPUT, ExitCode.OUTPUT_REFUSED}


def assert_one_clear_message(output: str, name: str) -> None:
    assert "Traceback" not in output
    assert output.startswith("diskmodel: "), output[:200]
    assert name in output, output[:200]
    assert "\n\n" not in output.strip()


def run_cli(folder: Path, text: bytes) -> tuple[Any, Path, Path]:
    scenario = folder / "fuzzed.yaml"
    scenario.write_bytes(text)
    out, result_json = folder / "out" / "report.html", folder / "out" / "result.json"
    with no_hang():
        result = runner.invoke(
            app,
            [
                "run",
                str(scenario),
                "--out",
                str(out),
                "--json",
                str(result_json),
                "--no-timestamp",
                "--quiet",
            ],
        )
    return result, out, result_json


def check_run(text: bytes) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        result, out, result_json = run_cli(folder, text)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            result.exception
        )
        event(f"exit {result.exit_code}")
        if result.exit_code == ExitCode.OK:
            check_result_json(result_json.read_text(encoding="utf-8"))
            assert '<meta name="generator" content="diskmodel' in out.read_text(encoding="utf-8")
        else:
            assert result.exit_code in FAILED, result.output
            assert_one_clear_message(result.output, "fuzzed.yaml")
            assert not out.parent.exists() or not any(out.parent.iterdir())


@fuzz_settings(ci_examples=25)
@given(mutated_bytes())
def test_check_on_damaged_files(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "fuzzed.yaml"
        path.write_bytes(data)
        with no_hang():
            result = runner.invoke(app, ["check", str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert result.exit_code in {ExitCode.OK, ExitCode.INVALID_INPUT}, result.output
        if result.exit_code:
            assert_one_clear_message(result.output, "fuzzed.yaml")


@fuzz_settings(ci_examples=6)
@given(st.one_of(mutated_documents(max_mutations=2).map(dump_yaml), st.just(VALID)))
def test_run_on_mutated_scenarios(text: str) -> None:
    check_run(text.encode("utf-8"))


@fuzz_settings(ci_examples=4)
@given(edge_scenarios())
def test_run_on_edge_scenarios(document: dict[str, Any]) -> None:
    check_run(dump_yaml(document).encode("utf-8"))


def test_run_writes_byte_identical_files_for_the_same_input(tmp_path: Path) -> None:
    outputs = []
    for attempt in ("a", "b"):
        folder = tmp_path / attempt
        folder.mkdir()
        result, out, result_json = run_cli(folder, VALID.encode("utf-8"))
        assert result.exit_code == 0, result.output
        outputs.append((out.read_bytes(), result_json.read_bytes()))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("which", ["--out", "--json"])
def test_run_never_replaces_a_file_it_did_not_write(tmp_path: Path, which: str) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(VALID, encoding="utf-8")
    precious = tmp_path / ("budget.html" if which == "--out" else "budget.json")
    precious.write_bytes(b"PK\x03\x04 someone's spreadsheet")
    other = {"--out": tmp_path / "r.html", "--json": tmp_path / "r.json"}
    other.pop(which)
    ((flag, path),) = other.items()
    result = runner.invoke(
        app, ["run", str(scenario), which, str(precious), flag, str(path), "--quiet"]
    )
    assert result.exit_code == ExitCode.OUTPUT_REFUSED, result.output
    assert_one_clear_message(result.output, precious.name)
    assert "--force" in result.output
    assert precious.read_bytes() == b"PK\x03\x04 someone's spreadsheet"
    # Nothing else was written either: both files or neither.
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([precious.name, "s.yaml"])
    forced = runner.invoke(
        app, ["run", str(scenario), which, str(precious), flag, str(path), "--quiet", "--force"]
    )
    assert forced.exit_code == 0, forced.output
    assert precious.read_bytes() != b"PK\x03\x04 someone's spreadsheet"


@pytest.mark.parametrize("path", SCENARIOS[:1], ids=lambda p: p.name)
def test_run_replaces_its_own_earlier_report(tmp_path: Path, path: Path) -> None:
    args = [
        "run",
        str(path),
        "--out",
        str(tmp_path / "r.html"),
        "--json",
        str(tmp_path / "r.json"),
        "--quiet",
    ]
    assert runner.invoke(app, args).exit_code == 0
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json"]  # no temp files


def test_run_never_replaces_a_device_or_a_pipe_even_with_force(tmp_path: Path) -> None:
    # Found: `--out /dev/null --force` renamed the report over the device node (as root, that
    # replaces /dev/null with a file). Shown on a named pipe, which is safe to lose.
    import os

    scenario = tmp_path / "s.yaml"
    scenario.write_text(VALID, encoding="utf-8")
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["run", str(scenario), "--out", str(fifo), "--force", "-q"])
    assert result.exit_code == ExitCode.OUTPUT_REFUSED, result.output
    assert_one_clear_message(result.output, "pipe.html")
    assert fifo.is_fifo()
