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
    """The 95% intervals and the model evaluations the page states. Both follow where the
    batch's unidentified skew level ends in its flat valley (the page prints it): there the
    checks of the linearised intervals pass or call for profiles. Where it ends is decided by
    the last bits of the fit's linear algebra, which follow the machine's BLAS kernels: the
    page's run (OpenBLAS's SkylakeX kernels) ends at 1.63 in 252 evaluations; on an AMD EPYC
    (its Zen kernels) it ends at 4.35 and takes 508, the OLTP skew level's interval a profile
    (8.267 to 8.908), the OLTP destage ratio's 0.490 to 0.571 (measured 2026-11-29). Where it
    ends elsewhere the difference is reported as a known gap (an unidentified parameter should
    be held as written while the others' intervals are found: docs/measured.md)."""
    text, rows, fit = documented
    (stated,) = re.findall(r"It takes ([\d,]+) model evaluations", text)
    unseen = [p for p in fit.parameters if not p.identified]
    for p in unseen:
        number = re.search(r"[\d.]+", rows[p.name][1])
        assert number is not None
        if not _close(p.value, number.group(0)):
            pytest.xfail(
                f"{p.name} ended at {p.value:.3g}, not the page's {number.group(0)} (this "
                f"machine's BLAS): {fit.evaluations} evaluations, not {stated}; intervals "
                + "; ".join(
                    f"{q.name} {q.low:.4g} to {q.high:.4g}"
                    for q in fit.parameters
                    if q.identified and q.low is not None and q.high is not None
                )
            )
    assert fit.evaluations == int(stated.replace(",", ""))
    for p in fit.parameters:
        if not p.identified:
            continue
        interval = rows[p.name][2]
        ends = re.match(r"([\d.]+) to ([\d.]+)", interval)
        assert ends is not None, interval
        assert p.low is not None
        assert p.high is not None
        assert _close(p.low, ends.group(1)), (p.name, p.low, interval)
        assert _close(p.high, ends.group(2)), (p.name, p.high, interval)
