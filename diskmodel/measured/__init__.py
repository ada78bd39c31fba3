"""Measured data from a running system: interval import and peak selection (issue 13)."""

from diskmodel.measured.intervals import Interval, load_intervals, parse_intervals
from diskmodel.measured.peaks import Selection, select, workloads_yaml

__all__ = ["Interval", "Selection", "load_intervals", "parse_intervals", "select", "workloads_yaml"]
