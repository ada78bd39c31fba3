"""Shared test fixtures: paths found from this file, never from the working directory."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="session")
def catalog():  # type: ignore[no-untyped-def]
    from diskmodel.catalog import load_catalog

    return load_catalog()
