"""The scenario file's schema: one frozen pydantic model per section, unknown keys refused.

A scenario names a storage system from the catalog, its configuration, extent pools of RAID
ranks, the workloads and the analyses wanted. Units are those in the key names (`_gb` decimal
gigabytes as drive vendors count, `_kib` KiB transfers, `_ms` milliseconds); the model converts
them once. Each field's `description` is what the generated reference (docs/scenario.md) and
the JSON Schema (editor completion) show.

Checks that span sections and the hardware (a drive the system does not offer, more ranks than
the DA pairs take, data that does not fit a pinned tier) are in `diskmodel.scenario.hardware`.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from diskmodel.catalog import Catalog, StorageSystem, load_catalog
from diskmodel.scenario.calibration import CalibrationRecord
from diskmodel.scenario.hardware import hardware_problems
from diskmodel.scenario.limits import MAX_ALTERNATIVES, MAX_PATH_CHARS, MAX_POPULATION, MAX_RANKS
from diskmodel.scenario.overrides import apply_settings
from diskmodel.scenario.values import (
    Fraction,
    Model,
    Name,
    catalog_of,
    character_name,
    clip,
    file_reference,
    known,
    number_slip,
    ordered_range,
    printable_text,
    problem,
    unknown,
)
from diskmodel.tiering.presets import PRESET_LEVELS
from diskmodel.vocabulary import TierName

SCHEMA_VERSION = 1

MAX_TRANSFER_KIB = 16384
"""One host I/O's transfer, at most (a workload's read_size_kib and write_size_kib)."""
TransferKib = Annotated[float, Field(gt=0, le=MAX_TRANSFER_KIB)]
PlannedRate = Annotated[float, Field(gt=0, le=1e9)]
"""A workload's planned host I/O rate, I/O/s."""

HeatMapFile = Annotated[str, Field(max_length=MAX_PATH_CHARS), AfterValidator(file_reference)]

_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})

SKEW_PRESETS = PRESET_LEVELS
"""The commercial tool's named Easy Tier skew levels (its published presets: very low 2, low
3.5, intermediate 7, high 14, very high 24)."""


LatencyUs = Annotated[float, Field(ge=0, le=10000)]


class SystemConfig(Model):
    """The storage system: catalog model and how it is configured."""

    model: Name = Field(description="catalog name of the storage system, e.g. ds8800-951")
    processor_ways: Literal[2, 4] = Field(4, description="cores per server (2-way or 4-way)")
    cache_gb: float = Field(gt=0, description="total processor memory (cache), GB")
    host_ports: int = Field(gt=0, description="Fibre Channel host ports in use")
    host_adapter: Name | None = Field(None, description="host adapter type; default: the model's")
    da_pairs: int = Field(gt=0, description="device adapter pairs installed")
    rank_placement: Literal["round_robin", "balanced"] = Field(
        "round_robin",
        description="how ranks without a da_pair are placed: round_robin deals them over the "
        "DA pairs in file order and alternates servers by position; balanced deals each drive "
        "type's ranks over the DA pairs and the servers on their own, to the one holding the "
        "fewest of that type, so every type is as even as its count allows",
    )
    front_end_latency_us: LatencyUs | tuple[LatencyUs, LatencyUs] | None = Field(
        None,
        description="fixed light-load front-end time of one I/O, us, measured or calibrated; "
        "a range [low, high] when not known (diskmodel calibrate fits it within the range); "
        "default: the catalog's front_end_latency_us",
    )
    destage_order: Literal["ordered", "unordered"] = Field(
        "ordered",
        description="ordered: destages sweep each drive in address order (Intelligent Write "
        "Caching, which the DS8700 and DS8800 ship); unordered: least-recently-written order, "
        "as before it (each destage a random operation)",
    )

    _latency_range = field_validator("front_end_latency_us")(ordered_range)

    @field_validator("model")
    @classmethod
    def _known_model(cls, value: str, info: ValidationInfo) -> str:
        return known("storage system", value, catalog_of(info).systems)


class _RankKind(Model):
    """A drive type and RAID format, both checked against the catalog.

    Rank groups and tier sweeps name them; checking at load, not when a sweep builds its
    variants, turns an unknown name into a message instead of a KeyError (found by fuzzing).
    """

    drive: Name = Field(description="catalog drive name, e.g. 15k-146 (diskmodel catalog list)")
    raid: Name = Field(description="catalog RAID format, e.g. raid5-7+p")

    @field_validator("drive")
    @classmethod
    def _known_drive(cls, value: str, info: ValidationInfo) -> str:
        return known("drive", value, catalog_of(info).drives)

    @field_validator("raid")
    @classmethod
    def _known_raid(cls, value: str, info: ValidationInfo) -> str:
        return known("RAID format", value, catalog_of(info).raid_formats)


