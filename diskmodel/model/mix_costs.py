"""A configuration's operation costs shared between its workloads of one I/O mix.

`OpCosts` keeps each workload's costs under the workload's index, though they depend only on
its mix (`IoMix`), the rank and the span: `span_free` is built from the mix and the rank,
`of` from those shapes and the span, `op_table` from `of` and the mix's fractions. A pool
of many workloads with one mix (64 volumes of one database) then evaluates the same drive
physics once per workload: 61,056 drive services for some 1,000 distinct inputs in a run of
64 such workloads (issue 30 item 5). `MixCosts` asks `OpCosts` under the index of the first
workload seen with each mix, so each distinct (mix, drive, RAID format, span) is evaluated
once per configuration, and every figure is the one `OpCosts` gives for the workload itself.
The `Solver` owns one per configuration (per-configuration state, not a module-level cache).
"""

from __future__ import annotations

import dataclasses

from diskmodel.configuration import Configuration, Rank
from diskmodel.model.costs import FloatArray, OpCost, OpCosts, OpShape
from diskmodel.workload import IoMix


def mix_key(mix: IoMix) -> tuple[object, ...]:
    """Every field of `mix`, hashable (its class fractions as sorted pairs)."""
    return tuple(
        tuple(sorted(value.items())) if isinstance(value, dict) else value
        for value in (getattr(mix, f.name) for f in dataclasses.fields(mix))
    )


class MixCosts(OpCosts):
    """`OpCosts` whose workloads of one mix share their entries (module docstring)."""

    def __init__(self, config: Configuration) -> None:
        super().__init__(config)
        # Per workload index, the index its costs are kept under; per mix, the first index.
        # As with `OpCosts`, an index always comes with its own workload's mix.
        self._kept_as: dict[int, int] = {}
        self._first: dict[tuple[object, ...], int] = {}

    def _kept(self, w: int, mix: IoMix) -> int:
        """The index of the first workload asked for with `mix`."""
        kept = self._kept_as.get(w)
        if kept is None:
            kept = self._kept_as[w] = self._first.setdefault(mix_key(mix), w)
        return kept

    def of(self, w: int, mix: IoMix, rank: Rank, span: float) -> tuple[OpCost, ...]:
        return super().of(self._kept(w, mix), mix, rank, span)

    def op_table(self, w: int, mix: IoMix, rank: Rank, span: float) -> FloatArray:
        return super().op_table(self._kept(w, mix), mix, rank, span)

    def span_free(self, w: int, mix: IoMix, rank: Rank) -> tuple[OpShape, ...]:
        return super().span_free(self._kept(w, mix), mix, rank)
