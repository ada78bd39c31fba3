"""The JSON Schema of scenario files, generated from the pydantic models and shipped.

Editors that speak the YAML language server (VS Code's YAML extension, Neovim, JetBrains) read
it from the first line of a scenario file::

    # yaml-language-server: $schema=../diskmodel/scenario/scenario.schema.json

and then complete keys, show each key's meaning and unit, and mark unknown keys and values out
of range as they are typed. The catalog's names (systems, drives, RAID formats, host adapters,
skew presets) are listed as the allowed values. The schema checks each value; what spans
values (a drive the system does not offer, data that does not fit its pool) is left to
`diskmodel check`. Every scenario diskmodel accepts is valid against it (a property test).

`python -m diskmodel.scenario.json_schema` prints it; `make catalog` regenerates it with the
other generated files (docs/design.md, "Generated files") after the models or the catalog
change, and a test checks it is current.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.scenario.schema import Scenario
from diskmodel.scenario.workloads import SKEW_PRESETS

SCHEMA_FILE = Path(__file__).with_name("scenario.schema.json")
"""Where the generated schema is shipped, inside the package."""

SCHEMA_ID = "https://diskmodel.invalid/scenario.schema.json"
"""The schema's `$id`: a name, not an address that is fetched (`.invalid` never resolves)."""


def scenario_json_schema(catalog: Catalog | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file, with the catalog's names."""
    catalog = catalog or load_catalog()
    schema = Scenario.model_json_schema(mode="validation")
    defs = schema["$defs"]
    adapters = sorted({h.name for s in catalog.systems.values() for h in s.host_adapters})
    _allow(defs["SystemConfig"], "model", sorted(catalog.systems))
    _allow(defs["SystemConfig"], "host_adapter", adapters)
    _allow(defs["Sizing"]["properties"]["model"], "items", sorted(catalog.systems))
    for section in ("RankGroup", "TierSweep"):
        _allow(defs[section], "drive", sorted(catalog.drives))
        _allow(defs[section], "raid", sorted(catalog.raid_formats))
    level = defs["Skew"]["properties"]["level"]
    level["anyOf"] = [
        {"type": "number", "exclusiveMinimum": 1},
        {"enum": list(SKEW_PRESETS)},
        {"type": "null"},
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        **schema,
    }


def _allow(section: dict[str, Any], key: str, names: list[str]) -> None:
    """Let `key` of `section` (a model's properties, or a list's `items`) take only `names`
    (the catalog's), for completion."""
    prop = section["properties"][key] if key != "items" else section[key]
    if "anyOf" in prop:  # optional: the names or null
        prop["anyOf"] = [{"enum": names}, {"type": "null"}]
    else:
        for key in ("type", "minLength", "maxLength"):
            prop.pop(key, None)
        prop["enum"] = names


def schema_text(catalog: Catalog | None = None) -> str:
    """The schema as shipped: JSON, two-space indented, ending in a newline."""
    return json.dumps(scenario_json_schema(catalog), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
