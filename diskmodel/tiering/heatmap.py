"""Skew curves measured per extent: a CSV heat map of small-I/O counts and MB per extent.

File format (one header line, then one line per extent, comma separated)::

    extent_id,small_io_count,mb
    0,18234,71.2
    1,12,913.0

``extent_id`` is any text, unique per line; ``small_io_count`` (small random I/Os seen in the
monitoring window, what Easy Tier counts) and ``mb`` (MB transferred by all I/O) are
non-negative numbers. Every extent is the same size (DS8000 extents are 1 GiB), so the hottest
fraction c of the capacity is the hottest fraction c of the lines.

Two curves come out, both ranked by small-I/O count (the order Easy Tier places extents in):

- ``small_io``: the cumulative small-I/O share of the hottest extents; concave by construction.
- ``mb``: the cumulative MB share of the *same* extents, which is what a tier receives in MB/s
  when Easy Tier fills it by small-I/O heat. It is usually far less skewed (DOMAIN.md C4: the
  top 10% by small I/O carries a little over 30% of the MB) and need not be concave, because
  an extent's MB does not fall steadily with its small-I/O count.
"""

from __future__ import annotations

import csv
import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.errors import InputError
from diskmodel.tiering.curves import PiecewiseSkew
from diskmodel.yamlio import read_input_text, resolve_in_folder

HEATMAP_COLUMNS = ("extent_id", "small_io_count", "mb")


MAX_HEATMAP_BYTES = 50_000_000
"""About 1.5 million extents of 1 GiB (1.5 PB); a larger file is not a heat map of one pool."""
MAX_HEATMAP_EXTENTS = 3_000_000
"""Extents read from all the heat maps of one run together, and from one file: its lines are
counted before any is parsed (a 50 MB file of 3.24 million short rows was refused only after
33 s and 1.5 GB, once parsed: issue 33 item 8)."""


class HeatMapError(InputError, ValueError):
    """A heat map file or array that cannot give a skew curve; the message names file and line.

    An `InputError`, so that the command line reports it as the user's input problem (exit
    code 3) rather than a traceback (found by fuzzing); still a `ValueError` for array callers.
    """


@dataclass(frozen=True)
class HeatMap:
    """Skew curves measured per extent, with the totals they were normalised by."""

    small_io: PiecewiseSkew
    mb: PiecewiseSkew
    extent_count: int
    total_small_io: float
    total_mb: float


def _cumulative_curve(values_in_rank_order: np.ndarray) -> PiecewiseSkew:
    """Knots (i/n, share of the first i values) for i = 0..n."""
    n = values_in_rank_order.size
    cumulative = np.concatenate([[0.0], np.cumsum(values_in_rank_order)])
    shares = cumulative / cumulative[-1]
    shares[-1] = 1.0  # exact end point despite rounding in the running sum
    return PiecewiseSkew(tuple(np.arange(n + 1) / n), tuple(np.maximum.accumulate(shares)))


def heatmap_from_counts(
    small_io_counts: ArrayLike, mb: ArrayLike, source: str = "heat map"
) -> HeatMap:
    """Both curves from per-extent small-I/O counts and MB (equal-sized extents).

    Extents are ranked by small-I/O count, highest first; ties are broken by MB, highest
    first (the order is then deterministic and the MB curve as skewed as the data allow).
    """
    counts = np.asarray(small_io_counts, dtype=np.float64)
    mbs = np.asarray(mb, dtype=np.float64)
    if counts.ndim != 1 or counts.shape != mbs.shape or counts.size == 0:
        raise HeatMapError(f"{source}: needs one small-I/O count and one MB figure per extent")
    if not (np.all(np.isfinite(counts)) and np.all(np.isfinite(mbs))):
        raise HeatMapError(f"{source}: counts and MB must be finite numbers")
    if np.any(counts < 0.0) or np.any(mbs < 0.0):
        raise HeatMapError(f"{source}: counts and MB must not be negative")
    with np.errstate(over="ignore"):
        totals_finite = np.isfinite(counts.sum()) and np.isfinite(mbs.sum())
    if not totals_finite:  # two counts of 1e308 add up to infinity (found by fuzzing)
        raise HeatMapError(f"{source}: counts or MB too large to add up (above 1.8e308 in all)")
    if counts.sum() <= 0.0:
        raise HeatMapError(f"{source}: no small I/O at all, so there is no skew to measure")
    if mbs.sum() <= 0.0:
        raise HeatMapError(f"{source}: no MB transferred at all, so there is no MB curve")
    # lexsort sorts by the last key first: small-I/O count descending, then MB descending.
    order = np.lexsort((-mbs, -counts))
    return HeatMap(
        small_io=_cumulative_curve(counts[order]),
        mb=_cumulative_curve(mbs[order]),
        extent_count=int(counts.size),
        total_small_io=float(counts.sum()),
        total_mb=float(mbs.sum()),
    )


