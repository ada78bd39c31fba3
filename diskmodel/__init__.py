"""diskmodel: analytical performance prediction for enterprise disk storage."""

__version__ = "0.1.0"
