"""The quality gate of a calibration: whether the calibrated model can be trusted, and if not,
the likely cause and what to do.

A calibration passes when none of its findings fails it:

- **The error.** The relative errors of the measured response times (the figures a planner
  sizes by): their rms at most `threshold` (default `THRESHOLD`, 10%), and the worst interval's
  (its largest response-time error) at most `WORST_FACTOR` times it. A miss names the workload
  the errors gather on and the likely cause: a workload with long transfers and no sequential
  fractions (the model takes its I/O as random, and a sequential stream's prefetched reads and
  full-stride writes cost far less), or a catalog estimate: each estimate the configuration
  uses and the fit did not already fit is tried one step along its range, and the ones whose
  linearised fit would lower the error most are named with `--fit` (`suggestions`).
- **Parameters not identified** (`identify.REASONS`): each fails the gate, with what would pin
  it (more intervals at other loads; the measured figure that sees it: a rank utilisation or
  back-end rate for a destage ratio, write response times for the front-end latency, a DA
  utilisation for a device adapter's cost), or the parameter it cannot be told apart from;
  except one the measured figures do not depend on at all ("unseen"): the calibrated model
  reproduces the measurements whatever its value, so it is a warning (it is left as written,
  and may matter at other loads), not a failure.
- **A fit on the edge of a stated range** (the front-end latency's, a hit ratio's, a catalog
  estimate's, the destage ratio's floor of 0.05 or the skew's ceiling of 24) fails: the data
  push it past the range, so the range is too narrow or another figure is wrong. An end that
  is a value the quantity takes (every write destaged, no skew, a fraction's 0 or 1) is none.
- **A fit stopped before it converged** (the work bound, or scipy's step limit) fails.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from diskmodel.analyses.catalog_band import Estimate
from diskmodel.measured.figures import Residual
from diskmodel.measured.identify import Parameter
from diskmodel.measured.problem import DESTAGE, FRONT_END, HIT, PIN_SHARE, SKEW, Problem
from diskmodel.scenario.calibration import RESPONSE_FIGURES

THRESHOLD = 0.10
"""The default largest rms relative error of the measured response times a calibration may
leave."""
WORST_FACTOR = 2.0
"""The worst interval's response-time error may be this many times the threshold: with
errors of about the threshold's size, one interval in twenty is off by twice it."""
LONG_TRANSFER_KIB = 64.0
"""Transfers this long or longer, with no sequential fraction given, look like a stream the
model takes as random I/O."""
SUGGESTIONS = 2
"""Catalog estimates named at most in a remedy."""
STEP_SHARE = 0.05
"""The step, as a share of its range, at which a catalog estimate is tried (`suggestions`)."""


@dataclass(frozen=True)
class Finding:
    """One thing the gate found: about what (`subject`: "fit", an interval, a parameter's
    name), the likely cause, the remedy, and whether it fails the gate."""

    subject: str
    cause: str
    remedy: str
    fails: bool


@dataclass(frozen=True)
class Suggestion:
    """A catalog estimate whose fit would lower the error (linearised): its path, what the
    report calls it, its value and range, and the rms error the linearised fit predicts."""

    path: str
    label: str
    value: float
    low: float
    high: float
    rms_after: float


@dataclass(frozen=True)
class Gate:
    threshold: float
    response_rms_error: float | None
    """The rms relative error of the measured response times (None: every one saturated)."""
    worst_error: float | None
    worst: str
    """The interval and scope of the worst response-time error."""
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        return not any(f.fails for f in self.findings)


def judge(
    threshold: float,
    params: Sequence[Parameter],
    residuals: Sequence[Residual],
    stopped: str,
    long_random: Sequence[str] = (),
    suggestions: Sequence[Suggestion] = (),
) -> Gate:
    """The gate's findings (module docstring). `long_random`: the measured workloads with
    long transfers and no sequential fractions; `suggestions`: the catalog estimates whose fit
    would lower the error most."""
    responses = [r for r in residuals if r.figure in RESPONSE_FIGURES]
    errors = [r.error for r in responses if r.error is not None]
    saturated = [r for r in responses if r.error is None]
    rms = math.sqrt(sum(e * e for e in errors) / len(errors)) if errors else None
    worst_error: float | None = None
    worst = ""
    scored = [(r.error, r) for r in responses if r.error is not None]
    if scored:
        worst_error, top = max(scored, key=lambda pair: abs(pair[0]))
        worst = f"{top.interval}, {top.scope}"
    findings: list[Finding] = []
    misses = bool(saturated) or rms is None or rms > threshold
    measured = frozenset(r.figure for r in residuals)
    if saturated:
        findings.append(
            Finding(
                "fit",
                f"the calibrated model saturates at {len(saturated)} measured response "
                f"time(s) (first: {saturated[0].interval}, {saturated[0].scope}): it cannot "
                "carry a load the system carried",
                "check the scenario's hardware against the system measured (ranks, DA pairs, "
                "host ports), or fit the catalog figure that binds (--fit)",
                True,
            )
        )
    if rms is None or rms > threshold:
        findings.append(_error_finding(rms, threshold, responses, long_random, suggestions))
    elif worst_error is not None and abs(worst_error) > WORST_FACTOR * threshold:
        findings.append(
            Finding(
                worst,
                f"the worst interval is off by {worst_error:+.1%}, more than {WORST_FACTOR:g} "
                f"times the threshold ({threshold:.0%}) while the rest fit",
                "check that interval (a backup, a failover, a workload missing from the "
                "scenario), or leave it out (--peak)",
                True,
            )
        )
    for p in params:
        finding = _parameter_finding(p, measured, misses)
        if finding is not None:
            findings.append(finding)
    # A parameter no figure sees is held as written, not fitted (`diskmodel.measured.held`),
    # and no number of figures would pin it: it is not counted.
    figures, fitted = len(residuals), sum(p.reason != "unseen" for p in params)
    if figures < 2 * fitted and any(p.reason not in ("", "unseen") for p in params):
        findings.insert(
            0,
            Finding(
                "fit",
                f"{figures} measured figures for {fitted} parameters: too few to pin them",
                "choose more intervals (--peak), at different loads: at least twice as many "
                "figures as parameters",
                True,
            ),
        )
    if stopped:
        findings.append(
            Finding(
                "fit",
                stopped,
                "calibrate fewer intervals or workloads at a time (a scenario of one pool)",
                True,
            )
        )
    return Gate(threshold, rms, worst_error, worst, tuple(findings))


