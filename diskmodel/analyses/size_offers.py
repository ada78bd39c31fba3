"""The configurations a sizing offers (`analyses.size`): what is chosen and the options of each
(the offered rank counts per pool, drive and RAID format, and the system options), the
scenario's own choice, each combination's scenario data, and its cost (installed drives, their
power, and its price by the scenario's prices), known before it is solved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from diskmodel.catalog import Catalog
from diskmodel.scenario import Scenario
from diskmodel.scenario.analyses import SYSTEM_CHOICES, Analyses, Prices
from diskmodel.scenario.schema import SectionChecks
from diskmodel.scenario.storage import Pool, RankGroup, SystemConfig


def rank_label(pool: str, drive: str, raid: str) -> str:
    return f"{pool}: {drive} {raid}"


def offered_choices(scenario: Scenario) -> tuple[list[str], list[list[float | str]]]:
    """What is chosen (names) and the options of each."""
    size = scenario.analyses.size
    assert size is not None
    names: list[str] = []
    options: list[list[float | str]] = []
    for group in size.ranks:
        names.append(rank_label(group.pool, group.drive, group.raid))
        options.append(sorted(set(group.counts)))
    for key, values in size.system_options().items():
        names.append(key)
        options.append(values)
    return names, options


def current_choices(scenario: Scenario, names: Sequence[str]) -> dict[str, float | str]:
    """The scenario's own value of every choice (0 for a rank kind it does not have)."""
    ranks: dict[str, int] = {}
    for pool in scenario.pools:
        for g in pool.ranks:
            key = rank_label(pool.name, g.drive, g.raid)
            ranks[key] = ranks.get(key, 0) + g.count
    out: dict[str, float | str] = dict(ranks)
    for key in SYSTEM_CHOICES:
        out[key] = getattr(scenario.system, key)
    return {name: out.get(name, 0) for name in names}


CONFIGURATION_ANALYSES: dict[str, Any] = {"curve": {"points": 2}}
"""The analyses section of a configuration's data: none but a short curve (a configuration is
solved at its planned load and growth factors, never drawn)."""


def variant_data(
    base: dict[str, Any],
    scenario: Scenario,
    chosen: dict[str, float | str],
    kept: KeptSections | None = None,
) -> dict[str, Any]:
    """The scenario's data with the chosen counts in place. Only the sections the choice
    changes are new (the system, each sized pool, the analyses); the rest is `base`'s own,
    shared, as validation only reads it (a deep copy of the whole scenario was a tenth of a
    large search's time). `base`: the scenario's data, or that from `validated_base`, whose
    analyses are `CONFIGURATION_ANALYSES` validated already. `kept`: the search's system
    sections and sized pools validated so far (`KeptSections.sections`), put in place of
    their data (`base` from `validated_base` only)."""
    data = dict(base)
    if kept is not None:
        data["pools"], data["system"] = kept.sections(base, scenario, chosen)
    else:
        ranks, system = chosen_sections(base, scenario, chosen)
        data["pools"] = pools = list(base["pools"])
        for p, groups in ranks.items():
            pools[p] = {**pools[p], "ranks": groups}
        data["system"] = {**base["system"], **system}
    analyses = base["analyses"]
    data["analyses"] = analyses if isinstance(analyses, Analyses) else CONFIGURATION_ANALYSES
    return data


def put_together(
    base: dict[str, Any],
    scenario: Scenario,
    chosen: dict[str, float | str],
    kept: KeptSections | None,
) -> tuple[Scenario | None, dict[str, Any]]:
    """The configuration `chosen` of the search of `scenario`, for `size_try.checked`: its
    scenario put together from `kept`'s sections and its data, where `kept` assembles
    (`KeptSections.made`); else None and its data (`variant_data` from `base`, with `kept`'s
    sections where given)."""
    if kept is not None and kept.assembles:
        return kept.made(scenario, chosen)
    return None, variant_data(base, scenario, chosen, kept)


