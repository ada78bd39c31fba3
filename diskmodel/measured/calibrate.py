"""Calibration: fit what a measurement cannot show to the response times it did measure.

A base model reproduces the system that runs today before any what-if is asked of it. The
interval data give each workload's rate, mix, transfer sizes and usually its hit ratio
directly; they do not give the destage ratio (writes folded in NVS) or the skew (how unevenly
the I/O falls on the data). Those are fitted, within physical bounds, to the measured response
times of the chosen intervals (each scope at each interval one figure) and, where the data
give it, the measured utilisation of the ranks in the scope's pool (a second figure: it sees
the back-end work directly, so it pins the destage ratio where response times alone leave it
loose), by scipy's bounded nonlinear least squares on relative residuals (model / measured -
1). A read hit ratio the data lack, given as a range in the scenario (`diskmodel import`
writes [0, 0.95] for it), is fitted within that range too, and so are a workload's allocation
(the share of its back-end I/O that its data pinned to a tier carries, `pin.io_share`) and
the system's front-end latency (the fixed light-load time of one I/O, a catalog figure from
DOMAIN.md C6) where the scenario gives them as ranges (`FRONT_END_RANGE` is the physical
range of the latter).

Beside the response time, the interval data may give a scope's read and write response times,
and its pool's rank utilisation and back-end (disk) operation rate, and the system's DA and
host-port utilisations (`FIGURES`; a pool's and the system's figures count once per
interval). Each is a figure fitted beside the others: the utilisations and the back-end rate
see the back-end work directly (they pin the destage ratio that response times leave loose),
and a write's response (a fast write is front end only) pins the front-end latency that, at
light load, moves every response by a constant just as the skew does.

The fit starts from the best point of a coarse grid of destage ratio and skew level, walked
for every workload at once and then for each alone, and takes finite differences at a relative
step of 1e-6 (`profile.DIFF_STEP`: the model is smooth to rounding between the small steps an
Easy Tier pool shared by two workloads makes, which a step of 1e-3 straddled).

Identifiability: from the Jacobian J at the fit and the residual variance s^2, each
parameter's standard error is sqrt(diag((J^T J)^-1) s^2), and its linearised 95% interval that
times Student's t at the residual's degrees of freedom (figures minus parameters). Where that
interval cannot be trusted (it reaches a bound, or the sum of squares at its ends, with the
others moved as the linearised fit moves them, misses the threshold it predicts there by more
than a quarter of the rise: `_suspect`, two model evaluations), the parameter's profile is
walked (`diskmodel.measured.profile`: it held at values, the others refitted, the interval
where the sum of squares stays within s^2 F(1, n - p; 0.95) of the fit's), which follows the
model's curvature and may be one-sided at a bound; `intervals="profile"` walks every
parameter's, `"linear"` none. A parameter is reported as *not identified* when the data do not
move the fit (its column of J is ~0: e.g. skew in a pool of one tier, where placement does not
depend on it), or when its 95% interval covers more than half its allowed range, or when the
linearised fit ran to a bound and no profile was walked, or its profile reaches below the fit;
otherwise as the value with its 95% interval. (J^T J)^-1 is taken by the singular values of J
with each column scaled to its parameter's range, a direction the data do not see getting an
unbounded variance, and a parameter not identified is said to be confounded with another where
their correlation is above 0.95 (or, from a profile, where the other follows it by a quarter of
its range). Coverage over seeded synthetic studies: docs/measured.md.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from diskmodel.catalog import Catalog
from diskmodel.configuration import resolve
from diskmodel.errors import InputError
from diskmodel.measured.budget import (
    Evaluations,
    WorkBoundError,
    calibration_budget,
    start_evaluations,
)
from diskmodel.measured.peaks import Selection
from diskmodel.measured.profile import Profile, bounded_least_squares, profile
from diskmodel.model import results
from diskmodel.model.operating import OperatingPoint, Solver
from diskmodel.prediction import WorkloadResult
from diskmodel.scenario import Scenario
from diskmodel.scenario.files import scenario_catalog

DESTAGE_BOUNDS = (0.05, 1.0)
"""Destages per host write: at least 1 in 20 writes reaches the drives (a write-folding rate
beyond 95% would need NVS far larger than the written data), at most every write."""
SKEW_BOUNDS = (1.0, 24.0)
"""Skew level: 1 is none; 24 the highest the commercial tool names (DOMAIN.md C7)."""
FRONT_END_RANGE = (50.0, 500.0)
"""The physical range of the fixed light-load front-end time of one I/O, us, for a planner
who does not know it (`system.front_end_latency_us: [50, 500]`): a third to three times
DOMAIN.md C6's 150 us (measured over 8 Gb/s FICON; Fibre Channel hosts, fabrics and microcode
levels differ). Below about 50 us the port and processor time the model already counts for a
small write (20 + 32.9 us on a DS8800) would exceed it, and it would change nothing. The fit
keeps to the range the scenario gives."""
FRONT_END = "front_end_latency_us"
PIN_SHARE = "pin.io_share"
"""A workload's allocation: the share of its back-end I/O its data pinned to a tier carries."""
SYSTEM = "system"
"""The `workload` of a parameter or figure that belongs to the whole system."""
GRID_DESTAGE = (0.2, 0.5, 1.0)
GRID_LEVEL = (1.5, 3.0, 6.0, 12.0, 24.0)
"""The coarse grid the fit starts from the best point of (destage ratio by skew level)."""
SATURATED_RESIDUAL = 5.0
"""The relative residual of a figure the model cannot reach (its point saturates), times the
overload (load over what the network carries)."""


