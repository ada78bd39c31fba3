"""The storage side of a scenario: the system and how it is configured, its rank groups and
extent pools with their Easy Tier setting (the `system` and `pools` sections).

Each model's checks against the catalog name the key; what spans sections (more ranks than the
DA pairs take) is in `diskmodel.scenario.hardware`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import Field, ValidationInfo, field_validator, model_validator

from diskmodel.catalog import StorageSystem
from diskmodel.scenario.limits import MAX_RANKS
from diskmodel.scenario.values import Model, Name, catalog_of, known, ordered_range, problem

LatencyUs = Annotated[float, Field(ge=0, le=10000)]

LCU_ADDRESSES = 256
"""Device addresses of one DS8000 logical control unit, bases and aliases together (IBM
DS8800 Architecture and Implementation SG24-8886, CKD logical control units: up to 256
logical volumes per LCU)."""
CHANNEL_PATHS = 8
"""Channel paths z/OS drives one device over at most (FICON Planning and Implementation Guide
SG24-6497: up to eight channel paths per logical control unit)."""


class Ficon(Model):
    """The z/OS attachment: the host's FICON channels to the system and its FICON ports."""

    channel: Name = Field(
        "ficon-express-8s", description="catalog FICON channel generation (diskmodel catalog)"
    )
    channels: int = Field(
        4,
        gt=0,
        le=CHANNEL_PATHS,
        description="channel paths (CHPIDs) the LCUs are reached over, at most 8; z/OS spreads "
        "each device's I/O over them",
    )
    host_ports: int | None = Field(
        None,
        gt=0,
        description="of system.host_ports, those configured FICON (the first ones); the "
        "open-systems workloads use the others; default: all of them",
    )
    zhpf: bool = Field(
        True,
        description="High Performance FICON (transport mode): less channel work per I/O than "
        "command mode",
    )
    pend_light_us: float | None = Field(
        None,
        ge=0,
        le=10000,
        description="the light-load fixed time RMF counts as PEND (start and initial command "
        "response), us, measured or calibrated; default: the channel's catalog pend_light_us",
    )

    @field_validator("channel")
    @classmethod
    def _known_channel(cls, value: str, info: ValidationInfo) -> str:
        return known("FICON channel", value, catalog_of(info).ficon_channels)


class Lcu(Model):
    """A logical control unit: up to 256 device addresses, its base volumes and aliases."""

    name: Name = Field(description="the LCU's name, which z/OS workloads refer to")
    pav: Literal["none", "static", "hyperpav"] = Field(
        "hyperpav",
        description="none: one I/O per volume at a time; static: the aliases divided evenly "
        "among the LCU's volumes, each volume's its own; hyperpav: the aliases a pool any "
        "volume of the LCU borrows from per I/O",
    )
    aliases: int = Field(
        0, ge=0, lt=LCU_ADDRESSES, description="alias addresses defined in the LCU"
    )


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

    ficon: Ficon | None = Field(
        None, description="z/OS attachment: FICON channels and ports (z/OS workloads need it)"
    )
    lcus: list[Lcu] = Field(
        [], max_length=255, description="logical control units of the z/OS workloads' volumes"
    )

    _latency_range = field_validator("front_end_latency_us")(ordered_range)

    @model_validator(mode="after")
    def _zos_attachment(self) -> Self:
        if self.ficon is not None and (self.ficon.host_ports or 0) > self.host_ports:
            raise problem(
                f"ficon.host_ports: {self.ficon.host_ports} FICON ports of "
                f"{self.host_ports} host_ports; at most host_ports"
            )
        names = [lcu.name for lcu in self.lcus]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise problem(f"lcus: the name {twice[0]!r} is given twice; LCU names are unique")
        if self.lcus and self.ficon is None:
            raise problem("lcus: z/OS volumes are reached over FICON; give system.ficon too")
        return self

    @field_validator("model")
    @classmethod
    def _known_model(cls, value: str, info: ValidationInfo) -> str:
        return known("storage system", value, catalog_of(info).systems)


class RankKind(Model):
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


class RankGroup(RankKind):
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
