"""The example in docs/tiering.md runs and says what the page says it does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "tiering.md"


def test_the_documented_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    pool = namespace["pool"]
    assert pool.on("ssd").small_io_share == pytest.approx(0.49, abs=0.005)  # type: ignore[attr-defined]
