"""`diskmodel size` for the terminal: the answer in a few lines, then the Pareto front.

Reads the `SizingResult` only; numbers shown by the shared display rules.
"""

from __future__ import annotations

from diskmodel.prediction import SizingCandidate, SizingResult
from diskmodel.report import display
from diskmodel.report.table import Output, TextTable, table, to_text


def choice_text(c: SizingCandidate) -> str:
    parts = []
    for name, count in c.choice:
        if name == "da_pairs":
            parts.append(f"{count:g} DA pairs")
        elif name == "host_ports":
            parts.append(f"{count:g} host ports")
        elif name == "cache_gb":
            parts.append(f"{count:g} GB cache")
        elif name == "processor_ways":
            parts.append(f"{count:g}-way")
        else:
            parts.append(f"{count:g} x {name}")
    return ", ".join(parts)


def cost_text(c: SizingCandidate) -> str:
    drives = f"{c.drives:,} drives, {c.power_w:,.0f} W"
    return f"{c.price:,.0f} ({drives})" if c.price is not None else drives


def _ms(value: float | None) -> str:
    return display.milliseconds(value) if value is not None else display.SATURATED_TEXT


def verdict(c: SizingCandidate) -> str:
    if c.error is not None:
        return "not possible"
    if c.meets:
        return "meets"
    return f"breaks {c.broken_in}: {c.binding}"


def answer_lines(r: SizingResult) -> list[str]:
    last = r.periods[-1]
    through = "now" if len(r.periods) == 1 else f"now and through {last}"
    ranked = "price" if r.objective == "price" else "drive count, then power"
    current = r.candidates[0]
    lines = [
        f"Sizing: {r.scenario}: {len(r.candidates)} configurations tried ({r.method}), ranked "
        f"by {ranked}; the service level must hold {through}.",
        f"current: {choice_text(current)}: {cost_text(current)}, "
        f"{_ms(current.response_time_ms)} ms now; {verdict(current)}",
    ]
    if r.cheapest is None:
        lines.append("no configuration tried meets the service level " + through)
    else:
        best = r.candidates[r.cheapest]
        lines.append(
            f"cheapest meeting it: {choice_text(best)}: {cost_text(best)}, "
            f"{_ms(best.response_time_ms)} ms now, busiest {best.busiest} "
            f"{display.percent(best.busiest_utilization)}"
        )
    if r.cheapest_upgrade is None:
        lines.append("no upgrade of the current configuration tried meets it")
    elif r.cheapest_upgrade == 0:
        lines.append("cheapest upgrade: none needed, the current configuration meets it")
    else:
        up = r.candidates[r.cheapest_upgrade]
        lines.append(
            f"cheapest upgrade of the current configuration: {choice_text(up)}: {cost_text(up)}"
        )
    impossible = [c for c in r.candidates if c.error is not None]
    if impossible:
        lines.append(
            f"{len(impossible)} not possible, e.g. {choice_text(impossible[0])}: "
            f"{impossible[0].error}"
        )
    return lines


def _front(r: SizingResult) -> TextTable:
    names = [name for name, _ in r.candidates[0].choice]
    rows = []
    for i in r.front:
        c = r.candidates[i]
        mark = " *" if i == r.cheapest else (" (current)" if i == 0 else "")
        rows.append(
            [
                *(f"{count:g}" for _, count in c.choice),
                f"{c.price:,.0f}" if c.price is not None else "-",
                f"{c.drives:,}",
                f"{c.power_w:,.0f}",
                _ms(c.response_time_ms),
                verdict(c) + mark,
            ]
        )
    return table(
        [*names, "price", "drives", "power W", "resp ms now", "service level"],
        rows,
        title="Pareto front: cost against response time now (* the cheapest meeting the "
        "service level)",
    )


def sizing_parts(r: SizingResult) -> list[str | TextTable]:
    """The sizing answer and its front, as lines and a table."""
    return ["\n".join(answer_lines(r)), _front(r)]


def render(r: SizingResult, output: Output | None = None) -> str:
    """The sizing answer and its front as terminal text."""
    return to_text(sizing_parts(r), output)
