"""Alternatives: a scenario's data with dotted key paths set to new values."""

from __future__ import annotations

import copy
from typing import Any

from diskmodel.scenario.values import clip


def apply_settings(base: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """Copy `base` and set each dotted path (`system.model`, `workloads.oltp.iops`).

    A path step into a list is an index (`pools.0`) or the `name` of an item (`workloads.oltp`).
    """
    data = copy.deepcopy(base)
    for full, value in settings.items():
        steps = full.split(".")
        dotted = clip(full)
        node: Any = data
        for depth, step in enumerate(steps):
            last = depth == len(steps) - 1
            if isinstance(node, dict):
                if step not in node:
                    allowed = ", ".join(sorted(node))
                    raise KeyError(f"'{dotted}': no key '{clip(step)}' here (allowed: {allowed})")
                if last:
                    node[step] = value
                else:
                    node = node[step]
            elif isinstance(node, list):
                index = _list_index(node, step, dotted)
                if last:
                    node[index] = value
                else:
                    node = node[index]
            else:
                raise KeyError(f"'{dotted}': '{clip(steps[depth - 1])}' is a value, not a section")
    return data


def settings_path(base: dict[str, Any], dotted: str) -> list[str | int]:
    """The key path (list items by index) that `apply_settings` sets for `dotted` in `base`
    (`workloads.oltp.iops` -> ["workloads", 0, "iops"]); [] where it names nothing there."""
    path: list[str | int] = []
    node: Any = base
    for step in dotted.split("."):
        if isinstance(node, dict) and step in node:
            path.append(step)
            node = node[step]
        elif isinstance(node, list):
            try:
                index = _list_index(node, step, dotted)
            except KeyError:
                return []
            path.append(index)
            node = node[index]
        else:
            return []
    return path


def _list_index(items: list[Any], step: str, dotted: str) -> int:
    if step.isdigit() and int(step) < len(items):
        return int(step)
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("name") == step:
            return i
    names = [str(item["name"]) for item in items if isinstance(item, dict) and "name" in item]
    raise KeyError(
        f"'{dotted}': no item '{clip(step)}' (use an index 0-{len(items) - 1}"
        + (f" or a name: {', '.join(names)})" if names else ")")
    )
