"""Fuzzed names and descriptions through the HTML report and the JSON result.

Every string a scenario carries into a report (scenario, pool and workload names, the
description, alternative names) is drawn with markup characters and an injected tag of our
own; the HTML must hold that tag only escaped, and the JSON must give the strings back exactly.
The browser test (tests/report/test_browser_reports.py) checks in Chromium that such a page
runs no script.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diskmodel import predict
from diskmodel.report.html import render_html
from diskmodel.report.json_result import to_json

from ..support.budget import fuzz_settings
from ..support.invariants import check_result_json, no_hang
from ..support.scenarios import scenario_with_names

pytestmark = pytest.mark.fuzz

MARKER = "<x-fuzz-injected"
"""A tag no template writes: found unescaped in the HTML, it came from the input."""

hostile_text = st.builds(
    lambda before, after: unicodedata.normalize(
        "NFC", f"{before}{MARKER} onload=alert(1)>{after}"
    ).strip(),
    st.text(alphabet=st.sampled_from("<>&\"'`/\\=; {}%$#ä💾中"), max_size=12),
    # Names are visible text, NFC (controls, bidi and zero-width characters are refused at
    # validation: tests/scenario/test_scenario.py).
    st.text(st.characters(exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp")), max_size=12).filter(
        lambda t: t.strip() == t
    ),
)


@fuzz_settings(ci_examples=6)
@given(st.lists(hostile_text, min_size=4, max_size=4, unique=True), hostile_text)
def test_names_are_escaped_in_html_and_exact_in_json(names: list[str], description: str) -> None:
    scenario = scenario_with_names(names, description)
    with no_hang():
        prediction = predict(scenario)
        page = render_html(prediction, timestamp=False)
        data = check_result_json(to_json(prediction))
    assert MARKER not in page
    assert "&lt;x-fuzz-injected" in page
    assert data["scenario"] == names[0]
    assert [c["name"] for c in data["configurations"]] == [names[0], names[3]]
    assert data["configurations"][0]["workloads"][0]["name"] == names[2]
    assert json.loads(json.dumps(data)) == data