def _error_finding(
    rms: float | None,
    threshold: float,
    responses: Sequence[Residual],
    long_random: Sequence[str],
    suggestions: Sequence[Suggestion],
) -> Finding:
    """Why the response times are not reproduced, as far as it can be told."""
    by_scope: dict[str, list[float]] = {}
    for r in responses:
        if r.error is not None:
            by_scope.setdefault(r.scope, []).append(r.error)
    gathered = ""
    if by_scope:
        scope, errs = max(by_scope.items(), key=lambda kv: sum(e * e for e in kv[1]) / len(kv[1]))
        mean = sum(errs) / len(errs)
        gathered = f"; the errors gather on {scope} (its response off by {mean:+.0%} on average)"
    error = "saturated" if rms is None else f"{rms:.1%}"
    cause = (
        f"the model does not reproduce the measured response times: rms error {error}, above "
        f"the threshold of {threshold:.0%}{gathered}"
    )
    remedies = []
    if long_random:
        remedies.append(
            f"add the sequential fractions of {', '.join(long_random)} (read_sequential_fraction"
            " and write_sequential_fraction in the scenario, or columns of those names in the "
            "CSV): its long transfers look sequential, and without them the model takes them "
            "as random I/O"
        )
    for s in suggestions:
        remedies.append(
            f"fit a catalog figure: --fit {s.path} ({s.label}, estimated {s.value:g} in "
            f"{s.low:g} to {s.high:g}; fitting it too would bring the error to about "
            f"{s.rms_after:.1%}, linearised)"
        )
    if not remedies:
        remedies.append(
            "check the scenario's hardware and workloads against the system measured, and "
            "add intervals at other loads"
        )
    return Finding("fit", cause, "; or ".join(remedies), True)


def _sees(p: Parameter, measured: frozenset[str]) -> str:
    """What would see parameter `p` apart, given the figures already `measured`."""
    if p.kind == "catalog":
        if p.key.startswith("device_adapter"):
            figure, what = "da_utilization", "the measured DA utilisation"
        elif p.key.startswith("host_adapters"):
            figure, what = "host_port_utilization", "the measured host port utilisation"
        else:
            return "add intervals at loads where it binds, or measured utilisations"
        if figure in measured:
            return ""  # more intervals at other loads (the generic remedy) is what is left
        return f"add {what} ({figure}), and intervals at higher loads"
    if p.key == DESTAGE:
        if measured & {"rank_utilization", "backend_iops"}:
            return ""  # the back-end figures that see it are measured: more intervals
        return (
            "add a measured rank utilisation or back-end rate (rank_utilization, backend_iops "
            "columns): they see the back-end work the destage ratio sets"
        )
    if p.key == FRONT_END:
        if "write_response_ms" in measured:
            return "add a second workload with another mix, or state the front-end latency"
        return (
            "add measured write response times (write_response_ms), or a second workload "
            "with another mix; or state the front-end latency"
        )
    return {
        SKEW: "add intervals at higher loads, or give a measured skew curve (a heat map)",
        HIT: "measure it (a read_hit_ratio column), or state it",
        PIN_SHARE: "add intervals at other loads, or state the share",
    }.get(p.key, "")


MISSES_FIRST = (
    "make the model reproduce the measured response times first (the finding above): a "
    "parameter's interval means little while the model misses the data"
)


