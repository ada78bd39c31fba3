"""The machine-readable result of `diskmodel run --json FILE`: a documented, versioned schema.

The layout is documented field by field in docs/json-schema.md; change it only on purpose and
bump `SCHEMA_VERSION` when a field changes meaning or disappears (adding a field does not).
The JSON is the `ScenarioPrediction` written out field by field: every number is the one the
model carried, never recomputed (an input hit ratio of 0.1 is written 0.1). Every number is
finite: a response time at or past saturation is `null` and the object it belongs to carries
`"saturated": true`; a maximum rate that no station bounds is `null`. No timestamps or paths:
the same scenario gives the same bytes.
"""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

from diskmodel import __version__
from diskmodel.prediction import ScenarioPrediction, SizingResult

SCHEMA_VERSION = 2
"""2: inputs, skew curves, service level and growth inside each configuration; curve points
with the busiest station and the placement; closed population_kind; tier sweep planning
maximum (docs/json-schema.md, "Changes from version 1")."""

UNBOUNDED_KEYS = frozenset({"max_iops", "planning_max_iops", "iops_at_target"})
"""Rates that are infinite when no station bounds them (an idle configuration): `null`."""


OMITTED_WHEN_NONE = frozenset({"rmf", "copy_services", "replication"})
"""Fields written only where they apply: a workload's `rmf` (its RMF components) only on a z/OS
workload, so an open-systems workload's object is the one it always was; the copy services'
(a configuration's `inputs.copy_services`, a replicated workload's `replication`) only where a
scenario has them, so a scenario without them gives the bytes it gave before them."""

PLACED = {"ranks_per_da_pair": "da_pair", "ranks_per_server": "server"}
"""(index, ranks) pairs written as objects that name their index: {"da_pair": 0, "ranks": 4}."""


def _plain(value: Any, key: str = "") -> Any:
    """Dataclasses, tuples and dicts to JSON data; a non-finite float is a programming error,
    except an unbounded maximum rate, which is `null`. The commonest values first: a large
    sizing search writes some 25 values for each of up to 10^6 configurations."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        if math.isfinite(value):
            return value
        if key in UNBOUNDED_KEYS and value > 0:
            return None
        raise ValueError(f"non-finite number {value!r} at {key!r} in a prediction")
    if key in PLACED:
        return [{PLACED[key]: index, "ranks": count} for index, count in value]
    if kind is tuple or kind is list:
        return [_plain(v, key) for v in value]
    names = _FIELDS.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {
            name: _plain(getattr(value, name), name)
            for name in names
            if not (name in OMITTED_WHEN_NONE and getattr(value, name) is None)
        }
    if isinstance(value, dict):
        return {str(k): _plain(v, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, key) for v in value]
    if isinstance(value, bool | str | int):  # a subclass (an enum's value type)
        return value
    if isinstance(value, float):
        return _plain(float(value), key)
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each dataclass type's field names, in order (`dataclasses.fields` per object cost a tenth
of writing a large sizing search)."""


def result_data(prediction: ScenarioPrediction) -> dict[str, Any]:
    """The whole result as JSON data."""
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": f"diskmodel {__version__}",
        "scenario": prediction.scenario,
        "description": prediction.description,
        "configurations": [_plain(p) for p in prediction.configurations],
        "tier_sweep": _plain(prediction.tier_sweep),
        "sizing": _plain(prediction.sizing),
        "calibration": _plain(prediction.calibration),
    }


def to_json(prediction: ScenarioPrediction) -> str:
    """The result as JSON text (indented, keys in schema order, finite numbers only)."""
    return json.dumps(result_data(prediction), indent=2, allow_nan=False) + "\n"


def sizing_json(result: SizingResult) -> str:
    """`diskmodel size --json`: the sizing result (docs/json-schema.md, "Sizing")."""
    data = {
        "schema_version": SCHEMA_VERSION,
        "generator": f"diskmodel {__version__}",
        "sizing": _plain(result),
    }
    return json.dumps(data, indent=2, allow_nan=False) + "\n"