class RankGroup(_RankKind):
    """`count` identical RAID ranks, each built from one 8-drive array site."""

    count: int = Field(gt=0, le=1024, description="number of ranks (array sites) in the group")
    da_pair: int | None = Field(
        None,
        ge=0,
        description="DA pair index; default: placed by system.rank_placement (round-robin "
        "over the DA pairs, or balanced per drive type)",
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


class EasyTier(Model):
    """Easy Tier on a pool: `off`, `auto`, or a mapping with its settings.

    A plain `easy_tier: auto` (or `off`) is read as `{mode: auto}`."""

    mode: Literal["off", "auto"] = Field(
        "auto", description="auto: Easy Tier places hot extents on faster tiers; off: by capacity"
    )
    utilization_target: float = Field(
        EASY_TIER_UTILIZATION_TARGET,
        gt=0.0,
        lt=1.0,
        description="highest utilisation Easy Tier lets a tier's drives and DA pairs reach "
        "before it moves warm extents down (fraction, below 1: a tier at 1 is saturated; "
        "generation 2)",
    )
    generation: Literal[1, 2] | None = Field(
        None,
        description="1: two tiers, extents placed by I/O density only, no auto-rebalance (DS8700 "
        "R5.1); 2: up to three tiers, auto-rebalance within a tier, tiers kept under "
        "utilization_target (R6.1 and later); default: the generation the system model shipped "
        "with (the catalog's easy_tier_generation)",
    )

    def generation_on(self, system: StorageSystem) -> Literal[1, 2]:
        """The generation that runs on `system`: the one stated, else the one it shipped with."""
        return system.easy_tier_generation if self.generation is None else self.generation


def _mode_shorthand_schema(schema: dict[str, Any]) -> None:
    """JSON Schema of `easy_tier`: the mapping, or its mode alone (`easy_tier: auto`)."""
    ref = schema.pop("$ref", None)
    if ref is not None:
        schema["anyOf"] = [{"enum": ["off", "auto"]}, {"$ref": ref}]


class Pool(Model):
    """An extent pool: ranks whose capacity volumes are carved from, in 1 GiB extents."""

    name: Name = Field(description="the pool's name, which workloads refer to")
    easy_tier: EasyTier = Field(
        EasyTier(),
        description="off, auto, or {mode: auto, utilization_target: 0.8}",
        json_schema_extra=_mode_shorthand_schema,
    )
    ranks: list[RankGroup] = Field(
        min_length=1, max_length=MAX_RANKS, description="groups of identical ranks"
    )
    host_tiering: bool = Field(
        False,
        description="the host places the pool's data itself by its own read counts, hottest on "
        "the fastest tier to its capacity (IBM i's ASP balancer); needs easy_tier off",
    )

    @model_validator(mode="after")
    def _one_placer(self) -> Self:
        if self.host_tiering and self.easy_tier.mode == "auto":
            raise problem(
                "host_tiering: the host places this pool's data by its own read counts, so "
                "Easy Tier must be off here (easy_tier: off); compare the two as alternatives"
            )
        return self

    @field_validator("easy_tier", mode="before")
    @classmethod
    def _mode_shorthand(cls, value: Any) -> Any:
        return {"mode": value} if isinstance(value, str) else value


class Skew(Model):
    """How a workload's small random I/O is spread over its capacity (exactly one form)."""

    level: float | str | tuple[float, float] | None = Field(
        None,
        description="a number above 1, a range [low, high] of them, or a preset: "
        + ", ".join(SKEW_PRESETS),
    )
    points: list[tuple[Fraction, Fraction]] | None = Field(
        None, min_length=1, description="[capacity fraction, I/O fraction] pairs, hottest first"
    )
    heatmap: HeatMapFile | None = Field(
        None,
        description="CSV file of per-extent small-I/O counts and MB (extent_id,small_io_count,mb),"
        " relative to the scenario's folder and inside it",
    )
    sequential_level: float | None = Field(
        None,
        gt=1.0,
        description="skew level of the MB transferred by large sequential I/O (default: derived"
        " from the small-I/O curve)",
    )

    @field_validator("level", mode="before")
    @classmethod
    def _level_or_preset(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value in SKEW_PRESETS:
                return value
            slip = number_slip(float, value)
            if slip is not None:
                raise problem(slip)
            raise unknown("skew preset", value, SKEW_PRESETS)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if not (math.isfinite(value) and value > 1.0):
                raise problem(
                    f"{value!r}: a skew level must be a finite number above 1 "
                    "(1 would mean no skew at all)"
                )
            return float(value)
        if isinstance(value, list | tuple) and len(value) == 2:
            # A named range, e.g. [intermediate, high], is the presets' numbers (7 to 14).
            low, high = (PRESET_LEVELS.get(v, v) for v in map(cls._level_or_preset, value))
            if not (isinstance(low, float) and isinstance(high, float) and low < high):
                raise problem(
                    "a skew level range is [low, high], two numbers or preset names with low < high"
                )
            return (low, high)
        if value is None:
            return value
        raise problem(f"a skew level is a number above 1 or one of {', '.join(SKEW_PRESETS)}")

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        given = [k for k in ("level", "points", "heatmap") if getattr(self, k) is not None]
        if len(given) != 1:
            raise problem(
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
            elif isinstance(self.level, tuple):
                for end in self.level:
                    curve = skew_from_level(end)
            else:
                curve = skew_from_level(self.level_value or 1.0)
            if self.sequential_level is not None:
                derived_mb_curve(curve, self.sequential_level)
        except ValueError as exc:
            raise problem(str(exc)) from None
        return self

    @property
    def level_value(self) -> float | None:
        """The numeric skew level, presets resolved (a range: its middle)."""
        if isinstance(self.level, str):
            return SKEW_PRESETS[self.level]
        if isinstance(self.level, tuple):
            return 0.5 * (self.level[0] + self.level[1])
        return self.level


class Luns(Model):
    """A closed workload's concurrency as the hosts drive it: LUNs x the queue depth of each,
    capped per host by the HBA's queue depth where one is given."""

    count: int = Field(gt=0, le=65536, description="LUNs (volumes) the workload's I/O goes to")
    queue_depth: int = Field(gt=0, le=1024, description="host queue depth per LUN")
    hosts: int = Field(1, gt=0, le=4096, description="hosts the LUNs are spread over, evenly")
    hba_queue_depth: int | None = Field(
        None, gt=0, le=65536, description="I/Os one host keeps in flight at most; default: no cap"
    )

    @property
    def population(self) -> int:
        """I/Os in flight: LUNs x queue depth, at most hosts x HBA queue depth."""
        wanted = self.count * self.queue_depth
        if self.hba_queue_depth is None:
            return wanted
        return min(wanted, self.hosts * self.hba_queue_depth)

    @property
    def basis(self) -> str:
        text = f"{self.count:,} LUNs x queue depth {self.queue_depth:,}"
        wanted = self.count * self.queue_depth
        if self.hba_queue_depth is not None and self.population < wanted:
            text += (
                f" = {wanted:,}, capped by {self.hosts:,} host(s) x HBA queue depth "
                f"{self.hba_queue_depth:,}"
            )
        return f"{text} = {self.population:,} I/Os in flight"


class Pin(Model):
    """Media preference: a stated capacity of a workload held on one tier (a database's
    chosen objects on SSD), the rest placed by the pool's Easy Tier setting."""

    tier: TierName = Field(description="the tier that holds the pinned data")
    capacity_gb: float = Field(gt=0, le=1e7, description="data pinned to the tier, GB")
    io_share: Fraction | tuple[Fraction, Fraction] | None = Field(
        None,
        description="the pinned data's share of the workload's back-end I/O, 0 to 1, or a "
        "range [low, high] when not known (diskmodel calibrate fits it within the range); "
        "default: the share its skew gives the hottest capacity_gb (the objects a DBA would "
        "choose)",
    )

    _share_range = field_validator("io_share")(ordered_range)


class Workload(Model):
    """One application's I/O: its rate or concurrency, mix, cache behaviour and footprint."""

    name: Name = Field(description="the workload's name in reports; unique in the file")
    pool: Name = Field(description="the pool holding its data")
    iops: PlannedRate | tuple[PlannedRate, PlannedRate] | None = Field(
        None,
        description="planned host I/O rate, I/O/s (an open workload), or a range [low, high] "
        "of it when not known (the prediction is at its middle; the band's pessimistic end is "
        "the high rate); not the curve's span, which is iops_range",
    )
    iops_range: tuple[float, float] | None = Field(
        None,
        description="the curve's span of I/O rates, [low, high] (not a range of the planned "
        "rate: give that as iops: [low, high])",
    )
    read_fraction: Fraction | tuple[Fraction, Fraction] = Field(
        description="reads as a fraction of all I/O, 0 to 1, or a range [low, high] (sampled "
        "for the band: more reads may mean more or less work)"
    )
    read_hit_ratio: Fraction | tuple[Fraction, Fraction] = Field(
        description="fraction of reads answered from cache, 0 to 1, or a range [low, high]"
    )
    destage_ratio: Fraction | tuple[Fraction, Fraction] = Field(
        1.0, description="destages per host write, after write folding, or a range [low, high]"
    )
    read_size_kib: TransferKib | tuple[TransferKib, TransferKib] = Field(
        4.0, description="mean read transfer, KiB, or a range [low, high]"
    )
    write_size_kib: TransferKib | tuple[TransferKib, TransferKib] = Field(
        4.0, description="mean write transfer, KiB, or a range [low, high]"
    )
    backend_kib: float | None = Field(
        None,
        gt=0,
        le=MAX_TRANSFER_KIB,
        description="size of one random back-end operation (a read miss's stage, a destage), "
        "KiB, where the host coalesces its I/O into larger disk operations (or splits it); "
        "default: the host transfer size",
    )
    read_sequential_fraction: Fraction | tuple[Fraction, Fraction] = Field(
        0.0,
        description="fraction of reads that are sequential, 0 to 1, or a range [low, high] "
        "(sampled for the band)",
    )
    write_sequential_fraction: Fraction | tuple[Fraction, Fraction] = Field(
        0.0,
        description="fraction of writes that are sequential, 0 to 1, or a range [low, high] "
        "(sampled for the band)",
    )
    capacity_gb: float = Field(gt=0, le=1e7, description="data the workload occupies, GB")
    skew: Skew | None = Field(
        None, description="how its small I/O is spread over its capacity; default: evenly"
    )
    queue_depth: int | None = Field(
        None,
        gt=0,
        le=MAX_POPULATION,
        description="host I/Os in flight, no think time (a closed workload)",
    )
    users: int | None = Field(
        None, gt=0, le=MAX_POPULATION, description="users, each with think_time_ms (closed)"
    )
    luns: Luns | None = Field(
        None,
        description="concurrency as LUNs x queue depth per LUN (closed; sets queue_depth)",
    )
    think_time_ms: float = Field(
        0.0, ge=0, le=3.6e6, description="each user's pause between I/Os, ms"
    )
    pin_tier: TierName | None = Field(None, description="place the whole workload on one tier")
    pin: Pin | None = Field(
        None, description="place part of the workload on one tier: {tier, capacity_gb, io_share}"
    )
    ios_per_transaction: float | None = Field(
        None,
        gt=0,
        le=1e6,
        description="this workload's host I/Os per transaction of the scenario's application "
        "(its load then comes from the application's users)",
    )

    _input_range = field_validator(
        "iops",
        "read_fraction",
        "read_hit_ratio",
        "destage_ratio",
        "read_size_kib",
        "write_size_kib",
        "read_sequential_fraction",
        "write_sequential_fraction",
    )(ordered_range)

    @field_validator("iops_range")
    @classmethod
    def _range_ordered(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and not 0 < value[0] < value[1] <= 1e9:
            raise problem(
                "iops_range (the curve's span, not a range of the planned rate: give that as "
                "iops: [low, high]) must be [low, high] with 0 < low < high <= 1e9"
            )
        return value

    @model_validator(mode="after")
    def _one_pin(self) -> Self:
        if self.pin is not None and self.pin_tier is not None:
            raise problem(
                "give either 'pin_tier' (the whole workload on one tier) or 'pin' (part of it), "
                "not both"
            )
        if self.pin is not None and self.pin.capacity_gb > self.capacity_gb * (1 + 1e-9):
            raise problem(
                f"pin.capacity_gb: {self.pin.capacity_gb:,.0f} GB pinned of a workload of "
                f"{self.capacity_gb:,.0f} GB; pin at most its capacity_gb"
            )
        return self

    @model_validator(mode="after")
    def _some_load(self) -> Self:
        if self.luns is not None:
            derived = self.luns.population
            if self.users is not None or (
                self.queue_depth is not None and self.queue_depth != derived
            ):
                raise problem("give either 'luns' or 'queue_depth'/'users', not both")
            if derived > MAX_POPULATION:
                raise problem(
                    f"luns: {self.luns.basis}; diskmodel solves at most {MAX_POPULATION:,}"
                )
            # Frozen model: the population the LUNs imply is set once, here.
            object.__setattr__(self, "queue_depth", derived)
        loads = [
            key
            for key in ("iops", "queue_depth", "users", "ios_per_transaction")
            if getattr(self, key) is not None
        ]
        if not loads:
            raise problem(
                "give the load: 'iops', 'queue_depth', 'luns', 'users' (with think_time_ms), "
                "or 'ios_per_transaction' (driven by the scenario's application)"
            )
        if self.ios_per_transaction is not None and len(loads) > 1:
            others = [k for k in loads if k != "ios_per_transaction"]
            raise problem(
                f"give either 'ios_per_transaction' (the load comes from the application) or "
                f"{' / '.join(repr(k) for k in others)}, not both"
            )
        if self.queue_depth is not None and self.users is not None:
            raise problem("give either 'queue_depth' or 'users', not both")
        if self.iops is not None and self.is_closed:
            # One definition of a closed workload everywhere: a rate and a population at once
            # would be open to one part of the model and closed to another.
            raise problem(
                "give either 'iops' (an open workload: a planned rate) or 'queue_depth'/'users' "
                "(a closed one: the rate follows from the population), not both"
            )
        return self

    @model_serializer(mode="wrap")
    def _luns_not_queue_depth(self, handler: SerializerFunctionWrapHandler) -> Any:
        # Written out (alternatives, sweeps and calibration re-validate a dump) a workload
        # given by LUNs keeps the LUNs, not the queue depth derived from them.
        data = handler(self)
        if self.luns is not None and isinstance(data, dict):
            data["queue_depth"] = None
        return data

    @property
    def is_closed(self) -> bool:
        """Given by a queue depth, users or an application (a closed loop), not by a rate."""
        return (
            self.queue_depth is not None
            or self.users is not None
            or self.ios_per_transaction is not None
        )


MAX_LOG_PAGES = 4096
"""Pages in one log write, at most (Db2 writes at most 128 pages of 4 KiB per log I/O; the
bound leaves room for other logs and page sizes)."""


class Log(Model):
    """A database log written synchronously at commit, optionally striped over volumes.

    Its writes join the storage model as a sequential write workload of the same name (so a
    busy log shows in the other workloads' results), and its commit time is computed by the
    striped log-write model (docs/model.md, "Log writes") at the waits that load predicts.
    """

    name: Name = Field(description="the log's name in reports; unique among workloads and logs")
    pool: Name = Field(description="the pool holding the log volumes")
    commit_rate: float = Field(gt=0, le=1e7, description="log writes (commits) per second")
    pages_per_commit: int | dict[int, float] = Field(
        description="pages per log write: a number, or {pages: share of writes} summing to 1"
    )
    page_kib: float = Field(4.0, gt=0, le=64, description="log page size, KiB")
    stripes: int = Field(1, ge=1, le=64, description="volumes the log is striped over")
    links: int | None = Field(
        None, ge=1, le=64, description="host ports or channels the stripes share; default: one each"
    )
    striping_overhead_us: float | None = Field(
        None,
        ge=0,
        le=1e5,
        description="the striping layer's own time per striped write, us; default: the "
        "catalog system's log_striping_us",
    )
    large_write_pages: int = Field(
        128, ge=1, le=MAX_LOG_PAGES, description="pages of one large asynchronous log write"
    )
    capacity_gb: float = Field(10.0, gt=0, le=1e6, description="the log data sets' capacity, GB")
    pin_tier: TierName | None = Field(None, description="place the log on one tier")

    @field_validator("pages_per_commit")
    @classmethod
    def _pages(cls, value: int | dict[int, float]) -> int | dict[int, float]:
        given = {value: 1.0} if isinstance(value, int) else value
        if not given:
            raise problem("pages_per_commit: give a number of pages or {pages: share}")
        for pages, share in given.items():
            if not 1 <= pages <= MAX_LOG_PAGES:
                raise problem(f"pages_per_commit: {pages} pages; give 1 to {MAX_LOG_PAGES:,}")
            if not (math.isfinite(share) and 0 < share <= 1):
                raise problem(f"pages_per_commit: the share of {pages} pages must be in (0, 1]")
        total = sum(given.values())
        if not math.isclose(total, 1.0, abs_tol=1e-6):
            raise problem(f"pages_per_commit: the shares add up to {total:g}, not 1")
        return value

    @model_validator(mode="after")
    def _one_io_fits(self) -> Self:
        largest = max(pages for pages, _ in self.page_shares) * self.page_kib
        if largest > MAX_TRANSFER_KIB:
            raise problem(
                f"pages_per_commit x page_kib: a log write of {largest:,.0f} KiB; one I/O "
                f"carries at most {MAX_TRANSFER_KIB:,} KiB"
            )
        return self

    @property
    def page_shares(self) -> tuple[tuple[int, float], ...]:
        """(pages, share of log writes), fewest pages first."""
        given = (
            {self.pages_per_commit: 1.0}
            if isinstance(self.pages_per_commit, int)
            else self.pages_per_commit
        )
        return tuple(sorted(given.items()))

    def ios_per_commit(self) -> float:
        """Mean I/Os of one log write: a stripe with no page is not written."""
        return sum(share * min(pages, self.stripes) for pages, share in self.page_shares)

    def as_workload(self) -> Workload:
        """The log's writes as the storage model sees them: sequential writes of the pages each
        stripe gets, one I/O per written stripe."""
        ios = self.ios_per_commit()
        kib = sum(share * pages for pages, share in self.page_shares) * self.page_kib
        return Workload(
            name=self.name,
            pool=self.pool,
            iops=self.commit_rate * ios,
            read_fraction=0.0,
            read_hit_ratio=0.0,
            write_size_kib=kib / ios,
            write_sequential_fraction=1.0,
            capacity_gb=self.capacity_gb,
            pin_tier=self.pin_tier,
        )


class Application(Model):
    """The application above the storage: users who think, then run a transaction that takes
    host CPU time and issues host I/Os (to the workloads that give `ios_per_transaction`).
    Solved as one closed network with the storage (docs/model.md, "Application")."""

    name: Name = Field("application", description="the application's name in reports")
    users: int = Field(gt=0, le=MAX_POPULATION, description="users (or client processes)")
    think_time_ms: float = Field(
        0.0, ge=0, le=3.6e6, description="each user's pause between transactions, ms"
    )
    cpu_ms_per_transaction: float = Field(
        0.0, ge=0, le=3.6e6, description="host CPU time one transaction takes, ms"
    )
    cpus: int = Field(1, gt=0, le=4096, description="host CPUs (cores) serving the transactions")
    parallel_ios: int = Field(
        1,
        ge=1,
        le=64,
        description="host I/Os one transaction has in flight at once (1: one after another)",
    )


class Curve(Model):
    points: int = Field(60, ge=2, le=2000, description="load points from light load to saturation")


class Alternative(Model):
    """A variant of the scenario: dotted key paths set to new values, e.g. system.model."""

    name: Name = Field(description="the alternative's name in reports; unique in the file")
    set: dict[str, Any] = Field(
        min_length=1,
        description="dotted key paths and their new values, e.g. {system.cache_gb: 256,"
        " workloads.oltp.iops: 8000}; a list item by index (pools.0) or by name",
    )

    @field_validator("set")
    @classmethod
    def _keys_normalised(cls, value: dict[str, Any]) -> dict[str, Any]:
        # A key path names pools and workloads, which are NFC-normalised: so is the path.
        out: dict[str, Any] = {}
        for key, item in value.items():
            path = unicodedata.normalize("NFC", key).strip()
            bad = next((c for c in path if unicodedata.category(c) in _HIDDEN), None)
            if bad is not None:
                raise problem(
                    f"a key holds the invisible character {character_name(bad)}; "
                    "write key paths plainly"
                )
            if path in out:
                raise problem(f"the key '{clip(path)}' is set twice")
            out[path] = item
        return out


class Growth(Model):
    """The planned load times each factor (closed populations times each factor, rounded):
    the factors given, or compound growth `rate` per `per` over `periods` (factors (1 + rate)^k,
    k = 1 .. periods)."""

    factors: list[Annotated[float, Field(gt=0, le=1000)]] | None = Field(
        None,
        min_length=1,
        max_length=MAX_ALTERNATIVES,
        description="load multipliers, e.g. [1.2, 1.5, 2] (or give rate and periods)",
    )
    rate: float | None = Field(
        None, gt=0.0, le=10.0, description="compound growth per period, e.g. 0.3 for 30%"
    )
    per: Literal["year", "quarter", "month"] = Field(
        "year", description="the period `rate` applies to (labels only)"
    )
    periods: int | None = Field(
        None, ge=1, le=MAX_ALTERNATIVES, description="number of periods to grow over"
    )

    @model_validator(mode="after")
    def _one_form(self) -> Self:
        compound = self.rate is not None or self.periods is not None
        if self.factors is not None and compound:
            raise ValueError("give either factors or rate and periods, not both")
        if self.factors is None:
            if self.rate is None or self.periods is None:
                raise ValueError(
                    "give factors (e.g. [1.2, 1.5, 2]) or both rate and periods "
                    "(e.g. {rate: 0.3, per: year, periods: 5})"
                )
            grown = [(1.0 + self.rate) ** k for k in range(1, self.periods + 1)]
            if grown[-1] > 1000:
                raise ValueError(
                    f"rate {self.rate:g} over {self.periods} periods grows the load "
                    f"{grown[-1]:,.0f}-fold; at most 1000"
                )
            # Frozen model: the derived factors are set once, here.
            object.__setattr__(self, "factors", grown)
        return self

    @property
    def multipliers(self) -> list[float]:
        """The factors, given or derived from the compound rate."""
        return list(self.factors or ())

    @property
    def labels(self) -> list[str]:
        """What each factor is called in reports: the period ("year 3") under compound
        growth, else the factor ("x 1.5")."""
        if self.rate is not None:
            return [f"{self.per} {k}" for k in range(1, len(self.multipliers) + 1)]
        return [f"\u00d7 {f:.3g}" for f in self.multipliers]


class TierSweep(_RankKind):
    """Add 0, 1, 2 ... ranks of one drive type to a pool and compare."""

    pool: Name = Field(description="the pool the ranks are added to")
    counts: list[Annotated[int, Field(ge=0, le=256)]] = Field(
        min_length=1,
        max_length=MAX_ALTERNATIVES,
        description="numbers of ranks to add, e.g. [0, 1, 2]",
    )


MAX_SIZING_CANDIDATES = 512
"""Configurations one sizing search may try (the product of every choice's options): each is
resolved and solved at the planned load and every growth period."""


class SizedRanks(_RankKind):
    """One rank group whose count the sizing search chooses."""

    pool: Name = Field(description="the pool the ranks belong to")
    counts: list[Annotated[int, Field(ge=0, le=256)]] = Field(
        min_length=1,
        max_length=64,
        description="numbers of ranks to try, e.g. [0, 1, 2, 4] (0: none of this kind)",
    )


class Prices(Model):
    """What each part costs, in any one currency (the planner's own price list)."""

    drives: dict[str, Annotated[float, Field(ge=0, le=1e9)]] = Field(
        default_factory=dict, description="price of one drive, by catalog drive name"
    )
    da_pair: float = Field(0.0, ge=0, le=1e9, description="price of one DA pair")
    host_port: float = Field(0.0, ge=0, le=1e9, description="price of one host port")
    cache_gb: float = Field(0.0, ge=0, le=1e9, description="price of one GB of cache")
    processor_ways: dict[str, Annotated[float, Field(ge=0, le=1e9)]] = Field(
        default_factory=dict,
        description="price of the processor option by its ways, e.g. {'2': 0, '4': 60000}",
    )
    model: dict[str, Annotated[float, Field(ge=0, le=1e9)]] = Field(
        default_factory=dict,
        description="price of the base system by catalog model, e.g. "
        "{ds8700-941: 0, ds8800-951: 50000} (what the other prices do not count)",
    )


SYSTEM_CHOICES = ("model", "da_pairs", "host_ports", "processor_ways", "cache_gb")
"""The system settings a sizing search may choose (`system.<key>`), in the order reported."""


class Sizing(Model):
    """`diskmodel size`: the configurations to try, and the prices to rank them by."""

    ranks: list[SizedRanks] = Field(
        default_factory=list, max_length=8, description="rank groups whose counts are searched"
    )
    model: list[Name] = Field(
        default_factory=list,
        max_length=8,
        description="storage system models to try, by catalog name (e.g. [ds8700-941, "
        "ds8800-951]): the same drives, adapters and cache in each, as that model packages "
        "and runs them",
    )
    da_pairs: list[Annotated[int, Field(ge=1, le=16)]] = Field(
        default_factory=list, max_length=16, description="DA pair counts to try"
    )
    host_ports: list[Annotated[int, Field(ge=1, le=256)]] = Field(
        default_factory=list, max_length=16, description="host port counts to try"
    )
    processor_ways: list[Literal[2, 4]] = Field(
        default_factory=list, max_length=2, description="processor options to try (2- or 4-way)"
    )
    cache_gb: list[Annotated[float, Field(gt=0, le=1e6)]] = Field(
        default_factory=list,
        max_length=16,
        description="cache sizes to try, GB (each must be offered on the processor option; "
        "the read hit ratio is projected to each, as for an alternative)",
    )
    prices: Prices | None = Field(
        None,
        description="prices per part; without them configurations are ranked by drive count, "
        "then drive power",
    )
    prune: bool = Field(
        True,
        description="skip the configurations that bounds from the queueing core prove can be "
        "neither on the Pareto front nor the answer (docs/model.md, Sizing); false: solve "
        "every one",
    )

    @field_validator("model")
    @classmethod
    def _known_models(cls, value: list[str], info: ValidationInfo) -> list[str]:
        systems = catalog_of(info).systems
        return [known("storage system", name, systems) for name in value]

    def system_options(self) -> dict[str, list[Any]]:
        """Each system setting offered (`SYSTEM_CHOICES`, in that order): its distinct options,
        in increasing order (models by name)."""
        return {
            key: sorted(set(getattr(self, key))) for key in SYSTEM_CHOICES if getattr(self, key)
        }

    @property
    def candidates(self) -> int:
        """Configurations the search tries: the product of every choice's options."""
        out = 1
        for group in self.ranks:
            out *= len(set(group.counts))
        for options in self.system_options().values():
            out *= len(options)
        return out

    @model_validator(mode="after")
    def _bounded(self) -> Self:
        if not (self.ranks or self.system_options()):
            raise problem(
                "size: give at least one choice (ranks, model, da_pairs, host_ports, "
                "processor_ways or cache_gb)"
            )
        if self.candidates > MAX_SIZING_CANDIDATES:
            raise problem(
                f"size: {self.candidates:,} configurations to try (the product of every "
                f"choice's options); at most {MAX_SIZING_CANDIDATES:,}: offer fewer counts"
            )
        return self


UTILIZATION_LIMIT = 0.7
"""Default planning ceiling on every component's utilisation: the level at which the report
has always warned (an M/M/1 station's wait is then 2.3 service times and rising steeply)."""
RESPONSE_TIME_TARGET_MS = 5.0
"""Default response-time target: a common service level for random OLTP I/O on HDD-based
enterprise storage (a 15K drive serves 150 to 180 random database I/Os per second at 5 to 7
ms, IBM's published planning figures)."""


class UtilizationLimits(Model):
    """Planning ceilings on utilisation per component kind (fractions)."""

    host_adapter: float = Field(
        UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for host adapter ports"
    )
    processor: float = Field(
        UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for processors"
    )
    device_adapter: float = Field(
        UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for device adapter pairs"
    )
    rank: float = Field(UTILIZATION_LIMIT, gt=0.0, le=1.0, description="ceiling for ranks (drives)")


class ServiceLevel(Model):
    """What the planner sizes to: a response-time target and utilisation ceilings.

    Results report the load at which each configuration still meets all of them beside its
    saturation rate."""

    response_time_ms: float = Field(
        RESPONSE_TIME_TARGET_MS, gt=0.0, le=1e5, description="mean response time target, ms"
    )
    read_response_time_ms: float | None = Field(
        None, gt=0.0, le=1e5, description="mean read response time target, ms"
    )
    utilization: UtilizationLimits = Field(
        UtilizationLimits(), description="utilisation ceilings per component kind"
    )


class Analyses(Model):
    """What to compute beside the baseline prediction."""

    curve: Curve = Field(Curve(), description="the response-time curve up to saturation")
    compare: list[Alternative] = Field(
        default_factory=list,
        max_length=MAX_ALTERNATIVES,
        description="alternatives of the scenario, each predicted beside the baseline",
    )
    growth: Growth | None = Field(None, description="the planned load grown by factors")
    tier_sweep: TierSweep | None = Field(
        None, description="add 0, 1, 2 ... ranks of one drive to a pool and compare"
    )
    size: Sizing | None = Field(
        None,
        description="diskmodel size: rank counts, DA pairs, host ports and cache sizes to try, "
        "and prices",
    )
    catalog_band: bool = Field(
        True,
        description="the baseline's maximum and response time over the ranges of the "
        "catalog's unpublished figures, with the figures that move them most (false, or "
        "diskmodel run --no-catalog-bands: skip it)",
    )

    @model_validator(mode="after")
    def _alternatives_distinct(self) -> Self:
        seen: set[str] = set()
        for alt in self.compare:
            if alt.name in seen:
                raise problem(
                    f"compare: two alternatives are named '{clip(alt.name)}'; "
                    "names must be unique, or the reports cannot tell them apart"
                )
            seen.add(alt.name)
        return self


RANGED_INPUTS = {
    "iops": True,
    "read_hit_ratio": False,
    "destage_ratio": True,
    "read_size_kib": True,
    "write_size_kib": True,
}
"""Workload inputs that may be ranges, and whether their high end makes the system slower."""
SAMPLED_INPUTS = ("read_fraction", "read_sequential_fraction", "write_sequential_fraction")
"""Workload inputs that may be ranges but move the answer either way (more reads are less
work per I/O where reads hit and writes destage, more where they miss), so the band samples
them (analyses.band)."""
Corner = Literal["central", "pessimistic", "optimistic"]


def _workload_ranges(w: Workload, keys: Iterable[str]) -> list[tuple[str, float, float]]:
    """(dotted key with the workload's name, low, high) of each of `keys` it gives as a range."""
    out = []
    for key in keys:
        value = getattr(w, key)
        if isinstance(value, tuple):
            out.append((f"workloads.{w.name}.{key}", value[0], value[1]))
    return out


class Scenario(Model):
    """A whole scenario file, validated against the hardware catalog."""

    schema_version: Literal[1] = Field(description="the version of this file format: 1")
    name: Name = Field(description="the scenario's name in reports")
    description: Annotated[str, AfterValidator(printable_text)] = Field(
        "", max_length=10_000, description="free text shown at the top of the report"
    )
    catalog: list[HeatMapFile] = Field(
        [],
        max_length=16,
        description="catalog files of your own (systems, drives, RAID formats), read after the "
        "shipped catalog and any --catalog files; relative to this file's folder and inside it",
    )
    system: SystemConfig = Field(description="the storage system and its configuration")
    pools: list[Pool] = Field(min_length=1, max_length=64, description="extent pools of ranks")
    workloads: list[Workload] = Field(
        min_length=1, max_length=64, description="the applications' I/O, each in one pool"
    )
    logs: list[Log] = Field(
        [], max_length=16, description="database logs written at commit (striped log writes)"
    )
    application: Application | None = Field(
        None,
        description="users, think time and host CPU above the storage; drives the workloads "
        "that give ios_per_transaction",
    )
    service_level: ServiceLevel = Field(
        ServiceLevel(), description="the response-time target and utilisation ceilings"
    )
    analyses: Analyses = Field(Analyses(), description="what to compute beside the baseline")
    calibration: CalibrationRecord | None = Field(
        None,
        description="what diskmodel calibrate fitted, to which measured intervals, its quality "
        "gate and every measured figure against the model: written by calibrate, shown by the "
        "report; provenance, not an input",
    )

    @model_validator(mode="after")
    def _fits_the_hardware(self, info: ValidationInfo) -> Self:
        catalog = catalog_of(info)
        problems = list(hardware_problems(self, catalog))
        if problems:
            raise problem("\n".join(problems))
        return self

    @property
    def ranges(self) -> list[tuple[str, float, float]]:
        """The inputs given as ranges: (dotted key with names, low, high)."""
        out = []
        front = self.system.front_end_latency_us
        if isinstance(front, tuple):
            out.append(("system.front_end_latency_us", front[0], front[1]))
        for w in self.workloads:
            out += _workload_ranges(w, RANGED_INPUTS)
            if w.skew is not None and isinstance(w.skew.level, tuple):
                out.append((f"workloads.{w.name}.skew.level", *w.skew.level))
            if w.pin is not None and isinstance(w.pin.io_share, tuple):
                out.append((f"workloads.{w.name}.pin.io_share", *w.pin.io_share))
            out += _workload_ranges(w, SAMPLED_INPUTS)
        return out

    @property
    def sampled_ranges(self) -> list[tuple[str, float, float]]:
        """The ranges of inputs that move the answer either way (`SAMPLED_INPUTS`)."""
        return [r for w in self.workloads for r in _workload_ranges(w, SAMPLED_INPUTS)]

    def corner(self, which: Corner, sample: Mapping[str, float] | None = None) -> Scenario:
        """The scenario with every range at one point: its middle (`central`), the end that
        makes the system slower (`pessimistic`: planned rate high, hit ratio low, destage
        ratio high, transfers long, skew low, front-end latency high, a pinned share of the
        I/O low on SSD and high on a disk tier) or faster (`optimistic`). The inputs that move
        the answer either way (`SAMPLED_INPUTS`) are at their middle, or at the value `sample`
        gives for their key in `ranges`. Values that are not ranges stay. Not validated again:
        every point of a validated range is a valid value."""

        def pick(value: Any, slower_high: bool) -> Any:
            if not isinstance(value, tuple):
                return value
            low, high = value
            if which == "central":
                return 0.5 * (low + high)
            return high if (which == "pessimistic") == slower_high else low

        workloads = []
        for w in self.workloads:
            # Only the ranges are replaced: a key in the update counts as given, and an input
            # left out must stay listed among the defaults used.
            update: dict[str, Any] = {
                key: pick(getattr(w, key), slower_high)
                for key, slower_high in RANGED_INPUTS.items()
                if isinstance(getattr(w, key), tuple)
            }
            for key, low, high in _workload_ranges(w, SAMPLED_INPUTS):
                update[key.rsplit(".", 1)[1]] = (sample or {}).get(key, 0.5 * (low + high))
            if w.skew is not None and isinstance(w.skew.level, tuple):
                update["skew"] = w.skew.model_copy(update={"level": pick(w.skew.level, False)})
            if w.pin is not None and isinstance(w.pin.io_share, tuple):
                # Less of the I/O on a pinned SSD tier is slower; more on a pinned HDD tier.
                share = pick(w.pin.io_share, w.pin.tier != "ssd")
                update["pin"] = w.pin.model_copy(update={"io_share": share})
            workloads.append(w.model_copy(update=update))
        front = pick(self.system.front_end_latency_us, True)  # a longer fixed time is slower
        system = self.system.model_copy(update={"front_end_latency_us": front})
        return self.model_copy(update={"workloads": workloads, "system": system})

    @property
    def model_workloads(self) -> tuple[Workload, ...]:
        """The workloads the storage model solves: the scenario's, then each log's writes."""
        return (*self.workloads, *(log.as_workload() for log in self.logs))

    def located_workloads(self) -> list[tuple[str, Workload]]:
        """`model_workloads` with the key each comes from (`workloads[0]`, `logs[1]`)."""
        return [(f"workloads[{i}]", w) for i, w in enumerate(self.workloads)] + [
            (f"logs[{i}]", log.as_workload()) for i, log in enumerate(self.logs)
        ]

    def alternatives(self, catalog: Catalog | None = None) -> list[tuple[str, Scenario]]:
        """The baseline and each `compare` alternative, applied and re-validated."""
        return [(self.name, self)] + [
            (alt.name, self.alternative(alt, catalog)) for alt in self.analyses.compare
        ]

    def alternative(self, alt: Alternative, catalog: Catalog | None = None) -> Scenario:
        """One `compare` alternative: this scenario with its `set` applied, re-validated."""
        base = self.model_dump(mode="python")
        data = apply_settings(base, alt.set)
        data["name"] = alt.name
        data["analyses"] = {"curve": base["analyses"]["curve"]}
        return Scenario.model_validate(data, context={"catalog": catalog or load_catalog()})
