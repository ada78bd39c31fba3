"""Every shipped scenario is predicted and reported (text and JSON) without error."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import diskmodel

from .conftest import SCENARIOS
from .support.shipped import predicted


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: Path(p).stem)
def test_shipped_scenario_runs(path: Path) -> None:
    sp = predicted(path)
    text = diskmodel.render_text(sp)
    data = json.loads(diskmodel.to_json(sp))
    assert len(data["configurations"]) == 1 + len(sp.alternatives)
    for conf, p in zip(data["configurations"], sp.configurations, strict=True):
        assert conf["name"] in text
        assert p.max_iops > 0
        assert math.isfinite(p.max_iops)
        # The bottleneck is a component, or a z/OS device queue above the storage (IOSQ).
        assert p.bottleneck in {c.name for c in p.components} or (
            p.bottleneck_kind == "device_queue" and "device queue (IOSQ" in p.bottleneck
        )
        assert all(0 <= c.utilization <= 1 for c in p.components)
        at_load = p.closed.response_time_ms if p.closed else p.response_time_ms
        assert p.saturated or (at_load is not None and at_load > 0)
