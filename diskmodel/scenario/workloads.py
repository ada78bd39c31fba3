"""A scenario's workloads: one application's I/O each, its rate or concurrency, mix, cache
behaviour, footprint, skew and placement preferences (the `workloads` section).

What spans workloads and the hardware (data that does not fit a pinned tier) is in
`diskmodel.scenario.hardware`.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from diskmodel.scenario.limits import MAX_PATH_CHARS, MAX_POPULATION
from diskmodel.scenario.values import (
    Fraction,
    Model,
    Name,
    catalog_of,
    file_reference,
    known,
    number_slip,
    ordered_range,
    problem,
    unknown,
)
from diskmodel.tiering.presets import PRESET_LEVELS
from diskmodel.vocabulary import TierName

MAX_TRANSFER_KIB = 16384
"""One host I/O's transfer, at most (a workload's read_size_kib and write_size_kib)."""
TransferKib = Annotated[float, Field(gt=0, le=MAX_TRANSFER_KIB)]
PlannedRate = Annotated[float, Field(gt=0, le=1e9)]
"""A workload's planned host I/O rate, I/O/s."""

HeatMapFile = Annotated[str, Field(max_length=MAX_PATH_CHARS), AfterValidator(file_reference)]

SKEW_PRESETS = PRESET_LEVELS
"""The commercial tool's named Easy Tier skew levels (its published presets: very low 2, low
3.5, intermediate 7, high 14, very high 24)."""


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
        from diskmodel.tiering.curves import PiecewiseSkew, derived_mb_curve
        from diskmodel.tiering.skew import SkewCurve, skew_from_level

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


class ZosVolumes(Model):
    """A z/OS workload's devices: CKD volumes of one model spread evenly over its LCUs."""

    lcus: list[Name] = Field(
        min_length=1, max_length=255, description="the system.lcus its volumes are in"
    )
    volumes: int = Field(
        gt=0, le=65280, description="base volumes (devices) the workload's I/O goes to"
    )
    volume_model: Name = Field(
        "3390-9", description="catalog CKD volume model, e.g. 3390-9, 3390-54, 3390-a-eav"
    )
    record_bytes: int = Field(
        4096,
        ge=1,
        le=56664,
        description="the records' (blocks') size on the tracks, bytes: how much of a 3390 track "
        "the data fills (4,096: 12 records, 49,152 of its 56,664 bytes); default a Db2 or VSAM "
        "4 KiB page",
    )

    @field_validator("volume_model")
    @classmethod
    def _known_model(cls, value: str, info: ValidationInfo) -> str:
        return known("volume model", value, catalog_of(info).volume_models)

    @model_validator(mode="after")
    def _volumes_per_lcu(self) -> Self:
        if len(set(self.lcus)) != len(self.lcus):
            raise problem("zos.lcus: an LCU is named twice")
        if self.volumes < len(self.lcus):
            raise problem(
                f"zos.volumes: {self.volumes} volumes over {len(self.lcus)} LCUs; give at "
                "least one volume per LCU"
            )
        return self


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

    zos: ZosVolumes | None = Field(
        None,
        description="a z/OS workload: its CKD volumes and LCUs (reached over system.ficon); "
        "its response time is then IOSQ + PEND + DISC + CONN",
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
        if self.zos is not None and self.is_closed:
            raise problem(
                "zos: a z/OS workload is given by its I/O rate ('iops', as RMF reports it); "
                "its queue for the device (IOSQ) is solved for that rate"
            )
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