@dataclass(frozen=True)
class Parameter:
    """One fitted parameter: the workload and key, the value, its 95% interval (None when not
    identified) and why not."""

    workload: str  # or SYSTEM for the front-end latency
    key: str  # "destage_ratio" | "skew.level" | "read_hit_ratio" | PIN_SHARE | FRONT_END
    value: float
    low: float | None
    high: float | None
    identified: bool
    why: str = ""


@dataclass(frozen=True)
class Figure:
    """A measured figure calibration can fit to: what it is called in reports, its unit, and
    what it measures (`scope`: one workload's I/O, the ranks of the workload's pool, or the
    whole system; a pool's or the system's figure counts once per interval however many rows
    carry it)."""

    label: str
    unit: str
    scope: str  # "workload" | "pool" | "system"


FIGURES = {
    "response_ms": Figure("response", "ms", "workload"),
    "read_response_ms": Figure("read response", "ms", "workload"),
    "write_response_ms": Figure("write response", "ms", "workload"),
    "rank_utilization": Figure("rank utilisation", "", "pool"),
    "backend_iops": Figure("back-end rate", "ops/s", "pool"),
    "da_utilization": Figure("DA utilisation", "", "system"),
    "host_port_utilization": Figure("host port utilisation", "", "system"),
}
"""What calibration fits to (the interval columns of the same names)."""


@dataclass(frozen=True)
class Residual:
    """One measured figure (`figure`: a key of `FIGURES`) of one `scope` (a workload, a pool
    or SYSTEM) against the calibrated model (None where the model saturates)."""

    interval: str
    scope: str
    measured: float
    model: float | None
    figure: str = "response_ms"

    @property
    def error(self) -> float | None:
        return None if self.model is None else self.model / self.measured - 1.0


@dataclass(frozen=True)
class Calibration:
    parameters: tuple[Parameter, ...]
    residuals: tuple[Residual, ...]
    rms_error: float
    evaluations: int
    stopped: str = ""
    """Why the fit stopped before it converged ("" when it converged)."""


LEAST_MEASURED = 1e-9
"""A measured figure (a rate, a time, a busy fraction) below this is not fitted: relative to
it the model's value overflows (found by fuzzing: 2.2e-311 in a CSV cell)."""
IDLE_IOPS = 1e-3
"""The rate an interval's scope is modelled at when it measured less (an idle scope)."""

Target = tuple[int, int, str, float]
"""(selection, workload index, figure, measured value) of one figure to fit."""


