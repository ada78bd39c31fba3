"""The shipped scenarios' predictions, made once per test process.

Several test modules check properties of every shipped scenario's prediction (its curve, its
JSON against the schema, its report in a browser, what binds as it grows, ...); each used to
predict every scenario again, about 30 s of the suite a time. A prediction is frozen plain
data, so they share one: `predicted(path)` is what `diskmodel run` computes for the file
(`predict(load_scenario(path), base_dir=path.parent)`). Tests of the prediction itself being
the same run to run (tests/report/test_determinism.py) predict afresh, as they must.
"""

from __future__ import annotations

import functools
from pathlib import Path

from diskmodel.api import load_scenario, predict
from diskmodel.prediction import ScenarioPrediction


@functools.cache
def predicted(path: Path) -> ScenarioPrediction:
    """The prediction of the scenario file `path`, as `diskmodel run` makes it."""
    return predict(load_scenario(path), base_dir=path.parent)
