"""Analyses: loops over operating points of configurations (`diskmodel.model.Solver`).

They never place data or solve stations themselves, so every view of one configuration at
one load gives the same number: `predict_configuration` (planned point, saturation, the curve,
the service level, growth, the closed population sweep), `predict_scenario` (baseline and
alternatives, bands, tier sweep, sizing), `compare_scenarios` (several files side by side).
"""

from diskmodel.analyses.predict import predict_configuration
from diskmodel.analyses.scenario import compare_scenarios, predict_scenario

__all__ = ["compare_scenarios", "predict_configuration", "predict_scenario"]