def _targets(scenario: Scenario, selections: Sequence[Selection]) -> list[Target]:
    """Every figure to fit: each scope's response times, its pool's figures and the system's
    where measured (each pool's and the system's once per interval)."""
    names = [w.name for w in scenario.workloads]
    out: list[Target] = []
    for s, sel in enumerate(selections):
        seen: set[tuple[str, str]] = set()  # (pool or SYSTEM, figure) this interval gave
        for row in sel.rows:
            if row.scope not in names:
                raise InputError(
                    f"{sel.label}: scope {row.scope!r} is not a workload of the scenario "
                    f"(its workloads: {', '.join(names)})"
                )
            if row.io_rate < LEAST_MEASURED:
                continue
            w = names.index(row.scope)
            pool = scenario.workloads[w].pool
            for figure, kind in FIGURES.items():
                value = getattr(row, figure)
                if value is None or value < LEAST_MEASURED:
                    continue  # not measured (a figure of 1e-311 is no measurement either)
                owner = {"workload": row.scope, "pool": f"pool {pool}", "system": SYSTEM}
                if kind.scope != "workload":
                    if (owner[kind.scope], figure) in seen:
                        continue
                    seen.add((owner[kind.scope], figure))
                out.append((s, w, figure, value))
    if not any(FIGURES[figure].scope == "workload" for _, _, figure, _ in out):
        raise InputError(
            "calibration needs measured response times (response_ms, read_response_ms or "
            "write_response_ms) for the chosen intervals"
        )
    return out


def _check_loads(base: dict[str, Any], selections: Sequence[Selection], catalog: Catalog) -> None:
    """`InputError` naming the interval when the scenario at its measured loads and mixes does
    not validate (a rate or a transfer size past the scenario's bounds), before any model is
    solved (found by fuzzing: a validation error escaped the fit as a traceback)."""
    for sel in selections:
        try:
            Scenario.model_validate(_at(base, sel, np.array([]), []), context={"catalog": catalog})
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            # The key path, without pydantic's union tags ("constrained-float").
            where = ".".join(
                str(step) for step in first["loc"] if isinstance(step, int) or step.isidentifier()
            )
            raise InputError(
                f"{sel.label}: the scenario at this interval's measured load does not "
                f"validate: {where}: {first['msg']}"
            ) from None


def _scope(scenario: Scenario, w: int, figure: str) -> str:
    """What a figure of row `w` measures: the workload, its pool, or SYSTEM."""
    kind = FIGURES[figure].scope
    if kind == "workload":
        return scenario.workloads[w].name
    return scenario.workloads[w].pool if kind == "pool" else SYSTEM


def pool_rank_utilization(point: OperatingPoint, pool: str) -> float:
    """Mean busy fraction of the drives of the ranks in `pool` (what a performance tool
    reports as the pool's rank utilisation)."""
    busy = [
        point.utilization[info.station] for info in point.network.ranks if info.rank.pool == pool
    ]
    return float(np.mean(busy)) if busy else 0.0


def pool_backend_iops(point: OperatingPoint, pool: str) -> float:
    """Disk operations per second on the drives of the ranks in `pool` (reads, stages,
    destage reads and writes, prefetches: what the drives themselves count)."""
    net = point.network
    return float(
        sum(
            point.arrival[info.station] * net.stations[info.station].drives
            for info in net.ranks
            if info.rank.pool == pool
        )
    )


def mean_utilization(point: OperatingPoint, kind: str) -> float:
    """Mean busy fraction of the system's stations of one kind (`device_adapter`: the DA
    pairs; `host_adapter`: the host ports)."""
    busy = [point.utilization[k] for k, st in enumerate(point.network.stations) if st.kind == kind]
    return float(np.mean(busy)) if busy else 0.0