def _parameter_finding(p: Parameter, measured: frozenset[str], misses: bool) -> Finding | None:
    """The finding of one parameter: not identified, or on the edge of a stated range
    (`measured`: the figures the data give; `misses`: the model does not reproduce them)."""
    sees = _sees(p, measured)
    if p.reason == "unseen":
        return Finding(
            p.name,
            "not identified: the measured figures do not depend on it at all (at these loads), "
            "so the calibrated model reproduces them whatever its value; left as written, and "
            "it may matter at other loads",
            f"to pin it, measure intervals where it matters; {sees}" if sees else "state it",
            False,
        )
    if p.reason == "cut":
        return Finding(p.name, p.why, "calibrate fewer intervals or workloads at a time", True)
    if misses and p.reason:
        return Finding(p.name, f"not identified: {p.why}", MISSES_FIRST, True)
    if p.reason == "minima":
        return Finding(
            p.name,
            f"not identified: {p.why}",
            "add intervals at other loads, so that one valley is clearly lowest",
            True,
        )
    if p.reason:
        remedy = "add more intervals, at different loads"
        if p.partner:
            remedy = (
                f"add a figure that sees it apart from {p.partner}, or state one of the two"
                + (f"; {sees}" if sees else "")
            )
        elif sees:
            remedy += f"; {sees}"
        if p.reason == "bound" and _edge(p) is not None:
            remedy += (
                "; should more data keep it on the edge of its range, the range is too narrow "
                "or another figure is wrong"
            )
        return Finding(p.name, f"not identified: {p.why}", remedy, True)
    return _edge(p)


def _edge(p: Parameter) -> Finding | None:
    """A fit on the edge of a stated range (module docstring), or None (a parameter not
    identified says so first: `_parameter_finding`)."""
    if p.bounds is None:
        return None
    low, high = p.bounds
    span = high - low
    for end, at, natural in ((low, "low", p.natural[0]), (high, "high", p.natural[1])):
        if abs(p.value - end) <= 1e-3 * span and not natural:
            return Finding(
                p.name,
                f"the fit sits on the {at} end of its range ({p.value:.4g}, range {low:g} to "
                f"{high:g}): the data push it past the range",
                "the range may be too narrow (widen it if the hardware allows), or another "
                "figure is wrong (a catalog estimate: --fit one; where the error is above the "
                "threshold, its remedy names the likeliest)",
                True,
            )
    return None


def long_random_workloads(problem: Problem) -> list[str]:
    """The measured workloads with transfers of `LONG_TRANSFER_KIB` or more (in any chosen
    interval) and no sequential fraction given (in the scenario or the intervals)."""
    out = []
    measured = {u.workload for u in problem.unknowns if u.key == DESTAGE}
    for w in sorted(measured):
        workload = problem.scenario.workloads[w]
        rows = [r for sel in problem.selections for r in sel.rows if r.scope == workload.name]
        long = any(max(r.read_kib, r.write_kib) >= LONG_TRANSFER_KIB for r in rows)
        given = (
            workload.read_sequential_fraction != 0
            or workload.write_sequential_fraction != 0
            or any(
                r.read_sequential_fraction is not None or r.write_sequential_fraction is not None
                for r in rows
            )
        )
        if long and not given:
            out.append(workload.name)
    return out


def suggestions(
    problem: Problem, x: np.ndarray, jac: np.ndarray, candidates: Sequence[Estimate]
) -> list[Suggestion]:
    """The catalog estimates (of `candidates`, not already fitted) whose fit would lower the
    error most, at most `SUGGESTIONS`, each only if it would lower the rms error by a tenth or
    more: each moved `STEP_SHARE` of its range (one evaluation), its effect on the residuals
    taken apart from what the fitted parameters already do (projected off the columns of the
    Jacobian `jac` at the fit `x`), and the best step within its range taken."""
    if problem.budget is None or problem.budget.left() < 2:
        return []
    r = problem.residuals(x)
    least = float(r @ r)
    response = np.array([figure in RESPONSE_FIGURES for _, _, figure, _ in problem.targets])
    basis = jac[:, np.linalg.norm(jac, axis=0) > 0] if jac.size else jac
    fitted = {u.estimate.path for u in problem.unknowns if u.estimate is not None}
    scored = []
    for est in candidates:
        if est.path in fitted:
            continue
        if problem.budget.left() < 1:
            break  # the work bound: the estimates tried so far are ranked
        step = STEP_SHARE * (est.high - est.low)
        if est.value + step > est.high:
            step = -step
        moved = problem.residuals(x, est.put(problem.catalog, est.value + step))
        column = (moved - r) / step
        if basis.size:
            column = column - basis @ np.linalg.lstsq(basis, column, rcond=None)[0]
        norm = float(column @ column)
        if norm <= 0:
            continue
        t = -float(r @ column) / norm
        t = min(max(t, est.low - est.value), est.high - est.value)
        after = r + t * column
        total = float(after @ after)
        if total < 0.81 * least:  # the rms lowered by a tenth or more
            rms_after = math.sqrt(float(np.mean(after[response] ** 2)))
            scored.append((total, rms_after, est))
    scored.sort(key=lambda item: item[0])
    return [
        Suggestion(est.path, est.label, est.value, est.low, est.high, rms_after)
        for _, rms_after, est in scored[:SUGGESTIONS]
    ]
