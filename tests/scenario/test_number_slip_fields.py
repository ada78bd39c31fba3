"""The number-slip check reads only the fields where a number may slip in (`values._field_slips`):
on every other field of every scenario model, the full check finds nothing for any value."""

from __future__ import annotations

from typing import Any

import diskmodel.scenario  # noqa: F401 - defines every scenario model
from diskmodel.scenario import values

PROBES: list[Any] = [
    "5000", "1,000", "10%", "3 ms", " 2.5e3 ", 4.5, 4.0, 7, True, None,
    [1, "2"], ["3", 4.0], ("5",), [[1, "x"]], {"a": "1"}, "oltp",
]  # fmt: skip


def _models() -> list[type[values.Model]]:
    out, todo = [], [values.Model]
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return out


def test_a_field_left_out_never_has_a_slip() -> None:
    checked = skipped = 0
    for model in _models():
        for name, field in model.model_fields.items():
            if values._field_slips(model, name) is not None:
                checked += 1
                continue
            skipped += 1
            for probe in PROBES:
                assert values.number_slip(field.annotation, probe) is None, (model, name, probe)
    # Both kinds exist, so the test can fail.
    assert checked > 50
    assert skipped > 20


def test_a_slip_is_still_found_where_numbers_are_asked() -> None:
    from diskmodel.scenario.storage import SystemConfig

    assert values._field_slips(SystemConfig, "host_ports") is not None
    assert "quotes" in (
        values.number_slip(SystemConfig.model_fields["host_ports"].annotation, "16") or ""
    )
