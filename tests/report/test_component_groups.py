"""Host ports and host adapter cards are counted apart (issue 31 item 6): 16 ports on four
4-port cards read "host adapter ports: 20" because the summary counted every `host_adapter`
station, cards included, as a port."""

from __future__ import annotations

import re

from diskmodel.prediction import ScenarioPrediction
from diskmodel.report.component_tables import component_groups
from diskmodel.report.html import render_html
from diskmodel.report.table import Output
from diskmodel.report.text import render

from ..support.builders import predict_one, scenario


def test_sixteen_ports_on_four_cards_are_sixteen_ports_and_four_cards() -> None:
    p = predict_one(scenario(**{"system.host_ports": 16, "system.host_adapter": "fc-8gb-4port"}))
    groups = dict(component_groups(p.components))
    assert len(groups["host adapter ports"]) == 16
    assert len(groups["host adapter cards"]) == 4
    text = render(ScenarioPrediction("s", "", p), Output(False, 200))
    assert re.search(r"host adapter ports\s+16\s", text)
    assert re.search(r"host adapter cards\s+4\s", text)
    assert not re.search(r"host adapter ports\s+20\s", text)
    html = render_html(ScenarioPrediction("s", "", p), timestamp=False)
    assert "host ports (all 16)" in html or "host ports: busiest" in html
