"""docs/measured.md's calibration of the shipped week states what it fits and at what cost:
its table of fitted values and 95% intervals, and the model evaluations it takes, are what
`calibrate` gives, to the digits the page prints (issue 30 item 4: the page said 253
evaluations while the command took 546; the speed itself is measured in bench/, never here)."""

from __future__ import annotations

import re

import pytest

from diskmodel.measured.calibrate import Calibration, calibrate

from ..conftest import ROOT
from .test_calibrate import _shipped_week

pytestmark = pytest.mark.calibration

DOC = ROOT / "docs" / "measured.md"


def _close(value: float, text: str) -> bool:
    """`value` is `text` at the digits `text` prints (half a unit of its last digit)."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(value - float(text)) <= 0.5 * 10**-decimals * (1 + 1e-9)


def _rows(text: str) -> dict[str, list[str]]:
    """The calibration table's rows by parameter name: its cells after the name."""
    out = {}
    for line in text.splitlines():
        found = re.match(r"\| `([a-z_]+\.[a-z_.]+)` \|(.*)\|\s*$", line)
        if found and found.group(1).count(".") >= 1 and "true" not in line:
            out[found.group(1)] = [c.strip() for c in found.group(2).split("|")]
    return out


@pytest.fixture(scope="module")
def documented() -> tuple[str, dict[str, list[str]], Calibration]:
    """The page, its table's rows and the fit `calibrate` gives on this machine."""
    text = DOC.read_text(encoding="utf-8")
    scenario, chosen = _shipped_week()
    fit = calibrate(scenario, chosen, base_dir=ROOT / "scenarios" / "measured")
    return text, _rows(text), fit


def test_the_documented_fit_is_what_calibrate_gives(
    documented: tuple[str, dict[str, list[str]], Calibration],
) -> None:
    """The fitted values of the identified parameters, which parameters are identified and
    the rms error: what the data decide, the same on every machine."""
    text, rows, fit = documented
    assert {p.name for p in fit.parameters} <= set(rows)
    for p in fit.parameters:
        _, fitted, _, identified = rows[p.name][:4]
        assert identified.startswith("yes") == p.identified, p.name
        if not p.identified:
            continue
        number = re.search(r"[\d.]+", fitted)
        assert number is not None
        assert _close(p.value, number.group(0)), (p.name, p.value, fitted)
    rms = re.search(r"the response times' rms error ([\d.]+)% \(([\d.]+)% over all", text)
    assert rms is not None
    assert _close(100 * fit.rms_error, rms.group(2))


def test_the_documented_intervals_and_evaluations_are_what_calibrate_gives(
    documented: tuple[str, dict[str, list[str]], Calibration],
) -> None:
    """The 95% intervals and the model evaluations the page states, on every machine. Until
    the batch's unseen skew level was held as written (`diskmodel.measured.held`) both
    followed where it ended in its flat valley, which the BLAS kernels decided: 252
    evaluations with OpenBLAS's SkylakeX kernels, 508 and other interval ends with its Zen
    kernels on an AMD EPYC (measured 2026-11-29). Now the intervals are the same to 1e-9 on
    both; the count may differ by one evaluation, a search fit (stopped at 1e-3) taking one
    step more or less on the last bits (250 with Zen, 251 with SkylakeX, measured
    2026-11-29), which is the one difference allowed."""
    text, rows, fit = documented
    (stated,) = re.findall(r"It takes ([\d,]+) model evaluations", text)
    assert abs(fit.evaluations - int(stated.replace(",", ""))) <= 1
    for p in fit.parameters:
        if not p.identified:
            number = re.search(r"[\d.]+", rows[p.name][1])
            assert number is not None
            assert _close(p.value, number.group(0)), (p.name, p.value, rows[p.name][1])
            continue
        interval = rows[p.name][2]
        ends = re.match(r"([\d.]+) to ([\d.]+)", interval)
        assert ends is not None, interval
        assert p.low is not None
        assert p.high is not None
        assert _close(p.low, ends.group(1)), (p.name, p.low, interval)
        assert _close(p.high, ends.group(2)), (p.name, p.high, interval)
