"""scenarios/validation/figures.yaml as a model: each published figure, where the product's
result is read against it and how close is close enough; and the figures' text (four
significant figures, the unit).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from diskmodel.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "scenarios" / "validation"
MANIFEST = "figures.yaml"


def figure_number(x: float) -> str:
    """Four significant figures, thousands separated: stable text for the page."""
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    digits = max(0, 3 - math.floor(math.log10(abs(x))))
    return f"{x:.{digits}f}"


def unit_suffix(unit: str) -> str:
    return f" {unit}" if unit else ""


class Tolerance(BaseModel):
    """How close is close enough: `relative` (|predicted / published - 1| at most this) or
    `within` (the predicted value inside [low, high], stated in the published units)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    relative: float | None = Field(default=None, ge=0)
    within: tuple[float, float] | None = None

    @model_validator(mode="after")
    def _one(self) -> Tolerance:
        if (self.relative is None) == (self.within is None):
            raise ValueError("give exactly one of relative, within")
        return self


class FigureSpec(BaseModel):
    """One published figure and how the product's result is read against it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    figure: str = Field(min_length=1)  # the published figure's label, e.g. C9
    kind: Literal["validation", "fitted", "input"] = "validation"
    quantity: str = Field(min_length=1)
    source: str = Field(min_length=1)
    scenario: str | None = None
    read: str | list[str] | None = None
    over: str | list[str] | None = None
    scale: float = 1.0
    scale_basis: str = ""
    catalog: str | None = None  # entry.key@system, for kind input
    bottleneck: str | None = None
    published: float | tuple[float, float]
    published_text: str | None = None
    tolerance: Tolerance = Tolerance(relative=0.0)
    fitted: str = ""  # what was fitted to it (kind fitted)
    known_miss: str | None = None
    unit: str = ""

    @model_validator(mode="after")
    def _complete(self) -> FigureSpec:
        if self.kind == "input":
            if self.catalog is None:
                raise ValueError(f"{self.id}: an input figure names its catalog figure")
        elif self.scenario is None or self.read is None:
            raise ValueError(f"{self.id}: give the scenario and the field to read")
        if self.kind == "fitted" and not self.fitted:
            raise ValueError(f"{self.id}: a fitted figure says what was fitted to it")
        if isinstance(self.read, list) != isinstance(self.over, list) and self.over is not None:
            raise ValueError(f"{self.id}: read and over are both one path or both lists")
        return self

    @property
    def band(self) -> bool:
        """The prediction is an interval over several configurations (`read` is a list)."""
        return isinstance(self.read, list)

    @property
    def published_label(self) -> str:
        if self.published_text:
            return self.published_text
        if isinstance(self.published, tuple):
            low, high = self.published
            return f"{figure_number(low)}–{figure_number(high)}{unit_suffix(self.unit)}"
        return f"{figure_number(self.published)}{unit_suffix(self.unit)}"

    @property
    def tolerance_label(self) -> str:
        t = self.tolerance
        if t.within is not None:
            return f"within {figure_number(t.within[0])}–{figure_number(t.within[1])}"
        assert t.relative is not None
        if isinstance(self.published, tuple):
            return "the range" if t.relative == 0 else f"the range ± {t.relative:.0%}"
        return f"± {t.relative:.0%}"


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1]
    notes: list[str] = Field(default_factory=list)  # printed under the summary
    figures: list[FigureSpec]

    @model_validator(mode="after")
    def _unique(self) -> Manifest:
        ids = [f.id for f in self.figures]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"figure ids used twice: {', '.join(twice)}")
        return self


def load_manifest(folder: Path = FOLDER) -> Manifest:
    return Manifest.model_validate(load_yaml(folder / MANIFEST).data)
