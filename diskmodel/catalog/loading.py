"""Reading the catalog: the shipped files (found with `importlib.resources`, their parse kept
in `PARSED_FILE`), a user's own files (read with the scenario's guarded YAML loader), each
validated as a `CatalogFile`, then merged into one cross-checked `Catalog` (`build_catalog`);
`load_catalog` is what every command calls.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from diskmodel.catalog.drives import Drive
from diskmodel.catalog.entries import SHIPPED, Catalog, cross_reference_problems
from diskmodel.catalog.figures import FROM_FILE
from diskmodel.catalog.raid import RaidFormat
from diskmodel.catalog.systems import StorageSystem
from diskmodel.catalog.zos import FiconChannel, VolumeModel
from diskmodel.errors import InputError

SCHEMA_VERSION = 1
"""The `schema_version` every catalog file declares."""

MAX_USER_FILE_BYTES = 1_000_000
"""A user catalog file is read no further than this (the shipped files are 10-60 kB each)."""


class CatalogError(InputError):
    """A catalog file is malformed or inconsistent; the message names the file and key path.

    In a shipped file it is a developer error; in a user's `--catalog` file it is the user's,
    and as an `InputError` the command line prints it as one message (exit 3)."""


class CatalogFile(BaseModel):
    """One YAML file of the catalog: a schema version and any of the three kinds of entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: Literal[1]
    systems: list[StorageSystem] = Field(default_factory=list)
    drives: list[Drive] = Field(default_factory=list)
    raid_formats: list[RaidFormat] = Field(default_factory=list)
    ficon_channels: list[FiconChannel] = Field(default_factory=list)
    volume_models: list[VolumeModel] = Field(default_factory=list)


SHIPPED_FOLDER = "hardware_catalog"
"""The shipped catalog's folder: the project's top-level `hardware_catalog/` (YAML data only),
which the wheel carries as `diskmodel/hardware_catalog/` (pyproject.toml maps it)."""


def shipped_folder() -> Traversable:
    """Where the shipped catalog is: inside the installed package (a wheel), else beside the
    package in the project (a checkout, or the editable install `make test` uses, where the
    package is the project's own folder). `CatalogError` when neither holds it."""
    packaged = resources.files("diskmodel") / SHIPPED_FOLDER
    if packaged.is_dir():
        return packaged
    project = Path(__file__).resolve().parents[2] / SHIPPED_FOLDER
    if project.is_dir():
        return project
    raise CatalogError(
        f"{SHIPPED_FOLDER}: the catalog shipped with diskmodel is missing (looked in {packaged} "
        f"and {project}); reinstall diskmodel"
    )


def catalog_files() -> Iterator[tuple[str, str]]:
    """(relative path, text) of every `*.yaml` file of the shipped catalog (`shipped_folder`),
    each path starting `hardware_catalog/` wherever the folder is."""
    root = shipped_folder()

    def walk(folder: Traversable, prefix: str) -> Iterator[tuple[str, str]]:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                yield from walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".yaml"):
                yield f"{prefix}{entry.name}", entry.read_text(encoding="utf-8")

    yield from walk(root, f"{SHIPPED_FOLDER}/")


PARSED_FILE = "parsed.json"
"""The shipped YAML files parsed once, kept in this package (`diskmodel/catalog/`; the catalog's
folder holds YAML only): each file's data under its path, beside the SHA-256 of the text it was
parsed from (`python -m diskmodel.catalog parsed`; `make catalog` regenerates it). Reading it
takes about a millisecond where the pure-Python YAML parser takes 0.08 s of every run. A file
whose text no longer matches its hash is parsed again, so an edit is never missed;
tests/test_catalog.py checks the file is current."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parsed_catalog_files(files: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The contents of `PARSED_FILE` for `files` ((path, text) pairs)."""
    return {
        where: {"sha256": _digest(text), "data": read_catalog_yaml(text, where)}
        for where, text in files
    }


@functools.cache
def _parsed_shipped() -> dict[str, Any]:
    path = resources.files("diskmodel.catalog") / PARSED_FILE
    try:
        parsed: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # missing or damaged: the YAML is read instead
        return {}
    return parsed


def _shipped_data(text: str, where: str) -> Any:
    """A shipped file's data: parsed already when its text is the one `PARSED_FILE` was made
    from, else parsed now."""
    entry = _parsed_shipped().get(where)
    if isinstance(entry, dict) and entry.get("sha256") == _digest(text):
        return entry.get("data")
    return read_catalog_yaml(text, where)


