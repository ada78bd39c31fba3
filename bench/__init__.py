"""Benchmarks against peer solvers, run on demand (`python -m bench`), not part of the tests."""
