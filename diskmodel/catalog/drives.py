"""The catalog's drives: each drive type's figures, and how each storage system packages it
(interface, form factor and the figures that packaging states for itself).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from diskmodel.catalog.figures import Sourced
from diskmodel.vocabulary import TierName

PACKAGED_FIGURES: tuple[str, ...] = (
    "avg_seek_read_ms",
    "avg_seek_write_ms",
    "full_stroke_seek_read_ms",
    "full_stroke_seek_write_ms",
    "track_to_track_seek_read_ms",
    "track_to_track_seek_write_ms",
    "media_transfer_mb_s",
    "controller_overhead_ms",
    "power_w",
)
"""Drive figures a packaging may state for itself (a 2.5-inch SAS drive seeks faster than the
3.5-inch FC drive of the same capacity and speed); the others belong to the drive type."""


class Packaging(Sourced):
    """How a drive is packaged on one storage system: its interface, its form factor and the
    figures of that packaging where they differ from the drive's own (`PACKAGED_FIGURES`;
    None: the drive's figure holds)."""

    interface: str
    form_factor_in: float = Field(gt=0)
    avg_seek_read_ms: float | None = Field(default=None, gt=0)
    avg_seek_write_ms: float | None = Field(default=None, gt=0)
    full_stroke_seek_read_ms: float | None = Field(default=None, gt=0)
    full_stroke_seek_write_ms: float | None = Field(default=None, gt=0)
    track_to_track_seek_read_ms: float | None = Field(default=None, gt=0)
    track_to_track_seek_write_ms: float | None = Field(default=None, gt=0)
    media_transfer_mb_s: float | None = Field(default=None, gt=0)
    controller_overhead_ms: float | None = Field(default=None, ge=0)
    power_w: float | None = Field(default=None, gt=0)

    def overrides(self) -> dict[str, float]:
        """The figures this packaging states for itself."""
        return {k: v for k in PACKAGED_FIGURES if (v := getattr(self, k)) is not None}


class Drive(Sourced):
    """One drive type. HDD-only figures are 0 for SSDs and SSD-only figures 0 for HDDs.

    HDD service time at queue length 1 is seek + half a rotation + transfer + controller
    overhead; SSD service time is `ssd_read_service_ms` / `ssd_write_service_ms` for one small
    (4 KiB) random I/O, and `ssd_parallelism` requests are served at once. `packaging` says
    which systems offer the drive, and how; a packaging may carry its own figures, and
    `Catalog.installed_drive` gives the drive as one system installs it (the top-level
    figures hold where the packaging states none).
    """

    name: str
    kind: Literal["hdd", "ssd"]
    tier: TierName
    capacity_gb: float = Field(gt=0)
    rpm: float = Field(ge=0)
    avg_seek_read_ms: float = Field(ge=0)
    avg_seek_write_ms: float = Field(ge=0)
    full_stroke_seek_read_ms: float = Field(ge=0)
    full_stroke_seek_write_ms: float = Field(ge=0)
    track_to_track_seek_read_ms: float = Field(ge=0)
    track_to_track_seek_write_ms: float = Field(ge=0)
    media_transfer_mb_s: float = Field(gt=0)
    controller_overhead_ms: float = Field(ge=0)
    command_queue_depth: int = Field(ge=1)
    ssd_read_service_ms: float = Field(ge=0)
    ssd_write_service_ms: float = Field(ge=0)
    ssd_parallelism: int = Field(ge=0)
    power_w: float = Field(gt=0)
    packaging: dict[str, Packaging]

    @property
    def rotation_ms(self) -> float:
        """Time of one full revolution, 60000 / rpm (0 for an SSD)."""
        return 60_000.0 / self.rpm if self.rpm else 0.0

    @property
    def avg_rotational_latency_ms(self) -> float:
        """Average rotational latency, half a revolution: 30000 / rpm (0 for an SSD)."""
        return self.rotation_ms / 2.0

    @model_validator(mode="after")
    def _kind_is_consistent(self) -> Drive:
        hdd_fields = {
            "rpm": self.rpm,
            "avg_seek_read_ms": self.avg_seek_read_ms,
            "avg_seek_write_ms": self.avg_seek_write_ms,
            "full_stroke_seek_read_ms": self.full_stroke_seek_read_ms,
            "full_stroke_seek_write_ms": self.full_stroke_seek_write_ms,
            "track_to_track_seek_read_ms": self.track_to_track_seek_read_ms,
            "track_to_track_seek_write_ms": self.track_to_track_seek_write_ms,
        }
        ssd_fields = {
            "ssd_read_service_ms": self.ssd_read_service_ms,
            "ssd_write_service_ms": self.ssd_write_service_ms,
            "ssd_parallelism": self.ssd_parallelism,
        }
        if self.kind == "ssd":
            if self.tier != "ssd":
                raise ValueError(f"an SSD belongs to tier 'ssd', not {self.tier!r}")
            must_be_zero, must_be_positive = hdd_fields, ssd_fields
        else:
            if self.tier == "ssd":
                raise ValueError("an HDD cannot be in tier 'ssd'")
            must_be_zero, must_be_positive = ssd_fields, hdd_fields
        for key, value in must_be_zero.items():
            if value != 0:
                raise ValueError(f"{key} must be 0 for a drive of kind {self.kind!r}")
        for key, value in must_be_positive.items():
            if value <= 0:
                raise ValueError(f"{key} must be > 0 for a drive of kind {self.kind!r}")
        if not self.packaging:
            raise ValueError("packaging must name at least one system that offers the drive")
        if self.kind == "hdd":
            for system, packaging in self.packaging.items():
                _check_seek_figures(self, packaging.overrides(), system)
        if self.kind == "ssd":
            for system, packaging in self.packaging.items():
                hdd_only = set(packaging.overrides()) - {
                    "media_transfer_mb_s",
                    "controller_overhead_ms",
                    "power_w",
                }
                if hdd_only:
                    raise ValueError(
                        f"packaging {system!r} of an SSD states HDD figures {sorted(hdd_only)}"
                    )
        return self

    def as_packaged(self, system: str) -> Drive:
        """This drive with the figures of its packaging for `system` (KeyError: not offered)."""
        packaging = self.packaging[system]
        overrides = packaging.overrides()
        if not overrides:
            return self
        provenance = {
            **self.provenance,
            **{k: packaging.provenance[k] for k in overrides if k in packaging.provenance},
        }
        return self.model_copy(update={**overrides, "provenance": provenance})


def _check_seek_figures(drive: Drive, packaged: dict[str, float], system: str) -> None:
    """ValueError unless the drive's read and write seek figures as installed on `system` (its
    own, or the packaging's where `packaged` states them, as `Drive.as_packaged` gives them)
    admit a seek curve: `components.seek.curve_ratio`, the only refusal of `SeekCurve.fit`
    (the fit itself is the model's, for the drives it installs)."""
    from diskmodel.components.seek import curve_ratio  # deferred: components import the catalog

    for op in ("read", "write"):
        keys = (f"track_to_track_seek_{op}_ms", f"avg_seek_{op}_ms", f"full_stroke_seek_{op}_ms")
        values = [float(packaged.get(key, getattr(drive, key))) for key in keys]
        try:
            curve_ratio(*values)
        except ValueError as exc:
            given = ", ".join(f"{k} {v:g}" for k, v in zip(keys, values, strict=True))
            raise ValueError(f"as installed on {system!r} ({given}): {exc}") from None
