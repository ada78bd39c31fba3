"""What a calibration fits, and to what: the unknowns, the measured figures, and the relative
residuals of the model at a point of the unknowns.

The unknowns (`Unknown`) are what a measurement cannot show: each measured workload's destage
ratio and skew level (within `DESTAGE_BOUNDS` and `SKEW_BOUNDS`), and, where the scenario gives
them as ranges, a workload's read hit ratio (when no chosen interval measures it), the I/O
share of its pinned data (`pin.io_share`) and the system's front-end latency
(`FRONT_END_RANGE` is the physical range of the latter); and the catalog estimates the planner
asks for by name (`diskmodel.measured.estimates`), within their ranges. The figures (`Target`)
are every measured figure of the chosen intervals (`diskmodel.measured.figures`). `Problem`
evaluates the model at a point of the unknowns: each interval's loads and mixes as measured,
the unknowns set, one planned operating point per interval; its `residuals` are model /
measured - 1, and past saturation the overload times `SATURATED_RESIDUAL`, so a fit still has
a slope to follow back. Every evaluation is counted against the work bound
(`diskmodel.measured.budget`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from diskmodel.analyses.catalog_band import Estimate
from diskmodel.catalog import Catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.configuration.resolution import SkewCurves, resolve_again
from diskmodel.errors import InputError
from diskmodel.measured.budget import Evaluations
from diskmodel.measured.figures import SYSTEM, figure_value
from diskmodel.measured.peaks import Selection
from diskmodel.model.operating import Solver
from diskmodel.scenario import Scenario, Skew
from diskmodel.scenario.calibration import FIGURES

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
DESTAGE = "destage_ratio"
SKEW = "skew.level"
HIT = "read_hit_ratio"
SATURATED_RESIDUAL = 5.0
"""The relative residual of a figure the model cannot reach (its point saturates), times the
overload (load over what the network carries)."""
LEAST_MEASURED = 1e-9
"""A measured figure (a rate, a time, a busy fraction) below this is not fitted: relative to
it the model's value overflows (found by fuzzing: 2.2e-311 in a CSV cell)."""
IDLE_IOPS = 1e-3
"""The rate an interval's scope is modelled at when it measured less (an idle scope)."""
SOLVED_KEPT = 4096
"""Points whose figures a problem keeps (`Problem.model_values`): more than a calibration
under the work bound evaluates (774 on the shipped example), a few hundred kB."""


@dataclass(frozen=True)
class Unknown:
    """One parameter to fit: whose (`owner`: a workload's name, SYSTEM, or a catalog entry's
    name) and which (`key`), where the fit starts, its bounds, whether each bound is a value
    the quantity itself can take (`natural`: every write destaged, no skew, a fraction's 0 or
    1) rather than one stated for want of knowledge, and for a catalog estimate how to put a
    value into the catalog."""

    owner: str
    key: str  # DESTAGE | SKEW | HIT | PIN_SHARE | FRONT_END | a catalog figure's key path
    workload: int  # the workload's index; -1 for the system's and the catalog's
    start: float
    low: float
    high: float
    natural: tuple[bool, bool] = (False, False)
    estimate: Estimate | None = None
    written: float | None = None
    """The value the scenario as written gives it where that is not `start` (a skew not given:
    uniform, level 1, where the fit starts at 4)."""

    @property
    def name(self) -> str:
        return f"{self.owner}.{self.key}"

    @property
    def as_written(self) -> float:
        """The value the scenario as written gives it (the middle of a range, the catalog's
        value for an estimate): where it is held when the data do not see it
        (`diskmodel.measured.held`), as the calibrated scenario keeps it."""
        return self.start if self.written is None else self.written

    @property
    def kind(self) -> str:
        """ "workload", "system" or "catalog"."""
        if self.estimate is not None:
            return "catalog"
        return "system" if self.workload < 0 else "workload"


Target = tuple[int, int, str, float]
"""(selection, workload index, figure, measured value) of one figure to fit."""


def targets(scenario: Scenario, selections: Sequence[Selection]) -> list[Target]:
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


def scope(scenario: Scenario, w: int, figure: str) -> str:
    """What a figure of row `w` measures: the workload, its pool, or SYSTEM."""
    kind = FIGURES[figure].scope
    if kind == "workload":
        return scenario.workloads[w].name
    return scenario.workloads[w].pool if kind == "pool" else SYSTEM


