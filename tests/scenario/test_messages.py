"""Messages a planner's first mistakes get (issue 31 items 6 and 8): one located message
each, with the hint that fixes it, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from diskmodel.cli import app
from diskmodel.errors import ExitCode

from ..support.scenarios import VALID

runner = CliRunner()


def _check(tmp_path: Path, text: str, command: str = "check") -> str:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    args = [command, str(path)]
    if command == "run":
        args += ["--out", f"{tmp_path}/"]
    result = runner.invoke(app, args)
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    return " ".join(result.output.split())


def _line(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.mark.parametrize("command", ["check", "run"])
def test_a_utilisation_target_of_1_is_refused_by_check_and_run(
    tmp_path: Path, command: str
) -> None:
    """It passed `check` and failed `run` with "internal error" (a queue at 100% busy)."""
    text = VALID.replace("easy_tier: auto", "easy_tier: {mode: auto, utilization_target: 1.0}")
    out = _check(tmp_path, text, command)
    assert f"s.yaml:{_line(text, 'utilization_target')}:" in out
    assert "pools[0].easy_tier.utilization_target: 1.0 is not allowed: must be less than 1" in out
    assert "0.8 by default" in out


def test_a_growth_rate_written_as_a_percentage_gets_did_you_mean(tmp_path: Path) -> None:
    out = _check(tmp_path, VALID + "analyses:\n  growth: {rate: 30, periods: 3}\n")
    assert "analyses.growth.rate: 30 is not allowed" in out
    assert "did you mean 0.30?" in out


def test_a_system_model_in_capitals_and_short_gets_did_you_mean(tmp_path: Path) -> None:
    out = _check(tmp_path, VALID.replace("model: ds8800-951", "model: DS8800"))
    assert "unknown storage system 'DS8800'; did you mean 'ds8800-951'?" in out


def test_a_drive_in_capitals_gets_did_you_mean(tmp_path: Path) -> None:
    out = _check(tmp_path, VALID.replace("drive: 15k-146", "drive: 15K-146"))
    assert "did you mean '15k-146'?" in out


def test_a_bad_value_under_compare_set_is_reported_at_its_own_line(tmp_path: Path) -> None:
    """It was reported at the `compare:` line, as a key path of the variant."""
    text = VALID + (
        "analyses:\n"
        "  compare:\n"
        "    - name: alt\n"
        "      set:\n"
        "        system.cache_gb: 64\n"
        "        workloads.oltp.read_fraction: 70\n"
    )
    out = _check(tmp_path, text)
    line = _line(text, "read_fraction: 70")
    assert line != _line(text, "compare:")
    assert (
        f"s.yaml:{line}: analyses.compare[alt].set: workloads.oltp.read_fraction: 70 is not "
        "allowed" in out
    )
    assert "did you mean 0.70?" in out


def test_a_bad_value_inside_a_set_mapping_is_reported_at_its_line(tmp_path: Path) -> None:
    text = VALID + (
        "analyses:\n"
        "  compare:\n"
        "    - name: alt\n"
        "      set:\n"
        "        pools.p0.easy_tier:\n"
        "          mode: auto\n"
        "          utilization_target: 1.0\n"
    )
    out = _check(tmp_path, text)
    assert (
        f"s.yaml:{_line(text, 'utilization_target')}: analyses.compare[alt].set: "
        "pools.p0.easy_tier.utilization_target: 1.0 is not allowed" in out
    )


def test_growth_factors_given_as_one_number_says_write_a_list(tmp_path: Path) -> None:
    out = _check(tmp_path, VALID + "analyses:\n  growth: {factors: 1.3}\n")
    assert "analyses.growth.factors: 1.3 is not allowed" in out
    assert "write a list, even of one: [1.3]" in out


@pytest.mark.parametrize(
    ("written", "meant"),
    [("capacity_gb: 1000", "capacty_gb: 1000"), ("da_pairs: 2", "da_pair: 2")],
)
def test_a_misspelt_key_is_reported_once_not_as_missing_first(
    tmp_path: Path, written: str, meant: str
) -> None:
    out = _check(tmp_path, VALID.replace(written, meant))
    right = written.split(":")[0]
    assert f"did you mean '{right}'?" in out
    assert "is required but missing" not in out