def figure_value(
    point: OperatingPoint, workload: WorkloadResult, pool: str, figure: str
) -> float | None:
    """The model's value of a measured figure (`FIGURES`) at an operating point: of
    `workload` (its result at the point) or of its `pool`, or the system's."""
    if figure == "response_ms":
        return workload.response_time_ms
    if figure == "read_response_ms":
        return workload.read_response_time_ms
    if figure == "write_response_ms":
        return workload.write_response_time_ms
    if figure == "rank_utilization":
        return pool_rank_utilization(point, pool)
    if figure == "backend_iops":
        return pool_backend_iops(point, pool)
    if figure == "da_utilization":
        return mean_utilization(point, "device_adapter")
    if figure == "host_port_utilization":
        return mean_utilization(point, "host_adapter")
    raise ValueError(f"unknown figure {figure!r}")


def _at(
    base: dict[str, Any], sel: Selection, x: np.ndarray, keys: Sequence[tuple[int, str]]
) -> dict[str, Any]:
    """The scenario data at interval `sel` (its measured mix) with parameters `x`."""
    data = copy.deepcopy(base)
    rows = {r.scope: r for r in sel.rows}
    for w in data["workloads"]:
        row = rows.get(w["name"])
        if row is None:
            continue
        w["iops"] = max(row.io_rate, IDLE_IOPS)
        w["read_fraction"] = row.read_fraction
        if row.read_hit_ratio is not None:
            w["read_hit_ratio"] = row.read_hit_ratio
        w["read_size_kib"] = row.read_kib
        w["write_size_kib"] = row.write_kib
    for value, (w, key) in zip(x, keys, strict=True):
        if key == FRONT_END:
            data["system"][FRONT_END] = float(value)
        elif key == PIN_SHARE:
            data["workloads"][w]["pin"]["io_share"] = float(value)
        elif key == "skew.level":
            # A level of exactly 1 (no skew at all) is not one the scenario takes: the bound a
            # profile walks to is approached, not reached.
            level = max(float(value), SKEW_BOUNDS[0] + 1e-6)
            data["workloads"][w]["skew"] = {"level": level}
        else:
            data["workloads"][w][key] = float(value)
    data["analyses"] = {}
    return data


INTERVALS = ("auto", "profile", "linear")
CUT_SHORT = (
    "its interval was not checked: diskmodel's work bound (about a minute of computing, "
    "docs/SECURITY.md) ran out first; calibrate fewer intervals or workloads at a time"
)
"""Why a parameter is not identified when the work bound stopped its check or profile."""
"""How a parameter's 95% interval is found (`calibrate`'s `intervals`)."""
NONLINEAR = 0.25
"""A linearised interval is suspect where the sum of squares at either of its ends (along the
linearised profile trace) misses the 95% threshold by more than this fraction of the rise: its
end is then misplaced by about a tenth of its half-width or more."""
RESTARTS = 1
"""How many times the fit is made again from a better point a profile found."""
NOT_SEEN = 1e-6
"""A Jacobian column (relative residuals per unit of the parameter) below this: the figures
do not move with the parameter at the fit."""


def _unidentified(column: float, value: float, lo: float, hi: float, half_width: float) -> str:
    """Why a fitted parameter is not identified by its linearised interval, or "" if it is."""
    span = hi - lo
    if column < NOT_SEEN:
        return "the data do not depend on it"
    if min(value - lo, hi - value) <= 1e-3 * span:
        return (
            f"the fit ran to its bound ({value:.3g}): the data push it outside its physical "
            "range or do not pin it"
        )
    if 2 * half_width > span / 2:
        return f"its 95% interval (+-{half_width:.3g}) covers more than half its range"
    return ""


def _unidentified_by_profile(walked: Profile, lo: float, hi: float) -> str:
    """Why a fitted parameter is not identified by its profile, or "" if it is."""
    if walked.better is not None:
        return "its profile reaches below the fit: the sum of squares has more than one minimum"
    if walked.high - walked.low > (hi - lo) / 2:
        return (
            f"its profile is flat: within the 95% threshold from {walked.low:.4g} to "
            f"{walked.high:.4g}, more than half its range"
        )
    return ""


