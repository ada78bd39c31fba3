"""The scenario file as a whole: its top-level keys, one section a module, unknown keys refused.

A scenario names a storage system from the catalog, its configuration, extent pools of RAID
ranks, the workloads and the analyses wanted. Units are those in the key names (`_gb` decimal
gigabytes as drive vendors count, `_kib` KiB transfers, `_ms` milliseconds); the model converts
them once. Each field's `description` is what the generated reference (docs/scenario.md) and
the JSON Schema (editor completion) show.

The sections: `storage` (system, pools), `workloads`, `application` (logs, the application),
`service_level`, `analyses`, `copy_services` (the secondary system, its links, Metro Mirror,
Global Mirror, FlashCopy). Here: the `Scenario` that holds them, its inputs given as ranges
and their corners, and its alternatives. Checks that span sections and the hardware (a drive
the system does not offer, more ranks than the DA pairs take, data that does not fit a pinned
tier) are in `diskmodel.scenario.hardware`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, Self

from pydantic import AfterValidator, Field, ValidationInfo, model_validator

from diskmodel.cached import kept_by_identity
from diskmodel.catalog import Catalog, StorageSystem, load_catalog
from diskmodel.scenario.analyses import Alternative, Analyses
from diskmodel.scenario.application import Application, Log
from diskmodel.scenario.calibration import CalibrationRecord
from diskmodel.scenario.copy_services import CopyServices, copy_services_problems
from diskmodel.scenario.hardware import (
    analyses_problems,
    hardware_problems,
    pinned_problems,
    pool_name_problems,
    rank_count_problems,
    rank_group_problems,
    sizing_problems,
    system_problems,
    workload_problems,
)
from diskmodel.scenario.overrides import apply_settings
from diskmodel.scenario.service_level import ServiceLevel
from diskmodel.scenario.storage import Pool, SystemConfig
from diskmodel.scenario.values import Model, Name, catalog_of, printable_text, problem
from diskmodel.scenario.workloads import HeatMapFile, Workload
from diskmodel.scenario.zos_rules import zos_problems

__all__ = [
    "RANGED_INPUTS",
    "SAMPLED_INPUTS",
    "SCHEMA_VERSION",
    "Corner",
    "Scenario",
    "SectionChecks",
    "refusal",
    "scenario_problems",
]

SCHEMA_VERSION = 1

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


def scenario_problems(scenario: Scenario, catalog: Catalog) -> list[str]:
    """Every check that spans the sections of `scenario` and the hardware it breaks, one
    message each (`scenario.hardware`, `scenario.copy_services`): what its validation refuses
    it for, once each section is valid. (Not a method of `Scenario`: a name more in the class
    made reading its fields a third slower here, through the interpreter's attribute cache.)"""
    return [*hardware_problems(scenario, catalog), *copy_services_problems(scenario, catalog)]


def refusal(problems: Sequence[str]) -> str:
    """The one message a scenario's validation refuses it with for `problems`
    (`scenario_problems`), one a line."""
    return "\n".join(problems)


class SectionChecks:
    """`scenario_problems` of scenarios that share every section but their system and their
    pools (a sizing search's configurations, assembled from one scenario's sections,
    `analyses.size_offers.KeptSections`), each check run once for the sections it reads: the
    system's options and its z/OS attachment once per system section; the pool names, the
    workloads that fit their pools and pinned tiers, the analyses and the copy services once
    per list of pool sections; a pool's rank groups once per pool section, system model and,
    where a group names its DA pair, DA pair count; the ranks each DA pair serves and the
    sizing's own checks for each scenario. The same messages in the same order: the checks
    are `hardware_problems`'s and `copy_services_problems`'s own. Sections are kept by
    identity (`cached.kept_by_identity`: held, so that no identity is reused while kept)."""

    KEPT = 4096
    """Results kept at most per kind of section (then forgotten, and checked again)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._systems: dict[tuple[object, ...], tuple[tuple[object, ...], _BySystem]] = {}
        self._pools: dict[tuple[object, ...], tuple[tuple[object, ...], _ByPools]] = {}
        self._groups: dict[tuple[object, ...], tuple[tuple[object, ...], list[str]]] = {}

    def problems(self, scenario: Scenario) -> list[str]:
        """`scenario_problems(scenario, self.catalog)`, where `scenario`'s sections but its
        system and pools are those of every scenario checked here before."""
        catalog, cfg, pools = self.catalog, scenario.system, scenario.pools
        own, zos = kept_by_identity(
            self._systems, (cfg,), (), self.KEPT, lambda: _by_system(scenario, catalog)
        )
        names, fits, analyses, copies = kept_by_identity(
            self._pools, tuple(pools), (), self.KEPT, lambda: _by_pools(scenario, catalog)
        )
        system = catalog.systems[cfg.model]
        out = [*own, *names]
        for p, pool in enumerate(pools):
            out += self._rank_groups(p, pool, cfg, system)
        out += rank_count_problems(scenario, system)
        out += fits
        out += zos
        out += analyses
        out += sizing_problems(scenario, catalog)
        out += copies
        return out

    def _rank_groups(
        self, p: int, pool: Pool, cfg: SystemConfig, system: StorageSystem
    ) -> list[str]:
        """`hardware.rank_group_problems` of `pools[p]` (the DA pair count read only where a
        group names its DA pair)."""
        named = any(g.da_pair is not None for g in pool.ranks)
        return kept_by_identity(
            self._groups,
            (pool,),
            (p, cfg.model, cfg.da_pairs if named else None),
            self.KEPT,
            lambda: list(rank_group_problems(p, pool, system, cfg.da_pairs, self.catalog)),
        )


_BySystem = tuple[list[str], list[str]]
_ByPools = tuple[list[str], list[str], list[str], list[str]]


def _by_system(scenario: Scenario, catalog: Catalog) -> _BySystem:
    """The checks `SectionChecks` runs once per system section: its options, z/OS."""
    return list(system_problems(scenario.system, catalog)), list(zos_problems(scenario, catalog))


def _by_pools(scenario: Scenario, catalog: Catalog) -> _ByPools:
    """The checks `SectionChecks` runs once per list of pool sections: the names, the
    workloads that fit them and their pinned tiers, the analyses, the copy services."""
    return (
        list(pool_name_problems(scenario.pools)),
        [*workload_problems(scenario, catalog), *pinned_problems(scenario, catalog)],
        list(analyses_problems(scenario)),
        list(copy_services_problems(scenario, catalog)),
    )


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
    copy_services: CopyServices | None = Field(
        None,
        description="Metro Mirror, Global Mirror and FlashCopy: the secondary system, the "
        "links between the sites and the workloads each covers",
    )
    calibration: CalibrationRecord | None = Field(
        None,
        description="what diskmodel calibrate fitted, to which measured intervals, its quality "
        "gate and every measured figure against the model: written by calibrate, shown by the "
        "report; provenance, not an input",
    )

    @model_validator(mode="after")
    def _fits_the_hardware(self, info: ValidationInfo) -> Self:
        problems = scenario_problems(self, catalog_of(info))
        if problems:
            raise problem(refusal(problems))
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
        """The baseline and each `compare` alternative, applied and re-validated (once for
        this scenario and `catalog`: `_alternatives`)."""
        catalog = catalog or load_catalog()

        def validated() -> _Variants:
            base = self.model_dump(mode="python")
            return tuple((alt.name, _variant(base, alt, catalog)) for alt in self.analyses.compare)

        held = (self, catalog)
        variants = kept_by_identity(_alternatives, held, (), _ALTERNATIVES_KEPT, validated)
        return [(self.name, self), *variants]

    def alternative(self, alt: Alternative, catalog: Catalog | None = None) -> Scenario:
        """One `compare` alternative: this scenario with its `set` applied, re-validated."""
        return _variant(self.model_dump(mode="python"), alt, catalog or load_catalog())


def _variant(base: dict[str, Any], alt: Alternative, catalog: Catalog) -> Scenario:
    """The alternative `alt` of the scenario whose data is `base`, validated with `catalog`."""
    data = apply_settings(base, alt.set)
    data["name"] = alt.name
    data["analyses"] = {"curve": base["analyses"]["curve"]}
    return Scenario.model_validate(data, context={"catalog": catalog})


_ALTERNATIVES_KEPT = 64
_Variants = tuple[tuple[str, Scenario], ...]
_alternatives: dict[tuple[object, ...], tuple[tuple[object, ...], _Variants]] = {}
"""Each scenario's alternatives validated (`Scenario.alternatives`), at most 64, by the
identity of the scenario and of the catalog (both held, so that neither identity is reused
while the entry lives; both are frozen, so what was validated cannot change). Loading the
scenario, the work bound, the heat maps, the resolution and the prediction each ask for them:
one run validated every alternative five times."""
