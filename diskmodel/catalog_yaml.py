"""A catalog entry written back as the YAML a catalog file holds.

`diskmodel calibrate --fit` writes the figures it fitted into a catalog file of the planner's
own (docs/design.md, "User catalog files"): a whole entry, since an entry of a user's file
replaces the shipped entry of its name whole. `entry_data` turns a loaded entry (a system, a
drive, a RAID format) into the data a catalog file gives for it: every figure as `{value,
source | basis, range, fitted}` from its provenance, nested entries (a system's device adapter,
host adapters and processor options, a drive's packagings) the same way, and what a file
left out (a packaging's own figure it does not state) left out. Parsing the text of
`catalog_file_text` gives the same entries back (tested for every shipped entry).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from diskmodel.catalog import Drive, RaidFormat, Sourced, StorageSystem


def entry_data(entry: BaseModel) -> dict[str, Any]:
    """`entry`'s data as a catalog file writes it (module docstring)."""
    provenance = entry.provenance if isinstance(entry, Sourced) else {}
    out: dict[str, Any] = {}
    for name in type(entry).model_fields:
        if name == "provenance":
            continue
        value = getattr(entry, name)
        if value is None:
            continue  # a figure the file did not state (a packaging's own seek)
        source = provenance.get(name)
        if source is not None:
            out[name] = {"value": _plain(value), **source.model_dump(exclude_none=True)}
            if "range" in out[name]:
                out[name]["range"] = _flow(list(out[name]["range"]))
        else:
            out[name] = _plain(value)
    return out


def _flow(values: list[Any]) -> Any:
    """A list written on one line (`[low, high]`), as the shipped files write a range."""
    from ruamel.yaml.comments import CommentedSeq

    seq = CommentedSeq(values)
    seq.fa.set_flow_style()
    return seq


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return entry_data(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def catalog_file_text(
    entries: Sequence[StorageSystem | Drive | RaidFormat],
    header: str = "",
    data: Mapping[str, dict[str, Any]] | None = None,
) -> str:
    """A catalog file holding `entries` (`header`: comment lines above it; `data`: an entry's
    data by its name where it is given already, edited)."""
    from ruamel.yaml import YAML

    given = data or {}
    out: dict[str, Any] = {"schema_version": 1}
    for key, kind in (("systems", StorageSystem), ("drives", Drive), ("raid_formats", RaidFormat)):
        chosen = [given.get(e.name) or entry_data(e) for e in entries if isinstance(e, kind)]
        if chosen:
            out[key] = chosen
    yaml = YAML()  # round trip: keys in the models' order, ranges on one line
    yaml.width = 100
    stream = io.StringIO()
    yaml.dump(out, stream)
    comments = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    return comments + stream.getvalue()
