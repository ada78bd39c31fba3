"""Scenario files: what a planner writes, validated into inert, frozen pydantic models.

A scenario names a storage system from the catalog, its configuration, extent pools of RAID
ranks, the workloads and the analyses wanted. Validation is strict: unknown keys, names not in
the catalog, values out of range and configurations the hardware does not offer are all errors,
and every error names the file, the line, the key path and what is allowed.

The package, one job a module: `values` (names, numbers, text and their checks), `schema` (the
whole file: `Scenario`, its ranges and alternatives), its sections' models `storage` (system,
pools), `workloads`, `application` (logs, the application), `service_level` and `analyses`,
`hardware` (checks against the catalog), `ranks` (rank expansion), `overrides`
(alternatives' dotted key paths), `messages` (located errors with hints), `loading` (file to
Scenario), `files` (the heat maps a scenario reads), `json_schema` and `reference` (the
generated JSON Schema and docs/scenario.md).
"""

from diskmodel.scenario.analyses import Alternative, Analyses, Curve, Growth, TierSweep
from diskmodel.scenario.application import Application, Log
from diskmodel.scenario.hardware import pool_capacity_gb, tier_capacity_gb
from diskmodel.scenario.limits import MAX_ALTERNATIVES, MAX_PATH_CHARS, MAX_POPULATION, MAX_RANKS
from diskmodel.scenario.loading import load_scenario, validate_scenario
from diskmodel.scenario.overrides import apply_settings
from diskmodel.scenario.ranks import RankPlacement, expand_ranks
from diskmodel.scenario.schema import SCHEMA_VERSION, Scenario
from diskmodel.scenario.service_level import (
    RESPONSE_TIME_TARGET_MS,
    UTILIZATION_LIMIT,
    ServiceLevel,
    UtilizationLimits,
)
from diskmodel.scenario.storage import (
    EASY_TIER_UTILIZATION_TARGET,
    EasyTier,
    Pool,
    RankGroup,
    SystemConfig,
)
from diskmodel.scenario.values import Fraction, Name, ScenarioError
from diskmodel.scenario.workloads import SKEW_PRESETS, Luns, Skew, Workload

__all__ = [
    "EASY_TIER_UTILIZATION_TARGET",
    "MAX_ALTERNATIVES",
    "MAX_PATH_CHARS",
    "MAX_POPULATION",
    "MAX_RANKS",
    "RESPONSE_TIME_TARGET_MS",
    "SCHEMA_VERSION",
    "SKEW_PRESETS",
    "UTILIZATION_LIMIT",
    "Alternative",
    "Analyses",
    "Application",
    "Curve",
    "EasyTier",
    "Fraction",
    "Growth",
    "Log",
    "Luns",
    "Name",
    "Pool",
    "RankGroup",
    "RankPlacement",
    "Scenario",
    "ScenarioError",
    "ServiceLevel",
    "Skew",
    "SystemConfig",
    "TierSweep",
    "UtilizationLimits",
    "Workload",
    "apply_settings",
    "expand_ranks",
    "load_scenario",
    "pool_capacity_gb",
    "tier_capacity_gb",
    "validate_scenario",
]
