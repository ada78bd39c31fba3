"""Scenario files: what a planner writes, validated into inert, frozen pydantic models.

A scenario names a storage system from the catalog, its configuration, extent pools of RAID
ranks, the workloads and the analyses wanted. Validation is strict: unknown keys, names not in
the catalog, values out of range and configurations the hardware does not offer are all errors,
and every error names the file, the line, the key path and what is allowed.

Units are those in the key names (`_gb` decimal gigabytes as drive vendors count, `_kib` KiB
transfers, `_ms` milliseconds); the model converts them once.
"""

from __future__ import annotations

import copy
import difflib
import math
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.errors import InputError
from diskmodel.tiering.presets import PRESET_LEVELS
from diskmodel.yamlio import Located, load_yaml

SCHEMA_VERSION = 1

MAX_RANKS = 1024
"""More ranks than any DS8000 of this generation holds (8 DA pairs x 24); checked before the
ranks are expanded one by one, so that a small file cannot ask for millions of them."""

MAX_POPULATION = 4096
"""Bound on a closed workload's `queue_depth` or `users`. The exact closed solution costs time
and memory in the square of the population: fuzzing found 10,000 taking 52 s and 3.2 GB on a
four-rank pool, and the old bound of 100,000 never finishing; 4,096 takes about 9 s. A host
queue depth in the thousands is already far past any DS8000's saturation point."""

MAX_ALTERNATIVES = 64
"""Bound on `compare` alternatives and `growth` factors: each is a whole model solve."""

SKEW_PRESETS = PRESET_LEVELS
"""The commercial tool's named Easy Tier skew levels (DOMAIN.md C7)."""

Tier = Literal["ssd", "enterprise", "nearline"]


def _control_character(text: str, allowed: str = "") -> str | None:
    return next((c for c in text if unicodedata.category(c) == "Cc" and c not in allowed), None)


def _printable_name(text: str) -> str:
    # A name is shown in terminals, charts and reports: a control character (an ANSI escape
    # can rewrite the terminal; charts have no glyph for it) is refused, not passed on.
    bad = _control_character(text)
    if bad is not None:
        raise _problem(f"holds the control character {bad!r}; a name is printable text")
    return text


def _printable_text(text: str) -> str:
    bad = _control_character(text, allowed="\t\n\r")
    if bad is not None:
        raise _problem(f"holds the control character {bad!r}; use printable text")
    return text


Name = Annotated[str, Field(min_length=1, max_length=80), AfterValidator(_printable_name)]
Fraction = Annotated[float, Field(ge=0.0, le=1.0)]


class ScenarioError(InputError):
    """A scenario file that does not validate; the message lists every problem found."""


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, allow_inf_nan=False, strict=False, validate_default=True
    )

    @field_validator("*", mode="before")
    @classmethod
    def _no_yes_no_values(cls, value: Any, info: ValidationInfo) -> Any:
        # pydantic's lax mode reads true/false as 1/0, so `iops: true` would silently plan
        # for 1 I/O/s; only fields declared yes/no take one. Mappings (a `set` of an
        # alternative, nested sections) are checked by their own models.
        field = cls.model_fields.get(info.field_name or "")
        if field is not None and field.annotation is bool:
            return value
        if _holds_bool(value):
            raise _problem("true/false is not allowed here; give a number or a name")
        return value


def _holds_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    return isinstance(value, list | tuple) and any(_holds_bool(v) for v in value)


def _catalog(info: ValidationInfo) -> Catalog:
    context = info.context or {}
    catalog = context.get("catalog")
    return catalog if isinstance(catalog, Catalog) else load_catalog()


def _unknown(kind: str, name: str, allowed: Iterable[str]) -> PydanticCustomError:
    allowed = sorted(allowed)
    close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return PydanticCustomError(
        "unknown_name",
        "unknown {kind} '{name}'{hint} (allowed: {allowed})",
        {"kind": kind, "name": _clip(name), "hint": hint, "allowed": ", ".join(allowed)},
    )