class KeptSections:
    """The sections a sizing search's choices make (the system with its chosen options, each
    sized pool with its chosen rank groups), each validated once per search and kept by its
    choice (a sized pool by its kinds' counts, the system by its options; a rank group by its
    data): configurations share them (the large space's 106,496 have 256 systems and 416 rank
    sets). Put in place of its data, a section validated here makes the
    scenario's validation give what it gives with the data, for the reasons `validated_base`
    gives (a model is taken as it is; a section's validation reads only its own data and the
    catalog). A section that does not validate on its own is kept as data: the scenario's
    validation then refuses it with the message it always gave. The rest of the section is
    the search's base data, the same for every configuration, so the choice is the key."""

    KEPT = 4096
    """Sections kept at most (then forgotten, and validated again as asked)."""

    def __init__(
        self,
        catalog: Catalog,
        shared: dict[str, Any] | None = None,
        whole: Scenario | None = None,
    ) -> None:
        self.catalog = catalog
        self._kept: dict[tuple[object, ...], Any] = {}
        # The checks across the sections of the scenarios `assembled` and `made` make: they
        # share all but their system and pools.
        self.checks = SectionChecks(catalog)
        self._shared = shared
        self._whole = whole
        self._axes: tuple[Scenario, list[_SizedPool]] | None = None  # `sections`
        # The sections of `whole` that are lists, besides the pools (`assembled`, `made`).
        self._lists = (
            []
            if shared is None or whole is None
            else [
                key
                for key in shared
                if key not in ("pools", "system") and isinstance(getattr(whole, key, None), list)
            ]
        )

    def assembled(self, data: dict[str, Any]) -> Scenario | None:
        """The scenario `data` validates to as far as its sections go, before the checks that
        span them (`schema.scenario_problems`), made of models validated already, not validated
        again: `whole` (`shared`'s data validated, `base_scenario`) with its system and pools
        (sections kept here, or `shared`'s) in place. `data`: a configuration's, made by
        `variant_data` from `shared` and this store. The same scenario, field for field and
        with the same fields given (all of them, both ways), as its validation makes: that
        takes a model where its section's data would go as it is, and validates the rest
        from `shared`'s very data, as `whole`'s did. None where a section is data (it
        does not validate on its own: the scenario's validation says why) or without
        `shared` and `whole`."""
        shared, whole = self._shared, self._whole
        if shared is None or whole is None or len(data) != len(shared):
            return None
        update: dict[str, Any] = {}
        for key, value in data.items():
            if key == "pools":
                if not all(isinstance(pool, Pool) for pool in value):
                    return None
                update[key] = list(value)
            elif key == "system":
                if not isinstance(value, SystemConfig):
                    return None
                update[key] = value
            elif key not in shared or value is not shared[key]:
                return None
        # Lists of its own, as validation makes them for each configuration.
        update.update((key, list(getattr(whole, key))) for key in self._lists)
        return whole.model_copy(update=update)

    @property
    def assembles(self) -> bool:
        """Whether the store puts configurations' scenarios together (`assembled`, `made`):
        made with `shared` and `whole`."""
        return self._shared is not None and self._whole is not None

    def made(
        self, scenario: Scenario, chosen: dict[str, float | str]
    ) -> tuple[Scenario | None, dict[str, Any]]:
        """The configuration `chosen` of the search of `scenario`: its scenario as `assembled`
        makes it from its data, put together from its sections here (`sections`) with no
        data to look through (None where a section is data), and its data (`variant_data`
        from `shared`, for its validation where the checks across its sections cannot run).
        Only where the store `assembles`."""
        shared, whole = self._shared, self._whole
        assert shared is not None
        assert whole is not None
        pools, system = self.sections(shared, scenario, chosen)
        data = {**shared, "pools": pools, "system": system}
        if not isinstance(system, SystemConfig) or not all(isinstance(p, Pool) for p in pools):
            return None, data
        update: dict[str, Any] = {key: list(getattr(whole, key)) for key in self._lists}
        update["pools"], update["system"] = list(pools), system
        return whole.model_copy(update=update), data

    def sections(
        self, base: dict[str, Any], scenario: Scenario, chosen: dict[str, float | str]
    ) -> tuple[list[Any], Any]:
        """The pools (`base`'s, each sized one with its chosen rank groups) and the system
        with its chosen options of the configuration `chosen` of the search of `scenario`,
        each validated (or left as data where it does not validate on its own) once per
        search, kept by its choice: a sized pool by its kinds' counts, the system by its
        options chosen. (`base`: the search's, the same at every call.)"""
        axes = self._axes
        if axes is None or axes[0] is not scenario:
            axes = self._axes = (scenario, _sized_pools(scenario))
        pools = list(base["pools"])
        for p, labels, kinds in axes[1]:
            counts = [chosen[label] for label in labels]
            key = ("pool", p, *((type(c).__name__, c) for c in counts))
            found = self._kept.get(key)
            if found is None:
                groups = _chosen_ranks(pools[p]["ranks"], kinds, counts)
                found = self._pool(key, {**pools[p], "ranks": groups})
            pools[p] = found
        options = [(k, type(chosen[k]).__name__, chosen[k]) for k in SYSTEM_CHOICES if k in chosen]
        key = ("system", *options)
        system = self._kept.get(key)
        if system is None:
            data = {**base["system"], **{k: v for k, _, v in options}}
            system = self.section(key, SystemConfig, data)
        return pools, system

    def _pool(self, key: tuple[object, ...], data: dict[str, Any]) -> Any:
        """A sized pool's section `data` (`key`: its choice) as a `Pool` validated, or `data`
        where it does not validate on its own (`section`). Its rank groups are put in as
        models, each validated once per search (`section`): a pool validates a model where a
        group's data would go as it is (`validated_base`), in a third of the time, and the
        search's pools share most of their groups. A group that does not validate on its
        own stays data, for the pool's validation to refuse."""
        ranks = [
            self.section(
                ("group", *((k, type(v).__name__, v) for k, v in sorted(g.items()))), RankGroup, g
            )
            for g in data["ranks"]
        ]
        return self.section(key, Pool, {**data, "ranks": ranks})

    def section(self, key: tuple[object, ...], model: type[BaseModel], data: Any) -> Any:
        """`data` (a section of the search's configurations, `key` what the choice put in it)
        as `model` validated, or `data` where it does not validate on its own."""
        found = self._kept.get(key)
        if found is None:
            try:
                found = model.model_validate(data, context={"catalog": self.catalog})
            except ValidationError:
                found = data
            if len(self._kept) >= self.KEPT:
                self._kept.clear()
            self._kept[key] = found
        return found


