"""The catalog's z/OS attachment: FICON channel generations and CKD (3390) volume models.

A FICON channel (CHPID) on the host is a queue every z/OS I/O crosses: its processor's work
per I/O (`zhpf_per_io_us` in transport mode, `command_per_io_us` in command mode, the inverse
of the channel's published maximum I/O rate) plus the transfer at `bandwidth_mb_s` (the link's
payload rate per direction). Part of the light-load front-end time that RMF reports as PEND
(the channel subsystem's start and the initial command response, `pend_light_us`) is the
channel generation's; the rest of that fixed time is connected (CONN).

A 3390 volume model is a number of cylinders of `tracks_per_cylinder` tracks of
`track_bytes` bytes each; its capacity follows, and a record size fixes how many records a
track holds (`records_per_track`).
"""

from __future__ import annotations

import math

from pydantic import Field

from diskmodel.catalog.figures import Sourced


class FiconChannel(Sourced):
    """A FICON Express channel generation (one channel, CHPID type FC)."""

    name: str
    generation: str
    link_gbps: float = Field(gt=0)
    bandwidth_mb_s: float = Field(gt=0)
    zhpf_per_io_us: float = Field(gt=0)
    command_per_io_us: float = Field(gt=0)
    pend_light_us: float = Field(ge=0)

    def per_io_us(self, zhpf: bool) -> float:
        """The channel's work for one I/O in transport (zHPF) or command mode."""
        return self.zhpf_per_io_us if zhpf else self.command_per_io_us


class VolumeModel(Sourced):
    """A CKD volume model (3390-3, -9, -27, -54, an EAV): its cylinders and track geometry."""

    name: str
    cylinders: int = Field(gt=0)
    tracks_per_cylinder: int = Field(gt=0)
    track_bytes: int = Field(gt=0)

    @property
    def capacity_bytes(self) -> float:
        """Bytes the volume holds, tracks full: cylinders x tracks x track bytes."""
        return float(self.cylinders * self.tracks_per_cylinder * self.track_bytes)

    def data_bytes(self, record_bytes: float) -> float:
        """Bytes of data the volume holds in records of `record_bytes`: every track holds
        `records_per_track` of them (4 KiB records fill 49,152 of a track's 56,664 bytes); a
        record longer than a track spans whole tracks."""
        tracks = self.cylinders * self.tracks_per_cylinder
        if record_bytes > self.track_bytes:
            return float(tracks // math.ceil(record_bytes / self.track_bytes) * record_bytes)
        return float(tracks * self.records_per_track(record_bytes) * record_bytes)

    def records_per_track(self, record_bytes: float) -> int:
        """Whole records of `record_bytes` (no key) one 3390 track holds, at least 1 (a longer
        record spans tracks): the device's track-capacity formula in 32-byte cells,
        floor(CELLS / (RECORD0_CELLS + COUNT_CELLS + ceil((d + 6 ceil((d + 6) / 232) + 6) /
        34))), which gives the published 12 records of 4,096 bytes, 2 of 27,998 (half-track
        blocking) and 1 of 56,664 (a full track)."""
        d = math.ceil(record_bytes)
        data_cells = math.ceil((d + 6 * math.ceil((d + 6) / 232) + 6) / 34)
        return max(1, TRACK_CELLS // (RECORD_CELLS + data_cells))


TRACK_CELLS = 1729
"""A 3390 track's capacity in 34-byte cells (IBM 3390 Direct Access Storage reference, its
track-capacity formula)."""
RECORD_CELLS = 10 + 9
"""Cells every record takes besides its data in that formula (count area and gaps): checked by
the published records per track (tests/test_zos_catalog.py)."""
