"""Shared test fixtures: paths found from this file, never from the working directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis profiles: `ci` by default, derandomized so that a run's cases are the same on
# every machine (what passes here passes in CI; a new random draw in CI once found a case no
# local run had); `long` on demand (`--hypothesis-profile=long` or DISKMODEL_FUZZ=long) draws
# at random and multiplies the fuzz suite's cases by 20 (see tests/support/budget.py): run it to
# look for new failures, and keep what it finds as regression tests.
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True)
settings.register_profile("long", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("DISKMODEL_FUZZ", "ci"))

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="session")
def catalog():  # type: ignore[no-untyped-def]
    from diskmodel.catalog import load_catalog

    return load_catalog()
