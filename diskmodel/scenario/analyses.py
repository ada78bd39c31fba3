"""What a scenario asks beside the baseline prediction (the `analyses` section): the curve,
alternatives to compare, growth, a tier sweep and the sizing search with its prices.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, Self

from pydantic import Field, ValidationInfo, field_validator, model_validator

from diskmodel.scenario.limits import MAX_ALTERNATIVES
from diskmodel.scenario.storage import RankKind
from diskmodel.scenario.values import Model, Name, catalog_of, character_name, clip, known, problem

_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


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


class TierSweep(RankKind):
    """Add 0, 1, 2 ... ranks of one drive type to a pool and compare."""

    pool: Name = Field(description="the pool the ranks are added to")
    counts: list[Annotated[int, Field(ge=0, le=256)]] = Field(
        min_length=1,
        max_length=MAX_ALTERNATIVES,
        description="numbers of ranks to add, e.g. [0, 1, 2]",
    )


MAX_SIZING_CANDIDATES = 1_000_000
"""Configurations one sizing search may offer (the product of every choice's options). Up to
512 each is validated and tried in turn; beyond, bounds over the whole space (numpy arrays of
about 100 bytes a configuration) settle most and the rest are solved in full
(`analyses.size_batch`). How many must be solved depends on how much the bounds prove, not on
the space: a space where few saturate or break the service level costs 3-10 ms a survivor."""


class SizedRanks(RankKind):
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
                f"choice's options); at most {MAX_SIZING_CANDIDATES:,}: offer fewer counts, "
                "DA pair or port options, cache sizes or models"
            )
        return self


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
