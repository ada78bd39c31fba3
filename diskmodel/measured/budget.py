"""The computing a calibration may do: estimated before any of it, and held to while it runs.

`diskmodel run` refuses a scenario estimated above `MAX_WORK_S` of computing
(`scenario.work`). Calibration multiplies a run's cost differently: every evaluation of the
model solves one operating point per interval it fits, and a fit takes many evaluations, more
with every parameter (each step of the least squares takes a Jacobian, one evaluation per
parameter). Hostile testing found a 16-workload scenario whose `run` was estimated at 7 s
calibrating past 135 s of CPU (issue 33 item 1). So a calibration is held to the same bound:

- Before any evaluation, the least it needs is estimated: the start (the coarse grid, walked
  for every workload at once and then for each alone), a fit of `FIT_STEPS` steps, a check of
  each parameter's interval and the last evaluation, each evaluation costing one planned
  operating point (`scenario.work.planned_point_s`, an upper bound) per interval. Above
  `MAX_WORK_S` it is refused, with a message naming what to lower.
- While it runs, the evaluations are counted against what `MAX_WORK_S` buys at that cost
  (`Evaluations.limit`): the fit is given at most the steps left, and a parameter's profile
  that would go past the limit is cut short and said to be (`WorkBoundError`); the last
  evaluation, the residuals' at the fit, is kept in reserve.
"""

from __future__ import annotations

from dataclasses import dataclass

from diskmodel.analyses.budget import MAX_WORK_S, planned_point_s, startup_s
from diskmodel.catalog import Catalog
from diskmodel.errors import InputError
from diskmodel.scenario import Scenario

FIT_STEPS = 20
"""Steps of the least squares a calibration needs at the least, for the estimate made before
any work. Measured over the test suite's calibrations and the shipped example (6 intervals,
5 parameters: 13 steps): most fits take 5 to 13 steps, a few 18 to 50, one 97, and one ran to
scipy's own limit of 100 per parameter (400); a fit is allowed as many steps as the bound
leaves (`Evaluations.steps`), so this only decides what is refused outright."""


class WorkBoundError(Exception):
    """The evaluations a calibration may make are spent (caught where a profile is walked)."""


@dataclass
class Evaluations:
    """Model evaluations counted against `limit`; the last `reserve` are kept for the end."""

    limit: int
    count: int = 0
    reserve: int = 1

    def spend(self) -> None:
        """Count one evaluation, or raise `WorkBoundError` if none is left."""
        if self.count >= self.limit - self.reserve:
            raise WorkBoundError
        self.count += 1

    def last(self) -> None:
        """Release the reserve: the calibration's final evaluations."""
        self.reserve = 0

    def left(self, after: int = 0) -> int:
        """Evaluations left before the reserve, with `after` kept for what follows."""
        return self.limit - self.reserve - self.count - after

    def steps(self, parameters: int, after: int) -> int:
        """Steps a fit of `parameters` may take (each costs at most 1 + `parameters`
        evaluations) with `after` evaluations left over for what follows it; at most scipy's
        own default, 100 per parameter, so that a fit the bound does not reach is the fit it
        always was."""
        return max(0, min(100 * parameters, self.left(after) // (parameters + 1)))


def calibration_budget(
    scenario: Scenario,
    catalog: Catalog,
    *,
    intervals: int,
    parameters: int,
    figures: int,
    start: int,
    checks: int,
) -> Evaluations:
    """The evaluations a calibration of `parameters` parameters to `figures` figures over
    `intervals` intervals may make, or `InputError` naming what to lower when even its least
    (`start` evaluations, a fit of `FIT_STEPS` steps and `checks` more) is estimated above
    `MAX_WORK_S` (module docstring)."""
    evaluation_s = intervals * planned_point_s(scenario, catalog)
    least = start + FIT_STEPS * (parameters + 1) + checks + 1
    started = startup_s(scenario)
    seconds = started + least * evaluation_s
    if seconds > MAX_WORK_S:
        workloads = len(scenario.workloads)
        raise InputError(
            f"calibrate: fitting {parameters} parameters to {figures} measured figures over "
            f"{intervals} intervals needs at least about {seconds:,.0f} s of computing (each "
            f"evaluation of the model solves {intervals} operating points of {workloads} "
            f"workload(s), about {evaluation_s:.2g} s, and it takes at least {least:,} "
            f"evaluations); diskmodel runs at most about {MAX_WORK_S:.0f} s. Lower the "
            "intervals chosen (--peak), the workloads measured (calibrate a scenario of fewer "
            "workloads, or a pool at a time), the ranges given to fit, or the workloads "
            "sharing an Easy Tier pool"
        )
    return Evaluations(limit=max(int((MAX_WORK_S - started) / evaluation_s), least))
