"""Turning results into text, JSON and HTML: reads plain data, never models anything."""
