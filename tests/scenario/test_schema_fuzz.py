"""Property: every scenario diskmodel accepts is valid against the shipped JSON Schema.

The schema is what editors check a scenario against while it is typed; if it refused a
scenario that `diskmodel check` accepts, an editor would mark a correct file as wrong. Drawn
from the edge scenarios (meant to be valid, every number at its edges) and from mutated real
scenarios (of which those that still validate are kept).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from diskmodel.errors import UserError
from diskmodel.scenario import validate_scenario
from diskmodel.scenario.json_schema import SCHEMA_FILE
from diskmodel.yamlio import Located

from ..support.budget import fuzz_settings
from ..support.strategies import edge_scenarios, mutated_documents
from .json_schema_subset import errors as schema_errors

pytestmark = pytest.mark.fuzz


@cache
def shipped_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@fuzz_settings(ci_examples=60)
@given(st.one_of(edge_scenarios(), mutated_documents(max_mutations=2)))
def test_every_accepted_scenario_validates_against_the_schema(document: Any) -> None:
    try:
        validate_scenario(Located(data=copy.deepcopy(document), source="fuzzed.yaml"))
    except UserError:
        event("refused by diskmodel")
        return
    event("accepted")
    assert schema_errors(shipped_schema(), document) == []
