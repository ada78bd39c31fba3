"""Calibration of a z/OS scenario to RMF measurements, against the response time's components
(IOSQ, PEND, DISC, CONN), not the total alone.

What each component pins: PEND at the measured load is the channel's light-load start and
command response (`system.ficon.pend_light_us`) and the waits for channels and ports; CONN is
the rest of the front end's fixed time (`system.front_end_latency_us`) with the transfer and the
system's work; DISC is the back end, whose waits grow with the destages each write costs (each
z/OS workload's `destage_ratio`); IOSQ follows from the others and the aliases, so it is
compared, not fitted. The fit is bounded least squares (scipy) over every interval and group,
each residual the model's component less the measured one over the larger of the measured one
and `FLOOR_MS` (a component of a few microseconds is matched in absolute terms, not by a ratio
that rounding dominates).

`model_components` is the forward model the fit uses (the scenario at one interval's rates and
mixes), and what a synthetic measurement is made with (tests/test_rmf_calibrate.py recovers
the parameters it was made with).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from diskmodel.catalog import Catalog
from diskmodel.configuration import resolve
from diskmodel.errors import InputError
from diskmodel.measured.rmf import RMF_COMPONENTS, RmfInterval
from diskmodel.model.operating import Solver
from diskmodel.model.results import workloads as workload_results
from diskmodel.scenario import Scenario

FLOOR_MS = 0.02
"""The smallest measured component a residual is taken relative to, ms (20 us: about the
channel's and port's work for one small I/O; RMF reports in units of 128 us accumulated, so a
smaller mean is mostly rounding)."""

FRONT_END_RANGE_US = (60.0, 400.0)
"""Where `system.front_end_latency_us` is searched, us: from about the stations' own light-load
work for a small I/O (channel, port, card, processor; below it the fixed delay is zero and the
parameter moves nothing) to about 2.5 times DOMAIN.md C6's 150 us (an older channel, a long
cable)."""
PEND_RANGE_US = (0.0, 300.0)
"""Where `system.ficon.pend_light_us` is searched, us: none to twice C6's fixed time."""
PINNED = 0.02
"""A parameter whose whole search range moves the components by less than this (rms of the
relative change, 2%: about the resolution of RMF's times for a sub-millisecond component, kept
in units of 128 us accumulated over thousands of I/Os) is reported as not pinned by them."""
DESTAGE_RANGE = (0.05, 1.0)
"""Where each z/OS workload's destage ratio is searched: almost every write folded, to none."""


@dataclass(frozen=True)
class RmfParameter:
    """One fitted figure: the scenario key it sets, its value, its search range, and how much
    the components move over that range at the fit (`sensitivity`: the rms change of the
    relative residuals from one end of the range to the other, linearised; below `PINNED` the
    components hardly tell the value, which then says little)."""

    key: str
    value: float
    low: float
    high: float
    sensitivity: float = float("nan")

    @property
    def pinned(self) -> bool:
        return bool(self.sensitivity >= PINNED)


@dataclass(frozen=True)
class RmfComparison:
    """One group's component at one interval: measured and modelled, ms."""

    interval: str
    group: str
    component: str
    measured_ms: float
    model_ms: float


@dataclass(frozen=True)
class RmfCalibration:
    """What the RMF fit found: the parameters, every component against the model, and the
    rms of the relative residuals."""

    parameters: tuple[RmfParameter, ...]
    comparisons: tuple[RmfComparison, ...]
    rms: float
    evaluations: int


def _with(scenario: Scenario, values: dict[str, float]) -> Scenario:
    """`scenario` with fitted values set (keys as `RmfParameter.key`); not validated again:
    every value lies within its field's bounds."""
    system = scenario.system
    update: dict[str, Any] = {}
    if "system.front_end_latency_us" in values:
        update["front_end_latency_us"] = values["system.front_end_latency_us"]
    if "system.ficon.pend_light_us" in values and system.ficon is not None:
        ficon = system.ficon.model_copy(
            update={"pend_light_us": values["system.ficon.pend_light_us"]}
        )
        update["ficon"] = ficon
    workloads = []
    for w in scenario.workloads:
        key = f"workloads.{w.name}.destage_ratio"
        workloads.append(
            w.model_copy(update={"destage_ratio": values[key]}) if key in values else w
        )
    return scenario.model_copy(
        update={"system": system.model_copy(update=update), "workloads": workloads}
    )


