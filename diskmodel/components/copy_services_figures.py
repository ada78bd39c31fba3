"""The copy services figures (`copy_services.yaml` beside this module), each with its source:
light in fibre, PPRC round trips per write, Global Mirror's coordination and formation times,
the links' usable share of their payload rate, the Fibre Channel payload per Gb/s, the track
FlashCopy copies.

Read once per process (a small file of constants, the same for every scenario); the
Configuration lists them with their provenance among the figures a prediction used.
"""

from __future__ import annotations

import functools
from importlib.resources import files

from pydantic import Field
from ruamel.yaml import YAML

from diskmodel.catalog import Sourced
from diskmodel.catalog.figures import FROM_FILE

FIGURES_FILE = "copy_services.yaml"


class CopyServicesFigures(Sourced):
    """The figures, in the units of their names (one-way fibre delay per km, milliseconds of
    coordination, seconds of formation, MB/s of payload per Gb/s of link speed, KiB)."""

    fibre_us_per_km: float = Field(gt=0)
    round_trips_per_write: float = Field(gt=0)
    coordination_ms: float = Field(ge=0)
    formation_s: float = Field(ge=0)
    link_efficiency: float = Field(gt=0, le=1)
    fc_payload_mb_s_per_gbps: float = Field(gt=0)
    track_kib: float = Field(gt=0)


@functools.cache
def copy_services_figures() -> CopyServicesFigures:
    """The shipped figures, validated (every one sourced, within its range)."""
    text = (files("diskmodel.components") / FIGURES_FILE).read_text(encoding="utf-8")
    data = YAML(typ="safe", pure=True).load(text)
    return CopyServicesFigures.model_validate(data["copy_services"], context={FROM_FILE: True})
