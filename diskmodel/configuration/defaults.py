"""The defaults a scenario left out: each key, the value used and why (`DefaultUsed`), for the
report's inputs."""

from __future__ import annotations

from pydantic import BaseModel

from diskmodel.catalog import StorageSystem
from diskmodel.prediction import DefaultUsed
from diskmodel.scenario import Pool, Scenario

# Why each default is what it is (a scenario that leaves the key out gets this value).
_WORKLOAD_DEFAULTS = {
    "destage_ratio": "no write folding assumed: every host write is destaged (conservative; "
    "a measured destage rate is usually lower, e.g. 0.573 per write for IBM's 'DB Open' "
    "workload, whose destages are 17.2% of all I/O at 30% writes)",
    "read_size_kib": "4 KiB, the small random I/O the catalog figures are quoted for",
    "write_size_kib": "4 KiB, the small random I/O the catalog figures are quoted for",
    "read_sequential_fraction": "no sequential reads",
    "write_sequential_fraction": "no sequential writes",
    "think_time_ms": "no think time: every user always has an I/O outstanding",
    "skew": "no skew: I/O in proportion to capacity",
}


_LOG_DEFAULTS = {
    "page_kib": "4 KiB, the Db2 log page",
    "stripes": "not striped: one log volume",
    "links": "each stripe on its own host port or channel",
    "striping_overhead_us": "the catalog system's log_striping_us: the striping layer's own time "
    "per striped write, derived from a published one-page measurement (+10% striped)",
    "large_write_pages": "128 pages, the largest log write in IBM's measurement of Db2 log "
    "writes on a DS8800 with 8 Gb FICON",
    "capacity_gb": "10 GB of active log data sets; small against a pool, so placement hardly "
    "depends on it",
}


_APPLICATION_DEFAULTS = {
    "think_time_ms": "no think time: each user starts its next transaction at once",
    "cpu_ms_per_transaction": "no host CPU time: the transactions wait for the storage only",
    "cpus": "one host CPU",
    "parallel_ios": "one I/O at a time: each waits for the one before",
}


def defaults_used(scenario: Scenario, system: StorageSystem) -> list[DefaultUsed]:
    """The inputs the scenario left out, the values used and why (`system`: its catalog entry,
    for the defaults that depend on the system model), in the order of a scenario file."""
    out = _application_defaults(scenario)
    out += _system_defaults(scenario)
    for pool in scenario.pools:
        out += _pool_defaults(pool, system, scenario.system.rank_placement == "balanced")
    for w in scenario.workloads:
        out += _listed(f"workloads.{w.name}", w, _WORKLOAD_DEFAULTS, skip_think=w.users is None)
    for log in scenario.logs:
        out += _listed(f"logs.{log.name}", log, _LOG_DEFAULTS)
    level = scenario.service_level
    if "service_level" not in scenario.model_fields_set:
        out.append(
            DefaultUsed(
                "service_level",
                f"response time {level.response_time_ms:g} ms, utilisation "
                f"{level.utilization.rank:.0%} of every component",
                "planning defaults (docs/model.md): a common OLTP service level and the "
                "report's warning level",
            )
        )
    return out


def _application_defaults(scenario: Scenario) -> list[DefaultUsed]:
    app = scenario.application
    if app is None:
        return []
    return [
        DefaultUsed(f"application.{key}", f"{getattr(app, key):g}", why)
        for key, why in _APPLICATION_DEFAULTS.items()
        if key not in app.model_fields_set
    ]


def _system_defaults(scenario: Scenario) -> list[DefaultUsed]:
    given = scenario.system
    out = []
    if "processor_ways" not in given.model_fields_set:
        out.append(DefaultUsed("system.processor_ways", f"{given.processor_ways}", "4-way"))
    if "host_adapter" not in given.model_fields_set:
        out.append(
            DefaultUsed(
                "system.host_adapter", "the model's default", "catalog default_host_adapter"
            )
        )
    return out + _ficon_defaults(scenario)