def at_interval(scenario: Scenario, interval: RmfInterval) -> Scenario:
    """The scenario with each group's workload (same name) at the interval's rate, read
    fraction, read hit ratio and transfer size."""
    groups = {g.group: g for g in interval.groups}
    missing = [g for g in groups if g not in {w.name for w in scenario.workloads}]
    if missing:
        raise InputError(
            f"RMF group {missing[0]!r} at {interval.label()}: no workload of that name in the "
            f"scenario (its workloads: {', '.join(w.name for w in scenario.workloads)})"
        )
    workloads = []
    for w in scenario.workloads:
        g = groups.get(w.name)
        if g is None:
            workloads.append(w)
            continue
        workloads.append(
            w.model_copy(
                update={
                    "iops": max(g.io_rate, 1e-9),
                    "read_fraction": g.read_fraction,
                    "read_hit_ratio": g.read_hit_ratio,
                    "read_size_kib": g.transfer_kib,
                    "write_size_kib": g.transfer_kib,
                }
            )
        )
    return scenario.model_copy(update={"workloads": workloads})


def model_components(
    scenario: Scenario, interval: RmfInterval, catalog: Catalog, base_dir: Path | None = None
) -> dict[str, dict[str, float | None]]:
    """Per group of `interval`, the model's RMF components (ms, the `RMF_COMPONENTS` keys;
    None past saturation) with the scenario at the interval's rates and mixes."""
    config = resolve(at_interval(scenario, interval), catalog, base_dir)
    solver = Solver(config)
    point = solver.open_point(solver.planned_rates())
    out: dict[str, dict[str, float | None]] = {}
    for result in workload_results(point):
        if result.rmf is None:
            continue
        r = result.rmf
        out[result.name] = {
            "iosq_ms": r.iosq_ms,
            "pend_ms": r.pend_ms,
            "disc_ms": r.disc_ms,
            "conn_ms": r.conn_ms,
        }
    return out


def _parameters(scenario: Scenario) -> list[RmfParameter]:
    if scenario.system.ficon is None:
        raise InputError(
            "calibrate with an RMF CSV: the scenario has no system.ficon; RMF measures z/OS "
            "workloads over FICON (docs/scenario.md, system.ficon)"
        )
    front = scenario.system.front_end_latency_us
    start = 150.0 if front is None else float(np.mean(front))
    pend = scenario.system.ficon.pend_light_us
    out = [
        RmfParameter("system.front_end_latency_us", start, *FRONT_END_RANGE_US),
        RmfParameter("system.ficon.pend_light_us", 40.0 if pend is None else pend, *PEND_RANGE_US),
    ]
    for w in scenario.workloads:
        if w.zos is None:
            continue
        ratio = w.destage_ratio
        value = float(np.mean(ratio)) if isinstance(ratio, tuple) else float(ratio)
        out.append(RmfParameter(f"workloads.{w.name}.destage_ratio", value, *DESTAGE_RANGE))
    return out


