"""Timestamps in JSON output."""

from datetime import datetime


def iso(value: datetime | None) -> str | None:
    """ISO 8601 with its offset, or None (null) for a moment that has not happened."""
    return value.isoformat() if value is not None else None
