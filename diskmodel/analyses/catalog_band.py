"""How far the catalog's estimates reach (issue 27): the answer over the ranges of the figures
no document publishes.

Every catalog figure without a published source carries the range it could lie in
(`range: [low, high]`, docs/catalog.md). For one configuration, the estimates it uses (its
system's, its host adapter's, its processor option's, its drives' as installed and, for z/OS,
its FICON channel generation's in the mode it runs) are each
set to the two ends of their range on their own, the others at their catalog value, and the
configuration solved by the cheap calls a whole prediction begins with (the response time at
the planned load and the maximum: `analyses.predict.begin`). Those that move the maximum or
the planned response time by more than `THRESHOLD` of the central answer are the band's
contributors, ranked by how far they move it. Each figure moves the work one way (a slower
adapter is busier at every load), so the band is the configuration at the two corners: every
contributor at its pessimistic end (the one that gave the lower maximum) and at its optimistic
end. Figures that move nothing here (an SSD's figures in a pool without SSDs, a port that does
not bind) fall under the threshold and are left at their value.

It is a statement about the catalog, not about the workload: what the answer would be if the
unpublished figures were anywhere in their ranges. A measured interval (`diskmodel
calibrate`) narrows it where it pins a figure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel

from diskmodel.analyses.predict import Begun, begin, planned_ms
from diskmodel.cached import cached_property
from diskmodel.catalog import Catalog, Sourced
from diskmodel.configuration import Configuration
from diskmodel.model.operating import FloatArray, Solver
from diskmodel.prediction import CatalogBandResult, EstimateEffect
from diskmodel.units import MS

THRESHOLD = 0.02
"""An estimate contributes when one end of its range moves the maximum or the planned
response time by more than this share of the central answer."""

LABELS = {
    "per_op_us": "device adapter cost per operation",
    "bandwidth_mb_s": "device adapter bandwidth",
    "commands_per_hdd": "device adapter commands per HDD",
    "per_io_overhead_us": "host port overhead per I/O",
    "port_bandwidth_mb_s": "host port bandwidth",
    "card_per_io_us": "host adapter card cost per I/O",
    "card_bandwidth_mb_s": "host adapter card bandwidth",
    "read_hit_us": "processor cost of a read hit",
    "read_miss_us": "processor cost of a read miss",
    "write_us": "processor cost of a write",
    "sequential_read_us": "processor cost of a sequential read",
    "destage_us": "processor cost of a destage",
    "nvs_fraction": "NVS size (fraction of cache)",
    "nvs_rank_limit_fraction": "per-rank NVS limit",
    "front_end_latency_us": "fixed front-end time per I/O",
    "write_copy_us_per_kib": "write copy time per KiB",
    "ssd_read_service_ms": "SSD read service time",
    "ssd_write_service_ms": "SSD write service time",
    "ssd_parallelism": "SSD internal parallelism",
    "command_queue_depth": "drive command queue",
    "media_transfer_mb_s": "drive media rate",
    "controller_overhead_ms": "drive controller overhead",
    "track_to_track_seek_read_ms": "single-track read seek",
    "track_to_track_seek_write_ms": "single-track write seek",
    "full_stroke_seek_read_ms": "full-stroke read seek",
    "full_stroke_seek_write_ms": "full-stroke write seek",
    "avg_seek_write_ms": "average write seek",
}
"""What a planner calls each figure (the catalog key where none is given here)."""

CHANNEL_LABELS = {
    "bandwidth_mb_s": "FICON channel bandwidth",
    "zhpf_per_io_us": "FICON zHPF work per I/O",
    "command_per_io_us": "FICON command-mode work per I/O",
    "pend_light_us": "light-load PEND time",
}
"""The FICON channel's figures (`hardware_catalog/zos.yaml`), named apart from the system's
own (`bandwidth_mb_s` is also the device adapter's)."""

SKIPPED = frozenset({"power_w", "clock_ghz", "easy_tier_generation"})
"""Estimates that move no prediction: a drive's power (energy only), a processor's clock (the
processor costs carry their own ranges) and the Easy Tier generation (a pool may state its
own; a range of rules, not of a quantity)."""


Setter = Callable[[Catalog, float], Catalog]


@dataclass(frozen=True)
class Estimate:
    """One estimated figure a configuration uses: where it is (`entry`.`key`, `key` a dotted
    path inside the entry), its value and range, and how to put another value in the catalog."""

    entry: str
    key: str
    value: float
    low: float
    high: float
    put: Setter
    whole: bool = False
    """A whole-number figure (a count): `put` rounds what it is given."""
    named: str = ""
    """What a planner calls it, where `LABELS` would name another part's figure of that key."""

    @property
    def label(self) -> str:
        if self.named:
            return self.named
        name = self.key.rsplit(".", 1)[-1]
        return LABELS.get(name, name.replace("_", " "))

    @property
    def path(self) -> str:
        return f"{self.entry}.{self.key}"

    @property
    def ends(self) -> tuple[float, float]:
        return self.low, self.high


def _ranged(model: Sourced) -> Iterator[tuple[str, float, tuple[float, float], bool]]:
    """(key, value, range, whether a whole number) of the model's own figures that carry a
    range of some width."""
    for key, provenance in model.provenance.items():
        span = provenance.range
        value = getattr(model, key, None)
        if span is None or span[0] == span[1] or key in SKIPPED:
            continue
        if isinstance(value, int | float) and not isinstance(value, bool):
            yield key, float(value), span, isinstance(value, int)


def _replace(model: BaseModel, key: str, value: float) -> Any:
    """`model` with the figure `key` at `value` (a whole number for an integer figure)."""
    current = getattr(model, key)
    new: float | int = max(round(value), 1) if isinstance(current, int) else value
    return model.model_copy(update={key: new})


def _on_system(system: str, part: str | None, key: str, adapter: str | None = None) -> Setter:
    """Set the figure `key` of the system `system` itself (`part` None), of one of its nested
    entries (`device_adapter`, `processor_costs`) or of its host adapter `adapter`."""

    def put(cat: Catalog, value: float) -> Catalog:
        entry = cat.systems[system]
        if part is None:
            updated = _replace(entry, key, value)
        elif part == "host_adapters":
            cards = [
                _replace(h, key, value) if h.name == adapter else h for h in entry.host_adapters
            ]
            updated = entry.model_copy(update={"host_adapters": cards})
        else:
            updated = entry.model_copy(update={part: _replace(getattr(entry, part), key, value)})
        return cat.model_copy(update={"systems": {**cat.systems, system: updated}})

    return put


def _on_drive(drive: str, key: str, packaged_on: str | None = None) -> Setter:
    """Set the figure `key` of the drive `drive`, or of its packaging on `packaged_on`."""

    def put(cat: Catalog, value: float) -> Catalog:
        entry = cat.drives[drive]
        if packaged_on is None:
            updated = _replace(entry, key, value)
        else:
            packed = _replace(entry.packaging[packaged_on], key, value)
            updated = entry.model_copy(
                update={"packaging": {**entry.packaging, packaged_on: packed}}
            )
        return cat.model_copy(update={"drives": {**cat.drives, drive: updated}})

    return put


def _on_channel(channel: str, key: str) -> Setter:
    """Set the figure `key` of the FICON channel generation `channel`."""

    def put(cat: Catalog, value: float) -> Catalog:
        updated = _replace(cat.ficon_channels[channel], key, value)
        return cat.model_copy(update={"ficon_channels": {**cat.ficon_channels, channel: updated}})

    return put


def _channel_estimates(config: Configuration, catalog: Catalog) -> list[Estimate]:
    """The ranged figures of a z/OS configuration's FICON channel generation: the work per I/O
    of the mode it runs only (zHPF or command mode), and none the scenario gives itself
    (`system.ficon.pend_light_us`: the configuration's figure is not the catalog's)."""
    ficon = config.hardware.ficon
    if ficon is None:
        return []
    channel = catalog.ficon_channels[ficon.channel.name]
    unused = "command_per_io_us" if ficon.zhpf else "zhpf_per_io_us"
    return [
        Estimate(
            channel.name,
            k,
            v,
            *span,
            _on_channel(channel.name, k),
            whole,
            CHANNEL_LABELS.get(k, ""),
        )
        for k, v, span, whole in _ranged(channel)
        if k != unused and getattr(ficon.channel, k) == v
    ]


def estimates(config: Configuration, catalog: Catalog) -> list[Estimate]:
    """Every ranged estimate the configuration uses, in catalog order."""
    hw = config.hardware
    system = catalog.systems[hw.system.name]
    name = system.name
    out = [
        Estimate(name, k, v, *span, _on_system(name, None, k), whole)
        for k, v, span, whole in _ranged(system)
    ]
    for part in ("device_adapter", "processor_costs"):
        out += [
            Estimate(name, f"{part}.{k}", v, *span, _on_system(name, part, k), whole)
            for k, v, span, whole in _ranged(getattr(system, part))
        ]
    adapter = system.host_adapter(hw.host_adapter.name)
    out += [
        Estimate(
            name,
            f"host_adapters.{adapter.name}.{k}",
            v,
            *span,
            _on_system(name, "host_adapters", k, adapter.name),
            whole,
        )
        for k, v, span, whole in _ranged(adapter)
    ]
    for drive_name in sorted({r.drive.name for r in config.ranks}):
        drive = catalog.drives[drive_name]
        packaging = drive.packaging[name]
        overridden = set(packaging.overrides())  # the packaging's own figure is installed
        out += [
            Estimate(drive_name, k, v, *span, _on_drive(drive_name, k), whole)
            for k, v, span, whole in _ranged(drive)
            if k not in overridden
        ]
        out += [
            Estimate(
                drive_name, f"packaging.{name}.{k}", v, *span, _on_drive(drive_name, k, name), whole
            )
            for k, v, span, whole in _ranged(packaging)
        ]
    return out + _channel_estimates(config, catalog)


_Solved = tuple[float, float | None]
"""A solved configuration's maximum (IOPS) and planned response time (ms; None saturated)."""

_Found = tuple[float, EstimateEffect, bool] | None
"""What one estimate gave (`_effect`): how far it moves the answer, its effect and whether its
low end is the pessimistic one; None where it moves neither past the threshold."""


def catalog_band(
    config: Configuration,
    catalog: Catalog,
    rebuild: Callable[[Catalog], Configuration],
    threshold: float = THRESHOLD,
) -> CatalogBandResult:
    """The configuration's reach over its estimates (module docstring). `rebuild` makes the
    same configuration from another catalog (the scenario resolved again). All of it here,
    one estimate after the other; `CatalogBandWork` shares it out."""
    work = CatalogBandWork(config, catalog, rebuild, threshold)
    return work.result(work.found())


@dataclass(frozen=True)
class _Central:
    """The answer every estimate is measured against: the maximum and the planned response
    time as a whole prediction begins, the response the screen compares with and the planned
    rates it is taken at, the load unit and whether the maximum is a finite bracket."""

    max_iops: float
    response_ms: float | None
    screened_response_ms: float | None
    rates: FloatArray
    unit: FloatArray
    bracketed: bool


class CatalogBandWork:
    """The catalog band in pieces, one estimate each, so that several processes can share it
    (`analyses.beside.Tickets`: whoever is free takes the next estimate).

    Each end of each estimate's range is first screened by cheap open calls that can only
    say whether it moves the answer past the threshold: whether the placement for the central
    maximum times (1 - threshold) still carries that load and whether the one for (1 +
    threshold) times it does not (the maximum is where the placement for a load just carries
    it, `Solver.saturation`), and the response at the central planned rates (for a closed
    system, the throughput its population settles at, taken as an open load: its own closed
    solution costs tens of times more). The estimates that pass, and the two corners, are
    then solved as a whole prediction begins (`analyses.predict.begin`), so every figure
    reported is the product's own. Every piece solves configurations of its own (fresh
    solvers from `rebuild`), so what an estimate gives does not depend on the process that
    worked it out or on the pieces before it: shared out, the band is the same to the bit."""

    def __init__(
        self,
        config: Configuration,
        catalog: Catalog,
        rebuild: Callable[[Catalog], Configuration],
        threshold: float = THRESHOLD,
    ) -> None:
        self.config = config
        self.catalog = catalog
        self.rebuild = rebuild
        self.threshold = threshold
        self.tried = estimates(config, catalog)

    @cached_property
    def _central(self) -> _Central:
        return self._central_from(begin(self.config))

    def begun_elsewhere(self, begun: Begun) -> None:
        """Take the central answer from a whole prediction's beginnings of this configuration
        (`predict_configuration(begun=)`: the same calls on a solver of its own, so the same
        figures to the bit) instead of beginning again, where the configuration is open: a
        closed one's screened response is solved on the central solver, which the prediction
        has since placed other loads on."""
        if begun.solver.config is self.config and not self.config.has_closed:
            self.__dict__["_central"] = self._central_from(begun)

    def _central_from(self, central: Begun) -> _Central:
        response_ms = planned_ms(central.planned)
        rates = central.planned.rates
        screened = (
            _open_response_ms(central.solver, rates) if self.config.has_closed else response_ms
        )
        return _Central(
            central.maximum,
            response_ms,
            screened,
            rates,
            central.unit,
            bool(np.isfinite(central.maximum)) and central.maximum > 0,
        )

    def _solve(self, cat: Catalog) -> _Solved:
        begun = begin(self.rebuild(cat))
        return begun.maximum, planned_ms(begun.planned)

    def _passes_screen(self, cat: Catalog) -> bool:
        c, threshold = self._central, self.threshold
        solver = Solver(self.rebuild(cat))
        if _moved(_open_response_ms(solver, c.rates), c.screened_response_ms) > threshold:
            return True
        if not c.bracketed:
            return _moved(solver.saturation(c.unit)[0], c.max_iops) > threshold
        return not solver.carries(c.unit, c.max_iops * (1 - threshold)) or solver.carries(
            c.unit, c.max_iops * (1 + threshold)
        )

    def found(self, tickets: Iterable[int] | None = None) -> dict[int, _Found]:
        """What each estimate gives, by its place in `tried`: those `tickets` hands out (every
        one without), each screened and, where it passes, solved at both ends."""
        out: dict[int, _Found] = {}
        for i in range(len(self.tried)) if tickets is None else tickets:
            est = self.tried[i]
            if not any(self._passes_screen(est.put(self.catalog, end)) for end in est.ends):
                out[i] = None
                continue
            c = self._central
            out[i] = _effect(
                est, self.catalog, self._solve, c.max_iops, c.response_ms, self.threshold
            )
        return out

    def result(self, found: Mapping[int, _Found]) -> CatalogBandResult:
        """The band from what the estimates gave (any estimate missing, of a process that
        stopped, is worked out here); the contributors ranked by how far they move the
        answer, in catalog order on a tie, and the two corners solved."""
        missing = [i for i in range(len(self.tried)) if i not in found]
        found = {**found, **self.found(missing)} if missing else found
        effects = [f for i in range(len(self.tried)) if (f := found[i]) is not None]
        effects.sort(key=lambda item: -item[0])
        contributors = tuple(effect for _, effect, _ in effects)
        c = self._central
        corners = (
            _corners(effects, self.tried, self.catalog, self._solve)
            if effects
            else ((c.max_iops, c.response_ms),) * 2
        )
        (pess_max, pess_resp), (opt_max, opt_resp) = corners
        return CatalogBandResult(
            threshold=self.threshold,
            max_iops=(min(pess_max, opt_max), max(pess_max, opt_max)),
            response_time_ms=(pess_resp, opt_resp),
            contributors=contributors,
            estimates_tried=len(self.tried),
            bottleneck_estimated=any(c.moves_max for c in contributors),
        )


def _open_response_ms(solver: Solver, rates: FloatArray) -> float | None:
    """The open response at `rates` (ms; None where saturated)."""
    point = solver.open_point(rates)
    return None if point.saturated else float(point.response_s) / MS


def _moved(value: float | None, central: float | None) -> float:
    """How far `value` is from the central answer, as a share of it (infinite where one of
    the two is saturated and the other not)."""
    if value is None or central is None:
        return 0.0 if value == central else float("inf")
    return abs(value / central - 1.0) if central > 0 else 0.0


def _effect(
    est: Estimate,
    catalog: Catalog,
    solve: Callable[[Catalog], _Solved],
    central_max_iops: float,
    central_response_ms: float | None,
    threshold: float,
) -> _Found:
    """The estimate solved at the two ends of its range: how far it moves the answer (the
    larger of its moves on the maximum and on the planned response time), its effect, and
    whether its low end is the pessimistic one; None where it moves neither past the
    threshold."""
    (max_low, resp_low), (max_high, resp_high) = (
        solve(est.put(catalog, end)) for end in (est.low, est.high)
    )
    on_max = max(_moved(max_low, central_max_iops), _moved(max_high, central_max_iops))
    on_response = max(_moved(resp_low, central_response_ms), _moved(resp_high, central_response_ms))
    reach = max(on_max, on_response)
    if reach <= threshold:  # passed the screen on the open load, not on the answer
        return None
    effect = EstimateEffect(
        label=est.label,
        key=est.path,
        value=est.value,
        low=est.low,
        high=est.high,
        max_iops=(max_low, max_high),
        response_time_ms=(resp_low, resp_high),
        moves_max=on_max > threshold,
    )
    # The pessimistic end: the lower maximum; on a tie, the slower response.
    low_is_worse = (max_low, -(resp_low or float("inf"))) < (
        max_high,
        -(resp_high or float("inf")),
    )
    return reach, effect, low_is_worse


def _corners(
    effects: list[tuple[float, EstimateEffect, bool]],
    tried: list[Estimate],
    catalog: Catalog,
    solve: Callable[[Catalog], _Solved],
) -> tuple[_Solved, _Solved]:
    """The configuration solved with every contributor at its pessimistic end, then at its
    optimistic end."""
    by_path = {est.path: est for est in tried}
    corners_list = []
    for pessimistic in (True, False):
        cat = catalog
        for _, effect, low_is_worse in effects:
            est = by_path[effect.key]
            end = est.low if low_is_worse == pessimistic else est.high
            cat = est.put(cat, end)
        corners_list.append(solve(cat))
    return corners_list[0], corners_list[1]
