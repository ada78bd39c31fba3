"""docs/measured.md's calibration of the shipped week states what it fits and at what cost:
its table of fitted values and 95% intervals, and the model evaluations it takes, are what
`calibrate` gives, to the digits the page prints (issue 30 item 4: the page said 253
evaluations while the command took 546; the speed itself is measured in bench/, never here)."""

from __future__ import annotations

import re

import pytest

from diskmodel.measured.calibrate import calibrate

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


def test_the_documented_calibration_is_what_calibrate_gives() -> None:
    text = DOC.read_text(encoding="utf-8")
    scenario, chosen = _shipped_week()
    fit = calibrate(scenario, chosen, base_dir=ROOT / "scenarios" / "measured")
    (stated,) = re.findall(r"It takes ([\d,]+) model evaluations", text)
    assert fit.evaluations == int(stated.replace(",", ""))
    rows = _rows(text)
    assert {p.name for p in fit.parameters} <= set(rows)
    for p in fit.parameters:
        _, fitted, interval, identified = rows[p.name][:4]
        assert identified.startswith("yes") == p.identified, p.name
        number = re.search(r"[\d.]+", fitted)
        assert number is not None
        assert _close(p.value, number.group(0)), (p.name, p.value, fitted)
        if not p.identified:
            continue
        ends = re.match(r"([\d.]+) to ([\d.]+)", interval)
        assert ends is not None, interval
        assert p.low is not None
        assert p.high is not None
        assert _close(p.low, ends.group(1)), (p.name, p.low, interval)
        assert _close(p.high, ends.group(2)), (p.name, p.high, interval)
    rms = re.search(r"the response times' rms error ([\d.]+)% \(([\d.]+)% over all", text)
    assert rms is not None
    assert _close(100 * fit.rms_error, rms.group(2))
