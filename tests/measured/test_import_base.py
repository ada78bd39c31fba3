"""Import gives a runnable base (issue 27 item 6): common header spellings read; with the
hardware from a small configuration file or from flags, `import` prints a complete scenario
that `check` accepts and `calibrate` takes as it is; the shipped week's import-then-calibrate
flow passes the quality gate, and without its sequential fractions fails it naming them, exit
5 under --strict."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from diskmodel.cli import app
from diskmodel.errors import ExitCode, InputError
from diskmodel.measured import parse_intervals
from diskmodel.scenario import load_scenario

from ..conftest import ROOT

MEASURED = ROOT / "scenarios" / "measured"
WEEK = MEASURED / "ds8800-week.csv"
HARDWARE = MEASURED / "ds8800-hardware.yaml"
SIX = ["-p", "io", "-p", "mbs", "-p", "2026-11-04 10:00", "-p", "2026-11-07 14:00"]
SIX += ["-p", "2026-11-05 20:00", "-p", "2026-11-06 12:00"]
"""The six intervals of docs/measured.md's calibration."""


def test_common_header_spellings_are_read() -> None:
    text = (
        "Timestamp,Volume Group,IO Rate,Read %,Read Hit %,MB/s,Response Time (ms),"
        "Sequential Read %\n"
        "2026-11-02 14:00,oltp,10000,70,45%,80,1.2,10\n"
    )
    (row,) = parse_intervals(text, "tool.csv")
    assert (row.scope, row.io_rate, row.response_ms) == ("oltp", 10000.0, 1.2)
    assert row.read_fraction == pytest.approx(0.70)  # a % header: 70 is 70%
    assert row.read_hit_ratio == pytest.approx(0.45)  # and 45% once, not twice
    assert row.read_sequential_fraction == pytest.approx(0.10)
    # No transfer sizes: MB/s over the rate is their mean (80 MB/s / 10,000 I/O/s).
    assert row.read_kib == row.write_kib == pytest.approx(80e6 / 1024 / 10000)
    (plain,) = parse_intervals("time,iops,read_fraction\n2026-11-02 14:00,5,0.5\n", "t.csv")
    assert plain.io_rate == 5.0
    assert plain.read_kib == 4.0  # the default without sizes or MB/s


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("time,iops,IO Rate,read_fraction\n", "columns 'iops' and 'IO Rate' both give io_rate"),
        ("time,iops,Read %\n2026-11-02 14:00,1,170\n", "column Read % (read_fraction): 170%"),
        ("time,iops\n2026-11-02 14:00,1\n", "missing column(s) read_fraction"),
    ],
)
def test_a_spelling_mistake_is_one_message_naming_the_column_as_written(
    text: str, message: str
) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_intervals(text, "tool.csv")


