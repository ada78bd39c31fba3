"""The machine-readable result of `diskmodel run --json FILE`: a documented, versioned schema.

The layout is documented field by field in docs/json-schema.md; change it only on purpose and
bump `SCHEMA_VERSION` when a field changes meaning or disappears (adding a field does not).
Every number is finite: a response time at or past saturation is `null` and the object it
belongs to carries `"saturated": true`. No timestamps or paths: the same scenario gives the
same bytes.
"""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

from diskmodel import __version__
from diskmodel.prediction import Prediction, ScenarioPrediction

SCHEMA_VERSION = 1


def _plain(value: Any) -> Any:
    """Dataclasses, tuples and dicts to JSON data; a non-finite float is a programming error."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"non-finite number {value!r} in a prediction")
        return value
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def configuration_data(p: Prediction) -> dict[str, Any]:
    """One configuration as JSON data (the `configurations[]` items of the schema)."""
    data: dict[str, Any] = _plain(p)
    if not math.isfinite(p.max_iops):
        data["max_iops"] = None
    return data


def result_data(prediction: ScenarioPrediction) -> dict[str, Any]:
    """The whole result as JSON data."""
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": f"diskmodel {__version__}",
        "scenario": prediction.scenario,
        "configurations": [configuration_data(p) for p in prediction.configurations],
        "tier_sweep": _plain(prediction.tier_sweep),
    }


def to_json(prediction: ScenarioPrediction) -> str:
    """The result as JSON text (indented, keys in schema order, finite numbers only)."""
    return json.dumps(result_data(prediction), indent=2, allow_nan=False) + "\n"
