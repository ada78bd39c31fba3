"""Determinism: the same scenario gives byte-identical JSON and (timestamp off) HTML, also in
another process with another hash seed (set and dict order must not leak into the output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ..conftest import ROOT
from ..support.scenarios import VALID
from ..support.strategies import ANALYSES

DIGESTS = """
import hashlib, json, sys
from pathlib import Path
from diskmodel import predict
from diskmodel.report.html import render_html
from diskmodel.report.json_result import to_json
from diskmodel.scenario import load_scenario
out = {}
for name in sys.argv[1:]:
    path = Path(name)
    s = load_scenario(path)
    p = predict(s, base_dir=path.parent)
    page = render_html(p, timestamp=False)
    out[path.name] = [hashlib.sha256(t.encode()).hexdigest() for t in (to_json(p), page)]
print(json.dumps(out))
"""


def digests(paths: list[Path], hash_seeds: list[str]) -> list[dict[str, list[str]]]:
    """SHA-256 of each scenario's JSON and HTML, one process per hash seed, run side by side."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", DIGESTS, *map(str, paths)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        for seed in hash_seeds
    ]
    out = []
    for run in runs:
        stdout, _ = run.communicate(timeout=300)
        assert run.returncode == 0
        out.append(dict(json.loads(stdout)))
    return out


def test_two_processes_with_different_hash_seeds_write_the_same_bytes(tmp_path: Path) -> None:
    every_analysis = tmp_path / "analyses.yaml"  # compare, growth and tier_sweep all at once
    every_analysis.write_text(VALID + ANALYSES, encoding="utf-8")
    first, second = digests([every_analysis], ["1", "2"])
    assert first == second
    assert list(first) == ["analyses.yaml"]
