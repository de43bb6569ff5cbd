"""Time for the accounts: an injectable clock, and the UTC datetimes the database gives back."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """A stored time, always written in UTC: SQLite gives it back without its time zone."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
