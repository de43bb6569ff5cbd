"""Persistence: the actions of each match's games, in order (SQLAlchemy; SQLite by default,
PostgreSQL by URL)."""

from gammon.store.repository import LogChange, MatchRecord, Store, StoredLog, default_database_url

__all__ = ["LogChange", "MatchRecord", "Store", "StoredLog", "default_database_url"]