def calibrate_rmf(
    scenario: Scenario,
    intervals: Sequence[RmfInterval],
    catalog: Catalog,
    *,
    base_dir: Path | None = None,
) -> RmfCalibration:
    """Fit `_parameters` to the components of every group of `intervals`."""
    from scipy.optimize import least_squares

    scenario = scenario.corner("central")
    params = _parameters(scenario)
    low = np.array([p.low for p in params])
    high = np.array([p.high for p in params])
    evaluations = 0

    def values(x: np.ndarray) -> dict[str, float]:
        return {p.key: float(v) for p, v in zip(params, low + x * (high - low), strict=True)}

    def compared(x: np.ndarray) -> list[RmfComparison]:
        nonlocal evaluations
        evaluations += 1
        fitted = _with(scenario, values(x))
        out = []
        for interval in intervals:
            model = model_components(fitted, interval, catalog, base_dir)
            for g in interval.groups:
                for c in RMF_COMPONENTS:
                    value = model.get(g.group, {}).get(c)
                    out.append(
                        RmfComparison(
                            interval.label(),
                            g.group,
                            c,
                            g.component(c),
                            float("inf") if value is None else value,
                        )
                    )
        return out

    def residuals(x: np.ndarray) -> np.ndarray:
        return _relative(compared(x))

    start = np.clip((np.array([p.value for p in params]) - low) / (high - low), 0.0, 1.0)
    fit = least_squares(residuals, start, bounds=(0.0, 1.0), diff_step=1e-3, max_nfev=200)
    best = values(fit.x)
    final = compared(fit.x)
    rel = _relative(final)
    jacobian = np.asarray(fit.jac, dtype=np.float64)  # per unit of each scaled range
    moved = np.sqrt(np.mean(jacobian * jacobian, axis=0)) if rel.size else np.zeros(len(params))
    return RmfCalibration(
        parameters=tuple(
            RmfParameter(p.key, best[p.key], p.low, p.high, float(m))
            for p, m in zip(params, moved, strict=True)
        ),
        comparisons=tuple(final),
        rms=float(np.sqrt(np.mean(rel * rel))) if rel.size else 0.0,
        evaluations=evaluations,
    )


_SATURATED_RESIDUAL = 100.0
"""A residual where the model has no steady state at a measured interval (it saturates where
the system did not): large, finite, so the search moves away from it."""


def _relative(rows: Sequence[RmfComparison]) -> np.ndarray:
    out = []
    for r in rows:
        if not np.isfinite(r.model_ms):
            out.append(_SATURATED_RESIDUAL)
            continue
        out.append((r.model_ms - r.measured_ms) / max(r.measured_ms, FLOOR_MS))
    return np.array(out, dtype=np.float64)


def calibration_text(result: RmfCalibration, source: str) -> str:
    """The fit for the terminal: each parameter, then each component measured against the
    model."""
    lines = [f"RMF calibration to {source} ({result.evaluations} model evaluations)"]
    for p in result.parameters:
        note = "" if p.pinned else "  [not pinned: the components hardly move with it; not written]"
        lines.append(
            f"  {p.key} = {p.value:.4g}  (searched {p.low:g} to {p.high:g}; over that range "
            f"the components move {p.sensitivity:.1%}){note}"
        )
    lines.append(f"  rms of the components' relative errors: {result.rms:.1%}")
    lines.append("  interval          group          component  measured ms  model ms")
    for c in result.comparisons:
        model = f"{c.model_ms:9.4f}" if np.isfinite(c.model_ms) else "saturated"
        lines.append(
            f"  {c.interval:<17} {c.group:<14} {c.component[:-3].upper():<10} "
            f"{c.measured_ms:11.4f} {model}"
        )
    return "\n".join(lines)


def calibrated_yaml(text: str, result: RmfCalibration) -> str:
    """The scenario file's `text` with the fitted values set, its layout and comments kept
    where the edit can be made in place (`yaml_edit.keep_layout`). A parameter the components
    do not pin (`RmfParameter.pinned`) keeps the scenario's value: the fit's is arbitrary."""
    from ruamel.yaml import YAML

    from diskmodel.yaml_edit import keep_layout

    yaml = YAML(typ="rt")
    data = yaml.load(text)
    for p in result.parameters:
        if not p.pinned:
            continue
        value = round(p.value, 4)
        parts = p.key.split(".")
        if parts[0] == "system":
            node = data["system"]
            for part in parts[1:-1]:
                node = node[part]
            node[parts[-1]] = value
        else:
            name = parts[1]
            for w in data["workloads"]:
                if w.get("name") == name:
                    w["destage_ratio"] = value
    stream = io.StringIO()
    yaml.dump(data, stream)
    return keep_layout(text, stream.getvalue())
