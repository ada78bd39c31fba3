"""A loaded catalog entry written back as catalog YAML (`calibrate --fit` writes its fitted
figures this way): parsing the text gives the same entry, figure, provenance and range."""

from __future__ import annotations

import pytest

from diskmodel.catalog import Drive, RaidFormat, StorageSystem, load_catalog, parse_catalog_file
from diskmodel.catalog_yaml import catalog_file_text

CATALOG = load_catalog()
ENTRIES = [
    *CATALOG.systems.values(),
    *CATALOG.drives.values(),
    *CATALOG.raid_formats.values(),
]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_every_shipped_entry_comes_back_from_its_text(
    entry: StorageSystem | Drive | RaidFormat,
) -> None:
    text = catalog_file_text([entry], "a header\n\nof two paragraphs")
    assert text.startswith("# a header\n#\n# of two paragraphs\nschema_version: 1\n")
    parsed = parse_catalog_file(text, "entry.yaml")
    (back,) = [*parsed.systems, *parsed.drives, *parsed.raid_formats]
    assert back == entry


def test_a_range_is_written_on_one_line_and_an_unstated_figure_left_out() -> None:
    text = catalog_file_text([CATALOG.drives["ssd-300"]])
    assert "    range: [0.1, 0.3]\n" in text
    # The 2.5-inch packaging states no seek of its own: none is written (null would be refused).
    assert "null" not in text
