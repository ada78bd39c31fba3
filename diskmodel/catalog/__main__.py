"""`python -m diskmodel.catalog` prints docs/catalog.md; `python -m diskmodel.catalog parsed`
prints the kept parse of the shipped files (`loading.PARSED_FILE`). `make catalog` writes both
(docs/design.md, "Generated files")."""

import json
import sys

from diskmodel.catalog.loading import catalog_files, load_catalog, parsed_catalog_files
from diskmodel.catalog.markdown import render_catalog_markdown

if sys.argv[1:] == ["parsed"]:
    print(json.dumps(parsed_catalog_files(catalog_files()), indent=1, sort_keys=True))
else:
    print(render_catalog_markdown(load_catalog()), end="")
