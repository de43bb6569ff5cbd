"""Persistence: an append-only action log per match (SQLAlchemy; SQLite by default, PostgreSQL by URL)."""

from gammon.store.repository import ActionRecord, MatchRecord, Store, default_database_url

__all__ = ["ActionRecord", "MatchRecord", "Store", "default_database_url"]
