"""Array types and the freezing helpers every result dataclass in this package uses."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]
ArrayT = TypeVar("ArrayT", bound=np.ndarray)


def frozen(values: ArrayLike) -> FloatArray:
    """A read-only float64 copy: results are values, so a caller cannot edit one in place."""
    out = np.array(values, dtype=np.float64)
    out.setflags(write=False)
    return out


def sealed(values: ArrayT) -> ArrayT:
    """Make a solver's own freshly computed array read-only in place (no copy)."""
    values.setflags(write=False)
    return values


def frozen_bool(values: ArrayLike) -> BoolArray:
    out = np.array(values, dtype=np.bool_)
    out.setflags(write=False)
    return out


def frozen_int(values: ArrayLike) -> IntArray:
    out = np.array(values, dtype=np.int64)
    out.setflags(write=False)
    return out
