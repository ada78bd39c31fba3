"""The calibrated scenario: the base scenario's own text with the identified values set.

Its comments and layout are kept (`diskmodel.yaml_edit.keep_layout` after this), a range
fitted is replaced by its fitted value, and what is not identified is left as written.
"""

from __future__ import annotations

import io

from diskmodel.measured.calibrate import Calibration
from diskmodel.measured.problem import FRONT_END, PIN_SHARE, SKEW


def calibrated_yaml(text: str, calibration: Calibration, provenance: str) -> str:
    """The scenario file's text with the identified parameters set, its comments and order
    kept, and `provenance` (one or more lines) as a comment at the top."""
    from ruamel.yaml import YAML

    yaml = YAML()
    data = yaml.load(text)
    index = {w["name"]: w for w in data["workloads"]}
    for p in calibration.parameters:
        if not p.identified or p.kind == "catalog":
            continue
        if p.key == FRONT_END:
            data["system"][FRONT_END] = round(p.value, 1)
        elif p.key == PIN_SHARE:
            index[p.workload]["pin"]["io_share"] = round(p.value, 4)
        elif p.key == SKEW:
            index[p.workload]["skew"] = {"level": round(p.value, 3)}
        else:
            index[p.workload][p.key] = round(p.value, 4)
    stream = io.StringIO()
    yaml.dump(data, stream)
    header = "".join(f"# {line}\n" for line in provenance.splitlines())
    return header + stream.getvalue()
