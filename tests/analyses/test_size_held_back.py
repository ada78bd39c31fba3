"""A job the cost rule might skip later (`size._maybe_beaten`) is not solved ahead of its batch:
on the shipped growth search the one configuration the bounds skip is then never solved, and
is the only one held back; every job any rule-B skip names is among those held back (the
condition is necessary)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from diskmodel.analyses import size, size_try
from diskmodel.analyses.size_try import SizingCandidate, SizingContext, SizingJob
from diskmodel.catalog import load_catalog
from diskmodel.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["ds8800-size-for-growth", "ds8800-size-ssd-for-1ms"])
def test_what_the_cost_rule_skips_is_held_back_and_never_solved(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = load_catalog()
    scenario = load_scenario(ROOT / "scenarios" / f"{name}.yaml", catalog)
    solved: list[tuple[object, ...]] = []
    held: list[set[int]] = []
    tried = size_try.try_configurations
    beaten = size._maybe_beaten

    def counting(jobs: Sequence[SizingJob], context: SizingContext) -> list[SizingCandidate]:
        solved.extend(job.choice for job in jobs)
        return tried(jobs, context)

    def holding(*args: object) -> set[int]:
        out = beaten(*args)  # type: ignore[arg-type]
        held.append(out)
        return out

    monkeypatch.setattr(size_try, "try_configurations", counting)
    monkeypatch.setattr(size, "_maybe_beaten", holding)
    pruned = size.size_scenario(scenario, catalog, workers=1, prune=True)
    full = size.size_scenario(scenario, catalog, workers=1, prune=False)
    skipped = {p.choice for p in pruned.pruned}
    by_cost = {p.choice for p in pruned.pruned if p.bound in ("cost", "service level")}
    assert not skipped & set(solved[: len(solved) - len(full.candidates)])  # never solved
    assert len(solved) - len(full.candidates) == len(pruned.candidates)  # each solved once
    assert {c.choice for c in full.candidates} == {c.choice for c in pruned.candidates} | skipped
    jobs, _ = size._jobs(
        scenario.corner("central"),
        catalog,
        scenario.analyses.size.prices,  # type: ignore[union-attr]
    )
    index = {job.choice: i for i, job in enumerate(jobs)}
    assert {index[c] for c in by_cost} <= held[0]
    if name == "ds8800-size-for-growth":
        assert len(by_cost) == 1  # the one configuration skipped, and saved
        # ... and the only one held back: one beaten by the bounds only by a job of its own
        # batch (which rule B cannot skip) is solved ahead, not in a pass of its own.
        assert held[0] == {index[c] for c in by_cost}
