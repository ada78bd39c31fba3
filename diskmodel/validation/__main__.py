"""`python -m diskmodel.validation`: the table, or docs/validation.md written or checked."""

from diskmodel.validation import main

raise SystemExit(main())
