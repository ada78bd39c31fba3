"""The resolved configuration: a scenario, the catalog and the files it names, resolved once.

`resolve(scenario, catalog, base_dir)` gives a frozen `Configuration`, the only thing the model
reads; `resolve_scenario` gives the baseline and each `compare` alternative. One job a module:
`records` (the frozen records), `resolution` (the scenario resolved against the catalog, heat maps
read, hit ratios projected), `inputs` (the inputs as the report shows them), `defaults` (what
the scenario left out, and why each default is what it is). Every name below is imported from
here.
"""

from diskmodel.configuration.defaults import defaults_used
from diskmodel.configuration.records import (
    ApplicationConfig,
    Configuration,
    Drive,
    Hardware,
    LogConfig,
    PoolConfig,
    RaidFormat,
    Rank,
    ServiceLevelConfig,
    WorkloadConfig,
)
from diskmodel.configuration.resolution import projected_hit_ratios, resolve, resolve_scenario

__all__ = [
    "ApplicationConfig",
    "Configuration",
    "Drive",
    "Hardware",
    "LogConfig",
    "PoolConfig",
    "RaidFormat",
    "Rank",
    "ServiceLevelConfig",
    "WorkloadConfig",
    "defaults_used",
    "projected_hit_ratios",
    "resolve",
    "resolve_scenario",
]
