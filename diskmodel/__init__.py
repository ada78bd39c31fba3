"""diskmodel: analytical performance prediction for enterprise disk storage.

The public API (`diskmodel.api`): `load_scenario`, `predict`, `render_html`, `to_json`,
`render_text`.
"""

from diskmodel.api import load_scenario, predict, render_html, render_text, to_json

__version__ = "0.1.0"

__all__ = ["__version__", "load_scenario", "predict", "render_html", "render_text", "to_json"]
