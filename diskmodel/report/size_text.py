"""`diskmodel size` for the terminal: the answer in a few lines, then the Pareto front.

Reads the `SizingResult` only; numbers shown by the shared display rules.
"""

from __future__ import annotations

from diskmodel.prediction import SizingCandidate, SizingResult, no_more
from diskmodel.report import display
from diskmodel.report.table import Output, TextTable, table, to_text


def choice_text(c: SizingCandidate) -> str:
    parts = []
    for name, count in c.choice:
        if isinstance(count, str):  # the system model
            parts.append(count)
        elif name == "da_pairs":
            parts.append(f"{count:g} DA pair{'' if count == 1 else 's'}")
        elif name == "host_ports":
            parts.append(f"{count:g} host port{'' if count == 1 else 's'}")
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
        f"Sizing: {r.scenario}: {len(r.candidates) + len(r.pruned)} configurations offered "
        f"({r.method}), ranked by {ranked}; the service level must hold {through}.",
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
            + (f"; uneven placement: {best.uneven}" if best.uneven else "")
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
    lines.append(answer_sentence(r))
    impossible = [c for c in r.candidates if c.error is not None]
    if impossible:
        lines.append(
            f"{len(impossible)} not possible, e.g. {choice_text(impossible[0])}: "
            f"{impossible[0].error}"
        )
    return lines


def _no_more(a: SizingCandidate, b: SizingCandidate) -> bool:
    """`a` has no more of any choice than `b`, and less of one."""
    return no_more(a.choice, b.choice) and a.choice != b.choice


def answer_sentence(r: SizingResult) -> str:
    """The search's answer in one sentence: what holds the service level in every period, its
    response now and in the last period, and whether anything with less of a choice holds it."""
    through = "now" if len(r.periods) == 1 else f"now and through {r.periods[-1]}"
    level = " and ".join(r.service_level[:1]) or "the service level"
    if len(r.service_level) > 1:
        level += " with every utilisation ceiling"
    if r.cheapest is None:
        return f"Answer: no configuration tried holds {level} {through}."
    best = r.candidates[r.cheapest]
    what = "the cheapest" if r.objective == "price" else "the fewest drives (then the least power)"
    times = [
        f"{_ms(t)} ms {'now' if period == 'now' else 'in ' + period}"
        for period, t in zip(r.periods, best.response_by_period_ms, strict=True)
    ]
    shown = ", ".join(times[:1] + times[-1:] if len(times) > 1 else times)
    smaller = [c for c in r.candidates if c.meets and _no_more(c, best)]
    rest = (
        "nothing tried with less of one choice and no more of any other holds it"
        if not smaller
        else f"{len(smaller)} tried with less of one choice and no more of any other also hold it"
    )
    return (
        f"Answer: {what} holding {level} {through}: {choice_text(best)}, {cost_text(best)}, "
        f"{shown}; {rest}."
    )


def _front(r: SizingResult) -> TextTable:
    names = [name for name, _ in r.candidates[0].choice]
    rows = []
    for i in r.front:
        c = r.candidates[i]
        mark = " *" if i == r.cheapest else (" (current)" if i == 0 else "")
        rows.append(
            [
                *(count if isinstance(count, str) else f"{count:g}" for _, count in c.choice),
                f"{c.price:,.0f}" if c.price is not None else "-",
                f"{c.drives:,}",
                f"{c.power_w:,.0f}",
                _ms(c.response_time_ms),
                verdict(c) + mark,
                c.uneven or "-",
            ]
        )
    return table(
        [*names, "price", "drives", "power W", "resp ms now", "service level", "uneven placement"],
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
