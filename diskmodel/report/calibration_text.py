"""What `diskmodel calibrate` prints on standard error: each fitted parameter with its 95%
interval (or why it is not identified), every measured figure against the model, and the
quality gate's verdict with each finding's cause and remedy."""

from __future__ import annotations

from diskmodel.measured.calibrate import Calibration
from diskmodel.scenario.calibration import FIGURES


def render(calibration: Calibration, measured: str) -> str:
    """The calibration as lines of text (module docstring)."""
    lines = [f"Calibrated against {measured} ({', '.join(calibration.intervals)}):"]
    for p in calibration.parameters:
        if p.identified:
            lines.append(f"  {p.name} = {p.value:.4g} (95%: {p.low:.4g} to {p.high:.4g})")
        else:
            lines.append(f"  {p.name}: not identified ({p.why}); left as given")
    if calibration.stopped:
        lines.append(f"  {calibration.stopped}")
    for r in calibration.residuals:
        figure = FIGURES[r.figure]
        unit = f" {figure.unit}" if figure.unit else ""
        got = "saturated" if r.model is None else f"{r.model:.3g}{unit}"
        error = "" if r.error is None else f" ({r.error:+.1%})"
        lines.append(
            f"  {r.interval}, {r.scope}: {figure.label} measured {r.measured:.3g}{unit}, "
            f"model {got}{error}"
        )
    lines.append(
        f"  rms error {calibration.rms_error:.1%} after {calibration.evaluations} model evaluations"
    )
    lines += gate_lines(calibration)
    return "\n".join(lines)


def gate_lines(calibration: Calibration) -> list[str]:
    """The quality gate: its verdict on one line, then each finding with its remedy."""
    gate = calibration.gate
    if gate is None:
        return []
    rms = "n/a" if gate.response_rms_error is None else f"{gate.response_rms_error:.1%}"
    worst = "" if gate.worst_error is None else f", worst {gate.worst_error:+.1%} ({gate.worst})"
    verdict = "passed" if gate.passed else "FAILED"
    lines = [
        f"Quality gate {verdict}: response-time rms error {rms}{worst}; threshold "
        f"{gate.threshold:.0%}"
    ]
    for f in gate.findings:
        lines.append(f"  {'fails' if f.fails else 'warning'}: {f.subject}: {f.cause}")
        lines.append(f"    remedy: {f.remedy}")
    return lines