def _clip(text: str, limit: int = 60) -> str:
    """A cell quoted in a message: only once the header has shown the file is a heat map."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _rows(rows: Iterator[list[str]], path: Path) -> Iterator[list[str]]:
    """The CSV rows, a malformed one (a NUL byte, a field too large) reported by line."""
    line_no = 1
    while True:
        line_no += 1
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error:
            raise HeatMapError(
                f"{path}, line {line_no}: not CSV (a NUL byte, an unclosed quote or a field "
                "too large)"
            ) from None
        yield row


_LINE_BREAKS = ("\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
"""What `str.splitlines` breaks a line at (with "\r\n" as one)."""


def _line_count(text: str) -> int:
    """The lines `text.splitlines()` gives, counted without making them."""
    breaks = sum(text.count(b) for b in _LINE_BREAKS) - text.count("\r\n")
    return breaks + (bool(text) and not text.endswith(_LINE_BREAKS))


def load_heatmap_csv(path: Path | str) -> HeatMap:
    """Read a heat map CSV (see the module docstring for the format).

    A message quotes the file's content only once its first line is the heat-map header
    (a cell that is not a number, a repeated extent id, at most 60 characters): a scenario
    may name any file as its heat map, and a file that is not one is never echoed (hostile
    testing found a scenario naming `/etc/shadow` printing the start of a password hash).
    """
    path = Path(path)
    try:
        text = read_input_text(path, MAX_HEATMAP_BYTES, "heat map")
    except InputError as exc:
        raise HeatMapError(f"cannot read heat map: {exc}") from None
    lines = _line_count(text)
    if lines > MAX_HEATMAP_EXTENTS + 1:
        raise HeatMapError(
            f"{path}: {lines:,} lines; a heat map holds at most {MAX_HEATMAP_EXTENTS:,} "
            "extents (a line each after its header, 3 PB of 1 GiB extents): give the heat "
            "map of one pool"
        )
    rows = csv.reader(text.splitlines())
    try:
        header = next(rows, None)
    except csv.Error:
        raise HeatMapError(f"{path}, line 1: not CSV; a heat map is a CSV file") from None
    if header is None or tuple(h.strip().lower() for h in header) != HEATMAP_COLUMNS:
        got = (
            "an empty file"
            if not header
            else f"a first line of {len(header)} field(s) with other names, so this is not a "
            "heat map (its content is not shown)"
        )
        raise HeatMapError(f"{path}, line 1: header must be {','.join(HEATMAP_COLUMNS)}, got {got}")
    first_line: dict[str, int] = {}
    counts: list[float] = []
    mbs: list[float] = []
    for line_no, row in enumerate(_rows(rows, path), start=2):
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(HEATMAP_COLUMNS):
            raise HeatMapError(f"{path}, line {line_no}: expected 3 columns, got {len(row)}")
        extent_id = row[0].strip()
        if extent_id in first_line:
            raise HeatMapError(
                f"{path}, line {line_no}: extent_id {_clip(extent_id)!r} appears twice "
                f"(first on line {first_line[extent_id]})"
            )
        first_line[extent_id] = line_no
        for column, cell, sink in (("small_io_count", row[1], counts), ("mb", row[2], mbs)):
            try:
                value = float(cell)
            except ValueError:
                raise HeatMapError(
                    f"{path}, line {line_no}: {column} {_clip(cell.strip())!r} is not a number"
                ) from None
            if not np.isfinite(value) or value < 0.0:
                raise HeatMapError(
                    f"{path}, line {line_no}: {column} must be a non-negative number, got {value}"
                )
            sink.append(value)
    if not counts:
        raise HeatMapError(f"{path}: no extents after the header")
    return heatmap_from_counts(counts, mbs, source=str(path))


PSEUDO_FILE_SYSTEMS = ("/proc", "/sys", "/dev")
"""Folders whose files describe the running system (environment, memory, devices); never a
heat map, not even when paths outside the scenario's folder are allowed."""

