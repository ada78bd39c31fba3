"""The `Catalog`: every drive, RAID format and storage system by name, with where each came
from, its cross-references checked (`cross_reference_problems`). The entries themselves are
in `catalog.drives`, `catalog.raid` and `catalog.systems`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, model_validator

from diskmodel.catalog.drives import Drive
from diskmodel.catalog.raid import RaidFormat
from diskmodel.catalog.systems import StorageSystem
from diskmodel.catalog.zos import FiconChannel, VolumeModel

_INSTALLED_KEPT = 256
_installed: dict[tuple[int, str], tuple[Drive, Drive]] = {}
"""Drives as installed (`Catalog.installed_drive`), by catalog entry (held, so its identity is
not reused) and system."""

SHIPPED = "shipped"
"""`Catalog.origin` of an entry that comes with diskmodel (not from a user's catalog file)."""


class Catalog(BaseModel):
    """Everything the catalog files define, by name, cross-checked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    systems: dict[str, StorageSystem]
    drives: dict[str, Drive]
    raid_formats: dict[str, RaidFormat]
    ficon_channels: dict[str, FiconChannel] = Field(default_factory=dict)
    """FICON channel generations (z/OS attachment), by name."""
    volume_models: dict[str, VolumeModel] = Field(default_factory=dict)
    """CKD volume models (3390s, EAV), by name."""
    origin: dict[str, str] = Field(default_factory=dict)
    """Where each entry was defined: `SHIPPED`, or the path of the user's catalog file that
    added or replaced it (a name missing here is shipped; `origin_of`)."""
    user_files: tuple[str, ...] = ()
    """The user's catalog files read after the shipped ones, in order (a scenario's own
    `catalog` files are read after these)."""

    def origin_of(self, name: str) -> str:
        """`SHIPPED`, or the user catalog file that defined the entry `name`."""
        return self.origin.get(name, SHIPPED)

    def installed_drive(self, system: str, drive: str) -> Drive:
        """The drive `drive` as installed in `system`: its figures for the packaging that
        system uses (the same drive type may come 2.5-inch SAS in one system and 3.5-inch FC
        in another). The storage model asks for drives only through this.

        KeyError (naming both) when the catalog has no such drive or `system` does not offer
        it."""
        entry = self.drives[drive]
        if system not in entry.packaging:
            raise KeyError(f"drive {drive!r} is not offered on system {system!r}")
        # One packaged copy per catalog entry and system, so that every configuration resolved
        # from this catalog holds the same drive object and the model's caches keyed by a
        # drive's identity (`model.costs`) serve them all. (`cached.kept_by_identity` for
        # one held object, written out: a sizing search of 30 configurations asks 114 times.)
        key = (id(entry), system)
        kept = _installed.get(key)
        if kept is None or kept[0] is not entry:
            if len(_installed) >= _INSTALLED_KEPT:
                _installed.clear()
            kept = _installed[key] = (entry, entry.as_packaged(system))
        return kept[1]

    def names(self) -> list[str]:
        """Every name in the catalog (systems, drives, RAID formats), sorted."""
        return sorted([*self.systems, *self.drives, *self.raid_formats])

    def suggest(self, name: str, choices: list[str] | None = None) -> list[str]:
        """Close matches of a mistyped `name` among `choices` (default: every name)."""
        pool = self.names() if choices is None else choices
        return difflib.get_close_matches(name, pool, n=3, cutoff=0.5)

    @model_validator(mode="after")
    def _cross_references_resolve(self) -> Catalog:
        problems = cross_reference_problems(self.systems, self.drives, self.raid_formats)
        if problems:
            raise ValueError(problems[0][2])
        return self


def cross_reference_problems(
    systems: Mapping[str, StorageSystem],
    drives: Mapping[str, Drive],
    raid_formats: Mapping[str, RaidFormat],
) -> list[tuple[tuple[str, ...], str, str]]:
    """Names that do not resolve, as (entries involved, key path, message).

    A system's `drives` and `raid_formats` must name entries of the catalog, and a drive's
    `packaging` keys and the systems' `drives` lists must agree."""
    out: list[tuple[tuple[str, ...], str, str]] = []
    for system in systems.values():
        for drive_name in system.drives:
            where = f"systems[{system.name}].drives"
            if drive_name not in drives:
                out.append(
                    (
                        (system.name,),
                        where,
                        f"system {system.name!r} lists unknown drive {drive_name!r}",
                    )
                )
            elif system.name not in drives[drive_name].packaging:
                out.append(
                    (
                        (system.name, drive_name),
                        where,
                        f"system {system.name!r} lists drive {drive_name!r}, but that drive "
                        f"has no packaging for {system.name!r}",
                    )
                )
        for raid in system.raid_formats:
            if raid not in raid_formats:
                out.append(
                    (
                        (system.name,),
                        f"systems[{system.name}].raid_formats",
                        f"system {system.name!r} lists unknown RAID format {raid!r}",
                    )
                )
    for drive in drives.values():
        for system_name in drive.packaging:
            where = f"drives[{drive.name}].packaging.{system_name}"
            if system_name not in systems:
                out.append(
                    (
                        (drive.name,),
                        where,
                        f"drive {drive.name!r} has packaging for unknown system {system_name!r}",
                    )
                )
            elif drive.name not in systems[system_name].drives:
                out.append(
                    (
                        (drive.name, system_name),
                        where,
                        f"drive {drive.name!r} has packaging for {system_name!r}, but that "
                        "system does not list it in its drives",
                    )
                )
    return out
