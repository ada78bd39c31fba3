"""The storage system model: operating points of a configuration.

`Solver(config)` (`operating`) places the data for a load (`layout`: Easy Tier under each
tier's utilisation target, auto-rebalance within a tier), builds the stations and their loads
(`network`, with the per-rank operation costs of `costs`) and solves them, open (`open`:
Jackson, every station product-form, drives load-dependent with their command-queueing gain)
or closed (`closed`: exact load-dependent MVA, destages folded in as an open stream). The same
network serves both solutions. `results` turns an operating point into the Prediction's
per-component, per-workload, per-rank and per-tier results. The model never imports the
analyses, which are loops over operating points (`diskmodel.analyses`).
"""

from diskmodel.model.network import Network, Station
from diskmodel.model.network_build import build_network
from diskmodel.model.operating import OperatingPoint, Solver

__all__ = ["Network", "OperatingPoint", "Solver", "Station", "build_network"]