def workload_unknowns(
    scenario: Scenario, selections: Sequence[Selection], measured: Sequence[int]
) -> list[Unknown]:
    """The unknowns of each measured workload (module docstring): its destage ratio and skew
    level, and its hit ratio and pinned share where the scenario gives them as ranges. A skew
    given as points or a heat map is a measurement: it is kept, and no level is fitted."""
    measured_hits = {
        r.scope for sel in selections for r in sel.rows if r.read_hit_ratio is not None
    }
    out = []
    for w in measured:
        wl = scenario.workloads[w]
        destage = wl.destage_ratio
        start = destage if isinstance(destage, float | int) else 0.5 * (destage[0] + destage[1])
        start = min(max(float(start), DESTAGE_BOUNDS[0]), DESTAGE_BOUNDS[1])
        out.append(Unknown(wl.name, DESTAGE, w, start, *DESTAGE_BOUNDS, natural=(False, True)))
        if wl.skew is None or wl.skew.level is not None:
            level = 4.0
            if wl.skew is not None and wl.skew.level_value:
                level = float(wl.skew.level_value)
            if wl.skew is not None and isinstance(wl.skew.level, tuple):
                level = 0.5 * (wl.skew.level[0] + wl.skew.level[1])
            level = min(max(level, SKEW_BOUNDS[0] + 1e-6), SKEW_BOUNDS[1])
            # No skew written is uniform: the natural bound, approached as `data_at` sets it.
            written = SKEW_BOUNDS[0] + 1e-6 if wl.skew is None else None
            out.append(
                Unknown(
                    wl.name, SKEW, w, level, *SKEW_BOUNDS, natural=(True, False), written=written
                )
            )
        hit = wl.read_hit_ratio
        if isinstance(hit, tuple) and wl.name not in measured_hits:
            out.append(
                Unknown(wl.name, HIT, w, 0.5 * (hit[0] + hit[1]), *hit, natural=_fraction(hit))
            )
        if wl.pin is not None and isinstance(wl.pin.io_share, tuple):
            share = wl.pin.io_share
            out.append(
                Unknown(
                    wl.name, PIN_SHARE, w, 0.5 * (share[0] + share[1]), *share, _fraction(share)
                )
            )
    return out


def _fraction(span: tuple[float, float]) -> tuple[bool, bool]:
    """Whether each end of a fraction's range is one a fraction itself can take (0 or 1)."""
    return span[0] <= 0.0, span[1] >= 1.0


def system_unknowns(scenario: Scenario, estimates: Sequence[Estimate]) -> list[Unknown]:
    """The system's front-end latency where the scenario gives it as a range, and the catalog
    estimates asked for (each from its catalog value, within its range)."""
    out = []
    front = scenario.system.front_end_latency_us
    if isinstance(front, tuple):
        out.append(Unknown(SYSTEM, FRONT_END, -1, 0.5 * (front[0] + front[1]), *front))
    for est in estimates:
        out.append(Unknown(est.entry, est.key, -1, est.value, est.low, est.high, estimate=est))
    return out