def _covariance(jac: np.ndarray, span: np.ndarray, s2: float) -> np.ndarray:
    """(J^T J)^-1 s^2 by the singular values of J with its columns scaled to each parameter's
    range: a direction the data do not see (a singular value below 1e-9 of the largest, so
    two parameters that move the figures alike) gets an unbounded variance rather than the
    zero a pseudo-inverse would give it."""
    scaled = jac * span
    _, sv, vt = np.linalg.svd(scaled, full_matrices=False)
    floor = max(float(sv.max(initial=0.0)), 1e-300) * 1e-9
    seen = sv > floor
    # (Found by fuzzing: with every column 0 the floor underflows, and 1 / floor^2 warned.)
    inverse = np.where(seen, 1.0 / np.where(seen, sv, 1.0) ** 2, 1e30)
    cov = (vt.T * inverse) @ vt
    return cov * np.outer(span, span) * s2


def _follow(x: np.ndarray, jac: np.ndarray, i: int, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """How the other parameters follow parameter `i` in the linearised fit (the Gauss-Newton
    profile trace): C[:, i] / C[i, i], C the covariance over the parameters free to move
    (neither at a bound nor unseen); 0 for the rest."""
    span = hi - lo
    at_bound = np.minimum(x - lo, hi - x) <= 1e-3 * span
    free = ~at_bound & (np.linalg.norm(jac, axis=0) >= NOT_SEEN)
    free[i] = True
    cov = _covariance(jac[:, free], span[free], 1.0)
    k = int(np.count_nonzero(free[:i]))
    follow = np.zeros_like(x)
    follow[free] = cov[:, k] / cov[k, k]
    return follow


def _suspect(
    residuals: Callable[[np.ndarray], np.ndarray],
    x: np.ndarray,
    follow: np.ndarray,
    i: int,
    half_width: float,
    least: float,
    rise: float,
    lo: np.ndarray,
    hi: np.ndarray,
) -> bool:
    """Whether parameter `i`'s linearised interval (x[i] +- `half_width`) cannot be trusted:
    it reaches a bound (a linearised interval means nothing at a bound), or the model is not
    linear over it. The latter is measured at each end of the interval, at the point the
    linearised fit moves the others to (`follow`, `_follow`): for a linear model its sum of
    squares is exactly the threshold, `least` + `rise`. Two model evaluations."""
    value = float(x[i])
    if value - half_width <= lo[i] or value + half_width >= hi[i]:
        return True
    for offset in (-half_width, half_width):
        end = x + follow * offset
        if np.any(end < lo) or np.any(end > hi):
            return True
        r = residuals(end)
        if abs(float(r @ r) - least - rise) > NONLINEAR * rise:
            return True
    return False


def _parameters(
    residuals: Callable[[np.ndarray], np.ndarray],
    fit: Any,
    lo: np.ndarray,
    hi: np.ndarray,
    names: Sequence[str],
    keys: Sequence[tuple[int, str]],
    intervals: str,
) -> tuple[list[Parameter], np.ndarray | None]:
    """Each fitted parameter with its 95% interval, or why it is not identified (module
    docstring): linearised, or its profile where `intervals` asks (or, "auto", where the
    linearised interval is suspect); and the best point a profile found below the fit, if
    one. A parameter whose check or profile would go past the work bound (`budget`) is not
    identified, and says so."""
    from scipy.stats import f as fisher  # deferred: only calibration needs it

    x = np.asarray(fit.x)
    jac = np.asarray(fit.jac)
    least = float(fit.fun @ fit.fun)
    dof = max(len(fit.fun) - len(x), 1)
    s2 = max(least / dof, 1e-12)
    # F(1, dof) = t(dof)^2: the linearised interval (Student's t, as s^2 is itself estimated
    # from few figures) and the profile's threshold are the same where the model is linear.
    rise = s2 * float(fisher.ppf(0.95, 1, dof))
    column = np.linalg.norm(jac, axis=0)
    span = hi - lo
    cov = _covariance(jac, span, s2)
    params = []
    better: tuple[float, np.ndarray] | None = None
    for i, (w, key) in enumerate(keys):
        workload = SYSTEM if w < 0 else names[w]
        value = float(x[i])
        half_width = math.sqrt(max(float(cov[i, i]), 0.0) * rise / s2)
        follow = _follow(x, jac, i, lo, hi) if column[i] >= NOT_SEEN else np.zeros_like(x)
        try:
            walk = column[i] >= NOT_SEEN and (
                intervals == "profile"
                or (
                    intervals == "auto"
                    and _suspect(residuals, x, follow, i, half_width, least, rise, lo, hi)
                )
            )
            walked = (
                profile(residuals, x, least, rise, lo, hi, i, follow, half_width) if walk else None
            )
        except WorkBoundError:
            params.append(Parameter(workload, key, value, None, None, False, CUT_SHORT))
            continue
        if walked is not None:
            if walked.better is not None and (better is None or walked.better[0] < better[0]):
                better = walked.better
            why = _unidentified_by_profile(walked, float(lo[i]), float(hi[i]))
            if not why:
                params.append(Parameter(workload, key, value, walked.low, walked.high, True))
                continue
            params.append(
                Parameter(
                    workload,
                    key,
                    value,
                    None,
                    None,
                    False,
                    why + _trace_partner(names, keys, i, walked, span),
                )
            )
            continue
        why = _unidentified(column[i], value, float(lo[i]), float(hi[i]), half_width)
        if why and column[i] >= NOT_SEEN:
            # Name the parameter it cannot be told apart from, if one.
            sd = np.sqrt(np.maximum(np.diag(cov), 1e-300))
            corr = cov[i] / (sd[i] * sd)
            corr[i] = 0.0
            j = int(np.argmax(np.abs(corr)))
            if abs(corr[j]) > 0.95 and column[j] >= NOT_SEEN:
                why += (
                    f"; the data do not tell it apart from {_label(names, keys[j])} "
                    f"(correlation {corr[j]:+.2f})"
                )
        if why:
            params.append(Parameter(workload, key, value, None, None, False, why))
        else:
            low, high = max(lo[i], value - half_width), min(hi[i], value + half_width)
            params.append(Parameter(workload, key, value, float(low), float(high), True))
    return params, None if better is None else better[1]


def _trace_partner(
    names: Sequence[str],
    keys: Sequence[tuple[int, str]],
    i: int,
    walked: Profile,
    span: np.ndarray,
) -> str:
    """The parameters that follow parameter `i` along its profile by a quarter of their range
    or more, furthest first: those the data do not tell it apart from; or ""."""
    low, high = walked.trace
    moved = np.abs(high - low) / span
    moved[i] = 0.0
    partners = [
        f"{_label(names, keys[j])} (from {low[j]:.4g} to {high[j]:.4g} along its profile)"
        for j in np.argsort(-moved)
        if moved[j] >= 0.25
    ]
    return f"; the data do not tell it apart from {' or '.join(partners)}" if partners else ""


def _label(names: Sequence[str], key: tuple[int, str]) -> str:
    w, name = key
    return f"{SYSTEM if w < 0 else names[w]}.{name}"


def calibrate(
    scenario: Scenario,
    selections: Sequence[Selection],
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    intervals: str = "auto",
) -> Calibration:
    """Fit each measured workload's destage ratio and skew level, and the system's front-end
    latency, to the measured figures (module docstring). `intervals`: "auto" walks the profile
    of each parameter whose linearised interval is suspect, "profile" of every one, "linear" of
    none."""
    if intervals not in INTERVALS:
        raise ValueError(f"intervals must be one of {', '.join(INTERVALS)}, got {intervals!r}")
    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    # A read hit ratio given as a range and measured in none of the chosen intervals is fitted
    # within that range; every other range starts at its middle.
    measured_hits = {
        r.scope for sel in selections for r in sel.rows if r.read_hit_ratio is not None
    }
    hit_ranges = {
        i: w.read_hit_ratio
        for i, w in enumerate(scenario.workloads)
        if isinstance(w.read_hit_ratio, tuple) and w.name not in measured_hits
    }
    # The I/O share of a workload's pinned data (its allocation to the tier), given as a range.
    share_ranges = {
        i: w.pin.io_share
        for i, w in enumerate(scenario.workloads)
        if w.pin is not None and isinstance(w.pin.io_share, tuple)
    }
    # The front end's fixed time, given as a range, is fitted within it.
    front = scenario.system.front_end_latency_us
    scenario = scenario.corner("central")
    base = scenario.model_dump(mode="python", exclude_none=True)
    base.pop("analyses", None)
    targets = _targets(scenario, selections)
    _check_loads(base, selections, catalog)
    measured_workloads = sorted(
        {w for _, w, figure, _ in targets if FIGURES[figure].scope == "workload"}
    )
    keys: list[tuple[int, str]] = []
    x0, lo, hi = [], [], []
    for w in measured_workloads:
        wl = scenario.workloads[w]
        keys.append((w, "destage_ratio"))
        x0.append(min(max(wl.destage_ratio, DESTAGE_BOUNDS[0]), DESTAGE_BOUNDS[1]))
        lo.append(DESTAGE_BOUNDS[0])
        hi.append(DESTAGE_BOUNDS[1])
        # A skew given as points or a heat map is measured: it is kept, not replaced by a level.
        if wl.skew is None or wl.skew.level is not None:
            keys.append((w, "skew.level"))
            level = wl.skew.level_value if wl.skew is not None and wl.skew.level_value else 4.0
            x0.append(min(max(float(level), SKEW_BOUNDS[0] + 1e-6), SKEW_BOUNDS[1]))
            lo.append(SKEW_BOUNDS[0])
            hi.append(SKEW_BOUNDS[1])
        if w in hit_ranges:
            low, high = hit_ranges[w]
            keys.append((w, "read_hit_ratio"))
            x0.append(0.5 * (low + high))
            lo.append(low)
            hi.append(high)
        if w in share_ranges:
            low, high = share_ranges[w]
            keys.append((w, PIN_SHARE))
            x0.append(0.5 * (low + high))
            lo.append(low)
            hi.append(high)
    if isinstance(front, tuple):
        keys.append((-1, FRONT_END))
        x0.append(0.5 * (front[0] + front[1]))
        lo.append(front[0])
        hi.append(front[1])
    p = len(keys)
    checks = 2 * p if intervals == "auto" else 0  # `_suspect`: two evaluations a parameter
    budget = calibration_budget(
        scenario,
        catalog,
        intervals=len({s for s, _, _, _ in targets}),
        parameters=p,
        figures=len(targets),
        start=start_evaluations(len(GRID_DESTAGE) * len(GRID_LEVEL), len(measured_workloads)),
        checks=checks,
    )

    def model_values(x: np.ndarray) -> list[float]:
        """Each figure's model value (a response in ms, a utilisation, a rate), or minus the
        overload where the point saturates."""
        budget.spend()
        out: list[float] = []
        for s, sel in enumerate(selections):
            mine = [(w, figure) for t, w, figure, _ in targets if t == s]
            if not mine:
                continue
            data = _at(base, sel, x, keys)
            variant = Scenario.model_validate(data, context={"catalog": catalog})
            point = Solver(resolve(variant, catalog, base_dir)).planned_point()
            by_name = {r.name: r for r in results.workloads(point)}
            # Past saturation there is no response time: the overload (how far the load is
            # beyond what the network carries) stands in, so the fit still has a slope to
            # follow back.
            headroom, _ = point.network.saturation_scale(point.rates)
            for w, figure in mine:
                workload = scenario.workloads[w]
                got = figure_value(point, by_name[workload.name], workload.pool, figure)
                out.append(-1.0 / max(headroom, 1e-6) if point.saturated or got is None else got)
        return out

    measured = np.array([value for _, _, _, value in targets])

    def residuals(x: np.ndarray) -> np.ndarray:
        got = model_values(x)
        return np.array(
            [
                g / m - 1.0 if g >= 0 else SATURATED_RESIDUAL * -g
                for g, m in zip(got, measured, strict=True)
            ]
        )

    # Start from the best point of a coarse grid: the response is flat in a parameter where
    # the load saturates, and a local fit started there would stay. The grid is walked jointly
    # (every workload's destage ratio and skew level at once), then once more for each
    # workload alone, the others held at the best so far: workloads in one pool need not share
    # a skew (an OLTP workload's 9 put on a sequential batch lifts its extents onto the SSDs,
    # which a local fit does not climb back from: the batch's figures are flat in its level
    # wherever none of its data reach the SSDs).
    def sum_of_squares(x: np.ndarray) -> float:
        return float(np.sum(residuals(x) ** 2))

    def grid(point: np.ndarray, workloads: set[int]) -> list[np.ndarray]:
        out = []
        for destage in GRID_DESTAGE:
            for level in GRID_LEVEL:
                x = point.copy()
                for i, (w, key) in enumerate(keys):
                    if w in workloads and key == "destage_ratio":
                        x[i] = destage
                    elif w in workloads and key == "skew.level":
                        x[i] = level
                out.append(x)
        return out

    x_start = np.array(x0)
    best = min([x_start, *grid(x_start, set(measured_workloads))], key=sum_of_squares)
    if len(measured_workloads) > 1:
        for w in measured_workloads:
            best = min([best, *grid(best, {w})], key=sum_of_squares)
    lower, upper = np.array(lo), np.array(hi)
    steps = budget.steps(p, after=checks)
    fit = bounded_least_squares(residuals, best, lower, upper, max_steps=steps)
    names = [w.name for w in scenario.workloads]
    params, better = _parameters(residuals, fit, lower, upper, names, keys, intervals)
    for _ in range(RESTARTS):
        if better is None or budget.steps(p, after=checks) < 1:
            break
        # A profile found a lower sum of squares than the fit: the fit stopped in a local
        # minimum (or short of its least on a placement step). Fit again from there, as far
        # as the work bound allows.
        steps = budget.steps(p, after=checks)
        fit = bounded_least_squares(residuals, better, lower, upper, max_steps=steps)
        params, better = _parameters(residuals, fit, lower, upper, names, keys, intervals)
    budget.last()
    final = model_values(fit.x)
    resid = tuple(
        Residual(
            selections[s].label,
            _scope(scenario, w, figure),
            value,
            got if got >= 0 else None,
            figure,
        )
        for (s, w, figure, value), got in zip(targets, final, strict=True)
    )
    errors = [r.error for r in resid if r.error is not None]
    rms = math.sqrt(sum(e * e for e in errors) / len(errors)) if errors else math.inf
    return Calibration(tuple(params), resid, rms, budget.count, _stopped(fit, steps, budget))


def _stopped(fit: Any, steps: int, budget: Evaluations) -> str:
    """Why the fit stopped before it converged, or "" (scipy's status 0: its step limit)."""
    if fit.status != 0:
        return ""
    if steps < 100 * len(fit.x):
        return (
            f"the fit stopped after {steps} steps ({budget.count:,} evaluations in all), at "
            "diskmodel's work bound (about a minute of computing), before it converged: its "
            "figures are where it stopped; calibrate fewer intervals or workloads at a time"
        )
    return (
        f"the fit stopped at its step limit ({steps} steps) before it converged: its figures "
        "are where it stopped"
    )


def calibrated_yaml(text: str, calibration: Calibration, provenance: str) -> str:
    """The scenario file's text with the identified parameters set, its comments and order
    kept, and `provenance` (one or more lines) as a comment at the top."""
    import io

    from ruamel.yaml import YAML

    yaml = YAML()
    data = yaml.load(text)
    index = {w["name"]: w for w in data["workloads"]}
    for p in calibration.parameters:
        if not p.identified:
            continue
        if p.key == FRONT_END:
            data["system"][FRONT_END] = round(p.value, 1)
        elif p.key == PIN_SHARE:
            index[p.workload]["pin"]["io_share"] = round(p.value, 4)
        elif p.key == "skew.level":
            index[p.workload]["skew"] = {"level": round(p.value, 3)}
        else:
            index[p.workload][p.key] = round(p.value, 4)
    stream = io.StringIO()
    yaml.dump(data, stream)
    header = "".join(f"# {line}\n" for line in provenance.splitlines())
    return header + stream.getvalue()