def read_catalog_yaml(text: str, where: str) -> Any:
    """Parse one catalog file's text to plain data (safe loader; no Python objects)."""
    yaml = YAML(typ="safe", pure=True)
    try:
        return yaml.load(text)
    except YAMLError as exc:
        raise CatalogError(f"{where}: YAML error: {exc}") from None


def read_user_catalog_yaml(text: str, where: str) -> Any:
    """Parse a user's catalog file by the scenario's guarded loader (`yamlio.parse_yaml`: tags
    refused, depth, aliases and digits bounded; a 5,000-digit number or 10,000 nested lists
    crashed the plain loader, issue 33 item 4)."""
    from diskmodel.yamlio import parse_yaml

    try:
        return parse_yaml(text, where, kind="catalog file").data
    except InputError as exc:
        raise CatalogError(str(exc)) from None


def parse_catalog_file(text: str, where: str, *, shipped: bool = False) -> CatalogFile:
    """Validate one catalog file; a `CatalogError` names the file and each bad key path.
    `shipped`: one of diskmodel's own files, whose parse may be kept (`PARSED_FILE`)."""
    data = _shipped_data(text, where) if shipped else read_user_catalog_yaml(text, where)
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: a catalog file is a YAML mapping with schema_version: 1")
    try:
        return CatalogFile.model_validate(data, context={FROM_FILE: True})
    except ValidationError as exc:
        problems = "\n".join(
            f"  {_key_path(data, err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise CatalogError(f"{where}: invalid catalog entry\n{problems}") from None


def _key_path(data: Any, loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a key path, list items named by their `name` if they have one.

    ("drives", 3, "rpm") becomes "drives[15k-600].rpm", which is findable in the file.
    """
    parts: list[str] = []
    node = data
    for step in loc:
        if isinstance(step, int) and isinstance(node, list) and 0 <= step < len(node):
            node = node[step]
            name = node.get("name") if isinstance(node, dict) else None
            parts.append(f"[{name if isinstance(name, str) else step}]")
            continue
        node = node.get(step) if isinstance(node, dict) else None
        parts.append(f".{step}" if parts else str(step))
    return "".join(parts) or "(file)"


_Entry = StorageSystem | Drive | RaidFormat | FiconChannel | VolumeModel


def _entries(parsed: CatalogFile) -> list[tuple[str, _Entry]]:
    """(kind, entry) of every entry of one parsed file, in file order."""
    return [
        *(("system", s) for s in parsed.systems),
        *(("drive", d) for d in parsed.drives),
        *(("RAID format", r) for r in parsed.raid_formats),
        *(("FICON channel", c) for c in parsed.ficon_channels),
        *(("volume model", v) for v in parsed.volume_models),
    ]


def build_catalog(
    files: Iterable[tuple[str, str]],
    user_files: Iterable[tuple[str, str]] = (),
) -> Catalog:
    """Merge catalog files into one cross-checked `Catalog`.

    `files` are the shipped files, where a name may be defined once. `user_files` (a user's
    own, each (path, text)) come after them: an entry there adds a name, or replaces the
    shipped entry of the same name and kind; within the user's files, too, a name is defined
    once. A user's drive is offered on every system its `packaging` names (added to that
    system's `drives` when missing). `Catalog.origin` records each name's file."""
    user_files = list(user_files)
    tables: dict[str, dict[str, Any]] = {
        "system": {},
        "drive": {},
        "RAID format": {},
        "FICON channel": {},
        "volume model": {},
    }
    kind_of: dict[str, str] = {}
    defined_in: dict[str, str] = {}
    origin: dict[str, str] = {}
    for where, text in files:
        for kind, entry in _entries(parse_catalog_file(text, where, shipped=True)):
            if entry.name in defined_in:
                raise CatalogError(
                    f"{where}: {entry.name!r} is already defined in {defined_in[entry.name]}"
                )
            defined_in[entry.name] = where
            kind_of[entry.name] = kind
            origin[entry.name] = SHIPPED
            tables[kind][entry.name] = entry
    user_defined_in: dict[str, str] = {}
    for where, text in user_files:
        for kind, entry in _entries(parse_catalog_file(text, where)):
            key = f"{_TABLE_KEY[kind]}[{entry.name}]"
            if entry.name in user_defined_in:
                raise CatalogError(
                    f"{where}: {key}: {entry.name!r} is already defined in "
                    f"{user_defined_in[entry.name]}"
                )
            shipped_kind = kind_of.get(entry.name)
            if shipped_kind is not None and shipped_kind != kind:
                raise CatalogError(
                    f"{where}: {key}: {entry.name!r} is a {shipped_kind} in the shipped catalog; "
                    f"an entry replaces a shipped one only with one of the same kind (or choose "
                    "another name)"
                )
            user_defined_in[entry.name] = where
            kind_of[entry.name] = kind
            origin[entry.name] = where
            tables[kind][entry.name] = entry
    systems: dict[str, StorageSystem] = tables["system"]
    drives: dict[str, Drive] = tables["drive"]
    raid_formats: dict[str, RaidFormat] = tables["RAID format"]
    _offer_user_drives(systems, drives, origin)
    problems = cross_reference_problems(systems, drives, raid_formats)
    if problems:
        raise CatalogError(_inconsistent(problems, origin))
    try:
        return Catalog(
            systems=systems,
            drives=drives,
            raid_formats=raid_formats,
            ficon_channels=tables["FICON channel"],
            volume_models=tables["volume model"],
            origin=origin,
            user_files=tuple(where for where, _ in user_files),
        )
    except ValidationError as exc:  # pragma: no cover - the checks above come first
        details = "\n".join(f"  {err['msg']}" for err in exc.errors())
        raise CatalogError(f"hardware_catalog: inconsistent entries\n{details}") from None


_TABLE_KEY = {
    "system": "systems",
    "drive": "drives",
    "RAID format": "raid_formats",
    "FICON channel": "ficon_channels",
    "volume model": "volume_models",
}


def _offer_user_drives(
    systems: dict[str, StorageSystem], drives: dict[str, Drive], origin: dict[str, str]
) -> None:
    """A drive from a user's file is offered on each system its packaging names: add it to
    that system's `drives` where missing (the shipped files must list it on both sides)."""
    for drive in drives.values():
        if origin.get(drive.name, SHIPPED) == SHIPPED:
            continue
        for system_name in drive.packaging:
            system = systems.get(system_name)
            if system is not None and drive.name not in system.drives:
                systems[system_name] = system.model_copy(
                    update={"drives": [*system.drives, drive.name]}
                )


def _inconsistent(problems: list[tuple[tuple[str, ...], str, str]], origin: dict[str, str]) -> str:
    """The message for names that do not resolve: each problem under the file to fix, a
    user's file where one of the entries involved comes from one."""
    by_file: dict[str, list[str]] = {}
    for names, key, message in problems:
        users = [origin[n] for n in names if origin.get(n, SHIPPED) != SHIPPED]
        where = users[0] if users else "hardware_catalog"
        by_file.setdefault(where, []).append(f"  {key}: {message}")
    return "\n".join(
        f"{where}: inconsistent entries\n" + "\n".join(lines) for where, lines in by_file.items()
    )


def read_user_catalog_file(path: Path | str) -> tuple[str, str]:
    """(path as given, text) of a user's catalog file; `CatalogError` naming the file when it
    is missing, unreadable, not a regular file, too large or not UTF-8."""
    from diskmodel.yamlio import read_input_text

    try:
        return str(path), read_input_text(Path(path), MAX_USER_FILE_BYTES, "catalog")
    except InputError as exc:
        raise CatalogError(str(exc)) from None


@functools.cache
def _shipped_catalog() -> Catalog:
    return build_catalog(list(catalog_files()))


@functools.lru_cache(maxsize=16)
def _catalog_with(user_files: tuple[tuple[str, str], ...]) -> Catalog:
    return build_catalog(list(catalog_files()), user_files)


def load_catalog(extra: Sequence[Path | str] = ()) -> Catalog:
    """The catalog shipped with diskmodel, then the user's catalog files `extra` in order.

    The shipped catalog alone is loaded once, then cached; with `extra`, the files are read on
    every call and the catalog is cached by their paths and texts (an edited file is read
    anew). A file given twice is read once. `CatalogError` names the file and key path."""
    if not extra:
        return _shipped_catalog()
    seen: set[Path] = set()
    user_files: list[tuple[str, str]] = []
    for path in extra:
        resolved = Path(path).resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        user_files.append(read_user_catalog_file(path))
    return _catalog_with(tuple(user_files))