class Problem:
    """The model at a point of the unknowns against the measured figures (module docstring).

    `scenario` is the scenario at the middle of its ranges; `base` its data; `catalog` the
    catalog it is validated against; every evaluation is counted by `budget` (given once the
    work is estimated: `check_loads` solves nothing)."""

    def __init__(
        self,
        scenario: Scenario,
        selections: Sequence[Selection],
        catalog: Catalog,
        base_dir: Path | None,
        unknowns: Sequence[Unknown],
        figures: Sequence[Target],
        budget: Evaluations | None = None,
    ) -> None:
        self.scenario = scenario
        self.selections = list(selections)
        self.catalog = catalog
        self.base_dir = base_dir
        self.unknowns = list(unknowns)
        self.targets = list(figures)
        self.budget = budget
        self.base = scenario.model_dump(mode="python", exclude_none=True)
        self.base.pop("analyses", None)
        self.base.pop("calibration", None)  # provenance: an earlier calibration's record
        self.measured = np.array([value for _, _, _, value in self.targets])
        self.lo = np.array([u.low for u in self.unknowns])
        self.hi = np.array([u.high for u in self.unknowns])
        self.start = np.array([u.start for u in self.unknowns])
        # Each point's figures as solved (by the exact bytes of the point, the problem's own
        # catalog): the searches come back to points they solved (a fit starts where the start
        # or the look around ended, a profile's first refit where the interval's check
        # evaluated, the figures at the fit where the fit ended), and a point solved is not
        # solved again nor counted again.
        self._solved: dict[bytes, tuple[float, ...]] = {}
        # Each interval's scenario as validated once (`scenario_at`).
        self._validated: dict[int, Scenario] = {}
        # A skew level validated once (`scenario_at`): the same level validates to the same
        # curve whatever the interval, and validating it was most of `scenario_at`'s time.
        self._skews: dict[float, Skew] = {}
        # Each interval's configuration as resolved once, and the skew curves built for the
        # levels asked (`config_at`).
        self._configs: dict[int, Configuration] = {}
        self._curves: SkewCurves = {}

    def check_loads(self) -> None:
        """`InputError` naming the interval when the scenario at its measured loads and mixes
        does not validate (a rate or a transfer size past the scenario's bounds), before any
        model is solved (found by fuzzing: a validation error escaped the fit as a
        traceback)."""
        for sel in self.selections:
            try:
                Scenario.model_validate(
                    self.data_at(sel, self.start), context={"catalog": self.catalog}
                )
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                # The key path, without pydantic's union tags ("constrained-float").
                where = ".".join(
                    str(step)
                    for step in first["loc"]
                    if isinstance(step, int) or step.isidentifier()
                )
                raise InputError(
                    f"{sel.label}: the scenario at this interval's measured load does not "
                    f"validate: {where}: {first['msg']}"
                ) from None

    def data_at(self, sel: Selection, x: np.ndarray) -> dict[str, Any]:
        """The scenario data at interval `sel` (its measured mix) with the workload's and the
        system's unknowns at `x` (the catalog's are put in the catalog: `catalog_at`)."""
        data = copy.deepcopy(self.base)
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
            if row.read_sequential_fraction is not None:
                w["read_sequential_fraction"] = row.read_sequential_fraction
            if row.write_sequential_fraction is not None:
                w["write_sequential_fraction"] = row.write_sequential_fraction
        for value, u in zip(x, self.unknowns, strict=True):
            if u.estimate is not None:
                continue
            if u.key == FRONT_END:
                data["system"][FRONT_END] = float(value)
            elif u.key == PIN_SHARE:
                data["workloads"][u.workload]["pin"]["io_share"] = float(value)
            elif u.key == SKEW:
                # A level of exactly 1 (no skew at all) is not one the scenario takes: the
                # bound a profile walks to is approached, not reached.
                level = max(float(value), SKEW_BOUNDS[0] + 1e-6)
                data["workloads"][u.workload]["skew"] = {"level": level}
            else:
                data["workloads"][u.workload][u.key] = float(value)
        data["analyses"] = {}
        return data

    def scenario_at(self, s: int, x: np.ndarray, catalog: Catalog) -> Scenario:
        """The scenario at interval `s` with the unknowns at `x`: what validating
        `data_at(selections[s], x)` against `catalog` gives (tested equal), made from the
        interval's scenario as validated once with each unknown's field replaced (a skew level
        validated alone), since the unknowns move within bounds the scenario accepts and no
        check of the scenario as a whole reads them. Validating all of it took about a fifth
        of an evaluation. With catalog estimates among the unknowns (the scenario is checked
        against the catalog they change) it is validated whole."""
        sel = self.selections[s]
        if catalog is not self.catalog or any(u.estimate is not None for u in self.unknowns):
            return Scenario.model_validate(self.data_at(sel, x), context={"catalog": catalog})
        validated = self._validated.get(s)
        if validated is None:
            validated = Scenario.model_validate(
                self.data_at(sel, self.start), context={"catalog": catalog}
            )
            self._validated[s] = validated
        workloads = list(validated.workloads)
        system = validated.system
        # Each workload's fields set in one copy (a copy per unknown was a tenth of this).
        updates: dict[int, dict[str, Any]] = {}
        for value, u in zip(x, self.unknowns, strict=True):
            v = float(value)
            if u.key == FRONT_END:
                system = system.model_copy(update={FRONT_END: v})
                continue
            w = workloads[u.workload]
            update = updates.setdefault(u.workload, {})
            if u.key == PIN_SHARE and w.pin is not None:
                update["pin"] = w.pin.model_copy(update={"io_share": v})
            elif u.key == SKEW:
                level = max(v, SKEW_BOUNDS[0] + 1e-6)  # as `data_at` sets it
                skew = self._skews.get(level)
                if skew is None:
                    skew = self._skews[level] = Skew.model_validate({"level": level})
                update["skew"] = skew
            else:
                update[u.key] = v
        for k, update in updates.items():
            workloads[k] = workloads[k].model_copy(update=update)
        return validated.model_copy(update={"workloads": workloads, "system": system})

    def config_at(self, s: int, x: np.ndarray, catalog: Catalog) -> Configuration:
        """The configuration of interval `s` with the unknowns at `x`: what resolving
        `scenario_at(s, x, catalog)` gives (tested equal), made from the interval's
        configuration as resolved once with the system and the workloads resolved again
        (`configuration.resolve_again`), and each skew level's curve built once for the
        calibration. With catalog estimates among the unknowns (the ranks' drives may be the
        ones they change) it is resolved whole."""
        variant = self.scenario_at(s, x, catalog)
        if catalog is not self.catalog or any(u.estimate is not None for u in self.unknowns):
            return resolve(variant, catalog, self.base_dir, shown=False)
        base = self._configs.get(s)
        if base is None:
            base = self._configs[s] = resolve(variant, catalog, self.base_dir, shown=False)
            return base
        return resolve_again(base, variant, catalog, self.base_dir, self._curves)

    def catalog_at(self, x: np.ndarray, catalog: Catalog | None = None) -> Catalog:
        """The catalog (`catalog`, by default the problem's) with the catalog estimates among
        the unknowns at `x`."""
        catalog = catalog or self.catalog
        for value, u in zip(x, self.unknowns, strict=True):
            if u.estimate is not None:
                catalog = u.estimate.put(catalog, float(value))
        return catalog

    def entries_at(self, x: np.ndarray, owners: Sequence[str]) -> list[Any]:
        """The catalog entries named `owners` (systems or drives) with the catalog estimates
        among the unknowns at `x`."""
        catalog = self.catalog_at(x)
        return [catalog.systems.get(name) or catalog.drives[name] for name in owners]

    def model_values(self, x: np.ndarray, catalog: Catalog | None = None) -> list[float]:
        """Each figure's model value (a response in ms, a utilisation, a rate), or minus the
        overload where the point saturates, with the catalog `catalog` (by default the
        problem.s). One evaluation of the work bound, none for a point solved before."""
        if self.budget is None:
            raise RuntimeError("a calibration problem is evaluated only under a work bound")
        key = np.asarray(x, dtype=np.float64).tobytes() if catalog is None else None
        if key is not None and key in self._solved:
            return list(self._solved[key])
        self.budget.spend()
        values = self._solve(x, catalog)
        if key is not None:
            if len(self._solved) >= SOLVED_KEPT:
                self._solved.clear()
            self._solved[key] = tuple(values)
        return values

    def _solve(self, x: np.ndarray, catalog: Catalog | None) -> list[float]:
        """Each figure's model value at `x` (`model_values`), solved."""
        catalog = self.catalog_at(x, catalog)
        out: list[float] = []
        for s in range(len(self.selections)):
            mine = [(w, figure) for t, w, figure, _ in self.targets if t == s]
            if not mine:
                continue
            point = Solver(self.config_at(s, x, catalog)).planned_point()
            index = {wl.name: i for i, wl in enumerate(point.network.workloads)}
            # Past saturation there is no response time: the overload (how far the load is
            # beyond what the network carries) stands in, so the fit still has a slope to
            # follow back (worked out only then).
            overload: float | None = None
            for w, figure in mine:
                workload = self.scenario.workloads[w]
                got = figure_value(point, index[workload.name], workload.pool, figure)
                if point.saturated or got is None:
                    if overload is None:
                        headroom, _ = point.network.saturation_scale(point.rates)
                        overload = -1.0 / max(headroom, 1e-6)
                    got = overload
                out.append(got)
        return out

    def residuals(self, x: np.ndarray, catalog: Catalog | None = None) -> np.ndarray:
        """Relative residuals, model / measured - 1 (past saturation, the overload times
        `SATURATED_RESIDUAL`)."""
        return self.relative(self.model_values(x, catalog))

    def relative(self, got: Sequence[float]) -> np.ndarray:
        return np.array(
            [
                g / m - 1.0 if g >= 0 else SATURATED_RESIDUAL * -g
                for g, m in zip(got, self.measured, strict=True)
            ]
        )

    def sum_of_squares(self, x: np.ndarray) -> float:
        return float(np.sum(self.residuals(x) ** 2))