def _clip(text: str, limit: int = 60) -> str:
    """Text from the file, shortened for a message (a 10,000-character name is not echoed)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _known(kind: str, name: str, names: Iterable[str]) -> str:
    """`name` if it is one of `names`, else an error listing them with a suggestion."""
    if name not in names:
        raise _unknown(kind, name, names)
    return name


def _problem(message: str) -> PydanticCustomError:
    # The text goes in as context, never as the template: a name from the file may hold braces.
    return PydanticCustomError("scenario_rule", "{text}", {"text": message})


class SystemConfig(_Model):
    """The storage system: catalog model and how it is configured."""

    model: Name = Field(description="catalog name of the storage system, e.g. ds8800-951")
    processor_ways: Literal[2, 4] = Field(4, description="cores per server (2-way or 4-way)")
    cache_gb: float = Field(gt=0, description="total processor memory (cache), GB")
    host_ports: int = Field(gt=0, description="Fibre Channel host ports in use")
    host_adapter: Name | None = Field(None, description="host adapter type; default: the model's")
    da_pairs: int = Field(gt=0, description="device adapter pairs installed")

    @field_validator("model")
    @classmethod
    def _known_model(cls, value: str, info: ValidationInfo) -> str:
        return _known("storage system", value, _catalog(info).systems)


class _RankKind(_Model):
    """A drive type and RAID format, both checked against the catalog.

    Rank groups and tier sweeps name them; checking at load, not when a sweep builds its
    variants, turns an unknown name into a message instead of a KeyError (found by fuzzing).
    """

    drive: Name
    raid: Name

    @field_validator("drive")
    @classmethod
    def _known_drive(cls, value: str, info: ValidationInfo) -> str:
        return _known("drive", value, _catalog(info).drives)

    @field_validator("raid")
    @classmethod
    def _known_raid(cls, value: str, info: ValidationInfo) -> str:
        return _known("RAID format", value, _catalog(info).raid_formats)


class RankGroup(_RankKind):
    """`count` identical RAID ranks, each built from one 8-drive array site."""

    count: int = Field(gt=0, le=1024)
    da_pair: int | None = Field(
        None, ge=0, description="DA pair index; default: spread round-robin over the DA pairs"
    )
    added: bool = Field(
        False,
        description="added empty to a pool that already holds its data: with easy_tier auto,"
        " auto-rebalance moves extents onto these ranks while the others keep their data span",
    )


EASY_TIER_UTILIZATION_TARGET = 0.8
"""Default load Easy Tier lets a tier's busiest station (drive or DA pair) carry before it
demotes warm extents. IBM documents the behaviour ("warm demotion is triggered whenever the
higher tier is over its bandwidth capacity ... to operate at its optimal load", DS8000
Introduction and Planning Guide, Easy Tier functions) but not the threshold; 80% is an
estimate: below it an M/M/1 station's queueing delay stays within four service times."""


class EasyTier(_Model):
    """Easy Tier on a pool: `off`, `auto`, or a mapping with its settings.

    A plain `easy_tier: auto` (or `off`) is read as `{mode: auto}`."""

    mode: Literal["off", "auto"] = Field(
        "auto", description="auto: Easy Tier places hot extents on faster tiers; off: by capacity"
    )
    utilization_target: float = Field(
        EASY_TIER_UTILIZATION_TARGET,
        gt=0.0,
        le=1.0,
        description="highest utilisation Easy Tier lets a tier's drives and DA pairs reach "
        "before it moves warm extents down (fraction)",
    )


class Pool(_Model):
    """An extent pool: ranks whose capacity volumes are carved from, in 1 GiB extents."""

    name: Name
    easy_tier: EasyTier = Field(
        EasyTier(), description="off, auto, or {mode: auto, utilization_target: 0.8}"
    )
    ranks: list[RankGroup] = Field(min_length=1, max_length=MAX_RANKS)

    @field_validator("easy_tier", mode="before")
    @classmethod
    def _mode_shorthand(cls, value: Any) -> Any:
        return {"mode": value} if isinstance(value, str) else value