_FICON_DEFAULTS = {
    "channel": "FICON Express8S, the 8 Gb/s channel of the z196/z114 and zEC12 that these "
    "systems were attached to",
    "channels": "4 channel paths per LCU, a common minimum for availability (up to 8)",
    "host_ports": "every host port is FICON (a mixed scenario names the FICON ones)",
    "zhpf": "zHPF (transport mode), which the DS8800 and FICON Express8S support",
    "pend_light_us": "the channel's catalog pend_light_us (an estimate with its range)",
}


def _ficon_defaults(scenario: Scenario) -> list[DefaultUsed]:
    """The z/OS attachment's settings left out (a scenario with `system.ficon` only)."""
    ficon = scenario.system.ficon
    if ficon is None:
        return []
    out = [
        DefaultUsed(f"system.ficon.{key}", _shown(key, getattr(ficon, key)), why)
        for key, why in _FICON_DEFAULTS.items()
        if key not in ficon.model_fields_set
    ]
    for lcu in scenario.system.lcus:
        if "pav" not in lcu.model_fields_set:
            out.append(
                DefaultUsed(f"system.lcus.{lcu.name}.pav", lcu.pav, "HyperPAV, the usual setup")
            )
    return out


def _shown(key: str, value: object) -> str:
    if value is None:
        return "all" if key == "host_ports" else "the catalog's"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _pool_defaults(pool: Pool, system: StorageSystem, balanced: bool) -> list[DefaultUsed]:
    """A pool's Easy Tier generation, Easy Tier itself, its utilisation target, and where its
    ranks without a DA pair went (said once, for the first such group)."""
    out = []
    if pool.easy_tier.generation is None and pool.easy_tier.mode == "auto":
        shipped = system.easy_tier_generation
        out.append(
            DefaultUsed(
                f"pools.{pool.name}.easy_tier.generation",
                f"{shipped}",
                f"the generation the {system.name} shipped with ("
                + (
                    "R5.1: two tiers, placement by I/O density, no auto-rebalance)"
                    if shipped == 1
                    else "taken as R6.1: three tiers, load limits, auto-rebalance; not "
                    "sourced, see the catalog)"
                ),
            )
        )
    if "easy_tier" not in pool.model_fields_set:
        out.append(
            DefaultUsed(
                f"pools.{pool.name}.easy_tier",
                "auto",
                "Easy Tier is on by default on these systems",
            )
        )
    if (
        "utilization_target" not in pool.easy_tier.model_fields_set
        and pool.easy_tier.mode == "auto"
        and pool.easy_tier.generation_on(system) > 1
    ):
        out.append(
            DefaultUsed(
                f"pools.{pool.name}.easy_tier.utilization_target",
                f"{pool.easy_tier.utilization_target:g}",
                "the load Easy Tier lets a tier's busiest drive or DA pair reach before it "
                "demotes warm extents (not published: estimate)",
            )
        )
    group = next((g for g in pool.ranks if g.da_pair is None), None)
    if group is not None:
        out.append(
            DefaultUsed(
                f"pools.{pool.name}.ranks.{group.drive} {group.raid}.da_pair",
                "balanced" if balanced else "round-robin",
                "each drive type's ranks dealt evenly over the DA pairs and servers "
                "(system.rank_placement: balanced)"
                if balanced
                else "ranks dealt over the DA pairs in file order",
            )
        )
    return out


def _listed(
    where: str, given: BaseModel, defaults: dict[str, str], *, skip_think: bool = False
) -> list[DefaultUsed]:
    """The keys of `defaults` that `given` (a workload, a log) left out, each with its value
    (`skip_think`: not the think time, which only users have)."""
    out = []
    for key, basis in defaults.items():
        if key == "think_time_ms" and skip_think:
            continue
        if key not in given.model_fields_set:
            value = getattr(given, key)
            out.append(
                DefaultUsed(f"{where}.{key}", "none" if value is None else f"{value:g}", basis)
            )
    return out
