"""A figure's field read from a JSON result: a path (`configurations[0].max_iops`), list
items by index, slice, `*` or `[key=value]`, the values it leads to summed (the package's
docstring has the grammar).
"""

from __future__ import annotations

import math
import re
from typing import Any

_STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]*)\]")


def read_path(document: Any, path: str) -> float:
    """The number at `path` in a JSON result (module docstring): several values are summed."""
    values = _walk([document], path, multi=False)
    numbers = [float(v) for v in values]
    if not numbers:
        raise ValueError(f"{path}: no value")
    return math.fsum(numbers)


def _walk(items: list[Any], path: str, multi: bool) -> list[Any]:
    position = 0
    while position < len(path):
        match = _STEP.match(path, position)
        if match is None:
            raise ValueError(f"{path}: cannot read the path at {path[position:]!r}")
        position = match.end()
        name, selector = match.groups()
        if name is not None:
            items = [_key(item, name, path) for item in items]
        else:
            items = [chosen for item in items for chosen in _select(item, selector, path)]
    return items


def _key(item: Any, name: str, path: str) -> Any:
    if not isinstance(item, dict) or name not in item:
        raise ValueError(f"{path}: no field {name!r}")
    return item[name]


def _select(item: Any, selector: str, path: str) -> list[Any]:
    if not isinstance(item, list):
        raise ValueError(f"{path}: [{selector}] on something that is not a list")
    if selector == "*":
        return list(item)
    if "=" in selector:
        key, _, wanted = selector.partition("=")
        found = [x for x in item if isinstance(x, dict) and str(x.get(key.strip())) == wanted]
        if len(found) != 1:
            raise ValueError(f"{path}: [{selector}] matches {len(found)} items, not one")
        return found
    if ":" in selector:
        low, _, high = selector.partition(":")
        return list(item[int(low) if low else None : int(high) if high else None])
    return [item[int(selector)]]