_CACHE_ENTRIES = 8
_cache: OrderedDict[tuple[str, int, int, int, int], HeatMap] = OrderedDict()
_CACHE_LOCK = threading.Lock()
"""`_cache`'s bookkeeping from several threads (a Dask worker's: `model.kept.Kept`); the
file is read outside it."""


def heatmap_path(reference: str, base_dir: Path | None, *, allow_outside: bool = False) -> Path:
    """The file a scenario's `heatmap: REFERENCE` names, or `HeatMapError` if the policy
    refuses it.

    The policy (docs/SECURITY.md): a heat map is a CSV file in the scenario's folder
    `base_dir` (the current directory when None) or below it, links resolved; a path that
    leads outside, through `..`, an absolute path or a symbolic link, is refused unless
    `allow_outside` (the command line's `--allow-outside-heatmaps`). Files of `/proc`, `/sys`
    and `/dev` are refused always.
    """
    if "\0" in reference:
        raise HeatMapError("the heat map's file name holds a NUL byte")
    real, root, inside = resolve_in_folder(reference, base_dir)
    if any(real == Path(p) or Path(p) in real.parents for p in PSEUDO_FILE_SYSTEMS):
        raise HeatMapError(
            f"heat map '{reference}' leads to {real}, a file of the running system, not a "
            "heat map; refused"
        )
    if not (inside or allow_outside):
        raise HeatMapError(
            f"heat map '{reference}' is outside the scenario's folder ({root}); diskmodel "
            "reads heat maps only from there, so that a scenario from someone else cannot "
            "read your other files. Move the CSV beside the scenario, or pass "
            "--allow-outside-heatmaps if you trust it"
        )
    return real


def read_heatmap(
    reference: str,
    base_dir: Path | None,
    *,
    allow_outside: bool = False,
    where: str | None = None,
) -> HeatMap:
    """The heat map a scenario names: `reference` as written in the file, relative to the
    scenario's folder `base_dir` (the current directory when None).

    The one place a scenario's heat map is opened: the path policy of `heatmap_path` first
    (outside the folder only with `allow_outside`), then the file read as in
    `load_heatmap_csv`. `where` ("s.yaml:14: workloads[0].skew.heatmap") starts every
    message when given. A file read once is kept (by its identity, size and modification
    time) for the next call: every configuration of a scenario shares its heat maps.
    """
    try:
        path = heatmap_path(reference, base_dir, allow_outside=allow_outside)
        try:
            info = os.stat(path)
        except OSError:
            info = None
        key = (
            (str(path), info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
            if info is not None and stat.S_ISREG(info.st_mode)
            else None
        )
        if key is not None:
            with _CACHE_LOCK:
                found = _cache.get(key)
                if found is not None:
                    _cache.move_to_end(key)
                    return found
        heat = load_heatmap_csv(path)
    except HeatMapError as exc:
        if where is None:
            raise
        raise HeatMapError(f"{where}: {exc}") from None
    if key is not None:
        with _CACHE_LOCK:
            _cache[key] = heat
            while len(_cache) > _CACHE_ENTRIES:
                _cache.popitem(last=False)
    return heat