def _import(*args: str) -> str:
    result = CliRunner().invoke(app, ["import", str(WEEK), "-p", "io", "-p", "mbs", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_import_with_a_configuration_prints_a_scenario_check_accepts(tmp_path: Path) -> None:
    text = _import("--config", str(HARDWARE), "-q")
    path = tmp_path / "base.yaml"
    path.write_text(text, encoding="utf-8")
    checked = CliRunner().invoke(app, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    scenario = load_scenario(path)
    assert scenario.system.model == "ds8800-951"
    assert [p.name for p in scenario.pools] == ["pool0"]
    batch = next(w for w in scenario.workloads if w.name == "batch")
    assert (batch.read_size_kib, batch.write_size_kib) == (256, 64)
    assert (batch.read_sequential_fraction, batch.write_sequential_fraction) == (0.9, 0.9)
    (alternative,) = scenario.analyses.compare
    assert alternative.set["workloads.batch.read_sequential_fraction"] == 0.9


def test_flags_give_the_same_scenario_as_the_configuration() -> None:
    flags = _import(
        "--system", "ds8800-951", "--cache-gb", "256", "--host-ports", "16", "--da-pairs", "4",
        "--ranks", "15k-300,raid5-7+p,32", "--ranks", "ssd-300,raid5-6+p+s,2", "-q",
    )  # fmt: skip
    yaml = YAML(typ="safe")
    assert yaml.load(flags) == yaml.load(_import("--config", str(HARDWARE), "-q"))


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--cache-gb", "256"], ExitCode.USAGE, "--cache-gb describe(s) the system"),
        (["--system", "ds8800-951"], ExitCode.USAGE, "give --cache-gb, --host-ports, --da-pairs"),
        (
            ["--system", "ds8800-951", "--cache-gb", "256", "--host-ports", "16", "--da-pairs",
             "4", "--ranks", "15k-300/raid5-7+p/32"],
            ExitCode.INVALID_INPUT,
            "--ranks '15k-300/raid5-7+p/32': give DRIVE,RAID,COUNT",
        ),
        (
            ["--system", "ds8800-951", "--cache-gb", "256", "--host-ports", "16", "--da-pairs",
             "4", "--ranks", "15k-999,raid5-7+p,32"],
            ExitCode.INVALID_INPUT,
            "import flags: --ranks (pools)",
        ),
        (["--config", str(HARDWARE), "--system", "x"], ExitCode.USAGE, "not both"),
    ],
)  # fmt: skip
def test_bad_hardware_flags_are_one_message(args: list[str], code: int, message: str) -> None:
    result = CliRunner().invoke(app, ["import", str(WEEK), *args])
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_bad_configuration_file_names_its_line_and_key(tmp_path: Path) -> None:
    config = tmp_path / "hw.yaml"
    config.write_text(
        HARDWARE.read_text(encoding="utf-8").replace("da_pairs: 4", "da_pairs: 9"),
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["import", str(WEEK), "--config", str(config)])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert f"{config}:6: system.da_pairs" in result.output
    config.write_text("system: {model: ds8800-951}\npools: []\nworkloads: []\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["import", str(WEEK), "--config", str(config)])
    assert f"{config}:3: 'workloads' is not a key of a hardware configuration" in result.output


def test_import_then_calibrate_of_the_shipped_week_passes_the_gate(tmp_path: Path) -> None:
    """No hand edits: the imported base calibrates, every parameter the figures see is
    identified and holds the truth the week was made with, and --strict exits 0."""
    base = tmp_path / "base.yaml"
    base.write_text(_import("--config", str(HARDWARE), "-q"), encoding="utf-8")
    out = tmp_path / "calibrated.yaml"
    result = CliRunner().invoke(
        app,
        ["calibrate", str(base), "--measured", str(WEEK), *SIX, "--out", str(out), "--strict"],
    )
    assert result.exit_code == 0, result.output
    assert "Quality gate passed" in result.stderr
    calibration = load_scenario(out).calibration
    assert calibration is not None
    fitted = {p.name: p for p in calibration.fitted}
    for name, true in (
        ("oltp.destage_ratio", 0.55),
        ("oltp.skew.level", 9.0),
        ("batch.destage_ratio", 1.0),
    ):
        p = fitted[name]
        assert p.identified, name
        assert p.low is not None
        assert p.high is not None
        assert p.low <= true <= p.high, name
    assert not fitted["batch.skew.level"].identified  # no figure depends on it


def test_without_sequential_fractions_the_gate_fails_naming_them(tmp_path: Path) -> None:
    """The same week with its two sequential columns cut (`cut -d, -f1-10`): the batch's
    256 KiB transfers are taken as random I/O, its response is off by half, and the gate's
    first finding names the remedy; --strict exits 5."""
    week = tmp_path / "week.csv"
    lines = WEEK.read_text(encoding="utf-8").splitlines()
    week.write_text("".join(",".join(line.split(",")[:10]) + "\n" for line in lines), "utf-8")
    imported = CliRunner().invoke(
        app, ["import", str(week), "-p", "io", "-p", "mbs", "--config", str(HARDWARE), "-q"]
    )
    base = tmp_path / "base.yaml"
    base.write_text(imported.stdout, encoding="utf-8")
    assert "sequential_fraction" not in imported.stdout
    result = CliRunner().invoke(
        app, ["calibrate", str(base), "--measured", str(week), *SIX, "--strict", "-q"]
    )
    assert result.exit_code == ExitCode.CALIBRATION_FAILED, result.output
    calibrated = YAML(typ="safe").load(result.stdout)
    first = calibrated["calibration"]["gate"]["findings"][0]
    assert first["subject"] == "fit"
    assert "the errors gather on batch" in first["cause"]
    assert first["remedy"].startswith("add the sequential fractions of batch")
