"""Fuzzed scenario files through loading and validation: a Scenario or one clear UserError.

Byte-level damage and value-level mutation of the shipped scenarios, and random documents.
Valid results go on through the model in test_model_fuzz.py; here the loader and validator
are the subject, so each case is cheap and CI can afford hundreds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from diskmodel.api import load_scenario
from diskmodel.errors import UserError
from diskmodel.report.check_text import render_check
from diskmodel.scenario import Scenario

from ..support.budget import fuzz_settings
from ..support.invariants import check_user_error, no_hang
from ..support.strategies import dump_yaml, edge_values, mutated_bytes, mutated_documents

pytestmark = pytest.mark.fuzz


def load_or_user_error(data: bytes) -> Scenario | None:
    """Load `data` as a scenario file; None after checking the UserError it raised."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.yaml"
        path.write_bytes(data)
        with no_hang():
            try:
                scenario = load_scenario(path)
            except UserError as error:
                check_user_error(error, path)
                event(f"exit {int(error.exit_code)}")
                return None
            event("valid")
            # A valid scenario is also summarised by `check` without error.
            assert scenario.name in render_check(scenario)
            for _, alternative in scenario.alternatives():
                assert isinstance(alternative, Scenario)
            return scenario


@fuzz_settings(ci_examples=150)
@given(mutated_bytes())
def test_damaged_files_load_or_fail_clearly(data: bytes) -> None:
    load_or_user_error(data)


@fuzz_settings(ci_examples=150)
@given(mutated_documents())
def test_mutated_values_load_or_fail_clearly(document: Any) -> None:
    load_or_user_error(dump_yaml(document).encode("utf-8"))


@fuzz_settings(ci_examples=50)
@given(edge_values(depth=3))
def test_random_documents_fail_clearly(document: Any) -> None:
    assert load_or_user_error(dump_yaml(document).encode("utf-8")) is None


@fuzz_settings(ci_examples=30)
@given(st.binary(max_size=2000))
def test_random_bytes_fail_clearly(data: bytes) -> None:
    assert load_or_user_error(data) is None
