"""The public API, the facade every command goes through: what the command line and scripts
call.

    scenario = diskmodel.load_scenario("scenarios/ds8800-15k-plus-2-ssd.yaml")
    prediction = diskmodel.predict(scenario, base_dir=Path("scenarios"))
    html = diskmodel.render_html(prediction)
    text = diskmodel.to_json(prediction)

One module per command family: predicting (`run`, `compare`: load_scenario, read_inputs,
predict, compare, render_html, to_json, csv_tables, render_text, write_prediction),
catalog_lookup (`catalog list`/`show`; the catalog a scenario is read with), checking
(`check`), logwrite (`logwrite`), measured (`import`, `calibrate`), sizing (`size`) and outputs
(where a command's files go, written all or none). Each function is one call with plain data
between; errors a user can cause are `diskmodel.errors.UserError`s carrying their exit code.
Heavy modules load on first use, so importing diskmodel (and `diskmodel --help`) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diskmodel.api.catalog_lookup import (
    catalog_entry,
    catalog_listing,
    catalog_names,
    load_catalog,
    scenario_catalog,
)
from diskmodel.api.checking import Checked, check, check_text
from diskmodel.api.logwrite import LOG_PAGES, log_striping, log_striping_text
from diskmodel.api.measured import (
    calibrate,
    calibrated_outputs,
    calibrated_target,
    calibration_text,
    hardware_from_flags,
    imported_yaml,
    read_hardware,
    select_intervals,
)
from diskmodel.api.outputs import REPORTS, Planned, csv_paths, plan_outputs, write_outputs
from diskmodel.api.predicting import (
    compare,
    csv_tables,
    hand_charts_ahead,
    hand_configuration_charts_ahead,
    load_scenario,
    predict,
    read_inputs,
    render_html,
    render_text,
    to_json,
    warm_up_charts,
    write_prediction,
)
from diskmodel.api.sizing import (
    SizingPlan,
    cluster_workers,
    plan_sizing,
    size,
    size_candidates,
    sizing_outputs,
    sizing_text,
)

if TYPE_CHECKING:  # the types the functions take and return, for annotations
    from diskmodel.catalog import Catalog as Catalog
    from diskmodel.prediction import ScenarioPrediction as ScenarioPrediction
    from diskmodel.prediction import SizingResult as SizingResult
    from diskmodel.scenario import Scenario as Scenario
    from diskmodel.yamlio import Located as Located

__all__ = [
    "LOG_PAGES",
    "REPORTS",
    "Checked",
    "Planned",
    "SizingPlan",
    "calibrate",
    "calibrated_outputs",
    "calibrated_target",
    "calibration_text",
    "catalog_entry",
    "catalog_listing",
    "catalog_names",
    "check",
    "check_text",
    "cluster_workers",
    "compare",
    "csv_paths",
    "csv_tables",
    "hand_charts_ahead",
    "hand_configuration_charts_ahead",
    "hardware_from_flags",
    "imported_yaml",
    "load_catalog",
    "load_scenario",
    "log_striping",
    "log_striping_text",
    "plan_outputs",
    "plan_sizing",
    "predict",
    "read_hardware",
    "read_inputs",
    "render_html",
    "render_text",
    "scenario_catalog",
    "select_intervals",
    "size",
    "size_candidates",
    "sizing_outputs",
    "sizing_text",
    "to_json",
    "warm_up_charts",
    "write_outputs",
    "write_prediction",
]