def base_scenario(base: dict[str, Any], catalog: Catalog) -> Scenario | None:
    """`base` (the scenario's data) with the analyses as `CONFIGURATION_ANALYSES`, validated:
    what `validated_base` takes its sections from; None where it does not validate (the
    scenario at its central inputs refused, e.g. its own ranks on another system)."""
    try:
        return Scenario.model_validate(
            {**base, "analyses": CONFIGURATION_ANALYSES}, context={"catalog": catalog}
        )
    except ValidationError:
        return None


def validated_base(
    base: dict[str, Any], scenario: Scenario, catalog: Catalog, whole: Scenario | None = None
) -> dict[str, Any]:
    """`base` (the scenario's data) with every section no choice changes in place as the model
    it validates to: all but the system and the sized pools' rank groups (a sized pool's Easy
    Tier settings too), and the analyses as `CONFIGURATION_ANALYSES`. Each configuration's
    data made from it (`variant_data`) then validates to the same scenario as its data made
    from `base`, and is refused with the same messages, at about half the work, since:

    - validation takes a model where its section's data would go as it is (pydantic does not
      validate an instance again), and a section's validation reads only its own data and
      the catalog (the checks that span sections run on the whole scenario, after: here they
      see the same values either way);
    - these sections are validated here from the very data every configuration shares, with
      the same catalog, so the models are those each configuration's validation would make,
      and none of them can hold a problem (then its validation here would have failed).

    `base` itself when its data with a configuration's analyses does not validate (the
    scenario at its central inputs refused, e.g. its own ranks on another system): nothing is
    known valid then, and every configuration is validated whole, as before. `whole`: that
    validated already (`base_scenario`)."""
    size = scenario.analyses.size
    assert size is not None
    data = {**base, "analyses": CONFIGURATION_ANALYSES}
    if whole is None:
        whole = base_scenario(base, catalog)
    if whole is None:
        return base
    sized = {g.pool for g in size.ranks}
    out = {
        key: getattr(whole, key)
        if key not in ("system", "pools") and _models(whole, key)
        else value
        for key, value in data.items()
    }
    out["pools"] = [
        {**pool, "easy_tier": whole.pools[p].easy_tier} if pool["name"] in sized else whole.pools[p]
        for p, pool in enumerate(base["pools"])
    ]
    return out