class Skew(_Model):
    """How a workload's small random I/O is spread over its capacity (exactly one form)."""

    level: float | str | None = Field(
        None, description="a number above 1, or a preset: " + ", ".join(SKEW_PRESETS)
    )
    points: list[tuple[Fraction, Fraction]] | None = Field(
        None, min_length=1, description="[capacity fraction, I/O fraction] pairs, hottest first"
    )
    heatmap: str | None = Field(None, description="CSV of per-extent I/O, relative to the file")
    sequential_level: float | None = Field(None, gt=1.0)

    @field_validator("level", mode="before")
    @classmethod
    def _level_or_preset(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value not in SKEW_PRESETS:
                raise _unknown("skew preset", value, SKEW_PRESETS)
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            if not (math.isfinite(value) and value > 1.0):
                raise _problem(
                    f"{value!r}: a skew level must be a finite number above 1 "
                    "(1 would mean no skew at all)"
                )
            return float(value)
        if value is None:
            return value
        raise _problem(f"a skew level is a number above 1 or one of {', '.join(SKEW_PRESETS)}")

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        given = [k for k in ("level", "points", "heatmap") if getattr(self, k) is not None]
        if len(given) != 1:
            raise _problem(
                "give exactly one of 'level', 'points' or 'heatmap' "
                f"(given: {', '.join(given) or 'none'})"
            )
        return self

    @model_validator(mode="after")
    def _curve_exists(self) -> Self:
        # The tiering layer refuses levels above its range and point lists that are not
        # increasing or not concave; ask it now, so the error names the file and the key
        # instead of surfacing as a traceback from the model (found by fuzzing).
        from diskmodel.tiering.skew import (
            PiecewiseSkew,
            SkewCurve,
            derived_mb_curve,
            skew_from_level,
        )

        curve: SkewCurve
        try:
            if self.points is not None:
                curve = PiecewiseSkew.from_points([list(p) for p in self.points])
            else:
                curve = skew_from_level(self.level_value or 1.0)
            if self.sequential_level is not None:
                derived_mb_curve(curve, self.sequential_level)
        except ValueError as exc:
            raise _problem(str(exc)) from None
        return self

    @property
    def level_value(self) -> float | None:
        """The numeric skew level, presets resolved."""
        if isinstance(self.level, str):
            return SKEW_PRESETS[self.level]
        return self.level


class Workload(_Model):
    """One application's I/O: its rate or concurrency, mix, cache behaviour and footprint."""

    name: Name
    pool: Name
    iops: float | None = Field(None, gt=0, le=1e9, description="planned host I/O rate, I/O/s")
    iops_range: tuple[float, float] | None = Field(
        None, description="I/O rates for the curve, [low, high]"
    )
    read_fraction: Fraction
    read_hit_ratio: Fraction
    destage_ratio: float = Field(
        1.0, ge=0.0, le=1.0, description="destages per host write, after write folding"
    )
    read_size_kib: float = Field(4.0, gt=0, le=16384)
    write_size_kib: float = Field(4.0, gt=0, le=16384)
    read_sequential_fraction: Fraction = 0.0
    write_sequential_fraction: Fraction = 0.0
    capacity_gb: float = Field(gt=0, le=1e7)
    skew: Skew | None = None
    queue_depth: int | None = Field(
        None, gt=0, le=MAX_POPULATION, description="host I/Os in flight"
    )
    users: int | None = Field(None, gt=0, le=MAX_POPULATION)
    think_time_ms: float = Field(0.0, ge=0, le=3.6e6)
    pin_tier: Tier | None = Field(None, description="place the whole workload on one tier")

    @field_validator("iops_range")
    @classmethod
    def _range_ordered(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and not 0 < value[0] < value[1] <= 1e9:
            raise _problem("iops_range must be [low, high] with 0 < low < high <= 1e9")
        return value

    @model_validator(mode="after")
    def _some_load(self) -> Self:
        if self.iops is None and self.queue_depth is None and self.users is None:
            raise _problem("give the load: 'iops', 'queue_depth', or 'users' (with think_time_ms)")
        if self.queue_depth is not None and self.users is not None:
            raise _problem("give either 'queue_depth' or 'users', not both")
        if self.iops is not None and self.is_closed:
            # One definition of a closed workload everywhere: a rate and a population at once
            # would be open to one part of the model and closed to another.
            raise _problem(
                "give either 'iops' (an open workload: a planned rate) or 'queue_depth'/'users' "
                "(a closed one: the rate follows from the population), not both"
            )
        return self

    @property
    def is_closed(self) -> bool:
        """Given by a queue depth or users (a closed loop), not by a rate."""
        return self.queue_depth is not None or self.users is not None


class Curve(_Model):
    points: int = Field(60, ge=2, le=2000, description="load points from light load to saturation")


class Alternative(_Model):
    """A variant of the scenario: dotted key paths set to new values, e.g. system.model."""

    name: Name
    set: dict[str, Any] = Field(min_length=1)


class Growth(_Model):
    factors: list[Annotated[float, Field(gt=0, le=1000)]] = Field(
        min_length=1, max_length=MAX_ALTERNATIVES
    )


class TierSweep(_RankKind):
    """Add 0, 1, 2 ... ranks of one drive type to a pool and compare."""

    pool: Name
    counts: list[Annotated[int, Field(ge=0, le=256)]] = Field(
        min_length=1, max_length=MAX_ALTERNATIVES
    )


UTILIZATION_LIMIT = 0.7
"""Default planning ceiling on every component's utilisation: the level at which the report
has always warned (an M/M/1 station's wait is then 2.3 service times and rising steeply)."""
RESPONSE_TIME_TARGET_MS = 5.0
"""Default response-time target: a common service level for random OLTP I/O on HDD-based
enterprise storage (a 15K drive's own service time is 5-7 ms, DOMAIN.md C1)."""


class UtilizationLimits(_Model):
    """Planning ceilings on utilisation per component kind (fractions)."""

    host_adapter: float = Field(UTILIZATION_LIMIT, gt=0.0, le=1.0)
    processor: float = Field(UTILIZATION_LIMIT, gt=0.0, le=1.0)
    device_adapter: float = Field(UTILIZATION_LIMIT, gt=0.0, le=1.0)
    rank: float = Field(UTILIZATION_LIMIT, gt=0.0, le=1.0)


class ServiceLevel(_Model):
    """What the planner sizes to: a response-time target and utilisation ceilings.

    Results report the load at which each configuration still meets all of them beside its
    saturation rate."""

    response_time_ms: float = Field(
        RESPONSE_TIME_TARGET_MS, gt=0.0, le=1e5, description="mean response time target, ms"
    )
    read_response_time_ms: float | None = Field(
        None, gt=0.0, le=1e5, description="mean read response time target, ms"
    )
    utilization: UtilizationLimits = UtilizationLimits()


class Analyses(_Model):
    curve: Curve = Curve()
    compare: list[Alternative] = Field(default_factory=list, max_length=MAX_ALTERNATIVES)
    growth: Growth | None = None
    tier_sweep: TierSweep | None = None


class Scenario(_Model):
    """A whole scenario file, validated against the hardware catalog."""

    schema_version: Literal[1]
    name: Name
    description: Annotated[str, AfterValidator(_printable_text)] = Field("", max_length=10_000)
    system: SystemConfig
    pools: list[Pool] = Field(min_length=1, max_length=64)
    workloads: list[Workload] = Field(min_length=1, max_length=64)
    service_level: ServiceLevel = ServiceLevel()
    analyses: Analyses = Analyses()

    @model_validator(mode="after")
    def _fits_the_hardware(self, info: ValidationInfo) -> Self:
        catalog = _catalog(info)
        problems = list(_hardware_problems(self, catalog))
        if problems:
            raise _problem("\n".join(problems))
        return self

    def alternatives(self, catalog: Catalog | None = None) -> list[tuple[str, Scenario]]:
        """The baseline and each `compare` alternative, applied and re-validated."""
        out: list[tuple[str, Scenario]] = [(self.name, self)]
        base = self.model_dump(mode="python")
        context = {"catalog": catalog or load_catalog()}
        for alt in self.analyses.compare:
            data = apply_settings(base, alt.set)
            data["name"] = alt.name
            data["analyses"] = {"curve": base["analyses"]["curve"]}
            out.append((alt.name, Scenario.model_validate(data, context=context)))
        return out


@dataclass(frozen=True)
class RankPlacement:
    """Where one rank sits: its pool, drive, RAID format, DA pair and owning server."""

    index: int  # position among all ranks of the system, in file order
    pool: str
    drive: str
    raid: str
    da_pair: int
    server: int


def expand_ranks(scenario: Scenario) -> list[RankPlacement]:
    """Every rank of the system, placed on a DA pair and a server.

    Ranks with an explicit `da_pair` go there; the others are dealt round-robin in file order
    over the DA pairs, the way IBM's configuration guidance spreads array sites. Rank i is
    owned by server i % 2, which alternates ranks between the two servers as recommended.
    """
    pairs = scenario.system.da_pairs
    placed: list[RankPlacement] = []
    next_pair = 0
    for pool in scenario.pools:
        for group in pool.ranks:
            for _ in range(group.count):
                if group.da_pair is not None:
                    da_pair = group.da_pair
                else:
                    da_pair, next_pair = next_pair, (next_pair + 1) % pairs
                index = len(placed)
                placed.append(
                    RankPlacement(index, pool.name, group.drive, group.raid, da_pair, index % 2)
                )
    return placed


def _hardware_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    system = catalog.systems[scenario.system.model]
    cfg = scenario.system
    options = {o.ways: o for o in system.processor_options}
    if cfg.processor_ways not in options:
        yield (
            f"system.processor_ways: {system.name} is offered {_or(sorted(options))}-way, "
            f"not {cfg.processor_ways}-way"
        )
    else:
        offered = options[cfg.processor_ways].cache_gb_options
        if not any(math.isclose(cfg.cache_gb, c) for c in offered):
            yield (
                f"system.cache_gb: {cfg.cache_gb:g} GB is not offered on a "
                f"{cfg.processor_ways}-way {system.name} (allowed: {_list(offered)})"
            )
    adapters = {h.name: h for h in system.host_adapters}
    adapter_name = cfg.host_adapter or system.default_host_adapter
    if adapter_name not in adapters:
        close = difflib.get_close_matches(adapter_name, list(adapters), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        yield (
            f"system.host_adapter: '{adapter_name}' is not offered on {system.name}{hint} "
            f"(allowed: {_list(adapters)})"
        )
    if cfg.host_ports > system.max_host_ports:
        yield (
            f"system.host_ports: {cfg.host_ports} is more than the {system.max_host_ports} "
            f"host ports a {system.name} takes"
        )
    if cfg.da_pairs > system.max_da_pairs:
        yield (
            f"system.da_pairs: {cfg.da_pairs} is more than the {system.max_da_pairs} "
            f"DA pairs a {system.name} takes"
        )
    yield from _pool_problems(scenario, catalog)
    yield from _workload_problems(scenario, catalog)
    sweep = scenario.analyses.tier_sweep
    pools = [p.name for p in scenario.pools]
    if sweep is not None and sweep.pool not in pools:
        close = difflib.get_close_matches(sweep.pool, pools, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        yield (
            f"analyses.tier_sweep.pool: no pool named '{sweep.pool}'{hint} (pools: {_list(pools)})"
        )


def _pool_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    system = catalog.systems[scenario.system.model]
    for name, n in Counter(p.name for p in scenario.pools).items():
        if n > 1:
            yield f"pools: the name '{name}' is used by {n} pools; pool names must be unique"
    for p, pool in enumerate(scenario.pools):
        if all(group.added for group in pool.ranks):
            yield (
                f"pools[{p}].ranks: every rank group is marked 'added'; at least one must hold "
                "the pool's data before the others are added"
            )
        for g, group in enumerate(pool.ranks):
            where = f"pools[{p}].ranks[{g}]"
            drive = catalog.drives[group.drive]
            raid = catalog.raid_formats[group.raid]
            if group.drive not in system.drives:
                yield (
                    f"{where}.drive: {group.drive} is not offered on {system.name} "
                    f"(offered: {_list(system.drives)})"
                )
            if group.raid not in system.raid_formats:
                yield (
                    f"{where}.raid: {group.raid} is not offered on {system.name} "
                    f"(offered: {_list(system.raid_formats)})"
                )
            if raid.drives != raid.array_site_drives:
                yield (
                    f"{where}.raid: {group.raid} uses {raid.drives} drives but an array site "
                    f"holds {raid.array_site_drives}"
                )
            if drive.kind == "ssd" and raid.level == 6:
                yield f"{where}.raid: RAID-6 is not offered for SSD ranks (use RAID-5 or RAID-10)"
            if group.da_pair is not None and group.da_pair >= scenario.system.da_pairs:
                yield (
                    f"{where}.da_pair: {group.da_pair} does not exist; the system has "
                    f"{scenario.system.da_pairs} DA pairs, numbered 0 to "
                    f"{scenario.system.da_pairs - 1}"
                )
    total = sum(g.count for pool in scenario.pools for g in pool.ranks)
    most = system.max_da_pairs * system.max_ranks_per_da_pair
    if total > most:
        yield f"pools: {total:,} ranks in all; a {system.name} holds at most {most}"
        return
    per_pair = Counter(r.da_pair for r in expand_ranks(scenario))
    for index, count in sorted(per_pair.items()):
        if count > system.max_ranks_per_da_pair:
            yield (
                f"pools: DA pair {index} would serve {count} ranks; a {system.name} DA pair "
                f"serves at most {system.max_ranks_per_da_pair}"
            )


def _workload_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    pools = {p.name: p for p in scenario.pools}
    for name, n in Counter(w.name for w in scenario.workloads).items():
        if n > 1:
            yield f"workloads: the name '{name}' is used by {n} workloads; names must be unique"
    demand: dict[str, float] = dict.fromkeys(pools, 0.0)
    for w, workload in enumerate(scenario.workloads):
        where = f"workloads[{w}]"
        if workload.pool not in pools:
            close = difflib.get_close_matches(workload.pool, list(pools), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            yield f"{where}.pool: no pool named '{workload.pool}'{hint} (pools: {_list(pools)})"
            continue
        demand[workload.pool] += workload.capacity_gb
        tiers = {catalog.drives[g.drive].tier for g in pools[workload.pool].ranks}
        if workload.pin_tier is not None and workload.pin_tier not in tiers:
            yield (
                f"{where}.pin_tier: pool '{workload.pool}' has no {workload.pin_tier} ranks "
                f"(its tiers: {_list(tiers)})"
            )
    population = sum((w.queue_depth or 0) + (w.users or 0) for w in scenario.workloads)
    if population > MAX_POPULATION:
        yield (
            f"workloads: the closed workloads hold {population:,} I/Os or users in all "
            f"(queue_depth + users); diskmodel solves at most {MAX_POPULATION:,} exactly"
        )
    growth = scenario.analyses.growth
    closed = [(w.queue_depth or 0) + (w.users or 0) for w in scenario.workloads]
    if growth is not None and population and population <= MAX_POPULATION:
        # Growth multiplies closed populations (analyses._closed_growth rounds each, at least
        # 1): queue_depth 64 x factor 1000 asked for 64,000 and 30 GB (found by fuzzing).
        factor = max(growth.factors)
        grown = sum(max(1, round(n * factor)) for n in closed if n)
        if grown > MAX_POPULATION:
            yield (
                f"analyses.growth.factors: {factor:g} x the closed population {population:,} "
                f"is {grown:,}; diskmodel solves at most {MAX_POPULATION:,} exactly"
            )
    for pool_name, needed in demand.items():
        usable = pool_capacity_gb(pools[pool_name], catalog)
        if needed > usable * (1 + 1e-9):
            yield (
                f"workloads: the workloads in pool '{pool_name}' need {needed:,.0f} GB but its "
                f"ranks hold {usable:,.0f} GB usable"
            )


def pool_capacity_gb(pool: Pool, catalog: Catalog) -> float:
    """Usable capacity of a pool: each rank's data drives times the drive's capacity."""
    return sum(
        g.count * catalog.raid_formats[g.raid].data_drives * catalog.drives[g.drive].capacity_gb
        for g in pool.ranks
    )


def apply_settings(base: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """Copy `base` and set each dotted path (`system.model`, `workloads.oltp.iops`).

    A path step into a list is an index (`pools.0`) or the `name` of an item (`workloads.oltp`).
    """
    data = copy.deepcopy(base)
    for full, value in settings.items():
        steps = full.split(".")
        dotted = _clip(full)
        node: Any = data
        for depth, step in enumerate(steps):
            last = depth == len(steps) - 1
            if isinstance(node, dict):
                if step not in node:
                    allowed = ", ".join(sorted(node))
                    raise KeyError(f"'{dotted}': no key '{_clip(step)}' here (allowed: {allowed})")
                if last:
                    node[step] = value
                else:
                    node = node[step]
            elif isinstance(node, list):
                index = _list_index(node, step, dotted)
                if last:
                    node[index] = value
                else:
                    node = node[index]
            else:
                raise KeyError(f"'{dotted}': '{_clip(steps[depth - 1])}' is a value, not a section")
    return data


def _list_index(items: list[Any], step: str, dotted: str) -> int:
    if step.isdigit() and int(step) < len(items):
        return int(step)
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("name") == step:
            return i
    names = [str(item["name"]) for item in items if isinstance(item, dict) and "name" in item]
    raise KeyError(
        f"'{dotted}': no item '{_clip(step)}' (use an index 0-{len(items) - 1}"
        + (f" or a name: {', '.join(names)})" if names else ")")
    )


def load_scenario(path: Path | str, catalog: Catalog | None = None) -> Scenario:
    """Load and validate a scenario file; raise `ScenarioError` listing every problem."""
    path = Path(path)
    located = load_yaml(path)
    return validate_scenario(located, catalog)


def validate_scenario(located: Located, catalog: Catalog | None = None) -> Scenario:
    """Validate already-parsed scenario data; messages point into `located.source`."""
    catalog = catalog or load_catalog()
    data = located.data
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"a single value ({data!r:.40})"
        raise ScenarioError(
            f"{located.source}: a scenario is a mapping of keys (schema_version, name, system, "
            f"pools, workloads, service_level, analyses), but this file holds {kind}"
        )
    version = data.get("schema_version")
    if version is not None and version != SCHEMA_VERSION:
        raise ScenarioError(
            f"{located.source}:{located.line_of(['schema_version'])}: schema_version: "
            f"{_shown(version) or type(version).__name__} is not supported; this diskmodel "
            f"reads schema_version {SCHEMA_VERSION}"
        )
    context = {"catalog": catalog}
    try:
        scenario = Scenario.model_validate(data, context=context)
    except ValidationError as exc:
        raise ScenarioError(_format_errors(exc, located)) from None
    _check_alternatives(scenario, located, catalog)
    return scenario


def _check_alternatives(scenario: Scenario, located: Located, catalog: Catalog) -> None:
    for i, alt in enumerate(scenario.analyses.compare):
        path: list[str | int] = ["analyses", "compare", i, "set"]
        try:
            apply_settings(scenario.model_dump(mode="python"), alt.set)
        except KeyError as exc:
            raise ScenarioError(
                f"{located.source}:{located.line_of(path)}: analyses.compare[{i}].set: "
                f"{exc.args[0]}"
            ) from None
    try:
        scenario.alternatives(catalog)
    except ValidationError as exc:
        names = [a.name for a in scenario.analyses.compare]
        raise ScenarioError(
            f"alternative(s) {', '.join(names)} in analyses.compare do not validate:\n"
            + _format_errors(exc, located, prefix=["analyses", "compare"])
        ) from None


def _format_errors(exc: ValidationError, located: Located, prefix: Sequence[str | int] = ()) -> str:
    lines = []
    errors = exc.errors(include_url=False)
    for error in errors[:12]:
        loc = _input_loc(error["loc"], located.data if not prefix else None)
        message = _message(error, loc)
        if error["type"] == "scenario_rule" and not loc:
            # Whole-scenario cross-checks name their own key path, one problem a line.
            for part in message.split("\n"):
                path = _parse_dotted(part.split(": ", 1)[0])
                lines.append(f"{_where(located, [*prefix, *path])}: {part}")
            continue
        key = _dotted(loc)
        lines.append(f"{_where(located, [*prefix, *loc])}: {key + ': ' if key else ''}{message}")
    if len(errors) > 12:
        lines.append(f"... and {len(errors) - 12} more problems")
    return "\n".join(lines)


def _where(located: Located, path: Sequence[str | int]) -> str:
    line = located.line_of(path)
    return f"{located.source}:{line}" if line else located.source


def _input_loc(loc: Sequence[str | int], data: Any) -> list[str | int]:
    """The error's location as key path in the file: pydantic's union-member tags removed.

    A tag (`float`, `tuple[...]`, `function-...`) is dropped only where the file has no key of
    that name: a scenario may well hold a (misplaced) key called `float` or `str`.
    """
    out: list[str | int] = []
    node = data
    for part in loc:
        present = (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if present:
            node = node[part]
        elif _is_union_tag(part):
            continue
        else:
            node = None
        out.append(part)
    return out


def _is_union_tag(part: str | int) -> bool:
    return isinstance(part, str) and (
        part.startswith(("function-", "literal[", "tuple[")) or part in {"float", "int", "str"}
    )


def _message(error: Any, loc: Sequence[str | int]) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        allowed = _allowed_keys(loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1, cutoff=0.6)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return f"unknown key{hint} (allowed keys here: {', '.join(allowed)})"
    if kind == "missing":
        return "is required but missing"
    if kind == "literal_error":
        return f"{_shown(error.get('input'))} is not allowed; {error['msg'].replace('Input', 'it')}"
    shown = _shown(error.get("input"))
    text = str(error["msg"])
    for old, new in (("Value error, ", ""), ("Input should be", "must be")):
        text = text.replace(old, new)
    if kind in {"scenario_rule", "unknown_name"}:
        return text
    return f"{shown} is not allowed: {text}" if shown else text


def _shown(value: Any) -> str:
    if isinstance(value, dict | list):
        return ""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _allowed_keys(loc: Sequence[str | int]) -> list[str]:
    model: Any = Scenario
    for part in loc:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part) if hasattr(model, "model_fields") else None
        if field is None:
            return []
        model = _model_in(field.annotation)
        if model is None:
            return []
    return sorted(model.model_fields) if hasattr(model, "model_fields") else []


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _dotted(loc: Sequence[str | int]) -> str:
    out = ""
    for part in loc:
        name = _clip(str(part))
        out += f"[{part}]" if isinstance(part, int) else (f".{name}" if out else name)
    return out


def _parse_dotted(text: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in text.replace("]", "").split("."):
        name, *indices = piece.split("[")
        if name:
            parts.append(name)
        parts.extend(int(i) for i in indices if i.isdigit())
    return parts


def _list(items: Iterable[Any]) -> str:
    return ", ".join(str(i) for i in sorted(items, key=str))


def _or(items: Sequence[int]) -> str:
    return " or ".join(str(i) for i in items)
