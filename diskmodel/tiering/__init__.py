"""Skew curves and data placement: Easy Tier, capacity-proportional, pinned, auto-rebalance.

Pure functions on plain numbers (numpy/scipy only); the storage model turns a scenario's pools
and workloads into `records.Tier` and `records.WorkloadDemand` and reads back shares. See
docs/tiering.md for the meaning of a skew level and the placement rules.

One job a module, each imported by name (this package re-exports nothing, so reading the
dependency-free `presets`, as scenario validation does, loads no scipy): `skew` (what a skew
curve is, the one-parameter family), `curves` (curves from points or from other curves, and
the builders the configuration uses), `heatmap` (measured heat maps), `placement` (where each
workload's data lands), `records` (what placement takes and gives), `ranking` (Easy Tier's
ranking of the extents), `rebalance` (auto-rebalance within a tier), `roots` (the root
finding placement uses), `presets` (the named skew levels).
"""