def chosen_sections(
    base: dict[str, Any], scenario: Scenario, chosen: dict[str, float | str]
) -> tuple[dict[int, list[Any]], dict[str, float | str]]:
    """What the choice sets in the scenario's data `base`: each sized pool's rank groups (by
    the pool's index) and the system options chosen."""
    out = {
        p: _chosen_ranks(base["pools"][p]["ranks"], kinds, [chosen[label] for label in labels])
        for p, labels, kinds in _sized_pools(scenario)
    }
    return out, {k: chosen[k] for k in SYSTEM_CHOICES if k in chosen}


_SizedPool = tuple[int, list[str], list[tuple[str, str]]]
"""A sized pool's index, and its sized kinds' choices (`rank_label`) and kinds (drive, RAID
format), in the order of `analyses.size.ranks`, each kind once."""


def _sized_pools(scenario: Scenario) -> list[_SizedPool]:
    """Each pool the search sizes (`_SizedPool`)."""
    size = scenario.analyses.size
    assert size is not None
    out = []
    for p, pool in enumerate(scenario.pools):
        kinds = list(dict.fromkeys((g.drive, g.raid) for g in size.ranks if g.pool == pool.name))
        if kinds:
            out.append((p, [rank_label(pool.name, *k) for k in kinds], kinds))
    return out


def _chosen_ranks(
    in_file: list[dict[str, Any]], kinds: list[tuple[str, str]], counts: Sequence[float | str]
) -> list[Any]:
    """A sized pool's rank groups: its groups in the file (`in_file`, data) with each sized
    kind (`kinds`) at its chosen count (`counts`, in the same order; none at 0)."""
    chosen = dict(zip(kinds, counts, strict=True))
    # A sized kind keeps the place of its first group in the file, so that the current
    # configuration is the file's own (the same ranks in the same order: its results are
    # those `run` gives to the last bit); kinds the file does not have come after.
    ranks, done = [], set()
    for kind, group in [
        *(((g["drive"], g["raid"]), g) for g in in_file),
        *((k, None) for k in kinds),
    ]:
        if kind not in chosen:
            ranks.append(group)
        elif kind not in done:
            done.add(kind)
            count = chosen[kind]
            if not isinstance(count, str) and count > 0:
                drive, raid = kind
                ranks.append({"drive": drive, "raid": raid, "count": count, "da_pair": None})
    return ranks


Cost = tuple[int, float, float | None]


def configuration_cost(variant: Scenario, catalog: Catalog, prices: Prices | None) -> Cost:
    """Installed drives, their power (W) and the price by the scenario's prices, of a validated
    configuration (known before it is solved, so that the search can go cheapest first)."""
    system = variant.system
    ranks = [
        (catalog.installed_drive(system.model, g.drive), catalog.raid_formats[g.raid], g.count)
        for pool in variant.pools
        for g in pool.ranks
    ]
    drives = sum(raid.drives * count for _, raid, count in ranks)
    power = sum(raid.drives * count * drive.power_w for drive, raid, count in ranks)
    if prices is None:
        return drives, power, None
    price = sum(
        raid.drives * count * prices.drives.get(drive.name, 0.0) for drive, raid, count in ranks
    )
    price += system.da_pairs * prices.da_pair + system.host_ports * prices.host_port
    price += system.cache_gb * prices.cache_gb
    price += prices.processor_ways.get(str(system.processor_ways), 0.0)
    price += prices.model.get(system.model, 0.0)
    return drives, power, price


def _models(scenario: Scenario, key: str) -> bool:
    """Whether the section `key` of `scenario` is a model or a list of them (a name, a text
    or a list of file names is plain data: validated again at every configuration)."""
    value = getattr(scenario, key)
    items = value if isinstance(value, list) else [value]
    return bool(items) and all(isinstance(item, BaseModel) for item in items)
